/* The wheelset's dF/dy, analytic: the residual of problems/wheelset.c retraced in forward mode,
 * every intermediate quantity carried with its gradient over the 17 variables (a value of type
 * dv), so that one pass gives all 17 columns by the chain rule (A. Griewank, A. Walther,
 * "Evaluating derivatives", 2nd ed., SIAM 2008, ch. 3, the tangent mode).  The functions below
 * follow the residual's wheel_profile, rail_profile, contact_geometry, normal_forces, ellipse,
 * creep, creep_moments, dynamics and contact_rows term by term; test_wheelset_jac.c finds the
 * result equal to extrapolated central differences of the residual (to 1.5e-9) at the start, the
 * reference and random states.  One pass costs about 10 residuals, central differences 34.
 * Where the residual branches (the profiles' |xi|, |x_g|, the contact ellipse's |N|, the creep
 * force's saturation at mu N) the derivative is that of the branch taken at y: the kinks are
 * where differences, too, straddle two branches. */
#include <math.h>
#include <string.h>

#include "dense.h"
#include "problem_type.h"
#include "wheelset.h"

/* The gradients' order of the variables: the attitude first, then the left contact, the right
 * one, the multipliers, beta and the velocities, so that a quantity depending on the first n
 * only (the attitude: 2, the left geometry: 5, the right: 7, the normal forces: 9) carries n
 * entries and the arithmetic on it costs n, not 17. */
static const int ORDER[NEQ] = {3,    4,     0,     Q + 2, Q + 3, Q,     Q + 1, LAM, LAM + 1,
                               BETA, V + 3, V + 4, V,     V + 1, V + 2, 2,     1};

/* A quantity and its gradient d over the variables in ORDER; entries from n on are zero and
 * not stored (never read). */
typedef struct dv {
  double v;
  int n;
  double d[NEQ];
} dv;

/* The operations write into r (which may be an operand) and return it.  They are kept out of
 * line: inlined, the some 600 operations of one pass grow to a third of a megabyte of code, which
 * runs slower than the calls. */
#if defined(__GNUC__)
#define DV_OP static __attribute__((noinline)) const dv *
#else
#define DV_OP static const dv *
#endif

/* Temporaries of one function's expressions, uninitialised (each operation writes its result's
 * entries): a function declares `scratch sc; sc.top = 0;` and its expressions nest as in the
 * residual, ADD(MUL(a, b), c), each operation taking the next slot.  The operations of a pass
 * are the same at every state (the saturation's branch adds 2); the largest function takes 64
 * slots.  One that outgrew SCRATCH_SLOTS would write past its array: the sanitizer runs of
 * test_wheelset_jac would report it. */
enum { SCRATCH_SLOTS = 80 };
typedef struct scratch {
  int top;
  dv slot[SCRATCH_SLOTS];
} scratch;

static dv *next_slot(scratch *s) { return &s->slot[s->top++]; }

#define TMP next_slot(&sc)
#define ADD(a, b) dv_add(TMP, (a), (b))
#define SUB(a, b) dv_sub(TMP, (a), (b))
#define MUL(a, b) dv_mul(TMP, (a), (b))
#define MUL3(a, b, c) MUL(MUL((a), (b)), (c))
#define DIV(a, b) dv_div(TMP, (a), (b))
#define SCALE(c, a) dv_scale(TMP, (c), (a))
#define SHIFT(a, c) dv_shift(TMP, (a), (c))
#define NEG(a) SCALE(-1.0, (a))
#define SIN(a) dv_sin(TMP, (a))
#define COS(a) dv_cos(TMP, (a))
#define ATAN(a) dv_atan(TMP, (a))
#define FABS(a) dv_fabs(TMP, (a))
#define SQRT(a) dv_sqrt(TMP, (a))
#define TANH(a) dv_tanh(TMP, (a))
#define POW(a, p) dv_pow(TMP, (a), (p))
#define CONST(c) dv_const(TMP, (c))
#define VAR(y, j) dv_var(TMP, (y), (j))

