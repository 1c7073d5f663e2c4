/* mbdae sweep and its output folder (DIR/sweep.conf, src/cli/sweep_folder.c) and --resume's
 * matching of runs.partial.csv:
 *   - a sweep into a folder that holds the same sweep runs again; one with other settings is
 *     refused (exit 2, naming the setting) and the folder left as it was; --force replaces that
 *     sweep's files (its tables and pictures gone) and leaves every other file;
 *   - a non-empty folder without sweep.conf is refused unless --force, and then its files stay;
 *   - names read back from sweep.conf that are not a sweep's own (another file, a path) are never
 *     removed;
 *   - --resume refuses a runs.partial.csv made with other options, naming the option: from
 *     sweep.conf (linsys, max-steps) and, for a partial file without one, from its rows
 *     (max_steps, repeats); with the same options it runs only the missing run. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

static char tmpdir[] = "/tmp/mbdae-test-sweep-folder-XXXXXX";
static char out[1 << 16];

/* `mbdae ARGS` formatted as printf does, its output in out. */
#define cli(...) run_clif(out, sizeof out, __VA_ARGS__)

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int sh(const char *fmt, ...)
{
  char cmd[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  int rc = system(cmd);
  CHECK(rc == 0, "%s: status %d", cmd, rc);
  return rc;
}

static int exists(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return access(path, F_OK) == 0;
}

/* Rows of dir/name (lines that start with "caraxis," or "andrews,"). */
static int rows_in(const char *dir, const char *name)
{
  char path[512], line[1 << 14];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  int n = 0;
  while (f && fgets(line, sizeof line, f)) {
    n += strncmp(line, "caraxis,", 8) == 0 || strncmp(line, "andrews,", 8) == 0;
  }
  if (f) {
    fclose(f);
  }
  return n;
}

static void check_folder(void)
{
  char dir[256], other[256];
  snprintf(dir, sizeof dir, "%s/wp", tmpdir);
  const char *plan = "caraxis --solvers ida --m 0:1 --no-plots";
  int rc = cli("sweep %s --out %s", plan, dir);
  CHECK(rc == 0 && exists(dir, "sweep.conf"), "first sweep: exit %d:\n%s", rc, out);
  sh("echo mine > %s/notes.txt && : > %s/caraxis-scd.png", dir, dir); /* a picture of it */
  rc = cli("sweep %s --out %s", plan, dir);
  CHECK(rc == 0 && exists(dir, "notes.txt"), "the same sweep again: exit %d:\n%s", rc, out);

  rc = cli("sweep caraxis --solvers ida --m 0:0 --no-plots --out %s", dir);
  CHECK(rc == 2 && strstr(out, "holds a sweep with other settings") &&
            strstr(out, "tolerances: --m 0:1 there, --m 0:0 here") && strstr(out, "--force"),
        "another sweep into the folder: exit %d, expected 2 naming the setting:\n%s", rc, out);
  CHECK(rows_in(dir, "runs.csv") == 2 && exists(dir, "caraxis-table.md"),
        "a refused sweep changed the folder");

  sh(": > %s/caraxis-scd.png", dir); /* as if gnuplot had drawn it */
  rc = cli("sweep andrews --solvers ida --m 0:0 --no-plots --force --out %s", dir);
  CHECK(rc == 0, "--force: exit %d:\n%s", rc, out);
  CHECK(!exists(dir, "caraxis-table.md") && !exists(dir, "caraxis-scd.png") &&
            exists(dir, "andrews-table.md") && rows_in(dir, "runs.csv") == 1,
        "--force: the earlier sweep's table or picture left beside the new runs.csv");
  CHECK(exists(dir, "notes.txt"), "--force removed a file that is not a sweep's");

  snprintf(other, sizeof other, "%s/foreign", tmpdir);
  sh("mkdir -p %s && echo mine > %s/notes.txt && : > %s/andrews-table.md", other, other, other);
  rc = cli("sweep caraxis --solvers ida --m 0:0 --no-plots --out %s", other);
  CHECK(rc == 2 && strstr(out, "is not empty and holds no sweep") && !exists(other, "runs.csv"),
        "a folder of other files: exit %d, expected 2:\n%s", rc, out);
  rc = cli("sweep caraxis --solvers ida --m 0:0 --no-plots --force --out %s", other);
  CHECK(rc == 0 && exists(other, "notes.txt") && exists(other, "andrews-table.md") &&
            exists(other, "caraxis-table.md"),
        "--force into a folder of other files: exit %d, its files should stay:\n%s", rc, out);

  /* sweep.conf edited to name other files: none of them is removed */
  sh("sed -i 's|^tables: .*|tables: notes.txt ../x-table.md andrews-table.md|; s|^problems: "
     ".*|problems: ../foreign notes.txt|' %s/sweep.conf && : > %s/../x-table.md",
     other, other);
  rc = cli("sweep caraxis --solvers ida --m 0:0 --no-plots --out %s", other);
  CHECK(rc == 0 && exists(other, "notes.txt") && exists(tmpdir, "x-table.md") &&
            !exists(other, "andrews-table.md"),
        "names of sweep.conf: exit %d; only a table name may be removed:\n%s", rc, out);
}

/* dir/runs.partial.csv as the first `keep` rows of a finished sweep's runs.csv (with its
 * sweep.conf when conf), as a killed sweep leaves it. */
static void make_partial(const char *dir, const char *args, int keep, int conf)
{
  char done[300];
  snprintf(done, sizeof done, "%s.done", dir);
  int rc = cli("sweep %s --out %s", args, done);
  CHECK(rc == 0 || rc == 1, "sweep %s: exit %d:\n%s", args, rc, out);
  sh("mkdir -p %s && (grep -v '^caraxis,' %s/runs.csv; grep '^caraxis,' %s/runs.csv | head -n %d) "
     "> %s/runs.partial.csv%s%s%s%s",
     dir, done, done, keep, dir, conf ? " && cp " : "", conf ? done : "",
     conf ? "/sweep.conf " : "", conf ? dir : "");
}

static void check_resume(void)
{
  char dir[256];
  const char *plan = "caraxis --solvers ida --m 0:1 --no-plots";
  char args[512];

  snprintf(dir, sizeof dir, "%s/steps", tmpdir); /* no sweep.conf: the rows tell */
  snprintf(args, sizeof args, "%s --max-steps 5", plan);
  make_partial(dir, args, 1, 0);
  int rc = cli("sweep %s --resume --out %s", plan, dir);
  CHECK(rc == 2 && strstr(out, "max_steps 5 there, 0 here"),
        "--resume over rows of --max-steps 5: exit %d, expected 2 naming max_steps:\n%s", rc, out);

  snprintf(dir, sizeof dir, "%s/repeat", tmpdir);
  snprintf(args, sizeof args, "%s --repeat 5", plan); /* the default is 3 */
  make_partial(dir, args, 1, 0);
  rc = cli("sweep %s --resume --out %s", plan, dir);
  CHECK(rc == 2 && strstr(out, "repeats 5 there, 3 here"),
        "--resume over rows of --repeat 5: exit %d, expected 2 naming repeats:\n%s", rc, out);

  snprintf(dir, sizeof dir, "%s/conf", tmpdir); /* sweep.conf: every setting */
  make_partial(dir, plan, 1, 1);
  rc = cli("sweep %s --linsys dense --resume --out %s", plan, dir);
  CHECK(rc == 2 && strstr(out, "linsys: auto there, dense here"),
        "--resume with another --linsys: exit %d, expected 2 naming linsys:\n%s", rc, out);
  rc = cli("sweep %s --max-steps 5 --resume --out %s", plan, dir);
  CHECK(rc == 2 && strstr(out, "max-steps: the solver's default there, 5 here"),
        "--resume with another --max-steps: exit %d, expected 2 naming it:\n%s", rc, out);
  rc = cli("sweep %s --resume --out %s", plan, dir);
  CHECK(rc == 0 && strstr(out, "resuming: 1 of 2 runs") && rows_in(dir, "runs.csv") == 2 &&
            !exists(dir, "runs.partial.csv"),
        "--resume with the same options: exit %d:\n%s", rc, out);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  check_folder();
  check_resume();
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) {
    fprintf(stderr, "test_sweep_folder: cannot remove %s\n", tmpdir);
  }
  return check_summary("test_sweep_folder");
}
