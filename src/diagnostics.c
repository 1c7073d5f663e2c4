/* Diagnostics of a problem instance: the size of the residual against the size of its terms,
 * and the analytic Jacobian against central differences (error O(h^2), h = eps^(1/3) scale, so
 * that truncation and rounding are balanced: Nocedal & Wright, Numerical Optimization, 8.1). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "mbdae/mbdae.h"

int mbdae_problem_residual_size(const mbdae_problem *p, double t, const double *y, const double *yp,
                                double *max_abs, double *max_rel)
{
  int n = mbdae_problem_neq(p);
  double *res = malloc(sizeof(double) * (size_t)(n + 2 * n * n));
  if (!res) {
    return MBDAE_ERR_NOMEM;
  }
  double *dfdy = res + n, *dfdyp = dfdy + n * n;
  int rc = mbdae_problem_res(p, t, y, yp, res);
  if (rc == 0) {
    rc = mbdae_problem_jac(p, t, y, yp, dfdy, dfdyp);
  }
  if (rc == 0) {
    double worst_abs = 0.0, worst_rel = 0.0;
    for (int i = 0; i < n; i++) {
      double size = 0.0;
      for (int j = 0; j < n; j++) {
        size += fabs(MBDAE_AT(dfdy, n, i, j) * y[j]) + fabs(MBDAE_AT(dfdyp, n, i, j) * yp[j]);
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

/* Column j of (J - D) relative to column j of J, maximised over j.  What rounding in F alone
 * can produce, ROUNDING_FACTOR * eps * size_i / h_j with size_i the size of the terms of equation
 * i, is not counted: F_i may be the small difference of large terms (a stiff spring force), and a
 * difference quotient with a small step then shows nothing but that rounding. */
static const double ROUNDING_FACTOR = 16.0;

static double column_error(int n, const double *jac, const double *fd, const double *size,
                           const double *step)
{
  double worst = 0.0;
  for (int j = 0; j < n; j++) {
    double scale = 0.0, diff = 0.0;
    for (int i = 0; i < n; i++) {
      double noise = ROUNDING_FACTOR * DBL_EPSILON * size[i] / step[j];
      scale = fmax(scale, fabs(MBDAE_AT(jac, n, i, j)));
      diff = fmax(diff, fabs(MBDAE_AT(jac, n, i, j) - MBDAE_AT(fd, n, i, j)) - noise);
    }
    worst = fmax(worst, scale > 0.0 ? diff / scale : diff);
  }
  return worst;
}

/* size_i = |F_i| + sum_j |dF_i/dy_j y_j| + |dF_i/dy'_j y'_j| */
static void term_sizes(int n, const double *res, const double *dfdy, const double *dfdyp,
                       const double *y, const double *yp, double *size)
{
  for (int i = 0; i < n; i++) {
    size[i] = fabs(res[i]);
    for (int j = 0; j < n; j++) {
      size[i] += fabs(MBDAE_AT(dfdy, n, i, j) * y[j]) + fabs(MBDAE_AT(dfdyp, n, i, j) * yp[j]);
    }
  }
}

/* Central differences of F with respect to v (v is y or yp, perturbed in place and restored). */
static int difference_columns(const mbdae_problem *p, double t, double *y, double *yp, double *v,
                              double *fd, double *rplus, double *rminus, double *steps)
{
  int n = mbdae_problem_neq(p);
  double step = cbrt(DBL_EPSILON);
  for (int j = 0; j < n; j++) {
    double saved = v[j], h = step * fmax(fabs(saved), 1e-3);
    steps[j] = h;
    v[j] = saved + h;
    int rc = mbdae_problem_res(p, t, y, yp, rplus);
    v[j] = saved - h;
    if (rc == 0) {
      rc = mbdae_problem_res(p, t, y, yp, rminus);
    }
    v[j] = saved;
    if (rc != 0) {
      return rc;
    }
    for (int i = 0; i < n; i++) {
      MBDAE_AT(fd, n, i, j) = (rplus[i] - rminus[i]) / (2.0 * h);
    }
  }
  return 0;
}

int mbdae_problem_check_jac(const mbdae_problem *p, double t, const double *y, const double *yp,
                            double *err_dfdy, double *err_dfdyp)
{
  int n = mbdae_problem_neq(p);
  size_t nn = (size_t)n * (size_t)n;
  double *work = malloc(sizeof(double) * (3 * nn + 6 * (size_t)n));
  if (!work) {
    return MBDAE_ERR_NOMEM;
  }
  double *dfdy = work, *dfdyp = dfdy + nn, *fd = dfdyp + nn;
  double *ycopy = fd + nn, *ypcopy = ycopy + n, *rplus = ypcopy + n, *rminus = rplus + n;
  double *size = rminus + n, *steps = size + n;
  memcpy(ycopy, y, sizeof(double) * (size_t)n);
  memcpy(ypcopy, yp, sizeof(double) * (size_t)n);
  int rc = mbdae_problem_jac(p, t, y, yp, dfdy, dfdyp);
  if (rc == 0) {
    rc = mbdae_problem_res(p, t, y, yp, rplus);
  }
  if (rc == 0) {
    term_sizes(n, rplus, dfdy, dfdyp, y, yp, size);
    rc = difference_columns(p, t, ycopy, ypcopy, ycopy, fd, rplus, rminus, steps);
  }
  if (rc == 0) {
    *err_dfdy = column_error(n, dfdy, fd, size, steps);
    rc = difference_columns(p, t, ycopy, ypcopy, ypcopy, fd, rplus, rminus, steps);
  }
  if (rc == 0) {
    *err_dfdyp = column_error(n, dfdyp, fd, size, steps);
  }
  free(work);
  return rc;
}
