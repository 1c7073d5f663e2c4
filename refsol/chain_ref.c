/* The pendulum chain reference (Thomsen 2005, 3.4, problems/chain.c) at t_end, for any
 * configuration of the chain's spec keys, computed in quadruple precision (__float128,
 * libquadmath) from the angle (state-space) formulation: refsol/dpendulum_ref.c generalised from
 * two links to n.
 *
 * theta_k is the angle of rod k from the downward vertical, d_k = l_k (sin theta_k, cos theta_k),
 * p_k = d_1 + ... + d_k, y pointing down, gravity g = 9.81 along +y.  With mu_k = m_k + ... + m_n
 * and C_ij = mu_max(i,j) l_i l_j, T = 1/2 sum_ij C_ij cos(theta_i - theta_j) omega_i omega_j,
 * V = -g sum_k mu_k l_k cos theta_k, and Lagrange's equations are
 *   sum_j C_ij cos(theta_i - theta_j) omega_j' = -sum_j C_ij sin(theta_i - theta_j) omega_j^2
 *                                                 - g mu_i l_i sin theta_i,
 * a positive definite system (the kinetic metric), solved by Cholesky's method in quad.  The
 * Cartesian state follows: p_k'' = p_{k-1}'' + l_k (omega_k' (cos, -sin) - omega_k^2 (sin, cos)),
 * and the rod forces per unit length from the last link back,
 *   F_k l_k^2 = (m_k g e_y - m_k p_k'' + F_{k+1} d_{k+1}).d_k   (F_{n+1} = 0).
 * For n = 2 with unit masses and lengths these are eq. (7) of Hafner & Poell in the angles
 * phi_k = pi/2 - theta_k (refsol/dpendulum_ref.c); for n = 1, the pendulum (refsol/pendulum_ref.c,
 * whose exact solution test_refsol compares with).
 *
 * Two independent integrations in __float128, as for the double pendulum:
 * 1. Gragg-Bulirsch-Stoer extrapolation (Hairer, Norsett & Wanner, Solving ODEs I, II.9): the
 *    modified midpoint rule with 2, 4, ..., 2 GBS_STAGES substeps, Aitken-Neville extrapolation
 *    in h^2, fixed macro steps.
 * 2. Gauss-Legendre collocation with GL_STAGES stages (Hairer, Lubich & Wanner, Geometric
 *    Numerical Integration, II.1.3), nodes by Newton's method on the Legendre polynomial in quad,
 *    stage equations solved by fixed-point iteration to quad rounding.
 * The motion is chaotic: the agreement of the two, stated in the output, is the measure of the
 * digits that can be trusted.  The configuration comes from the canonical spec through
 * problems/chain_config.c, the parser of the library's chain itself. */
#include <math.h>
#include <quadmath.h>
#include <stdlib.h>
#include <string.h>

#include "chain_config.h"
#include "refsol.h"

typedef __float128 quad;

enum { PRINT_DIGITS = 22 }; /* significant digits in the data file */

/* Macro steps per unit of time: 800 GBS steps of order 20, 400 Gauss-Legendre steps of order 24,
 * four times the double pendulum's: from n = 3 links on the free end whips round, and with the
 * double pendulum's steps the two methods agreed to only 12 digits for n = 7 (energy error
 * 2e-18); with these, to 22 digits or more for every committed chain (the files say). */
enum { GBS_STAGES = 10, GBS_STEPS_PER_TIME = 800 };
enum { GL_STAGES = 12, GL_STEPS_PER_TIME = 400, GL_MAX_ITER = 200 };

/* The chain in quad: its parameters and the work of one right-hand side. */
typedef struct chain_q {
  int n;
  quad g;
  quad *mass, *length, *mu; /* per link; mu = tail masses */
  quad *mat, *s, *c;        /* n x n system, sin and cos of the angles */
  refsol_progress progress; /* NULL, or told the share of macro steps done */
  void *progress_ctx;
  long done, total, every; /* macro steps done and in all, steps between two reports */
} chain_q;

