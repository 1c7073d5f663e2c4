/* The hand-written slider crank residual and Jacobian (every variant), verbatim as it was before
 * the port to the mechanical layer (problems/crank.c of commit b6f7a24), kept so that test_forms.c
 * can compare the generated formulation with it bit for bit.  Only the includes (public header
 * instead of the private ones), the entry point at the end and the removed initial values,
 * reference, options and descriptor differ. */
#include <math.h>
#include <string.h>
#include "legacy.h"
#include "mbdae/mbdae.h"
#define MBDAE_AT(a, n, i, j) ((a)[(i) + (size_t)(j) * (size_t)(n)])

/* ---- layout of y ------------------------------------------------------------------------- */

enum {
  NP = 3,       /* rigid coordinates p = (phi1, phi2, x3) */
  NQ = 4,       /* elastic coordinates q */
  NX = NP + NQ, /* generalized coordinates (p, q) */
  NC = 3,       /* constraints and multipliers */
  NEQ = 3 * NX + NC,
  POS = 0,       /* (p, q) */
  VEL = NX,      /* (v_p, v_q) */
  ACC = 2 * NX,  /* (a_p, a_q) */
  LAM = 3 * NX,  /* lambda */
  NDIFF = 2 * NX /* rows with y' (K = diag(I14, 0)) */
};

/* Offsets inside a block of NX generalized coordinates. */
enum { PHI1 = 0, PHI2 = 1, X3 = 2, QQ = NP, Q4 = NP + 3 };

/* ---- data (spec 19.2.2; crank.f RESMBS data set) ---------------------------------------- */

static const double L1 = 0.15; /* crank length [m] */
static const double L2 = 0.30; /* connecting rod length [m] */
static const double M1 = 0.36; /* masses [kg] */
static const double M2 = 0.151104;
static const double M3 = 0.075552;
static const double J1 = 0.002727; /* moments of inertia [kg m^2] */
static const double J2 = 0.0045339259;
static const double BEAM_H = 0.008;    /* rod height h [m] */
static const double BEAM_D = 0.008;    /* rod width d [m] */
static const double RHO = 7870.0;      /* mass density [kg/m^3] */
static const double YOUNG = 2.0e11;    /* Young's modulus E [N/m^2] */
static const double GRAVITY = 0.0;     /* gamma: gravitation plays no role here */
static const double OMEGA = 150.0;     /* prescribed crank speed [rad/s] */
static const double PI_FE = 3.1415927; /* crank.f: PI = 3.1415927D0 (truncated) */

/* 0.5 per cent damping of the rod, crank.f RESMBS (IPAR(2) = 1), DQ(row, column). */
static const double DAMP11 = 5.0;
static const double DAMP22 = 25.0;
static const double DAMP33 = 0.5 * 2.308375455264791e+02;
static const double DAMP34 = -0.5 * 2.62688487992052e+02; /* sic: one digit shorter than DAMP43 */
static const double DAMP43 = -0.5 * 2.626884879920526e+02;
static const double DAMP44 = 0.5 * 4.217421837156818e+02;

/* ---- configuration ------------------------------------------------------------------------ */

typedef struct crank_params {
  int index;     /* 1, 2 or 3: acceleration, velocity or position constraints in rows 22..24 */
  int nonlinear; /* 1: nonlinear beam, grad W = K q + k(q) (IPAR(1) = 1) */
  int damping;   /* 1: damping matrix D_Delta (IPAR(2) = 1) */
  int init;      /* 1: release 2.4 initial values; 2: rigid motion values */
} crank_params;

/* Finite-element matrices and vectors of the rod, row-major [row][column]. */
typedef struct fe_data {
  double mass[NQ][NQ];  /* M_Delta */
  double stiff[NQ][NQ]; /* K_Delta */
  double coup[NQ][NQ];  /* B (skew) */
  double damp[NQ][NQ];  /* D_Delta, zero without damping */
  double c1[NQ], c2[NQ], c12[NQ], c21[NQ];
  double kappa; /* 1/2 pi^2 E d h / l2^2, factor of k_Delta(q) */
  double beta;  /* 80/(9 pi^2) */
} fe_data;

