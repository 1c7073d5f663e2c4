/* The Fekete problem: n charged particles on the unit sphere with damping, whose rest positions
 * are elliptic Fekete points (they maximise the product of the mutual distances); an index-2 DAE
 * of dimension 8n in the stabilised form the test set publishes (Test Set for IVP Solvers,
 * release 2.4, problem file fekete.f, "Fekete problem"; after J. Bendtsen and P. G. Thomsen,
 * "Numerical solution of differential algebraic equations", Technical Report IMM-REP-1999-8,
 * IMM, DTU, 1999).
 *
 * Particle i at p_i in R^3 with velocity q_i, the repulsion of every other particle and the
 * damping ("adhesion") -alpha q_i, held on the sphere by lambda_i:
 *   p_i'' = -alpha p_i' + 2 lambda_i p_i + sum_{j != i} (p_i - p_j) / |p_i - p_j|^2,
 *   0 = g_i = |p_i|^2 - 1,   G = dg/dp: row i is 2 p_i^T in the columns of p_i.
 * The published form (stabilised index 2, Gear, Gupta & Leimkuhler), y = (p, q, lambda, mu),
 * p ordered particle by particle (p_1x, p_1y, p_1z, p_2x, ...), M = diag(I_6n, 0_2n):
 *   p' = q + 2 mu_i p_i,   q' = -alpha q_i + 2 lambda_i p_i + sum_j ...,   0 = g_i,  0 = 2 p_i.q_i,
 * index 1 for p and q, 2 for lambda and mu.  Residual in the test set's convention F = M y' - f
 * with f = fekete.f's right-hand side (its subroutine fekfunc, whose algebraic rows hold +g_i and
 * +2 p_i.q_i): rows 6n+1..8n are -g_i and -2 p_i.q_i.  (deTestSet's DAE residual fekres leaves
 * these rows unnegated; the solution is the same.)  published_res evaluates every row in the
 * order of operations of fekete.f, so that it equals the test set's residual bit for bit
 * (tests/test_fekete.c against the Fortran's printed output, tests/testset/fekete.txt).
 *
 * As a model of the mechanical layer (problems/mechanical.h): q = p, v = q, M = I, f = -alpha v +
 * the repulsion, W = -G (f holds +2 lambda_i p_i = +G^T lambda), so W^T lambda = -2 lambda_i p_i;
 * g' = 2 p_i.v_i, g'' = 2 (p_i.a_i + |v_i|^2).  The layer's ggl is the published form (its
 * q' - v + W^T mu is p' - q - 2 mu_i p_i); form=ggl, the default, takes published_res for the
 * residual (the layer's ggl adds the same terms in another order) and the layer for everything
 * else.  form=index3, index2, index1 and baumgarte are the layer's; there is no global minimal
 * parametrisation of n spheres (no form=ssf) and no form=dummy.
 *
 * Start (fekete.f, fekinit), n = 20: four rings of 3, 7, 6 and 4 particles at latitudes 3 pi/8,
 * pi/8, -2 pi/15 and -3 pi/10, longitudes 2 pi k/m + pi/13, pi/29, pi/7 and pi/17 (k = 1..m; the
 * last ring k = 0..3); q = 0, mu = 0 and lambda_i = -p_i.F_i / 2 with F_i the repulsion, which
 * makes g'' = 0; y'(0) = f(y(0)) in the differential rows.  (fekinit also stores f's algebraic
 * rows, g_i and 2 p_i.q_i, in y'(0) of lambda and mu: rounding noise of 1e-16, not derivatives;
 * the layer puts 0 there.)  Other n (key n=, 2..N_MAX): the generalised spiral of E. A.
 * Rakhmanov, E. B. Saff and Y. M. Zhou, "Minimal discrete energy on the sphere", Math. Res.
 * Lett. 1 (1994) 647-662, as E. B. Saff and A. B. J. Kuijlaars, "Distributing many points on a
 * sphere", Math. Intelligencer 19 (1997) 5-11, state it: h_k = -1 + 2 (k-1)/(n-1),
 * theta_k = arccos h_k, phi_k = phi_{k-1} + 3.6 / sqrt(n (1 - h_k^2)) (mod 2 pi), phi_1 = phi_n
 * = 0; then q, lambda, mu as above.
 *
 * Reference at t = 1000, n = 20 only: fekete.f's feksoln (RADAU5, rtol = atol = h0 = 1e-12), the
 * digits of refsol/fekete.txt, which also states how far our own runs confirm them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "mechanical.h"

/* Defined at the end of this file (its model names it); listed in src/harness/problem_list.c. */
extern const problem_type mbdae_problem_fekete;

