/* The SUNDIALS IDA binding (solvers/ida.c), through mbdae_solve:
 * - every problem at rtol = atol = 1e-8 (h0 as the test set runs it: 1e-2 rtol for the slider
 *   crank, rtol otherwise) reaches a stated scd, set a little below the measured value
 *   (measured: caraxis 3.09, andrews 5.53, crank 2.98, pendulum 1.98, dpendulum 2.97), and the
 *   counters add up (steps = accepted + error-test failures + Newton failures, one Jacobian per
 *   factorization, no finite-difference residuals);
 * - the whole test-set range rtol = atol = 10^-(4+m/4), m = 0..24, runs without a failure for
 *   every problem (about 580k steps in all; a few seconds, well under a minute with sanitizers);
 * - dense output on the pendulum: at tend it equals y(tend), at t0 it is y0, and elsewhere it is
 *   close to the exact solution (refsol_pendulum_state); on_step sees every accepted step;
 * - hmax is respected;
 * - a run stopped by max_steps = 5 fails with MBDAE_ERR_MAX_STEPS and "t = ", "h = " in the
 *   message. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "support.h"
#include "mbdae/mbdae.h"
#include "refsol.h"

enum { MAX_N = 32, NTOUT = 6, M_MAX = 24, M_DIV = 4 };

/* scd at rtol = atol = 1e-8, a little below the measured value (see the header). */
static const struct {
  const char *id;
  double min_scd;
} scd_at_1e8[] = {
    {"caraxis", 2.8}, {"andrews", 5.2}, {"crank", 2.7}, {"pendulum", 1.7}, {"dpendulum", 2.7},
};
enum { NPROBLEMS = (int)(sizeof scd_at_1e8 / sizeof scd_at_1e8[0]) };

/* Observer state for on_step. */
typedef struct history {
  long calls;
  int min_order, max_order;
  double last_t, hmax_seen;
  int monotone;
} history;

static void record(void *ctx, double t, double h, int order)
{
  history *hs = ctx;
  if (hs->calls > 0 && !(t > hs->last_t)) {
    hs->monotone = 0;
  }
  hs->calls++;
  hs->last_t = t;
  hs->hmax_seen = fmax(hs->hmax_seen, h);
  hs->min_order = order < hs->min_order ? order : hs->min_order;
  hs->max_order = order > hs->max_order ? order : hs->max_order;
}

static void test_scd_at_1e8(void)
{
  for (int k = 0; k < NPROBLEMS; k++) {
    mbdae_problem *p = create_problem(scd_at_1e8[k].id);
    if (!p) {
      continue;
    }
    mbdae_options opt;
    test_options(p, 1e-8, &opt);
    double y[MAX_N], yp[MAX_N], ref[MAX_N];
    mbdae_result r;
    int rc = mbdae_solve(p, "ida", &opt, 1, y, yp, &r);
    CHECK(rc == MBDAE_OK, "%s: %s", scd_at_1e8[k].id, r.message);
    CHECK(mbdae_problem_ref(p, ref) == 0, "%s: no reference", scd_at_1e8[k].id);
    double scd = mbdae_scd(p, y, ref);
    printf("%-10s rtol 1e-8: scd %.2f mescd %.2f steps %ld accepted %ld nres %ld nlu %ld\n",
           scd_at_1e8[k].id, scd, mbdae_mescd(p, y, ref, opt.rtol, opt.atol), r.stats.steps,
           r.stats.accepted, r.stats.nres, r.stats.nlu);
    CHECK(scd >= scd_at_1e8[k].min_scd, "%s: scd %.2f < %.2f", scd_at_1e8[k].id, scd,
          scd_at_1e8[k].min_scd);
    CHECK(r.t == mbdae_problem_tend(p), "%s: ended at t = %.17g", scd_at_1e8[k].id, r.t);
    const mbdae_stats *s = &r.stats;
    CHECK(s->steps == s->accepted + s->nerrfail + s->nconvfail,
          "%s: steps %ld != accepted %ld + errfail %ld + convfail %ld", scd_at_1e8[k].id, s->steps,
          s->accepted, s->nerrfail, s->nconvfail);
    CHECK(s->accepted > 0 && s->nres > s->accepted, "%s: accepted %ld, nres %ld", scd_at_1e8[k].id,
          s->accepted, s->nres);
    CHECK(s->njac == s->nlu && s->nlu > 0, "%s: njac %ld, nlu %ld", scd_at_1e8[k].id, s->njac,
          s->nlu);
    CHECK(s->nres_fd == 0, "%s: nres_fd %ld with an analytic Jacobian", scd_at_1e8[k].id,
          s->nres_fd);
    mbdae_problem_destroy(p);
  }
}

