/* What every built-in solver measures the same way (private): the index-scaled error weights, the
 * differential/algebraic mask and the finiteness checks of residuals and iteration matrices.
 *
 * Error weights.  The tolerance of component i at y is sc_i = f (atol + rtol |y_i|), f and the
 * pair (rtol, atol) being each solver's own transformation of the user's tolerances (radau5:
 * RADAU5's rtol' = 0.08 rtol^(2/3), f = 1; bdf: tolerance proportionality, f = 0.2 rtol^(1/5);
 * ida: the user's, f = 1).  A component of differentiation index k >= 2 has its error measured
 * h^(k-1) times smaller (sc_i / h^(k-1)), as RADAU5 does for DAEs of index 2 and 3 (Hairer &
 * Wanner, Solving ODEs II, section VII.8; the RADAU5 documentation): its error estimate overstates
 * its error by these powers of h.  The solvers keep the reciprocals 1/sc_i of their own
 * products, so the two factors are given separately.
 *
 * Differential components are those whose derivative enters F: column i of dF/dy' has a nonzero
 * (for the constant mass matrices of the test set, positions and velocities; multipliers and
 * accelerations carried as variables are algebraic). */
#ifndef MBDAE_WEIGHTS_H
#define MBDAE_WEIGHTS_H

#include <stddef.h>

#include "finite.h" /* mbdae_all_finite, for the checks below and the solvers */
#include "mbdae/mbdae.h"

/* A solver's transformation of the user's tolerances. */
typedef struct mbdae_tolerance {
  double rtol, atol; /* the transformed pair */
  double factor;     /* f above; 1 when the solver has none */
} mbdae_tolerance;

/* sc = f (atol + rtol |y|): the tolerance of one component at y. */
double mbdae_tolerance_at(const mbdae_tolerance *tol, double y);

/* h^(index - 1) for index >= 2, else 1: the factor an index-k component's error is scaled by. */
double mbdae_index_factor(int index, double h);
/* ewt_i = wt0_i mbdae_index_factor(index_i, h) for the n components: the factors of the indices
 * 0..3 formed once per call, not once per component (the same products; inline, in the solvers'
 * step-size changes: mebdf at rtol 1e-7 took 0.5% fewer instructions on the car axis, 0.4% on the
 * pendulum, bdf 0.8% on the car axis, callgrind). */
static inline void mbdae_index_scaled_weights(int n, const int *index, double h, const double *wt0,
                                              double *ewt)
{
  enum { TABLED = 4 };
  double factor[TABLED];
  for (int k = 0; k < TABLED; k++) {
    factor[k] = mbdae_index_factor(k, h);
  }
  for (int i = 0; i < n; i++) {
    int k = index[i];
    ewt[i] = wt0[i] * (k >= 0 && k < TABLED ? factor[k] : mbdae_index_factor(k, h));
  }
}

/* A starting step when the caller gives none, as DASSL chooses it (K. E. Brenan, S. L. Campbell,
 * L. R. Petzold, Numerical Solution of Initial-Value Problems in Differential-Algebraic
 * Equations, SIAM 1996, ch. 5): 1e-3 of the interval tdist, and at most 0.5 / ||y'_0||, the
 * weighted RMS norm with the reciprocal weights w of the n components. */
double mbdae_dassl_first_step(int n, const double *w, const double *yp0, double tdist);

/* mask[j] = 1 when column j of the n x n column-major dfdyp has a nonzero, else 0. */
void mbdae_differential_mask(int n, const double *dfdyp, int *mask);

/* F(t, y, y') into res with the count in *nres (unless NULL): the problem's own code when it is
 * not 0, MBDAE_RECOVERABLE when a value is not finite (the iterate left the domain: a smaller
 * step may stay inside), else 0: mbdae_problem_res_checked, which checks each residual once. */
int mbdae_residual_checked(const mbdae_problem *p, double t, const double *y, const double *yp,
                           double *res, long *nres);

#endif /* MBDAE_WEIGHTS_H */
