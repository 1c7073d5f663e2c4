/* Reference files (--ref FILE, src/cli/ref_file.c) and runs.csv side files (@FILE): every
 * committed refsol/<name>.txt names its configuration in a "# spec:" line and gives, through --ref,
 * the scd of the problem's own reference; a file without that line is refused (it was taken for
 * any configuration of its size); /dev/zero, a FIFO, a directory and an oversized file are refused
 * without hanging or eating memory (each command under `timeout`: a hang fails the check). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

static char dir[64] = "/tmp/mbdae_reffile_XXXXXX";

/* `timeout 60 mbdae <args>`: its exit status (124 when it had to be killed), output in out. */
static int run_bounded(const char *args, char *out, size_t len)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "timeout -s KILL 60 \"%s\" %s 2>&1", MBDAE_CLI, args);
  FILE *f = popen(cmd, "r");
  size_t used = f ? fread(out, 1, len - 1, f) : 0;
  out[used] = '\0';
  int status = f ? pclose(f) : -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void expect_bounded(const char *args, int code, const char *must_mention)
{
  static char out[1 << 14];
  int rc = run_bounded(args, out, sizeof out);
  CHECK(rc == code && strstr(out, must_mention), "mbdae %s: exit %d (expected %d), output:\n%s",
        args, rc, code, out);
}

/* The value of "key": in a --json run's output, NaN when absent. */
static double json_number(const char *out, const char *key)
{
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": ", key);
  const char *at = strstr(out, pattern);
  return at ? atof(at + strlen(pattern)) : NAN;
}

/* The "# spec: " line of path into spec ("" without one). */
static void spec_line(const char *path, char *spec, size_t len)
{
  char line[1024];
  spec[0] = '\0';
  FILE *f = fopen(path, "r");
  while (f && !spec[0] && fgets(line, sizeof line, f)) {
    if (strncmp(line, "# spec: ", 8) == 0) {
      snprintf(spec, len, "%.*s", (int)strcspn(line + 8, "\r\n"), line + 8);
    }
  }
  if (f) {
    fclose(f);
  }
}

/* Each refsol/<name>.txt: a spec line, and `run SPEC --ref FILE` gives the scd of `run SPEC`.
 * The reference trajectories, refsol/<name>_traj.txt, are not end references (test_ref_traj). */
static void committed_files_carry_their_spec(void)
{
  DIR *d = opendir(MBDAE_REFSOL_DIR);
  CHECK(d != NULL, "open %s", MBDAE_REFSOL_DIR);
  int files = 0;
  static char out[1 << 16];
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".txt") != 0 ||
        (n > 9 && strcmp(e->d_name + n - 9, "_traj.txt") == 0)) {
      continue;
    }
    char path[600], spec[512], args[1400];
    snprintf(path, sizeof path, "%s/%s", MBDAE_REFSOL_DIR, e->d_name);
    spec_line(path, spec, sizeof spec);
    CHECK(spec[0], "%s has no '# spec:' line", path);
    if (!spec[0]) {
      continue;
    }
    files++;
    snprintf(args, sizeof args, "run %s --solver radau5 --json", spec);
    CHECK(run_cli(args, out, sizeof out) == 0, "mbdae %s: %s", args, out);
    double own = json_number(out, "scd");
    snprintf(args, sizeof args, "run %s --solver radau5 --json --ref %s", spec, path);
    CHECK(run_cli(args, out, sizeof out) == 0, "mbdae %s: %s", args, out);
    double from_file = json_number(out, "scd");
    CHECK(isfinite(own) && own == from_file, "%s: scd %.17g with --ref, %.17g without", path,
          from_file, own);
  }
  if (d) {
    closedir(d);
  }
  CHECK(files >= 13,
        "%d reference files (pendulum, dpendulum, caraxis, andrews, crank, chain "
        "n = 1..8)",
        files);
}

/* The audit's case: the pendulum's file without its spec line was taken for any run of 5
 * components (chain:n=1,tend=2 gave exit 0 and scd -0.91 from a tend=1 file). */