/* The point of evaluation, with the trigonometric values and scalar products used throughout. */
typedef struct crank_state {
  const double *x; /* (p, q) */
  const double *v; /* (v_p, v_q) */
  const double *a; /* (a_p, a_q) */
  const double *lam;
  const double *q, *w;                         /* q and v_q */
  double cos1, sin1, cos2, sin2, cos12, sin12; /* of phi1, phi2, phi1 - phi2 */
  double c1q, c2q, c12q, c1w, c2w, c12w;       /* c^T q and c^T v_q */
  double mq[NQ];                               /* M_Delta q */
  double mw[NQ];                               /* M_Delta v_q */
  double bw[NQ];                               /* B v_q */
  double btq[NQ];                              /* B^T q */
  double ba[NQ];                               /* B a_q */
  double len2; /* l2 + q4: length of the deformed rod along its axis */
} crank_state;

/* Residual rows 15..24 are minus RESMBS's DELTA (see the head comment). */
static const double ALG_SIGN = -1.0;

static void fe_setup(const crank_params *par, fe_data *fe)
{
  const double pi = PI_FE;
  const double facm = RHO * BEAM_D * BEAM_H * L2;
  const double fack = YOUNG * BEAM_D * BEAM_H / L2;
  const double facb = BEAM_D * BEAM_H * L2;
  const double hl = BEAM_H / L2;
  memset(fe, 0, sizeof *fe);

  fe->mass[0][0] = facm * 0.5;
  fe->mass[1][1] = facm * 0.5;
  fe->mass[2][2] = facm * 8.0;
  fe->mass[2][3] = facm * 1.0;
  fe->mass[3][2] = facm * 1.0;
  fe->mass[3][3] = facm * 2.0;

  fe->stiff[0][0] = fack * pow(pi, 4) / 24.0 * hl * hl;
  fe->stiff[1][1] = fack * pow(pi, 4) * 2.0 / 3.0 * hl * hl; /* (h/l2)^2, see head comment */
  fe->stiff[2][2] = fack * 16.0 / 3.0;
  fe->stiff[2][3] = -fack * 8.0 / 3.0;
  fe->stiff[3][2] = -fack * 8.0 / 3.0;
  fe->stiff[3][3] = fack * 7.0 / 3.0;

  fe->coup[0][2] = -facb * 16.0 / pow(pi, 3);
  fe->coup[0][3] = facb * (8.0 / pow(pi, 3) - 1.0 / pi);
  fe->coup[1][3] = facb * 0.5 / pi;
  fe->coup[2][0] = facb * 16.0 / pow(pi, 3);
  fe->coup[3][0] = -facb * (8.0 / pow(pi, 3) - 1.0 / pi);
  fe->coup[3][1] = -facb * 0.5 / pi;

  fe->c1[2] = facb * 2.0 / 3.0;
  fe->c1[3] = facb * 1.0 / 6.0;
  fe->c2[0] = facb * 2.0 / pi;
  fe->c12[2] = L2 * facb * 1.0 / 3.0;
  fe->c12[3] = L2 * facb * 1.0 / 6.0;
  fe->c21[0] = L2 * facb * 1.0 / pi;
  fe->c21[1] = -L2 * facb * 0.5 / pi;

  if (par->damping) {
    fe->damp[0][0] = DAMP11;
    fe->damp[1][1] = DAMP22;
    fe->damp[2][2] = DAMP33;
    fe->damp[2][3] = DAMP34;
    fe->damp[3][2] = DAMP43;
    fe->damp[3][3] = DAMP44;
  }
  fe->kappa = 0.5 * YOUNG * BEAM_D * BEAM_H / (L2 * L2) * pi * pi;
  fe->beta = 80.0 / (pi * pi * 9.0);
}

static double dot4(const double *u, const double *v)
{
  return u[0] * v[0] + u[1] * v[1] + u[2] * v[2] + u[3] * v[3];
}

