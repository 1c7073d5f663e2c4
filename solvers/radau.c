/* radau: the Radau IIA integrator for fully implicit DAEs F(t, y, y') = 0, with s = 3, 5, 7
 * stages (orders 5, 9, 13), behind two solver types (solvers/radau.h): `radau` with the order
 * selection of Hairer & Wanner's RADAU (below), and `radau5` (solvers/radau5.c), s = 3 fixed with
 * RADAU5's controls.  Sources: E. Hairer, G. Wanner, Solving Ordinary Differential Equations II,
 * 2nd ed. (Springer 1996), IV.5 (the method), IV.8 (implementation) and VII.4 (Radau IIA for DAEs
 * of index 2 and 3); E. Hairer, C. Lubich, M. Roche, LNM 1409 (1989); E. Hairer, G. Wanner, Stiff
 * differential equations solved by Radau methods, J. Comput. Appl. Math. 111 (1999) 93-111; the
 * documentation of the RADAU5 and RADAU codes (their defaults).
 *
 * Method (each s).  With the stage increments Z_i = Y_i - y_n and the stage derivatives
 * W = (A^{-1} (x) I) Z / h, a step solves G_i(Z) = F(t_n + c_i h, y_n + Z_i, W_i) = 0,
 * i = 1..s, and y_{n+1} = y_n + Z_s, y'_{n+1} = W_s (c_s = 1: the last stage is the end point).
 * The tableau and the eigen-decomposition T^{-1} A^{-1} T = diag(gamma, [alpha_k -beta_k; beta_k
 * alpha_k]) come from solvers/radau_tableau.c.  For F = M y' - f this is RADAU (RADAU5) applied to
 * M y' = f, so the test set's figures of those codes are the yardstick; the form needs no mass
 * matrix and serves every formulation.
 *
 * Simplified Newton.  J = dF/dy and M = dF/dy' frozen at an accepted point; dG_i/dZ_j ~
 * M (A^{-1})_ij / h + J delta_ij, and with Z = (T (x) I) V the Newton system splits into one real
 * and (s-1)/2 complex n x n systems (HW IV.8; for M y' = f the matrices are RADAU's, since there
 * J = -df/dy):
 *   E_0 dV_1 = r_1,  E_0 = (gamma/h) M + J,
 *   E_k (dV_2k + i dV_2k+1) = r_2k + i r_2k+1,  E_k = ((alpha_k + i beta_k)/h) M + J,
 * r = -(T^{-1} (x) I) G, factored and solved through the linear-system layer (solvers/linsys.h) in
 * the storage of mbdae_options.linsys (dense, band or sparse; the Jacobian store
 * solvers/jacobian.h).  RADAU's controls for each s (for s = 3 RADAU5's): at most 7 + 2.5 (s - 3)
 * iterations, the stopping test faccon ||dV|| <= fnewt with fnewt = max(10 uround / rtol',
 * min(0.03, rtol'^(1/e - 1))), e = (s + 1)/(2s), the rate watch (divergence, predicted slow
 * convergence), Jacobian reuse while theta <= 0.001, factorization reuse while
 * 1 <= h_new/h <= 1.2.  Starting values: the collocation polynomial of the previous step,
 * extrapolated; before the first accepted step the linear Taylor polynomial Z_i = c_i h y'_0
 * (RADAU5 starts from Z = 0).
 *
 * Addition 1, the Newton budget.  In runs of many steps the Newton error of the differential
 * components (those whose derivative enters F) is held to a total budget (set_weights, newton),
 * because RADAU5's test, with the index-scaled weights, lets the velocity errors of an index-3
 * mechanical system add up like T^2/h^2 (the pendulum over 100 s stalls at scd 3 for any
 * tolerance).  Once the plain test holds the iteration goes on (polishing) until the same test
 * holds in the tightened weights, the increments stop shrinking or the iteration limit is
 * reached.  Addition 2: a step-size increase is capped so that the predicted Newton contraction
 * theta (h_new/h)^2 stays below 0.5 (RADAU5's increases on Andrews' problem end in Newton failures
 * nearly every other step).
 *
 * Error estimate for F(t, y, y') = 0.  The embedded method of HW IV.8 (of order s; the 1999 paper
 * for s = 5, 7) has the weight b^_0 = gamma_0 = 1/gamma on y'_n; with e = A^{-T} (b^ - b) its raw
 * estimate is delta = gamma_0 h y'_n + sum_i e_i Z_i.  Unfiltered, delta is useless for stiff and
 * algebraic components; for M y' = f RADAU5 uses err = (M - h gamma_0 df/dy)^{-1} M delta (HW IV.8
 * and VI.6): one linearized solve of the embedded formula made implicit by a term
 * gamma_0 h y'_{n+1}.  For F(t, y, y') = 0 a change u of y_{n+1} with u' = u / (h gamma_0) changes
 * F by (M / (h gamma_0) + J) u, so the same solve has the matrix M + h gamma_0 J = h gamma_0 E_0,
 * and the factored real iteration matrix serves:
 *   err = E_0^{-1} M (y'_n + sum_i (d_i / h) Z_i),   d = e / gamma_0
 * (for s = 3, d = (-(13 + 7 sqrt6)/3, (-13 + 7 sqrt6)/3, -1/3)), for F = M y' - f identical to
 * RADAU5's E_0^{-1} (f(t_n, y_n) + M sum (d_i/h) Z_i), because f(t_n, y_n) = M y'_n.  On the first
 * step and after a rejection an estimate >= 1 is refined once, as RADAU5 does:
 * err~ = E_0^{-1} (M (y'_n + sum (d_i/h) Z_i) - F(t_n, y_n + err, y'_n)).  No residual at
 * (t_n, y_n) is needed: y'_n is the last stage derivative W_s of the previous step (RADAU5 spends
 * one evaluation of f per step on it).
 *
 * Norms and step size.  err and the Newton increments are measured in the RMS norm weighted by
 * sc_i = atol' + rtol' |y_{n,i}|, rtol' = f rtol^e, atol' = rtol' atol / rtol (RADAU's f = 0.1;
 * the estimate is O(h^(s+1)), the global error O(h^(2s-1))); components of index 2 have sc_i / h,
 * those of index 3 sc_i / h^2 (mbdae_problem_index), as RADAU5 does for DAEs up to index 3.  New
 * step: h / quot with quot = clamp(err^(1/(s+1)) / fac, 1/8, 5), fac = min(0.9, 0.9 (1 + 2 nit) /
 * (newt + 2 nit)), and Gustafsson's predictive controller after accepted steps (not right after an
 * order change).  The end-point rule (END_RULE, applied by the shared driver, solvers/driver.h)
 * sets every new h, after rejections too, and makes the last two steps equal; RADAU5 applies its
 * rule only after accepted steps and may leave a short last step, whose index-3 components are
 * poor.  Measured with radau5 on the slider crank near rtol 1e-4 (25 tolerances x 3 initial
 * steps): mescd there is set by a_q3 (y20), whose reference -1.42 is a fast oscillation of the
 * longitudinal beam mode that steps of 1e-3 do not resolve and damp to about 0 (mescd 0.22-0.24);
 * the 4 runs whose last step was rejected ended with a short step after a long one and a_q3 =
 * +0.14 to +0.20 (mescd 0.18-0.19); they now match the other 71, which are unchanged.
 *
 * Order selection (`radau`; the 1999 paper, RADAU's defaults).  Whenever the matrices are
 * refactored, with thetat = min(10, max(theta, thetat / 2)) the smoothed Newton contraction of the
 * last step: the stage count goes up by 2 when thetat <= 0.002, the last iteration took more than
 * one step, 0.8 < h/h_old < 1.2 and more than 10 such decisions were made since the last change;
 * it goes down by 2 when thetat >= 0.8, after a Newton failure or a singular matrix, or after slow
 * convergence that cut h by more than half.  A kept factorization counts as a decision, and after
 * 10 of them a refactorization is forced so that the order can rise.  Departure: after an order
 * change RADAU starts Newton from Z = 0; here the previous step's collocation polynomial (of its
 * own degree) is extrapolated to the new nodes, as within one order.
 *
 * radau5's rounding (radau_controls.radau5_bits).  radau5 was a separate 3-stage code before it
 * became this integrator with s = 3; it keeps that code's tableau constants
 * (radau_tableau_radau5) and its operation order in two places (W = ((A^{-1} (x) I) Z) (1/h), and
 * the extrapolated starting values summed from the first stage), so that its runs stay bit for
 * bit: with radau's rounding, 7 of radau5's 17 published rows (pendulum, double pendulum, chain)
 * and 11 of its 30 sweep rows at rtol 1e-4..1e-5 change their counts, and the pendulum with
 * `form=dummy,select=x` passes the first zero of x that it failed at.
 *
 * The step limit, output at requested times, the projection (mbdae_options.project, on y, y'
 * after an accepted step: the next step starts there) and on_step (order 2s - 1) are the shared
 * driver's.  Continuous output: the collocation polynomial of degree s through (t_n, y_n) and
 * (t_n + c_i h, y_n + Z_i). */
