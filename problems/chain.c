/* The pendulum chain (the n-mass pendulum of Thomsen (ed.) 2005, section 3.4) in Cartesian
 * coordinates, as a model of the mechanical-system layer (problems/mechanical.h), which generates
 * its formulations.
 *
 * n point masses m_k on massless rods of lengths l_k, the first hinged at the origin, y pointing
 * down, gravity g along +y.  With p_k = (x_k, y_k), p_0 = 0, the rod vectors d_k = p_k - p_{k-1}
 * and the rod forces per unit length F_k (F_{n+1} = 0):
 *   m_k p_k'' = m_k g e_y - F_k d_k + F_{k+1} d_{k+1},   0 = |d_k|^2 - l_k^2    (k = 1..n),
 * Thomsen (ed.) 2005 (3.2.3), (3.2.4) with the multiplier form of Hafner & Poell eqs. (1), (6): n =
 * 1 is problems/pendulum.c and n = 2 problems/dpendulum.c (unit masses and lengths).  As a model:
 * q = (x1, y1, ..., xn, yn), M = diag(m_k, m_k), f = m_k g e_y, W = G/2; hidden constraints
 * g_k' = 2 d_k.d_k', g_k'' = 2 (|d_k'|^2 + d_k.d_k'').  y is ordered link by link,
 * (x1, y1, vx1, vy1, F1, x2, ...) (mech_model.groups = n): each link couples only to its
 * neighbours, so dF/dy + c dF/dy' is banded.  The Cartesian forms state that band
 * (MBDAE_JAC_BAND; the entries link by link in problems/chain_links.c, which the dense model
 * callbacks below emit too): per link 20 entries (index3), 24 (index2), 36 (ggl), 31 (index1,
 * baumgarte), bandwidths ml/mu 9/7, 9/7, 11/11, 14/7, 14/7.  Their residual, hidden constraints,
 * start and pattern values take O(n) time and memory (M is diagonal: mech_model.mass_diag; the
 * reaction's rate: mech_model.reaction_rate); form=ssf stays dense (its kinetic metric is full).
 *
 * State space (form=ssf): the angles theta_k of the rods from the downward vertical (Thomsen (ed.)
 * 2005 (3.3.1)), d_k = l_k (sin theta_k, cos theta_k), and omega = theta'.  With mu_k = m_k + ... +
 * m_n and mu_ij = mu_max(i,j), T = 1/2 sum_ij mu_ij l_i l_j cos(theta_i - theta_j) omega_i omega_j
 * and V = -g sum_k mu_k l_k cos theta_k (Thomsen (ed.) 2005 (3.4.2), (3.4.3) generalised);
 * Lagrange's equations are sum_j mu_ij l_i l_j cos(theta_i - theta_j) omega_j' = -sum_j mu_ij l_i
 * l_j sin(theta_i - theta_j) omega_j^2 - g mu_i l_i sin theta_i, solved by the layer's Gaussian
 * elimination (the matrix is the kinetic metric: positive definite).  The same equations give
 * consistent Cartesian accelerations for a start from theta= and omega= (Thomsen (ed.) 2005
 * section 3.3) of up to DENSE_START_MAX links, and the forces follow from the last link back: F_k
 * l_k^2 = (m_k g e_y - m_k p_k'' + F_{k+1} d_{k+1}).d_k.  A longer chain's start solves the
 * tridiagonal system of the forces instead (start_forces), O(n).
 *
 * References: for the default configuration of n = 1..8 links (every rod horizontal at rest,
 * unit masses and lengths, t_end = 10) the values of refsol/chain_n<N>.txt, computed by
 * refsol/chain_ref.c in quadruple precision; `mbdae refsol SPEC --out FILE` computes one for any
 * configuration, which `mbdae run --ref FILE` then uses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain_config.h"
#include "chain_links.h"
#include "dense.h"
#include "mech_forms.h"
#include "mechanical.h"

/* Defined at the end of this file (its model names it); listed in src/harness/problem_list.c. */
extern const problem_type mbdae_problem_chain;