static void state_setup(const fe_data *fe, const double *y, crank_state *st)
{
  st->x = y + POS;
  st->v = y + VEL;
  st->a = y + ACC;
  st->lam = y + LAM;
  st->q = st->x + QQ;
  st->w = st->v + QQ;
  st->cos1 = cos(st->x[PHI1]);
  st->sin1 = sin(st->x[PHI1]);
  st->cos2 = cos(st->x[PHI2]);
  st->sin2 = sin(st->x[PHI2]);
  st->cos12 = cos(st->x[PHI1] - st->x[PHI2]);
  st->sin12 = sin(st->x[PHI1] - st->x[PHI2]);
  st->c1q = dot4(fe->c1, st->q);
  st->c2q = dot4(fe->c2, st->q);
  st->c12q = dot4(fe->c12, st->q);
  st->c1w = dot4(fe->c1, st->w);
  st->c2w = dot4(fe->c2, st->w);
  st->c12w = dot4(fe->c12, st->w);
  const double *aq = st->a + QQ;
  for (int i = 0; i < NQ; i++) {
    st->mq[i] = dot4(fe->mass[i], st->q);
    st->mw[i] = dot4(fe->mass[i], st->w);
    st->bw[i] = dot4(fe->coup[i], st->w);
    st->ba[i] = dot4(fe->coup[i], aq);
    double s = 0.0;
    for (int j = 0; j < NQ; j++) {
      s += fe->coup[j][i] * st->q[j];
    }
    st->btq[i] = s;
  }
  st->len2 = L2 + st->q[3];
}

/* ---- equations of motion ------------------------------------------------------------------- */

/* M(p,q), symmetric (spec 19.2.1). */
static void mass_matrix(const fe_data *fe, const crank_state *st, double m[NX][NX])
{
  memset(m, 0, sizeof(double) * NX * NX);
  m[0][0] = J1 + M2 * L1 * L1;
  m[0][1] = 0.5 * L1 * L2 * M2 * st->cos12 + RHO * L1 * (st->sin12 * st->c2q + st->cos12 * st->c1q);
  m[1][1] = J2 + dot4(st->q, st->mq) + 2.0 * RHO * st->c12q;
  m[2][2] = M3;
  for (int i = 0; i < NQ; i++) {
    m[0][QQ + i] = RHO * L1 * (-st->sin12 * fe->c1[i] + st->cos12 * fe->c2[i]);
    m[1][QQ + i] = RHO * fe->c21[i] + RHO * st->btq[i];
    for (int j = 0; j < NQ; j++) {
      m[QQ + i][QQ + j] = fe->mass[i][j];
    }
  }
  for (int i = 0; i < NX; i++) {
    for (int j = i + 1; j < NX; j++) {
      m[j][i] = m[i][j];
    }
  }
}

/* The nonlinear stiffness term k_Delta(q) and its (symmetric) Jacobian. */
static void beam_nonlinear(const fe_data *fe, const double *q, double k[NQ], double dk[NQ][NQ])
{
  const double kap = fe->kappa, beta = fe->beta;
  const double s = -4.0 * q[2] + 2.0 * q[3]; /* xi^2 coefficient of the longitudinal ansatz */
  if (k) {
    k[0] = kap * (q[0] * q[3] - beta * q[1] * s);
    k[1] = kap * (4.0 * q[1] * q[3] - beta * q[0] * s);
    k[2] = kap * 4.0 * beta * q[0] * q[1];
    k[3] = kap * (0.5 * q[0] * q[0] + 2.0 * q[1] * q[1] - 2.0 * beta * q[0] * q[1]);
  }
  if (dk) {
    const double d[NQ][NQ] = {
        {q[3], -beta * s, 4.0 * beta * q[1], q[0] - 2.0 * beta * q[1]},
        {-beta * s, 4.0 * q[3], 4.0 * beta * q[0], 4.0 * q[1] - 2.0 * beta * q[0]},
        {4.0 * beta * q[1], 4.0 * beta * q[0], 0.0, 0.0},
        {q[0] - 2.0 * beta * q[1], 4.0 * q[1] - 2.0 * beta * q[0], 0.0, 0.0},
    };
    for (int i = 0; i < NQ; i++) {
      for (int j = 0; j < NQ; j++) {
        dk[i][j] = kap * d[i][j];
      }
    }
  }
}

