/* Trajectory digits in every run (issue 35; src/harness/solve.c): mbdae_solve_with measures tscd,
 * tmescd and tscd_rms in the untimed run the drift uses, with the reference trajectory's times
 * as output times, and records carry them.
 *
 * - the pendulum by radau5 at rtol 1e-8 (the acceptance): tscd <= scd, tscd <= tscd_rms,
 *   all finite, and y and the counters equal those of a run without output times (on_step of the
 *   caller's: the timed runs alone);
 * - a solver that refuses output times (MBDAE_ERR_UNSUPPORTED, as a plug-in may): the run
 *   succeeds, made once more without them, and has no trajectory digits (NaN);
 * - a solver that ignores output times (no continuous output): succeeds, NaN;
 * - the caller's own output times: its yout filled, NaN (the runs are the caller's). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "support.h"

static int spy_runs; /* integrations by a spy (reset before each case) */

/* radau5, refusing output times as a solver without continuous output may. */
static int refusing_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y,
                              double *yp, mbdae_result *r)
{
  spy_runs++;
  if (opt->ntout > 0) {
    r->status = MBDAE_ERR_UNSUPPORTED;
    snprintf(r->message, sizeof r->message, "no output times");
    return r->status;
  }
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

/* radau5, deaf to output times: yout never written. */
static int deaf_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                          mbdae_result *r)
{
  spy_runs++;
  mbdae_options o = *opt;
  o.ntout = 0;
  o.tout = NULL;
  o.yout = NULL;
  return mbdae_solver_find("radau5")->integrate(p, &o, y, yp, r);
}

static const mbdae_solver_type refusing = {
    sizeof(mbdae_solver_type), "refusing", "radau5 without tout", refusing_integrate, NULL, NULL};
static const mbdae_solver_type deaf = {
    sizeof(mbdae_solver_type), "deaf", "radau5 ignoring tout", deaf_integrate, NULL, NULL};

static void count_step(void *ctx, double t, double h, int order)
{
  (void)t, (void)h, (void)order;
  ++*(long *)ctx;
}

static int none(const mbdae_result *r)
{
  return isnan(r->tscd) && isnan(r->tmescd) && isnan(r->tscd_rms);
}

static void acceptance(mbdae_problem *p, const mbdae_options *opt)
{
  double y[PEND_N], yref[PEND_N], y2[PEND_N];
  mbdae_result r, plain;
  CHECK(mbdae_solve(p, "radau5", opt, 2, y, NULL, &r) == 0, "radau5: %s", r.message);
  CHECK(mbdae_problem_ref(p, yref) == 0, "the pendulum's end reference");
  double scd = mbdae_scd(p, y, yref);
  CHECK(isfinite(r.tscd) && isfinite(r.tmescd) && isfinite(r.tscd_rms),
        "trajectory digits measured: tscd %g tmescd %g rms %g", r.tscd, r.tmescd, r.tscd_rms);
  CHECK(r.tscd <= scd && r.tscd <= r.tscd_rms && r.tscd > 0.0,
        "tscd %.4f <= scd %.4f and <= tscd_rms %.4f", r.tscd, scd, r.tscd_rms);
  mbdae_options o = *opt;
  long steps = 0;
  o.on_step = count_step;
  o.on_step_ctx = &steps;
  CHECK(mbdae_solve(p, "radau5", &o, 1, y2, NULL, &plain) == 0, "radau5 observed: %s",
        plain.message);
  CHECK(memcmp(y, y2, sizeof y) == 0 && memcmp(&r.stats, &plain.stats, sizeof r.stats) == 0,
        "the run with output times and the run without them differ (y_1 %.17g / %.17g, steps "
        "%ld / %ld)",
        y[0], y2[0], r.stats.steps, plain.stats.steps);
  CHECK(none(&plain), "the caller's observer: no trajectory digits (tscd %g)", plain.tscd);
}

int main(void)
{
  mbdae_problem *p = create_problem("pendulum");
  if (!p) {
    return 1;
  }
  mbdae_options opt;
  test_options(p, 1e-8, &opt);
  acceptance(p, &opt);

  double y[PEND_N];
  mbdae_result r;
  spy_runs = 0;
  CHECK(mbdae_solve_with(p, &refusing, &opt, 2, y, NULL, &r) == 0,
        "a solver refusing output times fails the run: %s", r.message);
  CHECK(spy_runs == 4 && none(&r) && r.drift_steps > 0,
        "refused output times: %d integrations (expected 2 timed, the refused one, again "
        "without), tscd %g, drift over %ld states",
        spy_runs, r.tscd, r.drift_steps);

  spy_runs = 0;
  CHECK(mbdae_solve_with(p, &deaf, &opt, 1, y, NULL, &r) == 0, "deaf: %s", r.message);
  CHECK(spy_runs == 2 && none(&r), "output times ignored: %d integrations, tscd %g", spy_runs,
        r.tscd);

  double tout[2] = {0.5, 1.0}, yout[2 * PEND_N] = {0};
  opt.tout = tout;
  opt.ntout = 2;
  opt.yout = yout;
  CHECK(mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r) == 0, "own tout: %s", r.message);
  CHECK(none(&r) && yout[PEND_N] != 0.0, "the caller's output times: tscd %g, yout %g", r.tscd,
        yout[PEND_N]);
  mbdae_problem_destroy(p);
  return check_summary("test_traj_digits");
}