enum { NREF = 8 }; /* committed references: n = 1..NREF */
/* Starts of up to this many links take the kinetic-metric solve (as the committed references
 * were made); longer chains the tridiagonal one, O(n) (start_forces). */
enum { DENSE_START_MAX = NREF };

typedef struct chain_params {
  mech_params mech; /* first: the layer's view (its model is the one below) */
  chain_config cfg; /* the spec keys */
  mech_model model; /* this instance's model: its size depends on n */
  mech_ssf ssf;     /* the angle formulation of this instance */
} chain_params;

static const chain_config *config(const void *par) { return &((const chain_params *)par)->cfg; }

/* d_k = p_k - p_{k-1} of a position-like vector (positions, velocities, accelerations). */
static void rod(const double *q, int k, double *dx, double *dy)
{
  double d[2];
  chain_rod(q, k, d);
  *dx = d[0];
  *dy = d[1];
}

static void zero(double *m, size_t n) { memset(m, 0, sizeof(double) * n); }

/* R = M a - f + W^T F, mass by mass. */
static int dyn(const void *par, double t, const double *q, const double *v, const double *a,
               const double *lam, double *r)
{
  (void)t, (void)v;
  const chain_config *c = config(par);
  for (int k = 0; k < c->n; k++) {
    double m = chain_value(&c->mass, k), dx, dy;
    rod(q, k, &dx, &dy);
    r[2 * k] = m * a[2 * k] + lam[k] * dx;
    r[2 * k + 1] = m * a[2 * k + 1] - m * CHAIN_GRAVITY + lam[k] * dy;
    if (k + 1 < c->n) {
      rod(q, k + 1, &dx, &dy);
      r[2 * k] -= lam[k + 1] * dx;
      r[2 * k + 1] -= lam[k + 1] * dy;
    }
  }
  return 0;
}

/* d(W^T F)/dq (nq x nq, into wq) and W^T (nq x n, into wt), either NULL: mass k feels
 * F_k d_k - F_{k+1} d_{k+1} (problems/chain_links.c emits the entries). */
static void reaction_matrices(int n, const double *q, const double *lam, double *wq, double *wt)
{
  size_t nq = 2 * (size_t)n;
  link_sink s = chain_sink(LINK_DENSE, 2, 0);
  s.ld = 2 * n;
  s.col_stride[LINK_Q] = 2;
  s.col_base[LINK_Q] = wq ? 0 : -1;
  s.dense[LINK_Q] = wq;
  s.col_stride[LINK_LAM] = 1;
  s.col_base[LINK_LAM] = wt ? 0 : -1;
  s.dense[LINK_LAM] = wt;
  if (wq) {
    zero(wq, nq * nq);
  }
  if (wt) {
    zero(wt, nq * (size_t)n);
  }
  for (int k = 0; k < n; k++) {
    chain_reaction_entries(&s, n, q, lam, k);
  }
}

static int mass_diag(const void *par, double t, const double *q, double *m)
{
  (void)t, (void)q;
  const chain_config *c = config(par);
  for (int i = 0; i < 2 * c->n; i++) {
    m[i] = chain_value(&c->mass, i / 2);
  }
  return 0;
}

static int dyn_jac(const void *par, double t, const double *q, const double *v, const double *a,
                   const double *lam, double *rq, double *rv, double *mass)
{
  (void)t, (void)v, (void)a;
  const chain_config *c = config(par);
  size_t nq = 2 * (size_t)c->n;
  if (rq) {
    reaction_matrices(c->n, q, lam, rq, NULL);
  }
  if (rv) {
    zero(rv, nq * nq);
  }
  if (mass) {
    zero(mass, nq * nq);
    for (size_t i = 0; i < nq; i++) {
      MBDAE_AT(mass, nq, i, i) = chain_value(&c->mass, (int)(i / 2));
    }
  }
  return 0;
}

/* The nc x nq matrix whose row k holds factor * d_k(vec) at mass k and -factor * d_k(vec) at
 * mass k-1: G (vec = positions, factor 2), d g'/dq (velocities, 2), d g''/dq (accelerations, 2),
 * d g''/dv (velocities, 4). */
