/* The pendulum reference: the exact solution of Hafner & Poell, eq. (1), in Jacobi elliptic
 * functions, evaluated in quadruple precision (__float128, libquadmath).
 *
 * The DAE (problems/pendulum.c): x' = vx, y' = vy, vx' = -F x, vy' = g - F y, x^2 + y^2 = 1,
 * y pointing down, unit mass and length, g = 9.81, at rest at (x, y) = (1, 0) at t = 0.
 * With theta the angle from the downward vertical, x = sin theta, y = cos theta and
 * theta'' = -g sin theta, theta(0) = pi/2, theta'(0) = 0.  The classical solution is
 *   sin(theta/2) = k cd(u, k),  u = sqrt(g) t,  k = sin(theta(0)/2) = sin(pi/4),
 * and with cd = cn/dn and 1 - k^2 cd^2 = k'^2/dn^2 (k' = cos(pi/4)):
 *   sin(theta/2) = k cn/dn,  cos(theta/2) = k'/dn,
 *   x = sin theta = 2 k k' cn/dn^2,  y = cos theta = (k'^2 - k^2 cn^2)/dn^2,
 *   theta' = -2 k k' sqrt(g) sn/dn,  (vx, vy) = theta' (y, -x).
 * Energy: |v|^2/2 - g y = 0, so |v|^2 = 2 g y; the second derivative of the constraint,
 * |v|^2 - F (x^2 + y^2) + g y = 0 (Hafner & Poell, eq. (3)), then gives F = 3 g y.
 *
 * sn, cn, dn and K(k) come from the arithmetic-geometric mean and the descending Landen
 * transformation (Abramowitz & Stegun 16.4 and 17.6), the argument reduced modulo the
 * period 4K first.  The check is independent of all of this: theta'' = -g sin theta integrated
 * in __float128 by a Taylor series method to t = 100, the Cartesian values formed from theta and
 * theta' directly (F from eq. (3) rather than from the energy). */
#include <math.h>
#include <quadmath.h>
#include <string.h>

#include "refsol.h"

typedef __float128 quad;

static const quad GRAV = 9.81Q;   /* g, Hafner & Poell; exactly 9.81, not its double rounding */
static const double TEND = 100.0; /* end of the interval, problems/pendulum.c */
enum { NEQ = 5, AGM_MAX = 40 };

/* The Taylor check: order TAYLOR_ORDER, TAYLOR_STEPS equal steps over [0, 100] (h = 1/32).
 * Its truncation error, ~(h/rho)^(order+1) with rho the distance to the nearest complex
 * singularity of theta(t), is far below the quad rounding. */
enum { TAYLOR_ORDER = 40, TAYLOR_STEPS = 3200 };

enum { X, Y, VX, VY, F };   /* offsets in y = (x, y, vx, vy, F) */
enum { PRINT_DIGITS = 22 }; /* significant digits in the data file */

typedef struct jacobi {
  quad sn, cn, dn;
} jacobi;

/* Modulus k = sin(pi/4) and complementary modulus k' = cos(pi/4): both sqrt(1/2). */
static quad modulus(void) { return sqrtq(0.5Q); }

/* K(k), sn, cn, dn of (u, k) by the AGM (A&S 16.4.1-16.4.4, 17.6.1):
 * a0 = 1, b0 = k', c0 = k; a_n = (a + b)/2, b_n = sqrt(a b), c_n = (a - b)/2 until c_N = 0;
 * K = pi / (2 a_N); phi_N = 2^N a_N u, phi_{n-1} = (phi_n + asin(c_n sin(phi_n) / a_n)) / 2;
 * sn = sin phi_0, cn = cos phi_0, dn = cos phi_0 / cos(phi_1 - phi_0). */
static quad agm_jacobi(quad u, quad k, quad kc, jacobi *out)
{
  quad a[AGM_MAX + 1], c[AGM_MAX + 1];
  quad b = kc;
  a[0] = 1;
  c[0] = k;
  int n = 0;
  while (n < AGM_MAX && fabsq(c[n]) > FLT128_EPSILON * a[n]) {
    a[n + 1] = (a[n] + b) / 2;
    c[n + 1] = (a[n] - b) / 2;
    b = sqrtq(a[n] * b);
    n++;
  }
  quad kk = M_PIq / (2 * a[n]);
  if (out) {
    quad phi = ldexpq(a[n] * u, n);
    quad phi_prev = phi;
    for (int j = n; j > 0; j--) {
      phi_prev = phi;
      phi = (phi + asinq(c[j] * sinq(phi) / a[j])) / 2;
    }
    out->sn = sinq(phi);
    out->cn = cosq(phi);
    out->dn = n > 0 ? out->cn / cosq(phi_prev - phi) : 1;
  }
  return kk;
}

