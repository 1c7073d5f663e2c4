/* A start consistent to rounding at every level (mbdae_mech_consistent, mechanical.h): a given
 * guess (q, v, a, lambda) projected, one level after the other, by Newton's method with the
 * minimum-norm correction for the positions and velocities and the augmented (index-1) system
 * for the accelerations and multipliers (Hairer & Wanner, Solving ODEs II, 2nd ed., VII.1,
 * (1.14)-(1.16); Brenan, Campbell & Petzold 1996, 5.3, for consistent initialization):
 *   g(t,q) = 0:                 q <- q - G^T (G G^T)^{-1} g
 *   G v + g_t = 0:              v <- v - G^T (G G^T)^{-1} (G v + g_t)
 *   M a + W^T lambda = f,  g'' = 0:  (a, lambda) <- (a, lambda) - [M W^T; G 0]^{-1} (R, g'')
 * each repeated while the largest residual of its level still halves (at most ITER_MAX times),
 * which leaves it at the rounding of its evaluation. */
#include <math.h>
#include <string.h>

#include "mech_layer.h"

enum { ITER_MAX = 8 };

static double max_abs(const double *x, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

/* x -= G^T (G G^T)^{-1} r, G nc x nq column-major; gg (nc x nc) and piv are work. */
static int min_norm_step(int nq, int nc, const double *gq, double *r, double *gg, int *piv,
                         double *x)
{
  for (int i = 0; i < nc; i++) {
    for (int j = 0; j < nc; j++) {
      double s = 0.0;
      for (int k = 0; k < nq; k++) {
        s += gq[i + nc * k] * gq[j + nc * k];
      }
      gg[i + nc * j] = s;
    }
  }
  if (mech_lu_factor(nc, gg, piv)) {
    return MBDAE_ERR_SINGULAR;
  }
  mech_lu_solve(nc, gg, piv, r);
  for (int k = 0; k < nq; k++) {
    for (int i = 0; i < nc; i++) {
      x[k] -= gq[i + nc * k] * r[i];
    }
  }
  return 0;
}

typedef struct work {
  double *gq, *r, *gg, *kkt, *mass, *wt;
  int piv[64];
} work;

/* level 0: g(t, q) = 0 by moving q; level 1: G v + g_t = 0 by moving v; only the coordinates
 * (and velocities) that movable marks (NULL: all), G's other columns taken as zero. */
static int project_level(const mech_params *mp, int level, const int *movable, double t, double *q,
                         double *v, work *w)
{
  const mech_model *m = mp->model;
  int nq = m->nq, nc = m->nc;
  double last = HUGE_VAL;
  for (int it = 0; it < ITER_MAX; it++) {
    int rc = m->con(mp, t, q, level == 0 ? w->r : NULL, w->gq);
    rc = rc ? rc : level == 1 ? m->con_vel(mp, t, q, v, w->r, NULL) : 0;
    if (rc) {
      return rc;
    }
    for (int k = 0; movable && k < nq; k++) {
      if (!movable[k]) {
        memset(w->gq + (size_t)nc * (size_t)k, 0, sizeof(double) * (size_t)nc);
      }
    }
    double now = max_abs(w->r, nc);
    if (now == 0.0 || !(now < 0.5 * last)) {
      return 0;
    }
    last = now;
    rc = min_norm_step(nq, nc, w->gq, w->r, w->gg, w->piv, level == 0 ? q : v);
    if (rc) {
      return rc;
    }
  }
  return 0;
}

/* (a, lambda) solving M a + W^T lambda = f and g'' = 0 at (t, q, v). */
static int project_acceleration(const mech_params *mp, double t, const double *q, const double *v,
                                double *a, double *lam, work *w)
{
  const mech_model *m = mp->model;
  int nq = m->nq, nc = m->nc, n = nq + nc;
  int rc = m->con(mp, t, q, NULL, w->gq);
  rc = rc ? rc : m->dyn_jac(mp, t, q, v, a, lam, NULL, NULL, w->mass);
  rc = rc ? rc : m->reaction(mp, t, q, lam, NULL, w->wt, NULL, NULL);
  if (rc) {
    return rc;
  }
  mech_zero_matrix(w->kkt, n);
  mech_put_block(w->kkt, n, 0, 0, nq, nq, w->mass, 1.0);
  mech_put_block(w->kkt, n, 0, nq, nq, nc, w->wt, 1.0);
  mech_put_block(w->kkt, n, nq, 0, nc, nq, w->gq, 1.0);
  if (mech_lu_factor(n, w->kkt, w->piv)) {
    return MBDAE_ERR_SINGULAR;
  }
  double last = HUGE_VAL;
  for (int it = 0; it < ITER_MAX; it++) {
    rc = m->dyn(mp, t, q, v, a, lam, w->r);
    rc = rc ? rc : m->con_acc(mp, t, q, v, a, w->r + nq, NULL, NULL);
    if (rc) {
      return rc;
    }
    double now = max_abs(w->r, n);
    if (now == 0.0 || !(now < 0.5 * last)) {
      return 0;
    }
    last = now;
    mech_lu_solve(n, w->kkt, w->piv, w->r);
    for (int i = 0; i < nq; i++) {
      a[i] -= w->r[i];
    }
    for (int k = 0; k < nc; k++) {
      lam[k] -= w->r[nq + k];
    }
  }
  return 0;
}

int mbdae_mech_consistent(const void *params, const int *movable, double t, double *q, double *v,
                          double *a, double *lam)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  int nq = m->nq, nc = m->nc, n = nq + nc;
  if (n > 64 || m->groups > 1) {
    return MBDAE_ERR_UNSUPPORTED;
  }
  scratch buf;
  size_t need = (size_t)(nc * nq + n + nc * nc + n * n + nq * nq + nq * nc);
  double *p = mech_scratch_get(&buf, need);
  if (!p) {
    return MBDAE_ERR_NOMEM;
  }
  work w = {.gq = p};
  w.r = w.gq + nc * nq;
  w.gg = w.r + n;
  w.kkt = w.gg + nc * nc;
  w.mass = w.kkt + n * n;
  w.wt = w.mass + nq * nq;
  int rc = project_level(mp, 0, movable, t, q, v, &w);
  rc = rc ? rc : project_level(mp, 1, movable, t, q, v, &w);
  rc = rc ? rc : project_acceleration(mp, t, q, v, a, lam, &w);
  mech_scratch_release(&buf);
  return rc;
}
