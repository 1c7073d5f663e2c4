/* The rounding floor of index-1 algebraic variables (private), shared by bdf and mebdf.
 *
 * An algebraic variable of index 1 (its column of dF/dy' zero: the accelerations and multipliers
 * of the index-1 and Baumgarte forms) is what its equations give at y, up to the rounding of
 * those equations:
 *     noise_i = sum_j |G^-1_ij| eps s_j,   s_j = sum_k |dF_j/dy_k y_k| + |dF_j/dy'_k y'_k|,
 * G the iteration matrix and s_j the size of the terms of F_j (a first-order bound of the
 * forward error a perturbation of F by eps times its terms causes; N. J. Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., SIAM 2002, section 7.2).  An error test or Newton
 * test that asks such a variable for less than noise_i sees rounding whatever h is, and h falls
 * to its floor; the integrators keep its tolerance at noise_i or above (bdf_norm.c, mebdf_noise.c
 * say where and what it measured). */
#ifndef MBDAE_NOISE_FLOOR_H
#define MBDAE_NOISE_FLOOR_H

#include "jacobian.h"
#include "linsys.h"
#include "weights.h"

/* noise (n entries; 0 for every other variable) from the stored Jacobian jac at (y, yp) and the
 * factors lu of its iteration matrix; mask gets 1 where y'_i enters F
 * (mbdae_jacobian_differential). Nothing is computed (noise all 0) when no variable is index-1
 * algebraic (index[i] <= 1, mask 0) or n > max_n: it costs n solves with lu.  unit and size are n
 * doubles of scratch.  Returns 0, or a solve's negative code (noise then all 0). */
int mbdae_algebraic_noise(const mbdae_jacobian *jac, const mbdae_itmat *lu, const int *index,
                          const double *y, const double *yp, int max_n, int *mask, double *noise,
                          double *unit, double *size);

/* 1 when some noise_i exceeds the tolerance of variable i at y (the floor binds), else 0. */
int mbdae_noise_binds(const mbdae_tolerance *tol, int n, const double *y, const double *noise);

/* The inverted error weights of n variables at y: wt0_i = 1 / max(tol(y_i), noise_i). */
void mbdae_floored_weights(const mbdae_tolerance *tol, int n, const double *y, const double *noise,
                           double *wt0);

#endif /* MBDAE_NOISE_FLOOR_H */
