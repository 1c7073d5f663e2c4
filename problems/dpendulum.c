/* The double pendulum in Cartesian coordinates, as a model of the mechanical-system layer
 * (problems/mechanical.h), which generates its formulations (form=index3 is the published one).
 *
 * Source: I. Hafner, C. Poell, Comparison of regularisation methods referring to a
 * multi-pendulum case study (2015), eq. (6): two unit masses on massless rods of unit length,
 * the first hinged at the origin, y pointing down, gravity g along +y:
 *   x1' = vx1,  y1' = vy1,  x2' = vx2,  y2' = vy2,
 *   vx1' = -F1 x1 - F2 (x1 - x2),  vy1' = g - F1 y1 - F2 (y1 - y2),
 *   vx2' = -F2 (x2 - x1),          vy2' = g - F2 (y2 - y1),
 *   0 = x1^2 + y1^2 - 1,  0 = (x1 - x2)^2 + (y1 - y2)^2 - 1,
 * y = (x1, y1, x2, y2, vx1, vy1, vx2, vy2, F1, F2), F1, F2 the rod forces per unit length.
 * As a model: q = (x1, y1, x2, y2), M = I, f = (0, g, 0, g), and with (dx, dy) = (x1 - x2,
 * y1 - y2) the reaction W^T F = (F1 x1 + F2 dx, F1 y1 + F2 dy, -F2 dx, -F2 dy) (W = G/2).
 * Start (doc/design.md): both links horizontal, at rest, x1 = 1, x2 = 2; a = (0, g, 0, g).
 * Hidden constraints: g1 = x1^2 + y1^2 - 1, g2 = dx^2 + dy^2 - 1, g1' = 2 (x1 vx1 + y1 vy1),
 * g2' = 2 (dx dvx + dy dvy), g1'' = 2 (vx1^2 + vy1^2 + x1 ax1 + y1 ay1), g2'' likewise in the
 * differences.
 * State space (eq. (7)): x1 = cos phi1, y1 = sin phi1, x2 = x1 + cos phi2, y2 = y1 + sin phi2,
 * eta = phi', and Lagrange's equations with c = cos(phi1 - phi2), s = sin(phi1 - phi2)
 *   [2 c; c 1] eta' = (2 g cos phi1 - s eta2^2, g cos phi2 + s eta1^2)
 * (refsol/dpendulum_ref.c derives them), solved by Cramer's rule (determinant 2 - c^2 >= 1).
 * The motion is chaotic; on [0, 10] a reference stays meaningful.  Reference: the angle
 * formulation integrated in quadruple precision by two independent methods,
 * refsol/dpendulum_ref.c, data in refsol/dpendulum.txt.
 *
 * Spec keys (Thomsen (ed.) 2005 chapter 3): masses m1=, m2= and rod lengths l1=, l2= (positive,
 * finite; default 1), and the start of section 3.3 from the angles theta1=, theta2= and angular
 * velocities omega1=, omega2= (finite; default pi/2 and 0: both links horizontal at rest, the start
 * above). Angle convention of Thomsen (ed.) 2005 (3.3.1) with y pointing down, as problems/chain.c:
 * theta_k is the angle of rod k from the downward vertical, p1 = l1 (sin theta1, cos theta1), p2 =
 * p1 + l2 (sin theta2, cos theta2); chain:n=2 with m=m1:m2, l=l1:l2, theta=, omega= is the same
 * system.  Then M = diag(m1, m1, m2, m2), f = (0, m1 g, 0, m2 g), the constraints subtract l1^2
 * and l2^2, and form=ssf keeps Hafner & Poell's phi (from the horizontal, phi = pi/2 - theta):
 * p1 = l1 (cos phi1, sin phi1), and Lagrange's equations
 *   [(m1 + m2) l1^2, m2 l1 l2 c; m2 l1 l2 c, m2 l2^2] eta'
 *     = ((m1 + m2) g l1 cos phi1 - m2 l1 l2 s eta2^2, m2 g l2 cos phi2 + m2 l1 l2 s eta1^2),
 * which for unit data are the equations above, operation for operation (the factors are exactly
 * 1 and 2).  A start not at rest with both links horizontal takes eta' from them, a from
 * differentiating p twice and F from the second link back (F2 l2^2 = m2 (g e_y - a2).d2, F1 l1^2
 * = (m1 (g e_y - a1) + F2 d2).d1, d_k the rod vectors).  Only the default configuration has the
 * committed reference; `mbdae refsol SPEC --out FILE` computes one for any other. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain_config.h"
#include "dense.h"
#include "mechanical.h"

/* Defined at the end of this file (its model names it); listed in src/harness/problem_list.c. */
extern const problem_type mbdae_problem_dpendulum;

