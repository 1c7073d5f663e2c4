/* form=dummy (Mattsson & Soederlind's dummy derivatives), mbdae_solve_dummy (its selection
 * switched where it degenerates) and options.stop.
 *
 * Known answers: the residual is zero at the initial values and at the reference of every
 * selection, and the analytic Jacobian agrees with differences of the residual at consistent
 * states along a run (mbdae_check_jac, for both pendulum selections and three of the double
 * pendulum's); the selection stays index 1 only while its pivot does, so one fixed selection
 * fails where the pendulum passes x = 0, while the switched run crosses [0, 100] through many
 * switches with |g| at tolerance level and scd near index1's with projection; every built-in
 * solver stops at the first accepted step past a time it is asked to stop at; bad select= values
 * are refused naming the valid coordinates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

enum { MAX_N = 16 };

/* ---- options.stop --------------------------------------------------------------------------- */

typedef struct stop_after {
  double t_stop;  /* stop at the first accepted step ending at or after t_stop */
  long calls;     /* calls of stop */
  double t_first; /* t of the first call that asked to stop */
} stop_after;

static int stop_when_past(void *ctx, double t, const double *y, const double *yp)
{
  (void)y, (void)yp;
  stop_after *s = ctx;
  s->calls++;
  if (t >= s->t_stop && s->t_first < 0.0) {
    s->t_first = t;
  }
  return t >= s->t_stop;
}

/* Each built-in solver ends the run at the step stop asks for, successfully, with the state
 * there. */
static void check_stop(void)
{
  mbdae_problem *p = create_problem("pendulum:form=index1");
  for (int i = 0; p && i < mbdae_solver_count(); i++) {
    const char *id = mbdae_solver_get(i)->id;
    stop_after s = {2.5, 0, -1.0};
    mbdae_options opt;
    test_options(p, 1e-6, &opt);
    opt.stop = stop_when_past;
    opt.stop_ctx = &s;
    double y[MAX_N], yp[MAX_N];
    mbdae_result r;
    int rc = mbdae_solve(p, id, &opt, 1, y, yp, &r);
    CHECK(rc == MBDAE_OK, "%s with stop: %s", id, r.message);
    CHECK(r.t == s.t_first && r.t >= 2.5 && r.t < 3.5, "%s stopped at t = %g (asked at %g)", id,
          r.t, s.t_first);
    CHECK(s.calls == r.stats.accepted, "%s: stop called %ld times over %ld accepted steps", id,
          s.calls, r.stats.accepted);
    CHECK(pendulum_position_error(y, r.t) < 1e-3, "%s: y is the state at the stop (error %g)", id,
          pendulum_position_error(y, r.t));
    CHECK(fabs(r.drift_pos_end) < 1e-3, "%s: drift at the stop %g", id, r.drift_pos_end);
  }
  mbdae_problem_destroy(p);
}

/* ---- the form: residual, Jacobian, specs ------------------------------------------------- */

/* max |F| at (t, y, y'). */
static double residual_norm(const mbdae_problem *p, double t, const double *y, const double *yp)
{
  double res[MAX_N], m = 0.0;
  if (mbdae_problem_res(p, t, y, yp, res) != 0) {
    return INFINITY;
  }
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    m = fmax(m, fabs(res[i]));
  }
  return m;
}

/* Consistent states along a switched run (mbdae_solve_dummy's on_accept, in p's variables): the
 * points the Jacobian is checked at (random states would not be consistent). */
typedef struct states {
  int n, count, every;
  long seen;
  double t[8], y[8][MAX_N], yp[8][MAX_N];
} states;

static void keep_state(void *ctx, double t, const double *y, const double *yp)
{
  states *s = ctx;
  if (s->count < 8 && s->seen++ % s->every == 0) {
    s->t[s->count] = t;
    memcpy(s->y[s->count], y, sizeof(double) * (size_t)s->n);
    memcpy(s->yp[s->count], yp, sizeof(double) * (size_t)s->n);
    s->count++;
  }
}

/* The Jacobian with 1 added to entry (row, col) of dF/dy: the check must flag it. */
typedef struct mutated {
  const mbdae_problem *p;
  int row, col;
} mutated;

static int mutated_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  return mbdae_problem_res(((const mutated *)ctx)->p, t, y, yp, res);
}

static int mutated_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                       double *dfdyp)
{
  const mutated *m = ctx;
  int rc = mbdae_problem_jac(m->p, t, y, yp, dfdy, dfdyp);
  if (rc == 0 && dfdy) {
    dfdy[m->row + (size_t)m->col * (size_t)mbdae_problem_neq(m->p)] += 1.0;
  }
  return rc;
}

/* spec's residual vanishes at its initial values and reference; its Jacobian passes the check
 * at consistent states over [0, 3] (every state of the run mapped to spec's selection), and one
 * with an entry of the g'' rows (the last) changed does not. */