enum {
  DIM = 3,          /* coordinates per particle */
  N_PUBLISHED = 20, /* particles of the test set's problem (fekete.f, nart = 20) */
  N_MAX = 100       /* particles at most: the Jacobian is dense, (8n)^2 entries */
};

static const double ALPHA = 0.5; /* alpha, the damping: fekete.f (alpha = .5d0) */
/* pi as fekete.f's fekinit writes it (3.141592653589793238462643383d0) */
static const double PI = 3.141592653589793238462643383;

typedef struct fekete_params {
  mech_params mech;      /* first: the layer's view (its model is the one below) */
  int n;                 /* particles, n= */
  mech_model model;      /* this instance's model: its size depends on n */
  int in_scd[7 * N_MAX]; /* index-3 order: p and lambda enter scd, q does not */
} fekete_params;

static int particles(const void *par) { return ((const fekete_params *)par)->n; }

/* q_i' as fekete.f evaluates it: (-alpha v_i + 2 lambda_i p_i), then the repulsion of the others
 * added particle by particle (j ascending), each as (p_i - p_j) / |p_i - p_j|^2 with the squared
 * distance summed over x, y, z.  1 when two particles coincide (the force is undefined). */
static int acceleration(int n, const double *p, const double *v, double lam, int i, double out[DIM])
{
  const double *pi = p + DIM * i;
  for (int k = 0; k < DIM; k++) {
    out[k] = -(ALPHA * v[DIM * i + k]) + 2.0 * lam * pi[k];
  }
  for (int j = 0; j < n; j++) {
    if (j == i) {
      continue;
    }
    double d[DIM], r = 0.0;
    for (int k = 0; k < DIM; k++) {
      d[k] = pi[k] - p[DIM * j + k];
      r += d[k] * d[k];
    }
    if (!(r > 0.0)) {
      return 1;
    }
    for (int k = 0; k < DIM; k++) {
      out[k] += d[k] / r;
    }
  }
  return 0;
}

/* g_i = |p_i|^2 - 1 and g_i' = 2 p_i.v_i, summed in fekete.f's order. */
static double sphere(const double *pi)
{
  return ((-1.0 + pi[0] * pi[0]) + pi[1] * pi[1]) + pi[2] * pi[2];
}

static double sphere_rate(const double *pi, const double *vi)
{
  return (2.0 * pi[0] * vi[0] + 2.0 * pi[1] * vi[1]) + 2.0 * pi[2] * vi[2];
}

/* The published residual (form=ggl), y = (p, q, lambda, mu): M y' - f in fekete.f's order. */
static int published_res(int n, const double *y, const double *yp, double *r)
{
  size_t nq = DIM * (size_t)n;
  const double *p = y, *v = y + nq, *lam = y + 2 * nq, *mu = lam + n;
  for (int i = 0; i < n; i++) {
    double acc[DIM];
    if (acceleration(n, p, v, lam[i], i, acc) != 0) {
      return MBDAE_RECOVERABLE;
    }
    for (int k = 0; k < DIM; k++) {
      size_t at = DIM * (size_t)i + (size_t)k;
      r[at] = yp[at] - (v[at] + 2.0 * mu[i] * p[at]);
      r[nq + at] = yp[nq + at] - acc[k];
    }
    r[2 * nq + (size_t)i] = -sphere(p + DIM * i);
    r[2 * nq + (size_t)n + (size_t)i] = -sphere_rate(p + DIM * i, v + DIM * i);
  }
  return 0;
}

/* ---- the model ------------------------------------------------------------------------------ */

