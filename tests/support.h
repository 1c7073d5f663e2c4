/* Helpers the test executables share: creating a problem, the test set's run options, a run as
 * the test set makes it and the check of published run-table rows, and running the mbdae command
 * with its output captured.  Include after check.h. */
#ifndef MBDAE_TEST_SUPPORT_H
#define MBDAE_TEST_SUPPORT_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "refsol.h"

/* The problem for spec, or NULL after a failed CHECK naming the library's message. */
static inline mbdae_problem *create_problem(const char *spec)
{
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0 && p, "create %s: %s", spec, msg);
  return p;
}

/* check(p, spec) on the problem of each of the count specs that can be created. */
static inline void check_each_spec(const char *const *specs, size_t count,
                                   void (*check)(const mbdae_problem *p, const char *spec))
{
  for (size_t k = 0; k < count; k++) {
    mbdae_problem *p = create_problem(specs[k]);
    if (p) {
      check(p, specs[k]);
    }
    mbdae_problem_destroy(p);
  }
}

/* y' = -y on [0, 1], y(0) = 1: a user's problem without constraints. */
static inline int support_decay_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx;
  y0[0] = 1.0;
  yp0[0] = -1.0;
  return 0;
}
static inline int support_decay_res(void *ctx, double t, const double *y, const double *yp,
                                    double *r)
{
  (void)ctx, (void)t;
  r[0] = yp[0] + y[0];
  return 0;
}

/* That problem, or NULL after a failed CHECK. */
static inline mbdae_problem *create_decay_problem(void)
{
  static const int index[1] = {0};
  static const mbdae_problem_type decay = {.size = sizeof(mbdae_problem_type),
                                           .id = "decay",
                                           .title = "y' = -y",
                                           .neq = 1,
                                           .t0 = 0,
                                           .tend = 1,
                                           .index = index,
                                           .init = support_decay_init,
                                           .res = support_decay_res};
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_from_type(&decay, NULL, &p, NULL, 0) == 0 && p, "the decay problem");
  return p;
}

/* Options as the test set runs a problem: rtol = atol, h0 = h0_factor rtol. */
static inline void test_options(const mbdae_problem *p, double rtol, mbdae_options *opt)
{
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  mbdae_options_default(opt);
  opt->rtol = opt->atol = rtol;
  opt->h0 = plan.h0_factor * rtol;
}

enum { SUPPORT_MAX_N = 160 }; /* the largest built-in default: fekete */

/* solver on p as the test set runs it (test_options): y(tend) into y (SUPPORT_MAX_N values), the
 * result into *r; the status, -1 (nothing run) for more than SUPPORT_MAX_N equations. */
static inline int solve_as_test_set(const mbdae_problem *p, const char *solver, double rtol,
                                    double *y, mbdae_result *r)
{
  mbdae_options opt;
  test_options(p, rtol, &opt);
  return mbdae_problem_neq(p) <= SUPPORT_MAX_N ? mbdae_solve(p, solver, &opt, 1, y, NULL, r) : -1;
}

/* One run of solver on spec as the test set makes it (rtol = atol, h0 = h0_factor rtol): scd,
 * mescd and the counters of the run.  Returns the status. */
static inline int run_as_test_set(const char *spec, const char *solver, double rtol, double *scd,
                                  double *mescd, mbdae_stats *st)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return -1;
  }
  double y[SUPPORT_MAX_N], yref[SUPPORT_MAX_N];
  mbdae_result r;
  int rc = solve_as_test_set(p, solver, rtol, y, &r);
  CHECK(rc == 0, "%s %s rtol %g: %s", solver, spec, rtol, rc == -1 ? "too large" : r.message);
  CHECK(mbdae_problem_ref(p, yref) == 0, "%s has a reference", spec);
  *scd = rc == 0 ? mbdae_scd(p, y, yref) : 0.0;
  *mescd = rc == 0 ? mbdae_mescd(p, y, yref, rtol, rtol) : 0.0;
  *st = r.stats;
  mbdae_problem_destroy(p);
  return rc;
}

/* The same run where failing is an outcome to look at, not an error: the status, the scd into
 * *scd (NAN when the run failed), the result into *r. */