/* The exact solution at t for gravity g, in quad: y = (x, y, vx, vy, F) and y'. */
static void exact_state(quad t, quad g, quad y[NEQ], quad yp[NEQ])
{
  quad k = modulus(), kc = modulus();
  quad period = 4 * agm_jacobi(0, k, kc, NULL);
  quad u = sqrtq(g) * t;
  u -= period * roundq(u / period); /* sn, cn, dn have period 4K in u */
  jacobi e;
  agm_jacobi(u, k, kc, &e);
  quad dn2 = e.dn * e.dn;
  quad thetap = -2 * k * kc * sqrtq(g) * e.sn / e.dn;
  y[X] = 2 * k * kc * e.cn / dn2;
  y[Y] = (kc * kc - k * k * e.cn * e.cn) / dn2;
  y[VX] = thetap * y[Y];
  y[VY] = -thetap * y[X];
  y[F] = 3 * g * y[Y];
  yp[X] = y[VX];
  yp[Y] = y[VY];
  yp[VX] = -y[F] * y[X];
  yp[VY] = g - y[F] * y[Y];
  yp[F] = 3 * g * y[VY];
}

/* Cartesian state from (theta, theta'), F from the acceleration-level constraint (eq. (3)). */
static void cartesian(quad theta, quad thetap, quad g, quad y[NEQ])
{
  y[X] = sinq(theta);
  y[Y] = cosq(theta);
  y[VX] = thetap * y[Y];
  y[VY] = -thetap * y[X];
  y[F] = y[VX] * y[VX] + y[VY] * y[VY] + g * y[Y];
}

/* One Taylor step of theta'' = -g sin theta.  With theta = sum a_j s^j, sin theta = sum s_j s^j
 * and cos theta = sum c_j s^j, the relations (sin theta)' = cos theta theta' and
 * (cos theta)' = -sin theta theta' give
 *   j s_j = sum_{i=1..j} i a_i c_{j-i},  j c_j = -sum_{i=1..j} i a_i s_{j-i},
 * and the equation gives (j+1)(j+2) a_{j+2} = -g s_j. */
static void taylor_step(quad *theta, quad *thetap, quad g, quad h)
{
  quad a[TAYLOR_ORDER + 1], s[TAYLOR_ORDER + 1], c[TAYLOR_ORDER + 1];
  a[0] = *theta;
  a[1] = *thetap;
  s[0] = sinq(a[0]);
  c[0] = cosq(a[0]);
  for (int j = 0; j + 2 <= TAYLOR_ORDER; j++) {
    if (j > 0) {
      quad sj = 0, cj = 0;
      for (int i = 1; i <= j; i++) {
        sj += i * a[i] * c[j - i];
        cj -= i * a[i] * s[j - i];
      }
      s[j] = sj / j;
      c[j] = cj / j;
    }
    a[j + 2] = -g * s[j] / ((j + 1) * (j + 2));
  }
  quad th = a[TAYLOR_ORDER], thp = TAYLOR_ORDER * a[TAYLOR_ORDER];
  for (int j = TAYLOR_ORDER - 1; j >= 1; j--) {
    th = th * h + a[j];
    thp = thp * h + j * a[j];
  }
  *theta = th * h + a[0];
  *thetap = thp;
}

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

void refsol_pendulum_state(double t, double y[5], double yp[5])
{
  quad qy[NEQ], qyp[NEQ];
  exact_state(t, GRAV, qy, qyp);
  for (int i = 0; i < NEQ; i++) {
    y[i] = (double)qy[i];
    yp[i] = (double)qyp[i];
  }
}