#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "fail.h"
#include "linsys.h"
#include "newton.h"
#include "radau.h"
#include "radau_tableau.h"
#include "solver_type.h"
#include "weights.h"

enum {
  MAXS = RADAU_MAX_STAGES,
  MIN_STAGES = 3 /* s = 3 + 2 k for the order set k */
};

/* RADAU's parameters (its documentation's defaults; for s = 3 RADAU5's) */
static const int NEWTON_ITER_BASE = 7;         /* nit = 7 + 2.5 (s - 3) */
static const double UROUND = 1e-16;            /* unit roundoff */
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
static const double DEFAULT_H0 = 1e-6;         /* default initial step, times the interval */
static const double ORDER_UP_THETA = 0.002;    /* raise the order when thetat <= this */
static const double ORDER_DOWN_THETA = 0.8;    /* lower it when thetat >= this */
static const double ORDER_UP_HQUOT_LO = 0.8;   /* raise only for h/h_old in (LO, HI) */
static const double ORDER_UP_HQUOT_HI = 1.2;
static const int ORDER_UP_WAIT = 10; /* decisions after a change before the order may rise */
static const double SLOW_CUT = 0.5;  /* slow convergence cutting h by this lowers the order */
/* The end-point rule: the rest of the interval when hnew reaches tend (a remainder below hnew/1000
 * is absorbed), half the rest when two steps of hnew would reach it (two equal steps instead of
 * hnew and a short remainder, whose index-2 and index-3 components would be amplified by 1/h and
 * 1/h^2), else hnew; applied to every new step size, after rejections too (see the header). */
static const driver_end_rule END_RULE = {1.001, 2, 0.0, 1};
/* Largest predicted Newton contraction factor a step-size increase may lead to (addition 2). */
static const double THETA_TARGET = 0.5;
/* The Newton error of differential components may add up to at most this many steps' worth of
 * RADAU's Newton tolerance (addition 1, set_weights).  Runs of up to 300 steps keep RADAU's test;
 * the test set's problems take 100 to 300 steps at the tolerances of the published tables. */
static const double NEWTON_STEPS = 300.0;
/* Polishing iterations (check_increment) stop when the increment shrinks by less than this. */
static const double POLISH_CONTRACTION = 0.5;

/* One stage count: its tableau and the controls that depend on s. */
typedef struct order_set {
  radau_tableau tb;
  int max_iter;                /* Newton iterations per step */
  mbdae_tolerance tol;         /* rtol', atol' */
  double fnewt;                /* Newton stopping tolerance */
  double expo;                 /* 1 / (s + 1): exponent of the step-size prediction */
  double neg_tinv[MAXS][MAXS]; /* -T^{-1}: the stage residuals to the Newton right-hand sides */
} order_set;