static const dv *finish(dv *r, double v, int n)
{
  r->v = v;
  r->n = n;
  return r;
}

DV_OP dv_const(dv *r, double c) { return finish(r, c, 0); }

/* y[j] as a variable: its position k in ORDER */
DV_OP dv_var(dv *r, const double *y, int j)
{
  int k = 0;
  while (ORDER[k] != j) {
    r->d[k++] = 0.0;
  }
  r->d[k] = 1.0;
  return finish(r, y[j], k + 1);
}

/* r->d = alpha a->d + beta b->d, over the longer gradient */
static const dv *combine(dv *r, double alpha, const dv *a, double beta, const dv *b, double v)
{
  int m = a->n < b->n ? a->n : b->n;
  for (int j = 0; j < m; j++) {
    r->d[j] = alpha * a->d[j] + beta * b->d[j];
  }
  for (int j = m; j < a->n; j++) {
    r->d[j] = alpha * a->d[j];
  }
  for (int j = m; j < b->n; j++) {
    r->d[j] = beta * b->d[j];
  }
  return finish(r, v, a->n > b->n ? a->n : b->n);
}

DV_OP dv_add(dv *r, const dv *a, const dv *b) { return combine(r, 1.0, a, 1.0, b, a->v + b->v); }
DV_OP dv_sub(dv *r, const dv *a, const dv *b) { return combine(r, 1.0, a, -1.0, b, a->v - b->v); }
DV_OP dv_mul(dv *r, const dv *a, const dv *b) { return combine(r, b->v, a, a->v, b, a->v * b->v); }

DV_OP dv_div(dv *r, const dv *a, const dv *b)
{
  double q = a->v / b->v;
  return combine(r, 1.0 / b->v, a, -q / b->v, b, q);
}

/* f(a) from its value f and slope f'(a) at a->v (also c a: value c a->v, slope c). */
static const dv *dv_chain(dv *r, const dv *a, double value, double slope)
{
  for (int j = 0; j < a->n; j++) {
    r->d[j] = a->d[j] * slope;
  }
  return finish(r, value, a->n);
}

DV_OP dv_scale(dv *r, double c, const dv *a) { return dv_chain(r, a, c * a->v, c); }
DV_OP dv_shift(dv *r, const dv *a, double c) { return dv_chain(r, a, a->v + c, 1.0); }
DV_OP dv_sin(dv *r, const dv *a) { return dv_chain(r, a, sin(a->v), cos(a->v)); }
DV_OP dv_cos(dv *r, const dv *a) { return dv_chain(r, a, cos(a->v), -sin(a->v)); }
DV_OP dv_atan(dv *r, const dv *a) { return dv_chain(r, a, atan(a->v), 1.0 / (1.0 + a->v * a->v)); }
DV_OP dv_fabs(dv *r, const dv *a) { return dv_chain(r, a, fabs(a->v), copysign(1.0, a->v)); }

DV_OP dv_sqrt(dv *r, const dv *a)
{
  double s = sqrt(a->v);
  return dv_chain(r, a, s, 0.5 / s);
}

DV_OP dv_tanh(dv *r, const dv *a)
{
  double t = tanh(a->v);
  return dv_chain(r, a, t, 1.0 - t * t);
}

DV_OP dv_pow(dv *r, const dv *a, double p)
{
  return dv_chain(r, a, pow(a->v, p), p * pow(a->v, p - 1.0));
}

/* sin and cos of theta and phi */
typedef struct dattitude {
  dv sit, cot, sip, cop;
} dattitude;