int refsol_pendulum_write(FILE *out)
{
  quad yref[NEQ], yp[NEQ];
  exact_state(TEND, GRAV, yref, yp);

  quad theta = M_PI_2q, thetap = 0, h = (quad)TEND / TAYLOR_STEPS;
  for (int n = 0; n < TAYLOR_STEPS; n++) {
    taylor_step(&theta, &thetap, GRAV, h);
  }
  quad ytaylor[NEQ];
  cartesian(theta, thetap, GRAV, ytaylor);
  double diff = max_reldiff(yref, ytaylor, NEQ);

  /* A double-precision solver integrates g = double(9.81): how far that alone moves y(100). */
  quad yg[NEQ];
  exact_state(TEND, (quad)9.81, yg, yp);

  quad k = modulus();
  char kbuf[64];
  quadmath_snprintf(kbuf, sizeof kbuf, "%.30Qf", agm_jacobi(0, k, k, NULL));

  int written =
      fprintf(out,
              "# Pendulum (Hafner & Poell, eq. (1)), n = 5, t in [0, 100];\n"
              "# spec: pendulum:form=index3\n"
              "# y = (x, y, vx, vy, F), y pointing down, unit mass and length, g = 9.81;\n"
              "# y0 = (1, 0, 0, 0, 0).\n"
              "# Reference at t = 100: the exact solution, theta the angle from the downward\n"
              "# vertical: sin(theta/2) = k cd(sqrt(g) t, k), k = sin(pi/4); x = sin theta,\n"
              "# y = cos theta, (vx, vy) = theta' (y, -x),\n"
              "# theta' = -2 k k' sqrt(g) sd(sqrt(g) t, k), F = 3 g y.\n"
              "# Evaluated in __float128 (113-bit mantissa, libquadmath): sn, cn, dn and\n"
              "# K(k) = %s by the AGM / descending Landen\n"
              "# transformation (A&S 16.4, 17.6), the argument reduced modulo 4K.\n"
              "# Check: theta'' = -g sin theta integrated in __float128 by a Taylor series method\n"
              "# of order %d, %d steps of 1/32, F from the constraint |v|^2 - F + g y = 0:\n"
              "# largest relative difference %.1e.  Digits confirmed: %d (%d printed).\n"
              "# g is exactly 9.81; g = double(9.81) would move these values by up to %.1e\n"
              "# relative.\n"
              "# Generated by refsol/pendulum_ref.c (`mbdae refsol pendulum`).\n"
              "[yref]\n",
              kbuf, TAYLOR_ORDER, TAYLOR_STEPS, diff, (int)floor(-log10(diff)), PRINT_DIGITS,
              max_reldiff(yref, yg, NEQ));
  int rc = written < 0;
  for (int i = 0; i < NEQ; i++) {
    char buf[64];
    quadmath_snprintf(buf, sizeof buf, "%.*Qe", PRINT_DIGITS - 1, yref[i]);
    rc |= fprintf(out, "%3d  %s\n", i + 1, buf) < 0;
  }
  return rc ? -1 : 0;
}

void refsol_pendulum_trajectory(int nintervals, refsol_traj *out)
{
  quad theta = M_PI_2q, thetap = 0, diff[NEQ] = {0}, largest[NEQ] = {0};
  long steps = (TAYLOR_STEPS + nintervals - 1) / nintervals; /* Taylor steps per interval */
  memset(out->agree_rel, 0, sizeof(double) * NEQ);
  for (int k = 0; k <= nintervals; k++) {
    quad exact[NEQ], yp[NEQ], taylor[NEQ];
    out->t[k] = TEND * k / nintervals;
    for (long s = 0; k > 0 && s < steps; s++) {
      taylor_step(&theta, &thetap, GRAV, (quad)TEND / nintervals / steps);
    }
    exact_state(out->t[k], GRAV, exact, yp);
    cartesian(theta, thetap, GRAV, taylor);
    for (int i = 0; i < NEQ; i++) {
      quad d = fabsq(exact[i] - taylor[i]);
      double rel = d == 0 || exact[i] == 0 ? 0.0 : (double)(d / fabsq(exact[i]));
      out->y[(size_t)k * NEQ + i] = (double)exact[i];
      out->agree_rel[i] = rel > out->agree_rel[i] ? rel : out->agree_rel[i];
      diff[i] = d > diff[i] ? d : diff[i];
      largest[i] = fabsq(exact[i]) > largest[i] ? fabsq(exact[i]) : largest[i];
    }
  }
  for (int i = 0; i < NEQ; i++) {
    out->agree_scaled[i] = largest[i] > 0 ? (double)(diff[i] / largest[i]) : 0.0;
  }
}