typedef struct radau {
  const radau_controls *ctl;
  const mbdae_problem *p;
  int n;
  order_set orders[RADAU_ORDER_SETS];  /* s = 3, 5, 7 (tb.s = 0: not computed yet) */
  double rtol, atol;                   /* the user's tolerances */
  int k;                               /* the current one: s = orders[k].tb.s */
  const int *index;                    /* differentiation index per variable */
  mbdae_jacobian jac;                  /* J and M at the last Jacobian point */
  mbdae_itmat real;                    /* E_0 */
  mbdae_itmat pair[RADAU_MAX_PAIRS];   /* E_k */
  double *z[MAXS], *v[MAXS], *w[MAXS]; /* stage increments, transformed, stage derivatives */
  double *g[MAXS];                     /* stage residuals, then the Newton corrections */
  double *cont_z[MAXS];                /* stage increments of the last accepted step */
  double *tmp[MAXS];                   /* scratch: stage residuals before the transformation */
  double *ystage, *wscal, *wnewt, *err, *mq, *cont_y; /* wscal, wnewt: 1 / the weights */
  double ainv_h[MAXS][MAXS]; /* A^{-1} / h for the step h of the current attempt */
  double rh;                 /* 1 / h (radau5_bits: W is scaled after the sum) */
  int *differential;         /* 1 when y'_i enters F */
  int cont_k;                /* the order set of the last accepted step */
  double cont_t, cont_h;
  void *block;
  mbdae_stats *stats;

  double *y, *yp;
  double tend, span;
  int need_jac, need_lu, fresh_jac, first, reject, nsing;
  int undefined; /* the last attempt failed on a stage residual that could not be evaluated */
  double theta, faccon, hacc, erracc;
  /* order selection */
  double thetat;  /* smoothed contraction */
  int decisions;  /* decisions since the last change */
  int last_iters; /* Newton iterations of the last attempt */
  int unexpected; /* a Newton failure or singular matrix since the last decision */
  int slow_cut;   /* slow convergence cut h by SLOW_CUT or more since the last decision */
  int changed;    /* the order changed and no step was accepted with it yet */
  double hold;    /* the last accepted step */
} radau;

static int stages(const radau *s) { return s->orders[s->k].tb.s; }

/* ---- set-up ----------------------------------------------------------------------------- */

/* fm = f m (ns x ns). */
static void scaled(int ns, const double m[MAXS][MAXS], double f, double fm[MAXS][MAXS])
{
  for (int i = 0; i < ns; i++) {
    for (int j = 0; j < ns; j++) {
      fm[i][j] = f * m[i][j];
    }
  }
}

/* The order set k (s = 3 + 2k), computed when the order first reaches it. */
static int order_set_init(radau *s, int k)
{
  order_set *o = &s->orders[k];
  int ns = MIN_STAGES + 2 * k;
  int rc = 0;
  if (s->ctl->radau5_bits && ns == MIN_STAGES) {
    radau_tableau_radau5(&o->tb);
  } else {
    rc = radau_tableau_init(&o->tb, ns);
  }
  if (rc != 0) {
    return rc;
  }
  double e = (ns + 1.0) / (2.0 * ns);
  o->max_iter = NEWTON_ITER_BASE + (5 * (ns - 3)) / 2;
  o->tol.rtol = s->ctl->tol_factor * pow(s->rtol, e);
  o->tol.atol = o->tol.rtol * (s->atol / s->rtol);
  o->tol.factor = 1.0;
  o->fnewt = fmax(10.0 * UROUND / o->tol.rtol, fmin(0.03, pow(o->tol.rtol, 1.0 / e - 1.0)));
  o->expo = 1.0 / (ns + 1.0);
  const radau_tableau *tb = &o->tb;
  scaled(ns, tb->tinv, -1.0, o->neg_tinv);
  return 0;
}

static double *take(double **cursor, size_t count)
{
  double *piece = *cursor;
  *cursor += count;
  return piece;
}

/* One allocation: the doubles, then the ints (the Jacobian store and the iteration matrices, by
 * kind, allocate their own in workspace_create). */
