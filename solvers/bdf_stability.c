/* The stability-limited order of the bdf integrator (solvers/bdf.h): BDF3-5 are not A-stable
 * (Hairer & Wanner, Solving ODEs II, V.2), so an order above 2 is used at a step only where no
 * mode of the linearization (the finite eigenvalues of the pencil (dF/dy, -dF/dy'), computed by
 * solvers/pencil_modes.c when due) is amplified by more than GROWTH_MAX per step; amplification
 * by the roots of the constant-step characteristic polynomial, tested with the Schur-Cohn
 * criterion (P. Henrici, Applied and Computational Complex Analysis I, 6.8).
 *
 * Stability-limited order.  BDF3-5 are not A-stable: on an undamped mode y' = i omega y (the
 * elastic modes of the slider crank, omega up to 2.3e4) BDF3 and BDF4 amplify for h omega up to
 * 1.92 and 4.71, BDF5 for h omega in (0.711, 9.36) (at h omega = 1: by 1.04, 1.11, 1.13 per
 * step).  The error test alone lets h grow into that range; the mode grows until the test fails,
 * the order collapses and climbs again: at rtol = 1e-4 the crank took 2.7 times the steps of
 * order 2 alone, with wrong elastic accelerations at tend.  So the eigenvalues lambda of the
 * pencil (dF/dy, -dF/dy') of a new Jacobian (see EIG_REFRESH) are computed (LAPACK dggev) when
 * the order or the step is about to rise above the step just taken (see bdf_refresh_before_rise),
 * and the order and step chosen for accuracy after an accepted step are kept only if no mode is
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
 * part is the index-3 constraint, whose eigenvalues are infinite and never limit the order). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "bdf.h"
#include "pencil_modes.h"
#include "schur_cohn.h"

_Static_assert((int)MAX_ORDER <= (int)SCHUR_COHN_MAX_DEGREE, "the BDF polynomials' degree");

/* Stability limit of orders 3-5 (see stable_at).  A step is stable when no mode of the
 * linearization is amplified by more than GROWTH_MAX per step.  Exactly 1 is not usable: on an
 * undamped mode (lambda = i omega) BDF3 and BDF4 amplify by 1 + O((h omega)^4) and
 * 1 + O((h omega)^6) for every h, a growth of the size of their truncation error, which the error
 * test controls; BDF5 damps up to h omega = 0.711 and then amplifies steeply (1.01 at 0.775, 1.13
 * at 1).  The limits h omega (BDF3, 4, 5) for GROWTH_MAX - 1 = 1e-3, 1e-2, 3e-2 are 0.26, 0.38,
 * 0.72; 0.49, 0.57, 0.78; 0.75, 0.70, 0.83.  Measured on the slider crank (undamped elastic modes
 * up to omega = 22606) at rtol = 1e-4 (residual evaluations, mescd): no limit 4761, -0.78; 3e-2
 * 3210, 0.12; 1e-2 1889, 0.23; 1e-3 1889, 0.23, but 1e-3 and 3e-3 trap the order at 2 over parts
 * of rtol = 1e-5..1e-6 (scd -0.15 on average over the 25 tolerances of the test set; 1e-2:
 * -0.03).  The other four problems are unaffected by any of these values. */
static const double GROWTH_MAX = 1.01;
static const double STABLE_SEARCH_FACTOR = 0.95; /* see stable_step */
static const double STABLE_SEARCH_MIN = 0.1;
/* The eigenvalues are recomputed (dggev, O(n^3)) with a new Jacobian only when some entry of
 * dF/dy or dF/dy' has moved by more than EIG_REFRESH times the largest entry since the last
 * computation, and not within EIG_MIN_STEPS accepted steps of it: the stiff modes of the
 * multibody problems move with the geometry, slowly against the step size.  Recomputing at every
 * Jacobian took 4 times the instructions of the code without the limit on Andrews' problem and
 * 2.4 times on the slider crank (rtol 1e-7); with these settings, +37% on Andrews, +34% on the
 * car axis and the double pendulum, +14% on the pendulum, +7% on the crank (1e-6), at unchanged
 * results (callgrind).  Computed only before a rise (refresh_before_rise), the QZ iterations
 * went from 88 to 0 calls on the car axis at 1e-10 (-15% instructions), 54 to 21 at 1e-7 (-19%),
 * 852 to 213 on the pendulum at 1e-7 (-11%); Andrews 1e-10 -32%, double pendulum 1e-10 -26%;
 * every count of the five problems at 1e-4, 1e-7, 1e-10 unchanged. */
