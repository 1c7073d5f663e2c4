/* The error weights, the differential/algebraic mask and the finiteness checks shared by the
 * built-in solvers (see weights.h for the formulas and their sources). */
#include "weights.h"

#include <math.h>

#include "dense.h"

double mbdae_tolerance_at(const mbdae_tolerance *tol, double y)
{
  return tol->factor * (tol->atol + tol->rtol * fabs(y));
}

double mbdae_index_factor(int index, double h)
{
  double f = 1.0;
  for (int k = 2; k <= index; k++) {
    f *= h;
  }
  return f;
}

void mbdae_differential_mask(int n, const double *dfdyp, int *mask)
{
  for (int j = 0; j < n; j++) {
    mask[j] = 0;
    for (int i = 0; i < n; i++) {
      if (MBDAE_AT(dfdyp, n, i, j) != 0.0) {
        mask[j] = 1;
        break;
      }
    }
  }
}

int mbdae_residual_checked(const mbdae_problem *p, double t, const double *y, const double *yp,
                           double *res, long *nres)
{
  if (nres) {
    (*nres)++;
  }
  return mbdae_problem_res_checked(p, t, y, yp, res);
}

double mbdae_dassl_first_step(int n, const double *w, const double *yp0, double tdist)
{
  double h = 1e-3 * tdist, sum = 0.0;
  for (int i = 0; i < n; i++) {
    double x = yp0[i] * w[i];
    sum += x * x;
  }
  double ypnorm = sqrt(sum / (double)n);
  return ypnorm > 0.5 / h ? 0.5 / ypnorm : h;
}
