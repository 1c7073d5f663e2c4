/* The wheelset: a railway wheelset running on a straight track, an index-2 implicit DAE of
 * dimension 17 (Test Set for IVP Solvers, release 2.4, problem file wheel.f, "Wheelset"; B.
 * Simeon, C. Fuehrer, P. Rentrop, "Introduction to differential-algebraic equations in vehicle
 * system dynamics", Surv. Math. Ind. 1 (1991) 1-37; creep forces after A. Jaschinski, DLR-FB
 * 90-06, Koeln 1990).
 *
 * y = (p, v, beta, q, lambda): p = (x, y, z, theta, phi) the lateral, vertical and longitudinal
 * displacement and the yaw and roll angles of the wheelset, v = p', beta the perturbation of
 * the rotation about the axle, q the two contact points (angle psi and lateral position xi on
 * the wheel profile: q1, q2 of the contact wheel.f calls right, at xi < 0, q3, q4 of its left
 * one; wheel.f reaches its routine's order (p, v, beta, lambda, q_L, q_R) by interchanging
 * them), lambda the forces of the two contact constraints (scaled by 1e4 in the equations).
 * The residual, in the test set's form:
 *   rows 1-5    p' - v
 *   rows 6-8    m_R v_{1..3}' - f_{1..3}(p, v, beta, q, lambda)
 *   row 9       I_2 cos(phi) v_4' - f_4,   row 10  I_2 v_5' - f_5,
 *   row 11      I_1 sin(phi) v_4' + I_1 beta' - f_6      (Newton's and Euler's laws)
 *   rows 12-13  -(G_L v, G_R v)       the contact condition at velocity level (index 2)
 *   rows 14-17  -g_2(p, q)            the contact points: the normals of wheel and rail are
 *                                     parallel (index 1)
 * with G = (r_g'(x_g), -1, 0, G_4, G_5) the Jacobian of the contact condition
 * r_g(x_g) - y - xi sin(phi) + r(xi) cos(phi) cos(psi) (wheel.f's constm), a conical wheel
 * r(xi) = r_0 + tan(delta_0) (a - |xi|) and a circular rail.  The forces are those of wheel.f:
 * the normal forces from the multipliers through the contact angles, the creep forces of
 * Kalker's linear theory saturated by tanh (Jaschinski) on the contact ellipses of Hertz, and
 * the suspension springs c_x, c_z.  The test set's straight track (no curvature s, cant alpha,
 * propulsion F_A, L_A; wheel.f sets them to 0) is coded without those terms, which vanish
 * exactly there.  Index: 15 variables of index 1, lambda of index 2.  Constraints: the two
 * contact conditions, the distance of wheel and rail and its derivatives (g, g', g''; see "the
 * contact conditions as constraints" below), for mbdae check and the drift of every run.
 *
 * The equations follow wheel.f term by term, in its order of operations: test_wheelset.c finds
 * the residual equal to the Fortran's printed output (tests/testset/wheelset.txt) bit for bit at
 * the published start and four random states.  Jacobian: dF/dy analytic, the residual retraced
 * in forward mode with gradients (problems/wheelset_jac.c; wheel.f has none: the test set
 * differences it), dF/dy' analytic; mbdae check finds it within its 1e-6 at all five points and
 * flags every mutated entry (test_jaccheck, test_wheelset_jac).
 *
 * Start: the published consistent values (wheel.f; deTestSet's ex_wheelset.R), residual 3.5e-15.
 * Reference at t = 10: computed here, radau5 at rtol = atol = 1e-20 (a local tolerance of 3.7e-15
 * after RADAU5's transformation), confirmed by bdf to 10.3 digits and ida to 11.5 (rtol 1e-16);
 * rounding over some 1e5 steps, carried by the solution's sensitivity, holds it to about 10
 * (refsol/wheelset.txt). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dense.h"
#include "problem_type.h"
#include "ref_traj.h"
#include "finite.h"
#include "wheelset.h"

static const wheelset_params PUBLISHED = {.mr = 16.08,
                                          .g = 9.81,
                                          .v = 30.0,
                                          .rn0 = 0.1,
                                          .li1 = 0.0605,
                                          .li2 = 0.366,
                                          .ma = 0.0,
                                          .ha = 0.2,
                                          .mu = 0.12,
                                          .xl = 0.19,
                                          .cx = 6400.0,
                                          .cz = 6400.0,
                                          .e = 1.3537956,
                                          .gg = 0.7115218,
                                          .sigma = 0.28,
                                          .gm = 7.92e10,
                                          .c11 = 4.72772197,
                                          .c22 = 4.27526987,
                                          .c23 = 1.97203505,
                                          .delta0 = 0.0262,
                                          .ar = 0.1506,
                                          .rs = 0.06,
                                          .eps = 0.00001,
                                          .b1 = 0.0,
                                          .b2 = 4.0};

/* sin and cos of the yaw theta and the roll phi */
typedef struct attitude {
  double sit, cot, sip, cop;
} attitude;

