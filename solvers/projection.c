/* Orthogonal projection onto the constraint manifold after a step (the OPM of Hafner & Poell 2015):
 * the public mbdae_projector (include/mbdae/mbdae.h gives the contract).
 *
 * Algorithm (Hairer, Lubich & Wanner, Geometric Numerical Integration, 2nd ed., IV.4, Algorithm
 * 4.2 and the simplified Newton iteration after it; VII.2 for the velocity level): for the
 * positions q~ the step left,
 *   q = q~ + J^T mu,   g(q) = 0,   J = dg/dq at q~,
 * solved for mu by  mu_{k+1} = mu_k - (J J^T)^{-1} g(q~ + J^T mu_k)  with J J^T factored once;
 * then the velocities at the new q, v = v~ + K^T nu with K = d(G v + g_t)/dv = G(q), the same
 * iteration (one step is exact for this linear condition; a second removes the rounding of K).
 * J and K are central difference quotients of the problem's constraint functions over the
 * selected components; g itself is evaluated exactly, so the iteration ends where g = 0 to
 * rounding, whatever the small error of J (it only slows the contraction).
 * The components are classified once, at a generic point (the initial values shifted by
 * irregular offsets, so that no derivative vanishes by accident): a position is a component g
 * depends on; a velocity one that G v + g_t depends on and g does not. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "mbdae/mbdae.h"
#include "problem_type.h"
#include "projection.h"
#include "smalldense.h"

enum {
  POSITION_ITERATIONS = 10, /* simplified Newton iterations at most, position level */
  VELOCITY_ITERATIONS = 3   /* the same at velocity level (linear: 1 is exact but for rounding) */
};
/* The iteration has converged when no component moves by more than CONVERGED_ULPS units of
 * rounding of its size (max(|y_i|, 1)), or when the largest move is below ROUNDING_ULPS and no
 * longer halves (a simplified Newton iteration with this J contracts by orders of magnitude): what
 * is left is the rounding of g and of the solve, which more iterations only shuffle (seen on the
 * double pendulum: +-4.6e-16 alternating at velocity level). */
static const double CONVERGED_ULPS = 4.0;
static const double ROUNDING_ULPS = 64.0;

struct mbdae_projector {
  const mbdae_problem *p;
  int n, nc;        /* equations, constraints */
  int npos, nvel;   /* positions and velocities found */
  int *pos, *vel;   /* their indices in y */
  int *ipiv;        /* nc pivots of the factored J J^T */
  double *jac;      /* nc x max(npos, nvel): the gradient over the selected components */
  double *gram;     /* nc x nc: J J^T, then its LU factors */
  double *r, *plus; /* nc: a constraint level's values; the same at a shifted point */
  double *minus;    /* nc */
  double *ytmp;     /* n: shifted copies of y */
  double *ypzero;   /* n: y' of the evaluations at classification (zeros) */
};

/* One level of the constraints at (t, y, y'): 0 positions g, 1 velocities G v + g_t. */
static int level_values(const mbdae_projector *pr, int level, double t, const double *y,
                        const double *yp, double *out)
{
  return mbdae_problem_constraints(pr->p, t, y, yp, level == 0 ? out : NULL,
                                   level == 1 ? out : NULL, NULL);
}

/* A central-difference step for a component of size y (its cube-root-of-eps share: quadratic
 * constraints, as the pendulums', are differenced without truncation error). */
static double fd_step(double y) { return cbrt(DBL_EPSILON) * fmax(fabs(y), 1.0); }

/* Column c of J: d(level)/dy_j by central differences at (t, y, yp), into jac[:, c]. */
static int gradient_column(mbdae_projector *pr, int level, double t, const double *y,
                           const double *yp, int j, int c)
{
  size_t n = (size_t)pr->n;
  memcpy(pr->ytmp, y, sizeof(double) * n);
  double h = fd_step(y[j]);
  pr->ytmp[j] = y[j] + h;
  int rc = level_values(pr, level, t, pr->ytmp, yp, pr->plus);
  pr->ytmp[j] = y[j] - h;
  rc = rc == 0 ? level_values(pr, level, t, pr->ytmp, yp, pr->minus) : rc;
  for (int k = 0; k < pr->nc && rc == 0; k++) {
    MBDAE_AT(pr->jac, pr->nc, k, c) = (pr->plus[k] - pr->minus[k]) / (2.0 * h);
  }
  return rc;
}

