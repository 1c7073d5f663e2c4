/* Order and step-size selection of the MEBDF integrator (solvers/mebdf.h).
 *
 * The error of a step of BDF order k is estimated as E_k = C_k |nabla^(k+1) y_{n+1}|, C_k the
 * error constant of the order-(k+1) corrector (mebdf_formula.c) applied to the (k+1)-th
 * difference, the size of the local error of the BDF-k stage: the estimate controls the order-k
 * formula and the corrector's order k + 1 comes on top, as MEBDFI's test on its first stage does
 * (J. R. Cash, S. Considine, ACM TOMS 18 (1992) 142-155).  The difference is taken from the
 * step's two solutions, (k+1)/beta_k (y_{n+1} - ybar_{n+1}) (solvers/mebdf.c).  The (k+2)-th
 * difference, the corrector's own error, was dominated by the Newton iterations' noise.
 * E_{k-1} = C_{k-1} |nabla^k y_{n+1}| and E_{k+1} = C_{k+1} |nabla^(k+2) y_{n+1}| (differences of
 * the stored values)
 * estimate what the neighbouring orders would have made of the same step.  The rules are those
 * of the Nordsieck codes of Gear's family that MEBDFI belongs to (A. C. Hindmarsh, LSODE,
 * ODEPACK 1983; the biases below): after a change of h or k the step and the order are kept for k +
 * 2 steps; then each order q in {k-1, k, k+1} proposes the ratio r_q = 1/(bias_q E_q^(1/(q+1))),
 * biased towards keeping the order, and the largest wins (then limited by the stability of the
 * order, solvers/mebdf_stability.c); a gain below RH_MIN keeps h and k, except that a win of
 * order k + 1 with a ratio below 1 is taken, order and smaller step (raise_wins, as MEBDFI).  An
 * increase is limited to RMAX (10^4 at the first decision, 2 after a rejection).  After an
 * error-test failure the step is cut by the same formula (at most to 0.9 h, at least to 0.2 h),
 * the lower order competing (and taken at the second failure); at the third on one step the
 * history is suspect and the method restarts at order 1 from y_n, y'_n with h/10 (as LSODE does);
 * after a Newton failure h/4. */
#include <math.h>

#include "mebdf.h"

/* LSODE's biases were 1.3, 1.2, 1.4: the steps they chose failed the error test 19 times in 287
 * on the car axis at rtol 1e-4 (2 in 280 for MEBDFI, whose factors are 1.6, 1.5, 1.7), 1587 times
 * on the crank over rtol 1e-3..1e-10, mostly k + 2 steps after a rise of h or k.  Over those 15
 * tolerances these fail less for the same or more digits: error-test failures 233 -> 32 (car
 * axis), 291 -> 166 (Andrews), 1587 -> 267 (crank), 3436 -> 672 (pendulum), 675 -> 347 (double
 * pendulum), residual evaluations -14%, -7%, -2%, -11%, -3%, mean scd 2.66 -> 2.88, 4.29 -> 4.33,
 * 4.13 -> 4.00, 1.78 -> 2.20, 2.39 -> 2.51.  MEBDFI's own 1.5/1.6/1.7 left the crank at 1e-8
 * below MEBDFI - 0.2 digits (scd 4.95 against 5.64): a rise of the order is then too rare for the
 * elastic modes; 1.5/1.6/1.4 gave a slope of scd against -log10 rtol of 0.90 (tests/test_mebdf.c).
 */
static const double BIAS_DOWN = 1.5, BIAS_SAME = 1.4, BIAS_UP = 1.5;
static const double RH_MIN = 1.1;
static const double RMAX = 10.0, RMAX_AFTER_FAIL = 2.0;
static const double CUT_MIN = 0.2, CUT_MAX = 0.9, CUT_NEWTON = 0.25, CUT_REPEATED = 0.1;

