/* The run harness: solver registry, validation of options, initial values from the problem,
 * in-process CPU timing and repeats.
 *
 * CPU time is the process CPU clock around one integration (initial values excluded).  With
 * repeats the reported time is the median of the runs left after dropping the fastest and the
 * slowest, as the test set's driver reports it; counters and y come from the last run (every run
 * is the same computation, so they are identical). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solver_type.h"

static const solver_type *const solver_types[] = {
    &mbdae_solver_ida,
    &mbdae_solver_radau5,
    &mbdae_solver_bdf,
};
enum { NSOLVERS = (int)(sizeof solver_types / sizeof solver_types[0]) };

int mbdae_solver_count(void) { return NSOLVERS; }

const char *mbdae_solver_id(int i)
{
  return (i >= 0 && i < NSOLVERS) ? solver_types[i]->id : NULL;
}

const char *mbdae_solver_title(int i)
{
  return (i >= 0 && i < NSOLVERS) ? solver_types[i]->title : NULL;
}

void mbdae_options_default(mbdae_options *opt)
{
  memset(opt, 0, sizeof *opt);
  opt->rtol = 1e-6;
  opt->atol = 1e-6;
}

int mbdae_fail(mbdae_result *r, int status, double t, double h, const char *fmt, ...)
{
  char reason[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  r->status = status;
  r->t = t;
  r->h = h;
  snprintf(r->message, sizeof r->message, "t = %.16g, h = %.3e: %s", t, h, reason);
  return status;
}

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median after dropping min and max (when there are at least three runs). */
static double trimmed_median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, compare_double);
  int lo = n >= 3 ? 1 : 0, hi = n >= 3 ? n - 2 : n - 1;
  int m = hi - lo + 1;
  return (m % 2) ? v[lo + m / 2] : 0.5 * (v[lo + m / 2 - 1] + v[lo + m / 2]);
}

static int check_options(const mbdae_problem *p, const mbdae_options *opt, mbdae_result *r)
{
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  const char *bad = NULL;
  if (!(opt->rtol > 0.0) || !isfinite(opt->rtol)) {
    bad = "rtol must be a positive finite number";
  } else if (!(opt->atol > 0.0) || !isfinite(opt->atol)) {
    bad = "atol must be a positive finite number";
  } else if (!(opt->h0 >= 0.0) || !isfinite(opt->h0)) {
    bad = "h0 must be a non-negative finite number (0: the solver chooses)";
  } else if (!(opt->hmax >= 0.0) || !isfinite(opt->hmax)) {
    bad = "hmax must be a non-negative finite number (0: no limit)";
  } else if (opt->max_steps < 0) {
    bad = "max_steps must be >= 0 (0: the default)";
  } else if (opt->ntout < 0 || (opt->ntout > 0 && (!opt->tout || !opt->yout))) {
    bad = "ntout output times need tout and yout";
  }
  for (int k = 0; !bad && k < opt->ntout; k++) {
    if (!(opt->tout[k] >= t0 && opt->tout[k] <= tend) || (k > 0 && opt->tout[k] < opt->tout[k - 1])) {
      bad = "output times must increase and lie inside [t0, tend]";
    }
  }
  if (bad) {
    r->status = MBDAE_ERR_ARG;
    snprintf(r->message, sizeof r->message, "%s", bad);
    return MBDAE_ERR_ARG;
  }
  return 0;
}

int mbdae_solve(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
                double *y, double *yp, mbdae_result *r)
{
  if (!r) {
    return MBDAE_ERR_ARG;
  }
  memset(r, 0, sizeof *r);
  if (!p || !opt || !y || repeats < 1) {
    r->status = MBDAE_ERR_ARG;
    snprintf(r->message, sizeof r->message, "mbdae_solve: %s",
             repeats < 1 ? "repeats must be >= 1" : "problem, options and y are required");
    return r->status;
  }
  const solver_type *type = NULL;
  for (int i = 0; solver && i < NSOLVERS; i++) {
    if (strcmp(solver_types[i]->id, solver) == 0) {
      type = solver_types[i];
    }
  }
  if (!type) {
    size_t used = (size_t)snprintf(r->message, sizeof r->message, "unknown solver '%s'; valid solvers:",
                                   solver ? solver : "(null)");
    for (int i = 0; i < NSOLVERS && used < sizeof r->message; i++) {
      used += (size_t)snprintf(r->message + used, sizeof r->message - used, "%s %s", i ? "," : "",
                               solver_types[i]->id);
    }
    r->status = MBDAE_ERR_UNKNOWN_SOLVER;
    return r->status;
  }
  if (check_options(p, opt, r) != 0) {
    return r->status;
  }
  int n = mbdae_problem_neq(p);
  double *work = malloc(sizeof(double) * (size_t)(n + repeats));
  if (!work) {
    r->status = MBDAE_ERR_NOMEM;
    snprintf(r->message, sizeof r->message, "out of memory");
    return r->status;
  }
  double *ypw = work, *times = work + n;
  for (int k = 0; k < repeats; k++) {
    int rc = mbdae_problem_init(p, y, ypw);
    if (rc != 0) {
      r->status = rc < 0 ? rc : MBDAE_ERR_RES;
      snprintf(r->message, sizeof r->message, "initial values: %s", mbdae_strerror(rc));
      break;
    }
    mbdae_result one;
    memset(&one, 0, sizeof one);
    double start = cpu_now();
    type->integrate(p, opt, y, ypw, &one);
    times[k] = cpu_now() - start;
    one.cpu_seconds = r->cpu_seconds;
    *r = one;
    r->repeats = k + 1;
    if (one.status != 0) {
      times[0] = times[k];
      r->repeats = 1;
      break;
    }
  }
  if (r->repeats > 0) {
    r->cpu_seconds = trimmed_median(times, r->repeats);
    r->cpu_min = times[0];
    r->cpu_max = times[r->repeats - 1];
  }
  if (yp) {
    memcpy(yp, ypw, sizeof(double) * (size_t)n);
  }
  free(work);
  return r->status;
}
