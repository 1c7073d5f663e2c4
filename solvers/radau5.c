/* radau5: the 3-stage Radau IIA method (order 5, stage order 3) for fully implicit DAEs
 * F(t, y, y') = 0, with the simplified Newton iteration, step-size control and continuous output
 * of RADAU5.  Sources: E. Hairer, G. Wanner, Solving Ordinary Differential Equations II, 2nd ed.
 * (Springer 1996), Sections IV.5 (the method), IV.8 (implementation of implicit Runge-Kutta
 * methods) and VII.4 (Radau IIA for DAEs of index 2 and 3); E. Hairer, C. Lubich, M. Roche,
 * LNM 1409 (1989); the documentation of the RADAU5 code (tolerances, index scaling, defaults).
 *
 * Method.  c = ((4 - sqrt6)/10, (4 + sqrt6)/10, 1), A the collocation matrix (a_ij = integral
 * over [0, c_i] of the j-th Lagrange polynomial on c).  The unknowns of a step from t_n are the
 * stage increments Z_i = Y_i - y_n; the stage derivatives are W = (A^{-1} (x) I) Z / h, and the
 * step solves
 *
 *   G_i(Z) = F(t_n + c_i h, y_n + Z_i, W_i) = 0,   i = 1, 2, 3;   y_{n+1} = y_n + Z_3,
 *   y'_{n+1} = W_3   (c_3 = 1: the last stage is the end point).
 *
 * For F = M y' - f(t, y) this is exactly RADAU5 applied to M y' = f, so the test set's RADAU
 * figures are the yardstick; the form needs no mass matrix and serves every formulation.
 *
 * Simplified Newton.  With J = dF/dy and M = dF/dy' frozen at an earlier accepted point,
 * dG_i/dZ_j ~ M (A^{-1})_ij / h + J delta_ij, i.e. the 3n x 3n matrix (A^{-1}/h) (x) M + I (x) J.
 * The eigen-decomposition T^{-1} A^{-1} T = [gamma 0 0; 0 alpha -beta; 0 beta alpha] and the
 * change of unknowns Z = (T (x) I) V split it into one real and one complex n x n system
 * (HW IV.8; for M y' = f the matrices are RADAU5's, since there J = -df/dy):
 *
 *   E1 dV_1 = -(T^{-1} G)_1,                                 E1 = (gamma/h) M + J,
 *   E2 (dV_2 + i dV_3) = -((T^{-1} G)_2 + i (T^{-1} G)_3),   E2 = ((alpha + i beta)/h) M + J,
 *
 * factored through the linear-system layer (solvers/linsys.h) in the storage of
 * mbdae_options.linsys (dense, band or sparse, from the Jacobian store solvers/jacobian.h).  The
 * convergence rate theta, the stopping test faccon ||dV|| <= fnewt, the step reduction when
 * divergence is predicted, the Jacobian reuse while theta <= 0.001 and the factorization reuse
 * while 1 <= h_new/h <= 1.2 are those of RADAU5.  One addition: in runs of many steps the Newton
 * error of the differential components (those whose derivative enters F) is held to a total budget
 * (set_weights, newton), because RADAU5's test, with the index-scaled weights, lets the velocity
 * errors of an index-3 mechanical system add up like T^2/h^2 (the pendulum over 100 s stalls at scd
 * 3 for any tolerance). Starting values: the collocation polynomial of the previous step,
 * extrapolated; before the first accepted step the linear Taylor polynomial Z_i = c_i h y'_0
 * (RADAU5 starts from Z = 0).
 *
 * Error estimate for F(t, y, y') = 0.  The embedded method of HW IV.8 has the weight
 * b^_0 = gamma_0 = 1/gamma on y'_n and order 3; with e = A^{-T} (b^ - b) its raw estimate is
 *
 *   delta = gamma_0 h y'_n + sum_i e_i Z_i.
 *
 * Unfiltered, delta is useless for stiff and algebraic components; for M y' = f RADAU5 uses
 * err = (M - h gamma_0 df/dy)^{-1} M delta (HW IV.8 and VI.6): one linearized solve of the
 * embedded formula made implicit by a term gamma_0 h y'_{n+1}.  For F(t, y, y') = 0 a change u of
 * y_{n+1} with u' = u / (h gamma_0) changes F by (M / (h gamma_0) + J) u, so the same solve has the
 * matrix M + h gamma_0 J, and the filter is (M + h gamma_0 J)^{-1} M.  As M + h gamma_0 J =
 * h gamma_0 E1, the factored real iteration matrix serves:
 *
 *   err = E1^{-1} M (y'_n + sum_i (d_i / h) Z_i),   d = e / gamma_0
 *       = (-(13 + 7 sqrt6)/3, (-13 + 7 sqrt6)/3, -1/3),
 *
 * for F = M y' - f identical to RADAU5's E1^{-1} (f(t_n, y_n) + M sum (d_i/h) Z_i), because
 * f(t_n, y_n) = M y'_n.  On the first step and after a rejection an estimate >= 1 is refined
 * once, as RADAU5 does: err~ = E1^{-1} (M (y'_n + sum (d_i/h) Z_i) - F(t_n, y_n + err, y'_n)), the
 * implicit-form counterpart of f(t_n, y_n + err) + M sum (d_i/h) Z_i.  No residual at (t_n, y_n)
 * is needed: y'_n is the last stage derivative W_3 of the previous step (RADAU5 spends one
 * evaluation of f per step on it).
 *
 * Norms and tolerances.  err and the Newton increments are measured in the RMS norm weighted by
 * sc_i = atol' + rtol' |y_{n,i}|, rtol' = 0.08 rtol^(2/3), atol' = rtol' atol / rtol (RADAU5's
 * transformation with 0.08 for 0.1: the estimate is O(h^4), the global error O(h^5)); components
 * of index 2 have sc_i / h, those of index 3 sc_i / h^2 (mbdae_problem_index), as RADAU5 does for
 * DAEs up to index 3.  New step size: h_new = h / quot, quot = clamp(err^(1/4) / fac, 1/8, 5),
 * fac = min(0.9, 0.9 (1 + 2 nit) / (newt + 2 nit)), after an accepted step the predictive
 * controller of Gustafsson (HW IV.8), all as in RADAU5.  Two additions: h_new is capped so that
 * the predicted Newton contraction theta (h_new/h)^2 stays below 0.5, and when two steps remain
 * they are made equal (RADAU5 may leave a short last step, whose index-3 components are poor).
 * The end-point rule (END_RULE, applied by the shared driver, solvers/driver.h) sets every new h,
 * after rejections too; RADAU5 applies it only
 * after accepted steps, so a rejected attempt at the last step is followed there by a step of the
 * reduced size and a short remainder.  Measured on the slider crank near rtol 1e-4 (25 tolerances
 * x 3 initial steps): mescd there is set by a_q3 (y20), whose reference -1.42 is a fast oscillation
 * of the longitudinal beam mode that steps of 1e-3 do not resolve and damp to about 0 (mescd
 * 0.22-0.24); the 4 runs whose last step was rejected ended with a short step after a long one
 * and a_q3 = +0.14 to +0.20 (mescd 0.18-0.19); they now match the other 71, which are unchanged.
 *
 * Continuous output: the collocation polynomial of degree 3 through (t_n, y_n) and
 * (t_n + c_i h, y_n + Z_i) (HW IV.8, dense output). */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "driver.h"
