/* bdf: the in-house variable-order (1 to 5), variable-step BDF integrator for F(t, y, y') = 0.
 *
 * Method: fixed-leading-coefficient BDF in modified divided-difference form, the formulation of
 * DASSL (K. E. Brenan, S. L. Campbell, L. R. Petzold, Numerical Solution of Initial-Value
 * Problems in Differential-Algebraic Equations, SIAM 1996, ch. 5, sections 5.2-5.4), also used by
 * SUNDIALS IDA (Hindmarsh et al., ACM TOMS 31 (2005), IDA user guide section 2.1).
 *
 * History.  With psi_i = t_{n+1} - t_{n+1-i} (i = 1..k+1, index psi[i-1] here) the modified divided
 * differences phi_j (j = 0..k+1) of the accepted solution define the predictor
 *     y_pred = sum_{j=0..k} phi*_j,   y'_pred = sum_{j=1..k} gamma_j phi*_j,
 * phi*_j = beta_j phi_j, beta_j = prod_{i<j} psi_i(t_{n+1}) / psi_i(t_n) (BCP ch. 5).
 * The fixed-leading-coefficient corrector is y' = y'_pred + cj (y - y_pred) with
 *     cj = -alpha_s / h,   alpha_s = -sum_{j=1..k} 1/j,
 * so the iteration matrix dF/dy + cj dF/dy' depends on h and k only through cj.
 *
 * Newton.  The corrector equation F(t, y, y'_pred + cj (y - y_pred)) = 0 is solved by a simplified
 * Newton iteration (the loop of solvers/newton.h, shared with radau; the phases below) with the
 * LU factors (solvers/linsys.h) of G = dF/dy + cj_old dF/dy' built from the problem's analytic
 * Jacobian.  G is kept across steps; while cj differs from cj_old each
 * correction is multiplied by 2 / (1 + cj/cj_old) (BCP ch. 5).  The rate
 * rho = (|d_m| / |d_0|)^(1/m) is observed; the iteration has converged when
 * rho/(1-rho) |d_m| <= NEWTON_TOL, fails when rho > 0.9 or after 4 iterations; the first
 * correction is tested with the rate of an earlier step (as DASSL and IDA do) only when that rate
 * was observed with a matrix from before its own step (see carry_rate).  The Jacobian is
 * re-evaluated and refactored when cj/cj_old leaves [(1-r)/(1+r), (1+r)/(1-r)], r = CJ_RATE,
 * when an iteration converged with a rate above JAC_RATE (for the next step), and when the
 * iteration fails with an old matrix (the step is then retried with the same h before h is cut
 * by 4).  NEWTON_TOL, CJ_RATE and JAC_RATE are tighter than DASSL's 0.33, 0.25 and "only on
 * failure": see their definitions for the measurements.
 *
 * Error test.  The local error estimate is err = C_k |y - y_pred| with the variable-step
 * coefficient C_k = max(|alpha_k+1 + alpha_s - alpha_0|, alpha_k+1) (BCP ch. 5).  Estimates of
 * the error at orders k-2, k-1, k+1 as if the steps had been constant,
 * |(j+1) sigma_j+1 nabla^(j+1) y|, choose the next order exactly as DASSL does; the next step is
 * h r, r = (2 est + 1e-4)^(-1/(k+1)).  DASSL keeps h unless r >= 2 (then doubles it) or r <= 1
 * (then cuts it to max(0.5, min(0.9, r)) h); here h is raised already when r >= 1.5, by
 * min(r, 2), which took 5-15% fewer steps in our measurements and still keeps h constant
 * over long stretches (BCP ch. 5).  During the initial phase h is doubled and k raised by
 * one after every step until the first failure or order 5.  After an error-test failure: first
 * h r with r = 0.9 (2 est + 1e-4)^(-1/(k+1)) in [0.25, 0.9] and order knew, then h/4 at knew,
 * then h/4 at order 1.
 *
 * Stability-limited order.  BDF3-5 are not A-stable: on an undamped mode y' = i omega y (the
 * elastic modes of the slider crank, omega up to 2.3e4) BDF3 and BDF4 amplify for h omega up to
 * 1.92 and 4.71, BDF5 for h omega in (0.711, 9.36) (at h omega = 1: by 1.04, 1.11, 1.13 per
 * step).  The error test alone lets h grow into that range; the mode grows until the test fails,
 * the order collapses and climbs again: at rtol = 1e-4 the crank took 2.7 times the steps of
 * order 2 alone, with wrong elastic accelerations at tend.  So the eigenvalues lambda of the
 * pencil (dF/dy, -dF/dy') of a new Jacobian (see EIG_REFRESH) are computed (LAPACK dggev) when
 * the order or the step is about to rise above the step just taken (see refresh_before_rise), and
 * the order and step chosen for accuracy after an accepted step are kept only if no mode is
 * amplified by more than GROWTH_MAX per step (constant-step characteristic polynomial at
 * z = h lambda, Schur-Cohn test).  Otherwise that order with its step cut to the stability limit
 * competes with every lower order at the step of its own constant-step error estimate (each cut
 * the same way; order 2 is A-stable): the largest step wins, the rule by which LSODE chooses
 * among orders q-1, q, q+1 (its step ratios rhdn, rhsm, rhup; A. C. Hindmarsh, ODEPACK, 1983).
 * CVODE's stability limit detection (STALD) infers the dominant root from the history of the
 * step instead; with the analytic Jacobian at hand the eigenvalues themselves are more direct.
 * The QZ algorithm costs O(n^3) time and 6 n^2 doubles, so the limit is on only up to
 * EIG_MAX_N equations, whatever the storage of the iteration matrix (so that dense, band and
 * sparse runs of one problem take the same steps); above, the order is chosen for accuracy
 * alone, as DASSL and IDA do.  What that costs: on lightly damped stiff oscillations (the
 * crank's elastic modes) the order-collapse cycles described above (2.7 times the steps of order
 * 2 alone at rtol 1e-4); the pendulum chains, large by design, have no such modes (their stiff
 * part is the index-3 constraint, whose eigenvalues are infinite and never limit the order).
 *
 * Index-aware norm.  All norms are weighted RMS norms with w_i = f (rtol |y_i(t_n)| + atol), f the
 * local tolerance factor of local_tol_factor (tolerance proportionality, see there), except
 * that the weight of a component of differentiation index 2 is divided by h and of index 3 by
 * h^2 (mbdae_problem_index): equivalently its error is multiplied by h or h^2.  This is the device
 * of MEBDFI (J. R. Cash, Proc. R. Soc. Lond. A 459 (2003) 797-815) and RADAU5 (Hairer & Wanner,
 * Solving ODEs II, section VII.8): in an index-3 system any perturbation of the positions
 * reappears divided by h in the velocities and by h^2 in the multipliers, so an unscaled test
 * rejects every small step (DASSL's failure on index 3).  The Newton test uses the same norm.
 * The tolerance of an index-1 algebraic variable is never below the rounding noise with which its
 * equations determine it (algebraic_noise, solvers/noise_floor.h).
 *
 * Inconsistent index-1 algebraic start. Initial values whose index-1 algebraic part does not
 * satisfy its equations (the slider crank's published init1 in forms index1 and baumgarte: a_q3,
 * a_q4 2.2e-7, 2.7e-7 off) are moved onto them by the first step at any h: a jump, not a local
 * error. After a rejected first step the history keeps psi_1 = h_first (IDA's IDAReset sets psi_1 =
 * h), so the estimate's alpha_1 = h / (h + h_first) lets the first step pass only near h = 1e-15,
 * and the history then carries the jump into the next step's predictor: the crank failed at rtol
 * 1.78e-9 to 1e-10 with "step size below the minimum", at t = 0 or after one step. A run that would
 * end so within its first START_STEPS + 1 steps starts once more from its last accepted point (y_d
 * as they are), y_a and y'_d made consistent (solvers/consistent_start.h, as IDACalcIC does) and a
 * new order-1 history from the first step size (restart_consistent); those 12 runs finish with scd
 * 8.79-9.64 (from init=consistent 8.80-8.92, radau5 8.59-9.46). Only a run that would fail takes
 * it, so a run that passes is the same to the bit (made consistent before every first step, the
 * same 12 runs passed with scd within 0.02, but 136 runs that passed changed in the 870 of bdf's
 * forms sweep: the crank's other init1 runs in those forms and all 98 of Andrews', whose initial
 * values are consistent only to rounding). A system with an algebraic variable of index 2 or 3 has
 * no such start: in form ggl the same init1 moves velocities (up to 3.4 tolerances at rtol 1e-9),
 * differential values, which bdf never changes. The other solvers pass the 12 runs because their
 * error tests do not see the algebraic jump: ida leaves algebraic variables out
 * (IDASetSuppressAlg), and radau5's and radau's estimate E_0^-1 M (...) has M's zero columns there.
 *
 * Continuous output evaluates the interpolating polynomial of the last step through the last
 * k+1 points (BCP ch. 5).  The last step lands exactly on tend; within 10 steps of tend
 * the rest of the interval is split into equal steps, because every change of h perturbs the
 * multipliers of an index-3 system for about k steps and tend is where the result is read.
 * A recoverable (positive) or non-finite residual counts as a convergence failure: h is cut by 4.
 *
 * The code is written from the formulas in BCP ch. 5, not translated from DASSL. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bdf.h"
#include "consistent_start.h"
#include "driver.h"
#include "fail.h"
#include "lapack.h"
#include "linsys.h"
#include "newton.h"
#include "noise_floor.h"
#include "session.h"
#include "solver_caps.h"
#include "solver_type.h"
#include "weights.h"

/* The end-point rule (applied by the shared driver, solvers/driver.h): no step past tend, and
 * within END_PLAN_STEPS steps of it the rest is split into equal steps (a step count within 1e-6
 * of a whole number is taken as whole), so that the last steps are taken at constant h (a
 * step-size change perturbs the multipliers of an index-3 system for about k steps); applied to
 * new steps only, not to the retries after a failure. */
