/* The pendulum in Cartesian coordinates, an index-3 DAE of 5 equations.
 *
 * Source: I. Hafner, C. Poell, Comparison of regularisation methods referring to a
 * multi-pendulum case study, eq. (1) (spec/004): unit mass on a massless rod of unit length,
 * y pointing down, gravity g along +y:
 *   x' = vx,  y' = vy,  vx' = -F x,  vy' = g - F y,  0 = x^2 + y^2 - 1,
 * y = (x, y, vx, vy, F), F the rod force per unit length (the multiplier).  The paper starts from
 * rest at x = 1, y = 0 (F = 0); the consistent y'(0) follows from the equations.
 * Residual in the test set's form M y' - f(t, y), M = diag(1, 1, 1, 1, 0):
 *   r = (x' - vx, y' - vy, vx' + F x, vy' - g + F y, -(x^2 + y^2 - 1)).
 * Hidden constraints: g = x^2 + y^2 - 1, g' = 2 (x vx + y vy) (eq. (2) doubled),
 * g'' = 2 (vx^2 + vy^2 + x vx' + y vy'), which with the equations of motion is eq. (3) doubled.
 * Reference at t = 100: the exact solution in Jacobi elliptic functions evaluated in quadruple
 * precision, refsol/pendulum_ref.c, data in refsol/pendulum.txt. */
#include <stddef.h>

#include "dense.h"
#include "problem_type.h"

enum { X, Y, VX, VY, F, NEQ }; /* y = (x, y, vx, vy, F) */

static const double GRAV = 9.81; /* g, Hafner & Poell, section 2.1 */

typedef struct pendulum_params {
  double g; /* gravitational acceleration along +y */
} pendulum_params;

static void set_defaults(void *params)
{
  pendulum_params *p = params;
  p->g = GRAV;
}

/* y = (x, y, vx, vy, F): Hafner & Poell eq. (1) */
static const char *const component_names[NEQ] = {"x", "y", "vx", "vy", "F"};

static void describe(const void *params, problem_info *info)
{
  static const int index[NEQ] = {1, 1, 2, 2, 3}; /* positions, velocities, multiplier */
  (void)params;
  info->neq = NEQ;
  info->nconstraints = 1;
  if (!info->index) {
    return;
  }
  for (int i = 0; i < NEQ; i++) {
    info->index[i] = index[i];
    info->in_scd[i] = 1;
  }
  info->ref_source =
      "exact solution sin(theta/2) = k cd(sqrt(g) t, k), k = sin(pi/4), x = sin theta, "
      "y = cos theta, F = 3 g y, evaluated in __float128 (Jacobi functions and K(k) by the AGM, "
      "A&S 16.4, 17.6); confirmed to 31 digits by a quad Taylor-series integration of "
      "theta'' = -g sin theta; 22 digits given (refsol/pendulum_ref.c, refsol/pendulum.txt); "
      "not published in the test set";
  mbdae_problem_info_names(info, 0, NEQ, component_names);
}

/* Hafner & Poell, section 2.1: x = 1, y = 0, vx = vy = F = 0; y' from the equations. */
static int init(const void *params, double *y0, double *yp0)
{
  const pendulum_params *p = params;
  for (int i = 0; i < NEQ; i++) {
    y0[i] = 0.0;
    yp0[i] = 0.0;
  }
  y0[X] = 1.0;
  yp0[VY] = p->g; /* vy' = g - F y with F = 0 */
  return 0;
}

static int res(const void *params, double t, const double *y, const double *yp, double *r)
{
  const pendulum_params *p = params;
  (void)t;
  r[X] = yp[X] - y[VX];
  r[Y] = yp[Y] - y[VY];
  r[VX] = yp[VX] + y[F] * y[X];
  r[VY] = yp[VY] - p->g + y[F] * y[Y];
  r[F] = -(y[X] * y[X] + y[Y] * y[Y] - 1.0);
  return 0;
}

static int jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
               double *dfdyp)
{
  (void)params;
  (void)t;
  (void)yp;
  if (dfdy) {
    for (int i = 0; i < NEQ * NEQ; i++) {
      dfdy[i] = 0.0;
    }
    MBDAE_AT(dfdy, NEQ, X, VX) = -1.0;
    MBDAE_AT(dfdy, NEQ, Y, VY) = -1.0;
    MBDAE_AT(dfdy, NEQ, VX, X) = y[F];
    MBDAE_AT(dfdy, NEQ, VX, F) = y[X];
    MBDAE_AT(dfdy, NEQ, VY, Y) = y[F];
    MBDAE_AT(dfdy, NEQ, VY, F) = y[Y];
    MBDAE_AT(dfdy, NEQ, F, X) = -2.0 * y[X];
    MBDAE_AT(dfdy, NEQ, F, Y) = -2.0 * y[Y];
  }
  if (dfdyp) {
    for (int i = 0; i < NEQ * NEQ; i++) {
      dfdyp[i] = 0.0;
    }
    for (int i = X; i <= VY; i++) {
      MBDAE_AT(dfdyp, NEQ, i, i) = 1.0;
    }
  }
  return 0;
}

/* y(100), refsol/pendulum.txt (exact solution in quad; 31 digits confirmed, 22 given). */
static int ref(const void *params, double *yref)
{
  static const double yend[NEQ] = {
      1.815133514270313845424e-01,  /* x */
      9.833884803340575046828e-01,  /* y */
      -4.319536780534662456265e+00, /* vx */
      7.972979278553604469680e-01,  /* vy */
      2.894112297623131236281e+01,  /* F */
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
  if (gpos) {
    gpos[0] = y[X] * y[X] + y[Y] * y[Y] - 1.0;
  }
  if (gvel) {
    gvel[0] = 2.0 * (y[X] * y[VX] + y[Y] * y[VY]);
  }
  if (gacc) {
    gacc[0] = 2.0 * (y[VX] * y[VX] + y[VY] * y[VY] + y[X] * yp[VX] + y[Y] * yp[VY]);
  }
  return 0;
}

const problem_type mbdae_problem_pendulum = {
    .id = "pendulum",
    .title = "Pendulum (Cartesian coordinates)",
    .t0 = 0.0,
    .tend = 100.0, /* Hafner & Poell, Table 1: 100 s of simulated time */
    .tolerances = {.m_div = 4,
                   .m_max = 24,
                   .h0_factor = 1.0,
                   .ntable = 3,
                   .table_rtol = {1e-4, 1e-7, 1e-10},
                   .default_rtol = 1e-7},
    .params_size = sizeof(pendulum_params),
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
