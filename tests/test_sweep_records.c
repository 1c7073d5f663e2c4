/* The records of a sweep as written and read back, through the command:
 *  - a runs.partial.csv row whose names, y and yref hold fewer or more entries than the problem
 *    (or other names) is refused by `sweep --resume [--ref]` with file:line and exit 2, before
 *    its vectors meet the problem (they were copied and compared past their end);
 *  - a side file's component names are checked (x1,evil and y1"q are refused with FILE:line);
 *  - the files of a sweep are committed together: a side file that cannot be written (a folder in
 *    its place) or a runs.json that cannot (a file size limit: a full disk) leaves no runs.csv
 *    with missing rows and no mix of sets: the previous set stays, runs.partial.csv is kept, and
 *    the exit is 2; a runs.staging that is a link to another folder is not emptied; the side
 *    files of the old set that the new runs.csv does not name are removed;
 *  - runs.csv reads with Python's csv module as a header and one row per run, each of the
 *    header's length (the environment in columns), and an older runs.csv with "#" lines after
 *    its header still reports. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

static char tmpdir[] = "/tmp/mbdae-test-records-XXXXXX";
static char out[1 << 16];

/* sh -c of the formatted line, output and errors into out; the exit code. */
static int shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int shell(const char *fmt, ...)
{
  char cmd[4096];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(cmd, sizeof cmd - 8, fmt, ap);
  va_end(ap);
  CHECK(len > 0 && len < (int)sizeof cmd - 8, "command too long");
  strcat(cmd, " 2>&1");
  FILE *f = popen(cmd, "r");
  if (!f) {
    return -1;
  }
  size_t used = fread(out, 1, sizeof out - 1, f);
  out[used] = '\0';
  while (fgetc(f) != EOF) {
  }
  int status = pclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define MBDAE "'" MBDAE_CLI "'"

static int exists(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return access(path, F_OK) == 0;
}

/* The records of dir/name (runs.csv, runs.partial.csv); -1 when refused or absent. */
static long count_rows(const char *dir, const char *name)
{
  char path[512], msg[600];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *in = fopen(path, "r");
  mbdae_record *recs = NULL;
  size_t n = 0;
  if (!in) {
    return -1;
  }
  int rc = mbdae_record_read_csv(in, path, &recs, &n, msg, sizeof msg);
  fclose(in);
  mbdae_records_free(recs, n);
  return rc == 0 ? (long)n : -1;
}

static int count_in_file(const char *dir, const char *name, const char *needle)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  int n = 0;
  size_t k = 0, len = strlen(needle);
  for (int c; (c = fgetc(f)) != EOF;) { /* no line is too long for this */
    k = c == needle[k] ? k + 1 : (c == needle[0] ? 1 : 0);
    if (k == len) {
      n++;
      k = 0;
    }
  }
  fclose(f);
  return n;
}

/* ---- resume with rows of another size ------------------------------------------------------ */

/* dir/runs.partial.csv: the header and rec as it is. */
static void write_partial(const char *dir, const mbdae_record *rec)
{
  char path[512];
  snprintf(path, sizeof path, "%s/runs.partial.csv", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "cannot write %s", path);
  if (f) {
    mbdae_record_write_csv_header(f, NULL);
    mbdae_record_write_csv_row(f, rec);
    fclose(f);
  }
}

