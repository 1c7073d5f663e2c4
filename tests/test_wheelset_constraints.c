/* The wheelset's contact conditions as constraints (problems/wheelset.c): g = the distance of
 * wheel and rail at the contact point q*(p) (wheel.f's index-3 row g_1 where G_q = 0), g' = G v,
 * g'' = G v' + the curvature terms, one per multiplier.
 * - at the published start g is 5.3e-10 (its p has 5 digits), g' = 0 (v = 0) and g'' = 1.9e-4
 *   (its lambda has 5 digits: the lambda of g'' = 0 lies 1.2e-7 and 1.5e-7 away);
 * - the library's constraint check (g' against the derivative of g, g'' against that of g', along
 *   (t + s, y + s y')) passes at every check point, where g' is far from 0 at the random states;
 * - along a tight run (radau5, rtol 1e-10) g holds the start's 5.3e-10 (the index-2 form keeps
 *   g' = 0), the run reports that drift, and the check passes at accepted states;
 * - a g, g' or g'' changed by a term of its own size is caught by the check. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

enum { NEQ = 17, NC = 2, V = 5 };

/* A wrapped constraint function with one level changed: level 0 (g), 1 (g') or 2 (g'') plus
 * SHIFT times a quantity of that level's kind (|x| y, theta v4, v4^2 + v1'). */
typedef struct mutation {
  const mbdae_problem *p;
  int level;
} mutation;
static const double SHIFT = 1e-3;

static int mutated(void *ctx, double t, const double *y, const double *yp, double *g, double *gv,
                   double *ga)
{
  const mutation *m = ctx;
  int rc = mbdae_problem_constraints(m->p, t, y, yp, g, gv, ga);
  double *level[3] = {g, gv, ga};
  double add[3] = {y[0] * y[1], y[3] * y[V + 3], y[V + 3] * y[V + 3] + yp[V]};
  if (rc == 0 && level[m->level]) {
    level[m->level][0] += SHIFT * add[m->level];
  }
  return rc;
}

/* The residual and Jacobian of the problem under the mutation's context. */
static int mutation_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  return mbdae_problem_res(((const mutation *)ctx)->p, t, y, yp, res);
}

static int mutation_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                        double *dfdyp)
{
  return mbdae_problem_jac(((const mutation *)ctx)->p, t, y, yp, dfdy, dfdyp);
}

static void test_start(const mbdae_problem *p)
{
  double y[NEQ], yp[NEQ], g[3 * NC];
  CHECK(mbdae_problem_nconstraints(p) == NC, "nconstraints %d", mbdae_problem_nconstraints(p));
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  CHECK(mbdae_problem_constraints(p, 0.0, y, yp, g, g + NC, g + 2 * NC) == 0, "constraints");
  printf("start: g %.4e %.4e, g' %.1e %.1e, g'' %.4e %.4e\n", g[0], g[1], g[2], g[3], g[4], g[5]);
  for (int k = 0; k < NC; k++) {
    CHECK(fabs(g[k]) > 4e-10 && fabs(g[k]) < 6e-10, "g_%d = %.3e, expected 5e-10", k + 1, g[k]);
    CHECK(g[NC + k] == 0.0, "g'_%d = %.3e at rest", k + 1, g[NC + k]);
    CHECK(fabs(g[2 * NC + k]) > 1e-4 && fabs(g[2 * NC + k]) < 2e-4, "g''_%d = %.3e", k + 1,
          g[2 * NC + k]);
  }
  /* The start's own contact points are the stationary ones to rounding: g moves by less than
   * 1e-15 when the published q is moved by 1e-6 (a second-order change), g' stays 0. */
  double g2[3 * NC];
  y[11] += 1e-6, y[14] -= 1e-6;
  CHECK(mbdae_problem_constraints(p, 0.0, y, yp, g2, g2 + NC, NULL) == 0, "moved q");
  CHECK(fabs(g2[0] - g[0]) < 1e-15 && fabs(g2[1] - g[1]) < 1e-15, "g depends on q: %.3e %.3e",
        g2[0] - g[0], g2[1] - g[1]);
}

/* The check at every check point; returns 1 when every point passes. */
static int check_points_pass(const mbdae_functions *f, const mbdae_check_points *pts, int print)
{
  mbdae_jac_check jac[MBDAE_CHECK_MAX_POINTS] = {MBDAE_JAC_CHECK_INIT};
  mbdae_constraint_check con[MBDAE_CHECK_MAX_POINTS] = {MBDAE_CONSTRAINT_CHECK_INIT};
  int rc = mbdae_check_all(f, pts, jac, con), ok = rc == 0;
  CHECK(rc == 0, "check rc %d", rc);
  for (int k = 0; rc == 0 && k < pts->npoints; k++) {
    ok &= con[k].ok;
    if (print) {
      printf("  %-14s worst level %d constraint %d: %.6e against %.6e, err %.1e\n", pts->label[k],
             con[k].level, con[k].index + 1, con[k].value, con[k].fd, con[k].err);
    }
  }
  return ok;
}