static void check_form(const char *spec)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  int n = mbdae_problem_neq(p), switches = 0;
  double y[MAX_N], yp[MAX_N], yref[MAX_N], res[MAX_N];
  CHECK(mbdae_problem_init(p, y, yp) == 0 && residual_norm(p, 0.0, y, yp) == 0.0,
        "%s: consistent initial values", spec);
  if (mbdae_problem_ref(p, yref) == 0) { /* y' enters only in rows of unselected coordinates */
    CHECK(mbdae_problem_res(p, mbdae_problem_tend(p), yref, yp, res) == 0, "%s: reference", spec);
  }
  states s = {.n = n, .every = 50};
  mbdae_options opt;
  test_options(p, 1e-9, &opt);
  opt.on_accept = keep_state;
  opt.on_accept_ctx = &s;
  mbdae_result r;
  int rc = mbdae_solve_dummy(p, mbdae_solver_find("radau5"), 3.0, &opt, y, yp, &r, &switches);
  CHECK(rc == 0 && s.count >= 6 && switches > 0, "%s: %d states, %d switches (%s)", spec, s.count,
        switches, r.message);
  mutated m = {p, n - 1, 0};
  mbdae_functions wrong = MBDAE_FUNCTIONS_INIT, own;
  wrong.neq = n;
  wrong.res = mutated_res;
  wrong.jac = mutated_jac;
  wrong.ctx = &m;
  mbdae_problem_functions(p, &own);
  int mismatches = 0, flagged = 0;
  double worst = 0.0;
  for (int k = 0; k < s.count; k++) {
    mbdae_jac_check jc = MBDAE_JAC_CHECK_INIT;
    rc = mbdae_check_jac(&own, s.t[k], s.y[k], s.yp[k], NULL, NULL, &jc);
    mismatches += rc != 0 || !jc.ok;
    worst = fmax(worst, jc.err);
    CHECK(residual_norm(p, s.t[k], s.y[k], s.yp[k]) < 1e-5, "%s: state %d consistent", spec, k);
    rc = mbdae_check_jac(&wrong, s.t[k], s.y[k], s.yp[k], NULL, NULL, &jc);
    flagged += rc == 0 && !jc.ok;
  }
  CHECK(mismatches == 0, "%s: %d of %d states with Jacobian mismatches (worst %.2e)", spec,
        mismatches, s.count, worst);
  CHECK(flagged == s.count, "%s: the changed entry flagged at %d of %d states", spec, flagged,
        s.count);
  mbdae_problem_destroy(p);
}

/* ---- the switched run ----------------------------------------------------------------------- */

/* A run of mbdae_solve_dummy on spec to tend (0: the problem's): status, switches, scd against
 * the reference (at the problem's tend only). */
static int run_switched(const char *spec, const char *solver, double rtol, double tend,
                        int *switches, double *scd, mbdae_result *r)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return -1;
  }
  double y[MAX_N], yp[MAX_N], yref[MAX_N];
  mbdae_options opt;
  test_options(p, rtol, &opt);
  int rc = mbdae_problem_init(p, y, yp);
  rc = rc == 0 ? mbdae_solve_dummy(p, mbdae_solver_find(solver), tend, &opt, y, yp, r, switches)
               : rc;
  CHECK(rc == 0, "%s %s: %s", solver, spec, r->message);
  *scd = rc == 0 && tend == 0.0 && mbdae_problem_ref(p, yref) == 0 ? mbdae_scd(p, y, yref) : 0.0;
  mbdae_problem_destroy(p);
  return rc;
}

/* scd of index1 with the orthogonal projection after every step (radau5): what P is compared
 * with. */
static double projected_scd(double rtol)
{
  mbdae_problem *p = create_problem("pendulum:form=index1");
  mbdae_projector *pr = NULL;
  double y[MAX_N], yp[MAX_N], yref[MAX_N], scd = 0.0;
  mbdae_options opt;
  test_options(p, rtol, &opt);
  if (p && mbdae_projector_create(p, &pr, NULL, 0) == 0) {
    opt.project = mbdae_projector_apply;
    opt.project_ctx = pr;
    mbdae_result r;
    if (mbdae_solve(p, "radau5", &opt, 1, y, yp, &r) == 0 && mbdae_problem_ref(p, yref) == 0) {
      scd = mbdae_scd(p, y, yref);
    }
  }
  mbdae_projector_destroy(pr);
  mbdae_problem_destroy(p);
  return scd;
}

/* One selection alone fails where its pivot vanishes (x = 0 on the first swing, t ~ 0.59); the
 * switched run crosses [0, 100] through many switches, |g| at tolerance level, and scd near
 * index1's with projection. */