static const double EIG_REFRESH = 0.01;
enum { EIG_MIN_STEPS = 20 };

/* Coefficients c[k][m] (of zeta^m) of the BDF-k characteristic polynomial at z = 0,
 *     p_k(zeta) = sum_{j=1..k} (1/j) (zeta - 1)^j zeta^(k-j),
 * from sum_j (1/j) nabla^j y_n+1 = z y_n+1 with y_n = zeta^n; at z the polynomial is
 * p_k(zeta) - z zeta^k. */
void bdf_set_char_polynomials(double c[MAX_ORDER + 1][MAX_ORDER + 1])
{
  memset(c, 0, sizeof(double) * (MAX_ORDER + 1) * (MAX_ORDER + 1));
  for (int k = 1; k <= MAX_ORDER; k++) {
    for (int j = 1; j <= k; j++) {
      double binom = 1.0; /* binom(j, i) */
      for (int i = 0; i <= j; i++) {
        c[k][k - j + i] += ((j - i) % 2 ? -binom : binom) / (double)j;
        binom = binom * (double)(j - i) / (double)(i + 1);
      }
    }
  }
}

/* 1 when every root of p_k(zeta) - z zeta^k (coefficients c = c[k] above) lies in
 * |zeta| < radius: the Schur-Cohn test (solvers/schur_cohn.c) on the polynomial in
 * w = zeta / radius. */
static int roots_inside(const double *c, int k, double complex z, double radius)
{
  double complex a[MAX_ORDER + 1];
  double scale = 1.0;
  for (int m = 0; m <= k; m++) {
    a[m] = c[m] * scale;
    if (m == k) {
      a[m] -= z * scale;
    }
    scale *= radius;
  }
  return schur_cohn_inside(a, k);
}

/* stable_at: 1 when BDF-k at constant step h amplifies no mode exp(lambda t) of the last pencil by
 * more than GROWTH_MAX per step.  Orders 1 and 2 are A-stable.  A mode with Re lambda > 0 grows in
 * the solution too; what matters is the growth the method adds, so such a mode is tested with
 * Re lambda = 0.  Only |z| in [Z_SAFE, LOCUS_BOUND] needs the test: beyond sum_{j=1..5} 2^j/j
 * (the largest |z| on the boundary locus, at zeta = -1) lies the unbounded part of every
 * stability region, and below Z_SAFE no order amplifies by more than GROWTH_MAX (the smallest
 * such |z| with Re z <= 0 is 0.49, BDF3 on the imaginary axis; BDF4 0.57, BDF5 0.775, found by
 * computing the roots on a polar grid). */
static const double LOCUS_BOUND = 2.0 + 2.0 + 8.0 / 3.0 + 4.0 + 32.0 / 5.0;
static const double Z_SAFE = 0.45;

/* 1 when BDF-k at step h amplifies mode i by more than GROWTH_MAX per step (see stable_at). */
static int amplified(const bdf *s, int k, double h, int i)
{
  double complex z = h * (s->eig_re[i] + I * s->eig_im[i]);
  double z2 = schur_cohn_abs2(z);
  return z2 >= Z_SAFE * Z_SAFE && z2 <= LOCUS_BOUND * LOCUS_BOUND &&
         !roots_inside(s->charpoly[k], k, z, GROWTH_MAX);
}

/* See above.  The mode that failed the last test is tested first: the searches of stable_step test
 * one order at a sequence of steps, most of them unstable on the same mode (slider crank at rtol
 * 1e-4: 8% of the run's instructions saved against trying the modes in their order). */
int bdf_stable_at(bdf *s, int k, double h)
{
  if (k <= 2) {
    return 1;
  }
  if (s->eig_last_amplified < s->neig && amplified(s, k, h, s->eig_last_amplified)) {
    return 0;
  }
  for (int i = 0; i < s->neig; i++) {
    if (i != s->eig_last_amplified && amplified(s, k, h, i)) {
      s->eig_last_amplified = i;
      return 0;
    }
  }
  return 1;
}

