/* Flexible slider crank (B. Simeon), problem "crank" of the Test Set for IVP Solvers, release 2.4
 * (report 2.4 section II.19; software part crank.f, subroutine RESMBS by B. Simeon, 1995/97).
 *
 * A rigid crank (body 1) turned at prescribed speed, an elastic connecting rod (body 2, two
 * lateral sine modes and a quadratic longitudinal ansatz) and a rigid sliding block (body 3):
 *
 *   M(p,q) (p'', q'') = f(p, p', q, q') - G(p,q)^T lambda,   0 = g(p,q) + r(t),      (II.19.1)
 *
 * p = (phi1, phi2, x3), q = (q1..q4), lambda in R^3, G = dg/d(p,q), r(t) = (0, 0, -Omega t).
 * In first-order form, y = (p, q, v_p, v_q, a_p, a_q, lambda), n = 24, t in [0, 0.1]:
 *
 *   rows  1..14   y' - (v, a)                                    (K = diag(I14, 0))
 *   rows 15..21   -(M(p,q) a - f(p, v_p, q, v_q) + G(p,q)^T lambda)
 *   rows 22..24   -(constraint of the chosen formulation):
 *       index=3   g(p,q) + r(t)                    position level
 *       index=2   G(p,q) v + r'(t)                 velocity level, II.19.3 (the default)
 *       index=1   G(p,q) a + (dG/dt) v + r''(t)    acceleration level
 *
 * Sign convention: F(t, y, y') = K y' - f(t, y) with the test set's own right-hand side f.
 * crank.f's RESMBS returns DELTA = (y' - v, y'_v - a, M a - f + G^T lambda, constraint) and
 * the test set's f is DELTA at y' = 0 with rows 1..14 negated, so rows 15..24 of K y' - f are
 * -DELTA.  This is what the DAE-format crankres of the test set computes (copy in
 * tpetzoldt/deSolve, pkg/daeSolve/src/Ex_crank.f, "$Id: crank.F,v 1.2 2006/10/02$").
 *
 * Details of the original code that the printed description leaves open, followed here:
 * - PI = 3.1415927 (truncated) in every finite-element matrix and in k_Delta(q); the published
 *   reference was computed with it (refsol/crank.txt).
 * - K_Delta(2,2) = E d h / l2 * pi^4 * 2/3 * (h/l2)^2: the spec prints (h/l)^2, a typo; RESMBS
 *   codes (HH/L2)**2, and the Euler-Bernoulli bending stiffness of mode k (EI (k pi/l2)^4 l2/2,
 *   I = d h^3/12) gives exactly pi^4/24 (h/l2)^2 and 16 pi^4/24 = 2/3 pi^4 (h/l2)^2.
 * - Damping (IPAR(2) = 1, "0.5 per cent"): D_Delta has D34 = -0.5*262.688487992052 and
 *   D43 = -0.5*262.6884879920526, two literals that differ in the last digit; both are kept as
 *   coded.  RESMBS forms the damping force from the columns of D (DQQD(I) = sum_J DQ(J,I) qd_J),
 *   i.e. D^T v_q, and so does this module.
 * - The nonlinear beam (IPAR(1) = 1) adds k_Delta(q) with beta = 80/(9 pi^2) (spec II.19).
 * - Gravity gamma = 0 and Omega = 150 (spec 19.2.2); the gravity terms are kept with gamma = 0.
 *
 * As a model of the mechanical layer (problems/mechanical.h) with the accelerations as
 * variables (acc_vars): x = (p, q), R = M a - f + G^T lambda (W = G), g + r(t) with the prescribed
 * crank angle's g_t = r' = (0, 0, -Omega), g_tt = 0.  The layer generates index=3|2|1 (the
 * published rows above; form=index3|index2|index1 name the same) and form=ggl and
 * form=baumgarte (alpha=, beta=), keeping every variable's name; no global minimal
 * parametrisation is offered (form=ssf is refused).
 *
 * Initial values: init1 = release 2.4 values "close to smooth motion", consistent for the linear
 * beam without damping (refdata [y0 init1]; given to ~10 digits, which leaves |K y'0 - f| about
 * 2e-7, and |g| = 2.03e-10 from x3's nine digits); init2 = rigid motion q = v_q = 0 (refdata
 * [y0 init2]); init=consistent = init1 projected onto g = 0 (moving p only: x3 by -2.03e-10, the
 * rod's q as published), G v + g_t = 0 (v moves by 0: the published v fit the published q) and
 * M a + G^T lambda = f, g'' = 0 (a by at most 2.7e-7, lambda2 by 2.0e-8), so that every form's
 * residual and hidden constraints vanish to rounding (mbdae_mech_consistent; the index-1 and
 * ggl forms and Baumgarte's, which impose more levels, fail at t < 3e-15 from init1 with the
 * tightest tolerances).  y'0(i) = y0(i+7), i = 1..14, and 0 for i = 15..24, for all three.
 * The reference at t = 0.1 (Table II.19.2), computed with index=2, beam=linear, damping=off,
 * init=1, describes the motion of every formulation of that configuration (index=1|3, ggl with
 * mu = 0, baumgarte) and that of init=consistent to within its own error; nonlinear beam,
 * damping and init2 have none. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech_forms.h"
#include "mechanical.h"

/* Defined at the end of this file (its model names it); listed in src/harness/problem_list.c. */
extern const problem_type mbdae_problem_crank;