static void check_resume_sizes(void)
{
  const char *spec = "chain:n=2,m=1:3,tend=0.5", *why[] = {"entries", "entries", "named"};
  char dir[256], ref[256], args[1024], msg[600];
  snprintf(dir, sizeof dir, "%s/resume", tmpdir);
  snprintf(ref, sizeof ref, "%s/chain-ref.txt", tmpdir);
  snprintf(args, sizeof args, "sweep %s --solvers radau5 --m 0:1 --no-plots --out %s", spec, dir);
  CHECK(shell(MBDAE " refsol %s --out %s", spec, ref) == 0, "refsol: %s", out);
  CHECK(shell(MBDAE " %s --ref %s", args, ref) == 0, "sweep --ref: %s", out);
  char path[512];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *in = fopen(path, "r");
  mbdae_record *recs = NULL;
  size_t n = 0;
  CHECK(in && mbdae_record_read_csv(in, path, &recs, &n, msg, sizeof msg) == 0 && n == 2 &&
            recs[0].neq == 10 && recs[0].yref,
        "runs.csv of the sweep: %zu rows: %s", n, msg);
  if (in) {
    fclose(in);
  }
  if (n != 2 || recs[0].neq != 10 || !recs[0].yref) {
    mbdae_records_free(recs, n);
    return;
  }
  mbdae_record *r = &recs[0];
  double y[11], yref[11];
  char *names[11], *kept_names = r->names[0];
  double *kept_y = r->y, *kept_yref = r->yref;
  for (int variant = 0; variant < 3; variant++) { /* fewer, more, other names */
    memcpy(y, kept_y, sizeof(double) * 10);
    memcpy(yref, kept_yref, sizeof(double) * 10);
    memcpy(names, r->names, sizeof(char *) * 10);
    y[10] = yref[10] = 0.5;
    names[10] = "extra";
    names[0] = variant == 2 ? "q1" : kept_names;
    r->neq = variant == 0 ? 9 : variant == 1 ? 11 : 10;
    r->y = y;
    r->yref = yref;
    char **own = r->names;
    r->names = names;
    write_partial(dir, r);
    r->names = own;
    for (int with_ref = 0; with_ref < 2; with_ref++) {
      /* Without sweep.conf the rows alone say what was run, so the resume reads and checks each
       * row, with --ref and without (sweep.conf would refuse other settings before any row). */
      CHECK(shell("rm -f %s/sweep.conf", dir) == 0, "rm: %s", out);
      int rc =
          shell(MBDAE " %s --resume%s%s", args, with_ref ? " --ref " : "", with_ref ? ref : "");
      CHECK(rc == 2 && strstr(out, "runs.partial.csv:2: ") && strstr(out, why[variant]),
            "resume%s with a row of %d entries%s: exit %d, expected 2 naming "
            "runs.partial.csv:2:\n%s",
            with_ref ? " --ref" : "", r->neq, variant == 2 ? " (renamed)" : "", rc, out);
      CHECK(count_rows(dir, "runs.csv") == 2 && count_rows(dir, "runs.partial.csv") == 1,
            "the refused resume kept runs.csv and runs.partial.csv");
    }
  }
  r->y = kept_y;
  r->yref = kept_yref;
  r->neq = 10;
  mbdae_records_free(recs, n);
}

/* ---- side files ----------------------------------------------------------------------------- */

/* A sweep of a chain of 1500 components, three runs of one step: side files runs-1..3.vec. */
static int sweep_large(const char *dir, const char *rtols, const char *extra)
{
  return shell(MBDAE " sweep chain:n=300 --max-steps 1 --solvers radau5 --rtol %s --no-plots "
                     "--out %s %s",
               rtols, dir, extra);
}

static void check_side_names(void)
{
  char dir[256];
  snprintf(dir, sizeof dir, "%s/names", tmpdir);
  int rc = sweep_large(dir, "1e-3,1e-4,1e-5", "");
  CHECK(rc == 1 && exists(dir, "runs-1.vec") && count_rows(dir, "runs.csv") == 3,
        "large sweep: exit %d:\n%s", rc, out);
  static const char *const bad[] = {"x1,evil", "y1\\\"q", "-", "x\\$1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(shell("cd %s && cp runs-1.vec keep && sed -i \"3s/^2 [^ ]*/2 %s/\" runs-1.vec", dir,
                bad[i]) == 0,
          "sed: %s", out);
    rc = shell(MBDAE " sweep --report %s --no-plots", dir);
    CHECK(rc == 2 && strstr(out, "runs-1.vec:3: "),
          "--report with a side file's name %s: exit %d, expected 2 naming runs-1.vec:3:\n%s",
          bad[i], rc, out);
    CHECK(shell("cd %s && mv keep runs-1.vec", dir) == 0, "restore: %s", out);
  }
  rc = shell(MBDAE " sweep --report %s --no-plots", dir);
  CHECK(rc == 1 && strstr(out, "3 runs (3 failed)"), "--report of the restored folder: %d\n%s", rc,
        out);
}

