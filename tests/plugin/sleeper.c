/* A plug-in whose solvers start a process of their own, for tests/test_sweep_faults.c: each run
 * forks a sleeper (60 s) that writes its process id to $MBDAE_TEST_SLEEPER_DIR/<pid>, and then
 * "sleeper_wait" waits for it (the run outlasts any --timeout) while "sleeper_crash" crashes with
 * SIGSEGV, leaving the sleeper with the worker's result pipe open.  A sweep must kill the
 * sleepers with their worker (its process group): no sleeper left after the sweep, and the crash
 * seen at once rather than when the sleeper ends. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mbdae/mbdae.h>

static pid_t start_sleeper(void)
{
  pid_t pid = fork();
  if (pid == 0) {
    const char *dir = getenv("MBDAE_TEST_SLEEPER_DIR");
    char path[512];
    snprintf(path, sizeof path, "%s/%ld", dir ? dir : "/tmp", (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      close(fd);
    }
    sleep(60);
    _exit(0);
  }
  return pid;
}

static int wait_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                          mbdae_result *r)
{
  (void)p, (void)opt, (void)y, (void)yp, (void)r;
  pid_t pid = start_sleeper();
  if (pid > 0) {
    waitpid(pid, NULL, 0);
  }
  return MBDAE_ERR_ARG;
}

static int crash_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                           mbdae_result *r)
{
  (void)p, (void)opt, (void)y, (void)yp, (void)r;
  start_sleeper();
  raise(SIGSEGV);
  return MBDAE_ERR_ARG;
}

static const mbdae_solver_type wait_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "sleeper_wait",
    .title = "waits for a process it started (test plug-in)",
    .integrate = wait_integrate,
};

static const mbdae_solver_type crash_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "sleeper_crash",
    .title = "starts a process, then crashes (test plug-in)",
    .integrate = crash_integrate,
};

static const mbdae_solver_type *const solvers[] = {&wait_solver, &crash_solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 2;
}
