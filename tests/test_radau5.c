/* test_radau5: the in-house Radau IIA integrator (solvers/radau5.c).
 *
 * - order: one step of size h from the pendulum's consistent initial values, compared with the
 *   exact solution (refsol_pendulum_state): the position error is a local error O(h^6), so the
 *   fitted slope of log(err) against log(h) is 6 for a method of order 5.  Each h runs at a
 *   tolerance tight enough that the Newton error stays below the local error and loose enough
 *   that the step is accepted.  The global error against the tolerance is fitted as well.
 * - every problem at rtol = atol = 1e-7 (h0 as the test set runs it) reaches a stated scd;
 * - the published RADAU rows of report 2.4 (Tables II.17.2, II.13.3, II.19.3, where RADAU keeps
 *   3 stages): at most the published #f, scd and mescd no more than SLACK below the published;
 * - every problem over its tolerance range rtol = 10^-(4 + m/m_div), m = 0..m_max, without failure,
 *   and with a final step no shorter than the step before it (the end-point rule: two equal steps
 *   rather than a short remainder, also after a rejected attempt at the last step, which the slider
 *   crank at rtol 1e-4 makes);
 * - the slider crank's published reference (MEBDFI at 1e-14) is confirmed by a run that resolves
 *   its free elastic oscillation (hmax 2e-6): at least 6.5 digits in every component;
 * - continuous output halfway between steps against the exact pendulum solution (no worse than
 *   at the steps themselves); output points at t0 and tend; the on_step observer; the last step
 *   ends exactly at tend;
 * - the failure path: a step limit gives a clean failure with "t = " and "h = " in the message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"
#include "mbdae/mbdae.h"
#include "refsol.h"

enum { NMAX = 32 };

/* End-point digits of index-2 and index-3 components vary by 0.1 to 0.3 with the step sequence
 * (measured over nearby tolerances), so the published rows are checked with this slack. */
static const double SLACK = 0.1;

/* One run with rtol = atol = tol and h0 = h0_factor tol; returns the status. */
static int solve(const mbdae_problem *p, double tol, double h0_factor, double *y, mbdae_result *r)
{
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = tol;
  opt.h0 = h0_factor * tol;
  return mbdae_solve(p, "radau5", &opt, 1, y, NULL, r);
}

static void test_local_order(void)
{
  mbdae_problem *p = create_problem("pendulum");
  /* h = 2^-5, 2^-6, 2^-7 with the tolerance each needs (see the header) */
  const int log2h[] = {5, 6, 7};
  const double tol[] = {3e-7, 1e-7, 1e-8};
  enum { NH = 3 };
  double lh[NH], le[NH];
  for (int k = 0; k < NH; k++) {
    double h = ldexp(1.0, -log2h[k]), y[PEND_N];
    mbdae_options opt;
    mbdae_options_default(&opt);
    opt.rtol = opt.atol = tol[k];
    opt.h0 = opt.hmax = h;
    opt.max_steps = 1; /* the run stops after its first step, with a step-limit failure */
    mbdae_result r;
    mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r);
    CHECK(r.stats.accepted == 1 && r.t == h, "h = 2^-%d: one accepted step expected (%ld, t = %g)",
          log2h[k], r.stats.accepted, r.t);
    lh[k] = log(h);
    le[k] = log(pendulum_position_error(y, r.t));
    printf("local error, h = 2^-%d (rtol %.0e): position %.3e\n", log2h[k], tol[k], exp(le[k]));
  }
  double q = least_squares_slope(lh, le, NH);
  printf("fitted local order %.2f (method order %.2f; expected 6 and 5)\n", q, q - 1.0);
  CHECK(fabs(q - 6.0) < 0.3, "local order %.2f, expected 6", q);
  mbdae_problem_destroy(p);
}

/* The global position error at tend against rtol = 10^-7 .. 10^-10.  With RADAU5's tolerance
 * law (rtol' ~ rtol^(2/3), an O(h^4) estimate) a method of order 5 gives err ~ rtol^(5/6). */