static const driver_end_rule END_RULE = {1.0, END_PLAN_STEPS, 1e-6, 0};

/* Refactor when cj/cj_old leaves [(1-CJ_RATE)/(1+CJ_RATE), (1+CJ_RATE)/(1-CJ_RATE)] (DASSL: 0.25,
 * a band of -40%..+67%; here -18%..+22%), with a new Jacobian, except in a retry of a step whose
 * Jacobian was evaluated at this t_n (after an error-test or Newton failure: the same point, so
 * that Jacobian at the new cj; slider crank rtol 1e-8: 2670 Jacobians instead of 3799, steps
 * and digits as before, 6.5% fewer instructions); and re-evaluate the Jacobian for the next step
 * when an iteration converged more slowly than JAC_RATE.  Jacobians are analytic and the systems
 * small, so a fresher matrix is cheap, while every Newton iteration it saves is a residual
 * evaluation: measured on the five problems, these two settings cut the residual evaluations by
 * 30-50% at the same accuracy. */
static const double CJ_RATE = 0.1;
static const double JAC_RATE = 0.03;
/* rho/(1-rho) |d| <= NEWTON_TOL: converged.  DASSL uses 0.33; with index-3 components the
 * iteration error left by that test is of the size of the local error estimate itself (the
 * estimate is the corrector minus the predictor), so steps get rejected on noise.  Measured at
 * rtol = 1e-7 on the five problems: 0.01 raises the scd on all five (by 0.1-0.7) for 5-10% more
 * residual evaluations. */
