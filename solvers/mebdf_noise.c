/* The rounding floor of index-1 algebraic variables in the MEBDF integrator (solvers/mebdf.h).
 *
 * An algebraic variable of index 1 (its column of dF/dy' zero: the accelerations and multipliers
 * of the index-1 and Baumgarte forms) is what its equations give at y, up to the rounding of those
 * equations: noise_i = sum_j |G^-1_ij| eps s_j, G the iteration matrix and
 * s_j = sum_k |dF_j/dy_k y_k| + |dF_j/dy'_k y'_k| the size of the terms of F_j.  Where the local
 * tolerance is below it, the Newton test and the error test see that noise whatever h is, and h
 * falls to hmin: Andrews' squeezer in forms index1 and baumgarte failed at rtol <= 1.8e-9 (Newton
 * failures down to h ~ 1e-17 near t = 0.02).  So the tolerance of such a variable is at least
 * noise_i, as in bdf (solvers/bdf.c, NOISE_FLOOR, the same rule): computed after a failed step
 * with that step's matrix, and with every new matrix only while it is above some tolerance, on
 * problems of at most MEBDF_NOISE_MAX_N equations (n solves with the LU).  Wherever the tolerance
 * is above the floor the weights are the same numbers as without it. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mebdf.h"

/* The size s_j of the terms of each equation at (y, yp), into s->noise_size. */
static void term_sizes(mebdf *s, const double *y, const double *yp)
{
  double *size = s->noise_size;
  memset(size, 0, sizeof(double) * (size_t)s->n);
  for (int k = 0; k < s->n; k++) {
    size_t end = mbdae_jacobian_col_end(&s->jac, k);
    for (size_t e = mbdae_jacobian_col_begin(&s->jac, k); e < end; e++) {
      size[mbdae_jacobian_row(&s->jac, k, e)] +=
          fabs(s->jac.dfdy[e] * y[k]) + fabs(s->jac.dfdyp[e] * yp[k]);
    }
  }
}

int mebdf_noise_update(mebdf *s, const double *y, const double *yp)
{
  int n = s->n, any = 0;
  memset(s->noise, 0, sizeof(double) * (size_t)n);
  s->noise_binds = 0;
  s->noise_stamp = s->jac.stamp;
  mbdae_jacobian_differential(&s->jac, s->differential);
  for (int i = 0; i < n; i++) {
    any |= !s->differential[i] && s->index[i] <= 1;
  }
  if (!any || n > MEBDF_NOISE_MAX_N) {
    return 0;
  }
  term_sizes(s, y, yp);
  for (int j = 0; j < n; j++) { /* column j of G^-1 */
    if (s->noise_size[j] == 0.0) {
      continue;
    }
    double *unit = s->noise_unit;
    memset(unit, 0, sizeof(double) * (size_t)n);
    unit[j] = 1.0;
    int rc = mbdae_itmat_solve(&s->lu, unit);
    if (rc < 0) {
      memset(s->noise, 0, sizeof(double) * (size_t)n);
      return rc;
    }
    for (int i = 0; i < n; i++) {
      if (!s->differential[i] && s->index[i] <= 1) {
        s->noise[i] += fabs(unit[i]) * DBL_EPSILON * s->noise_size[j];
      }
    }
  }
  for (int i = 0; i < n; i++) {
    s->noise_binds |= s->noise[i] > mbdae_tolerance_at(&s->tol, s->yuser[i]);
  }
  return 0;
}
