/* The three stages of an MEBDF step (solvers/mebdf.h) and their simplified Newton iteration.
 *
 * Each stage solves G(y) = F(t, y, c (y - psi)) = 0, c = 1/(h beta_k), from a predictor, with the
 * one iteration matrix E = dF/dy + c_lu dF/dy' (J. R. Cash, S. Considine, ACM TOMS 18 (1992)
 * 142-155: one factorization serves all three stages, since they share beta_k).  The loop is
 * solvers/newton.h's; a correction made with a matrix factored at an older c_lu is scaled by
 * 2/(1 + c/c_lu), as DASSL does (Brenan, Campbell, Petzold, SIAM 1996, 5.2).  The rate
 * rho = (|d_m|/|d_0|)^(1/m) is watched: converged when rho/(1 - rho) |d_m| <= s->newton_tol (the
 * first correction with the rate of the last iteration made with the same matrix), failed when
 * rho > RATE_FAIL or after MAX_NEWTON_ITERS.  Predictors: stage 1 extrapolates the polynomial
 * through y_n..y_{n-k} to t_{n+1}, stage 2 the one through ybar_{n+1}, y_n..y_{n-k+1} to t_{n+2},
 * stage 3 starts from ybar_{n+1}.  (MEBDFI starts stage 1 from the last step's ybar_{n+2} when h
 * is unchanged; here that took 3-10% fewer residual evaluations over 5 problems x 17
 * tolerances but left the car axis at 1e-7 (scd 2.98 against 3.34) and the pendulum at 1e-4
 * (mescd -0.23 against 0.07) below MEBDFI - 0.2 digits, 2026-11-27.)  A stage that fails with a
 * Jacobian from an earlier step is tried once more with a fresh one before the step is given up.
 * Where old Jacobians keep costing more than new ones, solvers/mebdf_renew.c renews at each step.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mebdf.h"
#include "newton.h"

enum { MAX_NEWTON_ITERS = 4 };
/* The Newton tolerance: NEWTON_TOL of the (index-scaled, tolerance-factored) tolerance, and
 * NEWTON_TOL_LOOSE from rtol LOOSE_RTOL up.  It was 0.01 while the error estimate was the
 * (k+1)-th difference of stored values, which amplified what the iterations left by up to
 * 2^(k+1); with the estimate from the step's two solutions (solvers/mebdf.c) 0.08 met the 16
 * published rows with 12-46% fewer residual evaluations than 0.01 with the old estimate, where
 * 0.05, 0.07 and 0.1 each left the pendulum at 1e-4 below MEBDFI - 0.2 digits (mescd -0.15,
 * -0.27, -0.17 against 0.07).  Looser values at every rtol, measured on those rows and over
 * 5 problems x 17 tolerances 1e-3..1e-11 (2026-11-27, tolerance factor constant 3.5): 0.1 left
 * the slider crank at 1e-6 below MEBDFI - 0.2 digits (mescd -0.20 against 0.03), 0.2 the car axis
 * at 1e-7, the crank at 1e-8 and the pendulum at 1e-4; 0.12 and 0.15 met every row, but the
 * tight end lost digits: the car axis at 1e-9 scd 3.78 instead of 6.01 with 0.15 (slope of scd
 * against -log10 rtol 1.12 -> 0.71, 0.59 with 0.12; tests/test_mebdf.c asks 1.0-1.35), Fekete at
 * 1e-7 6.39 (MEBDFI 6.87); raising FIRST_FACTOR_MIN to 0.03-0.05 with 0.15-0.25 restored the
 * slope (0.98-1.04) for 23-26% more residual evaluations on the car axis, and the crank at 1e-10
 * fell below MEBDFI - 0.2 digits.  0.15 at rtol >= 1e-6 only keeps the tight end (slope 1.20,
 * Fekete 7.16 at 1e-7 as before) and every row, takes 1-2% fewer residual evaluations over the 17
 * tolerances (car axis, Andrews, pendulum, double pendulum; the crank +0.3%), and at equal digits
 * (scripts/workprecision.py, three repetitions each) lowers the worst CPU ratio to MEBDFI on
 * Andrews from 1.27-1.38 to 0.96-0.99, the pendulum 1.90-1.93 to 1.69-1.73 and the double
 * pendulum 1.36-1.40 to 0.95-0.96, keeps the crank's (1.08-1.09 -> 1.08-1.10) and raises the car
 * axis' 1.11-1.18 to 1.17-1.21 (its scd at 1e-4 0.03 -> -0.37, MEBDFI -0.23).  The gain is
 * mostly digits, not work: mean scd over the 17 tolerances 4.80 -> 5.12 (Andrews), 3.02 -> 3.29
 * (double pendulum), 3.30 -> 3.23 (car axis); the crank's row at 1e-6 takes 21% more residual
 * evaluations (3.21 digits against 3.13); since the order raise with a smaller step
 * (solvers/mebdf_control.c, 2026-11-27) it takes 3471 steps and 10826 residual evaluations with
 * 0.15 (scd 3.21), 3129 and 10792 with 0.08 (scd 3.05).  Fekete, already 1.3 digits short of MEBDFI
 * at 1e-4, falls further there (scd 3.49 -> 3.11, MEBDFI 4.81; 0.12-0.17 gave 3.01-3.26, 0.1 3.61),
 * over its 25 tolerances 1e-4..1e-10 (mbdae sweep all) 0.12 digits lower on average with 2.5% more
 * residual evaluations (3.16e-5: 958 -> 3252), its worst ratio at equal digits 1.70 -> 1.76. */