/* One wheel-rail contact (left or right), wheel.f's quantities of that side. */
typedef struct contact {
  double side;          /* +1 left, -1 right: the signs in which the two sides differ */
  double sis, cos_;     /* sin, cos of psi */
  double xr;            /* xi */
  double rx, drx;       /* wheel profile r(xi) and r'(xi) (r'' = 0: a cone) */
  double gx, dgx, d2gx; /* rail profile r_g and its derivatives at x_g */
  double g[NP];         /* the constraint's Jacobian G (wheel.f's constm) */
  double sid, cod;      /* sin, cos of the contact angle delta */
  double fn;            /* normal force */
  double t[3];          /* creep force in the nominal frame */
} contact;

/* Conical wheel (wheel.f's wheelp): r = r_0 + tan(delta_0) (a - |xi|); 1 off the profile. */
static int wheel_profile(const wheelset_params *w, contact *c)
{
  double ta = tan(w->delta0), xabs = fabs(c->xr);
  if (w->b1 >= xabs || xabs >= w->b2) {
    return 1;
  }
  c->rx = w->rn0 + ta * (w->ar - xabs);
  c->drx = copysign(1.0, c->xr) * (-ta);
  return 0;
}

/* Circular rail of radius r_s (wheel.f's railp) at x; 1 off the profile (derailment). */
static int rail_profile(const wheelset_params *w, double x, contact *c)
{
  double sir = sin(w->delta0) * w->rs, xabs = fabs(x);
  if ((w->ar + sir + w->rs - w->eps) <= xabs || (w->ar + sir - w->rs + w->eps) >= xabs) {
    return 1;
  }
  double d = xabs - w->ar - sir;
  double t = sqrt(w->rs * w->rs - d * d);
  c->gx = t - w->rn0 - cos(w->delta0) * w->rs;
  c->dgx = copysign(1.0, x) * (-xabs + w->ar + sir) / t;
  c->d2gx = -w->rs * w->rs / (t * t * t);
  return 0;
}

/* The side's profiles, G and contact angle at the state y. */
static int contact_geometry(const wheelset_params *w, const double *y, const attitude *a,
                            double side, contact *c)
{
  int first = side > 0.0 ? Q + 2 : Q; /* q = (psi_R, xi_R, psi_L, xi_L): wheel.f swaps */
  c->side = side;
  c->sis = sin(y[first]);
  c->cos_ = cos(y[first]);
  c->xr = y[first + 1];
  if (wheel_profile(w, c) != 0) {
    return 1;
  }
  double xg =
      y[0] + c->xr * a->cot * a->cop + c->rx * (a->cot * a->sip * c->cos_ - a->sit * c->sis);
  if (rail_profile(w, xg, c) != 0) {
    return 1;
  }
  c->g[0] = c->dgx;
  c->g[1] = -1.0;
  c->g[2] = 0.0;
  c->g[3] =
      c->dgx * (c->rx * (-a->cot * c->sis - c->cos_ * a->sip * a->sit) - a->cop * a->sit * c->xr);
  c->g[4] = -(c->cos_ * c->rx * a->sip) - a->cop * c->xr +
            c->dgx * (a->cop * c->cos_ * a->cot * c->rx - a->cot * a->sip * c->xr);
  double w1 = (c->drx * a->cop - a->sip * c->cos_) * a->cot + c->sis * a->sit;
  double w2 = side * (-c->drx * a->sip - c->cos_ * a->cop);
  double delta = atan(w1 / w2);
  c->sid = sin(delta);
  c->cod = cos(delta);
  return 0;
}

/* Semi-axis parameter of the contact ellipse (Hertz), cube root as wheel.f takes it. */
static double ellipse(const wheelset_params *w, const contact *c)
{
  double rr = c->rx * sqrt(1.0 + c->drx * c->drx);
  double rhog = -c->d2gx / pow(1.0 + c->dgx * c->dgx, 1.5);
  double a = 0.5 / rr, b = 0.5 * rhog; /* the cone's curvature r'' is 0 */
  double wabs = fabs(c->fn) * 3.0;
  return pow((wabs * (1.0 - w->sigma) * w->e) / (2.0 * PI8 * (a + b) * w->gm * sqrt(w->gg)),
             1.0 / 3.0);
}