/* ---- layout of y ------------------------------------------------------------------------- */

enum {
  NP = 3,            /* rigid coordinates p = (phi1, phi2, x3) */
  NQ = 4,            /* elastic coordinates q */
  NX = NP + NQ,      /* generalized coordinates (p, q) */
  NC = 3,            /* constraints and multipliers */
  NEQ = 3 * NX + NC, /* y = (p, q, v_p, v_q, a_p, a_q, lambda) of index=1|2|3 */
  VEL = NX,          /* offset of (v_p, v_q) */
  ACC = 2 * NX,      /* offset of (a_p, a_q) */
  LAM = 3 * NX       /* offset of lambda */
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

/* init=consistent: init1 projected onto every constraint level (mbdae_mech_consistent). */
enum { INIT_CONSISTENT = 3 };

/* ---- configuration ------------------------------------------------------------------------ */

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

typedef struct crank_params {
  mech_params mech; /* first: the layer's view; index=1|2|3 is form=index1|index2|index3 */
  int nonlinear;    /* 1: nonlinear beam, grad W = K q + k(q) (IPAR(1) = 1) */
  int damping;      /* 1: damping matrix D_Delta (IPAR(2) = 1) */
  int init;         /* 1: release 2.4 initial values; 2: rigid motion values; INIT_CONSISTENT */
  int index_set;    /* index= given */
  int form_set;     /* form= given */
  fe_data fe;       /* the rod's finite-element data, set with the keys (fe_setup) */
} crank_params;

/* The point of evaluation, with the trigonometric values and scalar products used throughout. */
typedef struct crank_state {
  const double *x;                             /* (p, q) */
  const double *v;                             /* (v_p, v_q); NULL where not needed */
  const double *a;                             /* (a_p, a_q); NULL where not needed */
  const double *lam;                           /* NULL where not needed */
  const double *q, *w;                         /* q and v_q */
  double cos1, sin1, cos2, sin2, cos12, sin12; /* of phi1, phi2, phi1 - phi2 */
  double c1q, c2q, c12q, c1w, c2w, c12w;       /* c^T q and c^T v_q */
  double mq[NQ];                               /* M_Delta q */
  double mw[NQ];                               /* M_Delta v_q (Jacobian only) */
  double bw[NQ];                               /* B v_q */
  double btq[NQ];                              /* B^T q */
  double ba[NQ];                               /* B a_q (Jacobian only) */
  double len2; /* l2 + q4: length of the deformed rod along its axis */
} crank_state;

/* Constant for an instance: computed when a key sets the configuration, never per call. */
static void fe_setup(int damping, fe_data *fe)
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