static const double NEWTON_TOL = 0.08;
static const double NEWTON_TOL_LOOSE = 0.15;
static const double LOOSE_RTOL = 1e-6;

double mebdf_newton_tol(double rtol) { return rtol >= LOOSE_RTOL ? NEWTON_TOL_LOOSE : NEWTON_TOL; }

static const double RATE_FAIL = 0.9;
static const double RATE_START = 100.0;
/* An iteration slower than this asks for a new Jacobian at the next step. */
static const double JAC_RATE = 0.05;
/* The first correction of a stage is accepted on the rate carried from earlier iterations only
 * with a rate factor of at least FIRST_FACTOR_MIN, i.e. only when it is itself within
 * NEWTON_TOL / FIRST_FACTOR_MIN = 27 of the tolerance (50 with NEWTON_TOL_LOOSE) (MEBDFI lets its
 * carried rate decay by at most 0.9 per iteration for the same reason).  A fresh Jacobian's rate
 * (1e-6..1e-8) carried into later steps accepted first corrections of 100 times the tolerance: the
 * Andrews mechanism in its index-1 form then failed at t = 0.02 with an inconsistent acceleration;
 * measured with 0.003: pendulum scd at rtol 1e-7, 1e-10 1.51 -> 2.82, 5.30 -> 6.56, double
 * pendulum 1.97 -> 2.64, 6.14 -> 6.38, the forms sweep's failures 64 -> 36 of 870, for 0-20% more
 * residual evaluations (those figures with NEWTON_TOL 0.01; with 0.08, 0.024 (3.3 tolerances again)
 * cost 5-25% more residual evaluations and the pendulum's mescd at 1e-4 fell to -0.19). */
static const double FIRST_FACTOR_MIN = 0.003;
/* The matrix is refactored when c / c_lu leaves [1/C_BAND, C_BAND]. */
static const double C_BAND = 1.2;

double mebdf_wnorm(const mebdf *s, const double *v)
{
  double sum = 0.0;
  for (int i = 0; i < s->n; i++) {
    double x = v[i] * s->ewt[i];
    sum += x * x;
  }
  return sqrt(sum / (double)s->n);
}

/* Factor dF/dy + c dF/dy' with the stored Jacobian; MBDAE_RECOVERABLE for non-finite factors. */
static int refactor(mebdf *s)
{
  int rc = mbdae_itmat_factor(&s->lu, s->c);
  if (rc == 0 && !mbdae_itmat_finite(&s->lu)) {
    return MBDAE_RECOVERABLE;
  }
  s->st->nlu++;
  s->c_lu = s->c;
  s->conv_factor = RATE_START;
  return rc;
}

/* After a singular matrix, every later Jacobian has its algebraic rows (dF_i/dy' = 0: the
 * constraints of an index-3 form) multiplied by c, and the residual with them (stage_solve_delta):
 * the solution of the linear system is the same, but LAPACK's partial pivoting then keeps the
 * O(1/c^2) Schur complement of the multipliers.  Unscaled, chain:n=100 at rtol 1e-10 (band or
 * dense; KLU's ordering did not) lost the last multiplier's pivot to cancellation at
 * t = 1.2e-9 at every h from 4e-11 to 1e-8 (singular three times on one step).  The finite
 * eigenvalues of the pencil and the rounding floor (mebdf_noise.c) do not change with a row
 * scaling.  Off until a singular matrix, so that no other run changes by a bit. */
static void scale_algebraic_rows(mebdf *s)
{
  mbdae_jacobian *jac = &s->jac;
  for (int i = 0; i < s->n; i++) {
    s->row_scale[i] = s->c;
  }
  for (int j = 0; j < s->n; j++) {
    for (size_t q = mbdae_jacobian_col_begin(jac, j); q < mbdae_jacobian_col_end(jac, j); q++) {
      if (jac->dfdyp[q] != 0.0) {
        s->row_scale[mbdae_jacobian_row(jac, j, q)] = 1.0;
      }
    }
  }
  for (int j = 0; j < s->n; j++) {
    for (size_t q = mbdae_jacobian_col_begin(jac, j); q < mbdae_jacobian_col_end(jac, j); q++) {
      jac->dfdy[q] *= s->row_scale[mbdae_jacobian_row(jac, j, q)];
    }
  }
}