static const double NEWTON_TOL = 0.01;
static const double RATE_FAIL = 0.9; /* observed rate above this: diverging */
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
static const double RATE_START = 100.0; /* assumed rate factor after a new matrix or cj */
/* The rate of the simplified Newton iteration grows with the distance between the point the matrix
 * was evaluated at and the iterate: with a matrix from the predicted point of the current step it
 * measures only the nonlinearity of F, the rate of the next step with the same matrix also the
 * change of the Jacobian over one step.  On the index-3 pendulum at rtol 1e-4 the two are 1e-5
 * and 0.2-0.5 (h about 0.017): a first correction accepted with the carried 1e-5 left an
 * iteration error of 0.1-0.4 of the local tolerance in every later step with that matrix, the
 * order-4 and order-5 error estimates (differences of those iterates) fluctuated at that level
 * from step to step, and the order stayed at 3-4 with 450 error-test failures: 10485 steps,
 * steps no larger than at 1e-6.  So a rate observed with a matrix evaluated in its own step is
 * not carried (see carry_rate). */
static const double STEP_CUT = 0.25;        /* after a Newton failure or a repeated error failure */
static const double ERR_SAFETY_FIRST = 0.9; /* safety factor after the first error-test failure */
static const double STEP_RAISE_MIN = 1.5;   /* raise h only by a predicted factor this large */
static const double STEP_RAISE_MAX = 2.0;   /* and never by more than this */
static const double STEP_CUT_MIN = 0.5;     /* smallest factor after an accepted step */
static const double STEP_CUT_MAX = 0.9;     /* a reduced step is at least 10% smaller */
/* Rounding floor of index-1 algebraic variables (columns of dF/dy' that are zero, index 1: the
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
 * (their forms are index 2 and 3). */

/* The factor f of the error weights at the user's rtol (see TOL_PROP_C). */
static double local_tol_factor(double rtol)
{
  double f = TOL_PROP_C * pow(rtol, 1.0 / (double)MAX_ORDER);
  return fmin(1.0, fmax(f, LOCAL_RTOL_MIN / rtol));
}

/* Weighted RMS norm (the error weights are stored inverted). */
static double wnorm(const bdf *s, const double *v)
{
  double sum = 0.0;
  for (int i = 0; i < s->n; i++) {
    double x = v[i] * s->ewt[i];
    sum += x * x;
  }
  return sqrt(sum / (double)s->n);
}

static void set_base_weights(bdf *s, const double *y)
{
  mbdae_floored_weights(&s->tol, s->n, y, s->noise, s->wt0);
}

/* Scale the error of index-2 components by h and of index-3 components by h^2. */
static void set_scaled_weights(bdf *s)
{
  mbdae_index_scaled_weights(s->n, s->index, s->h, s->wt0, s->ewt);
}

/* One real factorization per event; no projection (the driver does not own the state: the
 * history array is bdf's; the harness refuses options.project from this record, the driver's
 * refusal stays as a second line). */
static const mbdae_solver_caps CAPS = {
    .size = sizeof(mbdae_solver_caps),
    .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_BAND) |
              MBDAE_LINSYS_BIT(MBDAE_JAC_SPARSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_CONDENSED),
    .condenses = 1,
    .projects = 0,
    .steps = 1,
    .dense_output = 1,
    .lu_real = 1,
    .lu_complex = 0,
};

/* The Jacobian store of the kind asked for, its iteration matrix and the work arrays (one
 * allocation; the eigenvalue arrays only when eig_on): 0 or a negative code with a message. */
static int allocate(bdf *s, int kind, char *msg, size_t msglen)
{
  int rc =
      mbdae_jacobian_create(&s->jac, s->p, mbdae_linsys_choose(s->p, &CAPS, kind), msg, msglen);
  if (rc != 0) {
    return rc;
  }
  s->eig_on = s->n <= EIG_MAX_N;
  size_t n = (size_t)s->n, nn = s->eig_on ? n * n : 0, nnz = s->eig_on ? s->jac.nnz : 0;
  size_t lwork = s->eig_on ? (size_t)mbdae_ggev_lwork(s->n) : 0;
  size_t ndoubles = (MAX_ORDER + 2) * n + 13 * n + 2 * nn + 2 * nnz + lwork;
  s->block = malloc(ndoubles * sizeof(double));
  s->mask = malloc(n * sizeof(int));
  if (!s->block || !s->mask || mbdae_itmat_create(&s->lu, &s->jac, 0) != 0) {
    snprintf(msg, msglen, "out of memory");
    return MBDAE_ERR_NOMEM;
  }
  double *w = s->block;
  memset(w, 0, ndoubles * sizeof(double));
  for (int j = 0; j < MAX_ORDER + 2; j++) {
    s->phi[j] = w;
    w += n;
  }
  s->y = w;
  s->yp = w + n;
  s->e = w + 2 * n;
  s->delta = w + 3 * n;
  s->wt0 = w + 4 * n;
  s->ewt = w + 5 * n;
  s->noise = w + 6 * n;
  s->unit = w + 7 * n;
  s->tsize = w + 8 * n;
  s->yp0 = w + 9 * n;
  w += 10 * n;
  s->ggev_a = w;
  s->ggev_b = w + nn;
  w += 2 * nn;
  s->eig_re = w;
  s->eig_im = w + n;
  s->ggev_beta = w + 2 * n;
  s->ggev_work = w + 3 * n;
  w += 3 * n + lwork;
  s->eig_dfdy = w;
  s->eig_dfdyp = w + nnz;
  return 0;
}