enum { NQ = 4, NC = 2, X1 = 0, Y1, X2, Y2 }; /* q = (x1, y1, x2, y2) */

static const double GRAV = 9.81; /* g, Hafner & Poell, section 2.1 */

typedef struct dpendulum_params {
  mech_params mech; /* first: the layer's view */
  double g;         /* gravitational acceleration along +y */
  double mass[2];   /* m1=, m2= */
  double length[2]; /* l1=, l2= */
  double theta[2];  /* theta1=, theta2=: the start, from the downward vertical */
  double omega[2];  /* omega1=, omega2= */
  mech_model model; /* this instance's model: its reference depends on the keys */
} dpendulum_params;

static double grav(const void *par) { return ((const dpendulum_params *)par)->g; }
static double mass(const void *par, int k) { return ((const dpendulum_params *)par)->mass[k]; }
static double len(const void *par, int k) { return ((const dpendulum_params *)par)->length[k]; }

static void zero(double *m, int n)
{
  for (int i = 0; i < n; i++) {
    m[i] = 0.0;
  }
}

static int dyn(const void *par, double t, const double *q, const double *v, const double *a,
               const double *lam, double *r)
{
  (void)t, (void)v;
  double dx = q[X1] - q[X2], dy = q[Y1] - q[Y2];
  double m1 = mass(par, 0), m2 = mass(par, 1);
  r[X1] = m1 * a[X1] + lam[0] * q[X1] + lam[1] * dx;
  r[Y1] = m1 * a[Y1] - m1 * grav(par) + lam[0] * q[Y1] + lam[1] * dy;
  r[X2] = m2 * a[X2] - lam[1] * dx;
  r[Y2] = m2 * a[Y2] - m2 * grav(par) - lam[1] * dy;
  return 0;
}

/* d(W^T lambda)/dq, which is also dR/dq (M and f do not depend on q). */
static void reaction_q(const double *lam, double *m)
{
  double f1 = lam[0], f2 = lam[1];
  zero(m, NQ * NQ);
  MBDAE_AT(m, NQ, X1, X1) = f1 + f2;
  MBDAE_AT(m, NQ, X1, X2) = -f2;
  MBDAE_AT(m, NQ, Y1, Y1) = f1 + f2;
  MBDAE_AT(m, NQ, Y1, Y2) = -f2;
  MBDAE_AT(m, NQ, X2, X1) = -f2;
  MBDAE_AT(m, NQ, X2, X2) = f2;
  MBDAE_AT(m, NQ, Y2, Y1) = -f2;
  MBDAE_AT(m, NQ, Y2, Y2) = f2;
}

static int dyn_jac(const void *par, double t, const double *q, const double *v, const double *a,
                   const double *lam, double *rq, double *rv, double *mass)
{
  (void)t, (void)q, (void)v, (void)a;
  if (rq) {
    reaction_q(lam, rq);
  }
  if (rv) {
    zero(rv, NQ * NQ);
  }
  if (mass) {
    zero(mass, NQ * NQ);
    for (int i = 0; i < NQ; i++) {
      MBDAE_AT(mass, NQ, i, i) = ((const dpendulum_params *)par)->mass[i / 2];
    }
  }
  return 0;
}

