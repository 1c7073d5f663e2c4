/* A plug-in solver whose worker dies on the first attempt of every run, for tests/test_plugin.c:
 * "flaky" appends a byte to $MBDAE_TEST_FLAKY_DIR/flaky-<rtol>.log at each attempt, and on the
 * first (the log was empty) kills its own process with SIGKILL, as the OOM killer would; on the
 * next attempt it runs the built-in radau5.  A sweep retries a run whose worker died once, so
 * every row is ok and every log holds two bytes. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mbdae/mbdae.h>

static int flaky_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                           mbdae_result *r)
{
  const char *dir = getenv("MBDAE_TEST_FLAKY_DIR");
  char path[4096];
  struct stat st;
  if (!dir ||
      snprintf(path, sizeof path, "%s/flaky-%.3g.log", dir, opt->rtol) >= (int)sizeof path) {
    return MBDAE_ERR_ARG;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0 || write(fd, "x", 1) != 1 || fstat(fd, &st) != 0) {
    return MBDAE_ERR_ARG;
  }
  close(fd);
  if (st.st_size == 1) {
    kill(getpid(), SIGKILL); /* the first attempt */
  }
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static const mbdae_solver_type flaky_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "flaky",
    .title = "radau5 whose process is killed on each run's first attempt (test plug-in)",
    .integrate = flaky_integrate,
};

static const mbdae_solver_type *const solvers[] = {&flaky_solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 1;
}