  if (damping) {
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

/* The constraints' view of the point (x, v, a): the angles' cos and sin and the rod's length;
 * v and a may be NULL (taken as zero). */
static void state_kinematics(const double *x, const double *v, const double *a, crank_state *st)
{
  static const double ZERO[NX] = {0.0};
  st->x = x;
  st->v = v ? v : ZERO;
  st->a = a ? a : ZERO;
  st->lam = ZERO;
  st->q = st->x + QQ;
  st->w = st->v + QQ;
  /* each angle read once, so that the compiler makes one sincos call of each pair (glibc's
   * sincos gives sin's and cos's bits: the same code) */
  const double phi1 = x[PHI1], phi2 = x[PHI2];
  st->cos1 = cos(phi1);
  st->sin1 = sin(phi1);
  st->cos2 = cos(phi2);
  st->sin2 = sin(phi2);
  st->len2 = L2 + st->q[3];
}

/* The dynamics' view of the point (x, v, a, lambda): the kinematics, the relative angle and the
 * rod's finite-element products the residual uses. */
static void state_setup(const fe_data *fe, const double *x, const double *v, const double *a,
                        const double *lam, crank_state *st)
{
  state_kinematics(x, v, a, st);
  st->lam = lam ? lam : st->lam;
  const double phi12 = x[PHI1] - x[PHI2];
  st->cos12 = cos(phi12);
  st->sin12 = sin(phi12);
  st->c1q = dot4(fe->c1, st->q);
  st->c2q = dot4(fe->c2, st->q);
  st->c12q = dot4(fe->c12, st->q);
  st->c1w = dot4(fe->c1, st->w);
  st->c2w = dot4(fe->c2, st->w);
  st->c12w = dot4(fe->c12, st->w);
  for (int i = 0; i < NQ; i++) {
    st->mq[i] = dot4(fe->mass[i], st->q);
    st->bw[i] = dot4(fe->coup[i], st->w);
    double s = 0.0;
    for (int j = 0; j < NQ; j++) {
      s += fe->coup[j][i] * st->q[j];
    }
    st->btq[i] = s;
  }
}

/* The products only the Jacobian uses. */
static void state_jac_setup(const fe_data *fe, crank_state *st)
{
  const double *aq = st->a + QQ;
  for (int i = 0; i < NQ; i++) {
    st->mw[i] = dot4(fe->mass[i], st->w);
    st->ba[i] = dot4(fe->coup[i], aq);
  }
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

/* ---- the model's functions (problems/mechanical.h) ------------------------------------------ */

/* R = M a - f + G^T lambda, RESMBS's DELTA rows 15..21, summed in its order. */
static void dyn_at(const crank_params *par, const crank_state *st, double *r)
{
  double m[NX][NX], g[NC][NX], f[NX];
  mass_matrix(&par->fe, st, m);
  constraint_matrix(st, g);
  forces(par, &par->fe, st, f);
  for (int i = 0; i < NX; i++) {
    double delta = -f[i];
    for (int j = 0; j < NX; j++) {
      delta += m[i][j] * st->a[j];
    }
    for (int k = 0; k < NC; k++) {
      delta += g[k][i] * st->lam[k];
    }
    r[i] = delta;
  }
}

static int dyn(const void *params, double t, const double *x, const double *v, const double *a,
               const double *lam, double *r)
{
  (void)t;
  const crank_params *par = params;
  crank_state st;
  state_setup(&par->fe, x, v, a, lam, &st);
  dyn_at(par, &st, r);
  return 0;
}

/* dyn and the constraint at one level, sharing the angles' sines and cosines
 * (mech_model.dyn_con). */
static int dyn_con(const void *params, double t, const double *x, const double *v, const double *a,
                   const double *lam, int level, double *r, double *c)
{
  const crank_params *par = params;
  crank_state st;
  state_setup(&par->fe, x, v, a, lam, &st);
  dyn_at(par, &st, r);
  if (level == 0) {
    constraint_position(&st, t, c);
  } else if (level == 1) {
    constraint_velocity(&st, c);
  } else {
    constraint_acceleration(&st, c);
  }
  return 0;
}

/* A row-major NC x NX matrix into column-major storage (NULL: not wanted). */
static void store_nc_by_nx(double *dst, double src[NC][NX])
{
  for (int k = 0; dst && k < NC; k++) {
    for (int j = 0; j < NX; j++) {
      dst[k + NC * j] = src[k][j];
    }
  }
}

/* g + r(t) and G. */
static int con(const void *params, double t, const double *x, double *g, double *gq)
{
  (void)params;
  crank_state st;
  state_kinematics(x, NULL, NULL, &st);
  if (g) {
    constraint_position(&st, t, g);
  }
  if (gq) {
    double gm[NC][NX];
    constraint_matrix(&st, gm);
    store_nc_by_nx(gq, gm);
  }
  return 0;
}

/* g' = G v + r' and d g'/dx. */
static int con_vel(const void *params, double t, const double *x, const double *v, double *gv,
                   double *gvq)
{
  (void)params, (void)t;
  crank_state st;
  state_kinematics(x, v, NULL, &st);
  if (gv) {
    constraint_velocity(&st, gv);
  }
  if (gvq) {
    double dx[NC][NX], dv[NC][NX], da[NC][NX];
    constraint_derivative(2, &st, dx, dv, da);
    store_nc_by_nx(gvq, dx);
  }
  return 0;
}

/* con's g and con_vel's g' from one set of sines and cosines (mech_model.con_pos_vel). */
static int con_pos_vel(const void *params, double t, const double *x, const double *v, double *g,
                       double *gv)
{
  (void)params;
  crank_state st;
  state_kinematics(x, v, NULL, &st);
  constraint_position(&st, t, g);
  constraint_velocity(&st, gv);
  return 0;
}

/* g'' = G a + (dG/dt) v + r'' at fixed a, and its derivatives in x and v. */
static int con_acc(const void *params, double t, const double *x, const double *v, const double *a,
                   double *ga, double *gaq, double *gav)
{
  (void)params, (void)t;
  crank_state st;
  state_kinematics(x, v, a, &st);
  if (ga) {
    constraint_acceleration(&st, ga);
  }
  if (gaq || gav) {
    double dx[NC][NX], dv[NC][NX], da[NC][NX];
    constraint_derivative(1, &st, dx, dv, da);
    store_nc_by_nx(gaq, dx);
    store_nc_by_nx(gav, dv);
  }
  return 0;
}

/* dR/dx = d(M a)/dx - df/dx + d(G^T lambda)/dx, dR/dv = -df/dv, dR/da = M. */
static int dyn_jac(const void *params, double t, const double *x, const double *v, const double *a,
                   const double *lam, double *rq, double *rv, double *mass)
{
  (void)t;
  const crank_params *par = params;
  crank_state st;
  state_setup(&par->fe, x, v, a, lam, &st);
  state_jac_setup(&par->fe, &st);
  double m[NX][NX], dma[NX][NX], dgl[NX][NX], dfx[NX][NX], dfv[NX][NX];
  mass_matrix(&par->fe, &st, m);
  mass_a_derivative(&par->fe, &st, dma);
  glambda_derivative(&st, dgl);
  forces_derivative(par, &par->fe, &st, dfx, dfv);
  for (int i = 0; i < NX; i++) {
    for (int j = 0; j < NX; j++) {
      size_t ij = (size_t)i + (size_t)NX * (size_t)j;
      if (rq) {
        rq[ij] = dma[i][j] - dfx[i][j] + dgl[i][j];
      }
      if (rv) {
        rv[ij] = -dfv[i][j];
      }
      if (mass) {
        mass[ij] = m[i][j];
      }
    }
  }
  return 0;
}

/* W^T lambda = G^T lambda, W^T, d(G^T lambda)/dx; G does not depend on t. */
static int reaction(const void *params, double t, const double *x, const double *lam, double *wtl,
                    double *wt, double *wtlq, double *wtlt)
{
  (void)params, (void)t;
  crank_state st;
  state_kinematics(x, NULL, NULL, &st);
  st.lam = lam;
  double g[NC][NX], dgl[NX][NX];
  constraint_matrix(&st, g);
  if (wtlq) {
    glambda_derivative(&st, dgl);
  }
  for (int i = 0; i < NX; i++) {
    double s = 0.0;
    for (int k = 0; k < NC; k++) {
      s += g[k][i] * lam[k];
      if (wt) {
        wt[i + NX * k] = g[k][i];
      }
    }
    for (int j = 0; wtlq && j < NX; j++) {
      wtlq[i + NX * j] = dgl[i][j];
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

/* ---- initial values and reference ------------------------------------------------------------ */

typedef struct sparse_value {
  int i; /* 1-based component, as printed */
  double value;
} sparse_value;

/* One published value a line, as in refsol/crank.txt. */
/* clang-format off */
/* init1: test set release 2.4 (spec Section 19.2 table; refsol/crank.txt [y0 init1]). */
static const sparse_value y0_init1[] = {
    {3, 0.450016933e0},
    {6, 0.103339863e-4},
    {7, 0.169327969e-4},
    {8, 0.15e3},
    {9, -0.7499576703969453e2},
    {10, -0.2689386719979040e-5},
    {11, 0.4448961125815990e0},
    {12, 0.4634339319238670e-2},
    {13, -0.1785910760000550e-5},
    {14, -0.2689386719979040e-5},
    {16, -1.344541576709835e-3},
    {17, -5.062194924490193e3},
    {18, -6.829725665986310e-5},
    {19, 1.813207639590617e-20},
    {20, -4.268463266810281e0},
    {21, 2.098339029337557e-1},
    {22, -6.552727150584648e-8},
    {23, 3.824589509350831e2},
    {24, -4.635908708561371e-9},
};

/* init2: rigid motion, q = v_q = 0 (crank.f init2; refsol/crank.txt [y0 init2]). */
static const sparse_value y0_init2[] = {
    {3, 0.45},
    {8, 150},
    {9, -75},
    {17, -3789.47368421052579},
    {20, 192.434210526315809},
    {21, 1273.02631578947398},
    {23, 286.302315789473710},
};
/* clang-format on */

/* The published y0 (p, q, v, a, lambda in the index-3 order) split into the model's blocks. */
static int init(const void *params, double *x, double *v, double *a, double *lam)
{
  const crank_params *par = params;
  const sparse_value *set = par->init == 2 ? y0_init2 : y0_init1;
  const size_t count =
      par->init == 2 ? sizeof y0_init2 / sizeof y0_init2[0] : sizeof y0_init1 / sizeof y0_init1[0];
  double y0[NEQ] = {0.0};
  for (size_t k = 0; k < count; k++) {
    y0[set[k].i - 1] = set[k].value;
  }
  memcpy(x, y0, sizeof(double) * NX);
  memcpy(v, y0 + VEL, sizeof(double) * NX);
  memcpy(a, y0 + ACC, sizeof(double) * NX);
  memcpy(lam, y0 + LAM, sizeof(double) * NC);
  static const int rigid[NX] = {1, 1, 1, 0, 0, 0, 0}; /* p moves, the rod's q as published */
  if (par->init != INIT_CONSISTENT) {
    return 0;
  }
  return mbdae_mech_consistent(params, rigid, 0.0, x, v, a, lam);
}

/* Table II.19.2 (crank.f solut; refsol/crank.txt [yref], the same digit strings as
 * refsol/crank.txt): MEBDFI, atol = rtol = 1e-14, h0 = 1e-12, default configuration. */
static const double yref_default[NEQ] = {
    0.1500000000000104e+002,  -0.3311734988256260e+000, 0.1697373328427860e+000,
    0.1893192899613509e-003,  0.2375751249879174e-004,  -0.5323896770569702e-005,
    -0.8363313279112129e-005, 0.1500000000000000e+003,  0.6025346755138369e+002,
    -0.8753116326670527e+001, -0.3005541400289738e-001, -0.5500431812571696e-002,
    0.4974111734266989e-003,  0.1105560003626645e-002,  0.0e0,
    0.6488737541276957e+004,  0.2167938629509884e+004,  0.3391137060286523e+002,
    0.1715134772216488e+000,  -0.1422449408912512e+001, 0.1003946428124810e+001,
    -0.6232935833287916e+002, -0.1637920993367306e+003, 0.2529857947066878e+002,
};

/* The published reference's motion: linear beam, no damping, init1 (or init=consistent, whose
 * motion differs from init1's by less than the reference's own error), in any formulation. */
static int has_reference(const crank_params *par)
{
  return !par->nonlinear && !par->damping && par->init != 2;
}

static int ref_acc(const void *params, double *x, double *v, double *a, double *lam)
{
  if (!has_reference(params)) {
    return MBDAE_ERR_NOREF;
  }
  memcpy(x, yref_default, sizeof(double) * NX);
  memcpy(v, yref_default + VEL, sizeof(double) * NX);
  memcpy(a, yref_default + ACC, sizeof(double) * NX);
  memcpy(lam, yref_default + LAM, sizeof(double) * NC);
  return 0;
}

/* ---- options and description ------------------------------------------------------------- */

static const char OPTIONS_HELP[] = "index=1|2|3, form=index1|index2|index3|ggl|baumgarte, alpha=, "
                                   "beta=, beam=linear|nonlinear, damping=off|on, "
                                   "init=1|2|consistent";

static const char REF_SOURCE[] =
    "Test Set for IVP Solvers release 2.4, slider crank, Table II.19.2 (crank.f solut): MEBDFI "
    "with atol = rtol = 1e-14, h0 = 1e-12, index-2 formulation, linear beam, no damping, init1, "
    "finite-element matrices with PI = 3.1415927 (the same motion in every formulation)";
static const char CONSISTENT_REF_SOURCE[] =
    "Test Set for IVP Solvers release 2.4, slider crank, Table II.19.2 (crank.f solut), computed "
    "from init1 (MEBDFI, atol = rtol = 1e-14, index-2 formulation, linear beam, no damping); "
    "init=consistent is init1 projected onto g = 0, G v + g_t = 0 and the index-1 system (x3 "
    "moved by -2.03e-10, a by at most 2.7e-7, lambda2 by 2.0e-8, p's other values, q and v as "
    "published): its motion at t = 0.1 differs from init1's by 2.0e-10 in x3 (the offset) and "
    "less elsewhere, below the reference's own error";
static const char NO_REF_SOURCE[] = "no reference for this configuration (the published one is "
                                    "for beam=linear, damping=off, init=1 or consistent)";

/* y = (p, q, v_p, v_q, a_p, a_q, lambda), p = (phi1, phi2, x3), q = (q1..q4): report 2.4 II.19 */
static const char *const component_names[NEQ] = {
    "phi1",   "phi2", "x3",   "q1",   "q2",   "q3",      "q4",      "v_phi1",
    "v_phi2", "v_x3", "v_q1", "v_q2", "v_q3", "v_q4",    "a_phi1",  "a_phi2",
    "a_x3",   "a_q1", "a_q2", "a_q3", "a_q4", "lambda1", "lambda2", "lambda3"};

/* scd over y1..y7 and y22..y24, the physically important quantities (spec 19.4) */
static const int scd_components[NEQ] = {1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};

/* refsol/crank_traj.txt (init1) and crank_consistent_traj.txt, whose last rows are ref_acc's. */
static const ref_traj *traj(const void *params)
{
  const crank_params *par = params;
  if (!has_reference(par)) {
    return NULL;
  }
  return par->init == INIT_CONSISTENT ? &mbdae_traj_crank_consistent : &mbdae_traj_crank;
}

static const mech_model crank_model = {
    .type = &mbdae_problem_crank,
    .nq = NX,
    .nc = NC,
    .names = component_names,
    .in_scd = scd_components,
    .ref_source = REF_SOURCE,
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

static void set_defaults(void *params)
{
  crank_params *par = params;
  mbdae_mech_defaults(&par->mech, &crank_model);
  par->mech.form = MECH_INDEX2; /* spec 19.2: the index-2 formulation II.19.3 */
  par->nonlinear = 0;
  par->damping = 0;
  par->init = 1;
  fe_setup(par->damping, &par->fe);
}

/* value must be one of choices[0..n-1]; *out = its position. */
static int pick(const char *value, const char *const *choices, int n, int *out)
{
  for (int k = 0; k < n; k++) {
    if (strcmp(value, choices[k]) == 0) {
      *out = k;
      return 1;
    }
  }
  return 0;
}

/* init=: 1, 2, INIT_CONSISTENT in this order. */
static const char *const init_values[] = {"1", "2", "consistent"};

/* beam=, damping=, init=, index=: 0, MBDAE_ERR_SPEC, or 1 when the key is none of them. */
static int set_crank_option(crank_params *par, const char *key, const char *value)
{
  static const char *const index_values[] = {"1", "2", "3"};
  static const char *const beam_values[] = {"linear", "nonlinear"};
  static const char *const damping_values[] = {"off", "on"};
  int k = 0, ok = 0;
  if (strcmp(key, "index") == 0) {
    int form = pick(value, index_values, 3, &k) ? mbdae_mech_form_by_test_set_index(k + 1) : -1;
    ok = form >= 0;
    par->mech.form = ok ? (mech_form)form : par->mech.form;
    par->index_set = 1;
  } else if (strcmp(key, "beam") == 0) {
    ok = pick(value, beam_values, 2, &k);
    par->nonlinear = ok ? k : par->nonlinear;
  } else if (strcmp(key, "damping") == 0) {
    ok = pick(value, damping_values, 2, &k);
    par->damping = ok ? k : par->damping;
    fe_setup(par->damping, &par->fe);
  } else if (strcmp(key, "init") == 0) {
    ok = pick(value, init_values, 3, &k);
    par->init = ok ? k + 1 : par->init;
  } else {
    return 1;
  }
  return ok ? 0 : MBDAE_ERR_SPEC;
}

static int set_option(void *params, const char *key, const char *value, char *msg, size_t msglen)
{
  crank_params *par = params;
  int rc = set_crank_option(par, key, value);
  if (rc == 1) {
    par->form_set |= strcmp(key, "form") == 0;
    rc = mbdae_mech_set_option(&par->mech, key, value, msg, msglen);
    if (rc != 1) {
      return rc; /* the layer's keys: its message */
    }
  }
  if (rc != 0 && msg && msglen > 0) {
    if (rc == 1) {
      snprintf(msg, msglen, "unknown option '%s' for problem 'crank'; valid: %s", key,
               OPTIONS_HELP);
    } else {
      snprintf(msg, msglen, "bad value '%s' for option '%s' of problem 'crank'; valid: %s", value,
               key, OPTIONS_HELP);
    }
  }
  return rc == 0 ? 0 : MBDAE_ERR_SPEC;
}

static int finish(const void *params, char *msg, size_t msglen)
{
  const crank_params *par = params;
  if (par->index_set && par->form_set) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen,
               "index= and form= of problem 'crank' both choose the formulation: give one "
               "(index=1|2|3 is form=index1|index2|index3)");
    }
    return MBDAE_ERR_SPEC;
  }
  return mbdae_mech_finish(&par->mech, msg, msglen);
}

/* index=N for the test set's forms (as published), form=... for ggl and baumgarte. */
static void format_options(const void *params, char *buf, size_t len)
{
  const crank_params *par = params;
  int test_set_index = mbdae_mech_form_info(par->mech.form)->test_set_index;
  int used = 0;
  if (len == 0) {
    return; /* nothing may be written (nor read back: buf holds no string) */
  }
  if (test_set_index > 0) {
    used = snprintf(buf, len, "index=%d", test_set_index);
  } else {
    mbdae_mech_format_options(&par->mech, buf, len);
    used = (int)strlen(buf);
  }
  if (used >= 0 && (size_t)used < len) {
    snprintf(buf + used, len - (size_t)used, ",beam=%s,damping=%s,init=%s",
             par->nonlinear ? "nonlinear" : "linear", par->damping ? "on" : "off",
             init_values[par->init - 1]);
  }
}

/* The index per variable: the spec (19.2) gives that of the index-2 form only; crank.f documents
 * the others just as "ITYP = 0: index 3 system, ITYP = 3: index 1 system".  The layer assigns the
 * test set's usual index for mechanical systems (mechanical.h). */
static void describe(const void *params, problem_info *info)
{
  const crank_params *par = params;
  mbdae_mech_describe(&par->mech, info);
  info->ref_source = !has_reference(par)            ? NO_REF_SOURCE
                     : par->init == INIT_CONSISTENT ? CONSISTENT_REF_SOURCE
                                                    : REF_SOURCE;
}

const problem_type mbdae_problem_crank = {
    .id = "crank",
    .title = "Flexible slider crank",
    .t0 = 0.0,
    .tend = 0.1,
    /* rtol = atol = 10^-(4 + m/4), m = 0..24, h0 = 1e-2 rtol (spec 19.4) */
    .tolerances = {sizeof(mbdae_tolerance_plan), 4, 24, 1e-2, 3, {1e-4, 1e-6, 1e-8}, 1e-6},
    .params_size = sizeof(crank_params),
    .options_help = OPTIONS_HELP,
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
};