/* The applied, Coriolis and centrifugal forces f(p, v_p, q, v_q), elastic terms included. */
static void forces(const crank_params *par, const fe_data *fe, const crank_state *st, double f[NX])
{
  const double om1 = st->v[PHI1], om2 = st->v[PHI2];
  const double *w = st->w;
  double wbw = 0.0; /* v_q^T B v_q: zero in exact arithmetic, B being skew, but part of f */
  for (int i = 0; i < NQ; i++) {
    wbw += w[i] * st->bw[i];
  }
  f[0] = -0.5 * L1 * GRAVITY * (M1 + 2.0 * M2) * st->cos1 -
         0.5 * L1 * L2 * M2 * om2 * om2 * st->sin12 +
         RHO * L1 * om2 * om2 * (-st->sin12 * st->c1q + st->cos12 * st->c2q) -
         2.0 * RHO * L1 * om2 * (st->cos12 * st->c1w + st->sin12 * st->c2w);
  f[1] = -0.5 * L2 * GRAVITY * M2 * st->cos2 + 0.5 * L1 * L2 * M2 * om1 * om1 * st->sin12 +
         RHO * L1 * om1 * om1 * (st->sin12 * st->c1q - st->cos12 * st->c2q) -
         2.0 * RHO * om2 * st->c12w - 2.0 * om2 * dot4(w, st->mq) - RHO * wbw -
         RHO * GRAVITY * (st->cos2 * st->c1q - st->sin2 * st->c2q);
  f[2] = 0.0;
  double knl[NQ] = {0.0, 0.0, 0.0, 0.0};
  if (par->nonlinear) {
    beam_nonlinear(fe, st->q, knl, NULL);
  }
  for (int i = 0; i < NQ; i++) {
    double dtw = 0.0; /* (D^T v_q)_i, as RESMBS forms it */
    for (int j = 0; j < NQ; j++) {
      dtw += fe->damp[j][i] * w[j];
    }
    f[QQ + i] = om2 * om2 * st->mq[i] +
                RHO * (om2 * om2 * fe->c12[i] +
                       L1 * om1 * om1 * (st->cos12 * fe->c1[i] + st->sin12 * fe->c2[i]) +
                       2.0 * om2 * st->bw[i]) -
                RHO * GRAVITY * (st->sin2 * fe->c1[i] + st->cos2 * fe->c2[i]) -
                dot4(fe->stiff[i], st->q) - dtw - knl[i];
  }
}

/* G = dg/d(p,q) (spec 19.2.1: the constraints involve q4, the longitudinal end displacement). */
static void constraint_matrix(const crank_state *st, double g[NC][NX])
{
  memset(g, 0, sizeof(double) * NC * NX);
  g[0][PHI1] = L1 * st->cos1;
  g[0][PHI2] = st->len2 * st->cos2;
  g[0][Q4] = st->sin2;
  g[1][PHI1] = L1 * st->sin1;
  g[1][PHI2] = st->len2 * st->sin2;
  g[1][X3] = 1.0;
  g[1][Q4] = -st->cos2;
  g[2][PHI1] = 1.0;
}

/* g(p,q) + r(t), r = (0, 0, -Omega t). */
static void constraint_position(const crank_state *st, double t, double c[NC])
{
  c[0] = L1 * st->sin1 + st->len2 * st->sin2;
  c[1] = st->x[X3] - L1 * st->cos1 - st->len2 * st->cos2;
  c[2] = st->x[PHI1] - OMEGA * t;
}