/* One macro step done: tell the progress observer every cq->every steps. */
static void step_done(chain_q *cq)
{
  cq->done++;
  if (cq->progress && cq->done % cq->every == 0) {
    cq->progress(cq->progress_ctx, (double)cq->done / (double)cq->total);
  }
}

static int chain_q_alloc(const chain_config *cfg, chain_q *cq)
{
  size_t n = (size_t)cfg->n;
  cq->n = cfg->n;
  cq->g = 9.81Q; /* exactly 9.81, as for the pendulum and the double pendulum */
  cq->mass = malloc(sizeof(quad) * (n * n + 5 * n));
  if (!cq->mass) {
    return -1;
  }
  cq->length = cq->mass + n;
  cq->mu = cq->length + n;
  cq->s = cq->mu + n;
  cq->c = cq->s + n;
  cq->mat = cq->c + n;
  for (int k = cfg->n - 1; k >= 0; k--) {
    /* the doubles the library integrates with, exactly (a spec's "0.3" is double(0.3)) */
    cq->mass[k] = chain_value(&cfg->mass, k);
    cq->length[k] = chain_value(&cfg->length, k);
    cq->mu[k] = cq->mass[k] + (k + 1 < cfg->n ? cq->mu[k + 1] : 0);
  }
  return 0;
}

/* Solve the symmetric positive definite mat x = b in place (Cholesky, lower factor in mat). */
static void cholesky_solve(int n, quad *mat, quad *b)
{
  for (int j = 0; j < n; j++) {
    quad d = mat[j + j * n];
    for (int k = 0; k < j; k++) {
      d -= mat[j + k * n] * mat[j + k * n];
    }
    d = sqrtq(d);
    mat[j + j * n] = d;
    for (int i = j + 1; i < n; i++) {
      quad v = mat[i + j * n];
      for (int k = 0; k < j; k++) {
        v -= mat[i + k * n] * mat[j + k * n];
      }
      mat[i + j * n] = v / d;
    }
  }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < i; k++) {
      b[i] -= mat[i + k * n] * b[k];
    }
    b[i] /= mat[i + i * n];
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int k = i + 1; k < n; k++) {
      b[i] -= mat[k + i * n] * b[k];
    }
    b[i] /= mat[i + i * n];
  }
}

/* z = (theta, omega), dz = (omega, omega') by Lagrange's equations. */
static void rhs(chain_q *cq, const quad *z, quad *dz)
{
  int n = cq->n;
  const quad *w = z + n;
  quad *acc = dz + n;
  for (int k = 0; k < n; k++) {
    sincosq(z[k], &cq->s[k], &cq->c[k]);
    dz[k] = w[k];
  }
  for (int i = 0; i < n; i++) {
    acc[i] = -cq->g * cq->mu[i] * cq->length[i] * cq->s[i];
    for (int j = 0; j < n; j++) {
      quad coupling = cq->mu[i > j ? i : j] * cq->length[i] * cq->length[j];
      quad cij = cq->c[i] * cq->c[j] + cq->s[i] * cq->s[j];
      quad sij = cq->s[i] * cq->c[j] - cq->c[i] * cq->s[j];
      cq->mat[i + j * n] = coupling * cij;
      acc[i] -= coupling * sij * w[j] * w[j];
    }
  }
  cholesky_solve(n, cq->mat, acc);
}

/* T + V, conserved: a by-product check of each integration. */
static quad energy(const chain_q *cq, const quad *z)
{
  quad e = 0;
  for (int i = 0; i < cq->n; i++) {
    e -= cq->g * cq->mu[i] * cq->length[i] * cosq(z[i]);
    for (int j = 0; j < cq->n; j++) {
      e += cq->mu[i > j ? i : j] * cq->length[i] * cq->length[j] * cosq(z[i] - z[j]) *
           z[cq->n + i] * z[cq->n + j] / 2;
    }
  }
  return e;
}

/* ---- 1. Gragg-Bulirsch-Stoer --------------------------------------------------------------- */