static void rod_rows(int n, const double *vec, double factor, double *m)
{
  zero(m, (size_t)n * 2 * (size_t)n);
  link_sink s = chain_sink(LINK_DENSE, 1, 0);
  s.ld = n;
  s.col_stride[LINK_Q] = 2;
  s.col_base[LINK_Q] = 0;
  s.dense[LINK_Q] = m;
  for (int k = 0; k < n; k++) {
    chain_rod_entries(&s, vec, factor, k, LINK_Q);
  }
}

/* (W^T lam)_k = lam_k d_k - lam_{k+1} d_{k+1}, the reaction on mass k, into out (2). */
static void reaction_of_mass(int n, const double *q, const double *lam, int k, double *out)
{
  double dx, dy;
  rod(q, k, &dx, &dy);
  out[0] = lam[k] * dx;
  out[1] = lam[k] * dy;
  if (k + 1 < n) {
    rod(q, k + 1, &dx, &dy);
    out[0] -= lam[k + 1] * dx;
    out[1] -= lam[k + 1] * dy;
  }
}

/* The reaction's rate along q' = u, lambda' = lamdot: W^T lam is bilinear in (d, lam) and d is
 * linear in q, so it is the reaction of (u, lam) plus that of (q, lamdot). */
static int reaction_rate(const void *par, double t, const double *q, const double *lam,
                         const double *u, const double *lamdot, double *rate)
{
  (void)t;
  int n = config(par)->n;
  for (int k = 0; k < n; k++) {
    double along_u[2], along_lam[2];
    reaction_of_mass(n, u, lam, k, along_u);
    reaction_of_mass(n, q, lamdot, k, along_lam);
    rate[2 * k] = along_u[0] + along_lam[0];
    rate[2 * k + 1] = along_u[1] + along_lam[1];
  }
  return 0;
}

static int reaction(const void *par, double t, const double *q, const double *lam, double *wtl,
                    double *wt, double *wtlq, double *wtlt)
{
  (void)t;
  int n = config(par)->n, nq = 2 * n;
  for (int k = 0; wtl && k < n; k++) {
    reaction_of_mass(n, q, lam, k, wtl + 2 * k);
  }
  reaction_matrices(n, q, lam, wtlq, wt); /* W^T = (G/2)^T */
  if (wtlt) {
    zero(wtlt, (size_t)nq);
  }
  return 0;
}

static int con(const void *par, double t, const double *q, double *g, double *gq)
{
  (void)t;
  const chain_config *c = config(par);
  for (int k = 0; g && k < c->n; k++) {
    double dx, dy, l = chain_value(&c->length, k);
    rod(q, k, &dx, &dy);
    g[k] = dx * dx + dy * dy - l * l;
  }
  if (gq) {
    rod_rows(c->n, q, 2.0, gq);
  }
  return 0;
}

static int con_vel(const void *par, double t, const double *q, const double *v, double *gv,
                   double *gvq)
{
  (void)t;
  int n = config(par)->n;
  for (int k = 0; gv && k < n; k++) {
    double dx, dy, dvx, dvy;
    rod(q, k, &dx, &dy);
    rod(v, k, &dvx, &dvy);
    gv[k] = 2.0 * (dx * dvx + dy * dvy);
  }
  if (gvq) {
    rod_rows(n, v, 2.0, gvq);
  }
  return 0;
}

static int con_acc(const void *par, double t, const double *q, const double *v, const double *a,
                   double *ga, double *gaq, double *gav)
{
  (void)t;
  int n = config(par)->n;
  for (int k = 0; ga && k < n; k++) {
    double dx, dy, dvx, dvy, dax, day;
    rod(q, k, &dx, &dy);
    rod(v, k, &dvx, &dvy);
    rod(a, k, &dax, &day);
    ga[k] = 2.0 * (dvx * dvx + dvy * dvy + dx * dax + dy * day);
  }
  if (gaq) {
    rod_rows(n, a, 2.0, gaq);
  }
  if (gav) {
    rod_rows(n, v, 4.0, gav);
  }
  return 0;
}

