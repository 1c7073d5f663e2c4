/* Every problem and every crank variant: consistent initial values (residual against the size
 * of its terms, hidden constraints at position, velocity and acceleration level), and the
 * analytic Jacobian and the constraint levels at every check point (initial values, reference,
 * random states); andrews:jac=approx must fail the Jacobian check everywhere. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

/* Thresholds.  The published initial values are exact to rounding except the slider crank's
 * init1, printed to ~10 digits (its residual is asserted separately). */
static const double RES_REL_TOL = 1e-12;
static const double CONSTRAINT_TOL = 1e-10;

static const char *const specs[] = {
    "caraxis",
    "caraxis:form=index2",
    "caraxis:form=ggl",
    "caraxis:form=index1",
    "caraxis:form=baumgarte,alpha=2,beta=3",
    "andrews",
    "andrews:jac=approx",
    "andrews:form=index2",
    "andrews:form=ggl",
    "andrews:form=index1",
    "andrews:form=baumgarte",
    "andrews:form=index1,jac=approx",
    "pendulum",
    "dpendulum",
    "pendulum:form=index2",
    "pendulum:form=ggl",
    "pendulum:form=index1",
    "pendulum:form=baumgarte,alpha=2,beta=3",
    "pendulum:form=ssf",
    "dpendulum:form=index2",
    "dpendulum:form=ggl",
    "dpendulum:form=index1",
    "dpendulum:form=baumgarte",
    "dpendulum:form=ssf",
    "chain",
    "chain:n=5,form=ggl",
    "chain:n=2,m=2:1,l=1:0.5,theta=0.5:2,omega=1:-1,form=ssf",
    "crank:index=1",
    "crank:index=2",
    "crank:index=3",
    "crank:beam=nonlinear",
    "crank:damping=on",
    "crank:init=2",
    "crank:index=3,beam=nonlinear,damping=on,init=2",
    "crank:index=1,beam=nonlinear,init=2",
    "crank:form=ggl",
    "crank:form=baumgarte",
    "crank:form=ggl,beam=nonlinear,damping=on,init=2",
    "crank:form=baumgarte,alpha=2,beta=3,init=2",
    "fekete",
    "fekete:form=index3",
    "fekete:form=index2",
    "fekete:form=index1",
    "fekete:n=7,form=baumgarte,alpha=2,beta=3",
    "wheelset",
};

static double max_abs(const double *v, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(v[i]));
  }
  return m;
}

static void check_problem(const char *spec)
{
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0 && p, "%s: %s", spec, msg);
  if (!p) {
    return;
  }
  int n = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p);
  double *y = calloc(3 * (size_t)n + 3 * (size_t)nc + 3, sizeof(double));
  double *yp = y + n, *res = yp + n, *g = res + n;
  double t0 = mbdae_problem_t0(p);
  CHECK(mbdae_problem_init(p, y, yp) == 0, "%s: init", spec);

  int crank_init1 = strncmp(spec, "crank", 5) == 0 && !strstr(spec, "init=2");
  int damped = strstr(spec, "damping=on") != NULL;
  double rabs = 0.0, rrel = 0.0;
  CHECK(mbdae_problem_residual_size(p, t0, y, yp, &rabs, &rrel) == 0, "%s: residual", spec);
  if (crank_init1 && damped) {
    /* init1 is consistent only without damping (crank.f); with it F18 = (D v_q)_1 = -2.2245. */
    mbdae_problem_res(p, t0, y, yp, res);
    CHECK(fabs(res[17]) > 2.2 && fabs(res[17]) < 2.25,
          "%s: F18 = %.4g, expected the damping force 2.22", spec, res[17]);
  } else if (crank_init1) {
    /* The published init1 values (report 2.4, refsol/crank.txt) leave 2.3e-7 in component 20. */
    mbdae_problem_res(p, t0, y, yp, res);
    int worst = 0;
    for (int i = 1; i < n; i++) {
      worst = fabs(res[i]) > fabs(res[worst]) ? i : worst;
    }
    CHECK(rabs > 1e-7 && rabs < 3e-7, "%s: |F| = %.3e, expected the published 2.3e-7", spec, rabs);
    CHECK(worst == 19, "%s: largest residual in component %d, expected 20", spec, worst + 1);
  } else {
    CHECK(rrel <= RES_REL_TOL, "%s: residual %.3e relative to its terms (abs %.3e)", spec, rrel,
          rabs);
  }

  /* The wheelset's published start has p and lambda to 5 digits: |g| = 5.3e-10, |g''| = 1.9e-4
   * (test_wheelset_constraints.c). */
  int wheelset = strcmp(spec, "wheelset") == 0;
  if (nc > 0 && !crank_init1 && !wheelset) {
    CHECK(mbdae_problem_constraints(p, t0, y, yp, g, g + nc, g + 2 * nc) == 0, "%s", spec);
    CHECK(max_abs(g, nc) <= CONSTRAINT_TOL, "%s: position constraints %.3e", spec, max_abs(g, nc));
    CHECK(max_abs(g + nc, nc) <= CONSTRAINT_TOL, "%s: velocity constraints %.3e", spec,
          max_abs(g + nc, nc));
    CHECK(max_abs(g + 2 * nc, nc) <= 1e3 * CONSTRAINT_TOL, "%s: acceleration constraints %.3e",
          spec, max_abs(g + 2 * nc, nc));
  }

  /* Jacobian and constraint levels at every check point (the details and the proof that the
   * check catches a wrong entry are in test_jaccheck.c). */
  int approx = mbdae_problem_jac_approximate(p);
  CHECK(approx == (strstr(spec, "jac=approx") != NULL), "%s: approximate %d", spec, approx);
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  mbdae_jac_check jc[MBDAE_CHECK_MAX_POINTS] = {MBDAE_JAC_CHECK_INIT};
  mbdae_constraint_check cc[MBDAE_CHECK_MAX_POINTS] = {MBDAE_CONSTRAINT_CHECK_INIT};
  mbdae_functions fns;
  mbdae_problem_functions(p, &fns);
  rc = mbdae_problem_check_points(p, &pts);
  CHECK(rc == 0, "%s: check points rc %d", spec, rc);
  rc = rc == 0 ? mbdae_check_all(&fns, &pts, jc, cc) : rc;
  CHECK(rc == 0, "%s: check rc %d", spec, rc);
  for (int k = 0; rc == 0 && k < pts.npoints; k++) {
    CHECK(jc[k].ok != approx, "%s (%s): %s(%d,%d) J = %.6e, D = %.6e, err %.3e", spec, pts.label[k],
          jc[k].matrix ? "dF/dy'" : "dF/dy", jc[k].row + 1, jc[k].col + 1, jc[k].jac, jc[k].fd,
          jc[k].err);
    CHECK(cc[k].ok, "%s (%s): level %d constraint %d: %.6e vs %.6e, err %.3e", spec, pts.label[k],
          cc[k].level, cc[k].index + 1, cc[k].value, cc[k].fd, cc[k].err);
  }
  mbdae_check_points_free(&pts);
  free(y);
  mbdae_problem_destroy(p);
}

int main(void)
{
  for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
    check_problem(specs[k]);
  }
  /* Every registered id is covered. */
  for (int i = 0; i < mbdae_problem_count(); i++) {
    int seen = 0;
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
      seen |= strncmp(specs[k], mbdae_problem_id(i), strlen(mbdae_problem_id(i))) == 0;
    }
    CHECK(seen, "problem %s not covered", mbdae_problem_id(i));
  }
  return check_summary("test_problems");
}