/* ---- the set committed together -------------------------------------------------------------- */

static void check_commit(void)
{
  char dir[256];
  snprintf(dir, sizeof dir, "%s/commit-new", tmpdir); /* a folder in a side file's place */
  CHECK(shell("mkdir -p %s/runs-2.vec/blocker", dir) == 0, "mkdir: %s", out);
  int rc = sweep_large(dir, "1e-3,1e-4,1e-5", "--force"); /* --force: a folder that is not empty */
  CHECK(rc == 2 && strstr(out, "runs-2.vec") && strstr(out, "runs.partial.csv (--resume)"),
        "a folder runs-2.vec: exit %d, expected 2 naming it and runs.partial.csv:\n%s", rc, out);
  CHECK(!exists(dir, "runs.csv") && !exists(dir, "runs.json") && !exists(dir, "runs-1.vec") &&
            !exists(dir, "chain-table.md") && !exists(dir, "runs.staging") &&
            count_rows(dir, "runs.partial.csv") == 3,
        "a failed first commit leaves nothing but runs.partial.csv (3 rows)");

  snprintf(dir, sizeof dir, "%s/commit-link", tmpdir); /* runs.staging a link: left alone */
  CHECK(shell("mkdir -p %s/elsewhere %s && touch %s/elsewhere/keep && ln -s ../elsewhere "
              "%s/runs.staging",
              tmpdir, dir, tmpdir, dir) == 0,
        "ln: %s", out);
  rc = sweep_large(dir, "1e-3", "--force");
  CHECK(rc == 2 && strstr(out, "runs.staging") && exists(tmpdir, "elsewhere/keep") &&
            !exists(dir, "runs.csv"),
        "runs.staging a link to another folder: exit %d (2), that folder's file kept:\n%s", rc,
        out);

  snprintf(dir, sizeof dir, "%s/commit-old", tmpdir); /* the same over a previous sweep */
  rc = sweep_large(dir, "1e-3,1e-4,1e-5", "");
  CHECK(rc == 1 && count_rows(dir, "runs.csv") == 3, "first sweep: exit %d\n%s", rc, out);
  /* Other settings: --force replaces the earlier sweep's outputs, but only once the new set is
   * whole and nothing stands in its way (a folder in the place of runs-4.vec blocks the commit):
   * the earlier set stays as it was (issue 33, item 6). */
  CHECK(shell("mkdir -p %s/runs-4.vec/blocker", dir) == 0, "mkdir: %s", out);
  rc = sweep_large(dir, "1e-3,1e-4,1e-5,1e-6", "--force");
  CHECK(rc == 2 && count_rows(dir, "runs.csv") == 3 &&
            count_in_file(dir, "runs.json", "\"problem\": ") == 3 && exists(dir, "runs-3.vec") &&
            exists(dir, "chain-table.md") && count_rows(dir, "runs.partial.csv") == 4 &&
            !exists(dir, "runs.staging"),
        "a folder runs-4.vec: exit %d (2), the earlier set kept whole, 4 rows in "
        "runs.partial.csv:\n%s",
        rc, out);

  /* A file size limit (SIGXFSZ ignored, so a write fails EFBIG as on a full disk): 120 blocks
   * (60 KB under dash, 120 under bash) do not take runs.partial.csv (four rows of 40 KB), which
   * --resume rewrites as a new file (an append is read + rewrite + rename): refused before any
   * run, runs.partial.csv and the earlier set as they were. */
  CHECK(shell("rm -r %s/runs-4.vec", dir) == 0, "rm: %s", out);
  rc = shell("trap '' XFSZ; ulimit -f 120 && " MBDAE " sweep chain:n=300 --max-steps 1 --solvers "
             "radau5 --rtol 1e-3,1e-4,1e-5,1e-6 --no-plots --out %s --resume",
             dir);
  CHECK(rc == 2 && strstr(out, "runs.partial.csv") && count_rows(dir, "runs.csv") == 3 &&
            count_in_file(dir, "runs.json", "\"problem\": ") == 3 && exists(dir, "runs-3.vec") &&
            exists(dir, "chain-table.md") && count_rows(dir, "runs.partial.csv") == 4 &&
            !exists(dir, "runs.staging"),
        "a limit below runs.partial.csv: exit %d (2), the earlier set and runs.partial.csv kept "
        "whole:\n%s",
        rc, out);
  rc = sweep_large(dir, "1e-3,1e-4,1e-5,1e-6", "--resume");
  CHECK(rc == 1 && count_rows(dir, "runs.csv") == 4 &&
            count_in_file(dir, "runs.json", "\"problem\": ") == 4 &&
            !exists(dir, "runs.partial.csv") && exists(dir, "runs-4.vec"),
        "the resumed sweep commits its 4 rows: exit %d\n%s", rc, out);
  rc = sweep_large(dir, "1e-3,1e-4", "--force"); /* fewer rows: the old side files go */
  CHECK(rc == 1 && count_rows(dir, "runs.csv") == 2 && exists(dir, "runs-2.vec") &&
            !exists(dir, "runs-3.vec") && !exists(dir, "runs-4.vec"),
        "a sweep of 2 rows over one of 4: exit %d, runs-3.vec and runs-4.vec removed\n%s", rc, out);
}