/* ---- the angle formulation ----------------------------------------------------------------- */

/* Lagrange's equations at (theta, omega): the matrix (n x n, into mat) and right-hand side (into
 * rhs), with sin/cos of the angles into s, c and the tail masses mu into mu. */
static void lagrange_system(const chain_config *cfg, const double *z, const double *w, double *s,
                            double *c, double *mu, double *mat, double *rhs)
{
  int n = cfg->n;
  for (int k = n - 1; k >= 0; k--) {
    s[k] = sin(z[k]);
    c[k] = cos(z[k]);
    mu[k] = chain_value(&cfg->mass, k) + (k + 1 < n ? mu[k + 1] : 0.0);
  }
  for (int i = 0; i < n; i++) {
    double li = chain_value(&cfg->length, i);
    rhs[i] = -CHAIN_GRAVITY * mu[i] * li * s[i];
    for (int j = 0; j < n; j++) {
      double coupling = mu[i > j ? i : j] * li * chain_value(&cfg->length, j);
      double cij = c[i] * c[j] + s[i] * s[j], sij = s[i] * c[j] - c[i] * s[j];
      MBDAE_AT(mat, n, i, j) = coupling * cij;
      rhs[i] -= coupling * sij * w[j] * w[j];
    }
  }
}

/* d(rhs - mat alpha)/dtheta_k into col (n), and d rhs/domega_k into colw (n). */
static void lagrange_columns(const chain_config *cfg, const double *w, const double *s,
                             const double *c, const double *mu, const double *alpha, int k,
                             double *col, double *colw)
{
  int n = cfg->n;
  double lk = chain_value(&cfg->length, k);
  for (int i = 0; i < n; i++) { /* row i != k: theta_k enters the term j = k */
    double li = chain_value(&cfg->length, i), coupling = mu[i > k ? i : k] * li * lk;
    double cik = c[i] * c[k] + s[i] * s[k], sik = s[i] * c[k] - c[i] * s[k];
    col[i] = i == k ? 0.0 : coupling * cik * w[k] * w[k] - coupling * sik * alpha[k];
    colw[i] = i == k ? 0.0 : -2.0 * coupling * sik * w[k];
  }
  /* row k: theta_k enters every term j != k of its own row, and the gravity term */
  double own = -CHAIN_GRAVITY * mu[k] * lk * c[k];
  for (int j = 0; j < n; j++) {
    if (j == k) {
      continue;
    }
    double coupling = mu[k > j ? k : j] * lk * chain_value(&cfg->length, j);
    double ckj = c[k] * c[j] + s[k] * s[j], skj = s[k] * c[j] - c[k] * s[j];
    own += -coupling * ckj * w[j] * w[j] + coupling * skj * alpha[j];
  }
  col[k] += own;
}

static int ssf_acc(const void *par, double t, const double *z, const double *w, double *acc,
                   double *accz, double *accw)
{
  (void)t;
  const chain_config *cfg = config(par);
  size_t n = (size_t)cfg->n;
  double *work = malloc(sizeof(double) * (n * n + 6 * n) + sizeof(int) * n);
  if (!work) {
    return MBDAE_ERR_NOMEM;
  }
  double *mat = work, *alpha = mat + n * n, *s = alpha + n, *c = s + n, *mu = c + n;
  double *col = mu + n, *colw = col + n;
  int *piv = (int *)(void *)(colw + n);
  lagrange_system(cfg, z, w, s, c, mu, mat, alpha);
  int rc = mbdae_mech_lu_factor(cfg->n, mat, piv) ? 1 : 0; /* singular: never for l, m > 0 */
  if (rc == 0) {
    mbdae_mech_lu_solve(cfg->n, mat, piv, alpha);
  }
  for (size_t i = 0; rc == 0 && acc && i < n; i++) {
    acc[i] = alpha[i];
  }
  for (int k = 0; rc == 0 && (accz || accw) && k < cfg->n; k++) {
    lagrange_columns(cfg, w, s, c, mu, alpha, k, col, colw);
    mbdae_mech_lu_solve(cfg->n, mat, piv, col);
    mbdae_mech_lu_solve(cfg->n, mat, piv, colw);
    if (accz) {
      memcpy(accz + (size_t)k * n, col, sizeof(double) * n);
    }
    if (accw) {
      memcpy(accw + (size_t)k * n, colw, sizeof(double) * n);
    }
  }
  free(work);
  return rc;
}