/* One contact, as the residual's struct contact (r' is constant on the cone, g_1's r_g unused). */
typedef struct dcontact {
  double side;  /* +1 left, -1 right */
  dv sis, cos_; /* sin, cos of psi */
  dv xr, rx;    /* xi and r(xi) */
  double drx;   /* r'(xi) */
  dv dgx, d2gx; /* r_g', r_g'' at x_g */
  dv g[NP];     /* G */
  dv sid, cod;  /* sin, cos of the contact angle */
  dv fn, t[3];  /* normal and creep forces */
} dcontact;

static int wheel_profile_d(const wheelset_params *w, dcontact *c)
{
  scratch sc;
  sc.top = 0;
  double ta = tan(w->delta0);
  const dv *xabs = FABS(&c->xr);
  if (w->b1 >= xabs->v || xabs->v >= w->b2) {
    return 1;
  }
  c->rx = *SHIFT(SCALE(ta, SHIFT(NEG(xabs), w->ar)), w->rn0);
  c->drx = copysign(1.0, c->xr.v) * (-ta);
  return 0;
}

static int rail_profile_d(const wheelset_params *w, const dv *x, dcontact *c)
{
  scratch sc;
  sc.top = 0;
  double sir = sin(w->delta0) * w->rs;
  const dv *xabs = FABS(x);
  if ((w->ar + sir + w->rs - w->eps) <= xabs->v || (w->ar + sir - w->rs + w->eps) >= xabs->v) {
    return 1;
  }
  const dv *d = SHIFT(SHIFT(xabs, -w->ar), -sir);
  const dv *t = SQRT(SHIFT(NEG(MUL(d, d)), w->rs * w->rs));
  c->dgx = *SCALE(copysign(1.0, x->v), DIV(SHIFT(SHIFT(NEG(xabs), w->ar), sir), t));
  c->d2gx = *DIV(CONST(-w->rs * w->rs), MUL3(t, t, t));
  return 0;
}

/* G of the side (wheel.f's constm) at x_g of the contact point. */
static void constraint_gradient(const dattitude *a, dcontact *c)
{
  scratch sc;
  sc.top = 0;
  dv_const(&c->g[1], -1.0);
  dv_const(&c->g[2], 0.0);
  c->g[0] = c->dgx;
  const dv *bend3 =
      SUB(MUL(&c->rx, SUB(NEG(MUL(&a->cot, &c->sis)), MUL3(&c->cos_, &a->sip, &a->sit))),
          MUL3(&a->cop, &a->sit, &c->xr));
  c->g[3] = *MUL(&c->dgx, bend3);
  const dv *bend4 =
      SUB(MUL(MUL3(&a->cop, &c->cos_, &a->cot), &c->rx), MUL3(&a->cot, &a->sip, &c->xr));
  c->g[4] =
      *ADD(SUB(NEG(MUL3(&c->cos_, &c->rx, &a->sip)), MUL(&a->cop, &c->xr)), MUL(&c->dgx, bend4));
}

static int contact_geometry_d(const wheelset_params *w, const double *y, const dattitude *a,
                              double side, dcontact *c)
{
  scratch sc;
  sc.top = 0;
  int first = side > 0.0 ? Q + 2 : Q;
  const dv *psi = VAR(y, first);
  c->side = side;
  dv_sin(&c->sis, psi);
  dv_cos(&c->cos_, psi);
  dv_var(&c->xr, y, first + 1);
  if (wheel_profile_d(w, c) != 0) {
    return 1;
  }
  const dv *xg = ADD(ADD(VAR(y, 0), MUL3(&c->xr, &a->cot, &a->cop)),
                     MUL(&c->rx, SUB(MUL3(&a->cot, &a->sip, &c->cos_), MUL(&a->sit, &c->sis))));
  if (rail_profile_d(w, xg, c) != 0) {
    return 1;
  }
  constraint_gradient(a, c);
  const dv *w1 =
      ADD(MUL(SUB(SCALE(c->drx, &a->cop), MUL(&a->sip, &c->cos_)), &a->cot), MUL(&c->sis, &a->sit));
  const dv *w2 = SCALE(side, SUB(SCALE(-c->drx, &a->sip), MUL(&c->cos_, &a->cop)));
  const dv *delta = ATAN(DIV(w1, w2));
  dv_sin(&c->sid, delta);
  dv_cos(&c->cod, delta);
  return 0;
}