/* G (v_p, v_q) + r'. */
static void constraint_velocity(const crank_state *st, double c[NC])
{
  double g[NC][NX];
  constraint_matrix(st, g);
  for (int k = 0; k < NC; k++) {
    c[k] = 0.0;
    for (int j = 0; j < NX; j++) {
      c[k] += g[k][j] * st->v[j];
    }
  }
  c[2] -= OMEGA;
}

/* G (a_p, a_q) + (dG/dt)(v_p, v_q) + r'', r'' = 0. */
static void constraint_acceleration(const crank_state *st, double c[NC])
{
  const double om1 = st->v[PHI1], om2 = st->v[PHI2], w4 = st->w[3];
  double g[NC][NX];
  constraint_matrix(st, g);
  c[0] = -L1 * st->sin1 * om1 * om1 - st->len2 * st->sin2 * om2 * om2 + 2.0 * om2 * st->cos2 * w4;
  c[1] = L1 * st->cos1 * om1 * om1 + st->len2 * st->cos2 * om2 * om2 + 2.0 * om2 * st->sin2 * w4;
  c[2] = 0.0;
  for (int k = 0; k < NC; k++) {
    for (int j = 0; j < NX; j++) {
      c[k] += g[k][j] * st->a[j];
    }
  }
}

static int res(const void *params, double t, const double *y, const double *yp, double *r)
{
  const crank_params *par = params;
  fe_data fe;
  crank_state st;
  fe_setup(par, &fe);
  state_setup(&fe, y, &st);

  for (int i = 0; i < NDIFF; i++) {
    r[i] = yp[i] - y[VEL + i];
  }
  double m[NX][NX], g[NC][NX], f[NX];
  mass_matrix(&fe, &st, m);
  constraint_matrix(&st, g);
  forces(par, &fe, &st, f);
  for (int i = 0; i < NX; i++) {
    double delta = -f[i];
    for (int j = 0; j < NX; j++) {
      delta += m[i][j] * st.a[j];
    }
    for (int k = 0; k < NC; k++) {
      delta += g[k][i] * st.lam[k];
    }
    r[ACC + i] = ALG_SIGN * delta;
  }
  double c[NC];
  if (par->index == 3) {
    constraint_position(&st, t, c);
  } else if (par->index == 2) {
    constraint_velocity(&st, c);
  } else {
    constraint_acceleration(&st, c);
  }
  for (int k = 0; k < NC; k++) {
    r[LAM + k] = ALG_SIGN * c[k];
  }
  for (int i = 0; i < NEQ; i++) {
    if (!isfinite(r[i])) {
      return MBDAE_RECOVERABLE;
    }
  }
  return 0;
}

/* ---- Jacobian ------------------------------------------------------------------------------ */

/* d(M a)/d(p,q): column k is (dM/dx_k) a. */
static void mass_a_derivative(const fe_data *fe, const crank_state *st, double d[NX][NX])
{
  const double *a = st->a, *aq = st->a + QQ;
  /* dM12/dphi1 = -dM12/dphi2 and dM1,3+i/dphi1 = -dM1,3+i/dphi2 */
  const double dm12 =
      -0.5 * L1 * L2 * M2 * st->sin12 + RHO * L1 * (st->cos12 * st->c2q - st->sin12 * st->c1q);
  double dm1q[NQ];
  double sum1q = 0.0;
  for (int i = 0; i < NQ; i++) {
    dm1q[i] = RHO * L1 * (-st->cos12 * fe->c1[i] - st->sin12 * fe->c2[i]);
    sum1q += dm1q[i] * aq[i];
  }
  memset(d, 0, sizeof(double) * NX * NX);
  d[0][PHI1] = dm12 * a[1] + sum1q;
  d[0][PHI2] = -d[0][PHI1];
  d[1][PHI1] = dm12 * a[0];
  d[1][PHI2] = -d[1][PHI1];
  for (int i = 0; i < NQ; i++) {
    d[QQ + i][PHI1] = dm1q[i] * a[0];
    d[QQ + i][PHI2] = -d[QQ + i][PHI1];
  }
  for (int j = 0; j < NQ; j++) {
    const double dm12_dq = RHO * L1 * (st->sin12 * fe->c2[j] + st->cos12 * fe->c1[j]);
    const double dm22_dq = 2.0 * st->mq[j] + 2.0 * RHO * fe->c12[j];
    d[0][QQ + j] = dm12_dq * a[1];
    d[1][QQ + j] = dm12_dq * a[0] + dm22_dq * a[1] + RHO * st->ba[j];
    for (int i = 0; i < NQ; i++) {
      d[QQ + i][QQ + j] = RHO * fe->coup[j][i] * a[1]; /* M(2,3+i) = rho c21_i + rho (B^T q)_i */
    }
  }
}

