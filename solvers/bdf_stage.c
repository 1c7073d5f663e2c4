/* The corrector of the bdf integrator (solvers/bdf.h) and its iteration matrix.
 *
 * Newton.  The corrector equation F(t, y, y'_pred + cj (y - y_pred)) = 0 is solved by a simplified
 * Newton iteration (the loop of solvers/newton.h, shared with radau; the phases below) with the
 * LU factors (solvers/linsys.h) of G = dF/dy + cj_old dF/dy' built from the problem's analytic
 * Jacobian.  G is kept across steps; while cj differs from cj_old each
 * correction is multiplied by 2 / (1 + cj/cj_old) (BCP ch. 5).  The rate
 * rho = (|d_m| / |d_0|)^(1/m) is observed; the iteration has converged when
 * rho/(1-rho) |d_m| <= NEWTON_TOL, fails when rho > 0.9 or after 4 iterations; the first
 * correction is tested with the rate of an earlier step (as DASSL and IDA do) only when that rate
 * was observed with a matrix from before its own step (see bdf_carry_rate).  The Jacobian is
 * re-evaluated and refactored when cj/cj_old leaves [(1-r)/(1+r), (1+r)/(1-r)], r = CJ_RATE,
 * when an iteration converged with a rate above JAC_RATE (for the next step), and when the
 * iteration fails with an old matrix (the step is then retried with the same h before h is cut
 * by 4).  NEWTON_TOL, CJ_RATE and JAC_RATE are tighter than DASSL's 0.33, 0.25 and "only on
 * failure": see their definitions for the measurements. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "bdf.h"
#include "newton.h"

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
  return rc == 0 && s->noise_binds ? bdf_algebraic_noise(s, s->y, s->yp) : rc;
}

/* After bdf_set_coefficients: refactor when cj/cj_old has left the band of CJ_RATE (with a new
 * Jacobian unless the current one was evaluated at this t_n), and forget the observed rate when
 * cj changed. */
void bdf_matrix_due(bdf *s)
{
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
}

/* Evaluate and factor a new iteration matrix when one is due: 0, or an outcome of correct()
 * (BDF_FAIL_SINGULAR, BDF_FAIL_RESIDUAL, the matrix then due again), or a negative fatal code. */
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
    return BDF_FAIL_SINGULAR;
  }
  if (rc > 0) {
    s->need_jac = 1;
    return BDF_FAIL_RESIDUAL;
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
  double delnrm = bdf_wnorm(s, s->delta);
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
 * norm of the prediction): BDF_CONVERGED, BDF_FAIL_NEWTON, BDF_FAIL_RESIDUAL or a negative fatal
 * code. */
static int iterate(bdf *s, double pnorm)
{
  corrector_solve cs = {s, pnorm, 0.0};
  newton_outcome outcome;
  int rc = newton_iterate(&CORRECTOR_NEWTON, &cs, 1, &outcome);
  if (rc < 0) {
    return rc;
  }
  return outcome == NEWTON_CONVERGED   ? BDF_CONVERGED
         : outcome == NEWTON_UNDEFINED ? BDF_FAIL_RESIDUAL
                                       : BDF_FAIL_NEWTON;
}

/* Solve the corrector equation from the prediction.  Returns an outcome of bdf.h or a negative
 * fatal code (from the residual, the Jacobian or LAPACK). */
int bdf_correct(bdf *s)
{
  for (;;) {
    bdf_predict(s);
    double pnorm = bdf_wnorm(s, s->y);
    memset(s->e, 0, sizeof(double) * (size_t)s->n);
    int rc = residual(s, s->t, s->y, s->yp, s->delta);
    if (rc < 0) {
      return rc;
    }
    if (rc > 0) {
      return BDF_FAIL_RESIDUAL;
    }
    rc = refresh_matrix(s);
    if (rc != 0) {
      return rc;
    }
    int outcome = iterate(s, pnorm);
    if (outcome == BDF_CONVERGED || outcome < 0 || s->jac_current) {
      return outcome;
    }
    /* An old matrix may be the cause: retry the same step with a fresh one. */
    s->need_jac = 1;
  }
}

/* The rate of the simplified Newton iteration grows with the distance between the point the matrix
 * was evaluated at and the iterate: with a matrix from the predicted point of the current step it
 * measures only the nonlinearity of F, the rate of the next step with the same matrix also the
 * change of the Jacobian over one step.  On the index-3 pendulum at rtol 1e-4 the two are 1e-5
 * and 0.2-0.5 (h about 0.017): a first correction accepted with the carried 1e-5 left an
 * iteration error of 0.1-0.4 of the local tolerance in every later step with that matrix, the
 * order-4 and order-5 error estimates (differences of those iterates) fluctuated at that level
 * from step to step, and the order stayed at 3-4 with 450 error-test failures: 10485 steps,
 * steps no larger than at 1e-6.  So a rate observed with a matrix evaluated in its own step is
 * not carried (see bdf_carry_rate). */
/* After an accepted step: the rate its iteration observed is kept for the first correction of the
 * next step only when its matrix was not evaluated in this step (see above). */
void bdf_carry_rate(bdf *s)
{
  if (s->jac_current) {
    s->conv_factor = RATE_START;
  }
  s->jac_current = 0;
}
