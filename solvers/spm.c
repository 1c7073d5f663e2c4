/* The symmetric projection method (SPM) of Hafner & Poell (2015), Table 1: the built-in solver
 * "spm", for the index-1 form of a constrained mechanical problem (form=index1, as the paper runs
 * it).
 *
 * Algorithm (E. Hairer, Symmetric projection methods for differential equations on manifolds,
 * BIT 40 (2000) 726-734; Hairer, Lubich & Wanner, Geometric Numerical Integration, 2nd ed., V.4.1):
 * from y_n on the manifold,
 *   y~_n = y_n + N(y_n) mu,   y~_{n+1} = Phi_h(y~_n),   y_{n+1} = y~_{n+1} + N(y_{n+1}) mu,
 * mu chosen so that y_{n+1} lies on the manifold: g(q) = 0 and G(q) v + g_t = 0.  The directions
 * N are those of the orthogonal projector (solvers/projection.c): positions move along G(q)^T,
 * velocities along G(q)^T, each with its own multiplier (mu has 2 nc entries).  The step is
 * symmetric whenever Phi_h is, since N is taken at both ends alike.  mu is found by simplified
 * Newton iterations with Phi_h' ~ I, i.e. the matrix 2 G G^T at y_n for each level, N(y_{n+1})
 * taken at the previous iterate, until y_{n+1} moves by rounding only.
 *
 * Base method Phi_h: the 2-stage Gauss method (order 4, symmetric; GNI II.1.3) on the ODE the
 * index-1 form defines, y'_d = f(t, y_d), y_d the differential components (q, v): f solves
 * F(t, y, y') = 0 for y'_d and the algebraic components (the multipliers) by Newton's method with
 * the matrix [dF/dy'_d | dF/dy_a] of mbdae_problem_jac (linear in them for mechanical systems:
 * the second iteration only confirms).  Gauss rather than the implicit midpoint rule: order 4
 * reaches rtol 1e-6 on the pendulum with a step of about 0.02 instead of 1e-3.  The stages are
 * solved by fixed-point iteration to rounding level (GNI VIII.6: the problems are not stiff).
 *
 * Step size: constant, so that the method stays symmetric (a variable step would need a
 * reversible controller, GNI VIII.3).  It is chosen once at t0 from rtol and atol: a Richardson
 * estimate of the local error of Phi_h (one step h against two of h/2), repeated from the trial
 * step opt->h0 (0: 1e-3 of the interval) until h agrees with sc = atol + rtol |y| to a factor 2,
 * and again at the states of a short unprojected pilot run (the smallest h is taken); then the
 * interval is divided into equal steps, none longer than hmax (so hmax with a loose rtol fixes the
 * step).  A step whose iterations fail is retried with half the step, which is kept. Continuous
 * output: cubic Hermite on y_d, linear in the multipliers; y' of the multipliers is their
 * difference quotient over the step.  Counters: nres, njac and nlu of the index-1 solves (one
 * factorization each); the constraints evaluated by the projection are not residuals. Dense linear
 * algebra (mbdae_small_lu_*): problems of at most SPM_MAX_NEQ equations. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "driver.h"
#include "fail.h"
#include "projection.h"
#include "session.h"
#include "smalldense.h"
#include "solver_caps.h"
#include "weights.h"

enum {
  SPM_MAX_NEQ = 200,          /* dense solves: larger problems are refused */
  STAGES = 2,                 /* Gauss stages */
  STAGE_ITERATIONS = 60,      /* fixed-point iterations of the stages at most */
  PROJECTION_ITERATIONS = 30, /* simplified Newton iterations for mu at most */
  INDEX1_ITERATIONS = 6,      /* Newton iterations for (y'_d, lambda) at most */
  STEP_ESTIMATES = 12,        /* Richardson estimates of the step at most */
  PILOT_STEPS = 32,           /* unprojected steps whose states the step is also chosen at */
  REJECTIONS_MAX = 20         /* consecutive halvings before giving up */
};
/* An iteration has converged when nothing moves by more than CONVERGED_ULPS units of rounding of
 * its size, or when the largest move is below ROUNDING_ULPS and no longer halves (what is left is
 * rounding; the same rule as the orthogonal projector's). */
