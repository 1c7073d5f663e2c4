/* The double pendulum reference: Hafner & Poell, eq. (6), at t = 10, computed in quadruple
 * precision (__float128, libquadmath) from the angle (state-space) formulation, eq. (7).
 *
 * Unit masses and lengths, gravity g = 9.81 along +y:
 *   x1 = cos phi1, y1 = sin phi1, x2 = x1 + cos phi2, y2 = y1 + sin phi2,  eta_i = phi_i'.
 * T = eta1^2 + eta2^2/2 + c eta1 eta2 and V = -g (2 sin phi1 + sin phi2), c = cos(phi1 - phi2),
 * s = sin(phi1 - phi2); Lagrange's equations are
 *   [2 c; c 1] (eta1', eta2') = (2 g cos phi1 - s eta2^2,  g cos phi2 + s eta1^2).
 * The multipliers follow from the Cartesian equations: projecting the acceleration of mass 2 on
 * the unit link e2 = (cos phi2, sin phi2) gives a2.e2 = -F2 + g sin phi2, projecting that of mass
 * 1 on e1 gives a1.e1 = -F1 + F2 c + g sin phi1, and with a1.e1 = -eta1^2,
 * a2.e2 = -eta1' s - eta1^2 c - eta2^2:
 *   F2 = g sin phi2 + s eta1' + c eta1^2 + eta2^2,   F1 = c F2 + g sin phi1 + eta1^2.
 * At rest with both links horizontal (phi = 0, eta = 0) this gives eta' = (g, 0), F = 0, i.e. the
 * y0, yp0 of problems/dpendulum.c.
 *
 * Two independent integrations of the same ODE in __float128:
 * 1. Gragg-Bulirsch-Stoer extrapolation (Hairer, Norsett & Wanner, Solving ODEs I, II.9): the
 *    modified midpoint rule with the step numbers 2, 4, 6, ..., 2 GBS_STAGES, Aitken-Neville
 *    extrapolation in h^2, fixed macro steps.
 * 2. Gauss-Legendre collocation with GL_STAGES stages (order 2 GL_STAGES, Hairer, Lubich & Wanner,
 *    Geometric Numerical Integration, II.1.3), nodes by Newton's method on the Legendre polynomial
 *    in quad, coefficients a_ij = int_0^{c_i} l_j by Gauss quadrature, stage equations solved by
 *    fixed-point iteration to quad rounding.
 * The motion is chaotic, so the agreement of the two, stated in the output, is the measure of the
 * digits that can be trusted. */
#include <math.h>
#include <quadmath.h>
#include <string.h>

#include "refsol.h"

typedef __float128 quad;

static const quad GRAV = 9.81Q;  /* g, Hafner & Poell; exactly 9.81 */
static const double TEND = 10.0; /* end of the interval, problems/dpendulum.c */

enum { PHI1, PHI2, ETA1, ETA2, NSTATE };                  /* the angle formulation */
enum { X1, Y1, X2, Y2, VX1, VY1, VX2, VY2, F1, F2, NEQ }; /* problems/dpendulum.c */

enum { PRINT_DIGITS = 22 }; /* significant digits in the data file */

/* Step numbers 2, 4, ..., 20 (order 20) over 2000 macro steps, and 12 Gauss points (order 24)
 * over 1000 steps: more stages or larger steps gain nothing in quad, the GBS result being limited
 * by rounding in the extrapolation (both measured against each other and against step halving). */
enum { GBS_STAGES = 10, GBS_STEPS = 2000 };
enum { GL_STAGES = 12, GL_STEPS = 1000, GL_MAX_ITER = 200 };

/* Angular accelerations from Lagrange's equations (see the header comment). */
static void accelerations(quad g, const quad z[NSTATE], quad *acc1, quad *acc2)
{
  quad c = cosq(z[PHI1] - z[PHI2]), s = sinq(z[PHI1] - z[PHI2]);
  quad r1 = 2 * g * cosq(z[PHI1]) - s * z[ETA2] * z[ETA2];
  quad r2 = g * cosq(z[PHI2]) + s * z[ETA1] * z[ETA1];
  quad det = 2 - c * c;
  *acc1 = (r1 - c * r2) / det;
  *acc2 = (2 * r2 - c * r1) / det;
}