#include "linsys.h"
#include "solver_type.h"
#include "weights.h"

enum { NSTAGE = 3, LAST_STAGE = NSTAGE - 1 };

/* Parameters of RADAU5 (its defaults, HW IV.8 and the RADAU5 documentation). */
static const int NEWTON_MAX_ITER = 7;          /* nit: Newton iterations per step */
static const double UROUND = 1e-16;            /* RADAU5's unit roundoff */
static const double SAFETY = 0.9;              /* safety factor of the step-size prediction */
static const double THETA_REUSE_JAC = 0.001;   /* keep the Jacobian while theta stays below this */
static const double QUOT_KEEP_LO = 1.0;        /* keep h and the factorization for h_new/h in */
static const double QUOT_KEEP_HI = 1.2;        /*   [QUOT_KEEP_LO, QUOT_KEEP_HI] */
static const double QUOT_MIN = 1.0 / 8.0;      /* h_new / h <= 8 */
static const double QUOT_MAX = 5.0;            /* h_new / h >= 1/5 */
static const double THETA_DIVERGE = 0.99;      /* contraction factor taken as divergence */
static const double FIRST_REJECT_FACTOR = 0.1; /* h after an error-test failure of the first step */
static const double FAIL_FACTOR = 0.5;         /* h after a Newton failure or a singular matrix */
static const int MAX_SINGULAR = 5;             /* consecutive singular iteration matrices */
static const double DEFAULT_H0 = 1e-6;         /* RADAU5's default, scaled by the interval length */
/* The end-point rule: the rest of the interval when hnew reaches tend (a remainder below hnew/1000
 * is absorbed), half the rest when two steps of hnew would reach it (two equal steps instead of
 * hnew and a short remainder, whose index-2 and index-3 components would be amplified by 1/h and
 * 1/h^2), else hnew; applied to every new step size, after rejections too (see the header). */
static const driver_end_rule END_RULE = {1.001, 2, 0.0, 1};
/* rtol' = TOL_FACTOR rtol^(2/3).  RADAU5 has 0.1; the implicit form saves RADAU5's evaluation of
 * f(t_n, y_n) after every accepted step (y'_n is the last stage derivative), and 0.08 spends about
 * half of that saving on accuracy: +0.1 scd for +6% residual evaluations on the test set rows. */
static const double TOL_FACTOR = 0.08;
/* Largest predicted Newton contraction factor a step-size increase may lead to (not in RADAU5,
 * whose step-size increases on Andrews' problem end in Newton failures nearly every other step). */
static const double THETA_TARGET = 0.5;
/* The Newton error of differential components may add up to at most this many steps' worth of
 * RADAU5's Newton tolerance (see set_weights).  Runs of up to 300 steps keep RADAU5's test; the
 * test set's problems take 100 to 300 steps at the tolerances of the published tables. */
static const double NEWTON_STEPS = 300.0;
/* Polishing Newton iterations (see newton) stop when the increment shrinks by less than this. */
static const double POLISH_CONTRACTION = 0.5;

/* The Radau IIA tableau and its eigen-decomposition, computed from c at the start of a run. */
typedef struct tableau {
  double c[NSTAGE];            /* nodes */
  double a[NSTAGE][NSTAGE];    /* collocation matrix A */
  double ainv[NSTAGE][NSTAGE]; /* A^{-1} */
  double gamma;                /* real eigenvalue of A^{-1} */
  double alpha, beta;          /* complex pair alpha +- i beta of A^{-1} */
  double t[NSTAGE][NSTAGE];    /* T, T^{-1} A^{-1} T = [gamma 0 0; 0 alpha -beta; 0 beta alpha] */
  double tinv[NSTAGE][NSTAGE]; /* T^{-1} */
  double d[NSTAGE];            /* error-estimate weights d_i = e_i / gamma_0 */
} tableau;

/* Outcome of one simplified Newton solve. */
enum newton_outcome {
  NEWTON_CONVERGED,
  NEWTON_SLOW,     /* converging, but too slowly: retry with the predicted h */
  NEWTON_FAILED,   /* diverged or too many iterations */
  NEWTON_UNDEFINED /* a stage residual could not be evaluated (or was not finite) */
};

