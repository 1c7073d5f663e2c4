/* mbdae bench --sizes: how the cost of a problem grows with its size (chain:n=...).
 *
 * Each size and solver runs once in a child process (fork), at rtol = atol and the test set's
 * h0: the child sends back the counters and the CPU time (median of --repeat runs), and the parent
 * reads the child's peak resident set from wait4's ru_maxrss, so that each run's memory is
 * measured alone.  The peak includes what the child shares with the command at the fork (the
 * command's own resident set, printed as the baseline).
 *
 * Per solver the exponent p of time per step ~ neq^p is the least-squares slope of
 * log(time per step) against log(neq) over the sizes that ran; a dense LU gives p -> 3 for large
 * neq, a band or sparse one p -> 1. */
#define _DEFAULT_SOURCE /* wait4 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_scale.h"
#include "cli.h"

enum { MAX_SCALE_SIZES = 16, SCALE_SPEC_LEN = 512 };

/* What a child reports of its run. */
typedef struct scale_run {
  int status; /* the run's status, or a negative code from the child itself */
  long steps, nres, njac, nlu;
  double cpu; /* CPU seconds of one run */
  char message[MBDAE_RECORD_TEXT_LEN];
} scale_run;

/* spec with n=size (and tend=...) added to its keys. */
static int sized_spec(const bench_scale_plan *plan, const char *size, char *out, size_t len)
{
  int w = snprintf(out, len, "%s%cn=%s%s%s", plan->spec, strchr(plan->spec, ':') ? ',' : ':', size,
                   plan->tend ? ",tend=" : "", plan->tend ? plan->tend : "");
  if (w < 0 || (size_t)w >= len) {
    return usage_error("bench --sizes: the spec '%s' is too long", plan->spec);
  }
  return 0;
}

static void child_run(const mbdae_problem *p, const bench_scale_plan *plan, const char *solver,
                      int fd)
{
  mbdae_options opt;
  mbdae_record rec = MBDAE_RECORD_INIT;
  scale_run r = {0};
  test_set_options(p, plan->rtol, 0.0, 0.0, 0, &opt);
  opt.linsys = plan->linsys;
  r.status = execute_run(p, solver, &opt, plan->repeat, &rec);
  r.steps = rec.stats.steps, r.nres = rec.stats.nres + rec.stats.nres_fd;
  r.njac = rec.stats.njac, r.nlu = rec.stats.nlu;
  r.cpu = rec.cpu_seconds;
  snprintf(r.message, sizeof r.message, "%s", rec.message);
  mbdae_record_free(&rec);
  ssize_t put = write(fd, &r, sizeof r);
  _exit(put == (ssize_t)sizeof r ? 0 : 1);
}

/* One run in a child: its report in *r, its peak resident set in KiB in *peak_kib. */
static void measure(const mbdae_problem *p, const bench_scale_plan *plan, const char *solver,
                    scale_run *r, long *peak_kib)
{
  int fds[2];
  memset(r, 0, sizeof *r);
  r->status = MBDAE_ERR_SOLVER;
  *peak_kib = 0;
  fflush(stdout);
  pid_t pid = pipe(fds) == 0 ? fork() : -1;
  if (pid == 0) {
    close(fds[0]);
    child_run(p, plan, solver, fds[1]);
  }
  if (pid < 0) {
    snprintf(r->message, sizeof r->message, "could not start a child: %s", strerror(errno));
    return;
  }
  close(fds[1]);
  scale_run got;
  ssize_t n = read(fds[0], &got, sizeof got);
  close(fds[0]);
  int wstatus = 0;
  struct rusage ru;
  pid_t done;
  while ((done = wait4(pid, &wstatus, 0, &ru)) < 0 && errno == EINTR) {
  }
  if (n == (ssize_t)sizeof got) {
    *r = got;
  } else if (done == pid && WIFSIGNALED(wstatus)) {
    snprintf(r->message, sizeof r->message, "the run was killed by signal %d", WTERMSIG(wstatus));
  } else {
    snprintf(r->message, sizeof r->message, "the run reported nothing");
  }
  *peak_kib = done == pid ? ru.ru_maxrss : 0;
}