static void rhs(quad g, const quad z[NSTATE], quad dz[NSTATE])
{
  dz[PHI1] = z[ETA1];
  dz[PHI2] = z[ETA2];
  accelerations(g, z, &dz[ETA1], &dz[ETA2]);
}

/* The Cartesian state (x1, y1, x2, y2, vx1, vy1, vx2, vy2, F1, F2) of an angle state. */
static void cartesian(quad g, const quad z[NSTATE], quad y[NEQ])
{
  quad c1 = cosq(z[PHI1]), s1 = sinq(z[PHI1]), c2 = cosq(z[PHI2]), s2 = sinq(z[PHI2]);
  quad c = cosq(z[PHI1] - z[PHI2]), s = sinq(z[PHI1] - z[PHI2]);
  quad acc1, acc2;
  accelerations(g, z, &acc1, &acc2);
  y[X1] = c1;
  y[Y1] = s1;
  y[X2] = c1 + c2;
  y[Y2] = s1 + s2;
  y[VX1] = -z[ETA1] * s1;
  y[VY1] = z[ETA1] * c1;
  y[VX2] = y[VX1] - z[ETA2] * s2;
  y[VY2] = y[VY1] + z[ETA2] * c2;
  y[F2] = g * s2 + s * acc1 + c * z[ETA1] * z[ETA1] + z[ETA2] * z[ETA2];
  y[F1] = c * y[F2] + g * s1 + z[ETA1] * z[ETA1];
}

/* Energy T + V, conserved (0 at the start): a by-product check of each integration. */
static quad energy(quad g, const quad z[NSTATE])
{
  quad c = cosq(z[PHI1] - z[PHI2]);
  return z[ETA1] * z[ETA1] + z[ETA2] * z[ETA2] / 2 + c * z[ETA1] * z[ETA2] -
         g * (2 * sinq(z[PHI1]) + sinq(z[PHI2]));
}

/* ---- 1. Gragg-Bulirsch-Stoer --------------------------------------------------------------- */

/* The modified midpoint rule over [0, H] with n substeps (n even): its result has an asymptotic
 * expansion in even powers of H/n (Gragg). */
static void midpoint(quad g, const quad y0[NSTATE], quad big_h, int n, quad out[NSTATE])
{
  quad h = big_h / n, prev[NSTATE], cur[NSTATE], f[NSTATE];
  memcpy(prev, y0, sizeof prev);
  rhs(g, prev, f);
  for (int i = 0; i < NSTATE; i++) {
    cur[i] = prev[i] + h * f[i];
  }
  for (int m = 1; m < n; m++) {
    rhs(g, cur, f);
    for (int i = 0; i < NSTATE; i++) {
      quad next = prev[i] + 2 * h * f[i];
      prev[i] = cur[i];
      cur[i] = next;
    }
  }
  memcpy(out, cur, sizeof cur);
}

/* One macro step: T_{j,1} from n_j = 2 j substeps, T_{j,l+1} = T_{j,l} + (T_{j,l} - T_{j-1,l}) /
 * ((n_j / n_{j-l})^2 - 1); the new value is T_{k,k}. */
static void gbs_step(quad g, quad z[NSTATE], quad big_h)
{
  quad table[GBS_STAGES][NSTATE];
  for (int j = 0; j < GBS_STAGES; j++) {
    midpoint(g, z, big_h, 2 * (j + 1), table[j]);
    for (int l = j - 1; l >= 0; l--) {
      quad ratio = (quad)(j + 1) / (l + 1);
      for (int i = 0; i < NSTATE; i++) {
        table[l][i] = table[l + 1][i] + (table[l + 1][i] - table[l][i]) / (ratio * ratio - 1);
      }
    }
  }
  memcpy(z, table[0], sizeof table[0]);
}

/* ---- 2. Gauss-Legendre collocation --------------------------------------------------------- */

typedef struct gauss {
  quad c[GL_STAGES];            /* nodes in (0, 1) */
  quad b[GL_STAGES];            /* weights */
  quad a[GL_STAGES][GL_STAGES]; /* a[i][j] = int_0^{c_i} l_j(t) dt */
} gauss;