/* Creep force of one contact (wheel.f's creep on the straight track): the relative velocity at
 * the contact point, the creepages, Kalker's linear law saturated by tanh at mu N. */
static void creep(const wheelset_params *w, const double *y, const attitude *a, contact *c)
{
  double omb = w->v / w->rn0 + y[BETA], xxp = y[V], yyp = y[V + 1], zzp = y[V + 2];
  double tetap = y[V + 3], phip = y[V + 4];
  double sit = sin(y[3] / c->cod), cot = cos(y[3] / c->cod), rx = c->rx, xr = c->xr;
  double sis = c->sis, cs = c->cos_, sip = a->sip, cop = a->cop;
  double k1 = -omb * rx * (sit * cs + cot * sip * sis) + xxp -
              tetap * (rx * (sit * sip * cs + cot * sis) + xr * sit * cop) -
              phip * cot * (xr * sip - rx * cop * cs);
  double k2 = omb * rx * cop * sis + yyp + phip * (xr * cop + rx * sip * cs);
  double k3 = -omb * rx * (cot * cs - sit * sip * sis) + w->v + zzp -
              tetap * (xr * cot * cop + rx * (cot * sip * cs - sit * sis)) +
              phip * sit * (xr * sip - rx * cop * cs);
  double k4 = k1 - 2.0 * xxp, k5 = k2 - 2.0 * yyp, k6 = k3 - 2.0 * zzp - 2.0 * w->v;
  double vr = 0.5 * sqrt(k4 * k4 + k5 * k5 + k6 * k6);
  double nux = (sit * k1 + cot * k3) / vr;
  double nuy = (cot * c->cod * k1 + c->side * c->sid * k2 - sit * c->cod * k3) / vr;
  double phis = (-c->side * c->sid * omb + c->cod * tetap) / vr;
  double cl = ellipse(w, c), wt = w->mu * c->fn;
  double tx = -wt * tanh(w->gm * cl * cl * w->c11 * nux / wt);
  double ty =
      -wt * tanh(w->gm * cl * cl * w->c22 * nuy / wt + w->gm * cl * cl * cl * w->c23 * phis / wt);
  double sqt = sqrt(tx * tx + ty * ty);
  if (sqt * sqt > wt * wt) { /* saturated: scaled back to the friction limit */
    tx = tx * fabs(wt) / sqt;
    ty = ty * fabs(wt) / sqt;
  }
  c->t[0] = sit * tx + cot * c->cod * ty;
  c->t[1] = c->side * c->sid * ty;
  c->t[2] = cot * tx - sit * c->cod * ty;
}

/* Moments of the creep force t of a contact about the axes of theta, phi and beta (the vectors
 * W1, W2 of wheel.f's Euler equations, rows 9, 10 and 11). */
static void creep_moments(const attitude *a, const contact *c, double m[3])
{
  double xr = c->xr, rx = c->rx, sis = c->sis, cs = c->cos_;
  double sit = a->sit, cot = a->cot, sip = a->sip, cop = a->cop;
  const double *t = c->t;
  m[0] = -(xr * sit + rx * sis * cot * cop) * t[0] - rx * sis * sip * t[1] +
         (-xr * cot + rx * sis * sit * cop) * t[2];
  m[1] = -(xr * cot * sip - rx * cs * cot * cop) * t[0] + (xr * cop + rx * cs * sip) * t[1] +
         (xr * sit * sip - rx * cs * sit * cop) * t[2];
  m[2] = -rx * (cs * sit + sis * cot * sip) * t[0] + rx * sis * cop * t[1] -
         rx * (cs * cot - sis * sit * sip) * t[2];
}