/* R = a - (-alpha v + 2 lambda p + F), particle by particle. */
static int dyn(const void *par, double t, const double *p, const double *v, const double *a,
               const double *lam, double *r)
{
  (void)t;
  int n = particles(par);
  for (int i = 0; i < n; i++) {
    double acc[DIM];
    if (acceleration(n, p, v, lam[i], i, acc) != 0) {
      return MBDAE_RECOVERABLE;
    }
    for (int k = 0; k < DIM; k++) {
      r[DIM * i + k] = a[DIM * i + k] - acc[k];
    }
  }
  return 0;
}

static void zero(double *m, size_t count) { memset(m, 0, sizeof(double) * count); }

static void diagonal(double *m, size_t nq, double value)
{
  zero(m, nq * nq);
  for (size_t i = 0; i < nq; i++) {
    MBDAE_AT(m, nq, i, i) = value;
  }
}

/* dR/dp = -2 lambda_i I (diagonal blocks) - dF/dp with, for each pair, d = p_i - p_j, r = |d|^2:
 * d(d / r)/dd = I / r - 2 d d^T / r^2, + in block (i, i), - in block (i, j); dR/dv = alpha I;
 * dR/da = I. */
static int dyn_jac(const void *par, double t, const double *p, const double *v, const double *a,
                   const double *lam, double *rq, double *rv, double *mass)
{
  (void)t, (void)v, (void)a;
  int n = particles(par);
  size_t nq = DIM * (size_t)n;
  if (rv) {
    diagonal(rv, nq, ALPHA);
  }
  if (mass) {
    diagonal(mass, nq, 1.0);
  }
  if (!rq) {
    return 0;
  }
  zero(rq, nq * nq);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < DIM; k++) {
      MBDAE_AT(rq, nq, DIM * i + k, DIM * i + k) = -2.0 * lam[i];
    }
    for (int j = 0; j < n; j++) {
      double d[DIM], r = 0.0;
      for (int k = 0; j != i && k < DIM; k++) {
        d[k] = p[DIM * i + k] - p[DIM * j + k];
        r += d[k] * d[k];
      }
      if (j == i) {
        continue;
      }
      if (!(r > 0.0)) {
        return MBDAE_RECOVERABLE;
      }
      for (int k = 0; k < DIM; k++) {
        for (int l = 0; l < DIM; l++) {
          double s = (k == l ? 1.0 / r : 0.0) - 2.0 * d[k] * d[l] / (r * r);
          MBDAE_AT(rq, nq, DIM * i + k, DIM * i + l) -= s;
          MBDAE_AT(rq, nq, DIM * i + k, DIM * j + l) += s;
        }
      }
    }
  }
  return 0;
}

static int mass_diag(const void *par, double t, const double *p, double *m)
{
  (void)t, (void)p;
  for (int i = 0; i < DIM * particles(par); i++) {
    m[i] = 1.0;
  }
  return 0;
}

/* W^T lambda = -2 lambda_i p_i, W^T (column i: -2 p_i), d(W^T lambda)/dp = -2 lambda_i I,
 * d(W^T lambda)/dt = 0. */
static int reaction(const void *par, double t, const double *p, const double *lam, double *wtl,
                    double *wt, double *wtlq, double *wtlt)
{
  (void)t;
  int n = particles(par);
  size_t nq = DIM * (size_t)n;
  if (wt) {
    zero(wt, nq * (size_t)n);
  }
  if (wtlq) {
    zero(wtlq, nq * nq);
  }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < DIM; k++) {
      size_t at = DIM * (size_t)i + (size_t)k;
      if (wtl) {
        wtl[at] = -(2.0 * lam[i] * p[at]);
      }
      if (wt) {
        MBDAE_AT(wt, nq, at, i) = -2.0 * p[at];
      }
      if (wtlq) {
        MBDAE_AT(wtlq, nq, at, at) = -2.0 * lam[i];
      }
      if (wtlt) {
        wtlt[at] = 0.0;
      }
    }
  }
  return 0;
}

/* Rows of an n x 3n matrix that has entries only in the particle's own columns: row i, columns
 * 3i..3i+2 = scale * x_i. */