/* The modified midpoint rule over [0, H] with m substeps (m even) from z into out; work: 3 dim. */
static void midpoint(chain_q *cq, int dim, const quad *z, quad big_h, int m, quad *out, quad *work)
{
  quad h = big_h / m, *prev = work, *f = work + dim;
  memcpy(prev, z, sizeof(quad) * (size_t)dim);
  rhs(cq, prev, f);
  for (int i = 0; i < dim; i++) {
    out[i] = prev[i] + h * f[i];
  }
  for (int step = 1; step < m; step++) {
    rhs(cq, out, f);
    for (int i = 0; i < dim; i++) {
      quad next = prev[i] + 2 * h * f[i];
      prev[i] = out[i];
      out[i] = next;
    }
  }
}

/* One macro step: T_{j,1} from 2 j substeps, T_{j,l+1} = T_{j,l} + (T_{j,l} - T_{j-1,l}) /
 * ((n_j / n_{j-l})^2 - 1); table: GBS_STAGES rows of dim, work: 2 dim. */
static void gbs_step(chain_q *cq, int dim, quad *z, quad big_h, quad *table, quad *work)
{
  for (int j = 0; j < GBS_STAGES; j++) {
    midpoint(cq, dim, z, big_h, 2 * (j + 1), table + (size_t)j * (size_t)dim, work);
    for (int l = j - 1; l >= 0; l--) {
      quad ratio = (quad)(j + 1) / (l + 1), *lo = table + (size_t)l * (size_t)dim;
      const quad *hi = lo + dim;
      for (int i = 0; i < dim; i++) {
        lo[i] = hi[i] + (hi[i] - lo[i]) / (ratio * ratio - 1);
      }
    }
  }
  memcpy(z, table, sizeof(quad) * (size_t)dim);
}

static int integrate_gbs(chain_q *cq, quad *z, quad tend, long steps)
{
  int dim = 2 * cq->n;
  quad *work = malloc(sizeof(quad) * (size_t)dim * (GBS_STAGES + 2));
  if (!work) {
    return -1;
  }
  for (long k = 0; k < steps; k++) {
    gbs_step(cq, dim, z, tend / steps, work + 2 * dim, work);
    step_done(cq);
  }
  free(work);
  return 0;
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
    quad x = cosq(M_PIq * (GL_STAGES - i - 0.25Q) / (GL_STAGES + 0.5Q)), p, dp;
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
  for (int i = 0; i < GL_STAGES; i++) { /* l_j has degree s - 1: the s-point rule is exact */
    for (int j = 0; j < GL_STAGES; j++) {
      quad sum = 0;
      for (int m = 0; m < GL_STAGES; m++) {
        sum += gl->b[m] * lagrange(gl->c, j, gl->c[i] * gl->c[m]);
      }
      gl->a[i][j] = gl->c[i] * sum;
    }
  }
}

/* One collocation step: K_i = f(z + h sum_j a_ij K_j) by fixed-point iteration until the stage
 * derivatives stop changing, then z += h sum_i b_i K_i.  k, knew: GL_STAGES x dim; stage: dim. */
static void gl_step(const gauss *gl, chain_q *cq, int dim, quad *z, quad h, quad *k, quad *knew,
                    quad *stage)
{
  rhs(cq, z, k);
  for (int i = 1; i < GL_STAGES; i++) {
    memcpy(k + i * dim, k, sizeof(quad) * (size_t)dim);
  }
  for (int it = 0; it < GL_MAX_ITER; it++) {
    quad change = 0, size = 0;
    for (int i = 0; i < GL_STAGES; i++) {
      for (int v = 0; v < dim; v++) {
        quad sum = 0;
        for (int j = 0; j < GL_STAGES; j++) {
          sum += gl->a[i][j] * k[j * dim + v];
        }
        stage[v] = z[v] + h * sum;
      }
      rhs(cq, stage, knew + i * dim);
      for (int v = 0; v < dim; v++) {
        change = fmaxq(change, fabsq(knew[i * dim + v] - k[i * dim + v]));
        size = fmaxq(size, fabsq(knew[i * dim + v]));
      }
    }
    memcpy(k, knew, sizeof(quad) * (size_t)(GL_STAGES * dim));
    if (change <= 4 * FLT128_EPSILON * size) {
      break;
    }
  }
  for (int v = 0; v < dim; v++) {
    quad sum = 0;
    for (int i = 0; i < GL_STAGES; i++) {
      sum += gl->b[i] * k[i * dim + v];
    }
    z[v] += h * sum;
  }
}

