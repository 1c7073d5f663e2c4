/* test_integrator: the integrator object (include/mbdae/integrator.h) against whole runs.
 *  - MBDAE_NORMAL to tend gives mbdae_solve's y(tend), y'(tend), status and every counter bit for
 *    bit: caraxis, andrews, crank, pendulum and wheelset with ida, radau5, radau, bdf and mebdf at
 *    the tolerances of the published tables (h0 = h0_factor rtol, as the test set runs them; every
 *    tolerance of the grid is the sweeps' comparison, which runs the same code), and the output
 *    times (options.tout) too;
 *  - MBDAE_ONE_STEP to tend reaches the same y and counters at the published table tolerances,
 *    and the dense output at the midpoint of every step agrees with a tight run (radau5 at rtol
 *    1e-10, stepped to each point): in units of the run's tolerance (atol + rtol |y|), over the
 *    components of index 1, its error there less the mean of the errors at the step's two ends
 *    (the global error the run carries) is at most DENSE_LIMIT;
 *  - a step cut short at a ONE_STEP tout, reset, options.stop, a failure (max_steps) and the
 *    errors: dense outside the last step, a step backward or beyond tend, a bad mode, a run that
 *    has ended, a plug-in type that gives only integrate, options a solver refuses. */
#include <stdlib.h>

#include "check.h"
#include "support.h"

static const char *const PROBLEMS[] = {"caraxis", "andrews", "crank", "pendulum", "wheelset"};
static const char *const SOLVERS[] = {"ida", "radau5", "radau", "bdf", "mebdf"};
enum { NPROBLEMS = 5, NSOLVERS = 5 };
static const double TIGHT_RTOL = 1e-10;
/* The dense output's own error at most, in tolerances, at rtol >= DENSE_RTOL_MIN (the tight run
 * 1000 times tighter).  Measured 694 at most (the crank, radau5 at rtol 1e-6: Radau IIA's
 * collocation polynomial has the stage order 3, below the order 5 of the step ends; bdf and mebdf
 * stay below 25, ida below 70); the dense output returning the step's end instead reaches 1e4 and
 * more (see the commit). */
static const double DENSE_LIMIT = 1000.0;
static const double DENSE_RTOL_MIN = 1e-7;

static mbdae_integrator *create(const mbdae_problem *p, const char *solver,
                                const mbdae_options *opt)
{
  mbdae_integrator *it = NULL;
  char msg[320] = "";
  int rc = mbdae_integrator_create(p, mbdae_solver_find(solver), opt, &it, msg, sizeof msg);
  CHECK(rc == 0 && it, "create %s %s: %d %s", mbdae_problem_spec(p), solver, rc, msg);
  return rc == 0 ? it : NULL;
}

/* The integrator's state and counters equal the whole run's y, yp and r. */
static void check_same(const mbdae_problem *p, const mbdae_integrator *it, const double *y,
                       const double *yp, const mbdae_result *r, const char *what)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  double *z = malloc(2 * n * sizeof(double));
  mbdae_integrator_state(it, z, z + n);
  mbdae_stats st;
  mbdae_integrator_stats(it, &st);
  CHECK(memcmp(z, y, n * sizeof(double)) == 0, "%s: y(tend) differs from mbdae_solve's", what);
  CHECK(memcmp(z + n, yp, n * sizeof(double)) == 0, "%s: y'(tend) differs", what);
  CHECK(memcmp(&st, &r->stats, sizeof st) == 0,
        "%s: counters differ: steps %ld/%ld accepted %ld/%ld nres %ld/%ld njac %ld/%ld nlu "
        "%ld/%ld",
        what, st.steps, r->stats.steps, st.accepted, r->stats.accepted, st.nres, r->stats.nres,
        st.njac, r->stats.njac, st.nlu, r->stats.nlu);
  free(z);
}

/* mbdae_solve over [t0, tend] into y, yp, r: its status. */
static int whole_run(const mbdae_problem *p, const char *solver, const mbdae_options *opt,
                     double *y, double *yp, mbdae_result *r)
{
  return mbdae_solve(p, solver, opt, 1, y, yp, r);
}

