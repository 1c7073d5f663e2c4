/* The hidden constraints g and g' asked for together come from one evaluation where a model has
 * one (mech_model.con_pos_vel: Andrews, the slider crank, the car axis) and must be, bit for bit,
 * what g alone and g' alone give (con, con_vel): at the initial values and at states moved off
 * them by 1e-3 to 1e-1 in every component, for every form of the Cartesian layer and for models
 * without the combined evaluation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

static const char *const SPECS[] = {
    "andrews",
    "andrews:form=index2",
    "andrews:form=index1",
    "andrews:form=baumgarte",
    "andrews:form=ggl",
    "andrews:jac=approx",
    "crank",
    "crank:index=3",
    "crank:form=index1",
    "crank:form=ggl",
    "crank:beam=nonlinear,damping=on",
    "caraxis",
    "caraxis:form=index1",
    "caraxis:form=ggl",
    "pendulum",
};

/* g and g' together against g alone and g' alone at (t, y, yp). */
static void compare_at(const mbdae_problem *p, const char *spec, double t, const double *y,
                       const double *yp, double *work)
{
  int nc = mbdae_problem_nconstraints(p);
  double *g = work, *gv = g + nc, *g1 = gv + nc, *gv1 = g1 + nc;
  int rc = mbdae_problem_constraints(p, t, y, yp, g, gv, NULL);
  CHECK(rc == 0, "%s: g and g' together: %d", spec, rc);
  rc = mbdae_problem_constraints(p, t, y, yp, g1, NULL, NULL);
  CHECK(rc == 0, "%s: g alone: %d", spec, rc);
  rc = mbdae_problem_constraints(p, t, y, yp, NULL, gv1, NULL);
  CHECK(rc == 0, "%s: g' alone: %d", spec, rc);
  size_t bytes = sizeof(double) * (size_t)nc;
  CHECK(memcmp(g, g1, bytes) == 0, "%s at t = %g: g differs from g alone", spec, t);
  CHECK(memcmp(gv, gv1, bytes) == 0, "%s at t = %g: g' differs from g' alone", spec, t);
}

static void check_problem(const mbdae_problem *p, const char *spec)
{
  int n = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p);
  double *y = malloc(sizeof(double) * (2 * (size_t)n + 4 * (size_t)nc));
  if (!y) {
    CHECK(0, "out of memory");
    return;
  }
  double *yp = y + n, *work = yp + n;
  CHECK(mbdae_problem_init(p, y, yp) == 0, "%s: init", spec);
  double t = mbdae_problem_t0(p);
  compare_at(p, spec, t, y, yp, work);
  for (int k = 1; k <= 3; k++) {
    double size = pow(10.0, -4.0 + k); /* 1e-3, 1e-2, 1e-1 */
    for (int i = 0; i < n; i++) {
      y[i] += size * sin(1.0 + 0.7 * i + k) * (1.0 + fabs(y[i]));
      yp[i] += size * cos(0.3 + 1.1 * i + k) * (1.0 + fabs(yp[i]));
    }
    t += 0.1 * size * (mbdae_problem_tend(p) - mbdae_problem_t0(p));
    compare_at(p, spec, t, y, yp, work);
  }
  free(y);
}

int main(void)
{
  check_each_spec(SPECS, sizeof SPECS / sizeof SPECS[0], check_problem);
  return check_summary("test_con_pos_vel");
}