/* d(G^T lambda)/d(p,q). */
static void glambda_derivative(const crank_state *st, double d[NX][NX])
{
  const double l1 = st->lam[0], l2 = st->lam[1];
  memset(d, 0, sizeof(double) * NX * NX);
  d[PHI1][PHI1] = L1 * (-st->sin1 * l1 + st->cos1 * l2);
  d[PHI2][PHI2] = st->len2 * (-st->sin2 * l1 + st->cos2 * l2);
  d[PHI2][Q4] = st->cos2 * l1 + st->sin2 * l2;
  d[Q4][PHI2] = st->cos2 * l1 + st->sin2 * l2;
}

/* df/d(p,q) into dx and df/d(v_p,v_q) into dv. */
static void forces_derivative(const crank_params *par, const fe_data *fe, const crank_state *st,
                              double dx[NX][NX], double dv[NX][NX])
{
  const double om1 = st->v[PHI1], om2 = st->v[PHI2];
  const double *w = st->w;
  memset(dx, 0, sizeof(double) * NX * NX);
  memset(dv, 0, sizeof(double) * NX * NX);

  /* f1 */
  const double f1_phi = -0.5 * L1 * L2 * M2 * om2 * om2 * st->cos12 +
                        RHO * L1 * om2 * om2 * (-st->cos12 * st->c1q - st->sin12 * st->c2q) -
                        2.0 * RHO * L1 * om2 * (-st->sin12 * st->c1w + st->cos12 * st->c2w);
  dx[0][PHI1] = 0.5 * L1 * GRAVITY * (M1 + 2.0 * M2) * st->sin1 + f1_phi;
  dx[0][PHI2] = -f1_phi;
  dv[0][PHI2] = -L1 * L2 * M2 * om2 * st->sin12 +
                2.0 * RHO * L1 * om2 * (-st->sin12 * st->c1q + st->cos12 * st->c2q) -
                2.0 * RHO * L1 * (st->cos12 * st->c1w + st->sin12 * st->c2w);
  for (int j = 0; j < NQ; j++) {
    dx[0][QQ + j] = RHO * L1 * om2 * om2 * (-st->sin12 * fe->c1[j] + st->cos12 * fe->c2[j]);
    dv[0][QQ + j] = -2.0 * RHO * L1 * om2 * (st->cos12 * fe->c1[j] + st->sin12 * fe->c2[j]);
  }

  /* f2 */
  const double f2_phi = 0.5 * L1 * L2 * M2 * om1 * om1 * st->cos12 +
                        RHO * L1 * om1 * om1 * (st->cos12 * st->c1q + st->sin12 * st->c2q);
  dx[1][PHI1] = f2_phi;
  dx[1][PHI2] = -f2_phi + 0.5 * L2 * GRAVITY * M2 * st->sin2 +
                RHO * GRAVITY * (st->sin2 * st->c1q + st->cos2 * st->c2q);
  dv[1][PHI1] = L1 * L2 * M2 * om1 * st->sin12 +
                2.0 * RHO * L1 * om1 * (st->sin12 * st->c1q - st->cos12 * st->c2q);
  dv[1][PHI2] = -2.0 * RHO * st->c12w - 2.0 * dot4(w, st->mq);
  for (int j = 0; j < NQ; j++) {
    double bsym = 0.0; /* ((B + B^T) v_q)_j */
    for (int k = 0; k < NQ; k++) {
      bsym += (fe->coup[j][k] + fe->coup[k][j]) * w[k];
    }
    dx[1][QQ + j] = RHO * L1 * om1 * om1 * (st->sin12 * fe->c1[j] - st->cos12 * fe->c2[j]) -
                    2.0 * om2 * st->mw[j] -
                    RHO * GRAVITY * (st->cos2 * fe->c1[j] - st->sin2 * fe->c2[j]);
    dv[1][QQ + j] = -2.0 * RHO * om2 * fe->c12[j] - 2.0 * om2 * st->mq[j] - RHO * bsym;
  }

  /* f3 = 0; f_Delta */
  double dk[NQ][NQ] = {{0.0}};
  if (par->nonlinear) {
    beam_nonlinear(fe, st->q, NULL, dk);
  }
  for (int i = 0; i < NQ; i++) {
    const double fi_phi = RHO * L1 * om1 * om1 * (-st->sin12 * fe->c1[i] + st->cos12 * fe->c2[i]);
    dx[QQ + i][PHI1] = fi_phi;
    dx[QQ + i][PHI2] = -fi_phi - RHO * GRAVITY * (st->cos2 * fe->c1[i] - st->sin2 * fe->c2[i]);
    dv[QQ + i][PHI1] = 2.0 * RHO * L1 * om1 * (st->cos12 * fe->c1[i] + st->sin12 * fe->c2[i]);
    dv[QQ + i][PHI2] = 2.0 * om2 * st->mq[i] + 2.0 * RHO * om2 * fe->c12[i] + 2.0 * RHO * st->bw[i];
    for (int j = 0; j < NQ; j++) {
      dx[QQ + i][QQ + j] = om2 * om2 * fe->mass[i][j] - fe->stiff[i][j] - dk[i][j];
      dv[QQ + i][QQ + j] = 2.0 * RHO * om2 * fe->coup[i][j] - fe->damp[j][i];
    }
  }
}

