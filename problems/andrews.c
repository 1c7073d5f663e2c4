/* Andrews' squeezing mechanism: an index-3 DAE of dimension 27 (test set release 2.4, problem
 * file andrews.f; report section II.13, formulation of Hairer & Wanner, Solving ODEs II
 * (2nd ed.), pp. 530-536; promoted by Giles [Gil78] and Manning [Man81]).
 *
 * Seven rigid bodies joined by frictionless joints, driven by a constant torque mom and a spring.
 * With the angles q in R^7, the multipliers lambda in R^6 and y = (q, q', q'', lambda):
 *
 *   K y' = phi(y),   K = diag(I14, 0),
 *   phi = ( q',  q'',  M(q) q'' - f(q, q') + G(q)^T lambda,  g(q) ),   G = dg/dq,
 *
 * M, f and g as in report 2.4 section II.13.2.  Residual, in the test set's own form
 * F = K y' - phi(y):
 *   rows 1-14   y'_i - y_{i+7}   (q' and q'' are the derivatives of q and q'),
 *   rows 15-21  -(M(q) q'' - f(q, q') + G(q)^T lambda),
 *   rows 22-27  -g(q)
 * (andrews.f's residual negates rows 15-27 of phi the same way).
 *
 * Jacobian (option jac): exact = every derivative, including those of M(q) q'', f(q, q') and
 * G(q)^T lambda with respect to q and q'; approx = report 2.4 section II.13.4 (and andrews.f):
 * dphi/dy ~ [O I O O; O O I O; O O M G^T; G O O O], neglecting the derivatives of f, M and G, so
 * that the published runs can be reproduced.
 *
 * As a model of the mechanical layer (problems/mechanical.h) with the accelerations as
 * variables (acc_vars), which generates this form (form=index3, the published one) and, as
 * Hairer & Wanner VII.7 write them, index2 (G q' = 0 in rows 22-27), index1
 * (G q'' + g_qq(q', q') = 0), and ggl and baumgarte: R = M(q) q'' - f(q, q') + G(q)^T lambda
 * (W = G), no time dependence.  Every form keeps q, q', q'' and lambda under their index-3 names
 * (ggl adds mu1..mu6).  jac=approx neglects the same derivatives in every form (those of f, M and
 * G^T lambda in rows R, and of G in the constraint rows; ggl's q' - v + G^T mu rows keep theirs).
 * No global minimal parametrisation is offered: form=ssf is refused.
 *
 * The constraints g are sums of terms c cos(q_a + ... + q_b) or c sin(q_a + ... + q_b) plus a
 * constant (a fixed point of the frame); one table of such terms gives g, G and the curvature
 * terms (second derivatives) that the exact Jacobian and the acceleration-level constraint need. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mechanical.h"

/* Defined at the end of this file (its model names it); listed in src/harness/problem_list.c. */
extern const problem_type mbdae_problem_andrews;

enum {
  NQ = 7,   /* angles beta, Theta, gamma, Phi, delta, Omega, epsilon */
  NLAM = 6, /* multipliers, one per position constraint */
  NEQ = 27, /* in the index-3 form: y = (q, q', q'', lambda) */
  Q1 = 0,   /* angle offsets inside q (1-based names as in the report) */
  Q2,
  Q3,
  Q4,
  Q5,
  Q6,
  Q7,
  MAXTERMS = 4 /* most trigonometric terms in one constraint */
};

/* Constants of report 2.4 section II.13.2, the same values and signs as andrews.f: xa = -0.06934,
 * ya = -0.00227, xb = -0.03635 carry the minus signs the test set's andrews.f codes;
 * refsol/andrews.txt warns that the 2.4 PDF's text drops them. */
static const double M1 = 0.04325, M2 = 0.00365, M3 = 0.02373, M4 = 0.00706; /* masses */
static const double M5 = 0.07050, M6 = 0.00706, M7 = 0.05498;
static const double I1 = 2.194e-6, I2 = 4.410e-7, I3 = 5.255e-6, I4 = 5.667e-7; /* inertias */
static const double I5 = 1.169e-5, I6 = 5.667e-7, I7 = 1.912e-5;
static const double XA = -0.06934, YA = -0.00227; /* fixed point A */
static const double XB = -0.03635, YB = 0.03273;  /* fixed point B */
static const double XC = 0.014, YC = 0.072;       /* spring anchor C */
static const double C0 = 4530.0;                  /* spring constant */
static const double L0 = 0.07785;                 /* spring rest length */
static const double MOM = 0.033;                  /* driving torque */
/* lengths and offsets on the bodies (geometry of Hairer & Wanner, pp. 530-536) */
static const double D = 0.028, DA = 0.0115, E = 0.02, EA = 0.01421;
static const double RR = 0.007, RA = 0.00092, SS = 0.035, SA = 0.01874;
static const double SB = 0.01043, SC = 0.018, SD = 0.02, TA = 0.02308, TB = 0.00916;
static const double U = 0.04, UA = 0.01228, UB = 0.00449, ZF = 0.02, ZT = 0.04, FA = 0.01421;