typedef struct radau {
  const mbdae_problem *p;
  int n;
  tableau tb;
  mbdae_tolerance tol;    /* RADAU5's internal tolerances rtol', atol' (factor 1) */
  double fnewt;           /* Newton stopping tolerance */
  const int *index;       /* differentiation index per variable */
  mbdae_jacobian jac;     /* J = dF/dy, M = dF/dy' at the last Jacobian point */
  mbdae_itmat e1;         /* E1 and its factors */
  mbdae_itmat e2;         /* E2 and its factors */
  double *z[NSTAGE];      /* stage increments Z_i */
  double *v[NSTAGE];      /* transformed increments V = T^{-1} Z */
  double *w[NSTAGE];      /* stage derivatives W_i */
  double *g[NSTAGE];      /* stage residuals, then the Newton corrections dV */
  double *ystage;         /* y_n + Z_i */
  double *wscal;          /* reciprocal error weights 1 / sc_i (index-scaled) */
  double *wnewt;          /* reciprocal weights of the Newton stopping test (see set_weights) */
  int *differential;      /* 1 when y'_i enters F (column i of dF/dy' nonzero) */
  double *err;            /* error estimate */
  double *mq;             /* M (y'_n + sum d_i Z_i / h) */
  double *cont_y;         /* y at the start of the last accepted step */
  double *cont_z[NSTAGE]; /* its stage increments: the collocation polynomial */
  double cont_t, cont_h;  /* start and size of the last accepted step */
  void *block;            /* the one allocation holding the arrays above */
  mbdae_stats *stats;

  /* the run: the caller's y, y' (y_n, y'_n between steps) and the step-control state */
  double *y, *yp;
  double tend, span;     /* end and length of the interval */
  int need_jac, need_lu; /* refresh the Jacobian / the factorization before the next attempt */
  int fresh_jac;         /* the Jacobian was evaluated at the current y_n */
  int first;             /* no step accepted yet */
  int reject;            /* the last attempt was rejected */
  int undefined;         /* ... because a stage residual could not be evaluated */
  int nsing;             /* consecutive singular iteration matrices */
  double theta, faccon;  /* Newton contraction and its factor, carried over as in RADAU5 */
  double hacc, erracc;   /* last accepted step and its error (Gustafsson's controller) */
} radau;

/* ---- the tableau ------------------------------------------------------------------------- */