/* Eigenvalues lambda of the linearized DAE, dF/dy v + lambda dF/dy' v = 0, i.e. of the pencil
 * (dF/dy, -dF/dy') kept by mark_eigenvalues: the finite ones, one of each conjugate pair, real
 * parts clipped to <= 0 (see stable_at).  Without them (QZ failed) no order is limited. */
void bdf_compute_eigenvalues(bdf *s)
{
  const pencil_work w = {s->ggev_a, s->ggev_b, s->eig_re, s->eig_im, s->ggev_beta, s->ggev_work};
  s->eig_pending = 0;
  s->neig = pencil_modes(&s->jac, s->n, s->eig_dfdy, s->eig_dfdyp, &w);
}

/* 1 when every entry of the Jacobian is within tol of the kept one.  Where the store keeps the
 * structure of a small dense J and M and it has not changed since (the same count), both are zero
 * outside it and only the entries inside it are compared (a third of the crank's). */
static int close_to_kept(const bdf *s, double tol)
{
  const mbdae_jacobian *jac = &s->jac;
  int inside = jac->rows && jac->structures == s->eig_structures;
  size_t count = inside ? (size_t)jac->ninside : jac->nnz;
  for (size_t e = 0; e < count; e++) {
    size_t i = inside ? (size_t)jac->inside[e] : e;
    if (!(fabs(jac->dfdy[i] - s->eig_dfdy[i]) <= tol &&
          fabs(jac->dfdyp[i] - s->eig_dfdyp[i]) <= tol)) {
      return 0;
    }
  }
  return 1;
}

/* The eigenvalues are due for the new Jacobian (unless it is close to the one they were last due
 * for, see EIG_REFRESH): it is kept, and compute_eigenvalues runs when a step-size or order
 * decision needs them (see refresh_before_rise). */
void bdf_mark_eigenvalues(bdf *s)
{
  size_t nnz = s->jac.nnz;
  const double *dfdy = s->jac.dfdy, *dfdyp = s->jac.dfdyp;
  if (!s->eig_on || (s->have_eig && s->st->accepted < s->eig_step + EIG_MIN_STEPS)) {
    return;
  }
  if (s->have_eig && close_to_kept(s, EIG_REFRESH * s->eig_jmax)) {
    return;
  }
  s->have_eig = 1;
  s->eig_step = s->st->accepted;
  s->eig_structures = s->jac.structures;
  memcpy(s->eig_dfdy, dfdy, sizeof(double) * nnz);
  memcpy(s->eig_dfdyp, dfdyp, sizeof(double) * nnz);
  s->eig_jmax = 0.0;
  for (size_t i = 0; i < nnz; i++) {
    s->eig_jmax = fmax(s->eig_jmax, fmax(fabs(dfdy[i]), fabs(dfdyp[i])));
  }
  s->eig_pending = 1;
}

/* Before the stability test of order k at step h after an accepted step of order kused and size
 * s->h: new eigenvalues, if due, only when k or h rise above the step just taken.  At the same
 * order and a step no larger the last eigenvalues answer: the stiff modes move with the geometry,
 * slowly against the step, and a step the error test has just accepted at that order and size
 * showed no growth; an instability that does develop there still shows in the error test. */
void bdf_refresh_before_rise(bdf *s, int k, int kused, double h)
{
  if (s->eig_pending && k > 2 && (k > kused || h > s->h)) {
    bdf_compute_eigenvalues(s);
  }
}

/* The largest step h' <= h, down to h STABLE_SEARCH_MIN, at which order k is stable, if it is
 * above hbeat (else 0): a scan in factors STABLE_SEARCH_FACTOR, since the stable steps need not
 * form an interval (BDF5 on an undamped mode: stable for h omega < 0.71 and > 9.4).  The scan
 * stops at hbeat, the step to beat: on the slider crank at rtol 1e-4 (order 2 at its accuracy
 * step, orders 3-5 stable only at steps 2-4 times smaller) scanning on down to the stable step
 * took 30% of the run's instructions. */
double bdf_stable_step(bdf *s, int k, double h, double hbeat)
{
  for (double f = 1.0; f >= STABLE_SEARCH_MIN && f * h > hbeat; f *= STABLE_SEARCH_FACTOR) {
    if (bdf_stable_at(s, k, f * h)) {
      return f * h;
    }
  }
  return 0.0;
}
