/* The hand-written car axis residual and Jacobian, verbatim as it was before the port to the
 * mechanical layer (problems/caraxis.c of commit b6f7a24), kept so that test_forms.c can compare
 * the generated formulation with it bit for bit.  Only the includes (public header instead of the
 * private ones), the entry point at the end and the removed initial values, reference, options and
 * descriptor differ. */
#include <math.h>
#include "legacy.h"
#include "mbdae/mbdae.h"
#define MBDAE_AT(a, n, i, j) ((a)[(i) + (size_t)(j) * (size_t)(n)])

enum {
  NEQ = 10,
  NPOS = 4, /* coordinates of the two bar ends */
  NLAM = 2, /* multipliers */
  POS = 0,  /* offset of p = (x_l, y_l, x_r, y_r) */
  VEL = 4,  /* offset of q = p' */
  LAM = 8,  /* offset of lambda */
  XL = 0,   /* offsets inside p (and q) */
  YL = 1,
  XR = 2,
  YR = 3,
  NCONSTR = 2
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
  double eps;   /* spring compliance parameter */
  double mass;  /* M */
  double len;   /* L */
  double len0;  /* L0 */
  double bump;  /* h */
  double omega; /* omega */
  double grav;  /* g */
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

static void set_defaults(void *params)
{
  caraxis_params *c = params;
  c->eps = EPS;
  c->mass = MASS;
  c->len = LEN;
  c->len0 = LEN0;
  c->bump = BUMP;
  c->omega = OMEGA;
  c->grav = GRAV;
}

/* 0, or 1 when the wheel position is not real (h > L; impossible with the published constants). */
static int wheel_at(const caraxis_params *c, double t, wheel *w)
{
  double s = sin(c->omega * t), co = cos(c->omega * t);
  w->y = c->bump * s;
  w->yd = c->bump * c->omega * co;
  w->ydd = -c->bump * c->omega * c->omega * s;
  double x2 = c->len * c->len - w->y * w->y;
  if (!(x2 > 0.0)) {
    return 1;
  }
  w->x = sqrt(x2);
  /* From x_b^2 + y_b^2 = L^2 differentiated once and twice. */
  w->xd = -w->y * w->yd / w->x;
  w->xdd = -(w->xd * w->xd + w->yd * w->yd + w->y * w->ydd) / w->x;
  return 0;
}

/* 0, or 1 when the spring has zero length (its direction, hence the force, is undefined). */
static int spring_at(double len0, double vx, double vy, spring *s)
{
  double len = sqrt(vx * vx + vy * vy); /* hypot until 2026-11-24: both now as caraxis.f */
  if (!(len > 0.0) || !isfinite(len)) {
    return 1;
  }
  double a = len0 / len - 1.0;
  double b = len0 / (len * len * len);
  s->fx = a * vx;
  s->fy = a * vy;
  s->d[0][0] = a - b * vx * vx;
  s->d[0][1] = -b * vx * vy;
  s->d[1][0] = -b * vy * vx;
  s->d[1][1] = a - b * vy * vy;
  return 0;
}

/* The bar ends' springs: left anchored at the origin, right at the wheel. */
static int springs_at(const caraxis_params *c, const double *p, const wheel *w, spring *left,
                      spring *right)
{
  if (spring_at(c->len0, p[XL], p[YL], left) != 0) {
    return 1;
  }
  return spring_at(c->len0, p[XR] - w->x, p[YR] - w->y, right);
}

static double mass_factor(const caraxis_params *c) { return c->eps * c->eps * c->mass / 2.0; }

static int res(const void *params, double t, const double *y, const double *yp, double *r)
{
  const caraxis_params *c = params;
  const double *p = y + POS, *lam = y + LAM;
  wheel w;
  spring sl, sr;
  if (wheel_at(c, t, &w) != 0 || springs_at(c, p, &w, &sl, &sr) != 0) {
    return 1;
  }
  double k = mass_factor(c);
  double dx = p[XL] - p[XR], dy = p[YL] - p[YR];
  double f[NPOS] = {
      sl.fx + lam[0] * w.x + 2.0 * lam[1] * dx,
      sl.fy + lam[0] * w.y + 2.0 * lam[1] * dy - c->grav * k,
      sr.fx - 2.0 * lam[1] * dx,
      sr.fy - 2.0 * lam[1] * dy - c->grav * k,
  };
  for (int i = 0; i < NPOS; i++) {
    r[POS + i] = yp[POS + i] - y[VEL + i];
    r[VEL + i] = k * yp[VEL + i] - f[i];
  }
  r[LAM + 0] = -(p[XL] * w.x + p[YL] * w.y);
  r[LAM + 1] = -(dx * dx + dy * dy - c->len * c->len);
  return 0;
}

static int jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
               double *dfdyp)
{
  (void)yp;
  const caraxis_params *c = params;
  double k = mass_factor(c);
  if (dfdyp) {
    for (int j = 0; j < NEQ * NEQ; j++) {
      dfdyp[j] = 0.0;
    }
    for (int i = 0; i < NPOS; i++) {
      MBDAE_AT(dfdyp, NEQ, POS + i, POS + i) = 1.0;
      MBDAE_AT(dfdyp, NEQ, VEL + i, VEL + i) = k;
    }
  }
  if (!dfdy) {
    return 0;
  }
  const double *p = y + POS, *lam = y + LAM;
  wheel w;
  spring sl, sr;
  if (wheel_at(c, t, &w) != 0 || springs_at(c, p, &w, &sl, &sr) != 0) {
    return 1;
  }
  double dx = p[XL] - p[XR], dy = p[YL] - p[YR];
  for (int j = 0; j < NEQ * NEQ; j++) {
    dfdy[j] = 0.0;
  }
  for (int i = 0; i < NPOS; i++) {
    MBDAE_AT(dfdy, NEQ, POS + i, VEL + i) = -1.0;
  }
  /* df/dp: spring stiffness plus the 2 lambda_2 coupling of the bar constraint; F = K q' - f. */
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
      MBDAE_AT(dfdy, NEQ, VEL + i, POS + j) = -df[i][j];
    }
  }
  /* df/dlambda = G^T, G = dphi/dp; rows 9-10 are -phi, so their derivative is -G. */
  double g[NLAM][NPOS] = {{w.x, w.y, 0.0, 0.0}, {2.0 * dx, 2.0 * dy, -2.0 * dx, -2.0 * dy}};
  for (int a = 0; a < NLAM; a++) {
    for (int j = 0; j < NPOS; j++) {
      MBDAE_AT(dfdy, NEQ, VEL + j, LAM + a) = -g[a][j];
      MBDAE_AT(dfdy, NEQ, LAM + a, POS + j) = -g[a][j];
    }
  }
  return 0;
}

int legacy_caraxis(const int *cfg, double t, const double *y, const double *yp, double *r,
                   double *dfdy, double *dfdyp)
{
  (void)cfg;
  caraxis_params c;
  set_defaults(&c);
  int rc = res(&c, t, y, yp, r);
  return rc == 0 ? jac(&c, t, y, yp, dfdy, dfdyp) : rc;
}
