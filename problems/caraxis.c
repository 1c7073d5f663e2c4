/* The car axis problem: an index-3 DAE of dimension 10 (test set release 2.4, problem file
 * caraxis.f; report section II.17, from Schneider's thesis [Sch94]).
 *
 * A bar of mass M (the chassis) with end points (x_l, y_l), (x_r, y_r) is carried by two massless
 * springs of stiffness 1/eps^2 and rest length L0; the left spring is anchored at the origin, the
 * right one at the wheel (x_b(t), y_b(t)) rolling over a bump of height h with frequency omega.
 * With p = (x_l, y_l, x_r, y_r), q = p' and lambda in R^2:
 *
 *   p' = q,   K q' = f(t, p, lambda),   0 = phi(t, p),   K = eps^2 M / 2,
 *
 *   f = ( (L0 - L_l) x_l / L_l + lambda_1 x_b + 2 lambda_2 (x_l - x_r),
 *         (L0 - L_l) y_l / L_l + lambda_1 y_b + 2 lambda_2 (y_l - y_r) - g eps^2 M / 2,
 *         (L0 - L_r) (x_r - x_b) / L_r - 2 lambda_2 (x_l - x_r),
 *         (L0 - L_r) (y_r - y_b) / L_r - 2 lambda_2 (y_l - y_r) - g eps^2 M / 2 ),
 *   phi = ( x_l x_b + y_l y_b,  (x_l - x_r)^2 + (y_l - y_r)^2 - L^2 ),
 *
 *   L_l = |(x_l, y_l)|,  L_r = |(x_r - x_b, y_r - y_b)|,  y_b = h sin(omega t),
 *   x_b = sqrt(L^2 - y_b^2).
 *
 * Residual, in the test set's own form F = M y' - f(t, y) with M = diag(I4, K I4, 0, 0):
 *   rows 1-4  p' - q,   rows 5-8  K q' - f,   rows 9-10  -phi
 * (rows 9-10 carry the minus sign because the test set's right-hand side holds +phi there; its
 * residual routine negates them, and so do we).
 *
 * As a model of the mechanical layer (problems/mechanical.h), which generates this form
 * (form=index3, the published one) and index2, ggl, index1 and baumgarte: q = p, M = K I,
 * R = K a - f with f as above, the reaction W^T lambda = -G^T lambda (W = -G: f holds
 * +G^T lambda), G = dphi/dp = ((x_b, y_b, 0, 0), 2 (dx, dy, -dx, -dy)), dx = x_l - x_r,
 * dy = y_l - y_r.  The constraint moves with the wheel, so g' = G q + (x_l x_b' + y_l y_b', 0)
 * and g'' = G q' + (2 (q_xl x_b' + q_yl y_b') + x_l x_b'' + y_l y_b'', 2 |q_l - q_r|^2) (the
 * prescribed motion's g_t, g_tt and g_tq terms and the bar's curvature term).  No global minimal
 * parametrisation is offered: form=ssf is refused.
 *
 * Variables (form=index3) y = (x_l, y_l, x_r, y_r, x_l', y_l', x_r', y_r', lambda_1, lambda_2),
 * index 1,1,1,1, 2,2,2,2,3,3.  Source: report 2.4, section II.17 and
 * refsol/caraxis.txt.  Gravity g = 1 as in [Sch94], entering f_2 and f_4 as -eps^2 M / 2
 * (report 2.4 section II.17.2, eq. for F_g). */
#include <math.h>
#include <string.h>

#include "mechanical.h"

/* Defined at the end of this file (its model names it); listed in src/harness/problem_list.c. */
extern const problem_type mbdae_problem_caraxis;

enum {
  NPOS = 4, /* coordinates of the two bar ends */
  NLAM = 2, /* multipliers = constraints */
  XL = 0,   /* offsets inside p (and q) */
  YL = 1,
  XR = 2,
  YR = 3
};

/* Constants of report 2.4, section II.17.2 and caraxis.f. */
static const double EPS = 1e-2;   /* eps: the springs have Hooke's constant 1/eps^2 */
static const double MASS = 10.0;  /* M, mass of the bar */
static const double LEN = 1.0;    /* L, length of the axis and of the bar */
static const double LEN0 = 0.5;   /* L0, rest length of the springs */
static const double BUMP = 0.1;   /* h, height of the bump (called r in caraxis.f) */
static const double OMEGA = 10.0; /* omega, so the bump period is tau = 2 pi / omega = pi / 5 */
static const double GRAV = 1.0;   /* g, as in [Sch94] */