static void check_switched_pendulum(void)
{
  mbdae_problem *fixed = create_problem("pendulum:form=dummy,select=x");
  double y[MAX_N], yp[MAX_N];
  mbdae_options opt;
  test_options(fixed, 1e-7, &opt);
  mbdae_result r;
  int rc = mbdae_solve(fixed, "radau5", &opt, 1, y, yp, &r);
  CHECK(rc != 0 && r.t > 0.5 && r.t < 0.7, "select=x alone should fail where x = 0: t = %g", r.t);
  mbdae_problem_destroy(fixed);
  const double rtol = 1e-7;
  double scd_proj = projected_scd(rtol);
  const char *solvers[] = {"radau5", "radau", "bdf", "ida"};
  for (int i = 0; i < 4; i++) {
    int switches = 0;
    double scd = 0.0;
    mbdae_result r;
    run_switched("pendulum:form=dummy", solvers[i], rtol, 0.0, &switches, &scd, &r);
    printf("pendulum %s: switches %d, scd %.2f (index1 + projection, radau5: %.2f), max |g| "
           "%.2e, max |g'| %.2e, steps %ld, cpu %.3f\n",
           solvers[i], switches, scd, scd_proj, r.drift_pos_max, r.drift_vel_max, r.stats.steps,
           r.cpu_seconds);
    CHECK(switches >= 150 && switches <= 200, "%s: %d switches (4 per period of 2.37)", solvers[i],
          switches);
    CHECK(r.drift_pos_max < 100.0 * rtol && r.t == 100.0, "%s: max |g| %.2e, t = %g", solvers[i],
          r.drift_pos_max, r.t);
    CHECK(scd > 1.0, "%s: scd %.2f", solvers[i], scd);
    if (strcmp(solvers[i], "radau5") == 0) {
      CHECK(scd > scd_proj - 1.0, "radau5: scd %.2f against %.2f with projection", scd, scd_proj);
    }
  }
}

/* bdf through the switches at the regularisation table's tolerance (mbdae regularise, rtol 1e-6):
 * a Newton failure right after a switch must be retried with a new Jacobian (refactoring the
 * one from before the switch at each smaller step failed ten times at t = 2.55). */
static void check_bdf_at_1e6(void)
{
  const char *specs[] = {"pendulum:form=dummy", "dpendulum:form=dummy"};
  for (int i = 0; i < 2; i++) {
    int switches = 0;
    double scd = 0.0;
    mbdae_result r;
    int rc = run_switched(specs[i], "bdf", 1e-6, 100.0, &switches, &scd, &r);
    printf("%s bdf 1e-6: switches %d, t = %g, steps %ld\n", specs[i], switches, r.t, r.stats.steps);
    CHECK(rc == 0 && r.t == 100.0, "%s bdf 1e-6: status %d at t = %g", specs[i], rc, r.t);
  }
}

/* Bad keys and arguments are refused with a message naming what is valid. */
static void check_refusals(void)
{
  static const char *const bad[][2] = {
      {"pendulum:form=dummy,select=z", "from: x, y"},
      {"pendulum:form=dummy,select=x+y", "1 distinct coordinate"},
      {"pendulum:form=dummy,select=", "select=NAME+NAME"},
      {"dpendulum:form=dummy,select=x1+x1", "from: x1, y1, x2, y2"},
      {"dpendulum:form=dummy,select=x1", "2 distinct coordinate"},
      {"dpendulum:form=dummy,select=x1+vx1", "from: x1, y1, x2, y2"},
      {"pendulum:select=x", "select= belongs to form=dummy"},
      {"chain:n=3,form=dummy", "form=index3|index2|ggl|index1|baumgarte|ssf"},
      {"caraxis:form=dummy", "not offered"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mbdae_problem *p = NULL;
    char msg[256] = "";
    int rc = mbdae_problem_create(bad[i][0], &p, msg, sizeof msg);
    CHECK(rc == MBDAE_ERR_SPEC && !p && strstr(msg, bad[i][1]), "%s: %d '%s'", bad[i][0], rc, msg);
    mbdae_problem_destroy(p);
  }
  mbdae_problem *p = create_problem("dpendulum:form=dummy");
  CHECK(p && strcmp(mbdae_problem_spec(p), "dpendulum:form=dummy,select=x1+x2") == 0 &&
            strcmp(mbdae_problem_component(p, 10), "dx1") == 0 &&
            strcmp(mbdae_problem_component(p, 13), "dvx2") == 0,
        "the default selection at the start, spelled out");
  mbdae_problem *other = create_problem("pendulum:form=index1");
  double y[MAX_N], yp[MAX_N];
  mbdae_options opt;
  mbdae_options_default(&opt);
  mbdae_result r;
  int switches;
  const mbdae_solver_type *radau5 = mbdae_solver_find("radau5");
  CHECK(mbdae_solve_dummy(other, radau5, 0.0, &opt, y, yp, &r, &switches) == MBDAE_ERR_ARG,
        "not form=dummy: %s", r.message);
  opt.ntout = 1;
  opt.tout = &opt.rtol;
  CHECK(mbdae_solve_dummy(p, radau5, 0.0, &opt, y, yp, &r, &switches) == MBDAE_ERR_UNSUPPORTED,
        "output times: %s", r.message);
  mbdae_problem_destroy(other);
  mbdae_problem_destroy(p);
}

int main(void)
{
  check_form("pendulum:form=dummy,select=x");
  check_form("pendulum:form=dummy,select=y");
  check_form("dpendulum:form=dummy,select=x1+x2");
  check_form("dpendulum:form=dummy,select=y1+x2");
  check_form("dpendulum:form=dummy,select=x1+y1");
  check_stop();
  check_refusals();
  check_switched_pendulum();
  check_bdf_at_1e6();
  return check_summary("test_dummy");
}