static int integrate_gl(chain_q *cq, quad *z, quad tend, long steps)
{
  int dim = 2 * cq->n;
  gauss gl;
  gauss_init(&gl);
  quad *work = malloc(sizeof(quad) * (size_t)dim * (2 * GL_STAGES + 1));
  if (!work) {
    return -1;
  }
  for (long s = 0; s < steps; s++) {
    gl_step(&gl, cq, dim, z, tend / steps, work, work + GL_STAGES * dim,
            work + 2 * GL_STAGES * dim);
    step_done(cq);
  }
  free(work);
  return 0;
}

/* ---- the data file ------------------------------------------------------------------------- */

/* The physical state at t_end: per link x, y, vx, vy, F, theta, omega (CARTESIAN_STRIDE each). */
enum { CX, CY, CVX, CVY, CF, CTHETA, COMEGA, CARTESIAN_STRIDE };

static int cartesian(chain_q *cq, const quad *z, quad *out)
{
  int n = cq->n;
  quad *dz = malloc(sizeof(quad) * 4 * (size_t)n), *acc = dz ? dz + 2 * n : NULL; /* p_k'' */
  if (!dz) {
    return -1;
  }
  rhs(cq, z, dz); /* also leaves sin, cos of the angles in cq->s, cq->c */
  quad px = 0, py = 0, vx = 0, vy = 0, ax = 0, ay = 0;
  for (int k = 0; k < n; k++) {
    quad *o = out + (size_t)k * CARTESIAN_STRIDE, l = cq->length[k], s = cq->s[k], c = cq->c[k];
    quad om = z[n + k], al = dz[n + k];
    o[CX] = px += l * s;
    o[CY] = py += l * c;
    o[CVX] = vx += l * om * c;
    o[CVY] = vy -= l * om * s;
    acc[2 * k] = ax += l * (al * c - om * om * s);
    acc[2 * k + 1] = ay += l * (-al * s - om * om * c);
    o[CTHETA] = z[k];
    o[COMEGA] = om;
  }
  quad next_fx = 0, next_fy = 0; /* F_{k+1} d_{k+1} */
  for (int k = n - 1; k >= 0; k--) {
    quad *o = out + (size_t)k * CARTESIAN_STRIDE, l = cq->length[k], m = cq->mass[k];
    quad dx = l * cq->s[k], dy = l * cq->c[k];
    quad fx = -m * acc[2 * k] + next_fx, fy = m * cq->g - m * acc[2 * k + 1] + next_fy;
    o[CF] = (fx * dx + fy * dy) / (l * l);
    next_fx = o[CF] * dx;
    next_fy = o[CF] * dy;
  }
  free(dz);
  return 0;
}

/* The value of the component called name: x<k>, y<k>, vx<k>, vy<k>, F<k>, theta<k>, omega<k>,
 * mu<k> (0 on the solution); 0 or -1 when the name is not one of the chain's. */
static int component(const quad *state, int n, const char *name, quad *value)
{
  static const struct {
    const char *prefix;
    int slot;
  } kinds[] = {{"x", CX}, {"y", CY},         {"vx", CVX},       {"vy", CVY},
               {"F", CF}, {"theta", CTHETA}, {"omega", COMEGA}, {"mu", -1}};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    size_t len = strlen(kinds[i].prefix);
    char *end = NULL;
    if (strncmp(name, kinds[i].prefix, len) != 0 || name[len] < '1' || name[len] > '9') {
      continue;
    }
    long k = strtol(name + len, &end, 10);
    if (*end != '\0' || k > n) {
      return -1;
    }
    *value = kinds[i].slot < 0 ? 0 : state[(size_t)(k - 1) * CARTESIAN_STRIDE + kinds[i].slot];
    return 0;
  }
  return -1;
}

/* A key of the double pendulum (problems/dpendulum.c: m1=, m2=, l1=, l2=, theta1=, theta2=,
 * omega1=, omega2=, the angles as the chain's) as the entry of its two-link chain: 0; 1 when
 * key is not one (a key of the formulation). */
