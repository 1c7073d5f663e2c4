/* What the command writes and reads, against a hostile or full file system (issue 33, items 6-9):
 *  - no write through a symbolic link: a link planted at every name the command writes (plot's
 *    script, picture, log and --data; refsol --out; run --trajectory; regularise --out; a sweep's
 *    runs.csv, runs.json, table, script, sweep.conf, gnuplot.log and pictures, and the FILE.tmp
 *    names the command used to write through) leaves the link's target as it was;
 *  - a failed re-sweep keeps the previous results: the same sweep again under a 4 KB file-size
 *    limit exits 2, says the results were not replaced, and every file of the earlier set is as it
 *    was;
 *  - whole or untouched: a row of runs.partial.csv that does not fit under a file-size limit is
 *    not left torn, and --resume then completes the sweep;
 *  - bounded reads: a reference, runs.csv, runs.partial.csv, side file (runs-1.vec) or peer-run
 *    file that is /proc/self/pagemap (size 0, gigabytes of content) is refused within seconds
 *    with a message. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

static char tmpdir[] = "/tmp/mbdae-test-write-XXXXXX";
static char out[1 << 16];
static int have_gnuplot;

/* sh -c of the formatted line, output and errors of all its commands into out; the exit code. */
static int shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int shell(const char *fmt, ...)
{
  char cmd[8192] = "{ ";
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(cmd + 2, sizeof cmd - 16, fmt, ap);
  va_end(ap);
  CHECK(len > 0 && len < (int)sizeof cmd - 16, "command too long");
  strcat(cmd, "; } 2>&1");
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

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Plant dir/name as a link to targets/<n>, a file holding "KEEP\n"; n counts the plants. */
static int nplanted;
static void plant(const char *dir, const char *name)
{
  int rc = shell("mkdir -p '%s/targets' '%s' && printf 'KEEP\\n' > '%s/targets/%d' && "
                 "ln -s '%s/targets/%d' '%s/%s'",
                 tmpdir, dir, tmpdir, nplanted, tmpdir, nplanted, dir, name);
  CHECK(rc == 0, "planting %s/%s: %s", dir, name, out);
  nplanted++;
}

/* Every target still holds "KEEP\n" and nothing else. */
static void check_targets(const char *what)
{
  for (int k = 0; k < nplanted; k++) {
    char path[512], text[16] = "";
    snprintf(path, sizeof path, "%s/targets/%d", tmpdir, k);
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) {
      fclose(f);
    }
    text[got] = '\0';
    CHECK(strcmp(text, "KEEP\n") == 0, "%s: the target %d of a planted link was written: '%.10s'",
          what, k, text);
  }
}