static double det3(double m[NSTAGE][NSTAGE])
{
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* inv = m^{-1} by the adjugate (3 x 3 only; m is well conditioned here).  The matrix parameters
 * of det3 and inverse3 are not const-qualified: C11 does not convert double (*)[3] to
 * const double (*)[3] implicitly. */
static void inverse3(double m[NSTAGE][NSTAGE], double inv[NSTAGE][NSTAGE])
{
  double det = det3(m);
  for (int i = 0; i < NSTAGE; i++) {
    for (int j = 0; j < NSTAGE; j++) {
      int r0 = (j + 1) % NSTAGE, r1 = (j + 2) % NSTAGE; /* cofactor C_ji, cyclic form */
      int c0 = (i + 1) % NSTAGE, c1 = (i + 2) % NSTAGE;
      inv[i][j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
    }
  }
}

/* A null vector of the singular 3 x 3 complex matrix b: the cross product of two rows (the
 * bilinear one, which is orthogonal to both rows without conjugation); the pair with the largest
 * product is the best conditioned. */
static void null_vector(double complex b[NSTAGE][NSTAGE], double complex x[NSTAGE])
{
  double best = -1.0;
  for (int r = 0; r < NSTAGE; r++) {
    const double complex *u = b[r], *w = b[(r + 1) % NSTAGE];
    double complex cand[NSTAGE] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                                   u[0] * w[1] - u[1] * w[0]};
    double size = cabs(cand[0]) + cabs(cand[1]) + cabs(cand[2]);
    if (size > best) {
      best = size;
      memcpy(x, cand, sizeof cand);
    }
  }
}

/* Radau IIA, s = 3 (HW IV.5), its eigen-decomposition and the error-estimate weights (HW IV.8).
 * T is normalized as in RADAU5: the real eigenvector has unit 2-norm, the complex one a third
 * component equal to 1 (the scaling of T enters the Newton norm). */
static void tableau_init(tableau *tb)
{
  double sq6 = sqrt(6.0);
  tb->c[0] = (4.0 - sq6) / 10.0;
  tb->c[1] = (4.0 + sq6) / 10.0;
  tb->c[2] = 1.0;

  /* Collocation: sum_j a_ij c_j^(k-1) = c_i^k / k, k = 1..3, i.e. A V^T = R with the
   * Vandermonde matrix V_kj = c_j^(k-1). */
  double vand[NSTAGE][NSTAGE], vinv[NSTAGE][NSTAGE];
  for (int k = 0; k < NSTAGE; k++) {
    for (int j = 0; j < NSTAGE; j++) {
      vand[k][j] = pow(tb->c[j], k);
    }
  }
  inverse3(vand, vinv);
  for (int i = 0; i < NSTAGE; i++) {
    for (int j = 0; j < NSTAGE; j++) {
      double s = 0.0;
      for (int k = 0; k < NSTAGE; k++) {
        s += vinv[j][k] * pow(tb->c[i], k + 1) / (k + 1);
      }
      tb->a[i][j] = s;
    }
  }
  inverse3(tb->a, tb->ainv);

  /* Eigenvalues of A^{-1}: the poles of the stability function, i.e. the roots of
   * 60 - 36 z + 9 z^2 - z^3 (60 det(I - zA), HW IV.5), by Cardano's formula. */
  double c13 = cbrt(3.0), c23 = c13 * c13;
  tb->gamma = 3.0 + c23 - c13;
  tb->alpha = 3.0 - 0.5 * (c23 - c13);
  tb->beta = 0.5 * sqrt(3.0) * (c23 + c13);

  /* Real eigenvector t1 and complex w = u + i v for the eigenvalue alpha - i beta:
   * A^{-1} u = alpha u + beta v, A^{-1} v = -beta u + alpha v, so T = [t1 u v] gives the block
   * [alpha -beta; beta alpha] and the complex matrix ((alpha + i beta)/h) M + J. */
  double complex b[NSTAGE][NSTAGE], x[NSTAGE];
  for (int i = 0; i < NSTAGE; i++) {
    for (int j = 0; j < NSTAGE; j++) {
      b[i][j] = tb->ainv[i][j] - (i == j ? tb->gamma : 0.0);
    }
  }
  null_vector(b, x);
  double norm =
      sqrt(creal(x[0]) * creal(x[0]) + creal(x[1]) * creal(x[1]) + creal(x[2]) * creal(x[2]));
  if (creal(x[2]) < 0.0) {
    norm = -norm;
  }
  for (int i = 0; i < NSTAGE; i++) {
    tb->t[i][0] = creal(x[i]) / norm;
  }
  double complex mu = tb->alpha - I * tb->beta;
  for (int i = 0; i < NSTAGE; i++) {
    for (int j = 0; j < NSTAGE; j++) {
      b[i][j] = tb->ainv[i][j] - (i == j ? mu : 0.0);
    }
  }
  null_vector(b, x);
  double complex scale = x[2];
  for (int i = 0; i < NSTAGE; i++) {
    double complex wi = x[i] / scale;
    tb->t[i][1] = creal(wi);
    tb->t[i][2] = cimag(wi);
  }
  inverse3(tb->t, tb->tinv);

  /* Embedded method: b^_0 = gamma_0 = 1/gamma on y'_n and sum_i b^_i c_i^(k-1) = 1/k - gamma_0
   * [k = 1], k = 1..3 (order 3); e = A^{-T} (b^ - b) with b the last row of A; d = e / gamma_0. */
  double gamma0 = 1.0 / tb->gamma, rhs[NSTAGE], bhat[NSTAGE];
  for (int k = 0; k < NSTAGE; k++) {
    rhs[k] = 1.0 / (k + 1) - (k == 0 ? gamma0 : 0.0);
  }
  for (int j = 0; j < NSTAGE; j++) {
    bhat[j] = vinv[j][0] * rhs[0] + vinv[j][1] * rhs[1] + vinv[j][2] * rhs[2];
  }
  for (int j = 0; j < NSTAGE; j++) {
    double e = 0.0;
    for (int i = 0; i < NSTAGE; i++) {
      e += tb->ainv[i][j] * (bhat[i] - tb->a[LAST_STAGE][i]);
    }
    tb->d[j] = e / gamma0;
  }
}

/* ---- workspace --------------------------------------------------------------------------- */

/* The next count doubles of the one allocation. */
static double *take(double **cursor, size_t count)
{
  double *piece = *cursor;
  *cursor += count;
  return piece;
}

/* The work arrays of a run in one allocation, doubles then ints (the Jacobian store and the
 * iteration matrices, by kind, allocate their own in workspace_create). */
static int workspace_alloc(radau *s)
{
  size_t n = (size_t)s->n;
  size_t ndouble = 5 * NSTAGE * n + 6 * n; /* as handed out below */
  size_t nint = n;                         /* differential */
  char *mem = malloc(ndouble * sizeof(double) + nint * sizeof(int));
  if (!mem) {
    return MBDAE_ERR_NOMEM;
  }
  s->block = mem;
  double *cursor = (double *)mem;
  for (int i = 0; i < NSTAGE; i++) {
    s->z[i] = take(&cursor, n);
    s->v[i] = take(&cursor, n);
    s->w[i] = take(&cursor, n);
    s->g[i] = take(&cursor, n);
    s->cont_z[i] = take(&cursor, n);
  }
  s->ystage = take(&cursor, n);
  s->wscal = take(&cursor, n);
  s->wnewt = take(&cursor, n);
  s->err = take(&cursor, n);
  s->mq = take(&cursor, n);
  s->cont_y = take(&cursor, n);
  s->differential = (int *)cursor;
  return 0;
}

static void workspace_free(radau *s)
{
  mbdae_itmat_free(&s->e1);
  mbdae_itmat_free(&s->e2);
  mbdae_jacobian_free(&s->jac);
  free(s->block);
}

/* The Jacobian store of the kind asked for (opt->linsys), E1, E2 and the work arrays: 0, or a
 * negative code with a message in msg (everything allocated is freed by workspace_free). */
static int workspace_create(radau *s, int kind, char *msg, size_t msglen)
{
  int rc =
      mbdae_jacobian_create(&s->jac, s->p, mbdae_linsys_resolve(s->p, "radau5", kind), msg, msglen);
  if (rc != 0) {
    return rc;
  }
  rc = mbdae_itmat_create(&s->e1, &s->jac, 0);
  if (rc == 0) {
    rc = mbdae_itmat_create(&s->e2, &s->jac, 1);
  }
  if (rc == 0) {
    rc = workspace_alloc(s);
  }
  if (rc != 0) {
    snprintf(msg, msglen, "out of memory");
  }
  return rc;
}

/* ---- linear algebra and norms ------------------------------------------------------------ */

/* E1 = (gamma/h) M + J and E2 = ((alpha + i beta)/h) M + J, factored. */
static int factorize(radau *s, double h)
{
  const tableau *tb = &s->tb;
  int rc = mbdae_itmat_factor(&s->e1, tb->gamma / h);
  if (rc == 0) {
    rc = mbdae_itmat_factor_shift(&s->e2, tb->alpha / h, tb->beta / h);
  }
  return rc;
}

/* Weights at y_n for a step of size h, kept as reciprocals (the norms multiply).  Error test
 * (wscal = 1 / sc): the tolerance sc, divided by h^(index - 1) for the index-2 and index-3
 * components as in RADAU5 (their error estimate overstates their error by these powers of h).
 * Newton test (wnewt): the same for algebraic components, whose Newton
 * error stays inside the step.  The Newton error of a differential component, however, is a true
 * error that every later step inherits: with RADAU5's weights it adds up over the N = T/h steps of
 * the interval T to N fnewt sc_i, which for the velocities (sc_i = tol/h) grows like T^2/h^2 and
 * stalls the pendulum's accuracy near 1e-4 whatever the tolerance.  Their weights are therefore
 * scaled by min(1, NEWTON_STEPS / N): the accumulated Newton error is held to what RADAU5 allows
 * over NEWTON_STEPS steps (runs with fewer steps keep RADAU5's test). */
static void set_weights(radau *s, const double *y, double h, double interval)
{
  double tighten = fmin(1.0, NEWTON_STEPS * h / interval);
  for (int i = 0; i < s->n; i++) {
    double sc = mbdae_tolerance_at(&s->tol, y[i]) / mbdae_index_factor(s->index[i], h);
    s->wscal[i] = 1.0 / sc;
    s->wnewt[i] = s->differential[i] ? 1.0 / (sc * tighten) : 1.0 / sc;
  }
}

static double sum_squares(int n, const double *x, const double *weight)
{
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    double q = x[i] * weight[i];
    sum += q * q;
  }
  return sum;
}