/* ---- any CSV reader -------------------------------------------------------------------------- */

static void check_csv_readers(void)
{
  char dir[256];
  snprintf(dir, sizeof dir, "%s/plain", tmpdir);
  int rc = shell(MBDAE " sweep caraxis --m 0:2 --solvers radau5 --no-plots --out %s", dir);
  CHECK(rc == 0 && count_rows(dir, "runs.csv") == 3, "sweep: exit %d\n%s", rc, out);
  if (access("/usr/bin/python3", X_OK) != 0) {
    printf("test_sweep_records: /usr/bin/python3 absent, Python's csv module not tried\n");
  } else {
    rc = shell("/usr/bin/python3 -c 'import csv, sys\n"
               "rows = list(csv.reader(open(sys.argv[1], newline=\"\")))\n"
               "h = rows[0]\n"
               "assert all(len(r) == len(h) for r in rows[1:]), \"ragged\"\n"
               "assert h[-7:] == [\"mbdae_version\", \"dependencies\", \"machine\", \"cpu\", "
               "\"tscd\", \"tmescd\", \"tscd_rms\"], h\n"
               "assert all(r[h.index(\"problem\")] == \"caraxis\" for r in rows[1:])\n"
               "print(\"runs\", len(rows) - 1)' %s/runs.csv",
               dir);
    CHECK(rc == 0 && strstr(out, "runs 3\n"), "Python's csv module on runs.csv: %d\n%s", rc, out);
  }
  /* an older runs.csv: no environment columns, "#" lines after the header */
  snprintf(dir, sizeof dir, "%s/old", tmpdir);
  CHECK(shell("mkdir -p %s && printf '%%s\\n' "
              "'problem,spec,solver,rtol,atol,h0,status,message,scd,mescd,steps,accepted,nres,njac,"
              "nlu,cpu_seconds,cpu_min,cpu_max,repeats,nres_fd,code,t,h,nerrfail,nconvfail,hmax,"
              "max_steps,solver_title,names,y,yref,drift_pos_max,drift_vel_max,drift_pos_end,"
              "drift_vel_end,drift_steps' '# mbdae: 0.2.0' '# dependencies: SUNDIALS 6.4.1' "
              "'# machine: Linux old-box' '# cpu: ' "
              "'caraxis,caraxis:form=index3,radau5,0.0001,0.0001,0.0001,ok,,3.5,4.5,50,45,200,10,"
              "20,0.01,0.009,0.012,1,0,MBDAE_OK,3,0.01,0,0,0,0,Radau,"
              "x_l y_l x_r y_r vx_l vy_l vx_r vy_r lambda1 lambda2,0 0 0 0 0 0 0 0 0 0,,,,,,0' "
              "> %s/runs.csv",
              dir, dir) == 0,
        "old runs.csv: %s", out);
  rc = shell(MBDAE " sweep --report %s --no-plots", dir);
  CHECK(rc == 0 && strstr(out, "1 runs (0 failed)") &&
            count_in_file(dir, "runs.json", "\"machine\": \"Linux old-box\"") == 1,
        "--report of an older runs.csv: exit %d\n%s", rc, out);
}