/* A regular file now stands at dir/name (the link replaced, not followed). */
static int regular_at(const char *dir, const char *name)
{
  char path[512];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void check_plot_links(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/plot", tmpdir);
  static const char *const names[] = {"q.gp", "q.png", "q.log", "q.csv", "q.csv.tmp"};
  for (int k = 0; k < 5; k++) {
    plant(dir, names[k]);
  }
  int rc =
      shell(MBDAE " plot caraxis --rtol 1e-3 --points 50 --out %s/q.png --data %s/q.csv", dir, dir);
  CHECK(rc == (have_gnuplot ? 0 : 1), "plot over links: exit %d\n%s", rc, out);
  CHECK(regular_at(dir, "q.gp") && regular_at(dir, "q.csv"), "plot: q.gp and q.csv not written");
  CHECK(!have_gnuplot || regular_at(dir, "q.png"), "plot: q.png not drawn in its place");
  check_targets("plot --out q.png --data q.csv");
}

static void check_file_links(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/files", tmpdir);
  static const char *const names[] = {"ref.txt", "ref.txt.tmp", "traj.csv", "traj.csv.tmp",
                                      "reg.md"};
  for (int k = 0; k < 5; k++) {
    plant(dir, names[k]);
  }
  int rc = shell(MBDAE " refsol pendulum --out %s/ref.txt", dir);
  CHECK(rc == 0 && regular_at(dir, "ref.txt"), "refsol over a link: exit %d\n%s", rc, out);
  rc = shell(MBDAE " run caraxis --rtol 1e-3 --trajectory %s/traj.csv", dir);
  CHECK(rc == 0 && regular_at(dir, "traj.csv"), "run --trajectory over a link: exit %d\n%s", rc,
        out);
  rc = shell(MBDAE " regularise pendulum --tend 1 --out %s/reg.md", dir);
  CHECK(rc <= 1 && regular_at(dir, "reg.md"), "regularise --out over a link: exit %d\n%s", rc, out);
  check_targets("refsol, run --trajectory, regularise --out");
}

static void check_sweep_links(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/sweep", tmpdir);
  static const char *const names[] = {"runs.csv",
                                      "runs.json",
                                      "caraxis-table.md",
                                      "workprecision.gp",
                                      "sweep.conf",
                                      "gnuplot.log",
                                      "caraxis-scd.png",
                                      "caraxis-mescd.svg",
                                      "runs.csv.tmp",
                                      "runs.json.tmp",
                                      "sweep.conf.tmp",
                                      "workprecision.gp.tmp",
                                      "caraxis-table.md.tmp"};
  enum { N = (int)(sizeof names / sizeof names[0]) };
  for (int k = 0; k < N; k++) {
    plant(dir, names[k]);
  }
  int rc = shell(MBDAE " sweep caraxis --m 0:1 --solvers ida --out %s --force", dir);
  CHECK(rc == 0, "sweep over links: exit %d\n%s", rc, out);
  for (int k = 0; k < 5; k++) {
    CHECK(regular_at(dir, names[k]), "sweep: %s is not a file of its own", names[k]);
  }
  check_targets("sweep --force into a folder of links");
  rc = shell(MBDAE " sweep --report %s", dir); /* the same files once more, over the new ones */
  CHECK(rc == 0, "sweep --report: exit %d\n%s", rc, out);
  check_targets("sweep --report");
}

/* Item 6: the same sweep again under a 4 KB file-size limit keeps the earlier set. */
static void check_failed_resweep(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/again", tmpdir);
  int rc = shell(MBDAE " sweep caraxis --m 0:1 --solvers ida,radau5 --out %s", dir);
  CHECK(rc == 0, "first sweep: exit %d\n%s", rc, out);
  rc = shell("cp -R %s %s.before", dir, dir);
  CHECK(rc == 0, "cp: %s", out);
  rc = shell("trap '' XFSZ; ulimit -f 8 && " MBDAE
             " sweep caraxis --m 0:1 --solvers ida,radau5 --out %s",
             dir);
  CHECK(rc == 2 && strstr(out, "were not replaced"),
        "the same sweep under a 4 KB limit: exit %d, expected 2 and 'not replaced':\n%s", rc, out);
  /* every file of the earlier set as it was (sweep.conf now names the runs of runs.partial.csv) */
  rc = shell("diff -r -x sweep.conf -x runs.partial.csv %s.before %s", dir, dir);
  CHECK(rc == 0, "the earlier set changed by a failed re-sweep:\n%s", out);
  rc = shell("ls %s.before | grep -c -e runs.csv -e runs.json -e table.md -e '\\.png'", dir);
  CHECK(atoi(out) >= (have_gnuplot ? 4 : 3), "the earlier set holds %s files", out);
  rc = shell(MBDAE " sweep caraxis --m 0:1 --solvers ida,radau5 --out %s --resume", dir);
  CHECK(rc == 0 && strstr(out, "resuming"), "--resume after the limit: exit %d\n%s", rc, out);
}

/* Item 8: a row of runs.partial.csv that does not fit is not left torn. */
static void check_whole_rows(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/rows", tmpdir);
  /* rows of 40 KB (chain:n=300's vectors); 120 blocks (60 KB under dash) take the header and one */
  int rc = shell("trap '' XFSZ; ulimit -f 120 && " MBDAE " sweep chain:n=300 --max-steps 1 "
                 "--solvers radau5 --rtol 1e-3,1e-4,1e-5 --no-plots --out %s",
                 dir);
  CHECK(rc == 2 && strstr(out, "runs.partial.csv"), "a limit of 120 blocks: exit %d\n%s", rc, out);
  rc = shell("tail -c 1 %s/runs.partial.csv | od -c | head -1", dir);
  CHECK(strstr(out, "\\n") != NULL, "runs.partial.csv ends in a torn row: %s", out);
  rc = shell(MBDAE " sweep chain:n=300 --max-steps 1 --solvers radau5 --rtol 1e-3,1e-4,1e-5 "
                   "--no-plots --out %s --resume",
             dir);
  CHECK(rc == 1 && strstr(out, "resuming: 1 of 3"), "--resume after a full disk: exit %d\n%s", rc,
        out);
  rc = shell(MBDAE " sweep --report %s --no-plots", dir);
  CHECK(rc == 1 && strstr(out, "3 runs (3 failed)"), "--report: exit %d\n%s", rc, out);
}

/* Item 9: files in /proc say their size is 0 and hold gigabytes. */
static void check_bounded_reads(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/proc", tmpdir);
  static const char *const cmds[] = {
      "run pendulum --ref /proc/self/pagemap",
      "sweep pendulum --m 0:0 --solvers radau5 --ref /proc/self/pagemap --out %s/ref",
      "sweep --report %s/report",
      "sweep pendulum --m 0:0 --solvers radau5 --out %s/resume --resume",
      "bench caraxis --against /proc/self/pagemap",
      "sweep --report %s/side --no-plots",
  };
  static const char *const named[] = {"pagemap",          "pagemap", "runs.csv",
                                      "runs.partial.csv", "pagemap", "runs-1.vec"};
  int rc = shell("mkdir -p %s/report && ln -s /proc/self/pagemap %s/report/runs.csv && " MBDAE
                 " sweep pendulum --m 0:0 --solvers radau5 --no-plots --out %s/resume && rm "
                 "%s/resume/runs.csv && ln -s /proc/self/pagemap %s/resume/runs.partial.csv",
                 dir, dir, dir, dir, dir);
  CHECK(rc == 0, "setting up: %s", out);
  rc = shell(MBDAE " sweep chain:n=300 --max-steps 1 --solvers radau5 --rtol 1e-3 --no-plots --out "
                   "%s/side; rm %s/side/runs-1.vec && ln -s /proc/self/pagemap %s/side/runs-1.vec",
             dir, dir, dir);
  CHECK(rc == 0, "setting up a side file: %s", out);
  for (int k = 0; k < 6; k++) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, cmds[k], dir);
    double t0 = now();
    rc = shell("timeout 30 " MBDAE " %s", cmd);
    double took = now() - t0;
    CHECK(rc == 2 && took < 10 && strstr(out, named[k]) != NULL,
          "mbdae %s: exit %d after %.1f s, expected 2 within 10 s naming the file:\n%.600s", cmd,
          rc, took, out);
  }
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  have_gnuplot = system("gnuplot -V > /dev/null 2>&1") == 0;
  check_plot_links();
  check_file_links();
  check_sweep_links();
  check_failed_resweep();
  check_whole_rows();
  check_bounded_reads();
  int failed = check_summary("test_write_safety");
  if (!failed) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0, "rm failed");
  }
  return failed;
}