/* MBDAE_NORMAL to tend against mbdae_solve. */
static void check_normal(const mbdae_problem *p, const char *solver, double rtol)
{
  mbdae_options opt;
  test_options(p, rtol, &opt);
  size_t n = (size_t)mbdae_problem_neq(p);
  double *y = malloc(2 * n * sizeof(double)), *yp = y + n;
  mbdae_result r;
  int rc = whole_run(p, solver, &opt, y, yp, &r);
  mbdae_integrator *it = create(p, solver, &opt);
  char what[160];
  snprintf(what, sizeof what, "%s %s rtol %g NORMAL", mbdae_problem_spec(p), solver, rtol);
  if (it) {
    double t = 0.0, tend = mbdae_problem_tend(p);
    int s = mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t);
    CHECK(s == rc, "%s: status %d, mbdae_solve %d (%s)", what, s, rc, r.message);
    CHECK(rc != 0 || t == tend, "%s: t = %.17g", what, t);
    CHECK(rc == 0 || strcmp(mbdae_integrator_message(it), r.message) == 0, "%s: '%s' / '%s'", what,
          mbdae_integrator_message(it), r.message);
    check_same(p, it, y, yp, &r, what);
  }
  mbdae_integrator_free(it);
  free(y);
}

/* Error of y against the tight yt in units of the run's tolerance, over the index-1 components. */
static double tol_error(const mbdae_problem *p, const double *y, const double *yt, double rtol)
{
  const int *index = mbdae_problem_index(p);
  double e = 0.0;
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    if (index[i] <= 1) {
      e = fmax(e, fabs(y[i] - yt[i]) / (rtol + rtol * fabs(yt[i])));
    }
  }
  return e;
}

/* The dense output's own error at a midpoint, in units of the run's tolerance over the index-1
 * components: the error there (dense ym against the tight yt) less the mean of the errors at the
 * step's ends (e0, e1: the state against the tight run), so that the global error the run carries,
 * which varies slowly, cancels and the interpolation's error is left. */
static double dense_error(const mbdae_problem *p, const double *ym, const double *yt,
                          const double *e0, const double *e1, double rtol)
{
  const int *index = mbdae_problem_index(p);
  double e = 0.0;
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    if (index[i] <= 1) {
      double local = (ym[i] - yt[i]) - 0.5 * (e0[i] + e1[i]);
      e = fmax(e, fabs(local) / (rtol + rtol * fabs(yt[i])));
    }
  }
  return e;
}

/* y of the tight run at t (stepped there, then its dense output). */
static void tight_at(mbdae_integrator *tight, double t, double *yt)
{
  double tt;
  int rc = mbdae_integrator_step(tight, t, MBDAE_NORMAL, &tt);
  CHECK(rc == 0 && tt == t, "tight run to %.17g: %d %s", t, rc, mbdae_integrator_message(tight));
  rc = mbdae_integrator_dense(tight, t, yt);
  CHECK(rc == 0, "tight dense at %.17g: %s", t, mbdae_integrator_message(tight));
}

static double worst_dense; /* the largest dense output error seen */

/* e = y - yt (n values). */
static void difference(size_t n, const double *y, const double *yt, double *e)
{
  for (size_t i = 0; i < n; i++) {
    e[i] = y[i] - yt[i];
  }
}

/* ONE_STEP to tend: the whole run's result, and the dense output at every step's midpoint. */
static void check_one_step(const mbdae_problem *p, const char *solver, double rtol)
{
  mbdae_options opt, topt;
  test_options(p, rtol, &opt);
  test_options(p, TIGHT_RTOL, &topt);
  size_t n = (size_t)mbdae_problem_neq(p);
  double *y = calloc(7 * n, sizeof(double)), *yp = y + n, *ym = y + 2 * n, *yt = y + 3 * n,
         *ys = y + 4 * n, *e0 = y + 5 * n, *e1 = y + 6 * n;
  mbdae_result r;
  int rc = whole_run(p, solver, &opt, y, yp, &r);
  mbdae_integrator *it = create(p, solver, &opt), *tight = create(p, "radau5", &topt);
  char what[160];
  snprintf(what, sizeof what, "%s %s rtol %g ONE_STEP", mbdae_problem_spec(p), solver, rtol);
  double t = mbdae_problem_t0(p), tend = mbdae_problem_tend(p), e_mid = 0.0;
  int s = 0;
  while (it && tight && s == 0 && t < tend) {
    double tprev = t, mid;
    s = mbdae_integrator_step(it, tend, MBDAE_ONE_STEP, &t);
    mid = tprev + 0.5 * (t - tprev);
    if (s != 0) {
      break;
    }
    int d = mbdae_integrator_dense(it, mid, ym);
    CHECK(d == 0, "%s: dense at the midpoint %.17g: %s", what, mid, mbdae_integrator_message(it));
    if (d != 0 || rtol < DENSE_RTOL_MIN) {
      continue; /* below DENSE_RTOL_MIN the bits only */
    }
    tight_at(tight, mid, ys); /* ys: the tight run at mid */
    tight_at(tight, t, yt);
    mbdae_integrator_state(it, e1, NULL);
    difference(n, e1, yt, e1);
    e_mid = fmax(e_mid, dense_error(p, ym, ys, e0, e1, rtol));
    memcpy(e0, e1, n * sizeof(double));
  }
  if (it && tight) {
    CHECK(s == rc, "%s: status %d, mbdae_solve %d: %s", what, s, rc, mbdae_integrator_message(it));
    CHECK(rc != 0 || t == tend, "%s: ended at %.17g", what, t);
    check_same(p, it, y, yp, &r, what);
    CHECK(e_mid <= DENSE_LIMIT, "%s: the dense output at the midpoints is %.3g tolerances off",
          what, e_mid);
    worst_dense = fmax(worst_dense, e_mid);
    if (getenv("MBDAE_TEST_VERBOSE")) {
      printf("%s: dense output %.3g tolerances off\n", what, e_mid);
    }
  }
  mbdae_integrator_free(it);
  mbdae_integrator_free(tight);
  free(y);
}