/* The semi-axis parameter of the contact ellipse into cl. */
static void ellipse_d(const wheelset_params *w, const dcontact *c, dv *cl)
{
  scratch sc;
  sc.top = 0;
  const dv *rr = SCALE(sqrt(1.0 + c->drx * c->drx), &c->rx);
  const dv *rhog = DIV(NEG(&c->d2gx), POW(SHIFT(MUL(&c->dgx, &c->dgx), 1.0), 1.5));
  const dv *ab = ADD(DIV(CONST(0.5), rr), SCALE(0.5, rhog));
  const dv *wabs = SCALE(3.0, FABS(&c->fn));
  const dv *num = SCALE(w->e, SCALE(1.0 - w->sigma, wabs));
  const dv *den = SCALE(sqrt(w->gg), SCALE(w->gm, SCALE(2.0 * PI8, ab)));
  dv_pow(cl, DIV(num, den), 1.0 / 3.0);
}

static int normal_forces_d(dcontact *l, dcontact *r, const dv *e1, const dv *e2)
{
  scratch sc;
  sc.top = 0;
  const dv *deter = SUB(NEG(MUL(&l->sid, &r->cod)), MUL(&r->sid, &l->cod));
  if (fabs(deter->v) < DETER_MIN) {
    return 1;
  }
  const dv *w1 = ADD(MUL(&l->g[0], e1), MUL(&r->g[0], e2));
  const dv *w2 = ADD(MUL(&l->g[1], e1), MUL(&r->g[1], e2));
  l->fn = *DIV(SUB(MUL(&r->cod, w1), MUL(&r->sid, w2)), deter);
  r->fn = *DIV(SUB(NEG(MUL(&l->cod, w1)), MUL(&l->sid, w2)), deter);
  return 0;
}

/* The creepages' numerators k1, k2, k3 (wheel.f's creep): the velocity of the wheel's contact
 * point; sit, cot of theta over cos(delta) as wheel.f takes them. */
static void creep_velocity(const wheelset_params *w, const double *y, const dattitude *a,
                           const dcontact *c, const dv *sit, const dv *cot, dv k[3])
{
  scratch sc;
  sc.top = 0;
  const dv *omb = SHIFT(VAR(y, BETA), w->v / w->rn0), *xxp = VAR(y, V), *yyp = VAR(y, V + 1);
  const dv *zzp = VAR(y, V + 2), *tetap = VAR(y, V + 3), *phip = VAR(y, V + 4);
  const dv *rx = &c->rx, *xr = &c->xr, *sis = &c->sis, *cs = &c->cos_, *sip = &a->sip;
  const dv *cop = &a->cop;
  const dv *lever = SUB(MUL(xr, sip), MUL3(rx, cop, cs));
  const dv *a1 = ADD(MUL(sit, cs), MUL3(cot, sip, sis));
  const dv *b1 = ADD(MUL(rx, ADD(MUL3(sit, sip, cs), MUL(cot, sis))), MUL3(xr, sit, cop));
  k[0] = *SUB(SUB(ADD(MUL(NEG(MUL(omb, rx)), a1), xxp), MUL(tetap, b1)), MUL3(phip, cot, lever));
  k[1] =
      *ADD(ADD(MUL(MUL3(omb, rx, cop), sis), yyp), MUL(phip, ADD(MUL(xr, cop), MUL3(rx, sip, cs))));
  const dv *a3 = SUB(MUL(cot, cs), MUL3(sit, sip, sis));
  const dv *b3 = ADD(MUL3(xr, cot, cop), MUL(rx, SUB(MUL3(cot, sip, cs), MUL(sit, sis))));
  k[2] = *ADD(SUB(ADD(SHIFT(MUL(NEG(MUL(omb, rx)), a3), w->v), zzp), MUL(tetap, b3)),
              MUL3(phip, sit, lever));
}