static void own_columns(int n, const double *x, double scale, double *m)
{
  size_t nq = DIM * (size_t)n;
  zero(m, nq * (size_t)n);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < DIM; k++) {
      MBDAE_AT(m, n, i, DIM * i + k) = scale * x[DIM * i + k];
    }
  }
}

static int con(const void *par, double t, const double *p, double *g, double *gq)
{
  (void)t;
  int n = particles(par);
  for (int i = 0; g && i < n; i++) {
    g[i] = sphere(p + DIM * i);
  }
  if (gq) {
    own_columns(n, p, 2.0, gq);
  }
  return 0;
}

static int con_vel(const void *par, double t, const double *p, const double *v, double *gv,
                   double *gvq)
{
  (void)t;
  int n = particles(par);
  for (int i = 0; gv && i < n; i++) {
    gv[i] = sphere_rate(p + DIM * i, v + DIM * i);
  }
  if (gvq) {
    own_columns(n, v, 2.0, gvq);
  }
  return 0;
}

/* g'' = 2 (p_i.a_i + |v_i|^2) at fixed a; d g''/dp = 2 a_i^T, d g''/dv = 4 v_i^T. */
static int con_acc(const void *par, double t, const double *p, const double *v, const double *a,
                   double *ga, double *gaq, double *gav)
{
  (void)t;
  int n = particles(par);
  for (int i = 0; ga && i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < DIM; k++) {
      s += p[DIM * i + k] * a[DIM * i + k] + v[DIM * i + k] * v[DIM * i + k];
    }
    ga[i] = 2.0 * s;
  }
  if (gaq) {
    own_columns(n, a, 2.0, gaq);
  }
  if (gav) {
    own_columns(n, v, 4.0, gav);
  }
  return 0;
}

/* ---- start ---------------------------------------------------------------------------------- */

/* fekinit's rings: particle k of a ring of m lies at longitude 2 pi k / m + pi / offset (k from
 * first to first + m - 1) and latitude sign (num pi) / den, evaluated as fekinit does. */
typedef struct ring {
  int count, first; /* m, and k of its first particle */
  double offset;    /* the longitude shift is pi / offset */
  double sign, num, den;
} ring;

static const ring RINGS[] = {
    {3, 1, 13.0, 1.0, 3.0, 8.0},   /* beta = 3 pi / 8 */
    {7, 1, 29.0, 1.0, 1.0, 8.0},   /* beta = pi / 8 */
    {6, 1, 7.0, -1.0, 2.0, 15.0},  /* beta = -2 pi / 15 */
    {4, 0, 17.0, -1.0, 3.0, 10.0}, /* beta = -3 pi / 10 */
};

static void published_positions(double *p)
{
  int i = 0;
  for (size_t r = 0; r < sizeof RINGS / sizeof RINGS[0]; r++) {
    const ring *g = &RINGS[r];
    double beta = g->sign * (g->num * PI / g->den);
    for (int k = g->first; k < g->first + g->count; k++, i++) {
      double alpha = 2.0 * PI * (double)k / (double)g->count + PI / g->offset;
      p[DIM * i] = cos(alpha) * cos(beta);
      p[DIM * i + 1] = sin(alpha) * cos(beta);
      p[DIM * i + 2] = sin(beta);
    }
  }
}

/* Rakhmanov, Saff & Zhou's generalised spiral (head comment), from the south pole up. */
static void spiral_positions(int n, double *p)
{
  double phi = 0.0;
  for (int k = 0; k < n; k++) {
    double h = -1.0 + 2.0 * (double)k / (double)(n - 1);
    double s = sqrt(1.0 - h * h);
    phi = (k == 0 || k == n - 1) ? 0.0 : fmod(phi + 3.6 / sqrt((double)n) / s, 2.0 * PI);
    p[DIM * k] = s * cos(phi);
    p[DIM * k + 1] = s * sin(phi);
    p[DIM * k + 2] = h;
  }
}

/* q = 0, lambda_i = -p_i.F_i / 2 (g'' = 0 at rest, |p_i| = 1) and a = q' = f, as fekinit
 * computes them: F from the right-hand side at lambda = 0, the dot product summed from 0. */