typedef enum jac_mode {
  JAC_EXACT, /* full analytic Jacobian */
  JAC_APPROX /* report 2.4 section II.13.4: derivatives of f, M and G neglected */
} jac_mode;

/* c cos(theta), or c sin(theta) when sine is set, theta = q_first + ... + q_last (trig's entry
 * angle holds its sine and cosine). */
typedef struct trig_term {
  double c;
  int sine;
  int first, last; /* angle range, inclusive */
  int angle;       /* its entry in trig */
} trig_term;

typedef struct constraint_row {
  int nterms;
  trig_term term[MAXTERMS];
  double offset; /* minus the frame point the row pins */
  /* The entries of G the terms add to, in the order of the terms and of each term's angle
   * range (derived from term by constraint_rows): term upd_term[e] adds to G[i][upd_col[e]]. */
  int nupd;
  int upd_col[2 * MAXTERMS], upd_term[2 * MAXTERMS];
} constraint_row;

typedef struct andrews_params {
  mech_params mech;         /* first: the layer's view */
  jac_mode jac;             /* which Jacobian jac() returns */
  constraint_row row[NLAM]; /* g(q) as trigonometric terms (constraint_rows), constant */
} andrews_params;

/* Every angle the model takes a sine or cosine of: q1..q7 and the sums below. */
enum { A12 = NQ, A45, A67, NANGLES };

/* Their sines and cosines, computed once per call (andrews.f's SIN/COS block does the same). */
typedef struct trig {
  double s[NANGLES], c[NANGLES];
} trig;

static void trig_at(const double *q, trig *tr)
{
  double th[NANGLES];
  for (int i = 0; i < NQ; i++) {
    th[i] = q[i];
  }
  th[A12] = q[Q1] + q[Q2];
  th[A45] = q[Q4] + q[Q5];
  th[A67] = q[Q6] + q[Q7];
  for (int k = 0; k < NANGLES; k++) {
    tr->s[k] = sin(th[k]);
    tr->c[k] = cos(th[k]);
  }
}

/* A term's value, first and second derivative with respect to its angle sum. */
typedef struct term_value {
  double v, dv, ddv;
} term_value;

/* g(q) of report 2.4 section II.13.2 as rows of trigonometric terms.  Every row starts from the
 * crank/rod point rr (cos q1, sin q1) - d (cos(q1+q2), sin(q1+q2)); rows 1-2 close the loop at
 * B, rows 3-6 at A. */
static void constraint_rows(constraint_row row[NLAM])
{
  const trig_term x_base[2] = {{RR, 0, Q1, Q1, Q1}, {-D, 0, Q1, Q2, A12}};
  const trig_term y_base[2] = {{RR, 1, Q1, Q1, Q1}, {-D, 1, Q1, Q2, A12}};
  const trig_term extra[NLAM][2] = {
      {{-SS, 1, Q3, Q3, Q3}, {0.0, 0, Q3, Q3, Q3}}, /* g1: - ss sin q3 */
      {{SS, 0, Q3, Q3, Q3}, {0.0, 0, Q3, Q3, Q3}},  /* g2: + ss cos q3 */
      {{-E, 1, Q4, Q5, A45}, {-ZT, 0, Q5, Q5, Q5}}, /* g3: - e sin(q4+q5) - zt cos q5 */
      {{E, 0, Q4, Q5, A45}, {-ZT, 1, Q5, Q5, Q5}},  /* g4: + e cos(q4+q5) - zt sin q5 */
      {{-ZF, 0, Q6, Q7, A67}, {-U, 1, Q7, Q7, Q7}}, /* g5: - zf cos(q6+q7) - u sin q7 */
      {{-ZF, 1, Q6, Q7, A67}, {U, 0, Q7, Q7, Q7}},  /* g6: - zf sin(q6+q7) + u cos q7 */
  };
  const int nextra[NLAM] = {1, 1, 2, 2, 2, 2};
  const double offset[NLAM] = {-XB, -YB, -XA, -YA, -XA, -YA};
  for (int i = 0; i < NLAM; i++) {
    const trig_term *base = (i % 2 == 0) ? x_base : y_base;
    row[i].nterms = 2 + nextra[i];
    row[i].term[0] = base[0];
    row[i].term[1] = base[1];
    for (int k = 0; k < nextra[i]; k++) {
      row[i].term[2 + k] = extra[i][k];
    }
    row[i].offset = offset[i];
    row[i].nupd = 0;
    for (int n = 0; n < row[i].nterms; n++) {
      for (int k = row[i].term[n].first; k <= row[i].term[n].last; k++) {
        row[i].upd_col[row[i].nupd] = k;
        row[i].upd_term[row[i].nupd++] = n;
      }
    }
  }
}