static int dpendulum_key(chain_config *cfg, const char *key, const char *value)
{
  chain_list *lists[] = {&cfg->mass, &cfg->length, &cfg->theta, &cfg->omega};
  const char *names[] = {"m", "l", "theta", "omega"};
  for (int i = 0; i < 4; i++) {
    size_t len = strlen(names[i]);
    if (strncmp(key, names[i], len) == 0 && (key[len] == '1' || key[len] == '2') &&
        key[len + 1] == '\0') {
      if (lists[i]->count == 1) { /* the default of both links, then this one */
        lists[i]->v[1] = lists[i]->v[0];
        lists[i]->count = 2;
      }
      lists[i]->v[key[len] - '1'] = strtod(value, NULL); /* checked by the library */
      return 0;
    }
  }
  return 1;
}

/* The configuration of a canonical chain spec ("chain:n=...,form=...") or double pendulum spec
 * ("dpendulum:m1=...,form=...", the chain of two links): 0, or -1 with msg. */
static int parse_spec(const char *spec, chain_config *cfg, char *msg, size_t msglen)
{
  char buf[1024];
  chain_config_default(cfg);
  int dpendulum = strncmp(spec, "dpendulum:", 10) == 0;
  size_t skip = dpendulum ? 10 : 6;
  if ((!dpendulum && strncmp(spec, "chain:", 6) != 0) || strlen(spec) >= sizeof buf) {
    snprintf(msg, msglen, "not a canonical chain or dpendulum spec: '%.200s'", spec);
    return -1;
  }
  cfg->n = dpendulum ? 2 : cfg->n;
  strcpy(buf, spec + skip);
  for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
    char *eq = strchr(item, '=');
    if (!eq) {
      snprintf(msg, msglen, "malformed item '%.100s' in '%.200s'", item, spec);
      return -1;
    }
    *eq = '\0';
    int rc = dpendulum ? dpendulum_key(cfg, item, eq + 1)
                       : chain_config_set(cfg, item, eq + 1, msg, msglen);
    if (rc < 0) {
      return -1;
    }
    /* rc == 1: a key of the formulation (form=, alpha=, beta=): the names carry its layout */
  }
  return chain_config_check(cfg, msg, msglen);
}

/* The largest relative difference between a and b (equal entries, zeros included, count 0). */
static double max_reldiff(const quad *a, const quad *b, size_t n)
{
  quad worst = 0;
  for (size_t i = 0; i < n; i++) {
    quad d = a[i] == b[i] ? 0 : fabsq(a[i] - b[i]) / fabsq(a[i]);
    worst = d > worst ? d : worst;
  }
  return (double)worst;
}

/* The spec's start into z0, and both integrations from it into zgbs and zgl. */
static void start(const chain_config *cfg, quad *z0)
{
  int n = cfg->n;
  for (int k = 0; k < n; k++) {
    int quarters;
    double theta = chain_value(&cfg->theta, k);
    z0[k] = chain_quarter_turns(theta, &quarters) ? quarters * M_PI_2q : (quad)theta;
    z0[n + k] = chain_value(&cfg->omega, k);
  }
}

static int integrate_both(chain_q *cq, const chain_config *cfg, quad *z0, quad *zgbs, quad *zgl)
{
  int n = cfg->n;
  start(cfg, z0);
  memcpy(zgbs, z0, sizeof(quad) * 2 * (size_t)n);
  memcpy(zgl, z0, sizeof(quad) * 2 * (size_t)n);
  long gbs_steps = (long)ceil(GBS_STEPS_PER_TIME * cfg->tend);
  long gl_steps = (long)ceil(GL_STEPS_PER_TIME * cfg->tend);
  if (integrate_gbs(cq, zgbs, cfg->tend, gbs_steps) != 0 ||
      integrate_gl(cq, zgl, cfg->tend, gl_steps) != 0) {
    return -1;
  }
  return 0;
}