/* Kalker's linear law saturated by tanh at mu N (creepages nu), scaled back to the friction
 * limit where the two components together exceed it. */
static void creep_law(const wheelset_params *w, const dcontact *c, const dv nu[3], dv *tx, dv *ty)
{
  scratch sc;
  sc.top = 0;
  dv cl;
  ellipse_d(w, c, &cl);
  const dv *wt = SCALE(w->mu, &c->fn);
  const dv *gcc = SCALE(w->gm, MUL(&cl, &cl));
  *tx = *MUL(NEG(wt), TANH(DIV(MUL(SCALE(w->c11, gcc), &nu[0]), wt)));
  const dv *spin = DIV(MUL(SCALE(w->c23, MUL(gcc, &cl)), &nu[2]), wt);
  *ty = *MUL(NEG(wt), TANH(ADD(DIV(MUL(SCALE(w->c22, gcc), &nu[1]), wt), spin)));
  const dv *sqt = SQRT(ADD(MUL(tx, tx), MUL(ty, ty)));
  if (sqt->v * sqt->v > wt->v * wt->v) {
    const dv *limit = DIV(FABS(wt), sqt);
    dv_mul(tx, tx, limit);
    dv_mul(ty, ty, limit);
  }
}

static void creep_d(const wheelset_params *w, const double *y, const dattitude *a, dcontact *c)
{
  scratch sc;
  sc.top = 0;
  const dv *th = DIV(VAR(y, 3), &c->cod), *tetap = VAR(y, V + 3);
  const dv *sit = SIN(th), *cot = COS(th);
  dv k[3], nu[3], tx, ty;
  creep_velocity(w, y, a, c, sit, cot, k);
  const dv *k4 = SUB(&k[0], SCALE(2.0, VAR(y, V)));
  const dv *k5 = SUB(&k[1], SCALE(2.0, VAR(y, V + 1)));
  const dv *k6 = SHIFT(SUB(&k[2], SCALE(2.0, VAR(y, V + 2))), -2.0 * w->v);
  const dv *vr = SCALE(0.5, SQRT(ADD(ADD(MUL(k4, k4), MUL(k5, k5)), MUL(k6, k6))));
  const dv *sside = SCALE(c->side, &c->sid);
  nu[0] = *DIV(ADD(MUL(sit, &k[0]), MUL(cot, &k[2])), vr);
  nu[1] =
      *DIV(SUB(ADD(MUL3(cot, &c->cod, &k[0]), MUL(sside, &k[1])), MUL3(sit, &c->cod, &k[2])), vr);
  const dv *omb = SHIFT(VAR(y, BETA), w->v / w->rn0);
  nu[2] = *DIV(ADD(NEG(MUL(sside, omb)), MUL(&c->cod, tetap)), vr);
  creep_law(w, c, nu, &tx, &ty);
  c->t[0] = *ADD(MUL(sit, &tx), MUL3(cot, &c->cod, &ty));
  c->t[1] = *MUL(sside, &ty);
  c->t[2] = *SUB(MUL(cot, &tx), MUL3(sit, &c->cod, &ty));
}