static void release(bdf *s)
{
  mbdae_itmat_free(&s->lu);
  mbdae_jacobian_free(&s->jac);
  free(s->block);
  free(s->mask);
}

/* Residual with non-finite values mapped to a recoverable failure. */
static int residual(bdf *s, double t, const double *y, const double *yp, double *res)
{
  return mbdae_residual_checked(s->p, t, y, yp, res, &s->st->nres);
}

/* Factor dF/dy + cj dF/dy' with the stored Jacobian; MBDAE_RECOVERABLE when the factors are not
 * finite (a non-finite entry stays non-finite through the elimination: it is only scaled and
 * subtracted from, so one pass over the factors finds it). */
static int refactor(bdf *s)
{
  int rc = mbdae_itmat_factor(&s->lu, s->cj);
  if (rc == 0 && !mbdae_itmat_finite(&s->lu)) {
    return MBDAE_RECOVERABLE;
  }
  s->st->nlu++;
  s->cjold = s->cj;
  s->conv_factor = RATE_START;
  return rc;
}

/* noise (the rounding floor above the bdf struct; solvers/noise_floor.h) from the Jacobian at (y,
 * y') and the LU of G made from it, and noise_binds at the accepted state: 0 or the solver's code.
 */
static int algebraic_noise(bdf *s, const double *y, const double *yp)
{
  s->noise_stamp = s->jac.stamp;
  int rc = mbdae_algebraic_noise(&s->jac, &s->lu, s->index, y, yp, EIG_MAX_N, s->mask, s->noise,
                                 s->unit, s->tsize);
  s->noise_binds = rc == 0 && mbdae_noise_binds(&s->tol, s->n, s->yuser, s->noise);
  return rc;
}

/* Evaluate the Jacobian at the predicted point and factor dF/dy + cj dF/dy'. */
static int new_matrix(bdf *s)
{
  s->st->njac++;
  s->st->nres_fd += mbdae_problem_jac_nres(s->p);
  int rc = mbdae_jacobian_eval(&s->jac, s->p, s->t, s->y, s->yp);
  if (rc != 0) {
    return rc;
  }
  rc = refactor(s);
  if (rc != MBDAE_RECOVERABLE) {
    bdf_mark_eigenvalues(s);
  }
  return rc == 0 && s->noise_binds ? algebraic_noise(s, s->y, s->yp) : rc;
}

/* Coefficients of the step from s->t with s->h and order s->k (BCP ch. 5), the
 * leading coefficient cj, the error constant ck, and phi -> phi*.  Advances s->t. */
static void set_coefficients(bdf *s)
{
  int k = s->k;
  if (s->h != s->hold || k != s->kold) {
    s->ns = 0;
  }
  s->ns = s->ns + 1 < s->kold + 2 ? s->ns + 1 : s->kold + 2;
  if (k + 1 >= s->ns) {
    double h = s->h, temp1 = h;
    s->beta[0] = 1.0;
    s->alpha[0] = 1.0;
    s->gamma[0] = 0.0;
    s->sigma[0] = 1.0;
    for (int j = 1; j <= k; j++) {
      double temp2 = s->psi[j - 1];
      s->psi[j - 1] = temp1;
      s->beta[j] = s->beta[j - 1] * s->psi[j - 1] / temp2;
      temp1 = temp2 + h;
      s->alpha[j] = h / temp1;
      s->sigma[j] = (double)j * s->sigma[j - 1] * s->alpha[j];
      s->gamma[j] = s->gamma[j - 1] + s->alpha[j - 1] / h;
    }
    s->psi[k] = temp1;
  }
  double alphas = 0.0, alpha0 = 0.0;
  for (int j = 1; j <= k; j++) {
    alphas -= 1.0 / (double)j;
    alpha0 -= s->alpha[j - 1];
  }
  s->cjlast = s->cj;
  s->cj = -alphas / s->h;
  s->ck = fabs(s->alpha[k] + alphas - alpha0);
  if (s->ck < s->alpha[k]) {
    s->ck = s->alpha[k];
  }
  double lo = (1.0 - CJ_RATE) / (1.0 + CJ_RATE);
  double ratio = s->cj / s->cjold;
  if (ratio < lo || ratio > 1.0 / lo) {
    /* a retry of a step whose Jacobian was evaluated at this t_n refactors it at the new cj */
    if (s->jac_current) {
      s->need_lu = 1;
    } else {
      s->need_jac = 1;
    }
  }
  if (s->cj != s->cjlast) {
    s->conv_factor = RATE_START;
  }
  for (int j = s->ns; j <= k; j++) {
    for (int i = 0; i < s->n; i++) {
      s->phi[j][i] *= s->beta[j];
    }
  }
  s->t += s->h;
}

/* Undo set_coefficients after a failed attempt: t, phi* -> phi, psi. */
static void restore(bdf *s, double told)
{
  int k = s->k;
  s->t = told;
  for (int j = s->ns; j <= k; j++) {
    for (int i = 0; i < s->n; i++) {
      s->phi[j][i] /= s->beta[j];
    }
  }
  for (int j = 1; j <= k; j++) {
    s->psi[j - 1] = s->psi[j] - s->h;
  }
}

static void predict(bdf *s)
{
  for (int i = 0; i < s->n; i++) {
    s->y[i] = s->phi[0][i];
    s->yp[i] = 0.0;
  }
  for (int j = 1; j <= s->k; j++) {
    for (int i = 0; i < s->n; i++) {
      s->y[i] += s->phi[j][i];
      s->yp[i] += s->gamma[j] * s->phi[j][i];
    }
  }
}

