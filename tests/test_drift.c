/* Constraint drift in every run (doc/design.md, "Formulations"; issue 12): the harness's largest
 * |g| and |G v + g_t| over the accepted states and at t_end, for every built-in solver and for a
 * plug-in solver that reports no states.
 *
 * Known answers on the pendulum (Hafner & Poell 2015): the index-1 form ("DaS C", g'' = 0)
 * integrates the constraint only twice differentiated, so |x^2 + y^2 - 1| grows with t and ends far
 * above the tolerance; the index-3 form holds it to the tolerance.  Also: the maxima cover exactly
 * the accepted states, the end values are those of the returned state, a caller's own on_accept and
 * on_step still see every step, the state-space form has no constraints (drift absent: NaN, an
 * empty CSV field, JSON null), a failed run keeps the drift of the states it accepted, the example
 * plug-in solver (tests/plugin/euler.c) reports every step through on_accept, and a solver without
 * on_accept gets its drift at t_end. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

extern const mbdae_solver_type euler_solver; /* tests/plugin/euler.c */

static const char *const solvers[] = {"radau5", "bdf", "ida"};
enum { NSOLVERS = (int)(sizeof solvers / sizeof solvers[0]) };

/* What a caller's own observers see: steps, and |x^2 + y^2 - 1| computed here from the state. */
typedef struct watcher {
  long steps, states;
  double pos_max;
} watcher;

static void count_step(void *ctx, double t, double h, int order)
{
  (void)t, (void)h, (void)order;
  ((watcher *)ctx)->steps++;
}

static void watch_state(void *ctx, double t, const double *y, const double *yp)
{
  watcher *w = ctx;
  (void)t, (void)yp;
  w->states++;
  w->pos_max = fmax(w->pos_max, fabs(y[0] * y[0] + y[1] * y[1] - 1.0));
}

/* |g| of the pendulum at y, as the problem states it (x^2 + y^2 - 1). */
static double pendulum_g(const double *y) { return fabs(y[0] * y[0] + y[1] * y[1] - 1.0); }

/* index1 drifts far above rtol, index3 stays within it, for solver; both runs observed. */
static void check_known_drift(const char *solver)
{
  const double rtol = 1e-6;
  static const char *const forms[] = {"pendulum:form=index1", "pendulum:form=index3"};
  for (int k = 0; k < 2; k++) {
    mbdae_problem *p = create_problem(forms[k]);
    if (!p) {
      return;
    }
    double y[5], yp[5];
    mbdae_options opt;
    test_options(p, rtol, &opt);
    watcher w = {0, 0, 0.0};
    opt.on_step = count_step;
    opt.on_accept = watch_state;
    opt.on_step_ctx = opt.on_accept_ctx = &w;
    mbdae_result r;
    int rc = mbdae_solve(p, solver, &opt, 1, y, yp, &r);
    CHECK(rc == 0, "%s %s: %s", solver, forms[k], r.message);
    printf("%-6s %-21s drift |g| max %.3e end %.3e, |g'| max %.3e end %.3e, %ld states\n", solver,
           forms[k], r.drift_pos_max, r.drift_pos_end, r.drift_vel_max, r.drift_vel_end,
           r.drift_steps);
    CHECK(r.drift_steps == r.stats.accepted && w.states == r.stats.accepted &&
              w.steps == r.stats.accepted,
          "%s %s: drift over %ld states, caller's on_accept %ld, on_step %ld, accepted %ld", solver,
          forms[k], r.drift_steps, w.states, w.steps, r.stats.accepted);
    CHECK(fabs(r.drift_pos_max - w.pos_max) <= 1e-12 * w.pos_max + 1e-300 &&
              fabs(r.drift_pos_end - pendulum_g(y)) <= 1e-12 * r.drift_pos_end + 1e-300,
          "%s %s: |g| max %.17g end %.17g, from the states %.17g, %.17g", solver, forms[k],
          r.drift_pos_max, r.drift_pos_end, w.pos_max, pendulum_g(y));
    CHECK(r.drift_pos_end <= r.drift_pos_max && r.drift_vel_end <= r.drift_vel_max &&
              isfinite(r.drift_vel_max),
          "%s %s: the maxima include the end", solver, forms[k]);
    if (k == 0) {
      CHECK(r.drift_pos_end > 10.0 * rtol, "%s: index1 should drift: |g(tend)| = %.3e, rtol %g",
            solver, r.drift_pos_end, rtol);
    } else {
      CHECK(r.drift_pos_max < rtol, "%s: index3 should hold g: max |g| = %.3e, rtol %g", solver,
            r.drift_pos_max, rtol);
    }
    mbdae_problem_destroy(p);
  }
}