/* The right-hand sides f_1..f_6 of Newton's and Euler's laws (wheel.f's reswhs, rows 6-11). */
static void dynamics(const wheelset_params *w, const double *y, const attitude *a, const contact *l,
                     const contact *r, double e1, double e2, double f[6])
{
  double tetap = y[V + 3], phip = y[V + 4], omb = w->v / w->rn0 + y[BETA];
  double sip = a->sip, cop = a->cop;
  double fq2 = -w->ma * w->g, fq3 = -2.0 * w->cz * y[2];
  double lm2 = -2.0 * (w->xl * w->xl) * w->cz * y[3];
  double ml[3], mr[3];
  creep_moments(a, l, ml);
  creep_moments(a, r, mr);
  f[0] = l->t[0] + r->t[0] + l->g[0] * e1 + r->g[0] * e2 - 2.0 * w->cx * y[0];
  f[1] = l->t[1] + r->t[1] + fq2 - w->mr * w->g + l->g[1] * e1 + r->g[1] * e2;
  f[2] = l->t[2] + r->t[2] + fq3 + l->g[2] * e1 + r->g[2] * e2;
  f[3] = -w->li2 * (-tetap * phip * sip) - w->li1 * omb * phip -
         (w->li1 - w->li2) * (tetap * sip) * phip + ml[0] + mr[0] + cop * lm2 + l->g[3] * e1 +
         r->g[3] * e2;
  f[4] = w->li1 * omb * (tetap * cop) + (w->li1 - w->li2) * (tetap * sip) * (tetap * cop) + ml[1] +
         mr[1] + l->g[4] * e1 + r->g[4] * e2;
  f[5] = -w->li1 * (tetap * phip * cop) + ml[2] + mr[2] + sip * lm2;
}

/* The contact conditions: rows 12-13 G v (index 2), rows 14-17 the parallel normals. */
static void contact_rows(const double *y, const attitude *a, const contact *l, const contact *r,
                         double c[6])
{
  c[0] = c[1] = 0.0;
  for (int i = 0; i < NP; i++) {
    c[0] += l->g[i] * y[V + i];
    c[1] += r->g[i] * y[V + i];
  }
  const contact *side[2] = {l, r};
  for (int k = 0; k < 2; k++) {
    const contact *s = side[k];
    c[2 + 2 * k] = s->dgx * (s->drx * a->sip + a->cop * s->cos_) + s->drx * a->cot * a->cop -
                   a->cot * a->sip * s->cos_ + a->sit * s->sis;
    c[3 + 2 * k] = s->drx * a->sit * a->cop - a->sit * a->sip * s->cos_ - a->cot * s->sis;
  }
}

/* Normal forces from the multipliers through the contact angles (wheel.f); 1 where the two
 * contact planes are (nearly) parallel to each other's normals. */
static int normal_forces(contact *l, contact *r, double e1, double e2)
{
  double deter = -l->sid * r->cod - r->sid * l->cod;
  if (fabs(deter) < DETER_MIN) {
    return 1;
  }
  double w1 = l->g[0] * e1 + r->g[0] * e2, w2 = l->g[1] * e1 + r->g[1] * e2;
  l->fn = (r->cod * w1 - r->sid * w2) / deter;
  r->fn = (-l->cod * w1 - l->sid * w2) / deter;
  return 0;
}

static int res(const void *params, double t, const double *y, const double *yp, double *r)
{
  (void)t;
  const wheelset_params *w = params;
  attitude a = {sin(y[3]), cos(y[3]), sin(y[4]), cos(y[4])};
  contact cl, cr;
  double e1 = y[LAM] * LAMBDA_SCALE, e2 = y[LAM + 1] * LAMBDA_SCALE;
  if (contact_geometry(w, y, &a, 1.0, &cl) != 0 || contact_geometry(w, y, &a, -1.0, &cr) != 0 ||
      normal_forces(&cl, &cr, e1, e2) != 0) {
    return MBDAE_RECOVERABLE; /* off the profiles (derailment) or degenerate contact */
  }
  creep(w, y, &a, &cl);
  creep(w, y, &a, &cr);
  double f[6], c[6];
  dynamics(w, y, &a, &cl, &cr, e1, e2, f);
  contact_rows(y, &a, &cl, &cr, c);
  for (int i = 0; i < NP; i++) {
    r[i] = yp[i] - y[V + i];
  }
  for (int i = 0; i < 3; i++) {
    r[V + i] = w->mr * yp[V + i] - f[i];
  }
  r[V + 3] = w->li2 * a.cop * yp[V + 3] - f[3];
  r[V + 4] = w->li2 * yp[V + 4] - f[4];
  r[BETA] = w->li1 * a.sip * yp[V + 3] + w->li1 * yp[BETA] - f[5];
  for (int i = 0; i < 6; i++) {
    r[Q + i] = -c[i];
  }
  return mbdae_all_finite(NEQ, r) ? 0 : MBDAE_RECOVERABLE;
}

/* dF/dy analytic (problems/wheelset_jac.c, one forward pass for all columns); dF/dy' too: I
 * (rows 1-5), m_R I (6-8), I_2 cos(phi) and I_2 (9, 10), I_1 sin(phi) and I_1 (row 11). */