static void a_file_without_spec_is_refused(void)
{
  char bare[128], args[512];
  snprintf(bare, sizeof bare, "%s/bare.txt", dir);
  snprintf(args, sizeof args, "grep -v '^# spec: ' %s/pendulum.txt > %s", MBDAE_REFSOL_DIR, bare);
  CHECK(system(args) == 0, "%s", args);
  snprintf(args, sizeof args, "run pendulum --ref %s", bare);
  expect_bounded(args, 2, "no '# spec: SPEC' line");
  snprintf(args, sizeof args, "run chain:n=1,tend=2 --ref %s", bare);
  expect_bounded(args, 2, "no '# spec: SPEC' line");
  snprintf(args, sizeof args, "run chain:n=1,tend=2 --ref %s/pendulum.txt", MBDAE_REFSOL_DIR);
  expect_bounded(args, 2, "the reference is for pendulum:form=index3, not for chain:n=1");
}

/* Not a regular file, or too large: refused at once with exit 2. */
static void only_regular_files(void)
{
  char path[128], args[512];
  expect_bounded("run pendulum --ref /dev/zero", 2, "not a regular file");
  snprintf(path, sizeof path, "%s/fifo", dir);
  CHECK(mkfifo(path, 0600) == 0, "mkfifo %s", path);
  snprintf(args, sizeof args, "run pendulum --ref %s", path);
  expect_bounded(args, 2, "not a regular file");
  snprintf(args, sizeof args, "table pendulum --solver radau5 --ref %s", path);
  expect_bounded(args, 2, "not a regular file");
  snprintf(args, sizeof args, "run pendulum --ref %s", dir);
  expect_bounded(args, 2, "not a regular file");
  snprintf(path, sizeof path, "%s/huge.txt", dir);
  FILE *f = fopen(path, "w");
  CHECK(f && fseek(f, 3 << 20, SEEK_SET) == 0 && fputc('\n', f) == '\n', "sparse file");
  if (f) {
    fclose(f);
  }
  snprintf(args, sizeof args, "run pendulum --ref %s", path);
  expect_bounded(args, 2, "more than a reference file's");
}

/* The --ref reader in a sweep too (the same function; here the FIFO must not block the sweep). */
static void sweep_refuses_a_fifo(void)
{
  char args[512];
  snprintf(args, sizeof args, "sweep pendulum --solvers radau5 --out %s/sweep --ref %s/fifo", dir,
           dir);
  expect_bounded(args, 2, "not a regular file");
}

/* A runs.csv row whose side file (@FILE) is a FIFO or /dev/zero is refused (mbdae_record_read_csv;
 * alarm: a blocked read kills the test rather than hanging it). */
static void side_file_must_be_regular(void)
{
  mbdae_problem *p = create_problem("chain:n=201"); /* neq 1005: a side file */
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.h0 = 1e-6;
  mbdae_record rec = MBDAE_RECORD_INIT;
  CHECK(mbdae_record_init(&rec, p, mbdae_solver_find("radau5"), &opt) == 0, "record");
  rec.y = calloc((size_t)rec.neq, sizeof(double));
  rec.status = MBDAE_OK;
  char csv[128], side[128], args[512], msg[600] = "";
  snprintf(csv, sizeof csv, "%s/runs.csv", dir);
  snprintf(side, sizeof side, "%s/runs-1.vec", dir);
  for (int kind = 0; kind < 2; kind++) {
    remove(side); /* the writer must not open the last round's FIFO */
    FILE *out = fopen(csv, "w");
    mbdae_record_write_csv_header(out, NULL);
    CHECK(mbdae_record_write_csv_row_side(out, &rec, dir, "runs-1.vec") == 0, "side row");
    fclose(out);
    remove(side);
    if (kind == 0) {
      CHECK(mkfifo(side, 0600) == 0, "mkfifo %s", side);
    } else {
      snprintf(args, sizeof args, "ln -s /dev/zero %s", side);
      CHECK(system(args) == 0, "%s", args);
    }
    alarm(60);
    FILE *in = fopen(csv, "r");
    mbdae_record *recs = NULL;
    size_t n = 0;
    int rc = mbdae_record_read_csv(in, csv, &recs, &n, msg, sizeof msg);
    alarm(0);
    fclose(in);
    CHECK(rc != 0 && strstr(msg, "runs-1.vec: not a regular file"), "%s side file: %s",
          kind ? "/dev/zero" : "FIFO", msg);
    mbdae_records_free(recs, n);
  }
  remove(side);
  mbdae_record_free(&rec);
  mbdae_problem_destroy(p);
}

int main(void)
{
  CHECK(mkdtemp(dir) != NULL, "temporary directory");
  committed_files_carry_their_spec();
  a_file_without_spec_is_refused();
  only_regular_files();
  sweep_refuses_a_fifo();
  side_file_must_be_regular();
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0, "%s", cmd);
  return check_summary("test_ref_file");
}