static int reaction(const void *par, double t, const double *q, const double *lam, double *wtl,
                    double *wt, double *wtlq, double *wtlt)
{
  (void)par, (void)t;
  double dx = q[X1] - q[X2], dy = q[Y1] - q[Y2];
  if (wtl) {
    wtl[X1] = lam[0] * q[X1] + lam[1] * dx;
    wtl[Y1] = lam[0] * q[Y1] + lam[1] * dy;
    wtl[X2] = -lam[1] * dx;
    wtl[Y2] = -lam[1] * dy;
  }
  if (wt) {
    const double w[NQ * NC] = {q[X1], q[Y1], 0.0, 0.0, dx, dy, -dx, -dy};
    for (int i = 0; i < NQ * NC; i++) {
      wt[i] = w[i];
    }
  }
  if (wtlq) {
    reaction_q(lam, wtlq);
  }
  if (wtlt) {
    zero(wtlt, NQ);
  }
  return 0;
}

/* The 2 x 4 matrix [2 p1, 0; 2 d, -2 d] of the two links (p1 = first link, d = difference):
 * G with (p1, d) the positions, d g'/dq with the velocities, d g''/dq with the accelerations,
 * and half of d g''/dv with the velocities. */
static void link_matrix(const double *p, double factor, double *m)
{
  double dx = p[X1] - p[X2], dy = p[Y1] - p[Y2];
  const double entries[NC * NQ] = {factor * p[X1], factor * dx, factor * p[Y1], factor * dy, 0.0,
                                   -factor * dx,   0.0,         -factor * dy};
  for (int i = 0; i < NC * NQ; i++) {
    m[i] = entries[i];
  }
}

static int con(const void *par, double t, const double *q, double *g, double *gq)
{
  (void)t;
  double dx = q[X1] - q[X2], dy = q[Y1] - q[Y2];
  if (g) {
    g[0] = q[X1] * q[X1] + q[Y1] * q[Y1] - len(par, 0) * len(par, 0);
    g[1] = dx * dx + dy * dy - len(par, 1) * len(par, 1);
  }
  if (gq) {
    link_matrix(q, 2.0, gq);
  }
  return 0;
}

static int con_vel(const void *par, double t, const double *q, const double *v, double *gv,
                   double *gvq)
{
  (void)par, (void)t;
  double dx = q[X1] - q[X2], dy = q[Y1] - q[Y2];
  double dvx = v[X1] - v[X2], dvy = v[Y1] - v[Y2];
  if (gv) {
    gv[0] = 2.0 * (q[X1] * v[X1] + q[Y1] * v[Y1]);
    gv[1] = 2.0 * (dx * dvx + dy * dvy);
  }
  if (gvq) {
    link_matrix(v, 2.0, gvq);
  }
  return 0;
}

static int con_acc(const void *par, double t, const double *q, const double *v, const double *a,
                   double *ga, double *gaq, double *gav)
{
  (void)par, (void)t;
  double dx = q[X1] - q[X2], dy = q[Y1] - q[Y2];
  double dvx = v[X1] - v[X2], dvy = v[Y1] - v[Y2];
  double dax = a[X1] - a[X2], day = a[Y1] - a[Y2];
  if (ga) {
    ga[0] = 2.0 * (v[X1] * v[X1] + v[Y1] * v[Y1] + q[X1] * a[X1] + q[Y1] * a[Y1]);
    ga[1] = 2.0 * (dvx * dvx + dvy * dvy + dx * dax + dy * day);
  }
  if (gaq) {
    link_matrix(a, 2.0, gaq);
  }
  if (gav) {
    link_matrix(v, 4.0, gav);
  }
  return 0;
}

static int ssf_acc(const void *par, double t, const double *z, const double *w, double *acc,
                   double *accz, double *accw);
static int ssf_from_cartesian(const void *par, const double *q, const double *v, double *z,
                              double *w);

/* p_k = p_{k-1} + l_k (sin theta_k, cos theta_k) (p_0 = 0) with (sin, cos) given, differentiated
 * twice along the angular velocities om and accelerations alpha. */