static inline int try_as_test_set(const char *spec, const char *solver, double rtol, double *scd,
                                  mbdae_result *r)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return -1;
  }
  double y[SUPPORT_MAX_N], yref[SUPPORT_MAX_N];
  int rc = solve_as_test_set(p, solver, rtol, y, r);
  *scd = rc == 0 && mbdae_problem_ref(p, yref) == 0 ? mbdae_scd(p, y, yref) : NAN;
  mbdae_problem_destroy(p);
  return rc;
}

/* A row of a published run table (report 2.4): spec, rtol = atol, mescd, scd and #f as printed. */
typedef struct published_row {
  const char *spec;
  double rtol, mescd, scd;
  long nfev;
} published_row;

/* Each row run with solver: at most nfev_factor times the printed #f, scd and mescd no more than
 * slack below the printed values (code: the published code's name, for the output). */
static inline void check_published_rows(const char *solver, const char *code,
                                        const published_row *rows, size_t nrows, double nfev_factor,
                                        double slack)
{
  for (size_t k = 0; k < nrows; k++) {
    const published_row *w = &rows[k];
    double scd = 0.0, mescd = 0.0;
    mbdae_stats st = {0};
    if (run_as_test_set(w->spec, solver, w->rtol, &scd, &mescd, &st) != 0) {
      continue;
    }
    long limit = (long)(nfev_factor * (double)w->nfev);
    printf("%-20s %.0e: mescd %5.2f (%s %5.2f) scd %5.2f (%5.2f) #f %5ld (limit %5ld) steps %ld "
           "#Jac %ld #LU %ld\n",
           w->spec, w->rtol, mescd, code, w->mescd, scd, w->scd, st.nres, limit, st.steps, st.njac,
           st.nlu);
    CHECK(st.nres <= limit, "%s %.0e: #f %ld > %ld", w->spec, w->rtol, st.nres, limit);
    CHECK(scd >= w->scd - slack, "%s %.0e: scd %.2f", w->spec, w->rtol, scd);
    CHECK(mescd >= w->mescd - slack, "%s %.0e: mescd %.2f", w->spec, w->rtol, mescd);
  }
}

/* Run `mbdae <args>` (the build's command, MBDAE_CLI) with stdout and stderr captured in out;
 * returns the exit status, -1 when it could not run or did not exit normally. */
static inline int run_cli(const char *args, char *out, size_t len)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "\"%s\" %s 2>&1", MBDAE_CLI, args);
  FILE *f = popen(cmd, "r");
  if (!f) {
    return -1;
  }
  size_t used = 0, got;
  while (used + 1 < len && (got = fread(out + used, 1, len - 1 - used, f)) > 0) {
    used += got;
  }
  out[used] = '\0';
  char sink[4096];
  while (fread(sink, 1, sizeof sink, f) > 0) {
  }
  int status = pclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* run_cli with the arguments formatted as printf does. */
static inline int run_clif(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int run_clif(char *out, size_t len, const char *fmt, ...)
{
  char args[1536];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  return run_cli(args, out, len);
}

/* `mbdae <args>` exits with code and its output mentions must_mention. */
static inline void expect(const char *args, int code, const char *must_mention)
{
  static char out[1 << 16];
  int rc = run_cli(args, out, sizeof out);
  CHECK(rc == code, "mbdae %s: exit %d, expected %d; output:\n%s", args, rc, code, out);
  CHECK(strstr(out, must_mention) != NULL, "mbdae %s: output should mention '%s':\n%s", args,
        must_mention, out);
}

enum { PEND_N = 5, PEND_X = 0, PEND_Y = 1 }; /* the pendulum: y = (x, y, vx, vy, F) */

/* The pendulum's position error at t against the exact solution (refsol/pendulum_ref.c). */
static inline double pendulum_position_error(const double *y, double t)
{
  double ye[PEND_N], ype[PEND_N];
  refsol_pendulum_state(t, ye, ype);
  return fmax(fabs(y[PEND_X] - ye[PEND_X]), fabs(y[PEND_Y] - ye[PEND_Y]));
}

/* Least-squares slope of v against u (n points). */
static inline double least_squares_slope(const double *u, const double *v, int n)
{
  double mu = 0.0, mv = 0.0, suv = 0.0, suu = 0.0;
  for (int i = 0; i < n; i++) {
    mu += u[i] / n;
    mv += v[i] / n;
  }
  for (int i = 0; i < n; i++) {
    suv += (u[i] - mu) * (v[i] - mv);
    suu += (u[i] - mu) * (u[i] - mu);
  }
  return suv / suu;
}

#endif /* MBDAE_TEST_SUPPORT_H */