static int ssf_from_cartesian(const void *par, const double *q, const double *v, double *z,
                              double *w)
{
  for (int k = 0; k < config(par)->n; k++) {
    double dx, dy, dvx, dvy;
    rod(q, k, &dx, &dy);
    rod(v, k, &dvx, &dvy);
    z[k] = atan2(dx, dy);
    w[k] = (dvx * dy - dvy * dx) / (dx * dx + dy * dy);
  }
  return 0;
}

/* ---- start and reference ------------------------------------------------------------------- */

/* Accelerations and rod forces of a start at rest with every rod horizontal: free fall, F = 0. */
static int at_rest_horizontal(const chain_config *cfg)
{
  for (int k = 0; k < cfg->n; k++) {
    double s, c;
    chain_direction(chain_value(&cfg->theta, k), &s, &c);
    if (c != 0.0 || chain_value(&cfg->omega, k) != 0.0) {
      return 0;
    }
  }
  return 1;
}

/* The Cartesian state of angles z, angular velocities w and accelerations alpha:
 * p_k = p_{k-1} + l_k (sin z_k, cos z_k), differentiated twice (v, a may be NULL).  The start
 * and form=ssf's hidden constraints (mech_ssf.to_cartesian) use it. */
static void angles_to_cartesian(const chain_config *cfg, const double *z, const double *w,
                                const double *alpha, double *q, double *v, double *a)
{
  for (int k = 0; k < cfg->n; k++) {
    double s, c, om = w[k], l = chain_value(&cfg->length, k);
    chain_direction(z[k], &s, &c);
    q[2 * k] = (k ? q[2 * k - 2] : 0.0) + l * s;
    q[2 * k + 1] = (k ? q[2 * k - 1] : 0.0) + l * c;
    if (v) {
      v[2 * k] = (k ? v[2 * k - 2] : 0.0) + l * om * c;
      v[2 * k + 1] = (k ? v[2 * k - 1] : 0.0) - l * om * s;
    }
    if (a) {
      a[2 * k] = (k ? a[2 * k - 2] : 0.0) + l * (alpha[k] * c - om * om * s);
      a[2 * k + 1] = (k ? a[2 * k - 1] : 0.0) + l * (-alpha[k] * s - om * om * c);
    }
  }
}

static int ssf_to_cartesian(const void *par, const double *z, const double *w, const double *wdot,
                            double *q, double *v, double *a)
{
  angles_to_cartesian(config(par), z, w, wdot, q, v, a);
  return 0;
}

/* F from the last link back (see the header), with a = q'' given. */
static void forces_from_accelerations(const chain_config *cfg, const double *q, const double *a,
                                      double *lam)
{
  int n = cfg->n;
  for (int k = n - 1; k >= 0; k--) {
    double m = chain_value(&cfg->mass, k), l = chain_value(&cfg->length, k), dx, dy;
    double fx = -m * a[2 * k], fy = m * CHAIN_GRAVITY - m * a[2 * k + 1];
    if (k + 1 < n) {
      rod(q, k + 1, &dx, &dy);
      fx += lam[k + 1] * dx;
      fy += lam[k + 1] * dy;
    }
    rod(q, k, &dx, &dy);
    lam[k] = (fx * dx + fy * dy) / (l * l);
  }
}