static void links_to_cartesian(const void *par, const double *sin_th, const double *cos_th,
                               const double *om, const double *alpha, double *q, double *v,
                               double *a)
{
  static const int xs[2] = {X1, X2}, ys[2] = {Y1, Y2};
  for (int k = 0; k < 2; k++) {
    double l = len(par, k), s = sin_th[k], c = cos_th[k];
    q[xs[k]] = (k ? q[X1] : 0.0) + l * s;
    q[ys[k]] = (k ? q[Y1] : 0.0) + l * c;
    v[xs[k]] = (k ? v[X1] : 0.0) + l * om[k] * c;
    v[ys[k]] = (k ? v[Y1] : 0.0) - l * om[k] * s;
    a[xs[k]] = (k ? a[X1] : 0.0) + l * (alpha[k] * c - om[k] * om[k] * s);
    a[ys[k]] = (k ? a[Y1] : 0.0) + l * (-alpha[k] * s - om[k] * om[k] * c);
  }
}

/* The rod forces of positions q and accelerations a, from the second link back (header). */
static void forces_from_accelerations(const void *par, const double *q, const double *a,
                                      double *lam)
{
  double m1 = mass(par, 0), m2 = mass(par, 1), l1 = len(par, 0), l2 = len(par, 1);
  double d2x = q[X2] - q[X1], d2y = q[Y2] - q[Y1];
  lam[1] = (-m2 * a[X2] * d2x + m2 * (grav(par) - a[Y2]) * d2y) / (l2 * l2);
  double f1x = -m1 * a[X1] + lam[1] * d2x, f1y = m1 * (grav(par) - a[Y1]) + lam[1] * d2y;
  lam[0] = (f1x * q[X1] + f1y * q[Y1]) / (l1 * l1);
}

/* The start of Thomsen (ed.) 2005 section 3.3 from theta1,2 and omega1,2.  Both links horizontal at
 * rest (the default): F1 = F2 = 0, and both masses start in free fall, a_y = g.  Otherwise the
 * angular accelerations of Lagrange's equations (ssf_acc; theta'' = -eta'), then a and F (header).
 */
static int init(const void *par, double *q, double *v, double *a, double *lam)
{
  const dpendulum_params *p = par;
  double sin_th[2], cos_th[2], alpha[2] = {0.0, 0.0};
  int at_rest_horizontal = 1;
  for (int k = 0; k < 2; k++) {
    chain_direction(p->theta[k], &sin_th[k], &cos_th[k]);
    at_rest_horizontal = at_rest_horizontal && cos_th[k] == 0.0 && p->omega[k] == 0.0;
  }
  links_to_cartesian(par, sin_th, cos_th, p->omega, alpha, q, v, a);
  if (at_rest_horizontal) {
    for (int i = 0; i < NQ; i++) {
      a[i] = (i == Y1 || i == Y2) ? grav(par) : 0.0;
    }
    lam[0] = lam[1] = 0.0;
    return 0;
  }
  double phi[2], eta[2], eta_dot[2];
  ssf_from_cartesian(par, q, v, phi, eta);
  int rc = ssf_acc(par, 0.0, phi, eta, eta_dot, NULL, NULL);
  alpha[0] = -eta_dot[0];
  alpha[1] = -eta_dot[1];
  links_to_cartesian(par, sin_th, cos_th, p->omega, alpha, q, v, a);
  forces_from_accelerations(par, q, a, lam);
  return rc;
}

/* y(10), refsol/dpendulum.txt (quad GBS, confirmed by Gauss-Legendre on 26 digits, 22 given). */
static int ref(const void *par, double *q, double *v, double *lam)
{
  static const double qend[NQ] = {-5.383472396122263907340e-01, 8.427231156209589249551e-01,
                                  -1.040765783246170486107e+00, 1.707347662469327446982e+00};
  static const double vend[NQ] = {5.122395448872669515105e+00, 3.272281724550631830912e+00,
                                  -3.248346643425481938019e+00, -1.591813409548471224231e+00};
  (void)par;
  for (int i = 0; i < NQ; i++) {
    q[i] = qend[i];
    v[i] = vend[i];
  }
  lam[0] = 1.837483319083169241637e+02;
  lam[1] = 1.386572046574905243964e+02;
  return 0;
}