/* ---- collocation polynomial -------------------------------------------------------------- */

/* u(t_n + theta h) - y_n = sum_j l_j(theta) Z_j: the Lagrange basis on the nodes 0, c_1, c_2,
 * c_3 (the node 0 carries y_n, so it appears only as the factor theta). */
static void collocation_weights(const tableau *tb, double theta, double l[NSTAGE])
{
  for (int j = 0; j < NSTAGE; j++) {
    double lj = theta / tb->c[j];
    for (int k = 0; k < NSTAGE; k++) {
      if (k != j) {
        lj *= (theta - tb->c[k]) / (tb->c[j] - tb->c[k]);
      }
    }
    l[j] = lj;
  }
}

/* Z = (T (x) I) V and W = (A^{-1} (x) I) Z / h. */
static void stages_from_v(radau *s, double h)
{
  const tableau *tb = &s->tb;
  double rh = 1.0 / h; /* a multiplication per component instead of a division */
  for (int k = 0; k < s->n; k++) {
    double vk[NSTAGE], zk[NSTAGE];
    for (int j = 0; j < NSTAGE; j++) {
      vk[j] = s->v[j][k];
    }
    for (int i = 0; i < NSTAGE; i++) {
      zk[i] = tb->t[i][0] * vk[0] + tb->t[i][1] * vk[1] + tb->t[i][2] * vk[2];
      s->z[i][k] = zk[i];
    }
    for (int i = 0; i < NSTAGE; i++) {
      s->w[i][k] = (tb->ainv[i][0] * zk[0] + tb->ainv[i][1] * zk[1] + tb->ainv[i][2] * zk[2]) * rh;
    }
  }
}

/* Newton starting values for a step of size h from y_n with derivative yp: the previous
 * collocation polynomial extrapolated (HW IV.8), or c_i h y'_n before the first accepted
 * step. */
static void starting_values(radau *s, double h, const double *yp, int have_poly)
{
  const tableau *tb = &s->tb;
  for (int i = 0; i < NSTAGE; i++) {
    if (!have_poly) {
      for (int k = 0; k < s->n; k++) {
        s->z[i][k] = tb->c[i] * h * yp[k];
      }
      continue;
    }
    /* u(t_{n+1} + c_i h) - y_{n+1}, with u from the step [t_n, t_{n+1}] of size cont_h */
    double l[NSTAGE];
    collocation_weights(tb, 1.0 + tb->c[i] * h / s->cont_h, l);
    for (int k = 0; k < s->n; k++) {
      s->z[i][k] = l[0] * s->cont_z[0][k] + l[1] * s->cont_z[1][k] + l[2] * s->cont_z[2][k] -
                   s->cont_z[LAST_STAGE][k];
    }
  }
  for (int k = 0; k < s->n; k++) {
    for (int i = 0; i < NSTAGE; i++) {
      s->v[i][k] =
          tb->tinv[i][0] * s->z[0][k] + tb->tinv[i][1] * s->z[1][k] + tb->tinv[i][2] * s->z[2][k];
    }
  }
  stages_from_v(s, h);
}

/* ---- one step ---------------------------------------------------------------------------- */

/* The stage residuals G_i = F(t + c_i h, y + Z_i, W_i), then the right-hand side
 * -(T^{-1} (x) I) G in place.  Returns 0, positive when a stage cannot be evaluated (or is not
 * finite), or a negative code. */
static int stage_residuals(radau *s, double t, double h, const double *y)
{
  const tableau *tb = &s->tb;
  int n = s->n;
  for (int i = 0; i < NSTAGE; i++) {
    for (int k = 0; k < n; k++) {
      s->ystage[k] = y[k] + s->z[i][k];
    }
    int rc = mbdae_residual_checked(s->p, t + tb->c[i] * h, s->ystage, s->w[i], s->g[i],
                                    &s->stats->nres);
    if (rc != 0) {
      return rc;
    }
  }
  for (int k = 0; k < n; k++) {
    double gk[NSTAGE] = {s->g[0][k], s->g[1][k], s->g[2][k]};
    for (int i = 0; i < NSTAGE; i++) {
      s->g[i][k] = -(tb->tinv[i][0] * gk[0] + tb->tinv[i][1] * gk[1] + tb->tinv[i][2] * gk[2]);
    }
  }
  return 0;
}

/* The Newton corrections in place of the right-hand sides: E1 dV_1 = g_1 and
 * E2 (dV_2 + i dV_3) = g_2 + i g_3.  Returns 0 or a negative code. */
static int solve_corrections(radau *s)
{
  int rc = mbdae_itmat_solve(&s->e1, s->g[0]);
  return rc != 0 ? rc : mbdae_itmat_solve_shift(&s->e2, s->g[1], s->g[2]);
}

