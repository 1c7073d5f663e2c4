/* The double pendulum in Cartesian coordinates, an index-3 DAE of 10 equations.
 *
 * Source: I. Hafner, C. Poell, Comparison of regularisation methods referring to a
 * multi-pendulum case study, eq. (6) (spec/004): two unit masses on massless rods of unit length,
 * the first hinged at the origin, y pointing down, gravity g along +y:
 *   x1' = vx1,  y1' = vy1,  x2' = vx2,  y2' = vy2,
 *   vx1' = -F1 x1 - F2 (x1 - x2),  vy1' = g - F1 y1 - F2 (y1 - y2),
 *   vx2' = -F2 (x2 - x1),          vy2' = g - F2 (y2 - y1),
 *   0 = x1^2 + y1^2 - 1,  0 = (x1 - x2)^2 + (y1 - y2)^2 - 1,
 * y = (x1, y1, x2, y2, vx1, vy1, vx2, vy2, F1, F2), F1, F2 the rod forces per unit length.
 * Start (DESIGN.md): both links horizontal, at rest, x1 = 1, x2 = 2; y'(0) from the equations.
 * Residual in the test set's form M y' - f(t, y), M = diag(1, ..., 1, 0, 0): the algebraic rows
 * are r = -g(y).
 * Hidden constraints, with (dx, dy) = (x1 - x2, y1 - y2): g1 = x1^2 + y1^2 - 1,
 * g2 = dx^2 + dy^2 - 1, g1' = 2 (x1 vx1 + y1 vy1), g2' = 2 (dx dvx + dy dvy), and g'' with the
 * accelerations taken from y'.
 * The motion is chaotic; on [0, 10] a reference stays meaningful.  Reference: the angle
 * formulation (eq. (7)) integrated in quadruple precision by two independent methods,
 * refsol/dpendulum_ref.c, data in refsol/dpendulum.txt. */
#include <stddef.h>

#include "dense.h"
#include "problem_type.h"

enum { POS = 0, VEL = 4, LAM = 8, NEQ = 10 }; /* blocks of y */
enum { X1 = POS, Y1, X2, Y2 };                /* positions */
enum { VX1 = VEL, VY1, VX2, VY2 };            /* velocities */
enum { F1 = LAM, F2 };                        /* rod forces (multipliers) */
enum { NCON = 2 };                            /* position constraints */

static const double GRAV = 9.81; /* g, Hafner & Poell, section 2.1 */

typedef struct dpendulum_params {
  double g; /* gravitational acceleration along +y */
} dpendulum_params;

static void set_defaults(void *params)
{
  dpendulum_params *p = params;
  p->g = GRAV;
}

/* y = (x1, y1, x2, y2, vx1, vy1, vx2, vy2, F1, F2): Hafner & Poell eq. (6) */
static const char *const component_names[NEQ] = {"x1",  "y1",  "x2",  "y2", "vx1",
                                                 "vy1", "vx2", "vy2", "F1", "F2"};

static void describe(const void *params, problem_info *info)
{
  (void)params;
  info->neq = NEQ;
  info->nconstraints = NCON;
  if (!info->index) {
    return;
  }
  for (int i = 0; i < NEQ; i++) {
    info->index[i] = i < VEL ? 1 : (i < LAM ? 2 : 3);
    info->in_scd[i] = 1;
  }
  info->ref_source =
      "angle (state-space) formulation, Hafner & Poell eq. (7), with Lagrange's equations "
      "[2 c; c 1] phi'' = (2 g cos phi1 - s phi2'^2, g cos phi2 + s phi1'^2), integrated in "
      "__float128 by Gragg-Bulirsch-Stoer extrapolation (order 20) and confirmed by 12-stage "
      "Gauss-Legendre collocation: 26 digits agree, 22 given (refsol/dpendulum_ref.c, "
      "refsol/dpendulum.txt); not published in the test set";
  mbdae_problem_info_names(info, 0, NEQ, component_names);
}

/* Both links horizontal, at rest: F1 = F2 = 0, and both masses start in free fall, vy' = g. */
static int init(const void *params, double *y0, double *yp0)
{
  const dpendulum_params *p = params;
  for (int i = 0; i < NEQ; i++) {
    y0[i] = 0.0;
    yp0[i] = 0.0;
  }
  y0[X1] = 1.0;
  y0[X2] = 2.0;
  yp0[VY1] = p->g;
  yp0[VY2] = p->g;
  return 0;
}

static int res(const void *params, double t, const double *y, const double *yp, double *r)
{
  const dpendulum_params *p = params;
  (void)t;
  double dx = y[X1] - y[X2], dy = y[Y1] - y[Y2];
  for (int i = 0; i < VEL; i++) {
    r[POS + i] = yp[POS + i] - y[VEL + i];
  }
  r[VX1] = yp[VX1] + y[F1] * y[X1] + y[F2] * dx;
  r[VY1] = yp[VY1] - p->g + y[F1] * y[Y1] + y[F2] * dy;
  r[VX2] = yp[VX2] - y[F2] * dx;
  r[VY2] = yp[VY2] - p->g - y[F2] * dy;
  r[LAM] = -(y[X1] * y[X1] + y[Y1] * y[Y1] - 1.0);
  r[LAM + 1] = -(dx * dx + dy * dy - 1.0);
  return 0;
}