static void test_tolerance_slope(void)
{
  mbdae_problem *p = create_problem("pendulum");
  enum { NT = 13 };
  double lt[NT], le[NT];
  for (int m = 0; m < NT; m++) {
    double tol = pow(10.0, -(7.0 + m / 4.0)), y[PEND_N];
    mbdae_result r;
    CHECK(solve(p, tol, 1.0, y, &r) == 0, "pendulum rtol %.1e: %s", tol, r.message);
    lt[m] = log10(tol);
    le[m] = log10(pendulum_position_error(y, mbdae_problem_tend(p)));
  }
  double s = least_squares_slope(lt, le, NT);
  printf("pendulum: position error at tend ~ rtol^%.2f over rtol = 1e-7..1e-10 (order 5: 0.83)\n",
         s);
  CHECK(s > 0.5, "error against tolerance: slope %.2f", s);
  mbdae_problem_destroy(p);
}

static void test_scd_at_1e7(void)
{
  /* scd reached at rtol = atol = 1e-7; measured values in the comment, bounds ~0.3 below */
  static const struct {
    const char *spec;
    double scd;
  } cases[] = {
      {"caraxis", 2.4},             /* 2.76 */
      {"andrews", 4.45},            /* 6.50 */
      {"andrews:jac=approx", 4.45}, /* 4.96 */
      {"crank", 2.7},               /* 2.99 */
      {"pendulum", 3.3},            /* 3.63 */
      {"dpendulum", 2.1},           /* 2.41 */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mbdae_problem *p = create_problem(cases[c].spec);
    mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
    mbdae_problem_tolerances(p, &plan);
    double y[NMAX], yref[NMAX];
    mbdae_result r;
    int rc = solve(p, 1e-7, plan.h0_factor, y, &r);
    CHECK(rc == 0, "%s: %s", cases[c].spec, r.message);
    CHECK(mbdae_problem_ref(p, yref) == 0, "%s: no reference", cases[c].spec);
    double scd = mbdae_scd(p, y, yref);
    printf("%-20s rtol 1e-7: scd %.2f (bound %.2f), %ld steps, %ld residuals\n", cases[c].spec, scd,
           cases[c].scd, r.stats.steps, r.stats.nres);
    CHECK(scd >= cases[c].scd, "%s: scd %.2f < %.2f", cases[c].spec, scd, cases[c].scd);
    mbdae_problem_destroy(p);
  }
}

static void test_published_rows(void)
{
  /* report 2.4: Table II.17.2 (car axis), II.13.3 (Andrews, approximate Jacobian, also run with
   * the exact one), II.19.3 (slider crank, h0 = 1e-2 rtol); the RADAU rows at 3 stages */
  static const published_row rows[] = {
      {"caraxis", 1e-4, 1.34, 0.19, 850},
      {"caraxis", 1e-7, 3.73, 2.51, 2559},
      {"andrews:jac=approx", 1e-4, -0.84, 1.36, 810},
      {"andrews:jac=approx", 1e-7, 0.47, 4.45, 1292},
      {"andrews", 1e-4, -0.84, 1.36, 810},
      {"andrews", 1e-7, 0.47, 4.45, 1292},
      {"crank", 1e-4, 0.20, 1.90, 717},
  };
  check_published_rows("radau5", "RADAU", rows, sizeof rows / sizeof rows[0], 1.0, SLACK);
}

/* The sizes of the last two accepted steps, from the on_step observer. */
typedef struct last_steps {
  double h_before, h_last;
} last_steps;

static void record_step(void *ctx, double t, double h, int order)
{
  (void)t;
  (void)order;
  last_steps *ls = ctx;
  ls->h_before = ls->h_last;
  ls->h_last = h;
}

/* Relative slack of the comparison of the last two steps: the second of two equal halves of the
 * rest is tend - (t + h), which differs from h by the rounding of t + h. */
static const double STEP_ROUNDING = 1e-9;