/* A new Jacobian at (t, y, yp) when one is due, and the matrix refactored when due or when c has
 * moved out of the band: 0, a stage failure, or a negative fatal code. */
static int refresh_matrix(mebdf *s, double t, const double *y, const double *yp)
{
  int rc = 0;
  if (s->need_jac) {
    s->st->njac++;
    s->st->nres_fd += mbdae_problem_jac_nres(s->p);
    rc = mbdae_jacobian_eval(&s->jac, s->p, t, y, yp);
    s->need_jac = 0;
    s->jac_current = 1;
    if (rc == 0 && s->scale_rows) {
      scale_algebraic_rows(s);
    }
    if (rc == 0) {
      mbdae_jacobian_differential(&s->jac, s->differential);
      mebdf_eigen_update(s);
      rc = refactor(s);
      rc = rc == 0 && s->noise_binds ? mebdf_noise_update(s, y, yp) : rc;
    }
  } else if (s->c > C_BAND * s->c_lu || s->c * C_BAND < s->c_lu) {
    rc = refactor(s);
  }
  if (rc == MBDAE_ERR_SINGULAR) {
    s->need_jac = 1;
    return MEBDF_FAIL_SINGULAR;
  }
  if (rc > 0) {
    s->need_jac = 1;
    return MEBDF_FAIL_RESIDUAL;
  }
  return rc;
}

/* One stage: the phases' shared state for solvers/newton.h. */
typedef struct stage_solve {
  mebdf *s;
  double t;
  const double *psi;
  double *y, *yp;
  double oldnrm;
} stage_solve;

/* yp = c (y - psi), the stage's derivative at y.  The arrays are distinct and c a local: with
 * s->c read through s in the loop (a store to yp might change it) the loop was not vectorized;
 * with this and restrict in stage_update the pendulum at rtol 1e-7 takes 2.0% fewer instructions
 * (callgrind), the car axis 1.3%. */
static void stage_derivative(int n, double c, const double *restrict y, const double *restrict psi,
                             double *restrict yp)
{
  for (int i = 0; i < n; i++) {
    yp[i] = c * (y[i] - psi[i]);
  }
}

static inline int stage_residual(void *ctx)
{
  stage_solve *ss = ctx;
  mebdf *s = ss->s;
  stage_derivative(s->n, s->c, ss->y, ss->psi, ss->yp);
  return mbdae_residual_checked(s->p, ss->t, ss->y, ss->yp, s->delta, &s->st->nres);
}

static inline int stage_solve_delta(void *ctx)
{
  mebdf *s = ((stage_solve *)ctx)->s;
  if (s->c != s->c_lu) {
    double scale = 2.0 / (1.0 + s->c / s->c_lu);
    for (int i = 0; i < s->n; i++) {
      s->delta[i] *= scale;
    }
  }
  if (s->scale_rows) {
    for (int i = 0; i < s->n; i++) {
      s->delta[i] *= s->row_scale[i];
    }
  }
  int rc = mbdae_itmat_solve(&s->lu, s->delta);
  return rc < 0 ? rc : 0;
}

/* A correction that no longer contracts is rounding noise, not divergence, when it is already
 * within the Newton tolerance with the exact iteration matrix of this step (evaluated in it, at
 * the current c): in an index-3 system the constraint residual can be resolved only to the
 * rounding of the positions, which reaches the multipliers divided by h^2 (bdf's rule, see its
 * at_rounding_floor).  Without it the Andrews mechanism at rtol 1.33e-10 failed at t = 4e-10
 * with h cut to 2e-17. */
static int at_rounding_floor(const mebdf *s, double dnrm)
{
  return s->jac_current && s->c == s->c_lu && dnrm <= s->newton_tol;
}