/* --resume refuses an "ok" row whose y is not finite (issue 33, item 10): an ok run ends at a
 * finite state, so the row was damaged; taking it would put NaN into runs.csv as a result. */
static void check_resume_nonfinite(void)
{
  char dir[256];
  snprintf(dir, sizeof dir, "%s/nan-y", tmpdir);
  int rc = shell(MBDAE " sweep caraxis --m 0:1 --solvers ida --no-plots --out %s", dir);
  CHECK(rc == 0, "sweep: exit %d\n%s", rc, out);
  rc = shell("sed -E '2s/(,x_l [^,]*,)[^ ]*/\\1nan/' %s/runs.csv > %s/runs.partial.csv && rm "
             "%s/runs.csv && grep -c ',nan ' %s/runs.partial.csv",
             dir, dir, dir, dir);
  CHECK(rc == 0 && atoi(out) == 1, "planting y[1] = nan: %s", out);
  rc = shell(MBDAE " sweep caraxis --m 0:1 --solvers ida --no-plots --out %s --resume", dir);
  CHECK(rc == 2 && strstr(out, "row 1 (caraxis:form=index3, ida, rtol 0.0001)") &&
            strstr(out, "y[1] is not a finite number") && !exists(dir, "runs.csv"),
        "--resume with an ok row whose y[1] is nan: exit %d, expected 2 naming the row:\n%s", rc,
        out);
}

/* --resume on a folder whose sweep is finished: nothing to do, nothing run, nothing written. */
static void check_resume_finished(void)
{
  char dir[256];
  snprintf(dir, sizeof dir, "%s/finished", tmpdir);
  int rc = shell(MBDAE " sweep caraxis --m 0:0 --solvers ida --no-plots --out %s && cp %s/runs.csv "
                       "%s/runs.before",
                 dir, dir, dir);
  CHECK(rc == 0, "sweep: exit %d\n%s", rc, out);
  rc = shell(MBDAE " sweep caraxis --m 0:0 --solvers ida --no-plots --out %s --resume", dir);
  CHECK(rc == 0 && strstr(out, "nothing to do") && !strstr(out, "[  1/1]"),
        "--resume on a finished sweep: exit %d, expected 0 and 'nothing to do', no run:\n%s", rc,
        out);
  rc = shell("cmp %s/runs.csv %s/runs.before", dir, dir);
  CHECK(rc == 0, "--resume on a finished sweep rewrote runs.csv: %s", out);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  check_resume_sizes();
  check_side_names();
  check_commit();
  check_csv_readers();
  check_resume_nonfinite();
  check_resume_finished();
  if (check_failed == 0) {
    shell("rm -rf %s", tmpdir);
  }
  return check_summary("test_sweep_records");
}