static int jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
               double *dfdyp)
{
  (void)params;
  (void)t;
  (void)yp;
  if (dfdy) {
    double dx = y[X1] - y[X2], dy = y[Y1] - y[Y2];
    double f1 = y[F1], f2 = y[F2];
    for (int i = 0; i < NEQ * NEQ; i++) {
      dfdy[i] = 0.0;
    }
    for (int i = 0; i < VEL; i++) {
      MBDAE_AT(dfdy, NEQ, POS + i, VEL + i) = -1.0;
    }
    MBDAE_AT(dfdy, NEQ, VX1, X1) = f1 + f2;
    MBDAE_AT(dfdy, NEQ, VX1, X2) = -f2;
    MBDAE_AT(dfdy, NEQ, VX1, F1) = y[X1];
    MBDAE_AT(dfdy, NEQ, VX1, F2) = dx;
    MBDAE_AT(dfdy, NEQ, VY1, Y1) = f1 + f2;
    MBDAE_AT(dfdy, NEQ, VY1, Y2) = -f2;
    MBDAE_AT(dfdy, NEQ, VY1, F1) = y[Y1];
    MBDAE_AT(dfdy, NEQ, VY1, F2) = dy;
    MBDAE_AT(dfdy, NEQ, VX2, X1) = -f2;
    MBDAE_AT(dfdy, NEQ, VX2, X2) = f2;
    MBDAE_AT(dfdy, NEQ, VX2, F2) = -dx;
    MBDAE_AT(dfdy, NEQ, VY2, Y1) = -f2;
    MBDAE_AT(dfdy, NEQ, VY2, Y2) = f2;
    MBDAE_AT(dfdy, NEQ, VY2, F2) = -dy;
    MBDAE_AT(dfdy, NEQ, LAM, X1) = -2.0 * y[X1];
    MBDAE_AT(dfdy, NEQ, LAM, Y1) = -2.0 * y[Y1];
    MBDAE_AT(dfdy, NEQ, LAM + 1, X1) = -2.0 * dx;
    MBDAE_AT(dfdy, NEQ, LAM + 1, X2) = 2.0 * dx;
    MBDAE_AT(dfdy, NEQ, LAM + 1, Y1) = -2.0 * dy;
    MBDAE_AT(dfdy, NEQ, LAM + 1, Y2) = 2.0 * dy;
  }
  if (dfdyp) {
    for (int i = 0; i < NEQ * NEQ; i++) {
      dfdyp[i] = 0.0;
    }
    for (int i = 0; i < LAM; i++) {
      MBDAE_AT(dfdyp, NEQ, i, i) = 1.0;
    }
  }
  return 0;
}

/* y(10), refsol/dpendulum.txt (quad GBS, confirmed by Gauss-Legendre on 26 digits, 22 given). */
static int ref(const void *params, double *yref)
{
  static const double yend[NEQ] = {
      -5.383472396122263907340e-01, /* x1 */
      8.427231156209589249551e-01,  /* y1 */
      -1.040765783246170486107e+00, /* x2 */
      1.707347662469327446982e+00,  /* y2 */
      5.122395448872669515105e+00,  /* vx1 */
      3.272281724550631830912e+00,  /* vy1 */
      -3.248346643425481938019e+00, /* vx2 */
      -1.591813409548471224231e+00, /* vy2 */
      1.837483319083169241637e+02,  /* F1 */
      1.386572046574905243964e+02,  /* F2 */
  };
  (void)params;
  for (int i = 0; i < NEQ; i++) {
    yref[i] = yend[i];
  }
  return 0;
}

static int constraints(const void *params, double t, const double *y, const double *yp,
                       double *gpos, double *gvel, double *gacc)
{
  (void)params;
  (void)t;
  double dx = y[X1] - y[X2], dy = y[Y1] - y[Y2];
  double dvx = y[VX1] - y[VX2], dvy = y[VY1] - y[VY2];
  if (gpos) {
    gpos[0] = y[X1] * y[X1] + y[Y1] * y[Y1] - 1.0;
    gpos[1] = dx * dx + dy * dy - 1.0;
  }
  if (gvel) {
    gvel[0] = 2.0 * (y[X1] * y[VX1] + y[Y1] * y[VY1]);
    gvel[1] = 2.0 * (dx * dvx + dy * dvy);
  }
  if (gacc) {
    double dax = yp[VX1] - yp[VX2], day = yp[VY1] - yp[VY2];
    gacc[0] = 2.0 * (y[VX1] * y[VX1] + y[VY1] * y[VY1] + y[X1] * yp[VX1] + y[Y1] * yp[VY1]);
    gacc[1] = 2.0 * (dvx * dvx + dvy * dvy + dx * dax + dy * day);
  }
  return 0;
}

const problem_type mbdae_problem_dpendulum = {
    .id = "dpendulum",
    .title = "Double pendulum (Cartesian coordinates)",
    .t0 = 0.0,
    .tend = 10.0, /* DESIGN.md: the paper runs 100 s, but the motion is chaotic */
    .tolerances = {.m_div = 4,
                   .m_max = 24,
                   .h0_factor = 1.0,
                   .ntable = 3,
                   .table_rtol = {1e-4, 1e-7, 1e-10},
                   .default_rtol = 1e-7},
    .params_size = sizeof(dpendulum_params),
    .options_help = "",
    .set_defaults = set_defaults,
    .set_option = NULL,
    .format_options = NULL,
    .describe = describe,
    .init = init,
    .res = res,
    .jac = jac,
    .ref = ref,
    .constraints = constraints,
};