static const double CONVERGED_ULPS = 4.0;
static const double ROUNDING_ULPS = 64.0;

/* The 2-stage Gauss method: c = 1/2 -+ sqrt(3)/6, b = 1/2, 1/2 (GNI Table II.1.1). */
#define SQRT3_6 0.28867513459481288225
static const double GAUSS_A[STAGES][STAGES] = {{0.25, 0.25 - SQRT3_6}, {0.25 + SQRT3_6, 0.25}};
static const double GAUSS_B[STAGES] = {0.5, 0.5};
static const double GAUSS_C[STAGES] = {0.5 - SQRT3_6, 0.5 + SQRT3_6};
static const int GAUSS_ORDER = 4;

typedef struct spm {
  const mbdae_problem *p;
  mbdae_projector *pr;
  mbdae_stats *st;
  int n, nc;            /* equations, constraints per level */
  int npos, nvel;       /* positions and velocities */
  const int *pos, *vel; /* their indices (the projector's) */
  int *alg;             /* n: 1 for an algebraic component (its column of dF/dy' is zero) */
  int *ipiv, *ipiv_pos, *ipiv_vel; /* n, nc, nc pivots */
  double h;                        /* the constant step */
  double t_old, t_new;             /* the last accepted step */
  double *y, *yp;                  /* the state: the caller's arrays */
  double *y_old, *yp_old;          /* n each: the state at t_old, for the continuous output */
  double *dfdy, *dfdyp, *az;       /* n x n: the Jacobian and the index-1 matrix, then its LU */
  double *res;                     /* n */
  double *ytilde, *ynew, *yprev, *ypnew, *yhalf; /* n each */
  double *stage_y, *k, *knew; /* STAGES x n: stage values, their derivatives, the next iterate */
  double *gpos_n, *gvel_n;    /* nc x npos, nc x nvel: gradients at y_n */
  double *gpos, *gvel;        /* the same at the last iterate of y_{n+1} */
  double *apos, *avel;        /* nc x nc: 2 G G^T at y_n, then their LU */
  double *mu, *c; /* 2 nc: multipliers (positions, then velocities), constraint values */
} spm;

/* ---- the index-1 system: y'_d and the multipliers from y_d ---- */

static double ulps(double moved, double size) { return moved / (DBL_EPSILON * fmax(size, 1.0)); }

/* [dF/dy'_d | dF/dy_a] at (t, y, y'), factored. */
static int index1_matrix(spm *s, double t, const double *y, const double *yp)
{
  size_t n = (size_t)s->n;
  s->st->njac++;
  int rc = mbdae_problem_jac(s->p, t, y, yp, s->dfdy, s->dfdyp);
  for (size_t j = 0; j < n && rc == 0; j++) {
    memcpy(s->az + j * n, (s->alg[j] ? s->dfdy : s->dfdyp) + j * n, sizeof(double) * n);
  }
  if (rc != 0) {
    return rc;
  }
  s->st->nlu++;
  return mbdae_small_lu_factor(s->n, s->az, s->ipiv);
}