/* Every problem over the test-set range: rtol = atol = 10^-(4 + m/4), m = 0..24. */
static void test_whole_range(void)
{
  for (int k = 0; k < NPROBLEMS; k++) {
    mbdae_problem *p = create_problem(scd_at_1e8[k].id);
    if (!p) {
      continue;
    }
    int failures = 0;
    long steps = 0;
    double worst_scd = INFINITY, ref[MAX_N];
    CHECK(mbdae_problem_ref(p, ref) == 0, "%s: no reference", scd_at_1e8[k].id);
    for (int m = 0; m <= M_MAX; m++) {
      mbdae_options opt;
      test_options(p, pow(10.0, -(4.0 + (double)m / M_DIV)), &opt);
      double y[MAX_N], yp[MAX_N];
      mbdae_result r;
      if (mbdae_solve(p, "ida", &opt, 1, y, yp, &r) != MBDAE_OK) {
        failures++;
        CHECK(0, "%s m = %d (rtol %.3g): %s", scd_at_1e8[k].id, m, opt.rtol, r.message);
        continue;
      }
      steps += r.stats.steps;
      worst_scd = fmin(worst_scd, mbdae_scd(p, y, ref));
    }
    printf("%-10s m = 0..%d: %d failures, %ld steps, lowest scd %.2f\n", scd_at_1e8[k].id, M_MAX,
           failures, steps, worst_scd);
    mbdae_problem_destroy(p);
  }
}

