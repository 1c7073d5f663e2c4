/* Consistent index-1 algebraic values y_a and derivatives y'_d at a point, the differential values
 * y_d kept: the computation of IDACalcIC's option YA_YDP_INIT (P. N. Brown, A. C. Hindmarsh,
 * L. R. Petzold, Consistent initial condition calculation for differential-algebraic systems,
 * SIAM J. Sci. Comput. 19 (1998) 1495-1512, section 2).
 *
 * In a semi-explicit index-1 system the algebraic values and the derivatives are not data: they
 * are what F(t, y_d, y_a, y'_d) = 0 gives for the differential values y_d.  Newton's method on
 * (y_a, y'_d) with the iteration matrix G = dF/dy + cj dF/dy' of the integrator: the correction
 * d = G^-1 F changes y_a by -d_a and y'_d by -cj d_d (G's column j of a differential variable is
 * cj dF/dy'_j + dF/dy_j, whose second term is O(1/cj) against the first; Brown, Hindmarsh and
 * Petzold use the same matrix).  Converged when the weighted RMS norm of d in the caller's own
 * tolerance (rtol |y| + atol) is at most NEWTON_TOL.
 *
 * Only when every algebraic variable (its column of dF/dy' zero) has index 1: with an algebraic
 * variable of index 2 or 3 the equations for (y_a, y'_d) are singular, and consistency asks for
 * the differential values themselves to move, which this never does. */
#include <math.h>
#include <string.h>

#include "consistent_start.h"

enum { MAX_ITERS = 10 };
static const double NEWTON_TOL = 1e-3;

/* 1 when some variable is algebraic and every algebraic one has index 1. */
static int index1_algebraic(int n, const int *mask, const int *index)
{
  int any = 0;
  for (int i = 0; i < n; i++) {
    if (!mask[i] && index[i] > 1) {
      return 0;
    }
    any |= !mask[i];
  }
  return any;
}

/* One Newton correction of (y_a, y'_d); its weighted RMS norm into *dnorm. */
static int correct_once(const mbdae_consistent_work *w, double t, double cj, double *y, double *yp,
                        double *dnorm)
{
  int n = w->jac->n;
  int rc = mbdae_residual_checked(w->p, t, y, yp, w->res, &w->st->nres);
  if (rc != 0) {
    return rc;
  }
  rc = mbdae_itmat_solve(w->lu, w->res);
  if (rc != 0) {
    return rc;
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    double d = w->res[i];
    double x = d / (w->tol->rtol * fabs(y[i]) + w->tol->atol);
    sum += x * x;
    if (w->mask[i]) {
      yp[i] -= cj * d;
    } else {
      y[i] -= d;
    }
  }
  *dnorm = sqrt(sum / (double)n);
  return 0;
}

int mbdae_consistent_algebraic(const mbdae_consistent_work *w, double t, double cj, double *y,
                               double *yp)
{
  int n = w->jac->n;
  mbdae_jacobian_differential(w->jac, w->mask); /* the stored one: no evaluation in vain */
  if (!index1_algebraic(n, w->mask, w->index)) {
    return MBDAE_CONSISTENT_NONE;
  }
  w->st->njac++;
  w->st->nres_fd += mbdae_problem_jac_nres(w->p);
  int rc = mbdae_jacobian_eval(w->jac, w->p, t, y, yp);
  if (rc != 0) {
    return rc;
  }
  mbdae_jacobian_differential(w->jac, w->mask);
  if (!index1_algebraic(n, w->mask, w->index)) {
    return MBDAE_CONSISTENT_NONE;
  }
  rc = mbdae_itmat_factor(w->lu, cj);
  if (rc != 0) {
    return rc;
  }
  w->st->nlu++;
  for (int iter = 0; iter < MAX_ITERS; iter++) {
    double dnorm;
    rc = correct_once(w, t, cj, y, yp, &dnorm);
    if (rc != 0) {
      return rc < 0 ? rc : MBDAE_RECOVERABLE;
    }
    if (dnorm <= NEWTON_TOL) {
      return 0;
    }
  }
  return MBDAE_RECOVERABLE;
}