typedef struct caraxis_params {
  mech_params mech; /* first: the layer's view */
  double eps;       /* spring compliance parameter */
  double mass;      /* M */
  double len;       /* L */
  double len0;      /* L0 */
  double bump;      /* h */
  double omega;     /* omega */
  double grav;      /* g */
} caraxis_params;

/* The prescribed wheel motion and its first two time derivatives. */
typedef struct wheel {
  double x, y;   /* x_b, y_b */
  double xd, yd; /* x_b', y_b' */
  double xdd, ydd;
} wheel;

/* Spring between an anchor and a point at offset v = (vx, vy) from it: its force
 * (L0/len - 1) v and the 2x2 derivative of that force with respect to v. */
typedef struct spring {
  double fx, fy;  /* force on the bar end */
  double d[2][2]; /* d[i][j] = d force_i / d v_j */
} spring;

/* 0, or 1 when the wheel position is not real (h > L; impossible with the published constants).
 * derivs: how many time derivatives the caller reads (0, 1 or 2); the residual of the position
 * constraint needs none, and sin alone is much cheaper than sin and cos (those left out are NaN,
 * so a caller that reads them shows it). */
static int wheel_at(const caraxis_params *c, double t, int derivs, wheel *w)
{
  double theta = c->omega * t, s, co = NAN;
  if (derivs == 0) {
    s = sin(theta); /* in a branch of its own, so the compiler does not make it a sincos call */
  } else {
    s = sin(theta);
    co = cos(theta);
  }
  w->y = c->bump * s;
  double x2 = c->len * c->len - w->y * w->y;
  if (!(x2 > 0.0)) {
    return 1;
  }
  w->x = sqrt(x2);
  if (derivs == 0) {
    w->xd = w->yd = w->xdd = w->ydd = NAN;
    return 0;
  }
  w->yd = c->bump * c->omega * co;
  w->ydd = -c->bump * c->omega * c->omega * s;
  /* From x_b^2 + y_b^2 = L^2 differentiated once and twice. */
  w->xd = -w->y * w->yd / w->x;
  w->xdd = -(w->xd * w->xd + w->yd * w->yd + w->y * w->ydd) / w->x;
  return 0;
}

/* 0, or 1 when the spring has zero length (its direction, hence the force, is undefined).  The
 * length as caraxis.f computes it, sqrt(x^2 + y^2); the derivative only when asked for (the
 * Jacobian: the residual does not need it). */
static int spring_at(double len0, double vx, double vy, int derivative, spring *s)
{
  double len = sqrt(vx * vx + vy * vy);
  if (!(len > 0.0) || !isfinite(len)) {
    return 1;
  }
  double a = len0 / len - 1.0;
  s->fx = a * vx;
  s->fy = a * vy;
  if (!derivative) {
    return 0;
  }
  double b = len0 / (len * len * len);
  s->d[0][0] = a - b * vx * vx;
  s->d[0][1] = -b * vx * vy;
  s->d[1][0] = -b * vy * vx;
  s->d[1][1] = a - b * vy * vy;
  return 0;
}

/* The bar ends' springs: left anchored at the origin, right at the wheel. */
static int springs_at(const caraxis_params *c, const double *p, const wheel *w, int derivative,
                      spring *left, spring *right)
{
  if (spring_at(c->len0, p[XL], p[YL], derivative, left) != 0) {
    return 1;
  }
  return spring_at(c->len0, p[XR] - w->x, p[YR] - w->y, derivative, right);
}

static double mass_factor(const caraxis_params *c) { return c->eps * c->eps * c->mass / 2.0; }

/* R = K a - f(t, p, lambda) at the wheel position w, f of the head comment in the order of the
 * published code. */
static int dyn_at(const caraxis_params *c, const wheel *w, const double *p, const double *a,
                  const double *lam, double *r)
{
  spring sl, sr;
  if (springs_at(c, p, w, 0, &sl, &sr) != 0) {
    return 1;
  }
  double k = mass_factor(c);
  double dx = p[XL] - p[XR], dy = p[YL] - p[YR];
  double f[NPOS] = {
      sl.fx + lam[0] * w->x + 2.0 * lam[1] * dx,
      sl.fy + lam[0] * w->y + 2.0 * lam[1] * dy - c->grav * k,
      sr.fx - 2.0 * lam[1] * dx,
      sr.fy - 2.0 * lam[1] * dy - c->grav * k,
  };
  for (int i = 0; i < NPOS; i++) {
    r[i] = k * a[i] - f[i];
  }
  return 0;
}