static inline newton_outcome stage_update(void *ctx, int iter)
{
  stage_solve *ss = ctx;
  mebdf *s = ss->s;
  int m = iter - 1;
  double *restrict y = ss->y;
  const double *restrict delta = s->delta;
  for (int i = 0; i < s->n; i++) {
    y[i] -= delta[i];
  }
  double dnrm = mebdf_wnorm(s, s->delta);
  if (!isfinite(dnrm)) {
    return NEWTON_FAILED;
  }
  if (dnrm <= 100.0 * DBL_EPSILON) {
    return NEWTON_CONVERGED;
  }
  if (m == 0) {
    ss->oldnrm = dnrm;
  } else {
    double q = dnrm / ss->oldnrm; /* sqrt for m = 2: pow took 2-4% of a pendulum run */
    double rate = m == 1 ? q : m == 2 ? sqrt(q) : pow(q, 1.0 / (double)m);
    if (rate > RATE_FAIL) {
      return at_rounding_floor(s, dnrm) ? NEWTON_CONVERGED : NEWTON_FAILED;
    }
    s->conv_factor = rate / (1.0 - rate);
    if (rate > JAC_RATE) {
      s->need_jac = 1;
    }
  }
  double cf = s->conv_factor; /* fmax(cf, FIRST_FACTOR_MIN) at m = 0, without libm's call */
  if (m == 0 && !(cf > FIRST_FACTOR_MIN)) {
    cf = FIRST_FACTOR_MIN;
  }
  if (cf * dnrm <= s->newton_tol) {
    return NEWTON_CONVERGED;
  }
  return iter >= MAX_NEWTON_ITERS ? NEWTON_FAILED : NEWTON_CONTINUE;
}

static const newton_ops STAGE_NEWTON = {stage_residual, stage_solve_delta, NULL, stage_update};

/* Solve stage equation at t with psi from the predictor in y; yp = c (y - psi) at the solution. */
static int solve_stage(mebdf *s, double t, const double *psi, double *y, double *yp)
{
  stage_solve ss = {s, t, psi, y, yp, 0.0};
  newton_outcome outcome;
  int rc = newton_iterate(&STAGE_NEWTON, &ss, 0, &outcome);
  if (rc < 0) {
    return rc;
  }
  if (outcome == NEWTON_CONVERGED) {
    stage_derivative(s->n, s->c, y, psi, yp);
    return MEBDF_CONVERGED;
  }
  return outcome == NEWTON_UNDEFINED ? MEBDF_FAIL_RESIDUAL : MEBDF_FAIL_NEWTON;
}

/* The weights of psi = -sum_{j=1..k} coef_j x_j over the values x_j = y_{m+1-j} before the
 * stage's point, x_1 first: w[j-1] = -coef_j. */
static void known_weights(int k, const double *coef, double *w)
{
  for (int j = 1; j <= k; j++) {
    w[j - 1] = -coef[j];
  }
}

/* Stages 1 and 2 (BDF-k at t_{n+1} and t_{n+2}): the known part psi and the predictor from the
 * values y_n, y_{n-1}, ... (stage 2: ybar_{n+1}, y_n, ...) in one pass, stage 1's with stage 3's
 * history part psi3 (the same sums as a pass of its own; callgrind at rtol 1e-7: pendulum -2.3%,
 * car axis -1.9%, double pendulum -1.5%). */
static int bdf_stages(mebdf *s, double tnew)
{
  const mebdf_formula *f = &s->f[s->k];
  int k = s->k;
  double w[MEBDF_HIST], w3[MEBDF_HIST];
  known_weights(k, f->a, w);
  known_weights(k, f->ahat, w3);
  mebdf_history_combine3(&s->hist, w, k - 1, s->psi, f->pred, s->y1, w3, s->psi3);
  stage_derivative(s->n, s->c, s->y1, s->psi, s->yp1);
  int rc = refresh_matrix(s, tnew, s->y1, s->yp1);
  if (rc != 0) {
    return rc;
  }
  rc = solve_stage(s, tnew, s->psi, s->y1, s->yp1);
  if (rc != MEBDF_CONVERGED) {
    return rc;
  }
  mebdf_history_combine2(&s->hist, s->y1, w, k - 1, s->psi, f->pred, s->y2);
  return solve_stage(s, tnew + s->h, s->psi, s->y2, s->yp2);
}

/* Stage 3: the extended corrector at t_{n+1} from ybar_{n+1} (its history part psi3 from
 * bdf_stages). */
static int corrector_stage(mebdf *s, double tnew)
{
  const mebdf_formula *f = &s->f[s->k];
  double h = s->h, c1 = h * (f->bhat - f->beta), c2 = h * f->bhat1;
  for (int i = 0; i < s->n; i++) {
    s->psi3[i] += c1 * s->yp1[i] + c2 * s->yp2[i];
  }
  memcpy(s->y, s->y1, sizeof(double) * (size_t)s->n);
  return solve_stage(s, tnew, s->psi3, s->y, s->yp);
}

int mebdf_stages(mebdf *s, double tnew)
{
  for (;;) {
    int rc = bdf_stages(s, tnew);
    if (rc == MEBDF_CONVERGED) {
      rc = corrector_stage(s, tnew);
    }
    if (rc == MEBDF_CONVERGED || rc < 0 || s->jac_current || rc == MEBDF_FAIL_SINGULAR) {
      return rc;
    }
    s->need_jac = 1; /* an old Jacobian may be the cause: once more with a fresh one */
  }
}
