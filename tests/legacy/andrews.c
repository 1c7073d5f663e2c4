/* The hand-written Andrews residual and Jacobian (jac=exact|approx), verbatim as it was before the
 * port to the mechanical layer (problems/andrews.c of commit b6f7a24), kept so that test_forms.c
 * can compare the generated formulation with it bit for bit.  Only the includes (public header
 * instead of the private ones), the entry point at the end and the removed initial values, hidden
 * constraints, reference, options and descriptor differ. */
#include <math.h>
#include <string.h>
#include "legacy.h"
#include "mbdae/mbdae.h"
#define MBDAE_AT(a, n, i, j) ((a)[(i) + (size_t)(j) * (size_t)(n)])

enum {
  NQ = 7,   /* angles beta, Theta, gamma, Phi, delta, Omega, epsilon */
  NLAM = 6, /* multipliers, one per position constraint */
  NEQ = 27,
  POS = 0,  /* offset of q */
  VEL = 7,  /* offset of q' */
  ACC = 14, /* offset of q'' */
  LAM = 21, /* offset of lambda */
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

typedef struct andrews_params {
  jac_mode jac; /* which Jacobian jac() returns */
} andrews_params;

/* c cos(q_first + ... + q_last), or c sin(...) when sine is set. */
typedef struct trig_term {
  double c;
  int sine;
  int first, last; /* angle range, inclusive */
} trig_term;

typedef struct constraint_row {
  int nterms;
  trig_term term[MAXTERMS];
  double offset; /* minus the frame point the row pins */
} constraint_row;

/* A term's value, first and second derivative with respect to its angle sum. */
typedef struct term_value {
  double v, dv, ddv;
} term_value;

/* g(q) of report 2.4 section II.13.2 as rows of trigonometric terms.  Every row starts from the
 * crank/rod point rr (cos q1, sin q1) - d (cos(q1+q2), sin(q1+q2)); rows 1-2 close the loop at
 * B, rows 3-6 at A. */
static void constraint_rows(constraint_row row[NLAM])
{
  const trig_term x_base[2] = {{RR, 0, Q1, Q1}, {-D, 0, Q1, Q2}};
  const trig_term y_base[2] = {{RR, 1, Q1, Q1}, {-D, 1, Q1, Q2}};
  const trig_term extra[NLAM][2] = {
      {{-SS, 1, Q3, Q3}, {0.0, 0, Q3, Q3}}, /* g1: - ss sin q3 */
      {{SS, 0, Q3, Q3}, {0.0, 0, Q3, Q3}},  /* g2: + ss cos q3 */
      {{-E, 1, Q4, Q5}, {-ZT, 0, Q5, Q5}},  /* g3: - e sin(q4+q5) - zt cos q5 */
      {{E, 0, Q4, Q5}, {-ZT, 1, Q5, Q5}},   /* g4: + e cos(q4+q5) - zt sin q5 */
      {{-ZF, 0, Q6, Q7}, {-U, 1, Q7, Q7}},  /* g5: - zf cos(q6+q7) - u sin q7 */
      {{-ZF, 1, Q6, Q7}, {U, 0, Q7, Q7}},   /* g6: - zf sin(q6+q7) + u cos q7 */
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

static term_value term_at(const trig_term *t, const double *q)
{
  double th = angle_sum(t, q);
  double s = sin(th), c = cos(th);
  term_value r;
  r.v = t->c * (t->sine ? s : c);
  r.dv = t->c * (t->sine ? c : -s);
  r.ddv = -r.v;
  return r;
}

/* g(q) and G(q) = dg/dq (G[i][k] = dg_i/dq_k); either output may be NULL. */
static void constraints_at(const double *q, double g[NLAM], double G[NLAM][NQ])
{
  constraint_row row[NLAM];
  constraint_rows(row);
  for (int i = 0; i < NLAM; i++) {
    if (g) {
      g[i] = row[i].offset;
    }
    if (G) {
      for (int k = 0; k < NQ; k++) {
        G[i][k] = 0.0;
      }
    }
    for (int n = 0; n < row[i].nterms; n++) {
      const trig_term *t = &row[i].term[n];
      term_value tv = term_at(t, q);
      if (g) {
        g[i] += tv.v;
      }
      if (G) {
        for (int k = t->first; k <= t->last; k++) {
          G[i][k] += tv.dv;
        }
      }
    }
  }
}

/* H[j][k] = d(G^T lambda)_j / dq_k = sum_i lambda_i d2g_i/dq_j dq_k. */
static void lambda_hessian(const double *q, const double *lam, double H[NQ][NQ])
{
  constraint_row row[NLAM];
  constraint_rows(row);
  memset(H, 0, sizeof(double) * NQ * NQ);
  for (int i = 0; i < NLAM; i++) {
    for (int n = 0; n < row[i].nterms; n++) {
      const trig_term *t = &row[i].term[n];
      double h = lam[i] * term_at(t, q).ddv;
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
static void mass_matrix(const double *q, double m[NQ][NQ])
{
  double c2 = cos(q[Q2]), s4 = sin(q[Q4]), s6 = sin(q[Q6]);
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
static void mass_matrix_dq(const double *q, const double *a, double dm[NQ][NQ])
{
  double s2 = sin(q[Q2]), c4 = cos(q[Q4]), c6 = cos(q[Q6]);
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
static void spring_force(double q3, double *f3, double *df3)
{
  double s = sin(q3), c = cos(q3);
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
static void forces(const double *q, const double *v, double f[NQ], double dfq[NQ][NQ],
                   double dfv[NQ][NQ])
{
  double s2 = sin(q[Q2]), c2 = cos(q[Q2]), s4 = sin(q[Q4]), c4 = cos(q[Q4]);
  double s6 = sin(q[Q6]), c6 = cos(q[Q6]);
  double k2 = crank_coef(), k4 = rocker4_coef(), k6 = rocker6_coef();
  double df3;
  f[Q1] = MOM - k2 * v[Q2] * (v[Q2] + 2.0 * v[Q1]) * s2;
  f[Q2] = k2 * v[Q1] * v[Q1] * s2;
  spring_force(q[Q3], &f[Q3], &df3);
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

static int res(const void *params, double t, const double *y, const double *yp, double *r)
{
  (void)params;
  (void)t;
  const double *q = y + POS, *v = y + VEL, *a = y + ACC, *lam = y + LAM;
  double m[NQ][NQ], f[NQ], g[NLAM], G[NLAM][NQ];
  mass_matrix(q, m);
  forces(q, v, f, NULL, NULL);
  constraints_at(q, g, G);
  for (int i = 0; i < NQ; i++) {
    r[POS + i] = yp[POS + i] - v[i];
    r[VEL + i] = yp[VEL + i] - a[i];
    double phi = -f[i];
    for (int j = 0; j < NQ; j++) {
      phi += m[i][j] * a[j];
    }
    for (int k = 0; k < NLAM; k++) {
      phi += G[k][i] * lam[k];
    }
    r[ACC + i] = -phi;
  }
  for (int k = 0; k < NLAM; k++) {
    r[LAM + k] = -g[k];
  }
  for (int i = 0; i < NEQ; i++) {
    if (!isfinite(r[i])) {
      return 1;
    }
  }
  return 0;
}

static int jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
               double *dfdyp)
{
  (void)t;
  (void)yp;
  const andrews_params *p = params;
  if (dfdyp) {
    for (int j = 0; j < NEQ * NEQ; j++) {
      dfdyp[j] = 0.0;
    }
    for (int i = 0; i < ACC; i++) {
      MBDAE_AT(dfdyp, NEQ, i, i) = 1.0;
    }
  }
  if (!dfdy) {
    return 0;
  }
  const double *q = y + POS, *v = y + VEL, *a = y + ACC, *lam = y + LAM;
  double m[NQ][NQ], G[NLAM][NQ];
  mass_matrix(q, m);
  constraints_at(q, NULL, G);
  for (int j = 0; j < NEQ * NEQ; j++) {
    dfdy[j] = 0.0;
  }
  for (int i = 0; i < NQ; i++) {
    MBDAE_AT(dfdy, NEQ, POS + i, VEL + i) = -1.0;
    MBDAE_AT(dfdy, NEQ, VEL + i, ACC + i) = -1.0;
    for (int j = 0; j < NQ; j++) {
      MBDAE_AT(dfdy, NEQ, ACC + i, ACC + j) = -m[i][j];
    }
    for (int k = 0; k < NLAM; k++) {
      MBDAE_AT(dfdy, NEQ, ACC + i, LAM + k) = -G[k][i];
      MBDAE_AT(dfdy, NEQ, LAM + k, POS + i) = -G[k][i];
    }
  }
  if (p->jac == JAC_APPROX) {
    return 0;
  }
  /* Rows 15-21 are -(M(q) q'' - f(q, q') + G(q)^T lambda). */
  double f[NQ], dfq[NQ][NQ], dfv[NQ][NQ], dm[NQ][NQ], h[NQ][NQ];
  forces(q, v, f, dfq, dfv);
  mass_matrix_dq(q, a, dm);
  lambda_hessian(q, lam, h);
  for (int i = 0; i < NQ; i++) {
    for (int j = 0; j < NQ; j++) {
      MBDAE_AT(dfdy, NEQ, ACC + i, POS + j) = -(dm[i][j] - dfq[i][j] + h[i][j]);
      MBDAE_AT(dfdy, NEQ, ACC + i, VEL + j) = dfv[i][j];
    }
  }
  return 0;
}

/* cfg[0]: 0 jac=exact, 1 jac=approx */
int legacy_andrews(const int *cfg, double t, const double *y, const double *yp, double *r,
                   double *dfdy, double *dfdyp)
{
  andrews_params a = {cfg[0] ? JAC_APPROX : JAC_EXACT};
  int rc = res(&a, t, y, yp, r);
  return rc == 0 ? jac(&a, t, y, yp, dfdy, dfdyp) : rc;
}