static int jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
               double *dfdyp)
{
  const wheelset_params *w = params;
  if (dfdyp) {
    memset(dfdyp, 0, sizeof(double) * NEQ * NEQ);
    for (int i = 0; i < NP; i++) {
      MBDAE_AT(dfdyp, NEQ, i, i) = 1.0;
    }
    for (int i = V; i < V + 3; i++) {
      MBDAE_AT(dfdyp, NEQ, i, i) = w->mr;
    }
    MBDAE_AT(dfdyp, NEQ, V + 3, V + 3) = w->li2 * cos(y[4]);
    MBDAE_AT(dfdyp, NEQ, V + 4, V + 4) = w->li2;
    MBDAE_AT(dfdyp, NEQ, BETA, V + 3) = w->li1 * sin(y[4]);
    MBDAE_AT(dfdyp, NEQ, BETA, BETA) = w->li1;
  }
  (void)t;
  return dfdy ? wheelset_dfdy(w, y, yp, dfdy) : 0;
}

/* ---- the contact conditions as constraints ------------------------------------------------- */

/* The contact condition of one side is g_1(p, q) = r_g(x_g) - y - xi sin(phi) + r(xi) cos(phi)
 * cos(psi) = 0 (wheel.f's index-3 row, reswhs with ipar(1) = 1): the vertical distance of the
 * rail below the wheel point (psi, xi), x_g its lateral position.  Its gradient in (p, q) is
 * (G, G_q), G as constm.  g_2 = 0 (rows 14-17: the normals of wheel and rail parallel) holds
 * exactly where G_q = 0, the point of the wheel nearest the rail: the rail's normal
 * (r_g', -1, 0) is orthogonal to the wheel's tangents there.  The constraint of the index-3
 * problem is therefore the distance of wheel and rail, g(p) = g_1(p, q*(p)) with q*(p) the
 * stationary point (Simeon, Fuehrer & Rentrop 1991, the contact conditions); it depends on p
 * alone, as a mechanical system's constraint does, and
 *   g'  = G v                                         (G_q = 0 at q*: rows 12-13 at q*),
 *   g'' = G v' + v^T H_pp v + (H_qp v) . q*',   q*' = -H_qq^{-1} H_qp v,
 * H the Hessian of g_1 in (p, q) (the cone has r'' = 0; the track is straight: no g_t).  g and
 * g' are what the runs report as drift: the index-2 form keeps g' = 0 and g_2 = 0, and g drifts.
 * u = (x, theta, phi, psi, xi) are the variables g_1 bends in (y enters it as -y, z not). */
enum { NU = 5, U_PSI = 3, U_XI = 4, NEWTON_MAX = 30 };
static const int U_OF_P[3] = {0, 3, 4}; /* p index of u = x, theta, phi */

/* A product c f_theta f_phi f_psi of sines, cosines and ones of the three angles, with its
 * first and second derivatives: the angle factors of x_g and of the wheel's height. */
enum { ONE, SIN, COS };
typedef struct trig_term {
  double c;
  int kind[3]; /* of theta, phi, psi */
} trig_term;

/* The factors and their derivatives at three angles: f[a][kind][k] is the k-th derivative
 * (0, 1, 2) of the factor kind at angle a (one sine and one cosine per angle). */
typedef struct angle_factors {
  double f[3][3][3];
} angle_factors;

static void angle_factors_at(const double ang[3], angle_factors *af)
{
  for (int a = 0; a < 3; a++) {
    double s = sin(ang[a]), c = cos(ang[a]);
    const double d[3][3] = {{1.0, 0.0, 0.0}, {s, c, -s}, {c, -s, -c}}; /* ONE, SIN, COS */
    memcpy(af->f[a], d, sizeof d);
  }
}

/* Sum of n terms at the angles of af: value, gradient (3) and Hessian (3 x 3, column-major). */
static void trig_sum(const trig_term *t, int n, const angle_factors *af, double *val,
                     double grad[3], double hess[9])
{
  *val = 0.0;
  memset(grad, 0, 3 * sizeof(double));
  memset(hess, 0, 9 * sizeof(double));
  for (int k = 0; k < n; k++) {
    int order[3] = {0, 0, 0};
    for (int i = -1; i < 3; i++) {
      for (int j = i; j < 3; j++) { /* i = -1: the value (j = -1) and the gradient (j >= 0) */
        order[0] = order[1] = order[2] = 0;
        if (i >= 0) {
          order[i]++;
        }
        if (j >= 0) {
          order[j]++;
        }
        double v = t[k].c;
        for (int a = 0; a < 3; a++) {
          v *= af->f[a][t[k].kind[a]][order[a]];
        }
        if (j < 0) {
          *val += v;
        } else if (i < 0) {
          grad[j] += v;
        } else {
          MBDAE_AT(hess, 3, i, j) += v;
          MBDAE_AT(hess, 3, j, i) = MBDAE_AT(hess, 3, i, j);
        }
      }
    }
  }
}