/* Solve F(t, y, y') = 0 for y'_d (in yp) and y_a (in y), from the values there. */
static int solve_index1(spm *s, double t, double *y, double *yp)
{
  int rc = index1_matrix(s, t, y, yp);
  double previous = INFINITY;
  for (int it = 0; it < INDEX1_ITERATIONS && rc == 0; it++) {
    rc = mbdae_residual_checked(s->p, t, y, yp, s->res, &s->st->nres);
    rc = rc == 0 ? mbdae_small_lu_solve(s->n, s->az, s->ipiv, s->res) : rc;
    double moved = 0.0, size = 0.0;
    for (int j = 0; j < s->n && rc == 0; j++) {
      double *z = s->alg[j] ? &y[j] : &yp[j];
      *z -= s->res[j];
      moved = fmax(moved, fabs(s->res[j]));
      size = fmax(size, fabs(*z));
    }
    double u = ulps(moved, size); /* norm-wise: the solve's rounding is relative to the largest */
    if (rc == 0 && (u <= CONVERGED_ULPS || (u > 0.5 * previous && u <= ROUNDING_ULPS))) {
      return 0;
    }
    previous = u;
  }
  return rc != 0 ? rc : MBDAE_ERR_CONV;
}

/* ---- the base method ---- */

/* The stage values y~ + h sum_l a_il k_l over the differential components (the algebraic ones
 * keep their last values: the start of the index-1 solve). */
static void stage_values(spm *s, double h, const double *ytilde)
{
  size_t n = (size_t)s->n;
  for (int i = 0; i < STAGES; i++) {
    double *yi = s->stage_y + (size_t)i * n;
    for (size_t j = 0; j < n; j++) {
      double sum = 0.0;
      for (int l = 0; l < STAGES; l++) {
        sum += GAUSS_A[i][l] * s->k[(size_t)l * n + j];
      }
      yi[j] = s->alg[j] ? yi[j] : ytilde[j] + h * sum;
    }
  }
}

/* Phi_h: the Gauss step from (t, ytilde) into ynew, from the stage derivatives in s->k. */
static int gauss_step(spm *s, double t, double h, const double *ytilde, double *ynew)
{
  size_t n = (size_t)s->n, all = (size_t)STAGES * n;
  double previous = INFINITY;
  for (int it = 0; it < STAGE_ITERATIONS; it++) {
    stage_values(s, h, ytilde);
    memcpy(s->knew, s->k, sizeof(double) * all);
    double moved = 0.0;
    for (int i = 0; i < STAGES; i++) {
      double *yi = s->stage_y + (size_t)i * n, *ki = s->knew + (size_t)i * n;
      int rc = solve_index1(s, t + GAUSS_C[i] * h, yi, ki);
      if (rc != 0) {
        return rc;
      }
      for (size_t j = 0; j < n; j++) {
        double d = s->alg[j] ? 0.0 : h * (ki[j] - s->k[(size_t)i * n + j]);
        moved = fmax(moved, ulps(fabs(d), fabs(ytilde[j])));
      }
    }
    memcpy(s->k, s->knew, sizeof(double) * all);
    if (moved <= CONVERGED_ULPS || (moved > 0.5 * previous && moved <= ROUNDING_ULPS)) {
      for (size_t j = 0; j < n; j++) {
        ynew[j] =
            ytilde[j] + (s->alg[j] ? 0.0 : h * (GAUSS_B[0] * s->k[j] + GAUSS_B[1] * s->k[n + j]));
      }
      return 0;
    }
    previous = moved;
  }
  return MBDAE_ERR_CONV;
}

/* The start of the stage iteration from the state (y, y'): k_i = y'_n, the multipliers of y. */
static void stage_start(spm *s, const double *y, const double *yp)
{
  size_t n = (size_t)s->n;
  for (int i = 0; i < STAGES; i++) {
    memcpy(s->k + (size_t)i * n, yp, sizeof(double) * n);
    memcpy(s->stage_y + (size_t)i * n, y, sizeof(double) * n);
  }
}

/* ---- the projection ---- */

/* Both levels' gradients at (t, y): into gpos (nc x npos) and gvel (nc x nvel). */
static int gradients(spm *s, double t, const double *y, const double *yp, double *gpos,
                     double *gvel)
{
  int rc = mbdae_projector_gradient(s->pr, 0, t, y, yp, gpos);
  return rc == 0 ? mbdae_projector_gradient(s->pr, 1, t, y, yp, gvel) : rc;
}

