/* When mebdf renews its Jacobian beyond solvers/mebdf_stage.c's rate rule: by cost.
 *
 * The rate rule renews the Jacobian for the step after an iteration slower than JAC_RATE, and
 * the step after that tries the Jacobian, now one step old, again.  Where the solution turns fast
 * (the index-3 pendulum at rtol 1e-3 turns 0.2-0.3 rad a step) a Jacobian one step old iterates
 * at rates 0.3-0.6 against 0.002-0.01 with a fresh one, and its step costs more residual
 * evaluations than a new Jacobian and factorization would.  Recomputing the Jacobian more often
 * where it is cheap is RADAU5's rule (its THET: Hairer & Wanner, Solving Ordinary Differential
 * Equations II, 2nd ed., Springer 1996, IV.8); LSODE and CVODE bound a Jacobian's age in steps
 * (A. C. Hindmarsh, ODEPACK, 1983; Hindmarsh et al., SUNDIALS, ACM TOMS 31 (2005) 363-396).
 *
 * Here, from counts only (no timers: results are bit-reproducible): the residual evaluations of
 * the last accepted step begun with a fresh Jacobian are kept, and a step begun with an old one
 * is slow when it took more than W beyond them (its retries after a convergence failure counted,
 * error-test failures not: they restart the count).  After CONFIRM slow old steps in a row the
 * next RENEW_STEPS steps begin with a new Jacobian; then one step probes with an old one again,
 * and a slow probe renews for RENEW_STEPS more.  W, the cost of a Jacobian and factorization in
 * residual evaluations with a solve, is m / 3 (a dense LU of order m against its solve; m the
 * order of the factored system after condensation, mbdae_itmat_factored_order) plus the
 * evaluation: its residuals when differenced, else 2.  Measured with valgrind's callgrind at rtol
 * 1e-3 (a Jacobian, its factorization and the pencil's eigenvalues, against a residual and a
 * solve): pendulum 3.4 (W 3), double pendulum 4.0 (4), car axis 5.9 (4), Andrews 6.9 (6.3),
 * slider crank 7.7 (5); the wheelset at 1e-4 13.3 (its forward-mode Jacobian costs about 11
 * residuals: W 2 + m/3 underestimates it, but the rule does not fire there at 1e-4..1e-10).
 *
 * Measured 2026-11-27 (5 problems x 17 tolerances 1e-3..1e-11): the pendulum 739775 -> 689026
 * residual evaluations (13746 -> 11102 at 1e-3; Jacobians 52697 -> 60420), the double pendulum
 * 120765 -> 119573 (9048 -> 9254 Jacobians); car axis, Andrews and crank bit for bit unchanged,
 * and Fekete and the wheelset at 1e-4, 1e-7, 1e-10.  At equal digits (scripts/workprecision.py,
 * three runs) against the rate rule alone: pendulum 0.83-0.85 (geometric mean over the levels),
 * double pendulum 0.99-1.01; the pendulum's worst ratio to MEBDFI 1.68-1.74 -> 1.19-1.25.  Not
 * kept: CONFIRM 1: Andrews +4% Jacobians, at equal digits 1.04-1.11 times the rate rule's CPU
 * (W 2 + m/2 or m/3, counting a step's every attempt or not), its worst ratio to MEBDFI
 * 0.82-0.84 -> 0.96-1.02, and the wheelset 1692 Jacobians at 1e-4 against 1060; CONFIRM 2: the
 * double pendulum's worst ratio to MEBDFI 0.90 -> 1.10; CONFIRM 4: the pendulum 0.89;
 * RENEW_STEPS 16: the pendulum at 1e-4 below MEBDFI - 0.2 digits. */
#include "mebdf.h"

static const double EVAL_COST = 2.0;  /* an analytic Jacobian's evaluation, in residuals */
static const double FACTOR_DIV = 3.0; /* a factorization of order m: m / FACTOR_DIV solves */
enum { CONFIRM = 3, RENEW_STEPS = 8 };

void mebdf_renew_init(mebdf_renew *r)
{
  r->begun = 0;
  r->fresh_cost = -1;
  r->steps_left = 0;
  r->slow_old = 0;
}

void mebdf_renew_attempt(mebdf *s)
{
  mebdf_renew *r = &s->renew;
  if (!r->begun) {
    r->begun = 1;
    r->nres0 = s->st->nres;
    r->old = !s->need_jac;
  }
}

void mebdf_renew_rejected(mebdf *s, int rc)
{
  if (rc == MEBDF_CONVERGED) { /* an error-test failure: the next attempt starts the count */
    s->renew.begun = 0;
  }
}

/* W above. */
static double jacobian_cost(const mebdf *s)
{
  int differenced = mbdae_problem_jac_nres(s->p);
  double eval = differenced > 0 ? (double)differenced : EVAL_COST;
  return eval + (double)mbdae_itmat_factored_order(&s->lu) / FACTOR_DIV;
}

void mebdf_renew_accepted(mebdf *s)
{
  mebdf_renew *r = &s->renew;
  long cost = s->st->nres - r->nres0;
  r->begun = 0;
  if (!r->old) {
    r->fresh_cost = cost;
  }
  if (r->steps_left > 0) {
    r->steps_left--;
    s->need_jac = 1;
    return;
  }
  if (r->old) {
    int slow = r->fresh_cost >= 0 && (double)(cost - r->fresh_cost) > jacobian_cost(s);
    r->slow_old = slow ? r->slow_old + 1 : 0;
    if (r->slow_old >= CONFIRM) {
      r->steps_left = RENEW_STEPS - 1;
      s->need_jac = 1;
    }
  }
}