/* Derivatives of the constraint rows w.r.t. (p,q) into dx, (v_p,v_q) into dv, (a_p,a_q) into da. */
static void constraint_derivative(int index, const crank_state *st, double dx[NC][NX],
                                  double dv[NC][NX], double da[NC][NX])
{
  double g[NC][NX];
  constraint_matrix(st, g);
  memset(dx, 0, sizeof(double) * NC * NX);
  memset(dv, 0, sizeof(double) * NC * NX);
  memset(da, 0, sizeof(double) * NC * NX);
  const double om1 = st->v[PHI1], om2 = st->v[PHI2], w4 = st->w[3];
  if (index == 3) {
    memcpy(dx, g, sizeof g);
  } else if (index == 2) {
    dx[0][PHI1] = -L1 * st->sin1 * om1;
    dx[0][PHI2] = -st->len2 * st->sin2 * om2 + st->cos2 * w4;
    dx[0][Q4] = st->cos2 * om2;
    dx[1][PHI1] = L1 * st->cos1 * om1;
    dx[1][PHI2] = st->len2 * st->cos2 * om2 + st->sin2 * w4;
    dx[1][Q4] = st->sin2 * om2;
    memcpy(dv, g, sizeof g);
  } else {
    const double *a = st->a, aq4 = st->a[Q4];
    dx[0][PHI1] = -L1 * st->sin1 * a[PHI1] - L1 * st->cos1 * om1 * om1;
    dx[0][PHI2] = -st->len2 * st->sin2 * a[PHI2] + st->cos2 * aq4 -
                  st->len2 * st->cos2 * om2 * om2 - 2.0 * om2 * st->sin2 * w4;
    dx[0][Q4] = st->cos2 * a[PHI2] - st->sin2 * om2 * om2;
    dx[1][PHI1] = L1 * st->cos1 * a[PHI1] - L1 * st->sin1 * om1 * om1;
    dx[1][PHI2] = st->len2 * st->cos2 * a[PHI2] + st->sin2 * aq4 - st->len2 * st->sin2 * om2 * om2 +
                  2.0 * om2 * st->cos2 * w4;
    dx[1][Q4] = st->sin2 * a[PHI2] + st->cos2 * om2 * om2;
    dv[0][PHI1] = -2.0 * L1 * st->sin1 * om1;
    dv[0][PHI2] = -2.0 * st->len2 * st->sin2 * om2 + 2.0 * st->cos2 * w4;
    dv[0][Q4] = 2.0 * om2 * st->cos2;
    dv[1][PHI1] = 2.0 * L1 * st->cos1 * om1;
    dv[1][PHI2] = 2.0 * st->len2 * st->cos2 * om2 + 2.0 * st->sin2 * w4;
    dv[1][Q4] = 2.0 * om2 * st->sin2;
    memcpy(da, g, sizeof g);
  }
}