/* eq. (7): eta' = [2 c; c 1]^{-1} b by Cramer's rule, and its derivatives by the quotient rule
 * over x = (phi1, phi2, eta1, eta2). */
static int ssf_acc(const void *par, double t, const double *z, const double *w, double *acc,
                   double *accz, double *accw)
{
  (void)t;
  double g = grav(par), c = cos(z[0] - z[1]), s = sin(z[0] - z[1]);
  double m1 = mass(par, 0), m2 = mass(par, 1), l1 = len(par, 0), l2 = len(par, 1);
  /* the matrix [a11, cross c; cross c, a22] and the factors of the right-hand side: for unit
   * data a11 = 2, a22 = cross = k2 = 1, k1 = 2, and every product below is the unit one */
  double a11 = (m1 + m2) * l1 * l1, a22 = m2 * l2 * l2, cross = m2 * l1 * l2;
  double k1 = (m1 + m2) * l1, k2 = m2 * l2, pc = cross * c, ps = cross * s;
  double b1 = k1 * g * cos(z[0]) - ps * w[1] * w[1], b2 = k2 * g * cos(z[1]) + ps * w[0] * w[0];
  double det = a11 * a22 - pc * pc;
  double n1 = a22 * b1 - pc * b2, n2 = a11 * b2 - pc * b1;
  if (acc) {
    acc[0] = n1 / det;
    acc[1] = n2 / det;
  }
  const double dpc[4] = {-ps, ps, 0.0, 0.0}; /* d(cross c) */
  const double db1[4] = {-(k1 * g) * sin(z[0]) - pc * w[1] * w[1], pc * w[1] * w[1], 0.0,
                         -2.0 * ps * w[1]};
  const double db2[4] = {pc * w[0] * w[0], -(k2 * g) * sin(z[1]) - pc * w[0] * w[0],
                         2.0 * ps * w[0], 0.0};
  for (int x = 0; x < 4; x++) {
    double ddet = -2.0 * pc * dpc[x];
    double dn1 = a22 * db1[x] - dpc[x] * b2 - pc * db2[x];
    double dn2 = a11 * db2[x] - dpc[x] * b1 - pc * db1[x];
    double *col = x < 2 ? (accz ? accz + 2 * x : NULL) : (accw ? accw + 2 * (x - 2) : NULL);
    if (col) {
      col[0] = (dn1 - n1 / det * ddet) / det;
      col[1] = (dn2 - n2 / det * ddet) / det;
    }
  }
  return 0;
}

static int ssf_from_cartesian(const void *par, const double *q, const double *v, double *z,
                              double *w)
{
  double ex = q[X2] - q[X1], ey = q[Y2] - q[Y1], l1 = len(par, 0), l2 = len(par, 1);
  z[0] = atan2(q[Y1], q[X1]);
  z[1] = atan2(ey, ex);
  w[0] = (q[X1] * v[Y1] - q[Y1] * v[X1]) / (l1 * l1);
  w[1] = (ex * (v[Y2] - v[Y1]) - ey * (v[X2] - v[X1])) / (l2 * l2);
  return 0;
}

/* p1 = l1 (cos phi1, sin phi1), p2 = p1 + l2 (cos phi2, sin phi2), differentiated twice. */
static int ssf_to_cartesian(const void *par, const double *z, const double *w, const double *wdot,
                            double *q, double *v, double *a)
{
  static const int xs[2] = {X1, X2}, ys[2] = {Y1, Y2};
  for (int k = 0; k < 2; k++) {
    double c = len(par, k) * cos(z[k]), s = len(par, k) * sin(z[k]); /* l_k times */
    q[xs[k]] = (k ? q[X1] : 0.0) + c;
    q[ys[k]] = (k ? q[Y1] : 0.0) + s;
    if (v) {
      v[xs[k]] = (k ? v[X1] : 0.0) - s * w[k];
      v[ys[k]] = (k ? v[Y1] : 0.0) + c * w[k];
    }
    if (a) {
      a[xs[k]] = (k ? a[X1] : 0.0) - s * wdot[k] - c * w[k] * w[k];
      a[ys[k]] = (k ? a[Y1] : 0.0) + c * wdot[k] - s * w[k] * w[k];
    }
  }
  return 0;
}