/* P_n(x) and P_n'(x) by the three-term recurrence. */
static void legendre(int n, quad x, quad *p, quad *dp)
{
  quad p0 = 1, p1 = x;
  for (int k = 2; k <= n; k++) {
    quad p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  *p = p1;
  *dp = n * (x * p1 - p0) / (x * x - 1);
}

/* The Lagrange basis polynomial l_j of the nodes at t. */
static quad lagrange(const quad *c, int j, quad t)
{
  quad l = 1;
  for (int m = 0; m < GL_STAGES; m++) {
    if (m != j) {
      l *= (t - c[m]) / (c[j] - c[m]);
    }
  }
  return l;
}

static void gauss_init(gauss *gl)
{
  for (int i = 0; i < GL_STAGES; i++) {
    /* Newton on P_s from the classical estimate of the i-th root on [-1, 1]. */
    quad x = cosq(M_PIq * (GL_STAGES - i - 0.25Q) / (GL_STAGES + 0.5Q));
    quad p, dp;
    for (int it = 0; it < 100; it++) {
      legendre(GL_STAGES, x, &p, &dp);
      quad dx = p / dp;
      x -= dx;
      if (fabsq(dx) <= FLT128_EPSILON * 0.5Q) {
        break;
      }
    }
    legendre(GL_STAGES, x, &p, &dp);
    gl->c[i] = (1 + x) / 2;
    gl->b[i] = 1 / ((1 - x * x) * dp * dp); /* half the weight on [-1, 1] */
  }
  /* l_j has degree s - 1, so the s-point Gauss rule on [0, c_i] integrates it exactly. */
  for (int i = 0; i < GL_STAGES; i++) {
    for (int j = 0; j < GL_STAGES; j++) {
      quad sum = 0;
      for (int m = 0; m < GL_STAGES; m++) {
        sum += gl->b[m] * lagrange(gl->c, j, gl->c[i] * gl->c[m]);
      }
      gl->a[i][j] = gl->c[i] * sum;
    }
  }
}

/* One collocation step: stage derivatives K_i = f(z + h sum_j a_ij K_j) by fixed-point
 * iteration until they stop changing, then z += h sum_i b_i K_i. */
static void gl_step(const gauss *gl, quad g, quad z[NSTATE], quad h)
{
  quad k[GL_STAGES][NSTATE], knew[GL_STAGES][NSTATE], stage[NSTATE];
  rhs(g, z, k[0]);
  for (int i = 1; i < GL_STAGES; i++) {
    memcpy(k[i], k[0], sizeof k[0]);
  }
  for (int it = 0; it < GL_MAX_ITER; it++) {
    quad change = 0, size = 0;
    for (int i = 0; i < GL_STAGES; i++) {
      for (int n = 0; n < NSTATE; n++) {
        quad sum = 0;
        for (int j = 0; j < GL_STAGES; j++) {
          sum += gl->a[i][j] * k[j][n];
        }
        stage[n] = z[n] + h * sum;
      }
      rhs(g, stage, knew[i]);
      for (int n = 0; n < NSTATE; n++) {
        change = fmaxq(change, fabsq(knew[i][n] - k[i][n]));
        size = fmaxq(size, fabsq(knew[i][n]));
      }
    }
    memcpy(k, knew, sizeof k);
    if (change <= 4 * FLT128_EPSILON * size) {
      break;
    }
  }
  for (int n = 0; n < NSTATE; n++) {
    quad sum = 0;
    for (int i = 0; i < GL_STAGES; i++) {
      sum += gl->b[i] * k[i][n];
    }
    z[n] += h * sum;
  }
}

/* ---- the data file ------------------------------------------------------------------------- */

/* The largest relative difference between a and b, component by component. */
static double max_reldiff(const quad *a, const quad *b, int n)
{
  quad worst = 0;
  for (int i = 0; i < n; i++) {
    quad d = fabsq(a[i] - b[i]) / fabsq(a[i]);
    if (d > worst) {
      worst = d;
    }
  }
  return (double)worst;
}

/* The GBS solution at TEND for gravity g, in angle variables. */
static void integrate_gbs(quad g, quad z[NSTATE])
{
  z[PHI1] = z[PHI2] = z[ETA1] = z[ETA2] = 0; /* both links horizontal, at rest */
  for (int n = 0; n < GBS_STEPS; n++) {
    gbs_step(g, z, (quad)TEND / GBS_STEPS);
  }
}

/* The Gauss-Legendre solution at TEND, in angle variables. */
static void integrate_gl(quad g, quad z[NSTATE])
{
  gauss gl;
  gauss_init(&gl);
  z[PHI1] = z[PHI2] = z[ETA1] = z[ETA2] = 0;
  for (int n = 0; n < GL_STEPS; n++) {
    gl_step(&gl, g, z, (quad)TEND / GL_STEPS);
  }
}

int refsol_dpendulum_write(FILE *out)
{
  quad zgbs[NSTATE], zgl[NSTATE], zg[NSTATE];
  integrate_gbs(GRAV, zgbs);
  integrate_gl(GRAV, zgl);
  /* A double-precision solver integrates g = double(9.81): how far that alone moves y(10). */
  integrate_gbs((quad)9.81, zg);

  quad yref[NEQ], ycheck[NEQ], yg[NEQ];
  cartesian(GRAV, zgbs, yref);
  cartesian(GRAV, zgl, ycheck);
  cartesian((quad)9.81, zg, yg);
  double diff = max_reldiff(yref, ycheck, NEQ);

  int written = fprintf(
      out,
      "# Double pendulum (Hafner & Poell, eq. (6)), n = 10, t in [0, 10];\n"
      "# spec: dpendulum:form=index3\n"
      "# y = (x1, y1, x2, y2, vx1, vy1, vx2, vy2, F1, F2), y pointing down, unit masses and\n"
      "# lengths, g = 9.81; y0 = (1, 0, 2, 0, 0, 0, 0, 0, 0, 0): both links horizontal,\n"
      "# at rest.\n"
      "# Reference at t = 10 from the angle formulation (eq. (7)): x1 = cos phi1,\n"
      "# y1 = sin phi1, x2 = x1 + cos phi2, y2 = y1 + sin phi2; with c = cos(phi1 - phi2),\n"
      "# s = sin(phi1 - phi2):\n"
      "#   [2 c; c 1] (phi1'', phi2'') = (2 g cos phi1 - s phi2'^2, g cos phi2 + s phi1'^2),\n"
      "#   F2 = g sin phi2 + s phi1'' + c phi1'^2 + phi2'^2,\n"
      "#   F1 = c F2 + g sin phi1 + phi1'^2.\n"
      "# Integrated in __float128 (113-bit mantissa, libquadmath) by Gragg-Bulirsch-Stoer\n"
      "# extrapolation: modified midpoint rule with 2, 4, ..., %d substeps, extrapolated\n"
      "# in h^2 (order %d), %d fixed macro steps.\n"
      "# Check: Gauss-Legendre collocation in __float128, %d stages (order %d), nodes by\n"
      "# Newton's method in quad, %d fixed steps: largest relative difference %.1e.\n"
      "# Digits confirmed: %d (%d printed).\n"
      "# Energy T + V (0 at t = 0) at t = 10: %.1e (GBS), %.1e (Gauss-Legendre).\n"
      "# The motion is chaotic: g = double(9.81) instead of 9.81 moves these values by up\n"
      "# to %.1e relative.\n"
      "# Generated by refsol/dpendulum_ref.c (`mbdae refsol dpendulum`).\n"
      "[yref]\n",
      2 * GBS_STAGES, 2 * GBS_STAGES, GBS_STEPS, GL_STAGES, 2 * GL_STAGES, GL_STEPS, diff,
      (int)floor(-log10(diff)), PRINT_DIGITS, (double)energy(GRAV, zgbs), (double)energy(GRAV, zgl),
      max_reldiff(yref, yg, NEQ));
  int rc = written < 0;
  for (int i = 0; i < NEQ; i++) {
    char buf[64];
    quadmath_snprintf(buf, sizeof buf, "%.*Qe", PRINT_DIGITS - 1, yref[i]);
    rc |= fprintf(out, "%3d  %s\n", i + 1, buf) < 0;
  }
  return rc ? -1 : 0;
}