static void test_check(const mbdae_problem *p)
{
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  mbdae_functions f;
  mbdae_problem_functions(p, &f);
  CHECK(f.nconstraints == NC && mbdae_problem_check_points(p, &pts) == 0, "check points");
  puts("constraint check:");
  CHECK(check_points_pass(&f, &pts, 1), "the wheelset's constraints fail their check");
  double gv_max = 0.0, g[3 * NC];
  for (int k = 2; k < pts.npoints; k++) { /* random states: g' far from 0 */
    CHECK(mbdae_problem_constraints(p, pts.t[k], pts.y + k * NEQ, pts.yp + k * NEQ, g, g + NC,
                                    g + 2 * NC) == 0,
          "random state %d", k);
    gv_max = fmax(gv_max, fmax(fabs(g[NC]), fabs(g[NC + 1])));
  }
  CHECK(pts.npoints == MBDAE_CHECK_MAX_POINTS && gv_max > 1e-4, "g' at random states %.3e", gv_max);
  for (int level = 0; level < 3; level++) {
    mutation m = {p, level};
    mbdae_functions fm = f;
    fm.res = mutation_res;
    fm.jac = mutation_jac;
    fm.constraints = mutated;
    fm.ctx = &m;
    CHECK(!check_points_pass(&fm, &pts, 0), "a g%s changed by 1e-3 passes the check",
          level == 0   ? ""
          : level == 1 ? "'"
                       : "''");
  }
  mbdae_check_points_free(&pts);
}

/* Along a run: the largest |g| over the accepted states, and the check at every 500th. */
typedef struct along {
  const mbdae_problem *p;
  const double *ytyp;
  double pos_max;
  long states, checked, passed;
} along;

static void observe(void *ctx, double t, const double *y, const double *yp)
{
  along *a = ctx;
  double g[NC];
  if (mbdae_problem_constraints(a->p, t, y, yp, g, NULL, NULL) == 0) {
    a->pos_max = fmax(a->pos_max, fmax(fabs(g[0]), fabs(g[1])));
  }
  if (a->states++ % 500 == 0) {
    mbdae_functions f;
    mbdae_constraint_check c = MBDAE_CONSTRAINT_CHECK_INIT;
    mbdae_problem_functions(a->p, &f);
    a->checked++;
    a->passed += mbdae_check_constraints(&f, t, y, yp, a->ytyp, &c) == 0 && c.ok;
  }
}

static void test_run(const mbdae_problem *p)
{
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  CHECK(mbdae_problem_check_points(p, &pts) == 0, "check points");
  along a = {p, pts.ytyp, 0.0, 0, 0, 0};
  mbdae_options opt;
  test_options(p, 1e-10, &opt);
  opt.on_accept = observe;
  opt.on_accept_ctx = &a;
  double y[NEQ], yp[NEQ];
  mbdae_result r;
  CHECK(mbdae_solve(p, "radau5", &opt, 1, y, yp, &r) == 0, "radau5: %s", r.message);
  printf("radau5 1e-10: max |g| %.4e (end %.4e), max |g'| %.3e over %ld states; check passed at "
         "%ld of %ld\n",
         r.drift_pos_max, r.drift_pos_end, r.drift_vel_max, r.drift_steps, a.passed, a.checked);
  CHECK(r.drift_steps == a.states && r.drift_pos_max == fmax(a.pos_max, r.drift_pos_end),
        "drift %.17g over %ld states, observed %.17g over %ld", r.drift_pos_max, r.drift_steps,
        a.pos_max, a.states);
  CHECK(r.drift_pos_max < 6e-10 && r.drift_pos_end > 4e-10, "g drifts: max %.3e end %.3e",
        r.drift_pos_max, r.drift_pos_end);
  CHECK(r.drift_vel_max < 1e-10, "g' = G v, an equation of the index-2 form: %.3e",
        r.drift_vel_max);
  CHECK(a.checked > 20 && a.passed == a.checked, "check along the run: %ld of %ld", a.passed,
        a.checked);
  mbdae_check_points_free(&pts);
}

int main(void)
{
  mbdae_problem *p = create_problem("wheelset");
  if (!p) {
    return check_summary("test_wheelset_constraints");
  }
  test_start(p);
  test_check(p);
  test_run(p);
  mbdae_problem_destroy(p);
  return check_summary("test_wheelset_constraints");
}