static double angle_sum(const trig_term *t, const double *v)
{
  double s = 0.0;
  for (int k = t->first; k <= t->last; k++) {
    s += v[k];
  }
  return s;
}

static term_value term_at(const trig_term *t, const trig *tr)
{
  double s = tr->s[t->angle], c = tr->c[t->angle];
  term_value r;
  r.v = t->c * (t->sine ? s : c);
  r.dv = t->c * (t->sine ? c : -s);
  r.ddv = -r.v;
  return r;
}

/* g(q) and G(q) = dg/dq (G[i][k] = dg_i/dq_k); either output may be NULL.  Each row's terms are
 * evaluated once, then added to g_i in their order and to G's entries through the row's list of
 * updates (the order of a loop over each term's angle range). */
static void constraints_at(const constraint_row row[NLAM], const trig *tr, double g[NLAM],
                           double G[NLAM][NQ])
{
  for (int i = 0; i < NLAM; i++) {
    const constraint_row *r = &row[i];
    double gi = r->offset, dv[MAXTERMS];
    for (int n = 0; n < r->nterms; n++) {
      term_value tv = term_at(&r->term[n], tr);
      gi += tv.v;
      dv[n] = tv.dv;
    }
    if (g) {
      g[i] = gi;
    }
    if (G) {
      for (int k = 0; k < NQ; k++) {
        G[i][k] = 0.0;
      }
      for (int e = 0; e < r->nupd; e++) {
        G[i][r->upd_col[e]] += dv[r->upd_term[e]];
      }
    }
  }
}

/* curv[i] = sum_jk d2g_i/dq_j dq_k v_j v_k: the velocity-squared part of g_i''. */
static void curvature(const constraint_row row[NLAM], const trig *tr, const double *v,
                      double curv[NLAM])
{
  for (int i = 0; i < NLAM; i++) {
    curv[i] = 0.0;
    for (int n = 0; n < row[i].nterms; n++) {
      const trig_term *t = &row[i].term[n];
      double w = angle_sum(t, v);
      curv[i] += term_at(t, tr).ddv * w * w;
    }
  }
}

/* H[j][k] = d(G^T lambda)_j / dq_k = sum_i lambda_i d2g_i/dq_j dq_k. */
static void lambda_hessian(const constraint_row row[NLAM], const trig *tr, const double *lam,
                           double H[NQ][NQ])
{
  memset(H, 0, sizeof(double) * NQ * NQ);
  for (int i = 0; i < NLAM; i++) {
    for (int n = 0; n < row[i].nterms; n++) {
      const trig_term *t = &row[i].term[n];
      double h = lam[i] * term_at(t, tr).ddv;
      for (int j = t->first; j <= t->last; j++) {
        for (int k = t->first; k <= t->last; k++) {
          H[j][k] += h;
        }
      }
    }
  }
}

/* Coupling coefficients of the two-body links: crank-rod, and the two rocker pairs. */
static double crank_coef(void) { return M2 * DA * RR; }
static double rocker4_coef(void) { return M4 * ZT * (E - EA); }
static double rocker6_coef(void) { return M6 * U * (ZF - FA); }

/* The symmetric mass matrix M(q) of report 2.4 section II.13.2 (depends on q2, q4, q6 only). */
static void mass_matrix(const trig *tr, double m[NQ][NQ])
{
  double c2 = tr->c[Q2], s4 = tr->s[Q4], s6 = tr->s[Q6];
  double ee = E - EA, zz = ZF - FA;
  memset(m, 0, sizeof(double) * NQ * NQ);
  m[Q1][Q1] = M1 * RA * RA + M2 * (RR * RR - 2.0 * DA * RR * c2 + DA * DA) + I1 + I2;
  m[Q2][Q1] = M2 * (DA * DA - DA * RR * c2) + I2;
  m[Q2][Q2] = M2 * DA * DA + I2;
  m[Q3][Q3] = M3 * (SA * SA + SB * SB) + I3;
  m[Q4][Q4] = M4 * ee * ee + I4;
  m[Q5][Q4] = M4 * (ee * ee + ZT * ee * s4) + I4;
  m[Q5][Q5] = M4 * (ZT * ZT + 2.0 * ZT * ee * s4 + ee * ee) + M5 * (TA * TA + TB * TB) + I4 + I5;
  m[Q6][Q6] = M6 * zz * zz + I6;
  m[Q7][Q6] = M6 * (zz * zz - U * zz * s6) + I6;
  m[Q7][Q7] = M6 * (zz * zz - 2.0 * U * zz * s6 + U * U) + M7 * (UA * UA + UB * UB) + I6 + I7;
  m[Q1][Q2] = m[Q2][Q1];
  m[Q4][Q5] = m[Q5][Q4];
  m[Q6][Q7] = m[Q7][Q6];
}