/* J over the components idx[0..m-1] at (t, y, yp), and J J^T factored. */
static int gradient_and_gram(mbdae_projector *pr, int level, double t, const double *y,
                             const double *yp, const int *idx, int m)
{
  for (int c = 0; c < m; c++) {
    int rc = gradient_column(pr, level, t, y, yp, idx[c], c);
    if (rc != 0) {
      return rc;
    }
  }
  int nc = pr->nc;
  for (int a = 0; a < nc; a++) {
    for (int b = 0; b < nc; b++) {
      double s = 0.0;
      for (int c = 0; c < m; c++) {
        s += MBDAE_AT(pr->jac, nc, a, c) * MBDAE_AT(pr->jac, nc, b, c);
      }
      MBDAE_AT(pr->gram, nc, a, b) = s;
    }
  }
  return mbdae_small_lu_factor(nc, pr->gram, pr->ipiv);
}

/* Simplified Newton on level(y) = 0 over the components idx: y += J^T mu until the correction is
 * at rounding level (0), or MBDAE_ERR_CONV after `iterations`. */
static int iterate(mbdae_projector *pr, int level, double t, double *y, const double *yp,
                   const int *idx, int m, int iterations)
{
  int rc = gradient_and_gram(pr, level, t, y, yp, idx, m);
  double previous = INFINITY; /* the largest move of the last iteration, in ulps */
  for (int it = 0; it < iterations && rc == 0; it++) {
    rc = level_values(pr, level, t, y, yp, pr->r);
    rc = rc == 0 ? mbdae_small_lu_solve(pr->nc, pr->gram, pr->ipiv, pr->r) : rc;
    if (rc != 0) {
      break;
    }
    double moved = 0.0;
    for (int c = 0; c < m; c++) {
      double d = 0.0;
      for (int k = 0; k < pr->nc; k++) {
        d -= MBDAE_AT(pr->jac, pr->nc, k, c) * pr->r[k];
      }
      double y_old = y[idx[c]];
      y[idx[c]] = y_old + d;
      moved = fmax(moved, fabs(d) / (DBL_EPSILON * fmax(fabs(y_old), 1.0)));
    }
    if (moved <= CONVERGED_ULPS || (moved > 0.5 * previous && moved <= ROUNDING_ULPS)) {
      return 0;
    }
    previous = moved;
  }
  return rc != 0 ? rc : MBDAE_ERR_CONV;
}

int mbdae_projector_components(const mbdae_projector *pr, int level, const int **idx)
{
  *idx = level == 0 ? pr->pos : pr->vel;
  return level == 0 ? pr->npos : pr->nvel;
}

int mbdae_projector_gradient(mbdae_projector *pr, int level, double t, const double *y,
                             const double *yp, double *jac)
{
  const int *idx;
  int m = mbdae_projector_components(pr, level, &idx);
  for (int c = 0; c < m; c++) {
    int rc = gradient_column(pr, level, t, y, yp, idx[c], c);
    if (rc != 0) {
      return rc;
    }
  }
  memcpy(jac, pr->jac, sizeof(double) * (size_t)pr->nc * (size_t)m);
  return 0;
}

int mbdae_projector_apply(void *projector, double t, double *y, double *yp)
{
  mbdae_projector *pr = projector;
  if (!pr || !y || !yp) {
    return MBDAE_ERR_ARG;
  }
  int rc = iterate(pr, 0, t, y, yp, pr->pos, pr->npos, POSITION_ITERATIONS);
  return rc == 0 ? iterate(pr, 1, t, y, yp, pr->vel, pr->nvel, VELOCITY_ITERATIONS) : rc;
}