/* Outcome of one corrector solve; the failures are retried with a smaller step. */
enum { CONVERGED = 0, FAIL_NEWTON = 1, FAIL_SINGULAR = 2, FAIL_RESIDUAL = 3 };

/* Evaluate and factor a new iteration matrix when one is due: 0, or an outcome of correct()
 * (FAIL_SINGULAR, FAIL_RESIDUAL, the matrix then due again), or a negative fatal code. */
static int refresh_matrix(bdf *s)
{
  if (!s->need_jac && !s->need_lu) {
    return 0;
  }
  int rc;
  if (s->need_jac) {
    s->jac_current = 1;
    rc = new_matrix(s);
  } else {
    rc = refactor(s);
  }
  s->need_jac = s->need_lu = 0;
  if (rc == MBDAE_ERR_SINGULAR) {
    s->need_jac = 1;
    return FAIL_SINGULAR;
  }
  if (rc > 0) {
    s->need_jac = 1;
    return FAIL_RESIDUAL;
  }
  return rc;
}

/* A correction that no longer contracts (rate above RATE_FAIL) is rounding noise, not divergence,
 * when it is already below NEWTON_TOL with the exact iteration matrix of this step (evaluated in
 * it, at the current cj): then J^-1 F(y) is within the Newton tolerance and further iterations
 * cannot reduce it.  The floor 100 eps |y| (IDA's) misses this noise in index-3 systems: a
 * constraint residual can be resolved only to the rounding of the positions, eps |q|, and that
 * reaches the multipliers divided by h^2 (which the index-scaled weight multiplies back) and
 * amplified by the compliance of the constraint set; in a chain of n links, horizontal at rest,
 * |q| and that compliance grow with n, and the weighted noise of the multiplier corrections was
 * 1.4e-4, 2.4e-4, 4.4e-4, 1.4e-3 for n = 1000, 1700, 3000, 10^4 at every h below 1e-5, while
 * 100 eps |y| stays 8e-7: without this test every step from t = 1.3e-4 failed for n >= 1700. */
static int at_rounding_floor(const bdf *s, double delnrm)
{
  return s->jac_current && s->cj == s->cjold && delnrm <= NEWTON_TOL;
}

/* One corrector solve: the phases' shared state (the loop is solvers/newton.h's). */
typedef struct corrector_solve {
  bdf *s;
  double pnorm;  /* the norm of the prediction */
  double oldnrm; /* the norm of the first correction */
} corrector_solve;

/* delta = F(t, y, y') at the current iterate: 0, positive when it cannot be evaluated, or a
 * negative code. */
static inline int corrector_residual(void *ctx)
{
  bdf *s = ((corrector_solve *)ctx)->s;
  return residual(s, s->t, s->y, s->yp, s->delta);
}

/* The correction in place of delta, the residual scaled by 2 / (1 + cj / cjold) for an iteration
 * matrix formed at an older cj (DASSL). */
static inline int corrector_solve_delta(void *ctx)
{
  bdf *s = ((corrector_solve *)ctx)->s;
  double scale = 2.0 / (1.0 + s->cj / s->cjold);
  for (int i = 0; i < s->n; i++) {
    s->delta[i] *= scale;
  }
  int rc = mbdae_itmat_solve(&s->lu, s->delta);
  return rc < 0 ? rc : 0;
}

/* y, y' and the accumulated correction e updated, then DASSL's tests on the weighted norm of the
 * correction: converged at the rounding floor or when the rate-predicted error is within
 * NEWTON_TOL; failed when not finite, diverging, or at MAX_NEWTON_ITERS. */
static inline newton_outcome corrector_update(void *ctx, int iter)
{
  corrector_solve *cs = ctx;
  bdf *s = cs->s;
  int m = iter - 1;
  for (int i = 0; i < s->n; i++) {
    s->y[i] -= s->delta[i];
    s->e[i] -= s->delta[i];
    s->yp[i] -= s->cj * s->delta[i];
  }
  double delnrm = wnorm(s, s->delta);
  if (!isfinite(delnrm)) {
    return NEWTON_FAILED;
  }
  if (delnrm <= 100.0 * DBL_EPSILON * cs->pnorm) {
    return NEWTON_CONVERGED;
  }
  if (m == 0) {
    cs->oldnrm = delnrm;
  } else {
    double rate = pow(delnrm / cs->oldnrm, 1.0 / (double)m);
    if (rate > RATE_FAIL) {
      return at_rounding_floor(s, delnrm) ? NEWTON_CONVERGED : NEWTON_FAILED;
    }
    s->conv_factor = rate / (1.0 - rate);
    if (rate > JAC_RATE) {
      s->need_jac = 1; /* takes effect at the next prediction */
    }
  }
  if (s->conv_factor * delnrm <= NEWTON_TOL) {
    return NEWTON_CONVERGED;
  }
  return m + 1 >= MAX_NEWTON_ITERS ? NEWTON_FAILED : NEWTON_CONTINUE;
}

static const newton_ops CORRECTOR_NEWTON = {corrector_residual, corrector_solve_delta, NULL,
                                            corrector_update};

/* The simplified Newton iteration from the prediction, whose residual is in delta (pnorm: the
 * norm of the prediction): CONVERGED, FAIL_NEWTON, FAIL_RESIDUAL or a negative fatal code. */