static int write_header(FILE *out, const char *spec, const chain_config *cfg, double diff,
                        double moved, double egbs, double egl, const quad *zgbs)
{
  int n = cfg->n, rc = 0;
  long gbs_steps = (long)ceil(GBS_STEPS_PER_TIME * cfg->tend);
  long gl_steps = (long)ceil(GL_STEPS_PER_TIME * cfg->tend);
  int confirmed = diff > 0 ? (int)floor(-log10(diff)) : 33;
  rc |= fprintf(out,
                "# Pendulum chain (Thomsen 2005, 3.4), n = %d links, t in [0, %.17g].\n"
                "# spec: %s\n"
                "# Reference at t_end from the angle formulation: theta_k of rod k from the\n"
                "# downward vertical, Lagrange's equations sum_j C_ij cos(theta_i - theta_j)\n"
                "# theta_j'' = -sum_j C_ij sin(theta_i - theta_j) theta_j'^2 - g mu_i l_i\n"
                "# sin theta_i, C_ij = mu_max(i,j) l_i l_j, mu_k = m_k + ... + m_n, g = 9.81;\n"
                "# rod forces F_k l_k^2 = (m_k g e_y - m_k p_k'' + F_{k+1} d_{k+1}).d_k.\n"
                "# Integrated in __float128 by Gragg-Bulirsch-Stoer extrapolation: modified\n"
                "# midpoint rule with 2, 4, ..., %d substeps, extrapolated in h^2 (order %d),\n"
                "# %ld fixed macro steps.\n"
                "# Check: Gauss-Legendre collocation in __float128, %d stages (order %d), %ld\n"
                "# fixed steps: largest relative difference %.1e.\n"
                "# Digits confirmed: %d (%d printed).\n"
                "# Energy T + V at t_end minus at t = 0: %.1e (GBS), %.1e (Gauss-Legendre).\n"
                "# Sensitivity (chains of n >= 2 links are chaotic): g = double(9.81) instead of\n"
                "# 9.81 moves these values by up to %.1e relative: about %d digits survive\n"
                "# the rounding of the data.\n"
                "# Whole turns of theta_1..theta_n at t_end (form=ssf):",
                n, cfg->tend, spec, 2 * GBS_STAGES, 2 * GBS_STAGES, gbs_steps, GL_STAGES,
                2 * GL_STAGES, gl_steps, diff, confirmed, PRINT_DIGITS, egbs, egl, moved,
                moved > 0 ? (int)floor(-log10(moved)) : 33) < 0;
  for (int k = 0; k < n; k++) {
    quad principal = atan2q(sinq(zgbs[k]), cosq(zgbs[k]));
    rc |= fprintf(out, " %d", (int)lround((double)((zgbs[k] - principal) / (2 * M_PIq)))) < 0;
  }
  rc |= fprintf(out, "\n# Generated by refsol/chain_ref.c (`mbdae refsol SPEC --out FILE`).\n"
                     "[yref]\n") < 0;
  return rc ? -1 : 0;
}

static int write_values(FILE *out, const quad *state, int n, int neq, const char *const *names,
                        char *msg, size_t msglen)
{
  for (int i = 0; i < neq; i++) {
    quad v;
    char buf[64];
    if (component(state, n, names[i], &v) != 0) {
      snprintf(msg, msglen, "no chain component is called '%.60s'", names[i]);
      return -2;
    }
    quadmath_snprintf(buf, sizeof buf, "%.*Qe", PRINT_DIGITS - 1, v);
    if (fprintf(out, "%3d  %s\n", i + 1, buf) < 0) {
      return -1;
    }
  }
  return 0;
}

int refsol_chain_write(FILE *out, const char *spec, int neq, const char *const *names, char *msg,
                       size_t msglen)
{
  return refsol_chain_write_progress(out, spec, neq, names, msg, msglen, NULL, NULL);
}