/* dm[i][k] = d(M(q) a)_i / dq_k for the accelerations a. */
static void mass_matrix_dq(const trig *tr, const double *a, double dm[NQ][NQ])
{
  double s2 = tr->s[Q2], c4 = tr->c[Q4], c6 = tr->c[Q6];
  double k2 = crank_coef(), k4 = rocker4_coef(), k6 = rocker6_coef();
  memset(dm, 0, sizeof(double) * NQ * NQ);
  /* dM11/dq2 = 2 k2 sin q2, dM12/dq2 = k2 sin q2 */
  dm[Q1][Q2] = 2.0 * k2 * s2 * a[Q1] + k2 * s2 * a[Q2];
  dm[Q2][Q2] = k2 * s2 * a[Q1];
  /* dM45/dq4 = k4 cos q4, dM55/dq4 = 2 k4 cos q4 */
  dm[Q4][Q4] = k4 * c4 * a[Q5];
  dm[Q5][Q4] = k4 * c4 * a[Q4] + 2.0 * k4 * c4 * a[Q5];
  /* dM67/dq6 = -k6 cos q6, dM77/dq6 = -2 k6 cos q6 */
  dm[Q6][Q6] = -k6 * c6 * a[Q7];
  dm[Q7][Q6] = -k6 * c6 * a[Q6] - 2.0 * k6 * c6 * a[Q7];
}

/* The spring between C and the point D on body 3: the generalized force f3 and its derivative
 * with respect to q3.  With dx = xd - xc, dy = yd - yc, len = |(dx, dy)|, F = -c0 (len - l0)/len
 * and (a, b) = d(xd, yd)/dq3, f3 = F (dx a + dy b). */
static void spring_force(const trig *tr, double *f3, double *df3)
{
  double s = tr->s[Q3], c = tr->c[Q3];
  double dx = SD * c + SC * s + XB - XC;
  double dy = SD * s - SC * c + YB - YC;
  double a = SC * c - SD * s, b = SD * c + SC * s;
  double len = sqrt(dx * dx + dy * dy);
  double force = -C0 * (len - L0) / len;
  double proj = dx * a + dy * b;
  /* (a, b)' = (-b, a); dlen/dq3 = proj / len */
  double dproj = a * a + b * b - dx * b + dy * a;
  double dforce = -C0 * L0 * proj / (len * len * len);
  *f3 = force * proj;
  *df3 = dforce * proj + force * dproj;
}