/* The RMS norms of the corrections dV in the error weights (*plain) and in the Newton weights
 * (*strict), in one pass over dV (each sum in the order of sum_squares). */
static void increment_norms(const radau *s, double *plain, double *strict)
{
  double sum[NSTAGE], sum_strict[NSTAGE];
  for (int i = 0; i < NSTAGE; i++) {
    const double *g = s->g[i];
    double a = 0.0, b = 0.0;
    for (int k = 0; k < s->n; k++) {
      double q = g[k] * s->wscal[k], r = g[k] * s->wnewt[k];
      a += q * q;
      b += r * r;
    }
    sum[i] = a;
    sum_strict[i] = b;
  }
  *plain = sqrt((sum[0] + sum[1] + sum[2]) / (NSTAGE * s->n));
  *strict = sqrt((sum_strict[0] + sum_strict[1] + sum_strict[2]) / (NSTAGE * s->n));
}

/* RADAU5's watch on the contraction after iteration newt >= 2 (thq = |dV_newt| / |dV_newt-1|):
 * theta, faccon; returns 0 to stop, on divergence (the outcome stays NEWTON_FAILED) or when the
 * error left after the remaining iterations at this rate would exceed fnewt (NEWTON_SLOW, with
 * the step-size factor hfac), else 1. */
static int watch_rate(const radau *s, int newt, double thq, double dyno, double *thqold,
                      double *theta, double *faccon, double *hfac, enum newton_outcome *outcome)
{
  *theta = newt == 2 ? thq : sqrt(thq * *thqold);
  *thqold = thq;
  if (*theta >= THETA_DIVERGE) {
    return 0;
  }
  *faccon = *theta / (1.0 - *theta);
  double dyth = *faccon * dyno * pow(*theta, NEWTON_MAX_ITER - 1 - newt) / s->fnewt;
  if (dyth >= 1.0) {
    double qnewt = fmax(1e-4, fmin(20.0, dyth));
    *hfac = 0.8 * pow(qnewt, -1.0 / (4.0 + NEWTON_MAX_ITER - 1 - newt));
    *outcome = NEWTON_SLOW;
    return 0;
  }
  return 1;
}

/* Simplified Newton iteration for the stage equations of the step [t, t + h] from y.
 * Returns 0 and the outcome, or a negative code (residual failure, LAPACK internal error).
 * theta and faccon carry over between steps as in RADAU5; hfac is the suggested step-size
 * factor for NEWTON_SLOW; iters the iterations RADAU5's test needed.
 *
 * Convergence: RADAU5's test faccon ||dV|| <= fnewt in the error weights decides success,
 * failure and slow convergence.  Once it holds, the iteration goes on (polishing) until the same
 * test holds in the Newton weights, or the increments in that norm stop shrinking (the
 * roundoff level: differential index-2 components of a tiny step cannot be resolved to the plain
 * tolerance), or the iteration limit is reached; none of these count as a failure. */
static int newton(radau *s, double t, double h, const double *y, int *iters, double *theta,
                  double *faccon, double *hfac, enum newton_outcome *outcome)
{
  int polishing = 0;
  double dynold = 1.0, thqold = 1.0, dyno_strict_old = INFINITY;
  *faccon = pow(fmax(*faccon, UROUND), 0.8);
  *theta = THETA_REUSE_JAC;
  *outcome = NEWTON_FAILED;
  for (int newt = 0;;) {
    if (newt >= NEWTON_MAX_ITER) {
      if (polishing) {
        *outcome = NEWTON_CONVERGED;
      }
      return 0;
    }
    int rc = stage_residuals(s, t, h, y);
    if (rc > 0) {
      *outcome = NEWTON_UNDEFINED; /* a smaller step may stay inside the domain */
      return 0;
    }
    if (rc == 0) {
      rc = solve_corrections(s);
    }
    if (rc != 0) {
      return rc;
    }
    newt++;
    double dyno, dyno_strict;
    increment_norms(s, &dyno, &dyno_strict);
    if (polishing) {
      if (!(dyno_strict <= POLISH_CONTRACTION * dyno_strict_old)) {
        *outcome = NEWTON_CONVERGED; /* roundoff level: keep the last iterate */
        return 0;
      }
    } else {
      *iters = newt;
      if (!isfinite(dyno)) {
        return 0;
      }
      if (newt > 1 && newt < NEWTON_MAX_ITER &&
          !watch_rate(s, newt, dyno / dynold, dyno, &thqold, theta, faccon, hfac, outcome)) {
        return 0;
      }
      dynold = fmax(dyno, UROUND);
    }
    for (int i = 0; i < NSTAGE; i++) {
      for (int k = 0; k < s->n; k++) {
        s->v[i][k] += s->g[i][k];
      }
    }
    stages_from_v(s, h);
    if (polishing || *faccon * dyno <= s->fnewt) {
      if (*faccon * dyno_strict <= s->fnewt) {
        *outcome = NEWTON_CONVERGED;
        return 0;
      }
      polishing = 1;
      dyno_strict_old = dyno_strict;
    }
  }
}

/* The filtered error estimate (see the header): err = E1^{-1} M (y'_n + sum d_i Z_i / h), refined
 * once with F(t_n, y_n + err, y'_n) when refine is set and the first estimate fails.  Returns 0
 * or a negative code; *errnorm is the weighted RMS norm (infinite when not finite). */