int refsol_chain_write_progress(FILE *out, const char *spec, int neq, const char *const *names,
                                char *msg, size_t msglen, refsol_progress progress, void *ctx)
{
  chain_config cfg;
  if (parse_spec(spec, &cfg, msg, msglen) != 0) {
    return -2;
  }
  chain_q cq = {.progress = progress, .progress_ctx = ctx};
  /* GBS, Gauss-Legendre, GBS again (the sensitivity to g) */
  cq.total =
      2 * (long)ceil(GBS_STEPS_PER_TIME * cfg.tend) + (long)ceil(GL_STEPS_PER_TIME * cfg.tend);
  cq.every = cq.total / 100 > 0 ? cq.total / 100 : 1;
  size_t n = (size_t)cfg.n;
  quad *z = malloc(sizeof(quad) * (6 * n + 2 * CARTESIAN_STRIDE * n));
  if (!z || chain_q_alloc(&cfg, &cq) != 0) {
    free(z);
    snprintf(msg, msglen, "out of memory");
    return -1;
  }
  quad *z0 = z, *zgbs = z + 2 * n, *zgl = z + 4 * n, *ygbs = z + 6 * n;
  quad *ygl = ygbs + CARTESIAN_STRIDE * n;
  int rc = integrate_both(&cq, &cfg, z0, zgbs, zgl);
  rc = rc == 0 ? cartesian(&cq, zgbs, ygbs) : rc;
  rc = rc == 0 ? cartesian(&cq, zgl, ygl) : rc;
  quad e0 = energy(&cq, z0), egbs = energy(&cq, zgbs), egl = energy(&cq, zgl);
  double diff = max_reldiff(ygbs, ygl, CARTESIAN_STRIDE * n);
  /* How far the chaotic motion carries a rounding of the data: g = double(9.81), the g that a
   * double-precision solver integrates, instead of 9.81 (zgl and ygl are reused). */
  cq.g = (quad)CHAIN_GRAVITY;
  memcpy(zgl, z0, sizeof(quad) * 2 * n);
  rc = rc == 0 ? integrate_gbs(&cq, zgl, cfg.tend, (long)ceil(GBS_STEPS_PER_TIME * cfg.tend)) : rc;
  rc = rc == 0 ? cartesian(&cq, zgl, ygl) : rc;
  cq.g = 9.81Q;
  if (rc == 0) {
    double moved = max_reldiff(ygbs, ygl, CARTESIAN_STRIDE * n);
    rc = write_header(out, spec, &cfg, diff, moved, (double)(egbs - e0), (double)(egl - e0), zgbs);
  }
  rc = rc == 0 ? write_values(out, ygbs, cfg.n, neq, names, msg, msglen) : rc;
  if (rc == -1) {
    snprintf(msg, msglen, "out of memory or write error");
  }
  free(cq.mass);
  free(z);
  return rc;
}

/* ---- the trajectory ------------------------------------------------------------------------ */

/* Per component i, the largest |a - b| / |a| over the grid (rel, 0 where equal) and the largest
 * |a - b| over the largest |a| (scaled), folded in row by row. */
static void fold_agreement(const quad *a, const quad *b, int neq, quad *worst_diff, quad *largest,
                           double *rel)
{
  for (int i = 0; i < neq; i++) {
    quad d = fabsq(a[i] - b[i]);
    quad r = d == 0 || a[i] == 0 ? 0 : d / fabsq(a[i]); /* a zero drops out, as in scd */
    rel[i] = (double)r > rel[i] ? (double)r : rel[i];
    worst_diff[i] = d > worst_diff[i] ? d : worst_diff[i];
    largest[i] = fabsq(a[i]) > largest[i] ? fabsq(a[i]) : largest[i];
  }
}

/* The named components of the physical state into v (neq). */
static int named(const quad *state, int n, int neq, const char *const *names, quad *v, char *msg,
                 size_t msglen)
{
  for (int i = 0; i < neq; i++) {
    if (component(state, n, names[i], &v[i]) != 0) {
      snprintf(msg, msglen, "no chain component is called '%.60s'", names[i]);
      return -2;
    }
  }
  return 0;
}

/* Whole turns of the angles of z (n): (angle - its principal value) / 2 pi, the angle the
 * problem's minimal coordinate: the chain's theta_k (problems/chain.c: atan2(dx, dy)), or the
 * double pendulum's phi_k = pi/2 - theta_k from the horizontal (problems/dpendulum.c:
 * atan2(dy, dx)). */