static int workspace_alloc(radau *s)
{
  size_t n = (size_t)s->n;
  size_t ndouble = 6 * MAXS * n + 6 * n;
  char *mem = malloc(ndouble * sizeof(double) + n * sizeof(int));
  if (!mem) {
    return MBDAE_ERR_NOMEM;
  }
  s->block = mem;
  double *cursor = (double *)mem;
  double **stage_arrays[] = {s->z, s->v, s->w, s->g, s->cont_z, s->tmp};
  for (size_t a = 0; a < sizeof stage_arrays / sizeof stage_arrays[0]; a++) {
    for (int i = 0; i < MAXS; i++) { /* one block per kind: stage i at i n (see combine) */
      stage_arrays[a][i] = take(&cursor, n);
    }
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
  mbdae_itmat_free(&s->real);
  for (int k = 0; k < RADAU_MAX_PAIRS; k++) {
    mbdae_itmat_free(&s->pair[k]);
  }
  mbdae_jacobian_free(&s->jac);
  free(s->block);
}

/* The Jacobian store of the kind asked for (opt->linsys), E_0, the E_k and the work arrays: 0,
 * or a negative code with a message in msg (workspace_free frees what was allocated). */
static int workspace_create(radau *s, int kind, char *msg, size_t msglen)
{
  int rc = mbdae_jacobian_create(&s->jac, s->p, mbdae_linsys_choose(s->p, s->ctl->caps, kind), msg,
                                 msglen);
  if (rc != 0) {
    return rc;
  }
  rc = mbdae_itmat_create(&s->real, &s->jac, 0);
  for (int k = 0; rc == 0 && k < RADAU_MAX_PAIRS; k++) {
    rc = mbdae_itmat_create(&s->pair[k], &s->jac, 1);
  }
  if (rc == 0) {
    rc = workspace_alloc(s);
  }
  if (rc != 0) {
    snprintf(msg, msglen, "out of memory");
  }
  return rc;
}

/* ---- linear algebra, weights, norms ----------------------------------------------------- */

/* E_0 and the E_k of the current order, factored. */
static int factorize(radau *s, double h)
{
  const radau_tableau *tb = &s->orders[s->k].tb;
  int rc = mbdae_itmat_factor(&s->real, tb->gamma / h);
  for (int k = 0; rc == 0 && k < (tb->s - 1) / 2; k++) {
    rc = mbdae_itmat_factor_shift(&s->pair[k], tb->alpha[k] / h, tb->beta[k] / h);
  }
  return rc;
}

/* Weights at y_n for a step of size h, kept as reciprocals (the norms multiply).  Error test
 * (wscal = 1 / sc): the tolerance sc, divided by h^(index - 1) for the index-2 and index-3
 * components as in RADAU5 (their error estimate overstates their error by these powers of h).
 * Newton test (wnewt): the same for algebraic components, whose Newton error stays inside the
 * step.  The Newton error of a differential component, however, is a true error that every later
 * step inherits: with RADAU5's weights it adds up over the N = T/h steps of the interval T to
 * N fnewt sc_i, which for the velocities (sc_i = tol/h) grows like T^2/h^2 and stalls the
 * pendulum's accuracy near 1e-4 whatever the tolerance.  Their weights are therefore scaled by
 * min(1, NEWTON_STEPS / N): the accumulated Newton error is held to what RADAU5 allows over
 * NEWTON_STEPS steps (runs with fewer steps keep RADAU5's test; addition 1 of the header). */
static void set_weights(radau *s, double h)
{
  const mbdae_tolerance *tol = &s->orders[s->k].tol;
  double tighten = fmin(1.0, NEWTON_STEPS * h / s->span);
  for (int i = 0; i < s->n; i++) {
    double sc = mbdae_tolerance_at(tol, s->y[i]) / mbdae_index_factor(s->index[i], h);
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

/* RMS norms of the corrections dV (the first ns arrays of g) in the weights wscal and wnewt, in
 * one pass (each sum stage by stage, in the order of the components). */
static void increment_norms(const radau *s, double *scal_norm, double *newt_norm)
{
  int ns = stages(s);
  double scal = 0.0, newt = 0.0;
  for (int i = 0; i < ns; i++) {
    const double *dv = s->g[i];
    double scal_i = 0.0, newt_i = 0.0;
    for (int k = 0; k < s->n; k++) {
      double q = dv[k] * s->wscal[k], r = dv[k] * s->wnewt[k];
      scal_i += q * q;
      newt_i += r * r;
    }
    scal += scal_i;
    newt += newt_i;
  }
  *scal_norm = sqrt(scal / (ns * s->n));
  *newt_norm = sqrt(newt / (ns * s->n));
}

/* ---- collocation polynomial ------------------------------------------------------------- */

/* u(t_n + x h) - y_n = sum_j l_j(x) Z_j: the Lagrange basis on 0, c_1, ..., c_s (the node 0 with
 * value 0 gives the factor x). */
static void collocation_weights(const radau_tableau *tb, double x, double l[MAXS])
{
  for (int j = 0; j < tb->s; j++) {
    double lj = x / tb->c[j];
    for (int k = 0; k < tb->s; k++) {
      if (k != j) {
        lj *= (x - tb->c[k]) / (tb->c[j] - tb->c[k]);
      }
    }
    l[j] = lj;
  }
}

/* out_i = sum_j fm_ij in_j (i, j < ns) over n components, with stage j of in at in + j n and of
 * out at out + j n (the blocks of workspace_alloc), the sum in the order of j.  Inlined with a
 * constant ns (the stage counts 3, 5, 7 of the three orders), the loops over i and j unroll and
 * the loop over the components vectorizes. */
static inline void combine_fixed(int ns, size_t n, const double fm[MAXS][MAXS],
                                 const double *restrict in, double *restrict out, int scale,
                                 double post)
{
  for (int i = 0; i < ns; i++) {
    double *restrict out_i = out + (size_t)i * n;
    for (size_t k = 0; k < n; k++) {
      double o = fm[i][0] * in[k];
      for (int j = 1; j < ns; j++) {
        o += fm[i][j] * in[(size_t)j * n + k];
      }
      out_i[k] = scale ? o * post : o;
    }
  }
}

/* out = (m (x) I) in, i, j < ns, for the stage blocks in and out (stage i at i n, no overlap):
 * the Kronecker product, component by component. */
static void combine(int ns, int n, const double m[MAXS][MAXS], const double *in, double *out)
{
  switch (ns) {
  case 3:
    combine_fixed(3, (size_t)n, m, in, out, 0, 1.0);
    break;
  case 5:
    combine_fixed(5, (size_t)n, m, in, out, 0, 1.0);
    break;
  case 7:
    combine_fixed(7, (size_t)n, m, in, out, 0, 1.0);
    break;
  default:
    combine_fixed(ns, (size_t)n, m, in, out, 0, 1.0);
  }
}

/* out = ((m (x) I) in) post: combine, each sum times post (radau5's W; s = 3 unrolled). */
static void combine_times(int ns, int n, const double m[MAXS][MAXS], double post, const double *in,
                          double *out)
{
  if (ns == MIN_STAGES) {
    combine_fixed(MIN_STAGES, (size_t)n, m, in, out, 1, post);
  } else {
    combine_fixed(ns, (size_t)n, m, in, out, 1, post);
  }
}

/* Z = (T (x) I) V and W = (A^{-1} / h (x) I) Z: with s->ainv_h (set by starting_values), or for
 * radau5_bits as (A^{-1} (x) I) Z times 1/h (radau5's rounding, see the header). */
static void stages_from_v(const radau *s)
{
  const radau_tableau *tb = &s->orders[s->k].tb;
  combine(tb->s, s->n, tb->t, s->v[0], s->z[0]);
  if (!s->ctl->radau5_bits) {
    combine(tb->s, s->n, s->ainv_h, s->z[0], s->w[0]);
    return;
  }
  combine_times(tb->s, s->n, tb->ainv, s->rh, s->z[0], s->w[0]);
}

/* u[k] = sum_j l_j Z_j[k] - Z_last[k] for the kept stages Z_j of the last step (the block
 * cont_z: stage j at j n), the sum from -Z_last in the order of j, or for last_after (radau5's
 * rounding) in the order of j and then - Z_last. */
static inline void extrapolate_fixed(int nold, size_t n, const double *l, const double *restrict cz,
                                     double *restrict u, int last_after)
{
  const double *last = cz + (size_t)(nold - 1) * n;
  for (size_t k = 0; k < n; k++) {
    double sum = last_after ? l[0] * cz[k] : -last[k] + l[0] * cz[k];
    for (int j = 1; j < nold; j++) {
      sum += l[j] * cz[(size_t)j * n + k];
    }
    u[k] = last_after ? sum - last[k] : sum;
  }
}

/* extrapolate_fixed with a constant stage count and order of the sum (the loop over j unrolls). */
static void extrapolate(int nold, int n, const double *l, const double *cz, double *u,
                        int last_after)
{
  if (last_after && nold == MIN_STAGES) {
    extrapolate_fixed(MIN_STAGES, (size_t)n, l, cz, u, 1);
    return;
  }
  if (last_after) {
    extrapolate_fixed(nold, (size_t)n, l, cz, u, 1);
    return;
  }
  switch (nold) {
  case 3:
    extrapolate_fixed(3, (size_t)n, l, cz, u, 0);
    break;
  case 5:
    extrapolate_fixed(5, (size_t)n, l, cz, u, 0);
    break;
  case 7:
    extrapolate_fixed(7, (size_t)n, l, cz, u, 0);
    break;
  default:
    extrapolate_fixed(nold, (size_t)n, l, cz, u, 0);
  }
}

/* Newton starting values for a step of size h: the last step's collocation polynomial (of its own
 * degree) extrapolated to the new nodes, or Z_i = c_i h y'_n before the first accepted step. */
static void starting_values(radau *s, double h)
{
  const radau_tableau *tb = &s->orders[s->k].tb, *old = &s->orders[s->cont_k].tb;
  int ns = tb->s;
  for (int i = 0; i < ns; i++) {
    if (s->first) {
      for (int k = 0; k < s->n; k++) {
        s->z[i][k] = tb->c[i] * h * s->yp[k];
      }
      continue;
    }
    double l[MAXS];
    collocation_weights(old, 1.0 + tb->c[i] * h / s->cont_h, l);
    extrapolate(old->s, s->n, l, s->cont_z[0], s->z[i], s->ctl->radau5_bits);
  }
  scaled(ns, tb->ainv, 1.0 / h, s->ainv_h);
  s->rh = 1.0 / h;
  combine(ns, s->n, tb->tinv, s->z[0], s->v[0]);
  stages_from_v(s);
}

/* y at t inside the last accepted step. */
static void interpolate(const void *m, double t, double *yout)
{
  const radau *s = m;
  const radau_tableau *tb = &s->orders[s->cont_k].tb;
  double l[MAXS];
  collocation_weights(tb, (t - s->cont_t) / s->cont_h, l);
  for (int k = 0; k < s->n; k++) {
    double u = s->cont_y[k];
    for (int j = 0; j < tb->s; j++) {
      u += l[j] * s->cont_z[j][k];
    }
    yout[k] = u;
  }
}

/* ---- the Newton iteration (the loop is solvers/newton.h's) -------------------------------- */

/* One simplified Newton solve of the stages of [t, t + h]: the phases' shared state. */
typedef struct stage_solve {
  radau *s;
  double t, h;
  int polishing;         /* RADAU's test holds; going on in the Newton weights */
  double dyno, strict;   /* ||dV|| in the error weights and in the Newton weights */
  double dynold, thqold; /* the previous ||dV|| and contraction (RADAU5's rate watch) */
  double strict_old;     /* the previous ||dV|| in the Newton weights while polishing */
  double hfac;           /* step-size factor for NEWTON_SLOW */
} stage_solve;

/* G_i = F(t + c_i h, y_n + Z_i, W_i) into tmp, then -(T^{-1} (x) I) G into g.  0, positive when a
 * stage cannot be evaluated, or a negative code. */
static inline int stage_residuals(void *ctx)
{
  const stage_solve *ss = ctx;
  radau *s = ss->s;
  const radau_tableau *tb = &s->orders[s->k].tb;
  int n = s->n, ns = tb->s;
  for (int i = 0; i < ns; i++) {
    for (int k = 0; k < n; k++) {
      s->ystage[k] = s->y[k] + s->z[i][k];
    }
    int rc = mbdae_residual_checked(s->p, ss->t + tb->c[i] * ss->h, s->ystage, s->w[i], s->tmp[i],
                                    &s->stats->nres);
    if (rc != 0) {
      return rc;
    }
  }
  const order_set *o = &s->orders[s->k];
  combine(ns, n, o->neg_tinv, s->tmp[0], s->g[0]);
  return 0;
}

/* The corrections dV in place of the right-hand sides. */
static inline int solve_corrections(void *ctx)
{
  radau *s = ((stage_solve *)ctx)->s;
  int rc = mbdae_itmat_solve(&s->real, s->g[0]);
  for (int k = 0; rc == 0 && k < (stages(s) - 1) / 2; k++) {
    rc = mbdae_itmat_solve_shift(&s->pair[k], s->g[2 * k + 1], s->g[2 * k + 2]);
  }
  return rc;
}

/* RADAU's watch on the contraction after iteration newt >= 2 (thq = |dV_newt| / |dV_newt-1|):
 * NEWTON_FAILED on divergence, NEWTON_SLOW (with the step-size factor hfac) when the error left
 * after the remaining iterations at this rate would exceed fnewt, else NEWTON_CONTINUE. */
static newton_outcome watch_rate(stage_solve *ss, int newt, double thq)
{
  radau *s = ss->s;
  const order_set *o = &s->orders[s->k];
  s->theta = newt == 2 ? thq : sqrt(thq * ss->thqold);
  ss->thqold = thq;
  if (s->theta >= THETA_DIVERGE) {
    return NEWTON_FAILED;
  }
  s->faccon = s->theta / (1.0 - s->theta);
  double dyth = s->faccon * ss->dyno * pow(s->theta, o->max_iter - 1 - newt) / o->fnewt;
  if (dyth >= 1.0) {
    double qnewt = fmax(1e-4, fmin(20.0, dyth));
    ss->hfac = 0.8 * pow(qnewt, -1.0 / (4.0 + o->max_iter - 1 - newt));
    return NEWTON_SLOW;
  }
  return NEWTON_CONTINUE;
}

/* Before dV is applied: its norms; while polishing, stop (keeping the last iterate) when they no
 * longer shrink (the roundoff level); else RADAU's failure tests and rate watch. */
static inline newton_outcome check_increment(void *ctx, int newt)
{
  stage_solve *ss = ctx;
  radau *s = ss->s;
  increment_norms(s, &ss->dyno, &ss->strict);
  if (ss->polishing) {
    return ss->strict <= POLISH_CONTRACTION * ss->strict_old ? NEWTON_CONTINUE : NEWTON_CONVERGED;
  }
  s->last_iters = newt;
  if (!isfinite(ss->dyno)) {
    return NEWTON_FAILED;
  }
  int max_iter = s->orders[s->k].max_iter;
  if (newt > 1 && newt < max_iter) {
    newton_outcome verdict = watch_rate(ss, newt, ss->dyno / ss->dynold);
    if (verdict != NEWTON_CONTINUE) {
      return verdict;
    }
  }
  ss->dynold = fmax(ss->dyno, UROUND);
  return NEWTON_CONTINUE;
}

/* V += dV and the stages from V, then the stopping tests: RADAU's faccon ||dV|| <= fnewt starts
 * the polishing, the same test in the Newton weights ends it; the iteration limit ends both. */
static inline newton_outcome apply_corrections(void *ctx, int newt)
{
  stage_solve *ss = ctx;
  radau *s = ss->s;
  const order_set *o = &s->orders[s->k];
  size_t count = (size_t)stages(s) * (size_t)s->n; /* the blocks of workspace_alloc */
  double *restrict v = s->v[0];
  const double *restrict dv = s->g[0];
  for (size_t k = 0; k < count; k++) {
    v[k] += dv[k];
  }
  stages_from_v(s);
  if (ss->polishing || s->faccon * ss->dyno <= o->fnewt) {
    if (s->faccon * ss->strict <= o->fnewt) {
      return NEWTON_CONVERGED;
    }
    ss->polishing = 1;
    ss->strict_old = ss->strict;
  }
  if (newt >= o->max_iter) {
    return ss->polishing ? NEWTON_CONVERGED : NEWTON_FAILED;
  }
  return NEWTON_CONTINUE;
}

static const newton_ops STAGE_NEWTON = {stage_residuals, solve_corrections, check_increment,
                                        apply_corrections};

/* Simplified Newton for the stages of [t, t + h]: 0 and the outcome, or a negative code.
 * RADAU's test decides success, failure and slow convergence; once it holds, the iteration goes
 * on (polishing, addition 1 of the header) until the same test holds in the Newton weights wnewt,
 * the increments in that norm stop shrinking, or the iteration limit is reached. */
static int newton(radau *s, double t, double h, double *hfac, newton_outcome *outcome)
{
  stage_solve ss = {s, t, h, 0, 0.0, 0.0, 1.0, 1.0, INFINITY, *hfac};
  s->faccon = pow(fmax(s->faccon, UROUND), 0.8);
  s->theta = THETA_REUSE_JAC;
  int rc = newton_iterate(&STAGE_NEWTON, &ss, 0, outcome);
  *hfac = ss.hfac;
  return rc;
}

/* ---- error estimate --------------------------------------------------------------------- */

/* err = E_0^{-1} M q into s->err, q in s->err on entry; s->mq keeps M q. */
static int filter(radau *s)
{
  mbdae_jacobian_mult_dfdyp(&s->jac, NULL, s->err, s->mq);
  memcpy(s->err, s->mq, sizeof(double) * (size_t)s->n);
  return mbdae_itmat_solve(&s->real, s->err);
}

/* The filtered estimate (see the header), refined once when refine is set and it fails;
 * *errnorm is its weighted RMS norm (infinite when not finite). */
static int estimate_error(radau *s, double t, double h, int refine, double *errnorm)
{
  const radau_tableau *tb = &s->orders[s->k].tb;
  int n = s->n;
  for (int k = 0; k < n; k++) {
    double sum = 0.0;
    for (int i = 0; i < tb->s; i++) {
      sum += tb->d[i] * s->z[i][k];
    }
    s->err[k] = s->yp[k] + sum / h;
  }
  int rc = filter(s);
  if (rc != 0) {
    return rc;
  }
  double e = fmax(sqrt(sum_squares(n, s->err, s->wscal) / n), 1e-10);
  if (e >= 1.0 && refine) {
    double *fval = s->g[0]; /* free after the Newton iteration */
    for (int k = 0; k < n; k++) {
      s->ystage[k] = s->y[k] + s->err[k];
    }
    rc = mbdae_residual_checked(s->p, t, s->ystage, s->yp, fval, &s->stats->nres);
    if (rc < 0) {
      return rc;
    }
    if (rc == 0) { /* else the first estimate stands */
      for (int k = 0; k < n; k++) {
        s->err[k] = s->mq[k] - fval[k];
      }
      rc = mbdae_itmat_solve(&s->real, s->err);
      if (rc != 0) {
        return rc;
      }
      e = fmax(sqrt(sum_squares(n, s->err, s->wscal) / n), 1e-10);
    }
  }
  *errnorm = isfinite(e) ? e : INFINITY;
  return 0;
}

/* ---- the phases of a step (the loop is the shared driver's) ------------------------------ */

/* RADAU's order decision before a refactorization for the step h (see the header). */
static void choose_order(radau *s, double h)
{
  s->decisions++;
  s->thetat = fmin(10.0, fmax(s->theta, 0.5 * s->thetat));
  int k = s->k;
  double hquot = h / s->hold;
  if (s->last_iters > 1 && s->thetat <= ORDER_UP_THETA && hquot > ORDER_UP_HQUOT_LO &&
      hquot < ORDER_UP_HQUOT_HI && s->decisions > ORDER_UP_WAIT && k < s->ctl->max_order_set) {
    k++;
  }
  if ((s->thetat >= ORDER_DOWN_THETA || s->unexpected || s->slow_cut) && k > 0) {
    k = s->k - 1;
  }
  s->unexpected = s->slow_cut = 0;
  if (k != s->k && s->orders[k].tb.s == 0 && order_set_init(s, k) != 0) {
    k = s->k; /* does not happen for s = 3, 5, 7; the run goes on at the order it has */
  }
  if (k != s->k) {
    s->k = k;
    s->decisions = 1;
    s->changed = 1;
  }
}

/* Before an attempt at (t, y_n) with step h: the Jacobian when asked for, then the order and the
 * factorizations; a singular matrix asks for a retry with h / 2 (at most MAX_SINGULAR in a row). */
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
  choose_order(s, h);
  int rc = factorize(s, h);
  if (rc == MBDAE_ERR_SINGULAR) {
    rep->outcome = DRIVER_RETRY;
    if (++s->nsing >= MAX_SINGULAR) {
      rep->outcome = DRIVER_FAILED;
      mbdae_driver_give_up(rep, MBDAE_ERR_SINGULAR, "iteration matrix singular %d times in a row",
                           s->nsing);
    }
    rep->hnew = h * FAIL_FACTOR;
    s->reject = s->unexpected = 1;
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

/* A rejected attempt: retry with hnew and new factors (a new Jacobian unless it is fresh). */
static void reject(radau *s, driver_outcome kind, double hnew, driver_report *rep)
{
  s->reject = 1;
  s->need_jac = !s->fresh_jac;
  s->need_lu = 1;
  rep->outcome = kind;
  rep->hnew = hnew;
}

/* The accepted step [t, t + h]: keep its collocation polynomial, move y, y' to its end. */
static void accept(radau *s, double t, double h)
{
  int n = s->n, ns = stages(s);
  s->nsing = 0;
  s->first = 0;
  s->changed = 0;
  s->hold = h;
  memcpy(s->cont_y, s->y, sizeof(double) * (size_t)n);
  memcpy(s->cont_z[0], s->z[0], sizeof(double) * (size_t)ns * (size_t)n);
  s->cont_k = s->k;
  s->cont_t = t;
  s->cont_h = h;
  for (int k = 0; k < n; k++) {
    s->y[k] += s->z[ns - 1][k];
  }
  memcpy(s->yp, s->w[ns - 1], sizeof(double) * (size_t)n);
  s->fresh_jac = 0;
}

/* The step size after an accepted step of size h with error err (h / quot from the error alone):
 * Gustafsson's predictive controller (not on the first step with a new order), the cap on the
 * predicted Newton contraction, no increase right after a rejection. */
static double next_step_size(radau *s, double h, double err, double quot)
{
  double expo = s->orders[s->k].expo;
  if (!s->first && !s->changed) {
    double facgus = (s->hacc / h) * pow(err * err / s->erracc, expo) / SAFETY;
    quot = fmax(quot, fmax(QUOT_MIN, fmin(QUOT_MAX, facgus)));
  }
  s->hacc = h;
  s->erracc = fmax(1e-2, err);
  double hnew = h / quot;
  if (s->last_iters >= 2) {
    hnew = fmin(hnew, h * sqrt(THETA_TARGET / s->theta));
  }
  if (s->reject) {
    hnew = fmin(hnew, h);
  }
  s->reject = 0;
  return hnew;
}

/* A Newton failure (after which the order goes down) or slow convergence: the rejection. */
static void newton_rejected(radau *s, newton_outcome outcome, double h, double hfac,
                            driver_report *rep)
{
  if (outcome == NEWTON_SLOW) {
    s->slow_cut |= hfac <= SLOW_CUT;
    reject(s, DRIVER_REJECTED_CONV, h * hfac, rep);
  } else {
    s->unexpected = 1;
    reject(s, DRIVER_REJECTED_CONV, h * FAIL_FACTOR, rep);
  }
}

/* One attempt of the step [t, t + h]: the stages, the error estimate, the decision. */
static void attempt(void *m, double t, double h, double tnew, driver_report *rep)
{
  radau *s = m;
  (void)tnew; /* y_{n+1} = y_n + Z_s lands on t + h, or on tend for the last step */
  const order_set *o = &s->orders[s->k];
  double hmin = 10.0 * DBL_EPSILON * fmax(fabs(t), fabs(s->tend));
  if (h < hmin) {
    rep->outcome = DRIVER_FAILED;
    mbdae_driver_give_up(rep, MBDAE_ERR_STEP_TOO_SMALL,
                         "step size below the minimum 10 eps max(|t|, |tend|) = %.3e%s", hmin,
                         s->undefined ? DRIVER_RESIDUAL_WALL : "");
    return;
  }
  set_weights(s, h);
  starting_values(s, h);
  double hfac = FAIL_FACTOR, err = INFINITY;
  newton_outcome outcome;
  int rc = newton(s, t, h, &hfac, &outcome);
  if (rc == 0 && outcome == NEWTON_CONVERGED) {
    rc = estimate_error(s, t, h, s->first || s->reject, &err);
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
    newton_rejected(s, outcome, h, hfac, rep);
    return;
  }
  double fac = fmin(SAFETY, SAFETY * (1 + 2 * o->max_iter) / (s->last_iters + 2 * o->max_iter));
  double quot = fmax(QUOT_MIN, fmin(QUOT_MAX, pow(err, o->expo) / fac));
  if (err >= 1.0) {
    reject(s, DRIVER_REJECTED_ERROR, s->first ? h * FIRST_REJECT_FACTOR : h / quot, rep);
    return;
  }
  rep->hnew = next_step_size(s, h, err, quot);
  rep->order = 2 * o->tb.s - 1;
  accept(s, t, h);
  rep->outcome = DRIVER_ACCEPTED;
}

/* After an accepted step: keep h and the factors while h_new/h is in [QUOT_KEEP_LO, QUOT_KEEP_HI]
 * and the Jacobian converged fast (RADAU's rule; not for the last steps), counting the kept step
 * as an order decision and refactoring after ORDER_UP_WAIT of them so that the order may rise;
 * else refactor, with a new Jacobian when theta was above THETA_REUSE_JAC. */
static double resize(void *m, double h, double hnext, double hplan, int last)
{
  radau *s = m;
  double qt = hnext / h;
  if (!last && hplan == hnext && s->theta <= THETA_REUSE_JAC && qt >= QUOT_KEEP_LO &&
      qt <= QUOT_KEEP_HI) {
    if (++s->decisions >= ORDER_UP_WAIT && s->k < s->ctl->max_order_set) {
      s->need_lu = 1;
    }
    return h;
  }
  if (s->theta <= THETA_REUSE_JAC) {
    s->need_lu = 1;
  } else {
    s->need_jac = 1;
  }
  return hplan;
}

/* A step cut short for a stop time: factors for its size (those kept were for the planned one). */
static void shorten(void *m, double h)
{
  radau *s = m;
  (void)h;
  s->need_lu = 1;
}

static const driver_method RADAU_METHOD = {prepare, attempt, resize, interpolate, shorten};

/* The session's release of a run's state. */
static void release(void *m)
{
  radau *s = m;
  workspace_free(s);
  free(s);
}

/* The state of a run from (t0, y, y'): tableau, workspace, controls; NULL with the failure in r. */
static radau *run_state(const radau_controls *c, const mbdae_problem *p, const mbdae_options *opt,
                        double t0, double *y, double *yp, mbdae_result *r)
{
  radau *s = calloc(1, sizeof *s);
  if (!s) {
    mbdae_fail(r, MBDAE_ERR_NOMEM, t0, 0.0, "out of memory");
    return NULL;
  }
  s->ctl = c;
  s->p = p;
  s->n = mbdae_problem_neq(p);
  s->index = mbdae_problem_index(p);
  s->stats = &r->stats;
  s->rtol = opt->rtol;
  s->atol = opt->atol;
  int rc = order_set_init(s, 0);
  if (rc != 0) {
    free(s);
    mbdae_fail(r, rc, t0, 0.0, "Radau IIA tableau: %s", mbdae_strerror(rc));
    return NULL;
  }
  char msg[160];
  rc = workspace_create(s, opt->linsys, msg, sizeof msg);
  if (rc != 0) {
    release(s);
    mbdae_fail(r, rc, t0, 0.0, "%s", msg);
    return NULL;
  }
  s->y = y;
  s->yp = yp;
  s->tend = mbdae_problem_tend(p);
  s->span = s->tend - t0;
  s->need_jac = s->need_lu = s->first = 1;
  s->theta = THETA_REUSE_JAC;
  s->faccon = 1.0;
  s->erracc = 1.0;
  return s;
}

int radau_open(const radau_controls *c, const mbdae_problem *p, const mbdae_options *opt, double t0,
               double *y, double *yp, mbdae_result *r, void **session)
{
  radau *s = run_state(c, p, opt, t0, y, yp, r);
  driver_session *ds =
      mbdae_session_open(&RADAU_METHOD, s, release, p, opt, t0, &END_RULE, y, yp, r);
  if (!ds) {
    return r->status;
  }
  mbdae_driver *d = &ds->d;
  mbdae_driver_own_state(d, y, yp); /* s->y, s->yp: a projection there is the next step's start */
  double h = mbdae_driver_first_step(d, opt->h0 > 0.0 ? opt->h0 : DEFAULT_H0 * s->span);
  s->hacc = s->hold = h;
  return mbdae_session_begin(ds, h, session);
}

/* s = 3, 5, 7: one real and (s - 1)/2 complex factorizations per event (factorize()); the shared
 * driver projects (options.project). */
static const mbdae_solver_caps CAPS = {
    .size = sizeof(mbdae_solver_caps),
    .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_BAND) |
              MBDAE_LINSYS_BIT(MBDAE_JAC_SPARSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_CONDENSED),
    .condenses = 1,
    .projects = 1,
    .steps = 1,
    .dense_output = 1,
    .lu_real = 1,
    .lu_complex = 1,
};

/* RADAU's controls: every order set, rtol' = 0.1 rtol^((s+1)/(2s)). */
static const radau_controls RADAU_CONTROLS = {&CAPS, RADAU_ORDER_SETS - 1, 0.1, 0};

static int open_radau(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                      double *yp, mbdae_result *r, void **session)
{
  return radau_open(&RADAU_CONTROLS, p, opt, t0, y, yp, r, session);
}

const mbdae_stepper mbdae_stepper_radau = MBDAE_SESSION_STEPPER(open_radau);

MBDAE_STEPPER_INTEGRATE(integrate, mbdae_stepper_radau)

const mbdae_solver_type mbdae_solver_radau = {
    sizeof(mbdae_solver_type),
    "radau",
    "Radau IIA, 3/5/7 stages, orders 5/9/13 (RADAU's order selection), F(t, y, y') = 0",
    integrate,
    NULL,
    &CAPS};
