/* The stability-limited order of the MEBDF integrator (solvers/mebdf.h).
 *
 * MEBDF of BDF order k <= 3 (orders 2-4) is A-stable; orders 5-8 are only A(alpha)-stable (J. R.
 * Cash, Comp. & Maths. with Appls. 9 (1983); Hairer & Wanner, Solving ODEs II, V.3), and on an
 * undamped mode y' = i omega y they amplify: per step, for h omega = 0.5, 1: order 5 by 6.5e-4,
 * 1.6e-2, order 6 by 1.4e-4, 2.2e-2; orders 7 and 8 damp up to h omega = 0.8 and 1.0 and amplify
 * by 0.15 and 0.20 at 1.5.  The slider crank's elastic modes (up to 22606 rad/s, undamped) sit
 * there at rtol 1e-5..1e-6: the mode grows until the error test fails, the order falls and
 * climbs again (3945 steps at 1e-5 against 469 at 3.16e-5).  As bdf does for BDF3-5, the finite
 * eigenvalues lambda of the pencil (dF/dy, -dF/dy') of a Jacobian (LAPACK dggev, O(n^3), up to
 * MEBDF_EIG_MAX_N equations, at most once in EIG_MIN_STEPS accepted steps, fewer above 64
 * equations, eig_interval) are kept, and an order above 4 is used at a step h only if no mode with
 * |h lambda| >= Z_SAFE is amplified by more than GROWTH_MAX per step.  Up to 64 equations only, the
 * Fekete problem (160) sat at order 6 with h at the stability boundary of its undamped modes in
 * the rest phase: 2732 steps at rtol 1e-7, 3744 at 1e-10 (637 and 1736 with the check; MEBDFI 584,
 * 1338).
 *
 * The amplification at z = h lambda: with y_m = zeta^m the three stages give, with D = 1 - z beta,
 * A(zeta) = -sum_{j=1..k} a_j zeta^(k-j), B(zeta) = -sum_{j=2..k} a_j zeta^(k+1-j) and
 * H(zeta) = sum_{j=1..k} ahat_j zeta^(k-j) (stage 1: D ybar_{n+1} = A, stage 2:
 * D ybar_{n+2} = -a_1 ybar_{n+1} + B, stage 3: D y_{n+1} + H = z ((bhat - beta) ybar_{n+1} +
 * bhat1 ybar_{n+2})), the characteristic polynomial of degree k
 *     P(zeta) = D^2 (D zeta^k + H) - (bhat - beta) z D A + bhat1 z a_1 A - bhat1 z D B,
 * whose roots are the amplification factors; all lie in |zeta| < r iff the Schur-Cohn test holds
 * for P(r w) (P. Henrici, Applied and Computational Complex Analysis I, 6.8; solvers/schur_cohn.c).
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "mebdf.h"
#include "pencil_modes.h"
#include "schur_cohn.h"

_Static_assert((int)MEBDF_MAX_ORDER <= (int)SCHUR_COHN_MAX_DEGREE, "the corrector's degree");

static const double GROWTH_MAX = 1.001;
static const double Z_SAFE = 0.3; /* below, every order is accurate on the mode: not tested */
enum { EIG_MIN_STEPS = 160, EIG_FULL_RATE_N = 64, A_STABLE_MAX_K = 3 };

/* Accepted steps between two computations: EIG_MIN_STEPS up to EIG_FULL_RATE_N equations, then
 * in proportion to n^2, so that dggev's O(n^3) stays of the order of one dense LU per step. */
static long eig_interval(int n)
{
  long r = n > EIG_FULL_RATE_N ? ((long)n * n + EIG_FULL_RATE_N * EIG_FULL_RATE_N - 1) /
                                     ((long)EIG_FULL_RATE_N * EIG_FULL_RATE_N)
                               : 1;
  return EIG_MIN_STEPS * r;
}

