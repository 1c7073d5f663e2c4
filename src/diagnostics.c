/* Diagnostics of a problem instance: the size of the residual against the size of its terms,
 * and the analytic Jacobian against central differences (error O(h^2), h = eps^(1/3) scale, so
 * that truncation and rounding are balanced: Nocedal & Wright, Numerical Optimization, 8.1). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "daets/daets.h"

int daets_problem_residual_size(const daets_problem *p, double t, const double *y, const double *yp,
                                double *max_abs, double *max_rel)
{
  int n = daets_problem_neq(p);
  double *res = malloc(sizeof(double) * (size_t)(n + 2 * n * n));
  if (!res) {
    return DAETS_ERR_NOMEM;
  }
  double *dfdy = res + n, *dfdyp = dfdy + n * n;
  int rc = daets_problem_res(p, t, y, yp, res);
  if (rc == 0) {
    rc = daets_problem_jac(p, t, y, yp, dfdy, dfdyp);
  }
  if (rc == 0) {
    double worst_abs = 0.0, worst_rel = 0.0;
    for (int i = 0; i < n; i++) {
      double size = 0.0;
      for (int j = 0; j < n; j++) {
        size += fabs(DAETS_AT(dfdy, n, i, j) * y[j]) + fabs(DAETS_AT(dfdyp, n, i, j) * yp[j]);
      }
      double a = fabs(res[i]);
      double r = size > 0.0 ? a / size : a;
      worst_abs = fmax(worst_abs, a);
      worst_rel = fmax(worst_rel, r);
    }
    *max_abs = worst_abs;
    *max_rel = worst_rel;
  }
  free(res);
  return rc;
}

/* Column j of (J - D) relative to column j of J, maximised over j. */
static double column_error(int n, const double *jac, const double *fd)
{
  double worst = 0.0;
  for (int j = 0; j < n; j++) {
    double scale = 0.0, diff = 0.0;
    for (int i = 0; i < n; i++) {
      scale = fmax(scale, fabs(DAETS_AT(jac, n, i, j)));
      diff = fmax(diff, fabs(DAETS_AT(jac, n, i, j) - DAETS_AT(fd, n, i, j)));
    }
    worst = fmax(worst, scale > 0.0 ? diff / scale : diff);
  }
  return worst;
}

/* Central differences of F with respect to v (v is y or yp, perturbed in place and restored). */
static int difference_columns(const daets_problem *p, double t, double *y, double *yp, double *v,
                              double *fd, double *rplus, double *rminus)
{
  int n = daets_problem_neq(p);
  double step = cbrt(DBL_EPSILON);
  for (int j = 0; j < n; j++) {
    double saved = v[j], h = step * fmax(fabs(saved), 1e-3);
    v[j] = saved + h;
    int rc = daets_problem_res(p, t, y, yp, rplus);
    v[j] = saved - h;
    if (rc == 0) {
      rc = daets_problem_res(p, t, y, yp, rminus);
    }
    v[j] = saved;
    if (rc != 0) {
      return rc;
    }
    for (int i = 0; i < n; i++) {
      DAETS_AT(fd, n, i, j) = (rplus[i] - rminus[i]) / (2.0 * h);
    }
  }
  return 0;
}

int daets_problem_check_jac(const daets_problem *p, double t, const double *y, const double *yp,
                            double *err_dfdy, double *err_dfdyp)
{
  int n = daets_problem_neq(p);
  size_t nn = (size_t)n * (size_t)n;
  double *work = malloc(sizeof(double) * (3 * nn + 4 * (size_t)n));
  if (!work) {
    return DAETS_ERR_NOMEM;
  }
  double *dfdy = work, *dfdyp = dfdy + nn, *fd = dfdyp + nn;
  double *ycopy = fd + nn, *ypcopy = ycopy + n, *rplus = ypcopy + n, *rminus = rplus + n;
  memcpy(ycopy, y, sizeof(double) * (size_t)n);
  memcpy(ypcopy, yp, sizeof(double) * (size_t)n);
  int rc = daets_problem_jac(p, t, y, yp, dfdy, dfdyp);
  if (rc == 0) {
    rc = difference_columns(p, t, ycopy, ypcopy, ycopy, fd, rplus, rminus);
  }
  if (rc == 0) {
    *err_dfdy = column_error(n, dfdy, fd);
    rc = difference_columns(p, t, ycopy, ypcopy, ypcopy, fd, rplus, rminus);
  }
  if (rc == 0) {
    *err_dfdyp = column_error(n, dfdyp, fd);
  }
  free(work);
  return rc;
}