/* Does the level depend on component j at (t, y)?  Bitwise-equal values at y +- h e_j: no. */
static int depends_on(mbdae_projector *pr, int level, double t, const double *y, int j, int *dep)
{
  int rc = gradient_column(pr, level, t, y, pr->ypzero, j, 0);
  *dep = 0;
  for (int k = 0; k < pr->nc && rc == 0; k++) {
    *dep |= pr->plus[k] != pr->minus[k];
  }
  return rc;
}

/* Positions and velocities, at the initial values shifted by irregular offsets. */
static int classify(mbdae_projector *pr, double *y)
{
  int rc = mbdae_problem_init(pr->p, y, pr->ypzero);
  memset(pr->ypzero, 0, sizeof(double) * (size_t)pr->n);
  double t = mbdae_problem_t0(pr->p);
  for (int j = 0; j < pr->n; j++) {
    y[j] += 0.1 + 0.0731 * (double)(j % 7) + 0.0173 * (double)j;
  }
  for (int j = 0; j < pr->n && rc == 0; j++) {
    int on_pos = 0, on_vel = 0;
    rc = depends_on(pr, 0, t, y, j, &on_pos);
    rc = rc == 0 ? depends_on(pr, 1, t, y, j, &on_vel) : rc;
    if (on_pos) {
      pr->pos[pr->npos++] = j;
    } else if (on_vel) {
      pr->vel[pr->nvel++] = j;
    }
  }
  return rc;
}

/* The arrays of a projector for n equations and nc constraints, in one block after it. */
static mbdae_projector *allocate(int n, int nc)
{
  size_t nn = (size_t)n, c = (size_t)nc;
  size_t doubles = c * nn + c * c + 3 * c + 2 * nn;
  size_t ints = 2 * nn + c;
  mbdae_projector *pr = calloc(1, sizeof *pr + sizeof(double) * doubles + sizeof(int) * ints);
  if (!pr) {
    return NULL;
  }
  double *d = (double *)(pr + 1);
  pr->jac = d;
  pr->gram = pr->jac + c * nn;
  pr->r = pr->gram + c * c;
  pr->plus = pr->r + c;
  pr->minus = pr->plus + c;
  pr->ytmp = pr->minus + c;
  pr->ypzero = pr->ytmp + nn;
  int *i = (int *)(pr->ypzero + nn);
  pr->pos = i;
  pr->vel = i + nn;
  pr->ipiv = i + 2 * nn;
  pr->n = n;
  pr->nc = nc;
  return pr;
}

static int refuse(const mbdae_problem *p, char *msg, size_t msglen, const char *why)
{
  if (msg && msglen > 0) {
    snprintf(msg, msglen, "no orthogonal projection for %s: %s", mbdae_problem_spec(p), why);
  }
  return MBDAE_ERR_UNSUPPORTED;
}

int mbdae_projector_create(const mbdae_problem *p, mbdae_projector **out, char *msg, size_t msglen)
{
  if (!out) {
    return MBDAE_ERR_ARG;
  }
  *out = NULL;
  if (!p) {
    return MBDAE_ERR_ARG;
  }
  int n = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p);
  if (nc <= 0) {
    return refuse(p, msg, msglen, "the problem (in this form) has no constraints");
  }
  if (mbdae_problem_constraints_mapped(p)) {
    return refuse(p, msg, msglen,
                  "the problem (in this form) has no constraints to project onto: they hold by "
                  "construction (the minimal coordinates of form=ssf)");
  }
  mbdae_projector *pr = allocate(n, nc);
  double *y = malloc(sizeof(double) * (size_t)n);
  if (!pr || !y) {
    free(pr);
    free(y);
    return MBDAE_ERR_NOMEM;
  }
  pr->p = p;
  int rc = classify(pr, y);
  free(y);
  if (rc == 0 && (pr->npos < nc || pr->nvel < nc)) {
    rc = refuse(p, msg, msglen, "fewer positions or velocities than constraints");
  } else if (rc != 0 && msg && msglen > 0) {
    snprintf(msg, msglen, "the constraints of %s cannot be evaluated: %s", mbdae_problem_spec(p),
             mbdae_strerror(rc));
  }
  if (rc != 0) {
    free(pr);
    return rc;
  }
  *out = pr;
  return 0;
}

void mbdae_projector_destroy(mbdae_projector *pr) { free(pr); }