/* m[k] = sum_i W_ki t_i, W the lever arms of wheel.f's Euler equations (rows 9, 10, 11). */
static void creep_moments_d(const dattitude *a, const dcontact *c, dv m[3])
{
  scratch sc;
  sc.top = 0;
  const dv *xr = &c->xr, *rx = &c->rx, *sis = &c->sis, *cs = &c->cos_;
  const dv *sit = &a->sit, *cot = &a->cot, *sip = &a->sip, *cop = &a->cop;
  const dv *arm[3][3] = {
      {NEG(ADD(MUL(xr, sit), MUL(MUL3(rx, sis, cot), cop))), NEG(MUL3(rx, sis, sip)),
       ADD(NEG(MUL(xr, cot)), MUL(MUL3(rx, sis, sit), cop))},
      {NEG(SUB(MUL3(xr, cot, sip), MUL(MUL3(rx, cs, cot), cop))),
       ADD(MUL(xr, cop), MUL3(rx, cs, sip)), SUB(MUL3(xr, sit, sip), MUL(MUL3(rx, cs, sit), cop))},
      {NEG(MUL(rx, ADD(MUL(cs, sit), MUL3(sis, cot, sip)))), MUL3(rx, sis, cop),
       NEG(MUL(rx, SUB(MUL(cs, cot), MUL3(sis, sit, sip))))}};
  for (int k = 0; k < 3; k++) {
    m[k] = *ADD(ADD(MUL(arm[k][0], &c->t[0]), MUL(arm[k][1], &c->t[1])), MUL(arm[k][2], &c->t[2]));
  }
}

/* f_1..f_6 of Newton's and Euler's laws. */
static void dynamics_d(const wheelset_params *w, const double *y, const dattitude *a,
                       const dcontact *l, const dcontact *r, const dv *e1, const dv *e2, dv f[6])
{
  scratch sc;
  sc.top = 0;
  const dv *tetap = VAR(y, V + 3), *phip = VAR(y, V + 4);
  const dv *omb = SHIFT(VAR(y, BETA), w->v / w->rn0);
  const dv *lm2 = SCALE(-2.0 * (w->xl * w->xl) * w->cz, VAR(y, 3));
  dv ml[3], mr[3], react[NP];
  creep_moments_d(a, l, ml);
  creep_moments_d(a, r, mr);
  for (int i = 0; i < NP; i++) {
    react[i] = *ADD(MUL(&l->g[i], e1), MUL(&r->g[i], e2));
  }
  f[0] = *ADD(ADD(&l->t[0], &r->t[0]), SUB(&react[0], SCALE(2.0 * w->cx, VAR(y, 0))));
  f[1] = *ADD(SHIFT(ADD(&l->t[1], &r->t[1]), -w->ma * w->g - w->mr * w->g), &react[1]);
  f[2] = *ADD(ADD(&l->t[2], &r->t[2]), ADD(SCALE(-2.0 * w->cz, VAR(y, 2)), &react[2]));
  const dv *tp_sip = MUL(tetap, &a->sip), *tp_cop = MUL(tetap, &a->cop);
  const dv *gyro3 = SUB(SUB(SCALE(w->li2, MUL(tp_sip, phip)), SCALE(w->li1, MUL(omb, phip))),
                        SCALE(w->li1 - w->li2, MUL(tp_sip, phip)));
  f[3] = *ADD(ADD(gyro3, ADD(&ml[0], &mr[0])), ADD(MUL(&a->cop, lm2), &react[3]));
  const dv *gyro4 =
      ADD(SCALE(w->li1, MUL(omb, tp_cop)), SCALE(w->li1 - w->li2, MUL(tp_sip, tp_cop)));
  f[4] = *ADD(ADD(gyro4, ADD(&ml[1], &mr[1])), &react[4]);
  f[5] = *ADD(ADD(SCALE(-w->li1, MUL(tp_cop, phip)), ADD(&ml[2], &mr[2])), MUL(&a->sip, lm2));
}