/* f(q, q') of report 2.4 section II.13.2, and (when not NULL) df/dq and df/dq'. */
static void forces(const trig *tr, const double *v, double f[NQ], double dfq[NQ][NQ],
                   double dfv[NQ][NQ])
{
  double s2 = tr->s[Q2], c2 = tr->c[Q2], s4 = tr->s[Q4], c4 = tr->c[Q4];
  double s6 = tr->s[Q6], c6 = tr->c[Q6];
  double k2 = crank_coef(), k4 = rocker4_coef(), k6 = rocker6_coef();
  double df3;
  f[Q1] = MOM - k2 * v[Q2] * (v[Q2] + 2.0 * v[Q1]) * s2;
  f[Q2] = k2 * v[Q1] * v[Q1] * s2;
  spring_force(tr, &f[Q3], &df3);
  f[Q4] = k4 * v[Q5] * v[Q5] * c4;
  f[Q5] = -k4 * v[Q4] * (v[Q4] + 2.0 * v[Q5]) * c4;
  f[Q6] = -k6 * v[Q7] * v[Q7] * c6;
  f[Q7] = k6 * v[Q6] * (v[Q6] + 2.0 * v[Q7]) * c6;
  if (dfq) {
    memset(dfq, 0, sizeof(double) * NQ * NQ);
    dfq[Q1][Q2] = -k2 * v[Q2] * (v[Q2] + 2.0 * v[Q1]) * c2;
    dfq[Q2][Q2] = k2 * v[Q1] * v[Q1] * c2;
    dfq[Q3][Q3] = df3;
    dfq[Q4][Q4] = -k4 * v[Q5] * v[Q5] * s4;
    dfq[Q5][Q4] = k4 * v[Q4] * (v[Q4] + 2.0 * v[Q5]) * s4;
    dfq[Q6][Q6] = k6 * v[Q7] * v[Q7] * s6;
    dfq[Q7][Q6] = -k6 * v[Q6] * (v[Q6] + 2.0 * v[Q7]) * s6;
  }
  if (dfv) {
    memset(dfv, 0, sizeof(double) * NQ * NQ);
    dfv[Q1][Q1] = -2.0 * k2 * v[Q2] * s2;
    dfv[Q1][Q2] = -2.0 * k2 * (v[Q2] + v[Q1]) * s2;
    dfv[Q2][Q1] = 2.0 * k2 * v[Q1] * s2;
    dfv[Q4][Q5] = 2.0 * k4 * v[Q5] * c4;
    dfv[Q5][Q4] = -2.0 * k4 * (v[Q4] + v[Q5]) * c4;
    dfv[Q5][Q5] = -2.0 * k4 * v[Q4] * c4;
    dfv[Q6][Q7] = -2.0 * k6 * v[Q7] * c6;
    dfv[Q7][Q6] = 2.0 * k6 * (v[Q6] + v[Q7]) * c6;
    dfv[Q7][Q7] = 2.0 * k6 * v[Q6] * c6;
  }
}

static int approximate(const void *par) { return ((const andrews_params *)par)->jac == JAC_APPROX; }

/* R = M(q) q'' - f(q, q') + G(q)^T lambda, summed in the order of andrews.f, from the sines and
 * cosines tr and G. */
static void dyn_at(const trig *tr, double G[NLAM][NQ], const double *v, const double *a,
                   const double *lam, double *r)
{
  double m[NQ][NQ], f[NQ];
  mass_matrix(tr, m);
  forces(tr, v, f, NULL, NULL);
  for (int i = 0; i < NQ; i++) {
    double phi = -f[i];
    for (int j = 0; j < NQ; j++) {
      phi += m[i][j] * a[j];
    }
    for (int k = 0; k < NLAM; k++) {
      phi += G[k][i] * lam[k];
    }
    r[i] = phi;
  }
}

static int dyn(const void *par, double t, const double *q, const double *v, const double *a,
               const double *lam, double *r)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  double G[NLAM][NQ];
  constraints_at(ap->row, &tr, NULL, G);
  dyn_at(&tr, G, v, a, lam, r);
  return 0;
}

/* dR/dq = d(M a)/dq - df/dq + d(G^T lambda)/dq, dR/dv = -df/dv, dR/da = M; jac=approx keeps M
 * only (report 2.4 II.13.4). */
static int dyn_jac(const void *par, double t, const double *q, const double *v, const double *a,
                   const double *lam, double *rq, double *rv, double *mass)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  double m[NQ][NQ], f[NQ], dfq[NQ][NQ], dfv[NQ][NQ], dm[NQ][NQ], h[NQ][NQ];
  int exact = !approximate(par);
  mass_matrix(&tr, m);
  if (exact) {
    forces(&tr, v, f, dfq, dfv);
    mass_matrix_dq(&tr, a, dm);
    lambda_hessian(ap->row, &tr, lam, h);
  }
  for (int i = 0; i < NQ; i++) {
    for (int j = 0; j < NQ; j++) {
      size_t ij = (size_t)i + (size_t)NQ * (size_t)j;
      if (rq) {
        rq[ij] = exact ? dm[i][j] - dfq[i][j] + h[i][j] : 0.0;
      }
      if (rv) {
        rv[ij] = exact ? -dfv[i][j] : 0.0;
      }
      if (mass) {
        mass[ij] = m[i][j];
      }
    }
  }
  return 0;
}

/* W^T lambda = G^T lambda, W^T, d(G^T lambda)/dq and no time derivative; exact whatever jac=
 * says, since ggl's hidden constraints need d(G^T mu)/dq (its Jacobian keeps that term). */
