/* The pendulum in Cartesian coordinates, as a model of the mechanical-system layer
 * (problems/mechanical.h), which generates its formulations (form=index3 is the published one).
 *
 * Source: I. Hafner, C. Poell, Comparison of regularisation methods referring to a
 * multi-pendulum case study (2015), eq. (1): unit mass on a massless rod of unit length,
 * y pointing down, gravity g along +y:
 *   x' = vx,  y' = vy,  vx' = -F x,  vy' = g - F y,  0 = x^2 + y^2 - 1,
 * y = (x, y, vx, vy, F), F the rod force per unit length (the multiplier).  The paper starts from
 * rest at x = 1, y = 0 (F = 0); the consistent y'(0) follows from the equations.
 * As a model: q = (x, y), M = I, f = (0, g), W^T F = F (x, y) (W = G/2, since
 * g = x^2 + y^2 - 1 is kept as the paper states it, G = (2x, 2y)); the index-3 residual is
 *   r = (x' - vx, y' - vy, vx' + F x, vy' - g + F y, -(x^2 + y^2 - 1)).
 * Hidden constraints: g = x^2 + y^2 - 1, g' = 2 (x vx + y vy) (eq. (2) doubled),
 * g'' = 2 (vx^2 + vy^2 + x ax + y ay), which with the equations of motion is eq. (3) doubled
 * (the index-1 form's row).
 * State space (eq. (5)): x = cos phi, y = sin phi, phi' = eta, eta' = g cos phi; from a
 * Cartesian state phi = atan2(y, x), eta = x vy - y vx (the pendulum swings between phi = 0 and
 * pi, so atan2 needs no unwrapping).
 * Reference at t = 100: the exact solution in Jacobi elliptic functions evaluated in quadruple
 * precision, refsol/pendulum_ref.c, data in refsol/pendulum.txt. */
#include <math.h>
#include <stddef.h>

#include "mechanical.h"

/* Defined at the end of this file (its model names it); listed in src/harness/problem_list.c. */
extern const problem_type mbdae_problem_pendulum;

enum { NQ = 2, NC = 1, X = 0, Y = 1 }; /* q = (x, y), one constraint */

static const double GRAV = 9.81; /* g, Hafner & Poell, section 2.1 */

typedef struct pendulum_params {
  mech_params mech; /* first: the layer's view */
  double g;         /* gravitational acceleration along +y */
} pendulum_params;

static double grav(const void *par) { return ((const pendulum_params *)par)->g; }

/* R = a + F q - (0, g) */
static int dyn(const void *par, double t, const double *q, const double *v, const double *a,
               const double *lam, double *r)
{
  (void)t;
  (void)v;
  r[X] = a[X] + lam[0] * q[X];
  r[Y] = a[Y] - grav(par) + lam[0] * q[Y];
  return 0;
}

static void identity2(double *m, double d)
{
  m[0] = m[3] = d;
  m[1] = m[2] = 0.0;
}

static int dyn_jac(const void *par, double t, const double *q, const double *v, const double *a,
                   const double *lam, double *rq, double *rv, double *mass)
{
  (void)par, (void)t, (void)q, (void)v, (void)a;
  if (rq) {
    identity2(rq, lam[0]);
  }
  if (rv) {
    identity2(rv, 0.0);
  }
  if (mass) {
    identity2(mass, 1.0);
  }
  return 0;
}

static int reaction(const void *par, double t, const double *q, const double *lam, double *wtl,
                    double *wt, double *wtlq, double *wtlt)
{
  (void)par, (void)t;
  for (int i = 0; i < NQ; i++) {
    if (wtl) {
      wtl[i] = lam[0] * q[i];
    }
    if (wt) {
      wt[i] = q[i];
    }
    if (wtlt) {
      wtlt[i] = 0.0;
    }
  }
  if (wtlq) {
    identity2(wtlq, lam[0]);
  }
  return 0;
}

static int con(const void *par, double t, const double *q, double *g, double *gq)
{
  (void)par, (void)t;
  if (g) {
    g[0] = q[X] * q[X] + q[Y] * q[Y] - 1.0;
  }
  if (gq) {
    gq[0] = 2.0 * q[X];
    gq[1] = 2.0 * q[Y];
  }
  return 0;
}

static int con_vel(const void *par, double t, const double *q, const double *v, double *gv,
                   double *gvq)
{
  (void)par, (void)t;
  if (gv) {
    gv[0] = 2.0 * (q[X] * v[X] + q[Y] * v[Y]);
  }
  if (gvq) {
    gvq[0] = 2.0 * v[X];
    gvq[1] = 2.0 * v[Y];
  }
  return 0;
}