static const char *const ssf_names[4] = {"phi1", "phi2", "eta1", "eta2"};
/* ref_turns NULL: the angles do not wind up over [0, 10]; form=ssf with radau5 at rtol 1e-10 ends
 * at phi = (2.1392710, 2.0971900), within 2e-8 of the principal values of the reference. */
static const mech_ssf dpendulum_ssf = {2,    ssf_names,       ssf_acc, ssf_from_cartesian,
                                       NULL, ssf_to_cartesian};

/* y = (x1, y1, x2, y2, vx1, vy1, vx2, vy2, F1, F2): Hafner & Poell eq. (6) */
static const char *const component_names[2 * NQ + NC] = {"x1",  "y1",  "x2",  "y2", "vx1",
                                                         "vy1", "vx2", "vy2", "F1", "F2"};

/* refsol/dpendulum_traj.txt, whose last row is ref's (asked only where ref is set). */
static const ref_traj *traj(const void *par)
{
  (void)par;
  return &mbdae_traj_dpendulum;
}

static const mech_model dpendulum_model = {
    .type = &mbdae_problem_dpendulum,
    .nq = NQ,
    .nc = NC,
    .names = component_names,
    .in_scd = NULL,
    .ref_source =
        "angle (state-space) formulation, Hafner & Poell eq. (7), with Lagrange's equations "
        "[2 c; c 1] phi'' = (2 g cos phi1 - s phi2'^2, g cos phi2 + s phi1'^2), integrated in "
        "__float128 by Gragg-Bulirsch-Stoer extrapolation (order 20) and confirmed by 12-stage "
        "Gauss-Legendre collocation: 26 digits agree, 22 given (refsol/dpendulum_ref.c, "
        "refsol/dpendulum.txt); not published in the test set",
    .dyn = dyn,
    .dyn_jac = dyn_jac,
    .reaction = reaction,
    .con = con,
    .con_vel = con_vel,
    .con_acc = con_acc,
    .init = init,
    .ref = ref,
    .traj = traj,
    .ssf = &dpendulum_ssf,
    .dummy = 1,
};

/* The keys of Thomsen (ed.) 2005 chapter 3 (header): name, where in the params, whether > 0 is
 * required, and the default. */
typedef struct dpendulum_key {
  const char *name;
  size_t offset;
  int positive;
  double value;
} dpendulum_key;

#define DPENDULUM_KEY(name, member, k, positive, value)                                            \
  {                                                                                                \
    name, offsetof(dpendulum_params, member) + (k) * sizeof(double), positive, value               \
  }
static const dpendulum_key dpendulum_keys[] = {
    DPENDULUM_KEY("m1", mass, 0, 1, 1.0),
    DPENDULUM_KEY("m2", mass, 1, 1, 1.0),
    DPENDULUM_KEY("l1", length, 0, 1, 1.0),
    DPENDULUM_KEY("l2", length, 1, 1, 1.0),
    DPENDULUM_KEY("theta1", theta, 0, 0, 1.57079632679489661923),
    DPENDULUM_KEY("theta2", theta, 1, 0, 1.57079632679489661923),
    DPENDULUM_KEY("omega1", omega, 0, 0, 0.0),
    DPENDULUM_KEY("omega2", omega, 1, 0, 0.0),
};
enum { NKEYS = sizeof dpendulum_keys / sizeof dpendulum_keys[0] };

static double *key_value(dpendulum_params *p, int i)
{
  return (double *)(void *)((char *)p + dpendulum_keys[i].offset);
}

static int is_default(const dpendulum_params *p)
{
  for (int i = 0; i < NKEYS; i++) {
    if (*key_value((dpendulum_params *)p, i) != dpendulum_keys[i].value) {
      return 0;
    }
  }
  return 1;
}