/* a = 2 G G^T (G: nc x m), factored: the simplified Newton matrix of one level. */
static int gram_factor(int nc, int m, const double *g, double *a, int *ipiv)
{
  for (int r = 0; r < nc; r++) {
    for (int c = 0; c < nc; c++) {
      double sum = 0.0;
      for (int k = 0; k < m; k++) {
        sum += MBDAE_AT(g, nc, r, k) * MBDAE_AT(g, nc, c, k);
      }
      MBDAE_AT(a, nc, r, c) = 2.0 * sum;
    }
  }
  return mbdae_small_lu_factor(nc, a, ipiv);
}

/* y[idx] += G^T mu over one level's components (G: nc x m). */
static void add_normal(double *y, const int *idx, int m, int nc, const double *g, const double *mu)
{
  for (int k = 0; k < m; k++) {
    double d = 0.0;
    for (int r = 0; r < nc; r++) {
      d += MBDAE_AT(g, nc, r, k) * mu[r];
    }
    y[idx[k]] += d;
  }
}

/* y + N mu with N's gradients gp, gv, into out. */
static void move_along(const spm *s, const double *y, const double *gp, const double *gv,
                       double *out)
{
  memcpy(out, y, sizeof(double) * (size_t)s->n);
  add_normal(out, s->pos, s->npos, s->nc, gp, s->mu);
  add_normal(out, s->vel, s->nvel, s->nc, gv, s->mu + s->nc);
}

/* mu -= (2 G G^T)^{-1} c(ynew), level by level. */
static int update_mu(spm *s, double t, const double *ynew)
{
  int nc = s->nc;
  int rc = mbdae_problem_constraints(s->p, t, ynew, s->ypnew, s->c, s->c + nc, NULL);
  rc = rc == 0 ? mbdae_small_lu_solve(nc, s->apos, s->ipiv_pos, s->c) : rc;
  rc = rc == 0 ? mbdae_small_lu_solve(nc, s->avel, s->ipiv_vel, s->c + nc) : rc;
  for (int k = 0; k < 2 * nc && rc == 0; k++) {
    s->mu[k] -= s->c[k];
  }
  return rc;
}

/* The symmetric projection step [t, tnew] from s->y into s->ynew. */
static int symmetric_step(spm *s, double t, double h, double tnew)
{
  size_t n = (size_t)s->n;
  int rc = gradients(s, t, s->y, s->yp, s->gpos_n, s->gvel_n);
  rc = rc == 0 ? gram_factor(s->nc, s->npos, s->gpos_n, s->apos, s->ipiv_pos) : rc;
  rc = rc == 0 ? gram_factor(s->nc, s->nvel, s->gvel_n, s->avel, s->ipiv_vel) : rc;
  memset(s->mu, 0, sizeof(double) * 2 * (size_t)s->nc);
  memcpy(s->ypnew, s->yp, sizeof(double) * n);
  stage_start(s, s->y, s->yp);
  double previous = INFINITY;
  for (int it = 0; it < PROJECTION_ITERATIONS && rc == 0; it++) {
    move_along(s, s->y, s->gpos_n, s->gvel_n, s->ytilde);
    rc = gauss_step(s, t, h, s->ytilde, s->ynew);
    if (rc == 0 && it > 0) { /* N(y_{n+1}) at the last iterate (mu = 0 before) */
      rc = gradients(s, tnew, s->yprev, s->ypnew, s->gpos, s->gvel);
      memcpy(s->ytilde, s->ynew, sizeof(double) * n);
      move_along(s, s->ytilde, s->gpos, s->gvel, s->ynew);
    }
    double moved = 0.0;
    for (size_t j = 0; j < n && it > 0; j++) {
      moved =
          s->alg[j] ? moved : fmax(moved, ulps(fabs(s->ynew[j] - s->yprev[j]), fabs(s->ynew[j])));
    }
    memcpy(s->yprev, s->ynew, sizeof(double) * n);
    if (rc == 0 && it > 0 &&
        (moved <= CONVERGED_ULPS || (moved > 0.5 * previous && moved <= ROUNDING_ULPS))) {
      return 0;
    }
    previous = it > 0 ? moved : INFINITY;
    rc = rc == 0 ? update_mu(s, tnew, s->ynew) : rc;
  }
  return rc != 0 ? rc : MBDAE_ERR_CONV;
}