static int reaction(const void *par, double t, const double *q, const double *lam, double *wtl,
                    double *wt, double *wtlq, double *wtlt)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  double G[NLAM][NQ], h[NQ][NQ];
  constraints_at(ap->row, &tr, NULL, G);
  if (wtlq) {
    lambda_hessian(ap->row, &tr, lam, h);
  }
  for (int i = 0; i < NQ; i++) {
    double s = 0.0;
    for (int k = 0; k < NLAM; k++) {
      s += G[k][i] * lam[k];
      if (wt) {
        wt[i + NQ * k] = G[k][i];
      }
    }
    for (int j = 0; wtlq && j < NQ; j++) {
      wtlq[i + NQ * j] = h[i][j];
    }
    if (wtl) {
      wtl[i] = s;
    }
    if (wtlt) {
      wtlt[i] = 0.0;
    }
  }
  return 0;
}

static int con(const void *par, double t, const double *q, double *g, double *gq)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  double G[NLAM][NQ];
  constraints_at(ap->row, &tr, g, gq ? G : NULL);
  for (int k = 0; gq && k < NLAM; k++) {
    for (int j = 0; j < NQ; j++) {
      gq[k + NLAM * j] = G[k][j];
    }
  }
  return 0;
}

/* g' = G v and g'' = G a + g_qq(v, v), summed as andrews.f's hidden constraints were. */
static void levels(const andrews_params *ap, const trig *tr, double G[NLAM][NQ], const double *v,
                   const double *a, double *gv, double *ga)
{
  double curv[NLAM];
  if (ga) {
    curvature(ap->row, tr, v, curv);
  }
  for (int i = 0; i < NLAM; i++) {
    double sv = 0.0, sa = 0.0;
    for (int k = 0; k < NQ; k++) {
      sv += G[i][k] * v[k];
      sa += a ? G[i][k] * a[k] : 0.0;
    }
    if (gv) {
      gv[i] = sv;
    }
    if (ga) {
      ga[i] = sa + curv[i];
    }
  }
}

/* The derivatives of g' (dgv: d(G v)/dq) and of g'' at fixed a (dga: d/dq, dgav: d/dv), each
 * NLAM x NQ column-major, from the trigonometric terms: a term c s(theta) with theta the sum of
 * its angles contributes c s'(theta) theta_v to g', c s'(theta) theta_a + c s''(theta) theta_v^2
 * to g''. */
static void level_derivatives(const constraint_row row[NLAM], const trig *tr, const double *v,
                              const double *a, double *dgv, double *dga, double *dgav)
{
  double *outs[3] = {dgv, dga, dgav};
  for (int o = 0; o < 3; o++) {
    for (int e = 0; outs[o] && e < NLAM * NQ; e++) {
      outs[o][e] = 0.0;
    }
  }
  for (int i = 0; i < NLAM; i++) {
    for (int n = 0; n < row[i].nterms; n++) {
      const trig_term *t = &row[i].term[n];
      term_value tv = term_at(t, tr);
      double tw = angle_sum(t, v), ta = a ? angle_sum(t, a) : 0.0;
      for (int j = t->first; j <= t->last; j++) {
        size_t ij = (size_t)i + (size_t)NLAM * (size_t)j;
        if (dgv) {
          dgv[ij] += tv.ddv * tw;
        }
        if (dga) {
          dga[ij] += tv.ddv * ta - tv.dv * tw * tw; /* d(c s'')/dtheta = -c s' (sin, cos) */
        }
        if (dgav) {
          dgav[ij] += 2.0 * tv.ddv * tw;
        }
      }
    }
  }
}

/* g (when not NULL) and, through one G, the velocity level gv or the acceleration level ga. */
static void levels_at(const andrews_params *ap, const trig *tr, double *g, const double *v,
                      const double *a, double *gv, double *ga)
{
  double G[NLAM][NQ];
  constraints_at(ap->row, tr, g, G);
  levels(ap, tr, G, v, a, gv, ga);
}

static int con_vel(const void *par, double t, const double *q, const double *v, double *gv,
                   double *gvq)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  if (gv) {
    levels_at(ap, &tr, NULL, v, NULL, gv, NULL);
  }
  if (gvq && !approximate(par)) {
    level_derivatives(ap->row, &tr, v, NULL, gvq, NULL, NULL);
  }
  for (int e = 0; gvq && approximate(par) && e < NLAM * NQ; e++) {
    gvq[e] = 0.0;
  }
  return 0;
}

/* con's g and con_vel's g' from one set of sines and cosines and one G (mech_model.con_pos_vel). */
static int con_pos_vel(const void *par, double t, const double *q, const double *v, double *g,
                       double *gv)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  levels_at(ap, &tr, g, v, NULL, gv, NULL);
  return 0;
}