static void check_problem(const char *spec)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  for (int k = 0; k < NSOLVERS; k++) {
    for (int j = 0; j < plan.ntable; j++) {
      check_normal(p, SOLVERS[k], plan.table_rtol[j]);
      check_one_step(p, SOLVERS[k], plan.table_rtol[j]);
    }
  }
  mbdae_problem_destroy(p);
}

/* Output times are filled as the steps pass them, the whole run's bits. */
static void check_outputs(void)
{
  mbdae_problem *p = create_problem("andrews");
  if (!p) {
    return;
  }
  enum { NOUT = 5, N = 27 };
  double tout[NOUT] = {0.0, 0.001, 0.0123, 0.02, 0.03}, yout[NOUT * N], yout2[NOUT * N];
  double y[N], yp[N];
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  opt.tout = tout;
  opt.ntout = NOUT;
  for (int k = 0; k < NSOLVERS; k++) {
    mbdae_result r;
    opt.yout = yout;
    whole_run(p, SOLVERS[k], &opt, y, yp, &r);
    opt.yout = yout2;
    memset(yout2, 0, sizeof yout2);
    mbdae_integrator *it = create(p, SOLVERS[k], &opt);
    double t;
    CHECK(it && mbdae_integrator_step(it, 0.0123, MBDAE_NORMAL, &t) == 0 && t == 0.0123, "%s",
          SOLVERS[k]);
    CHECK(it && mbdae_integrator_step(it, 0.03, MBDAE_NORMAL, &t) == 0 && t == 0.03, "%s",
          SOLVERS[k]);
    CHECK(memcmp(yout, yout2, sizeof yout) == 0, "%s: output times differ", SOLVERS[k]);
    mbdae_integrator_free(it);
  }
  mbdae_problem_destroy(p);
}

static int integrate_only(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                          mbdae_result *r)
{
  (void)p;
  (void)opt;
  (void)y;
  (void)yp;
  r->status = MBDAE_ERR_UNSUPPORTED;
  return r->status;
}

/* The code of a call and its message, which must mention `about`. */
static void expect_code(int rc, int code, const char *msg, const char *about, const char *what)
{
  CHECK(rc == code, "%s: code %d, expected %d (%s)", what, rc, code, msg);
  CHECK(strstr(msg, about) != NULL, "%s: the message '%s' does not mention '%s'", what, msg, about);
}