static int iterate(bdf *s, double pnorm)
{
  corrector_solve cs = {s, pnorm, 0.0};
  newton_outcome outcome;
  int rc = newton_iterate(&CORRECTOR_NEWTON, &cs, 1, &outcome);
  if (rc < 0) {
    return rc;
  }
  return outcome == NEWTON_CONVERGED   ? CONVERGED
         : outcome == NEWTON_UNDEFINED ? FAIL_RESIDUAL
                                       : FAIL_NEWTON;
}

/* Solve the corrector equation from the prediction.  Returns an outcome above or a negative fatal
 * code (from the residual, the Jacobian or LAPACK). */
static int correct(bdf *s)
{
  for (;;) {
    predict(s);
    double pnorm = wnorm(s, s->y);
    memset(s->e, 0, sizeof(double) * (size_t)s->n);
    int rc = residual(s, s->t, s->y, s->yp, s->delta);
    if (rc < 0) {
      return rc;
    }
    if (rc > 0) {
      return FAIL_RESIDUAL;
    }
    rc = refresh_matrix(s);
    if (rc != 0) {
      return rc;
    }
    int outcome = iterate(s, pnorm);
    if (outcome == CONVERGED || outcome < 0 || s->jac_current) {
      return outcome;
    }
    /* An old matrix may be the cause: retry the same step with a fresh one. */
    s->need_jac = 1;
  }
}

/* Error estimates at orders k, k-1, k-2 (constant-step form) choose knew and est;
 * returns the local error estimate of the step (pass when <= 1). */
static double error_test(bdf *s)
{
  int k = s->k;
  double enorm = wnorm(s, s->e);
  double erk = s->sigma[k] * enorm;
  s->terk = (double)(k + 1) * erk;
  s->est = erk;
  s->knew = k;
  if (k > 1) {
    for (int i = 0; i < s->n; i++) {
      s->delta[i] = s->phi[k][i] + s->e[i];
    }
    s->erkm1 = s->sigma[k - 1] * wnorm(s, s->delta);
    s->terkm1 = (double)k * s->erkm1;
    int lower;
    if (k > 2) {
      for (int i = 0; i < s->n; i++) {
        s->delta[i] += s->phi[k - 1][i];
      }
      double terkm2 = (double)(k - 1) * s->sigma[k - 2] * wnorm(s, s->delta);
      lower = fmax(s->terkm1, terkm2) <= s->terk;
    } else {
      lower = s->terkm1 <= 0.5 * s->terk;
    }
    if (lower) {
      s->knew = k - 1;
      s->est = s->erkm1;
    }
  }
  return s->ck * enorm;
}

/* Next step size from the error estimate est at order k: raised only by a factor of at least
 * STEP_RAISE_MIN (then by at most STEP_RAISE_MAX), else kept or cut. */
static double next_step(double h, double est, int k)
{
  double r = pow(2.0 * est + 1e-4, -1.0 / (double)(k + 1));
  if (r >= STEP_RAISE_MIN) {
    return h * fmin(r, STEP_RAISE_MAX);
  }
  if (r <= 1.0) {
    return h * fmax(STEP_CUT_MIN, fmin(STEP_CUT_MAX, r));
  }
  return h;
}

/* Constant-step estimate of the local error at order j <= k of the step just taken at order k,
 * sigma_j |e + sum_{m=j+1..k} phi*_m| (DASSL's erk, erkm1 and erkm2 for j = k, k-1, k-2). */
static double estimate_at(bdf *s, int j, int k)
{
  memcpy(s->delta, s->e, sizeof(double) * (size_t)s->n);
  for (int m = j + 1; m <= k; m++) {
    for (int i = 0; i < s->n; i++) {
      s->delta[i] += s->phi[m][i];
    }
  }
  return s->sigma[j] * wnorm(s, s->delta);
}

/* The order s->k chosen for accuracy is unstable at the step *hnew it asks for.  Candidates: that
 * order with *hnew, and every order from 2 to the order kused of the step just accepted with the
 * step of its own constant-step error estimate, each step cut to the stability limit of its
 * order; the one with the largest step wins (LSODE's rule).  Order 2 is A-stable. */
static void choose_stable(bdf *s, int kused, double *hnew)
{
  int kbest = 2;
  double hbest = next_step(s->h, estimate_at(s, 2, kused), 2);
  int ktop = s->k > kused ? s->k : kused;
  for (int j = ktop; j > 2; j--) {
    double h = j == s->k ? *hnew : next_step(s->h, estimate_at(s, j, kused), j);
    h = bdf_stable_step(s, j, h, hbest);
    if (h > hbest) {
      kbest = j;
      hbest = h;
    }
  }
  s->k = kbest;
  *hnew = hbest;
}

/* After an accepted step: the rate its iteration observed is kept for the first correction of the
 * next step only when its matrix was not evaluated in this step (see RATE_START). */
static void carry_rate(bdf *s)
{
  if (s->jac_current) {
    s->conv_factor = RATE_START;
  }
  s->jac_current = 0;
}