static int con_acc(const void *par, double t, const double *q, const double *v, const double *a,
                   double *ga, double *gaq, double *gav)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  if (ga) {
    levels_at(ap, &tr, NULL, v, a, NULL, ga);
  }
  int exact = !approximate(par);
  if (exact && (gaq || gav)) {
    level_derivatives(ap->row, &tr, v, a, NULL, gaq, gav);
  }
  for (int e = 0; !exact && e < NLAM * NQ; e++) {
    if (gaq) {
      gaq[e] = 0.0;
    }
    if (gav) {
      gav[e] = 0.0;
    }
  }
  return 0;
}

/* dyn and the constraint at one level (mech_model.dyn_con): one set of sines and cosines and
 * one G for both, as andrews.f's FCN evaluates them once. */
static int dyn_con(const void *par, double t, const double *q, const double *v, const double *a,
                   const double *lam, int level, double *r, double *c)
{
  (void)t;
  const andrews_params *ap = par;
  trig tr;
  trig_at(q, &tr);
  double G[NLAM][NQ];
  constraints_at(ap->row, &tr, level == 0 ? c : NULL, G);
  dyn_at(&tr, G, v, a, lam, r);
  if (level > 0) {
    levels(ap, &tr, G, v, level == 2 ? a : NULL, level == 1 ? c : NULL, level == 2 ? c : NULL);
  }
  return 0;
}

/* y0 of report 2.4 section II.13.2, the 30-digit values: q0, q'0 = 0, q''0 and
 * lambda0.  The report prints lambda0 (and lambda'0) with 7 entries although lambda has 6; the
 * extra entry is a zero and is dropped.  It also prints "q'0 = q''0 = 0" before the nonzero q''0,
 * evidently meaning q'0 = q'''0 = 0.  y'0 = (q'0, q''0, q'''0, lambda'0) with q'''0 = 0 and
 * lambda'0 = 0 (refsol/andrews.txt: yp0(k) = y0(k+7), k = 1..14, and 0 for k = 15..27). */
static int init(const void *par, double *q, double *v, double *a, double *lam)
{
  (void)par;
  static const double Q0[NQ] = {
      -0.0617138900142764496358948458001, 0.0,
      0.455279819163070380255912382449,   0.222668390165885884674473185609,
      0.487364979543842550225598953530,   -0.222668390165885884674473185609,
      1.23054744454982119249735015568,
  };
  static const double QDD0[NQ] = {
      14222.4439199541138705911625887, -10666.8329399655854029433719415, 0.0, 0.0, 0.0, 0.0, 0.0,
  };
  static const double LAM0[NLAM] = {
      98.5668703962410896057654982170, -6.12268834425566265503114393122, 0.0, 0.0, 0.0, 0.0,
  };
  for (int i = 0; i < NQ; i++) {
    q[i] = Q0[i];
    v[i] = 0.0;
    a[i] = QDD0[i];
  }
  for (int k = 0; k < NLAM; k++) {
    lam[k] = LAM0[k];
  }
  return 0;
}

/* y(0.03): andrews.f's reference routine (PSIDE on a Cray C90 in Cray double precision,
 * rtol = atol = 1e-14); report 2.4 Table II.13.2 prints y1..y7 with the same digits.  The
 * strings are those of refsol/andrews.txt. */
static int ref_acc(const void *par, double *q, double *v, double *a, double *lam)
{
  (void)par;
  static const double YREF[NEQ] = {
      0.1581077119629904e+2,  -0.1575637105984298e+2, 0.4082224013073101e-1,
      -0.5347301163226948e+0, 0.5244099658805304e+0,  0.5347301163226948e+0,
      0.1048080741042263e+1,  0.1139920302151208e+4,  -0.1424379294994111e+4,
      0.1103291221937134e+2,  0.1929337464421385e+2,  0.5735699284790808e+0,
      -0.1929337464421385e+2, 0.3231791658026955e+0,  -0.2463176316945196e+5,
      0.5185037701610329e+5,  0.3241025686413781e+6,  0.5667493645176213e+6,
      0.1674362929479361e+5,  -0.5667493645176222e+6, 0.9826520791458422e+4,
      0.1991753333731910e+3,  -0.2975531228015052e+2, 0.2306654119098399e+2,
      0.3145271365475927e+2,  0.2264249232082739e+2,  0.1161740700019673e+2,
  };
  for (int i = 0; i < NQ; i++) {
    q[i] = YREF[i];
    v[i] = YREF[NQ + i];
    a[i] = YREF[2 * NQ + i];
  }
  for (int k = 0; k < NLAM; k++) {
    lam[k] = YREF[3 * NQ + k];
  }
  return 0;
}

/* the angles of report 2.4 section II.13.2, their velocities (v_) and accelerations (a_), and
 * the multipliers */