static int estimate_error(radau *s, double t, double h, const double *y, const double *yp,
                          int refine, double *errnorm)
{
  const tableau *tb = &s->tb;
  int n = s->n;
  for (int k = 0; k < n; k++) {
    s->err[k] = yp[k] + (tb->d[0] * s->z[0][k] + tb->d[1] * s->z[1][k] + tb->d[2] * s->z[2][k]) / h;
  }
  /* mq = M err, skipping the zero columns of M (the algebraic variables) */
  mbdae_jacobian_mult_dfdyp(&s->jac, s->differential, s->err, s->mq);
  memcpy(s->err, s->mq, sizeof(double) * (size_t)n);
  int rc = mbdae_itmat_solve(&s->e1, s->err);
  if (rc != 0) {
    return rc;
  }
  double e = fmax(sqrt(sum_squares(n, s->err, s->wscal) / n), 1e-10);
  if (e >= 1.0 && refine) {
    double *fval = s->g[0]; /* free after the Newton iteration */
    for (int k = 0; k < n; k++) {
      s->ystage[k] = y[k] + s->err[k];
    }
    rc = mbdae_residual_checked(s->p, t, s->ystage, yp, fval, &s->stats->nres);
    if (rc < 0) {
      return rc;
    }
    /* if y_n + err cannot be evaluated the first estimate stands */
    if (rc == 0) {
      for (int k = 0; k < n; k++) {
        s->err[k] = s->mq[k] - fval[k];
      }
      rc = mbdae_itmat_solve(&s->e1, s->err);
      if (rc != 0) {
        return rc;
      }
      e = fmax(sqrt(sum_squares(n, s->err, s->wscal) / n), 1e-10);
    }
  }
  *errnorm = isfinite(e) ? e : INFINITY;
  return 0;
}

/* y at t inside the last accepted step, from its collocation polynomial. */
static void interpolate(const void *m, double t, double *yout)
{
  const radau *s = m;
  double l[NSTAGE];
  collocation_weights(&s->tb, (t - s->cont_t) / s->cont_h, l);
  for (int k = 0; k < s->n; k++) {
    yout[k] =
        s->cont_y[k] + l[0] * s->cont_z[0][k] + l[1] * s->cont_z[1][k] + l[2] * s->cont_z[2][k];
  }
}

/* ---- the phases of a step (the loop is the shared driver's) ------------------------------- */

/* Refresh the matrices before an attempt at (t, y_n) with step h: the Jacobian when asked for,
 * then E1 and E2; a singular matrix asks for a retry with h / 2 (at most MAX_SINGULAR in a
 * row). */
static void prepare(void *m, double t, double h, driver_report *rep)
{
  radau *s = m;
  rep->outcome = DRIVER_READY;
  if (s->need_jac) {
    int rc = mbdae_jacobian_eval(&s->jac, s->p, t, s->y, s->yp);
    s->stats->njac++;
    s->stats->nres_fd += mbdae_problem_jac_nres(s->p);
    if (rc != 0) {
      rep->outcome = DRIVER_FAILED;
      mbdae_driver_give_up(rep, rc < 0 ? rc : MBDAE_ERR_RES,
                           "the Jacobian cannot be evaluated at an accepted point (%s)",
                           mbdae_strerror(rc));
      return;
    }
    mbdae_jacobian_differential(&s->jac, s->differential);
    s->fresh_jac = 1;
    s->need_lu = 1;
  }
  s->need_jac = 0;
  if (!s->need_lu) {
    return;
  }
  int rc = factorize(s, h);
  if (rc == MBDAE_ERR_SINGULAR) {
    rep->outcome = DRIVER_RETRY;
    if (++s->nsing >= MAX_SINGULAR) {
      rep->outcome = DRIVER_FAILED;
      mbdae_driver_give_up(rep, MBDAE_ERR_SINGULAR, "iteration matrix singular %d times in a row",
                           s->nsing);
    }
    rep->hnew = h * FAIL_FACTOR;
    s->reject = 1;
    s->need_jac = !s->fresh_jac;
    return;
  }
  if (rc != 0) {
    rep->outcome = DRIVER_FAILED;
    mbdae_driver_give_up(rep, rc, "LU factorization: %s", mbdae_strerror(rc));
    return;
  }
  s->stats->nlu++;
  s->need_lu = 0;
}

/* A rejected attempt: retry with hnew, with new factors (and a new Jacobian unless the one in
 * use was evaluated at y_n). */
static void reject(radau *s, driver_outcome kind, double hnew, driver_report *rep)
{
  s->reject = 1;
  s->need_jac = !s->fresh_jac;
  s->need_lu = 1;
  rep->outcome = kind;
  rep->hnew = hnew;
}

/* The accepted step [t, tnew] of size h: keep its collocation polynomial for the continuous
 * output and the next starting values, and move y, y' to tnew. */
static void accept(radau *s, double t, double h, double err)
{
  int n = s->n;
  s->nsing = 0;
  s->hacc = h;
  s->erracc = fmax(1e-2, err);
  s->first = 0;
  memcpy(s->cont_y, s->y, sizeof(double) * (size_t)n);
  for (int i = 0; i < NSTAGE; i++) {
    memcpy(s->cont_z[i], s->z[i], sizeof(double) * (size_t)n);
  }
  s->cont_t = t;
  s->cont_h = h;
  for (int k = 0; k < n; k++) {
    s->y[k] += s->z[LAST_STAGE][k];
  }
  memcpy(s->yp, s->w[LAST_STAGE], sizeof(double) * (size_t)n);
  s->fresh_jac = 0;
}

/* The step size after an accepted step of size h with error err (h / quot from the error alone):
 * Gustafsson's predictive controller from the second step on, the cap on the predicted Newton
 * contraction when theta was measured (iters >= 2), and no increase right after a rejection. */
static double next_step_size(radau *s, double h, double err, double quot, int iters)
{
  if (!s->first) {
    double facgus = (s->hacc / h) * pow(err * err / s->erracc, 0.25) / SAFETY;
    facgus = fmax(QUOT_MIN, fmin(QUOT_MAX, facgus));
    quot = fmax(quot, facgus);
  }
  double hnew = h / quot;
  if (iters >= 2) {
    /* keep the predicted contraction theta (h_new/h)^2 below THETA_TARGET, so that a step the
     * error test allows does not fail in Newton */
    hnew = fmin(hnew, h * sqrt(THETA_TARGET / s->theta));
  }
  if (s->reject) {
    hnew = fmin(hnew, h);
  }
  s->reject = 0;
  return hnew;
}