/* The angle factors of x_g = x + xi B + r(xi) A and of the wheel point's height above the axle,
 * h = xi S + r(xi) C (g_1 = r_g(x_g) - y + h): B = cos(theta) cos(phi), A = cos(theta) sin(phi)
 * cos(psi) - sin(theta) sin(psi), S = -sin(phi), C = cos(phi) cos(psi). */
static const trig_term B_TERMS[] = {{1.0, {COS, COS, ONE}}};
static const trig_term A_TERMS[] = {{1.0, {COS, SIN, COS}}, {-1.0, {SIN, ONE, SIN}}};
static const trig_term S_TERMS[] = {{-1.0, {ONE, SIN, ONE}}};
static const trig_term C_TERMS[] = {{1.0, {ONE, COS, COS}}};

typedef struct angle_fn {
  double val, grad[3], hess[9]; /* over (theta, phi, psi) */
} angle_fn;

/* A function of u, x0 + xi P + r(xi) Q (P, Q of the angles; r' = dr, r'' = 0: the cone), with its
 * gradient and Hessian over u into val, grad, hess (NU x NU, column-major). */
static void lift(double x0, const angle_fn *p, const angle_fn *q, double xi, double r, double dr,
                 double *val, double grad[NU], double hess[NU * NU])
{
  memset(hess, 0, NU * NU * sizeof(double));
  *val = x0 + xi * p->val + r * q->val;
  grad[0] = 0.0;
  grad[U_XI] = p->val + dr * q->val;
  for (int a = 0; a < 3; a++) {
    grad[1 + a] = xi * p->grad[a] + r * q->grad[a];
    MBDAE_AT(hess, NU, 1 + a, U_XI) = p->grad[a] + dr * q->grad[a];
    MBDAE_AT(hess, NU, U_XI, 1 + a) = MBDAE_AT(hess, NU, 1 + a, U_XI);
    for (int b = 0; b < 3; b++) {
      MBDAE_AT(hess, NU, 1 + a, 1 + b) =
          xi * MBDAE_AT(p->hess, 3, a, b) + r * MBDAE_AT(q->hess, 3, a, b);
    }
  }
}

/* g_1 of one side at the wheel point q = (psi, xi), with its gradient and Hessian over u. */
typedef struct distance {
  double val, grad[NU], hess[NU * NU];
} distance;

static int distance_at(const wheelset_params *w, const double *y, const double q[2], distance *d)
{
  contact c = {.xr = q[1]};
  const double ang[3] = {y[3], y[4], q[0]};
  angle_factors af;
  angle_factors_at(ang, &af);
  angle_fn fa, fb, fs, fc;
  trig_sum(A_TERMS, 2, &af, &fa.val, fa.grad, fa.hess);
  trig_sum(B_TERMS, 1, &af, &fb.val, fb.grad, fb.hess);
  trig_sum(S_TERMS, 1, &af, &fs.val, fs.grad, fs.hess);
  trig_sum(C_TERMS, 1, &af, &fc.val, fc.grad, fc.hess);
  if (wheel_profile(w, &c) != 0) {
    return 1;
  }
  double xg, gx[NU], hx[NU * NU], h, gh[NU], hh[NU * NU];
  lift(y[0], &fb, &fa, q[1], c.rx, c.drx, &xg, gx, hx);
  gx[0] = 1.0;
  lift(0.0, &fs, &fc, q[1], c.rx, c.drx, &h, gh, hh);
  if (rail_profile(w, xg, &c) != 0) {
    return 1;
  }
  d->val = c.gx - y[1] + h;
  for (int i = 0; i < NU; i++) {
    d->grad[i] = c.dgx * gx[i] + gh[i];
    for (int j = 0; j < NU; j++) {
      MBDAE_AT(d->hess, NU, i, j) =
          c.d2gx * gx[i] * gx[j] + c.dgx * MBDAE_AT(hx, NU, i, j) + MBDAE_AT(hh, NU, i, j);
    }
  }
  return 0;
}