static void test_tolerance_ranges(void)
{
  static const char *const specs[] = {"caraxis", "andrews",  "andrews:jac=approx",
                                      "crank",   "pendulum", "dpendulum"};
  for (size_t c = 0; c < sizeof specs / sizeof specs[0]; c++) {
    mbdae_problem *p = create_problem(specs[c]);
    mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
    mbdae_problem_tolerances(p, &plan);
    int failures = 0, short_last = 0;
    for (int m = 0; m <= plan.m_max; m++) {
      double tol = pow(10.0, -(4.0 + (double)m / plan.m_div)), y[NMAX];
      mbdae_options opt;
      mbdae_options_default(&opt);
      opt.rtol = opt.atol = tol;
      opt.h0 = plan.h0_factor * tol;
      last_steps ls = {0.0, 0.0};
      opt.on_step = record_step;
      opt.on_step_ctx = &ls;
      mbdae_result r;
      if (mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r) != 0 || !isfinite(y[0])) {
        failures++;
        fprintf(stderr, "%s m = %d: %s\n", specs[c], m, r.message);
      } else if (ls.h_last < ls.h_before * (1.0 - STEP_ROUNDING)) {
        short_last++;
        fprintf(stderr, "%s m = %d: last step %.3e after %.3e\n", specs[c], m, ls.h_last,
                ls.h_before);
      }
    }
    printf("%-20s m = 0..%d: %d failures, %d short last steps\n", specs[c], plan.m_max, failures,
           short_last);
    CHECK(failures == 0, "%s: %d failed runs", specs[c], failures);
    CHECK(short_last == 0, "%s: %d runs end with a step shorter than the one before", specs[c],
          short_last);
    mbdae_problem_destroy(p);
  }
}

typedef struct step_log {
  int calls;
  int bad_order; /* calls with an order other than 5 */
  int went_back; /* calls with t not increasing or h <= 0 */
  int overshoot; /* calls with t > tend */
  double last_t, tend;
  double *times; /* step end points up to tmax, when not NULL */
  int ntimes, cap;
  double tmax;
} step_log;

static void on_step(void *ctx, double t, double h, int order)
{
  step_log *log = ctx;
  log->calls++;
  log->bad_order += order != 5;
  log->went_back += !(t > log->last_t) || !(h > 0.0);
  log->overshoot += t > log->tend;
  log->last_t = t;
  if (log->times && t <= log->tmax && log->ntimes < log->cap) {
    log->times[log->ntimes++] = t;
  }
}

/* The pendulum at rtol 1e-8 twice: the first run records the step end points in [0, 10], the
 * second asks for output at those points (exact: they end steps) and halfway between them (the
 * collocation polynomial).  The error between steps must stay close to the error at the steps. */
static void test_dense_output(void)
{
  mbdae_problem *p = create_problem("pendulum");
  enum { CAP = 4000, TMAX = 10 };
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  static double steps[CAP], tout[2 * CAP + 2], yout[(2 * CAP + 2) * PEND_N];
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = 1e-8;
  opt.h0 = 1e-8;
  step_log log = {0, 0, 0, 0, t0, tend, steps, 0, CAP, TMAX};
  opt.on_step = on_step;
  opt.on_step_ctx = &log;
  double y[PEND_N], y0[PEND_N], yp0[PEND_N];
  mbdae_result r;
  CHECK(mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r) == 0, "pendulum: %s", r.message);
  CHECK(log.calls == r.stats.accepted, "on_step called %d times for %ld steps", log.calls,
        r.stats.accepted);
  CHECK(log.bad_order == 0 && log.went_back == 0 && log.overshoot == 0,
        "on_step: order %d, backwards %d, past tend %d", log.bad_order, log.went_back,
        log.overshoot);
  CHECK(log.last_t == tend && r.t == tend, "last step ends at %.17g, not tend", log.last_t);
  CHECK(r.stats.steps >= r.stats.accepted && r.stats.nres > 0 && r.stats.njac > 0 &&
            r.stats.nlu > 0,
        "counters %ld %ld %ld %ld %ld", r.stats.steps, r.stats.accepted, r.stats.nres, r.stats.njac,
        r.stats.nlu);

  /* t0, then step point and midpoint alternately, then tend */
  int nout = 0;
  tout[nout++] = t0;
  for (int k = 0; k < log.ntimes; k++) {
    double before = k ? steps[k - 1] : t0;
    tout[nout++] = 0.5 * (before + steps[k]);
    tout[nout++] = steps[k];
  }
  tout[nout++] = tend;
  opt.tout = tout;
  opt.ntout = nout;
  opt.yout = yout;
  opt.on_step = NULL;
  CHECK(mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r) == 0, "pendulum: %s", r.message);
  mbdae_problem_init(p, y0, yp0);
  CHECK(memcmp(yout, y0, sizeof y0) == 0, "output at t0 differs from y0");
  CHECK(memcmp(yout + (size_t)(nout - 1) * PEND_N, y, sizeof y) == 0,
        "output at tend differs from y(tend)");
  double at_steps = 0.0, between = 0.0;
  for (int k = 1; k < nout - 1; k++) {
    double e = pendulum_position_error(yout + (size_t)k * PEND_N, tout[k]);
    if (k % 2) {
      between = fmax(between, e);
    } else {
      at_steps = fmax(at_steps, e);
    }
  }
  printf("dense output, rtol 1e-8, %d steps in [0, 10]: position error at the steps %.2e, "
         "halfway between them %.2e\n",
         log.ntimes, at_steps, between);
  CHECK(between <= 2.0 * at_steps, "error between steps %.2e, at steps %.2e", between, at_steps);
  mbdae_problem_destroy(p);
}