/* ---- the step and its continuous output ---- */

/* The accepted step's end state: the multipliers and y' at ynew, then the state moves there. */
static int accept(spm *s, double t, double h, double tnew)
{
  size_t n = (size_t)s->n;
  const double *last_stage = s->stage_y + (size_t)(STAGES - 1) * n;
  for (size_t j = 0; j < n; j++) {
    s->ynew[j] = s->alg[j] ? last_stage[j] : s->ynew[j];
    s->ypnew[j] = s->k[(size_t)(STAGES - 1) * n + j];
  }
  int rc = solve_index1(s, tnew, s->ynew, s->ypnew);
  if (rc != 0) {
    return rc;
  }
  for (size_t j = 0; j < n; j++) {
    s->ypnew[j] = s->alg[j] ? (s->ynew[j] - s->y[j]) / h : s->ypnew[j];
  }
  memcpy(s->y_old, s->y, sizeof(double) * n);
  memcpy(s->yp_old, s->yp, sizeof(double) * n);
  memcpy(s->y, s->ynew, sizeof(double) * n);
  memcpy(s->yp, s->ypnew, sizeof(double) * n);
  s->t_old = t;
  s->t_new = tnew;
  return 0;
}

static void spm_attempt(void *m, double t, double h, double tnew, driver_report *rep)
{
  spm *s = m;
  int rc = symmetric_step(s, t, tnew - t, tnew);
  rc = rc == 0 ? accept(s, t, tnew - t, tnew) : rc;
  if (rc == 0) {
    rep->outcome = DRIVER_ACCEPTED;
    rep->hnew = s->h;
    rep->order = GAUSS_ORDER;
    return;
  }
  int retry = rc > 0 || rc == MBDAE_ERR_CONV || rc == MBDAE_ERR_SINGULAR;
  if (!retry) {
    rep->outcome = DRIVER_FAILED;
    mbdae_driver_give_up(rep, rc, "%s", mbdae_strerror(rc));
    return;
  }
  rep->outcome = DRIVER_REJECTED_CONV;
  s->h = 0.5 * h;
  rep->hnew = s->h;
  if (s->st->nconvfail + 1 >= REJECTIONS_MAX) {
    mbdae_driver_give_up(rep, MBDAE_ERR_CONV,
                         "the projection or the stages failed %d times (the step halved each "
                         "time): %s",
                         REJECTIONS_MAX, mbdae_strerror(rc));
  }
}

/* Cubic Hermite in the differential components, linear in the multipliers. */
static void spm_interpolate(const void *m, double t, double *yout)
{
  const spm *s = m;
  double h = s->t_new - s->t_old;
  double th = (t - s->t_old) / h, u = 1.0 - th;
  for (int j = 0; j < s->n; j++) {
    double y0 = s->y_old[j], y1 = s->y[j];
    yout[j] = s->alg[j] ? u * y0 + th * y1
                        : (1.0 + 2.0 * th) * u * u * y0 + th * u * u * h * s->yp_old[j] +
                              th * th * (3.0 - 2.0 * th) * y1 - th * th * u * h * s->yp[j];
  }
}

/* ---- the constant step ---- */

/* The local error of Phi_h from (t, y, y'), by Richardson: |Phi_h - Phi_h/2 o Phi_h/2| / (1 -
 * 2^-4), in the norm max_j |e_j| / (atol + rtol |y_j|) over the differential components. */