/* Rows 12-17 before their sign: G v of both sides, then the parallel normals. */
static void contact_rows_d(const double *y, const dattitude *a, const dcontact *l,
                           const dcontact *r, dv c[6])
{
  scratch sc;
  sc.top = 0;
  dv_const(&c[0], 0.0);
  dv_const(&c[1], 0.0);
  for (int i = 0; i < NP; i++) {
    const dv *vi = VAR(y, V + i);
    dv_add(&c[0], &c[0], MUL(&l->g[i], vi));
    dv_add(&c[1], &c[1], MUL(&r->g[i], vi));
  }
  const dcontact *side[2] = {l, r};
  for (int k = 0; k < 2; k++) {
    const dcontact *s = side[k];
    const dv *normal = ADD(SCALE(s->drx, &a->sip), MUL(&a->cop, &s->cos_));
    c[2 + 2 * k] = *ADD(SUB(ADD(MUL(&s->dgx, normal), MUL(SCALE(s->drx, &a->cot), &a->cop)),
                            MUL3(&a->cot, &a->sip, &s->cos_)),
                        MUL(&a->sit, &s->sis));
    c[3 + 2 * k] = *SUB(SUB(MUL(SCALE(s->drx, &a->sit), &a->cop), MUL3(&a->sit, &a->sip, &s->cos_)),
                        MUL(&a->cot, &s->sis));
  }
}
/* Rows of F = M(y) y' - f(y): row i of dfdy is -grad f_i, plus the gradient of the mass terms
 * in phi (rows 9 and 11, I_2 cos(phi) v_4' and I_1 sin(phi) v_4'). */
static void store_rows(const wheelset_params *w, const double *yp, const dattitude *a,
                       const dv f[6], const dv c[6], double *dfdy)
{
  memset(dfdy, 0, sizeof(double) * NEQ * NEQ);
  for (int i = 0; i < NP; i++) {
    MBDAE_AT(dfdy, NEQ, i, V + i) = -1.0;
  }
  for (int k = 0; k < NEQ; k++) {
    int j = ORDER[k];
    for (int i = 0; i < 6; i++) {
      MBDAE_AT(dfdy, NEQ, V + i, j) = k < f[i].n ? -f[i].d[k] : 0.0;
      MBDAE_AT(dfdy, NEQ, Q + i, j) = k < c[i].n ? -c[i].d[k] : 0.0;
    }
    if (k < a->cop.n) { /* theta, phi */
      MBDAE_AT(dfdy, NEQ, V + 3, j) += w->li2 * yp[V + 3] * a->cop.d[k];
      MBDAE_AT(dfdy, NEQ, BETA, j) += w->li1 * yp[V + 3] * a->sip.d[k];
    }
  }
}

/* The forces f and contact rows c with their gradients, and the attitude's. */
static int forward(const wheelset_params *w, const double *y, dv f[6], dv c[6], dattitude *a)
{
  scratch sc;
  sc.top = 0;
  const dv *theta = VAR(y, 3), *phi = VAR(y, 4);
  dv_sin(&a->sit, theta);
  dv_cos(&a->cot, theta);
  dv_sin(&a->sip, phi);
  dv_cos(&a->cop, phi);
  dcontact cl, cr;
  const dv *e1 = SCALE(LAMBDA_SCALE, VAR(y, LAM)), *e2 = SCALE(LAMBDA_SCALE, VAR(y, LAM + 1));
  if (contact_geometry_d(w, y, a, 1.0, &cl) != 0 || contact_geometry_d(w, y, a, -1.0, &cr) != 0 ||
      normal_forces_d(&cl, &cr, e1, e2) != 0) {
    return MBDAE_RECOVERABLE;
  }
  creep_d(w, y, a, &cl);
  creep_d(w, y, a, &cr);
  dynamics_d(w, y, a, &cl, &cr, e1, e2, f);
  contact_rows_d(y, a, &cl, &cr, c);
  return 0;
}

int wheelset_dfdy(const wheelset_params *w, const double *y, const double *yp, double *dfdy)
{
  dv f[6], c[6];
  dattitude a;
  int rc = forward(w, y, f, c, &a);
  if (rc != 0) {
    return rc;
  }
  store_rows(w, yp, &a, f, c, dfdy);
  for (int i = 0; i < NEQ * NEQ; i++) {
    if (!isfinite(dfdy[i])) {
      return MBDAE_RECOVERABLE;
    }
  }
  return 0;
}