static int init(const void *par, double *p, double *v, double *a, double *lam)
{
  int n = particles(par);
  if (n == N_PUBLISHED) {
    published_positions(p);
  } else {
    spiral_positions(n, p);
  }
  zero(v, DIM * (size_t)n);
  for (int i = 0; i < n; i++) {
    double force[DIM], s = 0.0;
    if (acceleration(n, p, v, 0.0, i, force) != 0) {
      return MBDAE_ERR_SPEC;
    }
    for (int k = 0; k < DIM; k++) {
      s += p[DIM * i + k] * force[k];
    }
    lam[i] = -s / 2.0;
  }
  for (int i = 0; i < n; i++) {
    if (acceleration(n, p, v, lam[i], i, a + DIM * i) != 0) {
      return MBDAE_ERR_SPEC;
    }
  }
  return 0;
}

/* ---- reference ------------------------------------------------------------------------------ */

/* y(1000) for n = 20: fekete.f's feksoln, verbatim (RADAU5, rtol = atol = h0 = 1e-12; the
 * test set's order p, q, lambda, mu).  Its mu (rounding noise of 1e-19) is not used: the
 * reference of form=ggl has the exact mu = 0 of the solution (the layer's), so that scd, which
 * skips zero references, does not measure noise; q is left out of scd (in_scd) for the same
 * reason (|q| ~ 1e-16 at t = 1000). */
