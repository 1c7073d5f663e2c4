/* The wheelset's analytic dF/dy (problems/wheelset_jac.c) against differences of its residual:
 * - at the points mbdae check uses (the published start, the reference at t = 10, three random
 *   states), where the creep forces are saturated (the tanh law's two components together beyond
 *   mu N, scaled back to it: so are some 98% of a radau5 run's residuals), and at a state where
 *   they are not (the start with normal forces 60 times as large: the other branch of the
 *   kink), every entry equals Richardson's
 *   extrapolation of central differences, (4 D(h/2) - D(h)) / 3 with h = 1e-5 of each variable's
 *   typical size, to ERR_TOL = 1e-8 of the larger of the entry and the row's typical entry (they
 *   agree to 1.5e-9; mbdae check's plain differences reach 1e-6);
 * - the comparison can fail: each entry of 1e-3 of that scale or more, negated or multiplied by
 *   1 + 1e-4 in turn, is flagged;
 * - the Jacobian is the descriptor's analytic one (jac_nres 0) and states off the profiles are
 *   refused as the residual refuses them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

enum { NEQ = 17 };

static const double ERR_TOL = 1e-8;
/* entries from this share of their scale on are mutated (smaller ones are noise to F_i) */
static const double SIGNIFICANT = 1e-3;

/* (4 D(h/2) - D(h)) / 3 of column j at (y, yp), h = rel * typ_j */
static int richardson_column(const mbdae_problem *p, double t, const double *y, const double *yp,
                             int j, double h, double *col)
{
  double yh[NEQ], rp[NEQ], rm[NEQ], d[2][NEQ];
  for (int k = 0; k < 2; k++) {
    double hk = k == 0 ? h : 0.5 * h;
    memcpy(yh, y, sizeof yh);
    yh[j] = y[j] + hk;
    double up = yh[j] - y[j];
    if (mbdae_problem_res(p, t, yh, yp, rp) != 0) {
      return -1;
    }
    yh[j] = y[j] - hk;
    double down = y[j] - yh[j];
    if (mbdae_problem_res(p, t, yh, yp, rm) != 0) {
      return -1;
    }
    for (int i = 0; i < NEQ; i++) {
      d[k][i] = (rp[i] - rm[i]) / (up + down);
    }
  }
  for (int i = 0; i < NEQ; i++) {
    col[i] = (4.0 * d[1][i] - d[0][i]) / 3.0;
  }
  return 0;
}

/* What entry (i, j) is measured against: the larger of |dd_ij| and the row's typical entry
 * max_k |dd_ik| typ_k / typ_j (the entry's share of F_i when y_j moves by typ_j). */
static double entry_scale(const double *dd, const double *typ, int i, int j)
{
  double row = 0.0;
  for (int k = 0; k < NEQ; k++) {
    row = fmax(row, fabs(dd[i + NEQ * k]) * typ[k]);
  }
  return fmax(fabs(dd[i + NEQ * j]), row / typ[j]);
}

/* Largest error of jac against the differences dd; its position into where. */
static double worst_error(const double *jac, const double *dd, const double *typ, int where[2])
{
  double worst = 0.0;
  for (int i = 0; i < NEQ; i++) {
    for (int j = 0; j < NEQ; j++) {
      double scale = entry_scale(dd, typ, i, j);
      double err = scale > 0.0 ? fabs(jac[i + NEQ * j] - dd[i + NEQ * j]) / scale : 0.0;
      if (err > worst) {
        worst = err;
        where[0] = i;
        where[1] = j;
      }
    }
  }
  return worst;
}

/* One state: the comparison, then every single-entry mutation flagged. */
static void check_state(const mbdae_problem *p, const char *label, double t, const double *y,
                        const double *yp, const double *typ)
{
  static double jac[NEQ * NEQ], dd[NEQ * NEQ];
  CHECK(mbdae_problem_jac(p, t, y, yp, jac, NULL) == 0, "%s: jac", label);
  for (int j = 0; j < NEQ; j++) {
    CHECK(richardson_column(p, t, y, yp, j, 1e-5 * typ[j], dd + NEQ * j) == 0, "%s: res", label);
  }
  int where[2] = {0, 0};
  double worst = worst_error(jac, dd, typ, where);
  printf("%-16s worst dF/dy(%d,%d): analytic %.9e, differences %.9e, error %.2g\n", label,
         where[0] + 1, where[1] + 1, jac[where[0] + NEQ * where[1]], dd[where[0] + NEQ * where[1]],
         worst);
  CHECK(worst < ERR_TOL, "%s: dF/dy(%d,%d) error %.3g", label, where[0] + 1, where[1] + 1, worst);
  int nonzero = 0, flagged[2] = {0, 0};
  static const double factor[2] = {-1.0, 1.0 + 1e-4};
  for (int e = 0; e < NEQ * NEQ; e++) {
    if (fabs(jac[e]) < SIGNIFICANT * entry_scale(dd, typ, e % NEQ, e / NEQ)) {
      continue;
    }
    nonzero++;
    for (int m = 0; m < 2; m++) {
      double keep = jac[e];
      jac[e] *= factor[m];
      int hit = worst_error(jac, dd, typ, where) >= ERR_TOL;
      jac[e] = keep;
      flagged[m] += hit;
      CHECK(hit, "%s: dF/dy(%d,%d) times %g not flagged", label, e % NEQ + 1, e / NEQ + 1,
            factor[m]);
    }
  }
  printf("%-16s of %d significant entries, %d flagged when negated, %d when multiplied by "
         "1 + 1e-4\n",
         "", nonzero, flagged[0], flagged[1]);
}

int main(void)
{
  mbdae_problem *p = NULL;
  char msg[256];
  CHECK(mbdae_problem_create("wheelset", &p, msg, sizeof msg) == 0, "create: %s", msg);
  if (!p) {
    return check_summary("test_wheelset_jac");
  }
  CHECK(mbdae_problem_jac_nres(p) == 0, "jac_nres %d", mbdae_problem_jac_nres(p));
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  CHECK(mbdae_problem_check_points(p, &pts) == 0 && pts.npoints == 5, "check points");
  for (int k = 0; k < pts.npoints; k++) {
    check_state(p, pts.label[k], pts.t[k], pts.y + NEQ * k, pts.yp + NEQ * k, pts.ytyp);
  }
  /* creep within the friction limit: the start with lambda = -0.5 (normal forces of 600 N) */
  double y[NEQ], yp[NEQ], r[NEQ], jac[NEQ * NEQ];
  mbdae_problem_init(p, y, yp);
  y[15] = y[16] = -0.5;
  check_state(p, "not saturated", 0.0, y, yp, pts.ytyp);
  /* off the rail's profile: refused by both */
  mbdae_problem_init(p, y, yp);
  y[0] = 0.1;
  CHECK(mbdae_problem_res(p, 0.0, y, yp, r) > 0, "residual off the profile");
  CHECK(mbdae_problem_jac(p, 0.0, y, yp, jac, NULL) > 0, "Jacobian off the profile");
  mbdae_check_points_free(&pts);
  mbdae_problem_destroy(p);
  return check_summary("test_wheelset_jac");
}
