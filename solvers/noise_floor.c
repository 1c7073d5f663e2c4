/* The rounding floor of index-1 algebraic variables: noise_floor.h has the bound and its source. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "noise_floor.h"

/* size_j = sum_k |dF_j/dy_k y_k| + |dF_j/dy'_k y'_k| over the stored entries. */
static void term_sizes(const mbdae_jacobian *jac, const double *y, const double *yp, double *size)
{
  memset(size, 0, sizeof(double) * (size_t)jac->n);
  for (int k = 0; k < jac->n; k++) {
    size_t end = mbdae_jacobian_col_end(jac, k);
    for (size_t e = mbdae_jacobian_col_begin(jac, k); e < end; e++) {
      size[mbdae_jacobian_row(jac, k, e)] +=
          fabs(jac->dfdy[e] * y[k]) + fabs(jac->dfdyp[e] * yp[k]);
    }
  }
}

static int is_algebraic(const int *mask, const int *index, int i)
{
  return !mask[i] && index[i] <= 1;
}

int mbdae_algebraic_noise(const mbdae_jacobian *jac, const mbdae_itmat *lu, const int *index,
                          const double *y, const double *yp, int max_n, int *mask, double *noise,
                          double *unit, double *size)
{
  int n = jac->n, any = 0;
  memset(noise, 0, sizeof(double) * (size_t)n);
  mbdae_jacobian_differential(jac, mask);
  for (int i = 0; i < n; i++) {
    any |= is_algebraic(mask, index, i);
  }
  if (!any || n > max_n) {
    return 0;
  }
  term_sizes(jac, y, yp, size);
  for (int j = 0; j < n; j++) { /* column j of G^-1 */
    if (size[j] == 0.0) {
      continue;
    }
    memset(unit, 0, sizeof(double) * (size_t)n);
    unit[j] = 1.0;
    int rc = mbdae_itmat_solve(lu, unit);
    if (rc < 0) {
      memset(noise, 0, sizeof(double) * (size_t)n);
      return rc;
    }
    for (int i = 0; i < n; i++) {
      if (is_algebraic(mask, index, i)) {
        noise[i] += fabs(unit[i]) * DBL_EPSILON * size[j];
      }
    }
  }
  return 0;
}

int mbdae_noise_binds(const mbdae_tolerance *tol, int n, const double *y, const double *noise)
{
  int binds = 0;
  for (int i = 0; i < n; i++) {
    binds |= noise[i] > mbdae_tolerance_at(tol, y[i]);
  }
  return binds;
}

void mbdae_floored_weights(const mbdae_tolerance *tol, int n, const double *y, const double *noise,
                           double *wt0)
{
  for (int i = 0; i < n; i++) {
    double t = mbdae_tolerance_at(tol, y[i]);
    wt0[i] = 1.0 / (noise[i] > t ? noise[i] : t);
  }
}