/* The contact point q*(p): Newton on G_q = 0 from q (y's own contact point) until its step is
 * below NEWTON_STEP, d at the last iterate (within that step of q*: g_1 is stationary there, so g
 * is off by O(step^2), G by O(step)); 1 when it leaves the profiles or does not converge.  Along
 * a run the state's q is q* to the solver's tolerance: one or two evaluations. */
static const double NEWTON_STEP = 1e-14;

static int contact_point(const wheelset_params *w, const double *y, double q[2], distance *d)
{
  for (int it = 0; it < NEWTON_MAX; it++) {
    if (distance_at(w, y, q, d) != 0) {
      return 1;
    }
    double a = MBDAE_AT(d->hess, NU, U_PSI, U_PSI), b = MBDAE_AT(d->hess, NU, U_PSI, U_XI);
    double c = MBDAE_AT(d->hess, NU, U_XI, U_XI), det = a * c - b * b;
    if (!(fabs(det) > 0.0)) {
      return 1;
    }
    double dpsi = -(c * d->grad[U_PSI] - b * d->grad[U_XI]) / det;
    double dxi = -(a * d->grad[U_XI] - b * d->grad[U_PSI]) / det;
    if (fabs(dpsi) + fabs(dxi) <= NEWTON_STEP) {
      return 0;
    }
    q[0] += dpsi;
    q[1] += dxi;
  }
  return 1;
}

/* g, g' and (when ga is not NULL) g'' of the side whose contact point is y[first], y[first + 1]. */
static int side_levels(const wheelset_params *w, const double *y, const double *yp, int first,
                       double *g, double *gv, double *ga)
{
  double q[2] = {y[first], y[first + 1]};
  distance d;
  if (contact_point(w, y, q, &d) != 0) {
    return MBDAE_RECOVERABLE;
  }
  *g = d.val;
  *gv = -y[V + 1];
  for (int k = 0; k < 3; k++) {
    *gv += d.grad[k] * y[V + U_OF_P[k]];
  }
  if (!ga) {
    return 0;
  }
  double acc = -yp[V + 1], bend = 0.0, hqp[2] = {0.0, 0.0};
  for (int k = 0; k < 3; k++) {
    double vk = y[V + U_OF_P[k]];
    acc += d.grad[k] * yp[V + U_OF_P[k]];
    for (int l = 0; l < 3; l++) {
      bend += vk * MBDAE_AT(d.hess, NU, k, l) * y[V + U_OF_P[l]];
    }
    hqp[0] += MBDAE_AT(d.hess, NU, U_PSI, k) * vk;
    hqp[1] += MBDAE_AT(d.hess, NU, U_XI, k) * vk;
  }
  double a = MBDAE_AT(d.hess, NU, U_PSI, U_PSI), b = MBDAE_AT(d.hess, NU, U_PSI, U_XI);
  double c = MBDAE_AT(d.hess, NU, U_XI, U_XI), det = a * c - b * b;
  double qdot[2] = {-(c * hqp[0] - b * hqp[1]) / det, -(a * hqp[1] - b * hqp[0]) / det};
  *ga = acc + bend + hqp[0] * qdot[0] + hqp[1] * qdot[1];
  return 0;
}

/* The two contact conditions in the order of their multipliers: lambda1 holds wheel.f's left
 * contact (y[13], y[14]: q3, q4), lambda2 its right (q1, q2); rows 12 and 13 of F likewise. */
static const int CONTACT_OF[NCON] = {Q + 2, Q};

static int constraints(const void *params, double t, const double *y, const double *yp,
                       double *gpos, double *gvel, double *gacc)
{
  (void)t;
  for (int k = 0; k < NCON; k++) {
    double g, gv, ga;
    int rc = side_levels(params, y, yp, CONTACT_OF[k], &g, &gv, gacc ? &ga : NULL);
    if (rc != 0) {
      return rc;
    }
    if (gpos) {
      gpos[k] = g;
    }
    if (gvel) {
      gvel[k] = gv;
    }
    if (gacc) {
      gacc[k] = ga;
    }
  }
  return 0;
}