static int con_acc(const void *par, double t, const double *q, const double *v, const double *a,
                   double *ga, double *gaq, double *gav)
{
  (void)par, (void)t;
  if (ga) {
    ga[0] = 2.0 * (v[X] * v[X] + v[Y] * v[Y] + q[X] * a[X] + q[Y] * a[Y]);
  }
  if (gaq) {
    gaq[0] = 2.0 * a[X];
    gaq[1] = 2.0 * a[Y];
  }
  if (gav) {
    gav[0] = 4.0 * v[X];
    gav[1] = 4.0 * v[Y];
  }
  return 0;
}

/* Hafner & Poell, section 2.1: x = 1, y = 0, vx = vy = F = 0; a = (0, g) from the equations. */
static int init(const void *par, double *q, double *v, double *a, double *lam)
{
  q[X] = 1.0;
  q[Y] = 0.0;
  v[X] = v[Y] = 0.0;
  a[X] = 0.0;
  a[Y] = grav(par);
  lam[0] = 0.0;
  return 0;
}

/* y(100), refsol/pendulum.txt (exact solution in quad; 31 digits confirmed, 22 given). */
static int ref(const void *par, double *q, double *v, double *lam)
{
  (void)par;
  q[X] = 1.815133514270313845424e-01;
  q[Y] = 9.833884803340575046828e-01;
  v[X] = -4.319536780534662456265e+00;
  v[Y] = 7.972979278553604469680e-01;
  lam[0] = 2.894112297623131236281e+01;
  return 0;
}

/* eq. (5): phi'' = g cos phi */
static int ssf_acc(const void *par, double t, const double *z, const double *w, double *acc,
                   double *accz, double *accw)
{
  (void)t, (void)w;
  if (acc) {
    acc[0] = grav(par) * cos(z[0]);
  }
  if (accz) {
    accz[0] = -grav(par) * sin(z[0]);
  }
  if (accw) {
    accw[0] = 0.0;
  }
  return 0;
}

static int ssf_from_cartesian(const void *par, const double *q, const double *v, double *z,
                              double *w)
{
  (void)par;
  z[0] = atan2(q[Y], q[X]);
  w[0] = q[X] * v[Y] - q[Y] * v[X];
  return 0;
}

/* x = cos phi, y = sin phi (unit length), differentiated twice. */
static int ssf_to_cartesian(const void *par, const double *z, const double *w, const double *wdot,
                            double *q, double *v, double *a)
{
  (void)par;
  double c = cos(z[0]), s = sin(z[0]);
  q[X] = c;
  q[Y] = s;
  if (v) {
    v[X] = -s * w[0];
    v[Y] = c * w[0];
  }
  if (a) {
    a[X] = -s * wdot[0] - c * w[0] * w[0];
    a[Y] = c * wdot[0] - s * w[0] * w[0];
  }
  return 0;
}

static const char *const ssf_names[2] = {"phi", "eta"};
static const mech_ssf pendulum_ssf = {1,    ssf_names,       ssf_acc, ssf_from_cartesian,
                                      NULL, ssf_to_cartesian};

/* y = (x, y, vx, vy, F): Hafner & Poell eq. (1) */
static const char *const component_names[2 * NQ + NC] = {"x", "y", "vx", "vy", "F"};

/* refsol/pendulum_traj.txt: the exact solution, whose last row is ref's. */
static const ref_traj *traj(const void *par)
{
  (void)par;
  return &mbdae_traj_pendulum;
}

static const mech_model pendulum_model = {
    .type = &mbdae_problem_pendulum,
    .nq = NQ,
    .nc = NC,
    .names = component_names,
    .in_scd = NULL,
    .ref_source =
        "exact solution sin(theta/2) = k cd(sqrt(g) t, k), k = sin(pi/4), x = sin theta, "
        "y = cos theta, F = 3 g y, evaluated in __float128 (Jacobi functions and K(k) by the AGM, "
        "A&S 16.4, 17.6); confirmed to 31 digits by a quad Taylor-series integration of "
        "theta'' = -g sin theta; 22 digits given (refsol/pendulum_ref.c, refsol/pendulum.txt); "
        "not published in the test set",
    .dyn = dyn,
    .dyn_jac = dyn_jac,
    .reaction = reaction,
    .con = con,
    .con_vel = con_vel,
    .con_acc = con_acc,
    .init = init,
    .ref = ref,
    .traj = traj,
    .ssf = &pendulum_ssf,
    .dummy = 1,
};

static void set_defaults(void *params)
{
  pendulum_params *p = params;
  mbdae_mech_defaults(&p->mech, &pendulum_model);
  p->g = GRAV;
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
    .options_help = MECH_OPTIONS_HELP_DUMMY,
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
