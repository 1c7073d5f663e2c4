/* Hidden constraints g, g', g'' of the Cartesian forms along the form's own flow (mechanical.h):
 * for ggl along q' = v - W^T mu, for the others q' = v with a from y' (or y, acc_vars). */
#include <stdlib.h>

#include "dense.h"
#include "mech_layer.h"

/* ggl_levels below with the model's reaction_rate: O(nq) work. */
static int ggl_levels_by_rate(const mech_params *mp, double t, const double *y, const double *yp,
                              double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  size_t nq = (size_t)l.nq;
  double *u = malloc(sizeof(double) * 2 * nq), *du = u ? u + nq : NULL;
  if (!u) {
    return MBDAE_ERR_NOMEM;
  }
  int rc = m->reaction(mp, t, y, y + l.MU, u, NULL, NULL, NULL);
  for (size_t i = 0; rc == 0 && i < nq; i++) {
    u[i] = y[l.V + i] - u[i];
  }
  rc = rc == 0 ? m->reaction_rate(mp, t, y, y + l.MU, u, yp + l.MU, du) : rc;
  for (size_t i = 0; rc == 0 && i < nq; i++) {
    du[i] = yp[l.V + i] - du[i];
  }
  rc = rc == 0 ? m->con_vel(mp, t, y, u, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, y, u, du, gacc, NULL, NULL) : rc;
  free(u);
  return rc;
}

/* ggl: g' and g'' along q' = u = v - W^T mu, u' = v' - d(W^T mu)/dq u - d(W^T mu)/dt - W^T mu'. */
static int ggl_levels(const mech_params *mp, double t, const double *y, const double *yp,
                      double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  size_t nq = (size_t)l.nq;
  if (m->reaction_rate) {
    return ggl_levels_by_rate(mp, t, y, yp, gvel, gacc);
  }
  scratch buf;
  double *work = mech_scratch_get(&buf, 3 * nq + nq * nq + nq * (size_t)l.nc);
  if (!work) {
    return MBDAE_ERR_NOMEM;
  }
  double *u = work, *du = u + nq, *wtlt = du + nq, *wtlq = wtlt + nq, *wt = wtlq + nq * nq;
  int rc = m->reaction(mp, t, y, y + l.MU, u, wt, wtlq, wtlt);
  for (size_t i = 0; rc == 0 && i < nq; i++) {
    u[i] = y[l.V + i] - u[i];
  }
  for (size_t i = 0; rc == 0 && i < nq; i++) {
    double s = wtlt[i];
    for (size_t j = 0; j < nq; j++) {
      s += MBDAE_AT(wtlq, nq, i, j) * u[j];
    }
    for (size_t k = 0; k < (size_t)l.nc; k++) {
      s += MBDAE_AT(wt, nq, i, k) * yp[l.MU + k];
    }
    du[i] = yp[l.V + i] - s;
  }
  rc = rc == 0 ? m->con_vel(mp, t, y, u, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, y, u, du, gacc, NULL, NULL) : rc;
  mech_scratch_release(&buf);
  return rc;
}

int mech_cartesian_constraints(const mech_params *mp, double t, const double *y, const double *yp,
                               double *gpos, double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  const double *q = y, *v = y + m->nq;
  const double *a = m->acc_vars ? y + 2 * m->nq : yp + m->nq; /* acc_vars: a is in y */
  int ggl = form_of(mp)->mu_level != MECH_LEVEL_NONE && (gvel || gacc);
  int both = !ggl && gpos && gvel && m->con_pos_vel; /* g and g' in one evaluation */
  int rc = both ? m->con_pos_vel(mp, t, q, v, gpos, gvel) : gpos ? m->con(mp, t, q, gpos, NULL) : 0;
  if (rc == 0 && ggl) {
    scratch buf;
    double *gv = gvel ? gvel : mech_scratch_get(&buf, (size_t)m->nc);
    rc = gv ? ggl_levels(mp, t, y, yp, gv, gacc) : MBDAE_ERR_NOMEM;
    if (gv != gvel) {
      mech_scratch_release(&buf);
    }
    return rc;
  }
  rc = rc == 0 && gvel && !both ? m->con_vel(mp, t, q, v, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, q, v, a, gacc, NULL, NULL) : rc;
  return rc;
}
