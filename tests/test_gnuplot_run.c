/* How mbdae sweep runs gnuplot (src/cli/gnuplot.c, sweep_output.c):
 *  - a small sweep, one with failed runs (diagrams of crosses only, empty frames) and one of a
 *    chain: a line on stderr per problem drawn, gnuplot.log without a warning (gnuplot warned
 *    "No valid data points" for every curve without points), the CPU axis naming the default
 *    three timed runs per point, the chain's title naming n;
 *  - gnuplot ends with a sweep killed by SIGTERM (a fake gnuplot that sleeps, started by the
 *    sweep, must be gone once the sweep is). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "check.h"
#include "support.h"

#include "gnuplot_support.h"

static char tmpdir[] = "/tmp/mbdae-test-gnuplot-run-XXXXXX";

static int file_contains(const char *dir, const char *name, const char *needle)
{
  static char text[1 << 20];
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return slurp(path, text, sizeof text) == 0 && strstr(text, needle) != NULL;
}

/* Sweep args (after "sweep", before "--out DIR") into tmpdir/name: exit code `code`, a line per
 * problem drawn, gnuplot.log without a warning or an error. */
static void check_quiet_sweep(const char *name, const char *const *args, int code,
                              const char *const *problems)
{
  static char out[1 << 16];
  char dir[256], log[300], line[128], text[1 << 14];
  const char *argv[32] = {"sweep"};
  int n = 1;
  for (; args[n - 1]; n++) {
    argv[n] = args[n - 1];
  }
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
  snprintf(log, sizeof log, "%s/%s.out", tmpdir, name);
  argv[n++] = "--out";
  argv[n++] = dir;
  argv[n] = NULL;
  int rc = run_cli_argv(argv, log, out, sizeof out);
  CHECK(rc == code, "sweep %s: exit %d, expected %d:\n%s", name, rc, code, out);
  int count = 0;
  while (problems[count]) {
    count++;
  }
  for (int i = 0; i < count; i++) {
    snprintf(line, sizeof line, "mbdae sweep: drawing the diagrams of %s (%d of %d)\n", problems[i],
             i + 1, count);
    CHECK(strstr(out, line) != NULL, "sweep %s: no line '%s':\n%s", name, line, out);
  }
  snprintf(log, sizeof log, "%s/gnuplot.log", dir);
  slurp(log, text, sizeof text);
  CHECK(!strstr(text, "warning") && !strstr(text, "rror"), "sweep %s: gnuplot.log:\n%s", name,
        text);
}

static void check_sweeps(void)
{
  const char *small[] = {"caraxis", "andrews", "--m", "0:1", "--solvers", "ida,radau5", NULL};
  const char *small_problems[] = {"caraxis", "andrews", NULL};
  check_quiet_sweep("small", small, 0, small_problems);
  char dir[256];
  snprintf(dir, sizeof dir, "%s/small", tmpdir);
  CHECK(file_contains(dir, "caraxis-scd.svg", "median of 3 runs"),
        "caraxis-scd.svg: the CPU axis does not say 'median of 3 runs'");
  CHECK(file_contains(dir, "caraxis-scd-nres.svg", ">radau5<"),
        "caraxis-scd-nres.svg: no legend entry for radau5");
  /* every pendulum run fails: diagrams of crosses, caraxis's drift has points, pendulum's none */
  const char *failing[] = {"caraxis",  "pendulum", "--m",         "0:1",  "--solvers", "ida,bdf",
                           "--repeat", "1",        "--max-steps", "1000", NULL};
  const char *failing_problems[] = {"caraxis", "pendulum", NULL};
  check_quiet_sweep("failing", failing, 1, failing_problems);
  snprintf(dir, sizeof dir, "%s/failing", tmpdir);
  CHECK(file_contains(dir, "pendulum-scd.svg", "bdf failed"),
        "pendulum-scd.svg: no cross for the failed bdf runs");
  CHECK(file_contains(dir, "caraxis-scd.svg", "one run each"),
        "caraxis-scd.svg: --repeat 1 is not 'one run each'");
  const char *chain[] = {"chain:n=2", "--m", "0:0", "--solvers", "radau5", NULL};
  const char *chain_problems[] = {"chain", NULL};
  check_quiet_sweep("chain", chain, 0, chain_problems);
  snprintf(dir, sizeof dir, "%s/chain", tmpdir);
  CHECK(file_contains(dir, "chain-scd.svg", "Pendulum chain (Cartesian coordinates), n = 2"),
        "chain-scd.svg: the title does not name n");
}

/* 1 when process pid is gone or a zombie (ended, not yet reaped by its new parent). */
static int ended(pid_t pid)
{
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  if (kill(pid, 0) != 0 && errno == ESRCH) {
    return 1;
  }
  if (slurp(path, buf, sizeof buf) != 0) {
    return 1;
  }
  const char *paren = strrchr(buf, ')');
  return paren && paren[1] == ' ' && paren[2] == 'Z';
}

static void pause_ms(long ms)
{
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* SIGTERM to a sweep while its gnuplot runs: that gnuplot ends too. */
static void check_gnuplot_ends_with_sweep(void)
{
  char fake[256], pidfile[256], dir[256], log[300], text[64];
  snprintf(fake, sizeof fake, "%s/fake-gnuplot", tmpdir);
  snprintf(pidfile, sizeof pidfile, "%s/gnuplot.pid", tmpdir);
  snprintf(dir, sizeof dir, "%s/killed", tmpdir);
  snprintf(log, sizeof log, "%s/killed.out", tmpdir);
  FILE *f = fopen(fake, "w");
  if (!f) {
    CHECK(0, "cannot write %s", fake);
    return;
  }
  fprintf(f, "#!/bin/sh\necho $$ > '%s.tmp' && mv '%s.tmp' '%s'\nexec sleep 300\n", pidfile,
          pidfile, pidfile);
  fclose(f);
  chmod(fake, 0755);
  setenv("MBDAE_GNUPLOT", fake, 1);
  const char *argv[] = {"sweep",    "caraxis", "--m",   "0:0", "--solvers", "ida",
                        "--repeat", "1",       "--out", dir,   NULL};
  pid_t sweep = start_cli(argv, log);
  unsetenv("MBDAE_GNUPLOT");
  pid_t gnuplot = 0;
  for (int i = 0; i < 6000 && gnuplot <= 0; i++) { /* up to a minute on a loaded machine */
    pause_ms(10);
    if (slurp(pidfile, text, sizeof text) == 0) {
      gnuplot = (pid_t)atol(text);
    }
  }
  CHECK(gnuplot > 0, "the sweep did not start its gnuplot");
  kill(sweep, SIGTERM);
  int status = 0;
  waitpid(sweep, &status, 0);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "the sweep did not end by SIGTERM");
  int gone = 0;
  for (int i = 0; i < 3000 && gnuplot > 0 && !(gone = ended(gnuplot)); i++) {
    pause_ms(10);
  }
  CHECK(gnuplot <= 0 || gone, "gnuplot (pid %d) outlived the sweep", (int)gnuplot);
  if (gnuplot > 0 && !gone) {
    kill(gnuplot, SIGKILL);
  }
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  if (system("gnuplot --version >/dev/null 2>&1") == 0) {
    check_sweeps();
  } else {
    printf("test_gnuplot_run: gnuplot not found, the sweeps' diagrams are not checked\n");
  }
  check_gnuplot_ends_with_sweep();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (check_failed == 0 && system(cmd) != 0) {
    fprintf(stderr, "cannot remove %s\n", tmpdir);
  }
  return check_summary("test_gnuplot_run");
}