static const char *const component_names[NEQ] = {
    "beta",    "Theta",   "gamma",   "Phi",     "delta",   "Omega",   "epsilon",
    "v_beta",  "v_Theta", "v_gamma", "v_Phi",   "v_delta", "v_Omega", "v_epsilon",
    "a_beta",  "a_Theta", "a_gamma", "a_Phi",   "a_delta", "a_Omega", "a_epsilon",
    "lambda1", "lambda2", "lambda3", "lambda4", "lambda5", "lambda6"};

/* report 2.4 II.13.4: scd over the seven angles only */
static const int scd_components[NEQ] = {1, 1, 1, 1, 1, 1, 1};

/* refsol/andrews_traj.txt, whose last row is ref_acc's. */
static const ref_traj *traj(const void *par)
{
  (void)par;
  return &mbdae_traj_andrews;
}

static const mech_model andrews_model = {
    .type = &mbdae_problem_andrews,
    .nq = NQ,
    .nc = NLAM,
    .names = component_names,
    .in_scd = scd_components,
    .ref_source = "andrews.f reference routine (report 2.4 Table II.13.2 prints y1..y7): "
                  "PSIDE on a Cray C90 in Cray double precision, rtol = atol = 1e-14; 16 digits",
    .dyn = dyn,
    .dyn_jac = dyn_jac,
    .reaction = reaction,
    .con = con,
    .con_vel = con_vel,
    .con_acc = con_acc,
    .dyn_con = dyn_con,
    .con_pos_vel = con_pos_vel,
    .init = init,
    .ref = NULL,
    .ssf = NULL,
    .acc_vars = 1,
    .ref_acc = ref_acc,
    .traj = traj,
};

static const char OPTIONS_HELP[] = MECH_OPTIONS_HELP_NO_SSF ", jac=exact|approx";

static void set_defaults(void *params)
{
  andrews_params *a = params;
  mbdae_mech_defaults(&a->mech, &andrews_model);
  a->jac = JAC_EXACT;
  constraint_rows(a->row);
}

static int set_option(void *params, const char *key, const char *value, char *msg, size_t msglen)
{
  andrews_params *a = params;
  if (strcmp(key, "jac") != 0) {
    int rc = mbdae_mech_set_option(&a->mech, key, value, msg, msglen);
    if (rc == 1 && msg && msglen > 0) {
      snprintf(msg, msglen, "unknown option '%s' for problem 'andrews'; valid: %s", key,
               OPTIONS_HELP);
    }
    return rc == 1 ? MBDAE_ERR_SPEC : rc;
  }
  if (strcmp(value, "exact") == 0) {
    a->jac = JAC_EXACT;
  } else if (strcmp(value, "approx") == 0) {
    a->jac = JAC_APPROX;
  } else {
    if (msg && msglen > 0) {
      snprintf(msg, msglen,
               "bad value '%s' for option 'jac' of problem 'andrews'; valid: "
               "jac=exact|approx",
               value);
    }
    return MBDAE_ERR_SPEC;
  }
  return 0;
}

static void format_options(const void *params, char *buf, size_t len)
{
  const andrews_params *a = params;
  if (len == 0) {
    return; /* nothing may be written (nor read back: buf holds no string) */
  }
  mbdae_mech_format_options(&a->mech, buf, len);
  size_t used = strlen(buf);
  snprintf(buf + used, len - used, ",jac=%s", a->jac == JAC_EXACT ? "exact" : "approx");
}

static void describe(const void *params, problem_info *info)
{
  const andrews_params *a = params;
  mbdae_mech_describe(&a->mech, info);
  info->jac_approximate = a->jac == JAC_APPROX;
}

const problem_type mbdae_problem_andrews = {
    .id = "andrews",
    .title = "Andrews' squeezing mechanism",
    .t0 = 0.0,
    .tend = 0.03,
    /* report 2.4 section II.13.4: rtol = atol = h0 = 10^-(4 + m/8), m = 0..48; Table II.13.3 */
    .tolerances = {sizeof(mbdae_tolerance_plan), 8, 48, 1.0, 2, {1e-4, 1e-7}, 1e-7},
    .params_size = sizeof(andrews_params),
    .options_help = OPTIONS_HELP,
    .set_defaults = set_defaults,
    .set_option = set_option,
    .finish = mbdae_mech_finish,
    .format_options = format_options,
    .describe = describe,
    .init = mbdae_mech_init,
    .res = mbdae_mech_res,
    .jac = mbdae_mech_jac,
    .ref = mbdae_mech_ref,
    .ref_traj = mbdae_mech_ref_traj,
    .constraints = mbdae_mech_constraints,
};