static int dyn(const void *par, double t, const double *p, const double *v, const double *a,
               const double *lam, double *r)
{
  (void)v;
  wheel w;
  return wheel_at(par, t, 0, &w) != 0 ? 1 : dyn_at(par, &w, p, a, lam, r);
}

/* The constraint at level 0 (g = phi), 1 (g') or 2 (g'' at a) at the wheel position w. */
static void constraint_level(const caraxis_params *c, const wheel *w, int level, const double *p,
                             const double *v, const double *a, double out[NLAM])
{
  double dx = p[XL] - p[XR], dy = p[YL] - p[YR];
  if (level == 0) {
    out[0] = p[XL] * w->x + p[YL] * w->y;
    out[1] = dx * dx + dy * dy - c->len * c->len;
    return;
  }
  double dvx = v[XL] - v[XR], dvy = v[YL] - v[YR];
  if (level == 1) {
    out[0] = v[XL] * w->x + p[XL] * w->xd + v[YL] * w->y + p[YL] * w->yd;
    out[1] = 2.0 * (dx * dvx + dy * dvy);
    return;
  }
  double dax = a[XL] - a[XR], day = a[YL] - a[YR];
  out[0] = a[XL] * w->x + 2.0 * v[XL] * w->xd + p[XL] * w->xdd + a[YL] * w->y +
           2.0 * v[YL] * w->yd + p[YL] * w->ydd;
  out[1] = 2.0 * (dvx * dvx + dx * dax + dvy * dvy + dy * day);
}

/* dyn and the constraint at one level, sharing the wheel (mech_model.dyn_con). */
static int dyn_con(const void *par, double t, const double *p, const double *v, const double *a,
                   const double *lam, int level, double *r, double *g)
{
  wheel w;
  if (wheel_at(par, t, level, &w) != 0 || dyn_at(par, &w, p, a, lam, r) != 0) {
    return 1;
  }
  constraint_level(par, &w, level, p, v, a, g);
  return 0;
}

/* dR/dp = -df/dp (spring stiffness plus the 2 lambda_2 coupling of the bar constraint),
 * dR/dv = 0, dR/da = K I. */
static int dyn_jac(const void *par, double t, const double *p, const double *v, const double *a,
                   const double *lam, double *rq, double *rv, double *mass)
{
  (void)v, (void)a;
  const caraxis_params *c = par;
  wheel w;
  spring sl, sr;
  if (wheel_at(c, t, 0, &w) != 0 || springs_at(c, p, &w, 1, &sl, &sr) != 0) {
    return 1;
  }
  double df[NPOS][NPOS] = {{0.0}};
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      df[XL + i][XL + j] = sl.d[i][j];
      df[XR + i][XR + j] = sr.d[i][j];
    }
    df[XL + i][XL + i] += 2.0 * lam[1];
    df[XL + i][XR + i] -= 2.0 * lam[1];
    df[XR + i][XL + i] -= 2.0 * lam[1];
    df[XR + i][XR + i] += 2.0 * lam[1];
  }
  for (int i = 0; i < NPOS; i++) {
    for (int j = 0; j < NPOS; j++) {
      if (rq) {
        rq[i + NPOS * j] = -df[i][j];
      }
      if (rv) {
        rv[i + NPOS * j] = 0.0;
      }
      if (mass) {
        mass[i + NPOS * j] = i == j ? mass_factor(c) : 0.0;
      }
    }
  }
  return 0;
}

/* G = dphi/dp (NLAM x NPOS, row-major) at the wheel position w. */
static void constraint_matrix(const wheel *w, const double *p, double g[NLAM][NPOS])
{
  double dx = p[XL] - p[XR], dy = p[YL] - p[YR];
  const double rows[NLAM][NPOS] = {{w->x, w->y, 0.0, 0.0},
                                   {2.0 * dx, 2.0 * dy, -2.0 * dx, -2.0 * dy}};
  memcpy(g, rows, sizeof rows);
}

/* W^T lambda = -G^T lambda, W^T, d(W^T lambda)/dp (from the bar's constraint only) and
 * d(W^T lambda)/dt (from the wheel's motion). */