/* The published consistent start (wheel.f; deTestSet's ex_wheelset.R, its yini and dyini). */
static int init(const void *params, double *y0, double *yp0)
{
  (void)params;
  static const double Y0[NEQ] = {0.14941e-02,
                                 0.40089e-06,
                                 0.11241e-05,
                                 -.28573e-03,
                                 0.26459e-03,
                                 0.0,
                                 0.0,
                                 0.0,
                                 0.0,
                                 0.0,
                                 0.0,
                                 -7.4122380357667139e-06,
                                 -0.1521364296121248,
                                 7.5634406395172940e-06,
                                 0.1490635714733819,
                                 -8.3593e-3,
                                 -7.4144e-3};
  static const double YP0[NEQ] = {0.0,
                                  0.0,
                                  0.0,
                                  0.0,
                                  0.0,
                                  -1.975258894011285,
                                  -1.0898297102811276e-03,
                                  7.8855083626142589e-02,
                                  -5.533362821731549,
                                  -0.3487021489546511,
                                  -2.132968724380927,
                                  0.0,
                                  0.0,
                                  0.0,
                                  0.0,
                                  0.0,
                                  0.0};
  memcpy(y0, Y0, sizeof Y0);
  memcpy(yp0, YP0, sizeof YP0);
  return 0;
}

/* y(10): our radau5 at rtol = atol = 1e-20 (h0 = 1e-10), printed to 17 digits; refsol/wheelset.txt
 * states its provenance and how far bdf and ida confirm it. */
static int ref(const void *params, double *yref)
{
  (void)params;
  static const double YREF[NEQ] = {
      0.008635538250587065,    1.3038341133288563e-05, -9.363581132516647e-05,
      -0.013642295983494397,   0.001529289421345592,   -0.07698524156654582,
      -0.00025151063906331283, 0.0020541148988959413,  -0.23904840205390065,
      -0.013633444974738921,   -0.24421370612777055,   -0.00033666742647748253,
      -0.1594942563735717,     0.00037839603683514537, 0.14173215009784218,
      -0.010124044993177785,   -0.0056285629096411135};
  memcpy(yref, YREF, sizeof YREF);
  return 0;
}

/* refsol/wheelset_traj.txt, whose last row is ref's. */
static int ref_traj_values(const void *params, int neq, size_t *ntimes, const double **t, double *y)
{
  (void)params;
  const ref_traj *tr = &mbdae_traj_wheelset;
  if (tr->ntimes == 0) {
    return MBDAE_ERR_NOREF;
  }
  *ntimes = tr->ntimes;
  *t = tr->t;
  if (y) {
    memcpy(y, tr->y, sizeof(double) * tr->ntimes * (size_t)neq);
  }
  return 0;
}

static const char *const NAMES[NEQ] = {"x",  "y",  "z",  "theta",   "phi",    "v1",
                                       "v2", "v3", "v4", "v5",      "beta",   "q1",
                                       "q2", "q3", "q4", "lambda1", "lambda2"};

static const char REF_SOURCE[] =
    "computed here: radau5 at rtol = atol = 1e-20 (h0 = 1e-10); bdf and ida at 1e-16 agree with it "
    "to 10.3 and 11.5 digits or more per component, good to about 10 (refsol/wheelset.txt); "
    "wheel.f's wheelsoln (DASSL, 1e-9) to 5.3";

static void describe(const void *params, problem_info *info)
{
  (void)params;
  info->neq = NEQ;
  info->nconstraints = NCON;
  info->ref_source = REF_SOURCE;
  info->res_checks_finite = 1; /* res() ends with the check */
  if (!info->index) {
    return;
  }
  for (int i = 0; i < NEQ; i++) {
    info->index[i] = i >= LAM ? 2 : 1;
    info->in_scd[i] = 1;
  }
  mbdae_problem_info_names(info, 0, NEQ, NAMES);
}

static void set_defaults(void *params) { *(wheelset_params *)params = PUBLISHED; }

static void format_options(const void *params, char *buf, size_t len)
{
  (void)params;
  if (len > 0) {
    buf[0] = '\0';
  }
}

const problem_type mbdae_problem_wheelset = {
    .id = "wheelset",
    .title = "Wheelset (railway wheelset on a track; analytic Jacobian)",
    .t0 = 0.0,
    .tend = 10.0, /* wheel.f */
    /* rtol = atol = h0 = 10^-(4 + m/4), m = 0..24, table at 1e-4, 1e-7, 1e-10: caraxis's plan
     * (report 2.4 section II.17.4); the report's wheelset table was not at hand. */
    .tolerances = {sizeof(mbdae_tolerance_plan), 4, 24, 1.0, 3, {1e-4, 1e-7, 1e-10}, 1e-7},
    .params_size = sizeof(wheelset_params),
    .options_help = "",
    .set_defaults = set_defaults,
    .format_options = format_options,
    .describe = describe,
    .init = init,
    .res = res,
    .jac = jac,
    .ref = ref,
    .ref_traj = ref_traj_values,
    .constraints = constraints,
};