static const double FEKSOLN[8 * N_PUBLISHED] = {
    -0.4070263380333202e+00, 0.3463758772791802e+00,  0.8451942450030429e+00,
    0.7752934752521549e-01,  -0.2628662719972299e+00, 0.9617122871829146e+00,
    0.7100577833343567e+00,  0.1212948055586120e+00,  0.6936177005172217e+00,
    0.2348267744557627e+00,  0.7449277976923311e+00,  0.6244509285956391e+00,
    -0.4341114738782885e+00, 0.8785430442262876e+00,  0.1992720444237660e+00,
    -0.9515059600312596e+00, 0.2203508762787005e+00,  0.2146669498274008e+00,
    -0.6385191643609878e+00, -0.4310833259390688e+00, 0.6375425027722121e+00,
    -0.1464175087914336e+00, -0.9380871635228862e+00, 0.3139337298744690e+00,
    0.5666974065069942e+00,  -0.6739221885076542e+00, 0.4740073135462156e+00,
    0.9843259538440293e+00,  -0.1696995357819996e+00, -0.4800504290609090e-01,
    0.1464175087914331e+00,  0.9380871635228875e+00,  -0.3139337298744656e+00,
    -0.7092757549979014e+00, 0.5264062637139616e+00,  -0.4688542938854929e+00,
    -0.8665731819284478e+00, -0.4813878059756024e+00, -0.1315929352982178e+00,
    -0.2347897778700538e+00, -0.8594340408013130e+00, -0.4541441287957579e+00,
    0.5530976940074118e+00,  -0.7674370265615124e+00, -0.3242273140037833e+00,
    0.7711050969896927e+00,  0.6357041816577034e+00,  0.3573685519777001e-01,
    0.7103951209379591e+00,  0.2403570431280519e+00,  -0.6614886725910596e+00,
    -0.3038208738735660e-01, 0.4501923293640461e+00,  -0.8924145871442046e+00,
    -0.5772996158107093e+00, -0.1766763414971813e+00, -0.7971892020969544e+00,
    0.2414481766969039e+00,  -0.3416456818373135e+00, -0.9082846503446250e+00,
    0.2409619682166627e-15,  -0.1139818460497816e-15, 0.1627536276556335e-15,
    0.1745651819597609e-15,  -0.1914278710633076e-15, -0.6639600671806291e-16,
    0.1708576733899083e-15,  -0.2277602521390053e-15, -0.1350782790950654e-15,
    0.2411941341109454e-15,  -0.1438238671800488e-15, 0.8087033550666644e-16,
    0.1618239105233347e-15,  0.1837556152070701e-16,  0.2715177369929503e-15,
    0.7930078658689191e-16,  0.7482020588342764e-16,  0.2746974939098084e-15,
    0.8849338913035911e-16,  -0.5940734725324115e-16, 0.4845984056889910e-16,
    -0.3728835248155620e-16, -0.4600332954062859e-16, -0.1548568884846698e-15,
    0.2507541692375411e-16,  -0.1560155223230823e-15, -0.2517946296860555e-15,
    -0.3739779361502470e-16, -0.1381663620885020e-15, -0.2784051540342329e-15,
    0.6624397102887671e-16,  0.4226207488883120e-16,  0.1571821772296610e-15,
    -0.4112243677286995e-16, 0.1939960344265876e-15,  0.2800184977692136e-15,
    -0.9189023375328813e-16, 0.1392943179389155e-15,  0.9556003995587458e-16,
    -0.2234188557495892e-15, 0.1276804778190781e-15,  -0.1261196211463950e-15,
    -0.1887754149742397e-15, -0.2140788698695373e-16, -0.2713591291421657e-15,
    0.1107887633060814e-15,  -0.1318443715631340e-15, -0.4521275683078691e-16,
    -0.1277688851278605e-15, 0.4850914012115388e-16,  -0.1195891666741192e-15,
    -0.1569641653843750e-15, 0.1856239009452638e-15,  0.9898466095646496e-16,
    -0.2068030800303723e-15, 0.2451470336752085e-15,  0.9542986459336358e-16,
    -0.2456074075580993e-15, 0.1532475480661800e-15,  -0.1229326332276474e-15,
    -0.4750000000000000e+01, -0.4750000000000001e+01, -0.4750000000000000e+01,
    -0.4750000000000000e+01, -0.4750000000000000e+01, -0.4750000000000000e+01,
    -0.4750000000000000e+01, -0.4750000000000000e+01, -0.4750000000000000e+01,
    -0.4750000000000000e+01, -0.4750000000000001e+01, -0.4750000000000001e+01,
    -0.4750000000000000e+01, -0.4750000000000000e+01, -0.4750000000000000e+01,
    -0.4750000000000000e+01, -0.4749999999999999e+01, -0.4750000000000000e+01,
    -0.4750000000000000e+01, -0.4750000000000000e+01, -0.3537526598492654e-19,
    0.2338193888161182e-18,  -0.3267771993164953e-18, 0.2915679914072042e-18,
    0.1965183195887647e-18,  -0.6224992924096233e-19, -0.1715878416756298e-18,
    -0.2704741705248803e-18, 0.3008700893194513e-18,  -0.2703121624910402e-18,
    0.4243755291982164e-18,  0.2862063003949612e-18,  0.1222125408406218e-19,
    -0.4958862706817728e-18, -0.7070673036251212e-18, -0.4454983024194383e-18,
    -0.1125384872521777e-18, 0.1512898724592511e-18,  -0.6163704221424137e-19,
    0.6255426995473074e-19,
};

static int model_ref(const void *par, double *p, double *v, double *lam)
{
  (void)par;
  size_t nq = DIM * N_PUBLISHED;
  memcpy(p, FEKSOLN, sizeof(double) * nq);
  memcpy(v, FEKSOLN + nq, sizeof(double) * nq);
  memcpy(lam, FEKSOLN + 2 * nq, sizeof(double) * N_PUBLISHED);
  return 0;
}

static const char REF_SOURCE[] =
    "test set release 2.4, fekete.f (feksoln): RADAU5 with rtol = atol = h0 = 1e-12, mu = 0 "
    "(exact); its positions agree with our radau, radau5, bdf and ida runs at rtol 1e-12..1e-14 "
    "to 10.4 digits (refsol/fekete.txt)";

/* form=ggl: fekete.f's residual; the other forms: the layer's. */
static int res(const void *params, double t, const double *y, const double *yp, double *r)
{
  const fekete_params *f = params;
  return f->mech.form == MECH_GGL ? published_res(f->n, y, yp, r)
                                  : mbdae_mech_res(params, t, y, yp, r);
}

/* ---- names, configuration, descriptor ------------------------------------------------------- */