/* LSODE keeps h and k whenever the best ratio is below RH_MIN, even below 1, and waits for the
 * error test to cut h.  MEBDFI (J. R. Cash, S. Considine, ACM TOMS 18 (1992) 142-155; its
 * subroutine STIFF) keeps them for a ratio between 1 and 1.1 (below 1.1 only within 20 steps of
 * a new Jacobian) and otherwise takes the winning order with the winning ratio.  Here the winner's
 * order is taken with a ratio below 1 when it is k + 1 and the stability limit allows it at h rh:
 * both estimates ask for a smaller step, and order k + 1 needs less of a cut than order k (rh >=
 * 1/BIAS_SAME = 0.71 after a step that passed the error test).  Kept, the order whose estimate was
 * the larger ran into the error test: the slider crank at rtol 1e-6 (h0 1e-8) went back and forth
 * between orders 5 and 7 with its estimate following the elastic mode's phase (0.2-0.9 within 10
 * steps), 55 error-test failures (MEBDFI 3), 4075 steps at h 2.4e-5 on average against MEBDFI's
 * 3320, 2561 of them at order 8 with h 3.0e-5; with the rule 10 failures and 3471 steps (scd 3.21,
 * mescd 0.21; MEBDFI 3.02, 0.03), at 0.8-1.25 times that rtol 3117-3525 steps against MEBDFI's
 * 3232-3472 (before 2930-4075).  Over 5 problems x 17 tolerances 1e-3..1e-11 (2026-11-27) residual
 * evaluations +0.9% (car axis), -0.7% (Andrews), -0.2% (crank), -0.8% (pendulum), +0.1% (double
 * pendulum), mean scd 3.23 -> 3.22, 5.12 -> 5.06, 4.55 -> 4.62, 2.70 -> 2.69, 3.29 -> 3.06; the
 * double pendulum's and the pendulum chain's scd swing by up to 2 digits between neighbouring
 * tolerances either way (over 30 tolerances 1e-8..1e-5 their mean 2.48 -> 2.49 and -0.14 ->
 * -0.10), and so does Andrews' at 1e-4 (2.81 -> 0.97, MEBDFI 0.37; 0.48-2.35 at 8e-5, 9e-5,
 * 1.1e-4 and 1.25e-4, which the rule leaves unchanged).  Taking a lower order's win that way too
 * gave the crank 3699 steps and left the pendulum at 1e-4 below MEBDFI - 0.2 digits (mescd -0.24
 * against 0.07); raising at the same h (no cut) 3111 steps but the pendulum's mescd -0.29; the
 * raise without the stability limit's consent cut h for nothing at the crank's rtol 1e-5 (984 ->
 * 1150 steps). */
static int raise_wins(mebdf *s, int knew, double rh)
{
  return knew > s->k && rh < 1.0 && mebdf_stable_order(s, knew, s->h * rh) > s->k;
}

/* The step ratio an estimate est of an order-(k + 1) corrector allows. */
static double ratio(double est, double bias, int k)
{
  return 1.0 / (bias * pow(est, 1.0 / (double)(k + 1)) + 1e-6);
}

/* E_q of the step just attempted, q = k - 1 or k + 1 (s->y holds y_{n+1}, s->delta is scratch). */
static double estimate_at(mebdf *s, int q)
{
  mebdf_history_diff(&s->hist, s->y, q + 1, s->delta);
  return s->f[q].err * mebdf_wnorm(s, s->delta);
}

double mebdf_next_step(mebdf *s)
{
  int k = s->k;
  if (--s->idoub > 0) {
    return s->h;
  }
  double rh = ratio(s->est, BIAS_SAME, k);
  int knew = k;
  if (k > 1) {
    double rdn = ratio(estimate_at(s, k - 1), BIAS_DOWN, k - 1);
    if (rdn > rh) {
      rh = rdn;
      knew = k - 1;
    }
  }
  if (k < MEBDF_MAX_ORDER && s->nreal >= k + 2) {
    double rup = ratio(estimate_at(s, k + 1), BIAS_UP, k + 1);
    if (rup > rh) {
      rh = rup;
      knew = k + 1;
    }
  }
  if (rh < RH_MIN && !raise_wins(s, knew, rh)) {
    s->idoub = 3;
    s->k = mebdf_stable_order(s, k, s->h);
    return s->h;
  }
  rh = fmin(rh, s->rmax);
  s->rmax = RMAX;
  s->k = mebdf_stable_order(s, knew, s->h * rh);
  return s->h * rh;
}

double mebdf_retry_step(mebdf *s, int rc)
{
  s->rmax = RMAX_AFTER_FAIL;
  if (rc != MEBDF_CONVERGED) {
    return s->h * CUT_NEWTON;
  }
  s->nef++;
  if (s->nef >= 3) {
    /* the history itself is suspect: order 1 from y_n, y'_n (as LSODE restarts) */
    mebdf_history_start(&s->hist, s->yuser, s->ypuser, s->h);
    s->k = 1;
    s->nreal = 1;
    return s->h * CUT_REPEATED;
  }
  int k = s->k;
  double rh = ratio(s->est, BIAS_SAME, k);
  if (k > 1) {
    double rdn = ratio(estimate_at(s, k - 1), BIAS_DOWN, k - 1);
    if (rdn > rh || s->nef == 2) {
      rh = fmax(rh, rdn);
      s->k = k - 1;
    }
  }
  return s->h * fmax(CUT_MIN, fmin(CUT_MAX, rh));
}