static void test_crank_reference(void)
{
  /* The reference carries a free elastic oscillation of 22606 rad/s (init1 is consistent to
   * 2.3e-7), about 3 in the accelerations y19..y21.  A run whose steps resolve it (h omega
   * <= 0.045) agrees with the reference, measured mescd 6.87, scd 9.96 (298914 residual
   * evaluations); the same tolerance without hmax gives mescd 2.06, scd 5.06: Radau IIA damps
   * the mode by about (h omega)^6 / 7200 per step, and at 1e-12 still keeps only mescd 3.59. */
  mbdae_problem *p = create_problem("crank");
  double y[NMAX], yref[NMAX];
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = 1e-10;
  opt.h0 = 1e-12;
  opt.hmax = 2e-6;
  mbdae_result r;
  int rc = mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r);
  CHECK(rc == 0, "crank resolved: %s", r.message);
  mbdae_problem_ref(p, yref);
  double scd = mbdae_scd(p, y, yref), mescd = mbdae_mescd(p, y, yref, opt.rtol, opt.atol);
  printf("crank, rtol 1e-10, hmax 2e-6: mescd %.2f, scd %.2f, %ld residual evaluations\n", mescd,
         scd, r.stats.nres);
  CHECK(mescd >= 6.5 && scd >= 9.5, "crank reference not confirmed: mescd %.2f, scd %.2f", mescd,
        scd);
  mbdae_problem_destroy(p);
}

static void test_failure(void)
{
  mbdae_problem *p = create_problem("caraxis");
  double y[NMAX];
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = 1e-6;
  opt.max_steps = 10;
  mbdae_result r;
  int rc = mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r);
  CHECK(rc < 0 && rc == r.status, "step limit: status %d", rc);
  CHECK(rc == MBDAE_ERR_MAX_STEPS, "step limit: %s", mbdae_strerror(rc));
  CHECK(strstr(r.message, "t = ") && strstr(r.message, "h = "), "message '%s'", r.message);
  printf("step limit: %s\n", r.message);

  opt.max_steps = 2000;
  opt.hmax = 1e-5; /* 3e5 steps would be needed */
  rc = mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_MAX_STEPS && strstr(r.message, "t = ") && strstr(r.message, "h = "),
        "tiny hmax: status %d, '%s'", rc, r.message);
  CHECK(r.t > 0.0 && r.t < mbdae_problem_tend(p), "tiny hmax: failed at t = %g", r.t);
  mbdae_problem_destroy(p);
}

int main(void)
{
  test_local_order();
  test_tolerance_slope();
  test_scd_at_1e7();
  test_published_rows();
  test_crank_reference();
  test_tolerance_ranges();
  test_dense_output();
  test_failure();
  return check_summary("test_radau5");
}