/* The rod forces of a Cartesian start from g_k'' = 0 with the dynamics' accelerations
 * a_k = g e_y - (F_k d_k - F_{k+1} d_{k+1}) / m_k (a_0 = 0 at the hinge), a symmetric positive
 * definite tridiagonal system (G M^{-1} G^T up to a factor):
 *   F_k |d_k|^2 (1/m_k + 1/m_{k-1}) - F_{k-1} d_{k-1}.d_k / m_{k-1} - F_{k+1} d_k.d_{k+1} / m_k
 *     = |d_k'|^2 (+ g d_{1,y} for the first link, which has no 1/m_{k-1} term),
 * solved by the Thomas algorithm (elimination without pivoting, stable for such a matrix);
 * then a.  O(n) time and memory. */
static int start_forces(const chain_config *cfg, const double *q, const double *v, double *a,
                        double *lam)
{
  int n = cfg->n;
  double *sup = malloc(sizeof(double) * (size_t)n); /* the eliminated superdiagonal */
  if (!sup) {
    return MBDAE_ERR_NOMEM;
  }
  double prev_d[2] = {0.0, 0.0}, prev_m = 1.0;
  for (int k = 0; k < n; k++) { /* forward elimination: lam holds the reduced right side */
    double d[2], e[2], dn[2] = {0.0, 0.0}, m = chain_value(&cfg->mass, k);
    chain_rod(q, k, d);
    chain_rod(v, k, e);
    if (k + 1 < n) {
      chain_rod(q, k + 1, dn);
    }
    double len2 = d[0] * d[0] + d[1] * d[1];
    double diag = len2 / m + (k ? len2 / prev_m : 0.0);
    double sub = k ? -(prev_d[0] * d[0] + prev_d[1] * d[1]) / prev_m : 0.0;
    double rhs = e[0] * e[0] + e[1] * e[1] + (k ? 0.0 : CHAIN_GRAVITY * d[1]);
    double pivot = diag - (k ? sub * sup[k - 1] : 0.0);
    sup[k] = -(d[0] * dn[0] + d[1] * dn[1]) / m / pivot;
    lam[k] = (rhs - (k ? sub * lam[k - 1] : 0.0)) / pivot;
    prev_d[0] = d[0], prev_d[1] = d[1], prev_m = m;
  }
  for (int k = n - 2; k >= 0; k--) {
    lam[k] -= sup[k] * lam[k + 1];
  }
  for (int k = 0; k < n; k++) {
    chain_dynamic_acc(cfg, q, lam, k, a + 2 * k);
  }
  free(sup);
  return 0;
}

static int init(const void *par, double *q, double *v, double *a, double *lam)
{
  const chain_config *cfg = config(par);
  int n = cfg->n, rc = 0;
  double *zw = calloc(3 * (size_t)n, sizeof(double)); /* zeroed: -Wmaybe-uninitialized */
  if (!zw) {
    return MBDAE_ERR_NOMEM;
  }
  double *z = zw, *w = zw + n, *alpha = zw + 2 * n;
  for (int k = 0; k < n; k++) {
    z[k] = chain_value(&cfg->theta, k);
    w[k] = chain_value(&cfg->omega, k);
  }
  angles_to_cartesian(cfg, z, w, NULL, q, v, NULL);
  if (at_rest_horizontal(cfg)) {
    for (int k = 0; k < n; k++) {
      a[2 * k] = 0.0;
      a[2 * k + 1] = CHAIN_GRAVITY;
      lam[k] = 0.0;
    }
  } else if (n > DENSE_START_MAX) {
    rc = start_forces(cfg, q, v, a, lam);
  } else if ((rc = ssf_acc(par, 0.0, z, w, alpha, NULL, NULL)) == 0) {
    angles_to_cartesian(cfg, z, w, alpha, q, v, a); /* q, v again: the same values */
    forces_from_accelerations(cfg, q, a, lam);
  }
  free(zw);
  return rc;
}

#include "chain_refs.h" /* chain_ref_n<N>, chain_turns_n<N>: the values of the files */

static const double *const ref_values[NREF] = {chain_ref_n1, chain_ref_n2, chain_ref_n3,
                                               chain_ref_n4, chain_ref_n5, chain_ref_n6,
                                               chain_ref_n7, chain_ref_n8};