/* The state-space form: the drift of the Cartesian state mapped from the angles, at rounding
 * level (|g| <= 8 eps, |g'| <= 64 eps |v|max with |v| <= sqrt(2 g 1) ~ 4.4), at every accepted
 * state; the caller's on_accept still runs. */
static void check_ssf(const char *solver)
{
  mbdae_problem *p = create_problem("pendulum:form=ssf");
  if (!p) {
    return;
  }
  double y[2];
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  watcher w = {0, 0, 0.0};
  opt.on_accept = watch_state;
  opt.on_accept_ctx = &w;
  mbdae_result r;
  CHECK(mbdae_solve(p, solver, &opt, 1, y, NULL, &r) == 0, "%s ssf: %s", solver, r.message);
  CHECK(r.drift_pos_max <= 8 * DBL_EPSILON && r.drift_vel_max <= 64 * 4.5 * DBL_EPSILON &&
            r.drift_pos_end <= r.drift_pos_max && r.drift_vel_end <= r.drift_vel_max &&
            r.drift_steps == r.stats.accepted,
        "%s ssf: drift %g %g %g %g over %ld states, expected rounding level", solver,
        r.drift_pos_max, r.drift_vel_max, r.drift_pos_end, r.drift_vel_end, r.drift_steps);
  CHECK(w.states == r.stats.accepted, "%s ssf: the caller's on_accept ran %ld times, %ld accepted",
        solver, w.states, r.stats.accepted);
  mbdae_problem_destroy(p);
}

/* The chain's angles mapped to its Cartesian state: its drift at rounding level too. */
static void check_chain_ssf(void)
{
  mbdae_problem *p = create_problem("chain:n=3,form=ssf");
  if (!p) {
    return;
  }
  double y[6];
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  mbdae_result r;
  CHECK(mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r) == 0, "chain ssf: %s", r.message);
  CHECK(mbdae_problem_nconstraints(p) == 3 && r.drift_pos_max <= 16 * DBL_EPSILON &&
            r.drift_vel_max <= 1e-13 && r.drift_steps == r.stats.accepted,
        "chain ssf: drift %g %g over %ld states", r.drift_pos_max, r.drift_vel_max, r.drift_steps);
  mbdae_problem_destroy(p);
}

/* A run that fails keeps the drift of the states it accepted, and of where it stopped. */
static void check_failed_run(const char *solver)
{
  mbdae_problem *p = create_problem("pendulum:form=index1");
  if (!p) {
    return;
  }
  double y[5];
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  opt.max_steps = 20;
  mbdae_result r;
  int rc = mbdae_solve(p, solver, &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_MAX_STEPS && r.drift_steps == r.stats.accepted && r.drift_steps > 0 &&
            isfinite(r.drift_pos_max) && r.drift_pos_end <= r.drift_pos_max,
        "%s max_steps 20: status %d, drift %g over %ld states, %ld accepted", solver, rc,
        r.drift_pos_max, r.drift_steps, r.stats.accepted);
  mbdae_problem_destroy(p);
}

/* A solver that calls on_step but not on_accept: the example plug-in with on_accept taken away. */
static int euler_silent(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                        mbdae_result *r)
{
  mbdae_options quiet = *opt;
  quiet.on_accept = NULL;
  return euler_solver.integrate(p, &quiet, y, yp, r);
}

static const mbdae_solver_type silent_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "euler_silent",
    .title = "euler without on_accept",
    .integrate = euler_silent,
};