/* Only the default configuration has the committed reference. */
static void configure(dpendulum_params *p)
{
  int committed = is_default(p);
  p->model.ref = committed ? ref : NULL;
  p->model.ref_source =
      committed ? dpendulum_model.ref_source
                : "none committed for this configuration (only the default, unit masses and "
                  "lengths, both links horizontal at rest, has one): compute it with `mbdae "
                  "refsol SPEC --out FILE` and give it with --ref FILE";
}

static void set_defaults(void *params)
{
  dpendulum_params *p = params;
  p->model = dpendulum_model;
  mbdae_mech_defaults(&p->mech, &p->model);
  p->g = GRAV;
  for (int i = 0; i < NKEYS; i++) {
    *key_value(p, i) = dpendulum_keys[i].value;
  }
  configure(p);
}

static int set_option(void *params, const char *key, const char *value, char *msg, size_t msglen)
{
  dpendulum_params *p = params;
  for (int i = 0; i < NKEYS; i++) {
    if (strcmp(key, dpendulum_keys[i].name) != 0) {
      continue;
    }
    char *end = NULL;
    errno = 0;
    double x = strtod(value, &end);
    if (end == value || *end != '\0' || errno == ERANGE || !isfinite(x) ||
        (dpendulum_keys[i].positive && !(x > 0.0))) {
      if (msg && msglen > 0) {
        snprintf(msg, msglen, "bad value '%s' for %s= of problem 'dpendulum': %s", value, key,
                 dpendulum_keys[i].positive ? "a positive finite number" : "a finite number");
      }
      return MBDAE_ERR_SPEC;
    }
    *key_value(p, i) = x;
    configure(p);
    return 0;
  }
  return mbdae_mech_option(params, key, value, msg, msglen);
}

/* The keys of a non-default configuration, all of them (shortest round-trip numbers), then the
 * layer's; the default configuration is spelled as before the keys existed. */
static void format_options(const void *params, char *buf, size_t len)
{
  const dpendulum_params *p = params;
  size_t used = 0;
  for (int i = 0; i < NKEYS && !is_default(p); i++) {
    double x = *key_value((dpendulum_params *)p, i);
    int n = 0;
    for (int digits = 15; digits <= 17; digits++) {
      char num[32];
      snprintf(num, sizeof num, "%.*g", digits, x);
      if (strtod(num, NULL) == x || digits == 17) {
        n = snprintf(buf + used, len - used, "%s=%s,", dpendulum_keys[i].name, num);
        break;
      }
    }
    if (n < 0 || used + (size_t)n >= len) {
      return; /* full: the text ends where snprintf truncated it, a prefix of the whole */
    }
    used += (size_t)n;
  }
  mbdae_mech_format_options(params, buf + used, len - used);
}

const problem_type mbdae_problem_dpendulum = {
    .id = "dpendulum",
    .title = "Double pendulum (Cartesian coordinates)",
    .t0 = 0.0,
    .tend = 10.0, /* doc/design.md: the paper runs 100 s, but the motion is chaotic */
    .tolerances = {.m_div = 4,
                   .m_max = 24,
                   .h0_factor = 1.0,
                   .ntable = 3,
                   .table_rtol = {1e-4, 1e-7, 1e-10},
                   .default_rtol = 1e-7},
    .params_size = sizeof(dpendulum_params),
    .options_help =
        "m1=, m2=, l1=, l2= (> 0), theta1=, theta2=, omega1=, omega2=, " MECH_OPTIONS_HELP_DUMMY,
    .set_defaults = set_defaults,
    .set_option = set_option,
    .finish = mbdae_mech_finish,
    .format_options = format_options,
    .describe = mbdae_mech_describe,
    .init = mbdae_mech_init,
    .res = mbdae_mech_res,
    .jac = mbdae_mech_jac,
    .ref = mbdae_mech_ref,
    .ref_traj = mbdae_mech_ref_traj,
    .constraints = mbdae_mech_constraints,
};