/* create's refusals: a plug-in without step ops, bad options, what a solver refuses. */
static void check_create_errors(const mbdae_problem *p)
{
  static const mbdae_solver_type plugin = {
      sizeof(mbdae_solver_type), "whole", "whole runs only", integrate_only, NULL, NULL};
  mbdae_options opt;
  test_options(p, 1e-5, &opt);
  mbdae_integrator *it = (mbdae_integrator *)&opt;
  char msg[320] = "";
  int rc = mbdae_integrator_create(p, &plugin, &opt, &it, msg, sizeof msg);
  expect_code(rc, MBDAE_ERR_UNSUPPORTED, msg, "cannot step", "plug-in with integrate only");
  CHECK(it == NULL, "a refused create leaves *out NULL");
  opt.rtol = -1.0;
  rc = mbdae_integrator_create(p, mbdae_solver_find("bdf"), &opt, &it, msg, sizeof msg);
  expect_code(rc, MBDAE_ERR_ARG, msg, "rtol", "negative rtol");
  test_options(p, 1e-5, &opt);
  opt.linsys = MBDAE_JAC_CONDENSED;
  rc = mbdae_integrator_create(p, mbdae_solver_find("ida"), &opt, &it, msg, sizeof msg);
  expect_code(rc, MBDAE_ERR_UNSUPPORTED, msg, "condensed", "ida with linsys condensed");
  rc = mbdae_integrator_create(p, NULL, &opt, &it, msg, sizeof msg);
  CHECK(rc == MBDAE_ERR_ARG, "no solver type: %d", rc);
}

/* step's and dense's refusals on a run of p by solver. */
static void check_step_errors(const mbdae_problem *p, const char *solver)
{
  mbdae_options opt;
  test_options(p, 1e-5, &opt);
  mbdae_integrator *it = create(p, solver, &opt);
  if (!it) {
    return;
  }
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p), t, t1, y[SUPPORT_MAX_N];
  const char *msg = mbdae_integrator_message(it);
  expect_code(mbdae_integrator_dense(it, t0 + 1e-9, y), MBDAE_ERR_ARG, msg, "outside",
              "dense before the first step");
  CHECK(mbdae_integrator_dense(it, t0, y) == 0, "%s: dense at t0", solver);
  CHECK(mbdae_integrator_step(it, tend, MBDAE_ONE_STEP, &t) == 0, "%s", msg);
  CHECK(mbdae_integrator_step(it, tend, MBDAE_ONE_STEP, &t1) == 0, "%s", msg);
  expect_code(mbdae_integrator_dense(it, t - 0.5 * (t1 - t), y), MBDAE_ERR_ARG, msg, "outside",
              "dense before the last step");
  expect_code(mbdae_integrator_dense(it, t1 + 0.5 * (t1 - t), y), MBDAE_ERR_ARG, msg, "outside",
              "dense after the last step");
  CHECK(mbdae_integrator_dense(it, t + 0.5 * (t1 - t), y) == 0, "%s: dense inside", solver);
  expect_code(mbdae_integrator_step(it, t - 0.5 * (t1 - t), MBDAE_NORMAL, &t1), MBDAE_ERR_ARG, msg,
              "backward", "step backward");
  double tm = t + 0.5 * (t1 - t), tr;
  CHECK(mbdae_integrator_step(it, tm, MBDAE_NORMAL, &tr) == 0 && tr == tm &&
            mbdae_integrator_t(it) == t1,
        "%s: NORMAL inside the last step: no step, tret = tout", solver);
  expect_code(mbdae_integrator_step(it, t1, MBDAE_ONE_STEP, &t), MBDAE_ERR_ARG, msg, "backward",
              "ONE_STEP to t");
  expect_code(mbdae_integrator_step(it, 2 * tend, MBDAE_NORMAL, &t), MBDAE_ERR_ARG, msg,
              "beyond tend", "step beyond tend");
  expect_code(mbdae_integrator_step(it, tend, 7, &t), MBDAE_ERR_ARG, msg, "mode", "bad mode");
  CHECK(mbdae_integrator_step(it, t1, MBDAE_NORMAL, &t) == 0 && t == t1, "NORMAL to t: nothing");
  CHECK(mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t) == 0 && t == tend, "%s", msg);
  expect_code(mbdae_integrator_step(it, tend, MBDAE_ONE_STEP, &t), MBDAE_ERR_ARG, msg, "ended",
              "step after the end");
  mbdae_integrator_free(it);
}

/* A ONE_STEP tout before the step's end cuts it short there; the run goes on to tend and agrees
 * with the whole run to its tolerance. */