static int jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
               double *dfdyp)
{
  (void)t;
  (void)yp;
  const crank_params *par = params;
  if (dfdyp) {
    memset(dfdyp, 0, sizeof(double) * NEQ * NEQ);
    for (int i = 0; i < NDIFF; i++) {
      MBDAE_AT(dfdyp, NEQ, i, i) = 1.0;
    }
  }
  if (!dfdy) {
    return 0;
  }
  fe_data fe;
  crank_state st;
  fe_setup(par, &fe);
  state_setup(&fe, y, &st);
  memset(dfdy, 0, sizeof(double) * NEQ * NEQ);
  for (int i = 0; i < NDIFF; i++) {
    MBDAE_AT(dfdy, NEQ, i, VEL + i) = -1.0;
  }

  /* rows 15..21: ALG_SIGN * (M a - f + G^T lambda) */
  double m[NX][NX], g[NC][NX], dma[NX][NX], dgl[NX][NX], dfx[NX][NX], dfv[NX][NX];
  mass_matrix(&fe, &st, m);
  constraint_matrix(&st, g);
  mass_a_derivative(&fe, &st, dma);
  glambda_derivative(&st, dgl);
  forces_derivative(par, &fe, &st, dfx, dfv);
  for (int i = 0; i < NX; i++) {
    for (int j = 0; j < NX; j++) {
      MBDAE_AT(dfdy, NEQ, ACC + i, POS + j) = ALG_SIGN * (dma[i][j] - dfx[i][j] + dgl[i][j]);
      MBDAE_AT(dfdy, NEQ, ACC + i, VEL + j) = ALG_SIGN * (-dfv[i][j]);
      MBDAE_AT(dfdy, NEQ, ACC + i, ACC + j) = ALG_SIGN * m[i][j];
    }
    for (int k = 0; k < NC; k++) {
      MBDAE_AT(dfdy, NEQ, ACC + i, LAM + k) = ALG_SIGN * g[k][i];
    }
  }

  /* rows 22..24: ALG_SIGN * constraint */
  double cx[NC][NX], cv[NC][NX], ca[NC][NX];
  constraint_derivative(par->index, &st, cx, cv, ca);
  for (int k = 0; k < NC; k++) {
    for (int j = 0; j < NX; j++) {
      MBDAE_AT(dfdy, NEQ, LAM + k, POS + j) = ALG_SIGN * cx[k][j];
      MBDAE_AT(dfdy, NEQ, LAM + k, VEL + j) = ALG_SIGN * cv[k][j];
      MBDAE_AT(dfdy, NEQ, LAM + k, ACC + j) = ALG_SIGN * ca[k][j];
    }
  }
  return 0;
}

/* cfg: index, nonlinear, damping, init (crank_params) */
int legacy_crank(const int *cfg, double t, const double *y, const double *yp, double *r,
                 double *dfdy, double *dfdyp)
{
  crank_params par = {cfg[0], cfg[1], cfg[2], cfg[3]};
  int rc = res(&par, t, y, yp, r);
  return rc == 0 ? jac(&par, t, y, yp, dfdy, dfdyp) : rc;
}