static int reaction(const void *par, double t, const double *p, const double *lam, double *wtl,
                    double *wt, double *wtlq, double *wtlt)
{
  wheel w;
  if (wheel_at(par, t, wtlt ? 1 : 0, &w) != 0) {
    return 1;
  }
  double g[NLAM][NPOS];
  constraint_matrix(&w, p, g);
  const double sign[NPOS] = {1.0, 1.0, -1.0, -1.0}; /* the bar's ends: + left, - right */
  for (int i = 0; i < NPOS; i++) {
    if (wtl) {
      wtl[i] = -(g[0][i] * lam[0] + g[1][i] * lam[1]);
    }
    for (int k = 0; wt && k < NLAM; k++) {
      wt[i + NPOS * k] = -g[k][i];
    }
    for (int j = 0; wtlq && j < NPOS; j++) {
      wtlq[i + NPOS * j] = (i % 2 == j % 2) ? -2.0 * lam[1] * sign[i] * sign[j] : 0.0;
    }
  }
  if (wtlt) {
    wtlt[XL] = -lam[0] * w.xd;
    wtlt[YL] = -lam[0] * w.yd;
    wtlt[XR] = wtlt[YR] = 0.0;
  }
  return 0;
}

/* g = phi(t, p), G (NLAM x NPOS, column-major). */
static int con(const void *par, double t, const double *p, double *g, double *gq)
{
  const caraxis_params *c = par;
  wheel w;
  if (wheel_at(c, t, 0, &w) != 0) {
    return 1;
  }
  if (g) {
    constraint_level(c, &w, 0, p, NULL, NULL, g);
  }
  double gm[NLAM][NPOS];
  constraint_matrix(&w, p, gm);
  for (int k = 0; gq && k < NLAM; k++) {
    for (int j = 0; j < NPOS; j++) {
      gq[k + NLAM * j] = gm[k][j];
    }
  }
  return 0;
}

/* Row-major 2 x 4 rows into a column-major NLAM x NPOS matrix. */
static void store_rows(double *dst, const double rows[NLAM][NPOS])
{
  for (int k = 0; k < NLAM; k++) {
    for (int j = 0; j < NPOS; j++) {
      dst[k + NLAM * j] = rows[k][j];
    }
  }
}

/* g' = G v + g_t and d g'/dp. */
static int con_vel(const void *par, double t, const double *p, const double *v, double *gv,
                   double *gvq)
{
  wheel w;
  if (wheel_at(par, t, 1, &w) != 0) {
    return 1;
  }
  double dvx = v[XL] - v[XR], dvy = v[YL] - v[YR];
  if (gv) {
    constraint_level(par, &w, 1, p, v, NULL, gv);
  }
  if (gvq) {
    const double rows[NLAM][NPOS] = {{w.xd, w.yd, 0.0, 0.0},
                                     {2.0 * dvx, 2.0 * dvy, -2.0 * dvx, -2.0 * dvy}};
    store_rows(gvq, rows);
  }
  return 0;
}

/* con's g and con_vel's g' from one wheel position (mech_model.con_pos_vel): the wheel with its
 * first derivatives has the same x and y as the one without. */
static int con_pos_vel(const void *par, double t, const double *p, const double *v, double *g,
                       double *gv)
{
  wheel w;
  if (wheel_at(par, t, 1, &w) != 0) {
    return 1;
  }
  constraint_level(par, &w, 0, p, NULL, NULL, g);
  constraint_level(par, &w, 1, p, v, NULL, gv);
  return 0;
}

/* g'' = G a + 2 G_t v + g_tt + d(G v)/dp v at fixed a, and its derivatives in p and v. */
static int con_acc(const void *par, double t, const double *p, const double *v, const double *a,
                   double *ga, double *gaq, double *gav)
{
  wheel w;
  if (wheel_at(par, t, 2, &w) != 0) {
    return 1;
  }
  double dvx = v[XL] - v[XR], dvy = v[YL] - v[YR];
  double dax = a[XL] - a[XR], day = a[YL] - a[YR];
  if (ga) {
    constraint_level(par, &w, 2, p, v, a, ga);
  }
  if (gaq) {
    const double rows[NLAM][NPOS] = {{w.xdd, w.ydd, 0.0, 0.0},
                                     {2.0 * dax, 2.0 * day, -2.0 * dax, -2.0 * day}};
    store_rows(gaq, rows);
  }
  if (gav) {
    const double rows[NLAM][NPOS] = {{2.0 * w.xd, 2.0 * w.yd, 0.0, 0.0},
                                     {4.0 * dvx, 4.0 * dvy, -4.0 * dvx, -4.0 * dvy}};
    store_rows(gav, rows);
  }
  return 0;
}

/* y0 and y'0 of report 2.4 section II.17.2 and refsol/caraxis.txt: p0 = (0, L0, L, L0),
 * q0 = (-1/2, 0, -1/2, 0), lambda0 = lambda'0 = 0, p'0 = q0 and
 * q'0 = 2/(M eps^2) f(0, p0, lambda0) = (0, -g, 0, -g) since both springs are at rest length. */