/* Bookkeeping of an accepted step: next order and step size, then the divided differences. */
static void accept_step(bdf *s)
{
  int k = s->k, kdiff = k - s->kold;
  s->kold = k;
  s->hold = s->h;
  if (s->knew == k - 1 || k == MAX_ORDER) {
    s->phase = 1;
  }
  if (s->phase == 0) {
    bdf_refresh_before_rise(s, k + 1, k, 2.0 * s->h);
    if (!bdf_stable_at(s, k + 1, 2.0 * s->h)) {
      s->phase = 1;
    }
  }
  double hnew = s->h;
  if (s->phase == 0) {
    s->k = k + 1;
    hnew = 2.0 * s->h;
  } else {
    if (s->knew == k - 1) {
      s->k = k - 1;
      s->est = s->erkm1;
    } else if (k != MAX_ORDER && k + 1 < s->ns && kdiff != 1) {
      for (int i = 0; i < s->n; i++) {
        s->delta[i] = s->e[i] - s->phi[k + 1][i];
      }
      double erkp1 = wnorm(s, s->delta) / (double)(k + 2);
      double terkp1 = (double)(k + 2) * erkp1;
      if (k == 1) {
        if (terkp1 < 0.5 * s->terk) {
          s->k = k + 1;
          s->est = erkp1;
        }
      } else if (s->terkm1 <= fmin(s->terk, terkp1)) {
        s->k = k - 1;
        s->est = s->erkm1;
      } else if (terkp1 < s->terk) {
        s->k = k + 1;
        s->est = erkp1;
      }
    }
    hnew = next_step(s->h, s->est, s->k);
    if (s->nef > 0) {
      hnew = fmin(hnew, s->h); /* no increase right after an error-test failure (as CVODE) */
    }
    bdf_refresh_before_rise(s, s->k, k, hnew);
    if (!bdf_stable_at(s, s->k, hnew)) {
      if (s->eig_pending) {
        bdf_compute_eigenvalues(s); /* the choice among orders needs them */
      }
      choose_stable(s, k, &hnew);
    }
  }
  s->h = hnew;
  if (k != MAX_ORDER) {
    memcpy(s->phi[k + 1], s->e, sizeof(double) * (size_t)s->n);
  }
  for (int i = 0; i < s->n; i++) {
    s->phi[k][i] += s->e[i];
  }
  for (int j = k - 1; j >= 0; j--) {
    for (int i = 0; i < s->n; i++) {
      s->phi[j][i] += s->phi[j + 1][i];
    }
  }
}

/* y at tout from the interpolating polynomial of the last step (BCP ch. 5). */
static void interpolate(const void *m, double tout, double *yout)
{
  const bdf *s = m;
  double dt = tout - s->t, c = 1.0, g = dt / s->psi[0];
  for (int i = 0; i < s->n; i++) {
    yout[i] = s->phi[0][i];
  }
  for (int j = 1; j <= s->kold; j++) {
    c *= g;
    g = (dt + s->psi[j - 1]) / s->psi[j];
    for (int i = 0; i < s->n; i++) {
      yout[i] += c * s->phi[j][i];
    }
  }
}

/* The history for the first step of size h from (t0, y, y'): order 1, phi_0 = y, phi_1 = h y'. */
static void start(bdf *s, double t0, double h, const double *y, const double *yp)
{
  s->t = t0;
  s->h = h;
  memcpy(s->phi[0], y, sizeof(double) * (size_t)s->n);
  for (int i = 0; i < s->n; i++) {
    s->phi[1][i] = h * yp[i];
  }
  s->k = 1;
  s->kold = 0;
  s->hold = 0.0;
  s->psi[0] = h;
  s->cj = s->cjold = 1.0 / h;
  s->conv_factor = RATE_START;
  s->need_jac = 1;
  s->phase = 0;
  s->ns = 0;
}

/* The second start (see "Inconsistent index-1 algebraic start" above): from the last accepted
 * point (t_n, y, y'), y_a and y'_d consistent, y'_a the caller's initial ones, a new order-1
 * history with the run's first step size.  1 when made (once per run, within the start, on an
 * index-1 system), else 0: the caller then gives up as before. */
static int restart_consistent(bdf *s)
{
  if (s->restarted || s->st->accepted > START_STEPS) {
    return 0;
  }
  s->restarted = 1;
  size_t bytes = sizeof(double) * (size_t)s->n;
  memcpy(s->y, s->yuser, bytes);
  memcpy(s->yp, s->ypuser, bytes);
  mbdae_consistent_work w = {s->p, &s->jac, &s->lu, s->index, &s->tol, s->mask, s->delta, s->st};
  if (mbdae_consistent_algebraic(&w, s->t, 1.0 / s->h_first, s->y, s->yp) != 0) {
    return 0;
  }
  for (int i = 0; i < s->n; i++) {
    if (!s->mask[i]) {
      s->yp[i] = s->yp0[i]; /* at t_n > t0 the corrector's y'_a carries the jump divided by h */
    }
  }
  memcpy(s->yuser, s->y, bytes);
  memcpy(s->ypuser, s->yp, bytes);
  set_base_weights(s, s->yuser);
  start(s, s->t, s->h_first, s->yuser, s->ypuser);
  s->ncf = s->nef = s->nsf = 0;
  return 1;
}

/* After a failed attempt from told (outcome rc of correct(), or CONVERGED with a failed error
 * test): back to t_n, then a smaller h and maybe a lower order; too many failures on one step,
 * or a step below hmin, end the run. */