static int local_error(spm *s, const mbdae_options *opt, double t, const double *y,
                       const double *yp, double h, double *err)
{
  size_t n = (size_t)s->n;
  stage_start(s, y, yp);
  int rc = gauss_step(s, t, h, y, s->ynew);
  stage_start(s, y, yp);
  rc = rc == 0 ? gauss_step(s, t, 0.5 * h, y, s->yhalf) : rc;
  rc = rc == 0 ? gauss_step(s, t + 0.5 * h, 0.5 * h, s->yhalf, s->yprev) : rc;
  *err = 0.0;
  for (size_t j = 0; j < n && rc == 0; j++) {
    double sc = opt->atol + opt->rtol * fmax(fabs(y[j]), fabs(s->yprev[j]));
    *err = s->alg[j] ? *err : fmax(*err, fabs(s->ynew[j] - s->yprev[j]) / (sc * (15.0 / 16.0)));
  }
  return rc;
}

/* The step the local error allows at (t, y, y'), from the trial step h (iterated until it
 * settles, no longer than longest, nor than half a step the stage iteration failed at). */
static int step_at(spm *s, const mbdae_options *opt, double t, const double *y, const double *yp,
                   double longest, double *h)
{
  int rc = 0, found = 0;
  double ceiling = longest;
  for (int k = 0; k < STEP_ESTIMATES; k++) {
    double err = 0.0;
    rc = local_error(s, opt, t, y, yp, *h, &err);
    if (rc != 0) {
      ceiling = 0.5 * *h; /* too long for the stage iteration */
      *h *= 0.25;
      continue;
    }
    found = 1;
    double factor = err > 0.0 ? 0.9 * pow(err, -1.0 / (GAUSS_ORDER + 1)) : 100.0;
    double next = fmin(*h * fmin(100.0, fmax(0.01, factor)), ceiling);
    int settled = next > 0.5 * *h && next < 2.0 * *h;
    *h = next;
    if (settled || next == ceiling) {
      break;
    }
  }
  return found ? 0 : rc;
}

/* The constant step (see the file's comment): the smallest step_at over t0 and the states of a
 * pilot run of PILOT_STEPS unprojected steps (a start at rest understates the error: the double
 * pendulum's step from t0 alone was 3 times too long), then the interval in equal steps. */
static int choose_step(spm *s, const mbdae_options *opt, double t0, double tend, double *h_out)
{
  size_t n = (size_t)s->n;
  double longest = opt->hmax > 0.0 ? fmin(opt->hmax, tend - t0) : tend - t0;
  double h = fmin(opt->h0 > 0.0 ? opt->h0 : 1e-3 * (tend - t0), longest);
  int rc = step_at(s, opt, t0, s->y, s->yp, longest, &h);
  double *y = s->y_old, *yp = s->yp_old, t = t0, pilot = h; /* unused before the first step */
  memcpy(y, s->y, sizeof(double) * n);
  memcpy(yp, s->yp, sizeof(double) * n);
  /* a failure of the pilot run ends it: the run itself halves a step that fails */
  int pilot_rc = rc;
  for (int k = 0; k < PILOT_STEPS && pilot_rc == 0 && t + pilot < tend; k++) {
    stage_start(s, y, yp);
    pilot_rc = gauss_step(s, t, pilot, y, s->ytilde);
    memcpy(y, s->ytilde, sizeof(double) * n);
    t += pilot;
    pilot_rc = pilot_rc == 0 ? solve_index1(s, t, y, yp) : pilot_rc;
    double here = h;
    pilot_rc = pilot_rc == 0 ? step_at(s, opt, t, y, yp, longest, &here) : pilot_rc;
    h = pilot_rc == 0 ? fmin(h, here) : h;
  }
  size_t steps = (size_t)ceil((tend - t0) / h * (1.0 - 1e-12));
  *h_out = (tend - t0) / (double)(steps > 0 ? steps : 1);
  return rc;
}