static int init(const void *par, double *p, double *v, double *a, double *lam)
{
  const caraxis_params *c = par;
  static const double P0[NPOS] = {0.0, 0.5, 1.0, 0.5};
  static const double V0[NPOS] = {-0.5, 0.0, -0.5, 0.0};
  for (int i = 0; i < NPOS; i++) {
    p[i] = P0[i];
    v[i] = V0[i];
    a[i] = i % 2 == 1 ? -c->grav : 0.0;
  }
  lam[0] = lam[1] = 0.0;
  return 0;
}

/* y(3): report 2.4 Table II.17.1, quadruple-precision GAMD, atol = rtol = h0 = 1e-24; the
 * digits of refsol/caraxis.txt.  y7: the report's table prints
 * 0.17556815753723222276e-1, one digit fewer than refdata's 0.175568157537232222276e-1 (a run
 * of five 2s shortened to four, at the 19th significant digit; every other entry has 21 digits,
 * and the deTestSet R package prints the 21-digit string too).  Both strings round to the same
 * double, 0x1.1fa69f5efc217p-6; we keep refdata's 21 digits. */
static int ref(const void *par, double *p, double *v, double *lam)
{
  (void)par;
  static const double YREF[2 * NPOS + NLAM] = {
      0.493455784275402809122e-1,  0.496989460230171153861e0,   0.104174252488542151681e1,
      0.373911027265361256927e0,   -0.770583684040972357970e-1, 0.744686658723778553466e-2,
      0.175568157537232222276e-1,  0.770341043779251976443e0,   -0.473688659084893324729e-2,
      -0.110468033125734368808e-2,
  };
  for (int i = 0; i < NPOS; i++) {
    p[i] = YREF[i];
    v[i] = YREF[NPOS + i];
  }
  lam[0] = YREF[2 * NPOS];
  lam[1] = YREF[2 * NPOS + 1];
  return 0;
}

/* p = (x_l, y_l, x_r, y_r), q = p' and lambda (report 2.4 section II.17.2) */
static const char *const component_names[2 * NPOS + NLAM] = {
    "x_l", "y_l", "x_r", "y_r", "vx_l", "vy_l", "vx_r", "vy_r", "lambda1", "lambda2"};

/* refsol/caraxis_traj.txt, whose last row is ref's. */
static const ref_traj *traj(const void *par)
{
  (void)par;
  return &mbdae_traj_caraxis;
}

static const mech_model caraxis_model = {
    .type = &mbdae_problem_caraxis,
    .nq = NPOS,
    .nc = NLAM,
    .names = component_names,
    .in_scd = NULL,
    .ref_source = "report 2.4 Table II.17.1 (caraxis.f): GAMD in quadruple precision on an "
                  "Alphaserver DS20E, atol = rtol = h0 = 1e-24; 21 digits",
    .dyn = dyn,
    .dyn_jac = dyn_jac,
    .reaction = reaction,
    .con = con,
    .con_vel = con_vel,
    .con_acc = con_acc,
    .dyn_con = dyn_con,
    .con_pos_vel = con_pos_vel,
    .init = init,
    .ref = ref,
    .traj = traj,
    .ssf = NULL,
};

static void set_defaults(void *params)
{
  caraxis_params *c = params;
  mbdae_mech_defaults(&c->mech, &caraxis_model);
  c->eps = EPS;
  c->mass = MASS;
  c->len = LEN;
  c->len0 = LEN0;
  c->bump = BUMP;
  c->omega = OMEGA;
  c->grav = GRAV;
}

const problem_type mbdae_problem_caraxis = {
    .id = "caraxis",
    .title = "Car axis problem",
    .t0 = 0.0,
    .tend = 3.0,
    /* report 2.4 section II.17.4: rtol = atol = h0 = 10^-(4 + m/4), m = 0..24; Table II.17.2 */
    .tolerances = {sizeof(mbdae_tolerance_plan), 4, 24, 1.0, 3, {1e-4, 1e-7, 1e-10}, 1e-7},
    .params_size = sizeof(caraxis_params),
    .options_help = MECH_OPTIONS_HELP_NO_SSF,
    .set_defaults = set_defaults,
    .set_option = mbdae_mech_option,
    .finish = mbdae_mech_finish,
    .format_options = mbdae_mech_format_options,
    .describe = mbdae_mech_describe,
    .init = mbdae_mech_init,
    .res = mbdae_mech_res,
    .jac = mbdae_mech_jac,
    .ref = mbdae_mech_ref,
    .ref_traj = mbdae_mech_ref_traj,
    .constraints = mbdae_mech_constraints,
};