static void whole_turns(const quad *z, int n, int from_horizontal, int *turns)
{
  for (int k = 0; k < n; k++) {
    quad angle = from_horizontal ? M_PI_2q - z[k] : z[k];
    quad principal = atan2q(sinq(angle), cosq(angle));
    turns[k] = (int)lround((double)((angle - principal) / (2 * M_PIq)));
  }
}

/* One interval of the grid by both methods, from zgbs and zgl in place. */
static int advance_both(chain_q *cq, quad *zgbs, quad *zgl, quad span, long gbs_steps,
                        long gl_steps)
{
  if (integrate_gbs(cq, zgbs, span, gbs_steps) != 0 || integrate_gl(cq, zgl, span, gl_steps) != 0) {
    return -1;
  }
  return 0;
}

/* Macro steps per grid interval: the reference's steps per unit of time, at least. */
static long steps_per_interval(double per_time, double tend, int nintervals)
{
  return (long)ceil(per_time * tend / nintervals);
}

int refsol_chain_trajectory(const char *spec, int neq, const char *const *names, int nintervals,
                            refsol_traj *out, char *msg, size_t msglen, refsol_progress progress,
                            void *ctx)
{
  chain_config cfg;
  if (nintervals < 1 || parse_spec(spec, &cfg, msg, msglen) != 0) {
    snprintf(msg, msglen, "bad spec or grid: '%.200s'", spec);
    return -2;
  }
  long gbs = steps_per_interval(GBS_STEPS_PER_TIME, cfg.tend, nintervals);
  long gl = steps_per_interval(GL_STEPS_PER_TIME, cfg.tend, nintervals);
  chain_q cq = {.progress = progress, .progress_ctx = ctx, .total = (gbs + gl) * nintervals};
  cq.every = cq.total / 100 > 0 ? cq.total / 100 : 1;
  size_t n = (size_t)cfg.n;
  quad *z = malloc(sizeof(quad) * (6 * n + 2 * CARTESIAN_STRIDE * n + 4 * (size_t)neq));
  if (!z || chain_q_alloc(&cfg, &cq) != 0) {
    free(z);
    snprintf(msg, msglen, "out of memory");
    return -1;
  }
  quad *zgbs = z + 2 * n, *zgl = z + 4 * n, *cgbs = z + 6 * n, *cgl = cgbs + CARTESIAN_STRIDE * n;
  quad *vgbs = cgl + CARTESIAN_STRIDE * n, *vgl = vgbs + neq, *diff = vgl + neq, *big = diff + neq;
  int rc = 0;
  start(&cfg, z);
  memcpy(zgbs, z, sizeof(quad) * 2 * n);
  memcpy(zgl, z, sizeof(quad) * 2 * n);
  memset(diff, 0, sizeof(quad) * 2 * (size_t)neq);
  memset(out->agree_rel, 0, sizeof(double) * (size_t)neq);
  for (int k = 0; rc == 0 && k <= nintervals; k++) {
    if (k > 0) {
      rc = advance_both(&cq, zgbs, zgl, (quad)cfg.tend / nintervals, gbs, gl);
    }
    rc = rc == 0 ? cartesian(&cq, zgbs, cgbs) : rc;
    rc = rc == 0 ? cartesian(&cq, zgl, cgl) : rc;
    rc = rc == 0 ? named(cgbs, cfg.n, neq, names, vgbs, msg, msglen) : rc;
    rc = rc == 0 ? named(cgl, cfg.n, neq, names, vgl, msg, msglen) : rc;
    if (rc == 0) {
      out->t[k] = cfg.tend * k / nintervals;
      for (int i = 0; i < neq; i++) {
        out->y[(size_t)k * neq + i] = (double)vgbs[i];
      }
      whole_turns(zgbs, cfg.n, strncmp(spec, "dpendulum", 9) == 0, out->turns + (size_t)k * n);
      fold_agreement(vgbs, vgl, neq, diff, big, out->agree_rel);
    }
  }
  for (int i = 0; rc == 0 && i < neq; i++) {
    out->agree_scaled[i] = big[i] > 0 ? (double)(diff[i] / big[i]) : 0.0;
  }
  if (rc == -1) {
    snprintf(msg, msglen, "out of memory");
  }
  free(cq.mass);
  free(z);
  return rc;
}