/* ---- setting up a run ---- */

/* The work arrays of a run, in one block after the struct (n equations, nc constraints). */
static spm *spm_allocate(int n, int nc)
{
  size_t nn = (size_t)n, c = (size_t)nc, stages = (size_t)STAGES * nn;
  size_t doubles = 3 * nn * nn + 8 * nn + 3 * stages + 4 * c * nn + 2 * c * c + 4 * c;
  size_t ints = 2 * nn + 2 * c;
  spm *s = calloc(1, sizeof *s + sizeof(double) * doubles + sizeof(int) * ints);
  if (!s) {
    return NULL;
  }
  double *d = (double *)(s + 1);
  double **square[] = {&s->dfdy, &s->dfdyp, &s->az};
  for (size_t k = 0; k < sizeof square / sizeof square[0]; k++, d += nn * nn) {
    *square[k] = d;
  }
  double **vec[] = {&s->y_old, &s->yp_old, &s->res,   &s->ytilde,
                    &s->ynew,  &s->yprev,  &s->ypnew, &s->yhalf};
  for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++, d += nn) {
    *vec[k] = d;
  }
  double **stage[] = {&s->stage_y, &s->k, &s->knew};
  for (size_t k = 0; k < sizeof stage / sizeof stage[0]; k++, d += stages) {
    *stage[k] = d;
  }
  double **grad[] = {&s->gpos_n, &s->gvel_n, &s->gpos, &s->gvel};
  for (size_t k = 0; k < sizeof grad / sizeof grad[0]; k++, d += c * nn) {
    *grad[k] = d;
  }
  s->apos = d;
  s->avel = d + c * c;
  s->mu = d + 2 * c * c;
  s->c = s->mu + 2 * c;
  int *i = (int *)(s->c + 2 * c);
  s->alg = i;
  s->ipiv = i + nn;
  s->ipiv_pos = i + 2 * nn;
  s->ipiv_vel = s->ipiv_pos + c;
  s->n = n;
  s->nc = nc;
  return s;
}

/* Why spm cannot run p (a static part; the caller adds the problem), or NULL. */
static const char *unsupported(const mbdae_problem *p)
{
  if (mbdae_problem_neq(p) > SPM_MAX_NEQ) {
    return "more than 200 equations (spm solves its linear systems dense)";
  }
  const int *index = mbdae_problem_index(p);
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    if (index[i] > 1) {
      return "a component of index 2 or 3: spm integrates the index-1 form (form=index1)";
    }
  }
  return NULL;
}

/* The algebraic components (a zero column of dF/dy'), the projector's positions and velocities
 * (differential, or spm cannot move them), and y' and the multipliers made consistent at t0. */
static int classify(spm *s, double t0, char *why, size_t len)
{
  s->npos = mbdae_projector_components(s->pr, 0, &s->pos);
  s->nvel = mbdae_projector_components(s->pr, 1, &s->vel);
  int rc = mbdae_problem_jac(s->p, t0, s->y, s->yp, s->dfdy, s->dfdyp);
  if (rc != 0) {
    snprintf(why, len, "the Jacobian at t0 failed: %s", mbdae_strerror(rc));
    return rc;
  }
  mbdae_differential_mask(s->n, s->dfdyp, s->alg);
  for (int j = 0; j < s->n; j++) {
    s->alg[j] = !s->alg[j];
  }
  for (int k = 0; k < s->npos + s->nvel; k++) {
    if (s->alg[k < s->npos ? s->pos[k] : s->vel[k - s->npos]]) {
      snprintf(why, len, "a position or velocity is algebraic (no derivative in F)");
      return MBDAE_ERR_UNSUPPORTED;
    }
  }
  rc = solve_index1(s, t0, s->y, s->yp);
  if (rc != 0) {
    snprintf(why, len,
             "F = 0 cannot be solved for y' and the multipliers (%s): not an index-1 "
             "form",
             mbdae_strerror(rc));
  }
  return rc == 0 ? 0 : MBDAE_ERR_UNSUPPORTED;
}