/* Continuous output and the step observer on the pendulum. */
static void test_dense_output(void)
{
  mbdae_problem *p = create_problem("pendulum");
  if (!p) {
    return;
  }
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  const double tout[NTOUT] = {t0, 0.5, 1.0, 2.5, 10.0, tend};
  /* Bounds at tout[1..] a little above what rtol = 1e-8 gives.  Positions and velocities,
   * absolute (measured 1.5e-6, 2.9e-6, 3.5e-6, 7.7e-5, 8.2e-3: the phase error grows with t);
   * the multiplier F, relative (measured 1.5e-5, 4.2e-5, 2.8e-5, 8.0e-5, 4.3e-4): it is left
   * out of the error test, so its interpolant is the least accurate component. */
  const double max_err_state[NTOUT] = {0.0, 1e-5, 1e-5, 1e-5, 3e-4, 3e-2};
  const double max_err_force[NTOUT] = {0.0, 3e-4, 3e-4, 3e-4, 3e-4, 3e-3};
  const double at_t0 = 1e-12; /* output at t0 reproduces y0 up to rounding */
  enum { FORCE = 4 };         /* y = (x, y, vx, vy, F) */
  double yout[NTOUT * PEND_N];
  history hs = {0, 99, 0, 0.0, 0.0, 1};
  mbdae_options opt;
  test_options(p, 1e-8, &opt);
  opt.tout = tout;
  opt.ntout = NTOUT;
  opt.yout = yout;
  opt.on_step = record;
  opt.on_step_ctx = &hs;
  double y[PEND_N], yp[PEND_N], y0[PEND_N], yp0[PEND_N];
  mbdae_result r;
  int rc = mbdae_solve(p, "ida", &opt, 1, y, yp, &r);
  CHECK(rc == MBDAE_OK, "pendulum with output: %s", r.message);
  mbdae_problem_init(p, y0, yp0);
  for (int i = 0; i < PEND_N; i++) {
    double at_end = yout[(NTOUT - 1) * PEND_N + i];
    CHECK(at_end == y[i], "output at tend, y%d: %.17g != y(tend) %.17g", i + 1, at_end, y[i]);
    CHECK(fabs(yout[i] - y0[i]) <= at_t0, "output at t0, y%d: %.17g != y0 %.17g", i + 1, yout[i],
          y0[i]);
  }
  for (int k = 1; k < NTOUT; k++) {
    double exact[PEND_N], exact_p[PEND_N], err_state = 0.0;
    refsol_pendulum_state(tout[k], exact, exact_p);
    for (int i = 0; i < FORCE; i++) {
      err_state = fmax(err_state, fabs(yout[k * PEND_N + i] - exact[i]));
    }
    double err_force = fabs(yout[k * PEND_N + FORCE] - exact[FORCE]) / fabs(exact[FORCE]);
    printf("pendulum output at t = %g: error %.2e in x, y, vx, vy, relative %.2e in F\n", tout[k],
           err_state, err_force);
    CHECK(err_state <= max_err_state[k], "output at t = %g: error %.2e > %.0e", tout[k], err_state,
          max_err_state[k]);
    CHECK(err_force <= max_err_force[k], "output at t = %g: F relative error %.2e > %.0e", tout[k],
          err_force, max_err_force[k]);
  }
  CHECK(hs.calls == r.stats.accepted, "on_step called %ld times, %ld accepted steps", hs.calls,
        r.stats.accepted);
  CHECK(hs.monotone && hs.last_t == tend, "on_step times: monotone %d, last %.17g", hs.monotone,
        hs.last_t);
  CHECK(hs.min_order >= 1 && hs.max_order <= 5 && hs.max_order >= 3, "orders %d..%d", hs.min_order,
        hs.max_order);
  mbdae_problem_destroy(p);
}

static void test_hmax(void)
{
  mbdae_problem *p = create_problem("caraxis");
  if (!p) {
    return;
  }
  const double hmax = 1e-2;
  history hs = {0, 99, 0, 0.0, 0.0, 1};
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  opt.hmax = hmax;
  opt.on_step = record;
  opt.on_step_ctx = &hs;
  double y[MAX_N], yp[MAX_N];
  mbdae_result r;
  int rc = mbdae_solve(p, "ida", &opt, 1, y, yp, &r);
  CHECK(rc == MBDAE_OK, "caraxis with hmax: %s", r.message);
  CHECK(hs.hmax_seen <= hmax * (1.0 + 1e-12), "largest step %.17g > hmax %g", hs.hmax_seen, hmax);
  mbdae_problem_destroy(p);
}

static void test_max_steps(void)
{
  mbdae_problem *p = create_problem("pendulum");
  if (!p) {
    return;
  }
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  opt.max_steps = 5;
  double y[PEND_N], yp[PEND_N];
  mbdae_result r;
  int rc = mbdae_solve(p, "ida", &opt, 1, y, yp, &r);
  CHECK(rc == MBDAE_ERR_MAX_STEPS && r.status == MBDAE_ERR_MAX_STEPS, "max_steps 5: status %d", rc);
  CHECK(strstr(r.message, "t = ") && strstr(r.message, "h = "), "message '%s'", r.message);
  CHECK(r.stats.steps == 5 && r.t > mbdae_problem_t0(p) && r.t < mbdae_problem_tend(p),
        "stopped after %ld steps at t = %g", r.stats.steps, r.t);
  for (int i = 0; i < PEND_N; i++) {
    CHECK(isfinite(y[i]), "y%d = %g after the failure", i + 1, y[i]);
  }
  printf("max_steps 5: %s\n", r.message);
  mbdae_problem_destroy(p);
}

int main(void)
{
  test_scd_at_1e8();
  test_whole_range();
  test_dense_output();
  test_hmax();
  test_max_steps();
  return check_summary("test_ida");
}