static double slope(const double *u, const double *v, int n)
{
  double mu = 0.0, mv = 0.0, suv = 0.0, suu = 0.0;
  for (int i = 0; i < n; i++) {
    mu += u[i] / n, mv += v[i] / n;
  }
  for (int i = 0; i < n; i++) {
    suv += (u[i] - mu) * (v[i] - mv);
    suu += (u[i] - mu) * (u[i] - mu);
  }
  return suu > 0.0 ? suv / suu : NAN;
}

/* The sizes' problems, opened before anything runs (a bad spec or size stops the bench). */
static int open_sizes(const bench_scale_plan *plan, mbdae_problem **problems)
{
  char spec[SCALE_SPEC_LEN];
  for (int k = 0; k < plan->nsizes; k++) {
    int size;
    problems[k] = NULL;
    if (parse_int("--sizes", plan->sizes[k], 1, 10000000, &size) != 0 ||
        sized_spec(plan, plan->sizes[k], spec, sizeof spec) != 0 ||
        !(problems[k] = open_problem(spec))) {
      return -1;
    }
  }
  return 0;
}

/* One solver over every size; returns the number of failed runs. */
static int scale_solver(mbdae_problem *const *problems, const bench_scale_plan *plan,
                        const char *solver)
{
  double logn[MAX_SCALE_SIZES], logt[MAX_SCALE_SIZES];
  int nfit = 0, nfail = 0;
  for (int k = 0; k < plan->nsizes; k++) {
    scale_run r;
    long peak;
    int neq = mbdae_problem_neq(problems[k]);
    measure(problems[k], plan, solver, &r, &peak);
    printf("%-7s %8s %8d ", solver, plan->sizes[k], neq);
    if (r.status != 0) {
      nfail++;
      printf("failed: %s (peak %.1f MiB)\n", r.message, peak / 1024.0);
    } else {
      double per_step = r.steps > 0 ? r.cpu / (double)r.steps : NAN;
      printf("%7ld %9ld %6ld %6ld %10.4f %10.2f %9.1f\n", r.steps, r.nres, r.njac, r.nlu, r.cpu,
             1e6 * per_step, peak / 1024.0);
      if (per_step > 0.0) {
        logn[nfit] = log((double)neq), logt[nfit++] = log(per_step);
      }
    }
    fflush(stdout);
  }
  if (nfit >= 2) {
    printf("%-7s time per step ~ neq^%.2f (least squares over %d sizes)\n", solver,
           slope(logn, logt, nfit), nfit);
  }
  return nfail;
}

int bench_scale(const bench_scale_plan *plan)
{
  if (plan->nsizes > MAX_SCALE_SIZES) {
    return usage_error("--sizes takes at most %d sizes", MAX_SCALE_SIZES);
  }
  mbdae_problem *problems[MAX_SCALE_SIZES] = {0};
  int rc = open_sizes(plan, problems);
  struct rusage self;
  getrusage(RUSAGE_SELF, &self);
  if (rc == 0) {
    printf("mbdae bench --sizes: %s at rtol = atol = %.0e, one child process per run: CPU the "
           "median of %d runs, peak = the child's maximum resident set (wait4 ru_maxrss; the "
           "command itself: %.1f MiB)\n",
           plan->spec, plan->rtol, plan->repeat, self.ru_maxrss / 1024.0);
    printf("%-7s %8s %8s %7s %9s %6s %6s %10s %10s %9s\n", "solver", "size", "neq", "steps", "#f",
           "#Jac", "#LU", "CPU s", "us/step", "peak MiB");
  }
  int nfail = 0;
  for (int s = 0; rc == 0 && s < plan->nsolvers; s++) {
    nfail += scale_solver(problems, plan, plan->solvers[s]);
  }
  for (int k = 0; k < plan->nsizes; k++) {
    mbdae_problem_destroy(problems[k]);
  }
  return rc != 0 ? EXIT_USAGE : (nfail ? EXIT_FAILED_RUN : EXIT_OK);
}