static void reject(bdf *s, double told, int rc, driver_report *rep)
{
  s->phase = 1;
  restore(s, told);
  rep->outcome = rc == CONVERGED ? DRIVER_REJECTED_ERROR : DRIVER_REJECTED_CONV;
  rep->hnew = s->h;
  if (rc == FAIL_SINGULAR && ++s->nsf >= MAX_SINGULAR_FAILS) {
    mbdae_driver_give_up(rep, MBDAE_ERR_SINGULAR, "singular iteration matrix %d times on one step",
                         s->nsf);
    return;
  }
  if ((rc == FAIL_NEWTON || rc == FAIL_RESIDUAL) && ++s->ncf >= MAX_CONV_FAILS) {
    mbdae_driver_give_up(rep, rc == FAIL_RESIDUAL ? MBDAE_ERR_RES : MBDAE_ERR_CONV,
                         "%s %d times on one step",
                         rc == FAIL_RESIDUAL ? "residual could not be evaluated"
                                             : "Newton iteration failed to converge",
                         s->ncf);
    return;
  }
  if (s->noise_stamp != s->jac.stamp && algebraic_noise(s, s->yuser, s->ypuser) == 0) {
    set_base_weights(s, s->yuser); /* the retry's weights with the floor */
  }
  if (rc != CONVERGED) {
    s->h *= STEP_CUT;
    s->need_jac = 1; /* the matrix may be the cause: the retry evaluates a new one */
  } else if (++s->nef == 1) {
    s->k = s->knew;
    double rr = ERR_SAFETY_FIRST * pow(2.0 * s->est + 1e-4, -1.0 / (double)(s->k + 1));
    s->h *= fmax(STEP_CUT, fmin(ERR_SAFETY_FIRST, rr));
  } else {
    s->k = s->nef == 2 ? s->knew : 1;
    s->h *= STEP_CUT;
  }
  rep->hnew = s->h;
  if (s->h < s->hmin && rc == CONVERGED && restart_consistent(s)) {
    rep->hnew = s->h;
    return;
  }
  if (s->h < s->hmin) {
    static const char *const cause[] = {"error-test failures", "Newton failures",
                                        "singular iteration matrices",
                                        "residual evaluation failures"};
    mbdae_driver_give_up(rep, rc == CONVERGED ? MBDAE_ERR_ERRTEST : MBDAE_ERR_STEP_TOO_SMALL,
                         "step size below the minimum %.3e after %s", s->hmin, cause[rc]);
  }
}

/* One attempt of the step [t, tnew] of size h at order s->k: predict, correct, test. */
static void attempt(void *m, double t, double h, double tnew, driver_report *rep)
{
  bdf *s = m;
  s->h = h;
  set_coefficients(s);
  s->t = tnew;
  set_scaled_weights(s);
  int rc = correct(s);
  if (rc < 0) {
    restore(s, t);
    rep->outcome = DRIVER_FAILED;
    mbdae_driver_give_up(rep, rc, "%s", mbdae_strerror(rc));
    return;
  }
  if (rc != CONVERGED || error_test(s) > 1.0) {
    reject(s, t, rc, rep);
    return;
  }
  int kused = s->k;
  accept_step(s);
  memcpy(s->yuser, s->y, sizeof(double) * (size_t)s->n);
  memcpy(s->ypuser, s->yp, sizeof(double) * (size_t)s->n);
  set_base_weights(s, s->yuser);
  s->ncf = s->nef = s->nsf = 0;
  carry_rate(s);
  rep->outcome = DRIVER_ACCEPTED;
  rep->order = kused;
  rep->hnew = s->h;
}

static const driver_method BDF_METHOD = {NULL, attempt, NULL, interpolate, NULL};

/* The session's release of a run's state. */
static void release_run(void *m)
{
  release(m);
  free(m);
}

/* The state of a run from (t0, y, y'), or NULL with the failure in r. */
static bdf *run_state(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                      mbdae_result *r)
{
  bdf *s = calloc(1, sizeof *s);
  if (!s) {
    mbdae_fail(r, MBDAE_ERR_NOMEM, t0, 0.0, "out of memory");
    return NULL;
  }
  s->p = p;
  s->n = mbdae_problem_neq(p);
  s->index = mbdae_problem_index(p);
  s->tol.rtol = opt->rtol;
  s->tol.atol = opt->atol;
  s->tol.factor = local_tol_factor(opt->rtol);
  s->st = &r->stats;
  bdf_set_char_polynomials(s->charpoly);
  memset(&r->stats, 0, sizeof r->stats);
  char msg[160];
  int rc = allocate(s, opt->linsys, msg, sizeof msg);
  if (rc != 0) {
    release_run(s);
    mbdae_fail(r, rc, t0, 0.0, "%s", msg);
    return NULL;
  }
  s->yuser = y;
  set_base_weights(s, y);
  return s;
}

static int open_run(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                    double *yp, mbdae_result *r, void **session)
{
  bdf *s = run_state(p, opt, t0, y, r);
  driver_session *ds = s ? mbdae_session_new(&BDF_METHOD, s, release_run, y, yp) : NULL;
  if (!ds) {
    return s ? mbdae_fail(r, MBDAE_ERR_NOMEM, t0, 0.0, "out of memory") : r->status;
  }
  double tend = mbdae_problem_tend(p);
  s->ypuser = yp;
  s->hmin = 4.0 * DBL_EPSILON * fmax(fabs(t0), fabs(tend));
  mbdae_driver *d = &ds->d;
  mbdae_driver_start(d, p, t0, opt, &END_RULE, y, r);
  double h = mbdae_driver_first_step(
      d, opt->h0 > 0.0 ? opt->h0 : mbdae_dassl_first_step(s->n, s->wt0, yp, tend - t0));
  s->h_first = h;
  memcpy(s->yp0, yp, sizeof(double) * (size_t)s->n);
  start(s, t0, h, y, yp);
  int rc = mbdae_driver_begin(d, h);
  if (rc != 0) {
    mbdae_session_close(ds);
    return rc;
  }
  *session = ds;
  return 0;
}

const mbdae_stepper mbdae_stepper_bdf = {open_run, mbdae_session_step, mbdae_session_dense,
                                         mbdae_session_last_step, mbdae_session_close};

static int integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                     mbdae_result *r)
{
  return mbdae_stepper_run(&mbdae_stepper_bdf, p, opt, y, yp, r);
}

const mbdae_solver_type mbdae_solver_bdf = {
    sizeof(mbdae_solver_type),
    "bdf",
    "variable-order (1-5) fixed-leading-coefficient BDF, index-scaled error test",
    integrate,
    NULL,
    &CAPS};
