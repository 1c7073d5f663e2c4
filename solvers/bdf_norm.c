/* The error norm of the bdf integrator (solvers/bdf.h).
 *
 * Index-aware norm.  All norms are weighted RMS norms with w_i = f (rtol |y_i(t_n)| + atol), f the
 * local tolerance factor of bdf_local_tol_factor (tolerance proportionality, see there), except
 * that the weight of a component of differentiation index 2 is divided by h and of index 3 by
 * h^2 (mbdae_problem_index): equivalently its error is multiplied by h or h^2.  This is the device
 * of MEBDFI (J. R. Cash, Proc. R. Soc. Lond. A 459 (2003) 797-815) and RADAU5 (Hairer & Wanner,
 * Solving ODEs II, section VII.8): in an index-3 system any perturbation of the positions
 * reappears divided by h in the velocities and by h^2 in the multipliers, so an unscaled test
 * rejects every small step (DASSL's failure on index 3).  The Newton test uses the same norm.
 * The tolerance of an index-1 algebraic variable is never below the rounding noise with which its
 * equations determine it (bdf_algebraic_noise below, solvers/noise_floor.h). */
#include <math.h>

#include "bdf.h"
#include "noise_floor.h"

/* Tolerance proportionality.  A per-step error test holds the local error to the tolerance, and
 * the global error of N steps is then about N times the local error; with N ~ tol^(-1/(k+1)) at
 * order k it shrinks only like tol^(k/(k+1)), and on the multibody problems (fast, weakly damped
 * oscillations; positions that drift through velocity errors) it is well above the tolerance.
 * Holding the local error to TOL_PROP_C tol^(1 + 1/MAX_ORDER) instead, i.e. the factor
 * f = TOL_PROP_C rtol^(1/5) (the codes run at order 5 on all five problems), makes the global
 * error proportional to tol (H. J. Stetter, Analysis of Discretization Methods for ODEs, 1973,
 * ch. 3.5; Hairer, Norsett & Wanner, Solving ODEs I, section II.4: "tolerance proportionality";
 * RADAU5 transforms its tolerance for the same reason, rtol -> 0.1 rtol^(2/3)).  TOL_PROP_C = 0.2
 * gives f = 1/32 at rtol = 1e-4, the fixed factor 1/30 this code used before, 0.008 at 1e-7 and
 * 0.005 at 1e-8; below rtol = 5e-10 the floor LOCAL_RTOL_MIN holds (f = 0.01 at 1e-10).  Measured
 * over the test set's tolerance ranges (mbdae sweep, slope of scd against -log10 rtol, fixed 1/30
 * -> proportional): car axis 0.84 -> 1.00, pendulum 0.84 -> 1.03, double pendulum 1.03 -> 1.29,
 * Andrews 1.06 -> 1.16, slider crank 0.52 -> 0.74; mean scd +0.45, +0.38, +0.59, +0.53, +0.43 for
 * 26%, 25%, 25%, 25%, 76% more residual evaluations.  The local relative tolerance is never driven
 * below LOCAL_RTOL_MIN (nor the factor above 1): below it the error estimates of orders 3-5 on the
 * slider crank are rounding noise, the order drops and the step with it (rtol = 1e-12 with factor
 * 0.1: 1.1e6 residual evaluations; with the local tolerance 1e-12: 1.0e5). */
static const double TOL_PROP_C = 0.2;
static const double LOCAL_RTOL_MIN = 1e-12;

/* The factor f of the error weights at the user's rtol (see TOL_PROP_C). */
double bdf_local_tol_factor(double rtol)
{
  double f = TOL_PROP_C * pow(rtol, 1.0 / (double)MAX_ORDER);
  return fmin(1.0, fmax(f, LOCAL_RTOL_MIN / rtol));
}

/* Weighted RMS norm (the error weights are stored inverted). */
double bdf_wnorm(const bdf *s, const double *v)
{
  double sum = 0.0;
  for (int i = 0; i < s->n; i++) {
    double x = v[i] * s->ewt[i];
    sum += x * x;
  }
  return sqrt(sum / (double)s->n);
}

/* wt0 = 1 / (f (rtol |y| + atol)), each tolerance at least the rounding floor noise_i. */
void bdf_set_base_weights(bdf *s, const double *y)
{
  mbdae_floored_weights(&s->tol, s->n, y, s->noise, s->wt0);
}

/* Scale the error of index-2 components by h and of index-3 components by h^2. */
void bdf_set_scaled_weights(bdf *s)
{
  mbdae_index_scaled_weights(s->n, s->index, s->h, s->wt0, s->ewt);
}

/* The rounding floor of index-1 algebraic variables (columns of dF/dy' that are zero, index 1: the
 * accelerations and multipliers of the index-1 and Baumgarte forms).  Such a variable is what its
 * equations give at y, up to the rounding of those equations, noise_i (solvers/noise_floor.h);
 * the error estimate y - y_pred sees that noise, amplified by the predictor's
 * extrapolation, whatever h is.  Where the local tolerance is below it, steps are rejected on noise
 * and h falls to hmin: the slider crank in form index1 or baumgarte at rtol <= 3.16e-10 (local
 * tolerance 1e-12, LOCAL_RTOL_MIN), where noise_i reaches 3.1e-11 in a_phi2 (24 times its
 * tolerance) and 1.8e-11 in a_q1 (8 times) near t = 0.0838, failed there after 660000-750000
 * steps.  So the tolerance of such a variable is at least noise_i, on
 * problems of at most EIG_MAX_N equations.  noise costs n solves with the LU: computed after a
 * failed step (error test or Newton) with the matrix of that step, and with every new matrix only
 * while it is above some tolerance (computed at every new matrix, it cost 30-40% more CPU on the
 * index1 forms of the crank and Andrews at rtol 1e-6, 1e-7).  The tolerance is the same number as
 * before wherever it is above the floor: no published row has an index-1 algebraic variable
 * (their forms are index 2 and 3).  Here: noise from the Jacobian at (y, y') and the LU of G made
 * from it, and noise_binds at the accepted state: 0 or the solver's code. */
int bdf_algebraic_noise(bdf *s, const double *y, const double *yp)
{
  s->noise_stamp = s->jac.stamp;
  int rc = mbdae_algebraic_noise(&s->jac, &s->lu, s->index, y, yp, EIG_MAX_N, s->mask, s->noise,
                                 s->unit, s->tsize);
  s->noise_binds = rc == 0 && mbdae_noise_binds(&s->tol, s->n, s->yuser, s->noise);
  return rc;
}