static const int *const ref_turns[NREF] = {chain_turns_n1, chain_turns_n2, chain_turns_n3,
                                           chain_turns_n4, chain_turns_n5, chain_turns_n6,
                                           chain_turns_n7, chain_turns_n8};

/* A row of the file's order (x, y, vx, vy, F per link) as q, v, lambda. */
static void row_state(const void *par, const double *values, double *q, double *v, double *a,
                      double *lam)
{
  (void)a; /* not variables of the chain */
  int n = config(par)->n;
  for (int k = 0; k < n; k++) {
    q[2 * k] = values[5 * k];
    q[2 * k + 1] = values[5 * k + 1];
    v[2 * k] = values[5 * k + 2];
    v[2 * k + 1] = values[5 * k + 3];
    lam[k] = values[5 * k + 4];
  }
}

/* y(10) of a default configuration, from its file's order. */
static int ref(const void *par, double *q, double *v, double *lam)
{
  row_state(par, ref_values[config(par)->n - 1], q, v, NULL, lam);
  return 0;
}

static const ref_traj *const trajectories[NREF] = {
    &mbdae_traj_chain_n1, &mbdae_traj_chain_n2, &mbdae_traj_chain_n3, &mbdae_traj_chain_n4,
    &mbdae_traj_chain_n5, &mbdae_traj_chain_n6, &mbdae_traj_chain_n7, &mbdae_traj_chain_n8};

/* refsol/chain_n<N>_traj.txt of a default configuration (asked only where ref is set). */
static const ref_traj *traj(const void *par) { return trajectories[config(par)->n - 1]; }

/* ---- names, configuration, descriptor ------------------------------------------------------ */

/* Index-3 block order: x_k, y_k (q), vx_k, vy_k (v), F_k (lambda). */
static void name(const void *par, int i, char *buf, size_t len)
{
  int nq = 2 * config(par)->n;
  static const char *const coordinate[2][2] = {{"x", "y"}, {"vx", "vy"}};
  if (i < 2 * nq) {
    snprintf(buf, len, "%s%d", coordinate[i / nq][i % 2], (i % nq) / 2 + 1);
  } else {
    snprintf(buf, len, "F%d", i - 2 * nq + 1);
  }
}

static void ssf_name(const void *par, int i, char *buf, size_t len)
{
  int n = config(par)->n;
  snprintf(buf, len, "%s%d", i < n ? "theta" : "omega", i % n + 1);
}

static const char REF_SOURCE[] =
    "the angle formulation (Lagrange's equations of the n-link chain) integrated in __float128 by "
    "Gragg-Bulirsch-Stoer extrapolation and confirmed by Gauss-Legendre collocation; the digits "
    "the two share are stated in the file (refsol/chain_ref.c, refsol/chain_n<N>.txt); not "
    "published in the test set";

/* The model of the instance's size, and its reference where one is committed. */
static void configure(chain_params *p)
{
  int n = p->cfg.n, committed = n <= NREF && chain_config_is_default(&p->cfg);
  p->model.nq = 2 * n;
  p->model.nc = n;
  p->model.groups = n;
  p->model.con_reach = 1; /* constraint k: links k - 1 and k */
  p->model.ref = committed ? ref : NULL;
  p->model.ref_source = committed ? REF_SOURCE : NULL;
  p->ssf.nz = n;
  p->ssf.ref_turns = committed ? ref_turns[n - 1] : NULL;
}

static void set_defaults(void *params)
{
  chain_params *p = params;
  chain_config_default(&p->cfg);
  p->model = (mech_model){.type = &mbdae_problem_chain,
                          .dyn = dyn,
                          .dyn_jac = dyn_jac,
                          .reaction = reaction,
                          .con = con,
                          .con_vel = con_vel,
                          .con_acc = con_acc,
                          .init = init,
                          .ssf = &p->ssf,
                          .name = name,
                          .ssf_name = ssf_name,
                          .mass_diag = mass_diag,
                          .reaction_rate = reaction_rate,
                          .traj = traj,
                          .traj_row = row_state};
  p->ssf = (mech_ssf){
      .acc = ssf_acc, .from_cartesian = ssf_from_cartesian, .to_cartesian = ssf_to_cartesian};
  configure(p);
  mbdae_mech_defaults(&p->mech, &p->model);
}