/* Index-3 order: x_i, y_i, z_i (p), vx_i, vy_i, vz_i (q), lambda_i. */
static void name(const void *par, int i, char *buf, size_t len)
{
  int nq = DIM * particles(par);
  static const char *const coordinate[2][DIM] = {{"x", "y", "z"}, {"vx", "vy", "vz"}};
  if (i < 2 * nq) {
    snprintf(buf, len, "%s%d", coordinate[i / nq][i % DIM], (i % nq) / DIM + 1);
  } else {
    snprintf(buf, len, "lambda%d", i - 2 * nq + 1);
  }
}

static void configure(fekete_params *f)
{
  int n = f->n, nq = DIM * n;
  f->model.nq = nq;
  f->model.nc = n;
  f->model.ref = n == N_PUBLISHED ? model_ref : NULL;
  f->model.ref_source = n == N_PUBLISHED ? REF_SOURCE : NULL;
  for (int i = 0; i < 2 * nq + n; i++) {
    f->in_scd[i] = i < nq || i >= 2 * nq; /* q vanishes at t = 1000: no relative error */
  }
}

/* refsol/fekete_traj.txt, whose last row is model_ref's (asked only for the published n). */
static const ref_traj *traj(const void *par)
{
  (void)par;
  return &mbdae_traj_fekete;
}

static void set_defaults(void *params)
{
  fekete_params *f = params;
  f->n = N_PUBLISHED;
  f->model = (mech_model){.type = &mbdae_problem_fekete,
                          .in_scd = f->in_scd,
                          .dyn = dyn,
                          .dyn_jac = dyn_jac,
                          .reaction = reaction,
                          .con = con,
                          .con_vel = con_vel,
                          .con_acc = con_acc,
                          .init = init,
                          .name = name,
                          .mass_diag = mass_diag,
                          .traj = traj};
  configure(f);
  mbdae_mech_defaults(&f->mech, &f->model);
  f->mech.form = MECH_GGL; /* the published form */
}

static int set_option(void *params, const char *key, const char *value, char *msg, size_t msglen)
{
  fekete_params *f = params;
  if (strcmp(key, "n") != 0) {
    return mbdae_mech_option(params, key, value, msg, msglen);
  }
  char *end = NULL;
  errno = 0;
  long n = strtol(value, &end, 10);
  if (end == value || *end != '\0' || errno == ERANGE || n < 2 || n > N_MAX) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "bad value '%s' for n=: an integer from 2 to %d", value, N_MAX);
    }
    return MBDAE_ERR_SPEC;
  }
  f->n = (int)n;
  configure(f);
  return 0;
}

static void format_options(const void *params, char *buf, size_t len)
{
  int used = snprintf(buf, len, "n=%d,", particles(params));
  if (used >= 0 && (size_t)used < len) {
    mbdae_mech_format_options(params, buf + used, len - (size_t)used);
  }
}

const problem_type mbdae_problem_fekete = {
    .id = "fekete",
    .title = "Fekete problem (charged particles on the unit sphere)",
    .t0 = 0.0,
    .tend = 1000.0, /* fekete.f, t in [0, 1000] */
    /* rtol = atol = h0 = 10^-(4 + m/4), m = 0..24, table at 1e-4, 1e-7, 1e-10: the plan of
     * caraxis (report 2.4 section II.17.4).  The report's own Fekete table was not at hand: to be
     * checked against it.  (fekete.f's reference run used h0 = 1e-12, below the smallest step
     * our solvers take at t = 1000, 16 eps t = 3.6e-12.) */
    .tolerances = {sizeof(mbdae_tolerance_plan), 4, 24, 1.0, 3, {1e-4, 1e-7, 1e-10}, 1e-7},
    .params_size = sizeof(fekete_params),
    .options_help = "n= (particles, 2..100), " MECH_OPTIONS_HELP_NO_SSF,
    .set_defaults = set_defaults,
    .set_option = set_option,
    .finish = mbdae_mech_finish,
    .format_options = format_options,
    .describe = mbdae_mech_describe,
    .init = mbdae_mech_init,
    .res = res,
    .jac = mbdae_mech_jac,
    .ref = mbdae_mech_ref,
    .ref_traj = mbdae_mech_ref_traj,
    .constraints = mbdae_mech_constraints,
};