/* 1 when MEBDF of BDF order k amplifies the mode z by more than radius per step. */
int mebdf_amplifies(const mebdf_formula *f, int k, double complex z, double radius)
{
  double complex p[MEBDF_MAX_ORDER + 1];
  double complex d = 1.0 - z * f->beta;
  double complex c1 = d * d, c2 = -(f->bhat - f->beta) * z * d + f->bhat1 * z * f->a[1];
  double complex c3 = -f->bhat1 * z * d;
  for (int m = 0; m <= k; m++) {
    p[m] = 0.0;
  }
  p[k] = c1 * d;
  for (int j = 1; j <= k; j++) {
    p[k - j] += c1 * f->ahat[j] - c2 * f->a[j]; /* H and A */
    if (j >= 2) {
      p[k + 1 - j] -= c3 * f->a[j]; /* B */
    }
  }
  double scale = 1.0;
  for (int m = 0; m <= k; m++) {
    p[m] *= scale;
    scale *= radius;
  }
  return !schur_cohn_inside(p, k);
}

/* A new Jacobian: its pencil's eigenvalues become due (at most once in EIG_MIN_STEPS accepted
 * steps); they are computed when an order decision needs them (see mebdf_stable_order).  40
 * rather than 20: the same counts and digits on the 16 published rows and the crank at 1e-5,
 * dggev's instructions halved (Andrews 1e-7: 3.6M -> 1.8M of 24M, callgrind).  160 since the
 * step-size factors were raised (solvers/mebdf_control.c): of the 5 problems x 17 tolerances
 * only Andrews at 1e-10 (758 -> 781 steps, scd 7.86 -> 7.98) and the two pendulums at 1e-3 and
 * 3.16e-4 moved (pendulum 1e-3 scd -0.65 -> -0.30), Fekete at 1e-7 637 steps, scd 7.16 (664,
 * 7.02); dggev was 7-8% of an Andrews run (perf). */
void mebdf_eigen_update(mebdf *s)
{
  mebdf_eigen *e = &s->eig;
  if (e->on && (!e->have || s->st->accepted >= e->step + eig_interval(s->n))) {
    e->pending = 1;
  }
}

/* The finite eigenvalues of the pencil (dF/dy, -dF/dy') of the stored Jacobian (growth of the
 * solution itself is not the method's: solvers/pencil_modes.c tests Re lambda > 0 on the axis). */
static void compute_eigenvalues(mebdf *s)
{
  mebdf_eigen *e = &s->eig;
  const pencil_work w = {e->a, e->b, e->re, e->im, e->beta, e->work};
  e->have = 1;
  e->pending = 0;
  e->step = s->st->accepted;
  e->last_k = 0;
  e->count = pencil_modes(&s->jac, s->n, s->jac.dfdy, s->jac.dfdyp, &w);
}

/* 1 when order k at step h amplifies no kept mode with |h lambda| >= Z_SAFE by more than
 * GROWTH_MAX. */
static int stable_at(const mebdf *s, int k, double h)
{
  const mebdf_eigen *e = &s->eig;
  if (k <= A_STABLE_MAX_K) {
    return 1;
  }
  for (int i = 0; i < e->count; i++) {
    double complex z = h * (e->re[i] + I * e->im[i]);
    if (schur_cohn_abs2(z) >= Z_SAFE * Z_SAFE && mebdf_amplifies(&s->f[k], k, z, GROWTH_MAX)) {
      return 0;
    }
  }
  return 1;
}

/* The answer for (k, h) is kept until the eigenvalues change: at constant step and order every
 * accepted step asks the same question (the Schur-Cohn tests were 8% of the car axis run at
 * rtol 1e-5 with dggev, perf). */
int mebdf_stable_order(mebdf *s, int k, double h)
{
  mebdf_eigen *e = &s->eig;
  if (k <= A_STABLE_MAX_K) {
    return k;
  }
  /* new eigenvalues only for a rise above the step just taken (order or size): at the same
   * order and a step no larger the step just accepted showed no growth (bdf's rule) */
  if (e->pending && (k > s->k || h > s->h)) {
    compute_eigenvalues(s);
  }
  if (k == e->last_k && h == e->last_h) {
    return e->last_out;
  }
  e->last_k = k;
  e->last_h = h;
  while (k > A_STABLE_MAX_K && !stable_at(s, k, h)) {
    k--;
  }
  e->last_out = k;
  return k;
}