static int set_option(void *params, const char *key, const char *value, char *msg, size_t msglen)
{
  chain_params *p = params;
  int rc = chain_config_set(&p->cfg, key, value, msg, msglen);
  if (rc == 1) {
    return mbdae_mech_option(params, key, value, msg, msglen);
  }
  configure(p);
  return rc == 0 ? 0 : MBDAE_ERR_SPEC;
}

static void format_options(const void *params, char *buf, size_t len)
{
  int used = chain_config_format(config(params), buf, len);
  if (used >= 0 && (size_t)used + 1 < len) {
    buf[used] = ',';
    mbdae_mech_format_options(params, buf + used + 1, len - (size_t)used - 1);
  }
}

static int finish(const void *params, char *msg, size_t msglen)
{
  if (chain_config_check(config(params), msg, msglen) != 0) {
    return MBDAE_ERR_SPEC;
  }
  char spec[MBDAE_RECORD_SPEC_LEN];
  int used = snprintf(spec, sizeof spec, "chain:");
  format_options(params, spec + used, sizeof spec - (size_t)used);
  if (strlen(spec) + 1 >= sizeof spec) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen,
               "the canonical spec of this chain needs more than %d characters: give shorter "
               "numbers or fewer per-link values",
               MBDAE_RECORD_SPEC_LEN - 1);
    }
    return MBDAE_ERR_SPEC;
  }
  return mbdae_mech_finish(params, msg, msglen);
}

static chain_form form_of(const void *params)
{
  const mech_params *mp = params;
  return (chain_form){.form = mp->form, .alpha = mp->alpha, .beta = mp->beta};
}

static void describe(const void *params, problem_info *info)
{
  mbdae_mech_describe(params, info);
  info->tend = config(params)->tend;
  info->jac_kind =
      mbdae_mech_form_info(((const mech_params *)params)->form)->kind == MECH_KIND_MINIMAL
          ? MBDAE_JAC_DENSE
          : MBDAE_JAC_BAND;
}

/* The Cartesian forms' banded pattern and its values (problems/chain_links.c). */
static int jac_pattern(const void *params, int *colptr, int *rowind)
{
  chain_form f = form_of(params);
  return chain_form_pattern(config(params), &f, colptr, rowind);
}

static int jac_values(const void *params, double t, const double *y, const double *yp, double *dfdy,
                      double *dfdyp)
{
  (void)t;
  chain_form f = form_of(params);
  return chain_form_values(config(params), &f, y, yp, dfdy, dfdyp);
}

const problem_type mbdae_problem_chain = {
    .id = "chain",
    .title = "Pendulum chain (Cartesian coordinates)",
    .t0 = 0.0,
    .tend = 10.0, /* doc/design.md; tend= per instance */
    .tolerances = {.m_div = 4,
                   .m_max = 24,
                   .h0_factor = 1.0,
                   .ntable = 3,
                   .table_rtol = {1e-4, 1e-7, 1e-10},
                   .default_rtol = 1e-7},
    .params_size = sizeof(chain_params),
    .options_help = CHAIN_OPTIONS_HELP ", " MECH_OPTIONS_HELP,
    .set_defaults = set_defaults,
    .set_option = set_option,
    .finish = finish,
    .format_options = format_options,
    .describe = describe,
    .init = mbdae_mech_init,
    .res = mbdae_mech_res,
    .jac = mbdae_mech_jac,
    .ref = mbdae_mech_ref,
    .ref_traj = mbdae_mech_ref_traj,
    .constraints = mbdae_mech_constraints,
    .jac_pattern = jac_pattern,
    .jac_values = jac_values,
    .constraint_pattern = mbdae_mech_constraint_pattern,
};