/* The run's state, or NULL after a failure recorded in r. */
static spm *spm_create(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                       double *yp, mbdae_result *r)
{
  const char *refused = unsupported(p);
  mbdae_projector *pr = NULL;
  char why[240] = "";
  int rc = refused ? MBDAE_ERR_UNSUPPORTED : mbdae_projector_create(p, &pr, why, sizeof why);
  spm *s = rc == 0 ? spm_allocate(mbdae_problem_neq(p), mbdae_problem_nconstraints(p)) : NULL;
  if (rc == 0 && !s) {
    rc = MBDAE_ERR_NOMEM;
    snprintf(why, sizeof why, "out of memory");
  }
  if (s) {
    s->p = p;
    s->pr = pr;
    s->st = &r->stats;
    s->y = y;
    s->yp = yp;
    rc = classify(s, t0, why, sizeof why);
    rc = rc == 0 ? choose_step(s, opt, t0, mbdae_problem_tend(p), &s->h) : rc;
    if (rc != 0 && !why[0]) {
      snprintf(why, sizeof why, "no step size found at t0: %s", mbdae_strerror(rc));
    }
  }
  if (rc != 0) {
    mbdae_fail(r, rc, t0, 0.0, "spm cannot run %s: %s", mbdae_problem_spec(p),
               refused ? refused : why);
    free(s);
    mbdae_projector_destroy(pr);
    return NULL;
  }
  return s;
}

/* The session's release of a run's state. */
static void spm_release(void *m)
{
  spm *s = m;
  mbdae_projector_destroy(s->pr);
  free(s);
}

/* constant steps: the last one ends at tend even when the sum of the steps rounds short */
static const driver_end_rule SPM_END = {1.0 + 1e-9, 1, 0.0, 0};
static const driver_method SPM_METHOD = {NULL, spm_attempt, NULL, spm_interpolate, NULL};

static int spm_open(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                    double *yp, mbdae_result *r, void **session)
{
  if (opt->project) {
    return mbdae_fail(r, MBDAE_ERR_UNSUPPORTED, t0, 0.0,
                      "spm projects by itself: no options.project");
  }
  spm *s = spm_create(p, opt, t0, y, yp, r);
  driver_session *ds =
      mbdae_session_open(&SPM_METHOD, s, spm_release, p, opt, t0, &SPM_END, y, yp, r);
  if (!ds) {
    return r->status;
  }
  return mbdae_session_begin(ds, mbdae_driver_first_step(&ds->d, s->h), session);
}

/* It accepts every options.linsys and solves its small systems dense; it projects by itself and
 * refuses options.project; one real factorization per event. */
static const mbdae_solver_caps CAPS = {
    .size = sizeof(mbdae_solver_caps),
    .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_BAND) |
              MBDAE_LINSYS_BIT(MBDAE_JAC_SPARSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_CONDENSED),
    .condenses = 0,
    .projects = 0,
    .steps = 1,
    .dense_output = 1,
    .lu_real = 1,
    .lu_complex = 0,
};

const mbdae_stepper mbdae_stepper_spm = MBDAE_SESSION_STEPPER(spm_open);

MBDAE_STEPPER_INTEGRATE(spm_integrate, mbdae_stepper_spm)

const mbdae_solver_type mbdae_solver_spm = {
    sizeof(mbdae_solver_type),
    "spm",
    "SPM: symmetric projection (Hairer 2000) around the 2-stage Gauss method, constant step",
    spm_integrate,
    "form=index1 of a mechanical problem (every variable of index 0 or 1, "
    "constraints), at most 200 equations",
    &CAPS};
