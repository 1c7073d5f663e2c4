/* Error test, order and step-size selection of the bdf integrator (solvers/bdf.h): what follows
 * a corrector solve, acceptance with the next order and step, or rejection with a smaller one.
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
 * The order and step so chosen are kept only where they are stable (solvers/bdf_stability.c). */
#include <math.h>
#include <string.h>

#include "bdf.h"

static const double STEP_CUT = 0.25;        /* after a Newton failure or a repeated error failure */
static const double ERR_SAFETY_FIRST = 0.9; /* safety factor after the first error-test failure */
static const double STEP_RAISE_MIN = 1.5;   /* raise h only by a predicted factor this large */
static const double STEP_RAISE_MAX = 2.0;   /* and never by more than this */
static const double STEP_CUT_MIN = 0.5;     /* smallest factor after an accepted step */
static const double STEP_CUT_MAX = 0.9;     /* a reduced step is at least 10% smaller */

/* Error estimates at orders k, k-1, k-2 (constant-step form) choose knew and est;
 * returns the local error estimate of the step (pass when <= 1). */
double bdf_error_test(bdf *s)
{
  int k = s->k;
  double enorm = bdf_wnorm(s, s->e);
  double erk = s->sigma[k] * enorm;
  s->terk = (double)(k + 1) * erk;
  s->est = erk;
  s->knew = k;
  if (k > 1) {
    for (int i = 0; i < s->n; i++) {
      s->delta[i] = s->phi[k][i] + s->e[i];
    }
    s->erkm1 = s->sigma[k - 1] * bdf_wnorm(s, s->delta);
    s->terkm1 = (double)k * s->erkm1;
    int lower;
    if (k > 2) {
      for (int i = 0; i < s->n; i++) {
        s->delta[i] += s->phi[k - 1][i];
      }
      double terkm2 = (double)(k - 1) * s->sigma[k - 2] * bdf_wnorm(s, s->delta);
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
  return s->sigma[j] * bdf_wnorm(s, s->delta);
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

/* The order of the next step in the normal phase (DASSL's rule): knew if the error test chose it,
 * else k + 1 or k - 1 where their constant-step estimates beat order k's (k + 1 only after k + 1
 * steps at constant h and order); s->k and its estimate s->est. */
static void choose_order(bdf *s, int k, int kdiff)
{
  if (s->knew == k - 1) {
    s->k = k - 1;
    s->est = s->erkm1;
  } else if (k != MAX_ORDER && k + 1 < s->ns && kdiff != 1) {
    for (int i = 0; i < s->n; i++) {
      s->delta[i] = s->e[i] - s->phi[k + 1][i];
    }
    double erkp1 = bdf_wnorm(s, s->delta) / (double)(k + 2);
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
}

/* The next order and step of the normal phase after an accepted step of order k: chosen for
 * accuracy, then, if unstable there, among the stable candidates (choose_stable). */
static double next_order_and_step(bdf *s, int k, int kdiff)
{
  choose_order(s, k, kdiff);
  double hnew = next_step(s->h, s->est, s->k);
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
  return hnew;
}

/* Bookkeeping of an accepted step: next order and step size (in the initial phase order + 1 and
 * 2 h while stable), then the divided differences. */
void bdf_accept_step(bdf *s)
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
    hnew = next_order_and_step(s, k, kdiff);
  }
  s->h = hnew;
  bdf_update_differences(s, k);
}

/* After a failed attempt from told (outcome rc of bdf_correct, or BDF_CONVERGED with a failed error
 * test): back to t_n, then a smaller h and maybe a lower order; too many failures on one step,
 * or a step below hmin, end the run. */
void bdf_reject(bdf *s, double told, int rc, driver_report *rep)
{
  s->phase = 1;
  bdf_restore(s, told);
  rep->outcome = rc == BDF_CONVERGED ? DRIVER_REJECTED_ERROR : DRIVER_REJECTED_CONV;
  rep->hnew = s->h;
  if (rc == BDF_FAIL_SINGULAR && ++s->nsf >= MAX_SINGULAR_FAILS) {
    mbdae_driver_give_up(rep, MBDAE_ERR_SINGULAR, "singular iteration matrix %d times on one step",
                         s->nsf);
    return;
  }
  if ((rc == BDF_FAIL_NEWTON || rc == BDF_FAIL_RESIDUAL) && ++s->ncf >= MAX_CONV_FAILS) {
    mbdae_driver_give_up(rep, rc == BDF_FAIL_RESIDUAL ? MBDAE_ERR_RES : MBDAE_ERR_CONV,
                         "%s %d times on one step",
                         rc == BDF_FAIL_RESIDUAL ? "residual could not be evaluated"
                                                 : "Newton iteration failed to converge",
                         s->ncf);
    return;
  }
  if (s->noise_stamp != s->jac.stamp && bdf_algebraic_noise(s, s->yuser, s->ypuser) == 0) {
    bdf_set_base_weights(s, s->yuser); /* the retry's weights with the floor */
  }
  if (rc != BDF_CONVERGED) {
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
  if (s->h < s->hmin && rc == BDF_CONVERGED && bdf_restart_consistent(s)) {
    rep->hnew = s->h;
    return;
  }
  if (s->h < s->hmin) {
    static const char *const cause[] = {"error-test failures", "Newton failures",
                                        "singular iteration matrices",
                                        "residual evaluation failures"};
    mbdae_driver_give_up(rep, rc == BDF_CONVERGED ? MBDAE_ERR_ERRTEST : MBDAE_ERR_STEP_TOO_SMALL,
                         "step size below the minimum %.3e after %s", s->hmin, cause[rc]);
  }
}