static void check_cut_short(const mbdae_problem *p, const char *solver)
{
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  size_t n = (size_t)mbdae_problem_neq(p);
  double y[SUPPORT_MAX_N], yp[SUPPORT_MAX_N], z[SUPPORT_MAX_N];
  mbdae_result r;
  whole_run(p, solver, &opt, y, yp, &r);
  mbdae_integrator *it = create(p, solver, &opt);
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p), t;
  double stops[3] = {t0 + 0.25 * opt.h0, t0 + 0.3 * (tend - t0), t0 + 0.7 * (tend - t0)};
  for (int k = 0; it && k < 3; k++) {
    while (mbdae_integrator_step(it, stops[k], MBDAE_ONE_STEP, &t) == 0 && t < stops[k]) {
    }
    CHECK(t == stops[k], "%s %s: ONE_STEP to %.17g ended at %.17g: %s", mbdae_problem_spec(p),
          solver, stops[k], t, mbdae_integrator_message(it));
  }
  CHECK(it && mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t) == 0 && t == tend, "%s %s",
        mbdae_problem_spec(p), solver);
  mbdae_integrator_state(it, z, NULL);
  double yref[SUPPORT_MAX_N];
  CHECK(mbdae_problem_ref(p, yref) == 0, "reference");
  double e_cut = tol_error(p, z, yref, 1e-6), e_whole = tol_error(p, y, yref, 1e-6);
  CHECK(e_cut <= 10.0 * fmax(e_whole, 1.0),
        "%s %s: the cut run is %.3g tolerances off, the "
        "whole run %.3g",
        mbdae_problem_spec(p), solver, e_cut, e_whole);
  mbdae_integrator_free(it);
  (void)n;
}

/* reset: the same run again from the start, bit for bit; a failure (max_steps) and its message
 * as mbdae_solve's; options.stop ends a run early. */
static int stop_after_first(void *ctx, double t, const double *y, const double *yp)
{
  (void)ctx;
  (void)t;
  (void)y;
  (void)yp;
  return 1;
}

static void check_reset_fail_stop(const mbdae_problem *p, const char *solver)
{
  mbdae_options opt;
  test_options(p, 1e-5, &opt);
  size_t n = (size_t)mbdae_problem_neq(p);
  double y[SUPPORT_MAX_N], yp[SUPPORT_MAX_N], y0[SUPPORT_MAX_N], yp0[SUPPORT_MAX_N], t;
  mbdae_result r;
  whole_run(p, solver, &opt, y, yp, &r);
  mbdae_problem_init(p, y0, yp0);
  mbdae_integrator *it = create(p, solver, &opt);
  double tend = mbdae_problem_tend(p);
  CHECK(it && mbdae_integrator_step(it, 0.5 * tend, MBDAE_NORMAL, &t) == 0, "half way");
  CHECK(it && mbdae_integrator_reset(it, mbdae_problem_t0(p), y0, yp0) == 0, "reset");
  CHECK(it && mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t) == 0, "after reset");
  if (it) {
    check_same(p, it, y, yp, &r, "after reset");
  }
  mbdae_integrator_free(it);
  opt.max_steps = 5;
  int rc = whole_run(p, solver, &opt, y, yp, &r);
  it = create(p, solver, &opt);
  int s = it ? mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t) : 0;
  CHECK(s == rc && rc == MBDAE_ERR_MAX_STEPS, "%s max_steps 5: %d / %d", solver, s, rc);
  CHECK(it && strcmp(mbdae_integrator_message(it), r.message) == 0, "%s: '%s' / '%s'", solver,
        it ? mbdae_integrator_message(it) : "", r.message);
  CHECK(it && mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t) == rc, "the failure again");
  if (it) {
    check_same(p, it, y, yp, &r, "max_steps 5");
  }
  mbdae_integrator_free(it);
  test_options(p, 1e-5, &opt);
  opt.stop = stop_after_first;
  it = create(p, solver, &opt);
  CHECK(it && mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t) == 0 && t < tend, "stop");
  CHECK(it && mbdae_integrator_step(it, tend, MBDAE_NORMAL, &t) == MBDAE_ERR_ARG,
        "a stopped run has ended");
  mbdae_integrator_free(it);
  (void)n;
}

int main(int argc, char **argv)
{
  for (int i = 0; i < NPROBLEMS; i++) {
    if (argc < 2 || strcmp(argv[1], PROBLEMS[i]) == 0) {
      check_problem(PROBLEMS[i]);
    }
  }
  printf("dense output: %.3g tolerances off at most (limit %g)\n", worst_dense, DENSE_LIMIT);
  check_outputs();
  mbdae_problem *p = create_problem("caraxis");
  if (p) {
    check_create_errors(p);
    for (int k = 0; k < NSOLVERS; k++) {
      check_step_errors(p, SOLVERS[k]);
      check_cut_short(p, SOLVERS[k]);
      check_reset_fail_stop(p, SOLVERS[k]);
    }
    mbdae_problem_destroy(p);
  }
  return check_summary("test_integrator");
}