/* The example plug-in calls on_accept as the contract asks: its drift covers every step. */
static void check_plugin_states(void)
{
  mbdae_problem *p = create_problem("caraxis");
  if (!p) {
    return;
  }
  double y[10], yp[10];
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  mbdae_result r;
  CHECK(mbdae_solve_with(p, &euler_solver, &opt, 1, y, yp, &r) == 0, "euler: %s", r.message);
  CHECK(r.drift_steps == r.stats.accepted && r.drift_steps == 1000 &&
            r.drift_pos_max >= r.drift_pos_end,
        "euler: drift over %ld states, %ld accepted, expected 1000 (max %.3e, end %.3e)",
        r.drift_steps, r.stats.accepted, r.drift_pos_max, r.drift_pos_end);
  mbdae_problem_destroy(p);
}

/* A solver without on_accept: drift at t_end only, drift_steps 0 (on the car axis: euler's fixed
 * steps do not converge on the pendulum over [0, 100]). */
static void check_plugin_end_only(void)
{
  mbdae_problem *p = create_problem("caraxis");
  if (!p) {
    return;
  }
  double y[10], yp[10], g[2], gv[2];
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  mbdae_result r;
  CHECK(mbdae_solve_with(p, &silent_solver, &opt, 1, y, yp, &r) == 0, "euler: %s", r.message);
  CHECK(mbdae_problem_constraints(p, r.t, y, yp, g, gv, NULL) == 0, "caraxis constraints");
  double pos = fmax(fabs(g[0]), fabs(g[1])), vel = fmax(fabs(gv[0]), fabs(gv[1]));
  CHECK(r.drift_steps == 0 && r.drift_pos_max == r.drift_pos_end && r.drift_pos_end == pos &&
            r.drift_vel_max == r.drift_vel_end && r.drift_vel_end == vel,
        "euler: drift %.3e %.3e (end %.3e %.3e; from y(tend) %.3e %.3e) over %ld states, expected "
        "t_end only",
        r.drift_pos_max, r.drift_vel_max, r.drift_pos_end, r.drift_vel_end, pos, vel,
        r.drift_steps);
  printf("euler  caraxis               drift |g| at t_end %.3e, |g'| %.3e (t_end only)\n",
         r.drift_pos_end, r.drift_vel_end);
  mbdae_problem_destroy(p);
}

/* No drift is written as nothing: an empty CSV field (read back as NaN) and JSON null. */
static void check_absent_in_records(void)
{
  mbdae_problem *p = create_decay_problem(); /* y' = -y: no constraints (support.h) */
  if (!p) {
    return;
  }
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  mbdae_record rec = MBDAE_RECORD_INIT, *back = NULL;
  size_t n = 0;
  char *buf = NULL, msg[300] = "";
  size_t len = 0;
  CHECK(mbdae_record_run(&rec, p, mbdae_solver_find("radau5"), &opt, 1) == 0, "ssf: %s",
        rec.message);
  FILE *f = open_memstream(&buf, &len);
  mbdae_record_write_csv_header(f, NULL);
  mbdae_record_write_csv_row(f, &rec);
  mbdae_record_write_json(f, &rec);
  fclose(f);
  CHECK(strstr(buf, ",,,,0,0,") && strstr(buf, "\"drift_pos_max\": null") &&
            strstr(buf, "\"drift_vel_end\": null, \"drift_steps\": 0"),
        "ssf: drift should be empty in the CSV row and null in JSON:\n%s", buf);
  FILE *in = fmemopen(buf, strcspn(buf, "{"), "r");
  CHECK(mbdae_record_read_csv(in, "ssf.csv", &back, &n, msg, sizeof msg) == 0 && n == 1 &&
            isnan(back[0].drift_pos_max) && isnan(back[0].drift_vel_end),
        "ssf row read back: %s", msg);
  fclose(in);
  mbdae_records_free(back, n);
  mbdae_record_free(&rec);
  free(buf);
  mbdae_problem_destroy(p);
}

int main(void)
{
  check_chain_ssf();
  for (int s = 0; s < NSOLVERS; s++) {
    check_known_drift(solvers[s]);
    check_ssf(solvers[s]);
    check_failed_run(solvers[s]);
  }
  check_plugin_states();
  check_plugin_end_only();
  check_absent_in_records();
  return check_summary("test_drift");
}