/* One attempt of the step [t, tnew] of size h: the stage equations, the error estimate, then
 * the decision. */
static void attempt(void *m, double t, double h, double tnew, driver_report *rep)
{
  radau *s = m;
  (void)tnew; /* y_{n+1} = y_n + Z_3 lands on tnew = t + h, or on tend for the last step */
  double hmin = 10.0 * DBL_EPSILON * fmax(fabs(t), fabs(s->tend));
  if (h < hmin) {
    rep->outcome = DRIVER_FAILED;
    mbdae_driver_give_up(rep, MBDAE_ERR_STEP_TOO_SMALL,
                         "step size below the minimum 10 eps max(|t|, |tend|) = %.3e%s", hmin,
                         s->undefined ? DRIVER_RESIDUAL_WALL : "");
    return;
  }
  set_weights(s, s->y, h, s->span);
  starting_values(s, h, s->yp, !s->first);
  int iters = 0;
  double hfac = FAIL_FACTOR, err = INFINITY;
  enum newton_outcome outcome;
  int rc = newton(s, t, h, s->y, &iters, &s->theta, &s->faccon, &hfac, &outcome);
  if (rc == 0 && outcome == NEWTON_CONVERGED) {
    rc = estimate_error(s, t, h, s->y, s->yp, s->first || s->reject, &err);
    if (rc == 0 && !isfinite(err)) {
      outcome = NEWTON_FAILED;
    }
  }
  if (rc != 0) {
    rep->outcome = DRIVER_FAILED;
    mbdae_driver_give_up(rep, rc, "%s", mbdae_strerror(rc));
    return;
  }
  s->undefined = outcome == NEWTON_UNDEFINED;
  if (outcome != NEWTON_CONVERGED) {
    reject(s, DRIVER_REJECTED_CONV, h * (outcome == NEWTON_SLOW ? hfac : FAIL_FACTOR), rep);
    return;
  }
  double fac = fmin(SAFETY, SAFETY * (1 + 2 * NEWTON_MAX_ITER) / (iters + 2 * NEWTON_MAX_ITER));
  double quot = fmax(QUOT_MIN, fmin(QUOT_MAX, pow(err, 0.25) / fac));
  if (err >= 1.0) {
    reject(s, DRIVER_REJECTED_ERROR, s->first ? h * FIRST_REJECT_FACTOR : h / quot, rep);
    return;
  }
  rep->hnew = next_step_size(s, h, err, quot, iters);
  accept(s, t, h, err);
  rep->outcome = DRIVER_ACCEPTED;
  rep->order = 5;
}

/* After an accepted step: keep h, the Jacobian and the factors while the new step would differ
 * from h by a factor in [QUOT_KEEP_LO, QUOT_KEEP_HI] and the Jacobian converged fast (RADAU5's
 * rule; not for the last steps, whose size the end-point rule sets); else refactor, with a new
 * Jacobian when theta was above THETA_REUSE_JAC. */
static double resize(void *m, double h, double hnext, double hplan, int last)
{
  radau *s = m;
  double qt = hnext / h;
  if (!last && hplan == hnext && s->theta <= THETA_REUSE_JAC && qt >= QUOT_KEEP_LO &&
      qt <= QUOT_KEEP_HI) {
    return h; /* t + 2 h <= tend, as h <= hnext */
  }
  if (s->theta <= THETA_REUSE_JAC) {
    s->need_lu = 1;
  } else {
    s->need_jac = 1;
  }
  return hplan;
}

static const driver_method RADAU5_METHOD = {prepare, attempt, resize, interpolate};

static int integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                     mbdae_result *r)
{
  radau s;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.n = mbdae_problem_neq(p);
  s.index = mbdae_problem_index(p);
  s.stats = &r->stats;
  tableau_init(&s.tb);
  /* RADAU5's tolerance transformation (the error estimate is O(h^4), the global error O(h^5)),
   * with TOL_FACTOR for RADAU5's 0.1 */
  s.tol.rtol = TOL_FACTOR * pow(opt->rtol, 2.0 / 3.0);
  s.tol.atol = s.tol.rtol * (opt->atol / opt->rtol);
  s.tol.factor = 1.0;
  s.fnewt = fmax(10.0 * UROUND / s.tol.rtol, fmin(0.03, sqrt(s.tol.rtol)));
  char msg[160];
  int rc = workspace_create(&s, opt->linsys, msg, sizeof msg);
  if (rc != 0) {
    workspace_free(&s);
    return mbdae_fail(r, rc, mbdae_problem_t0(p), 0.0, "%s", msg);
  }
  s.y = y;
  s.yp = yp;
  s.tend = mbdae_problem_tend(p);
  s.span = s.tend - mbdae_problem_t0(p);
  s.need_jac = s.need_lu = s.first = 1;
  s.theta = THETA_REUSE_JAC;
  s.faccon = 1.0;
  s.erracc = 1.0;
  mbdae_driver d;
  mbdae_driver_start(&d, p, opt, &END_RULE, y, r);
  mbdae_driver_own_state(&d, y, yp); /* s.y, s.yp: a projection there is the next step's start */
  double h = mbdae_driver_first_step(&d, opt->h0 > 0.0 ? opt->h0 : DEFAULT_H0 * s.span);
  s.hacc = h;
  int status = mbdae_driver_run(&d, &RADAU5_METHOD, &s, h, y, yp);
  workspace_free(&s);
  return status;
}

const mbdae_solver_type mbdae_solver_radau5 = {
    "radau5", "Radau IIA, 3 stages, order 5 (RADAU5 control) for F(t, y, y') = 0", integrate, NULL};
