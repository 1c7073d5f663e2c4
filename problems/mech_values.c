/* Consistent initial values and the reference of a formulation, from the model's (q, v, [a,]
 * lambda) with mu = 0; form=ssf maps them to minimal coordinates (mech_ssf.from_cartesian). */
#include <string.h>

#include "mech_layer.h"

static const double TWO_PI = 6.283185307179586476925286766559;

int mech_cartesian_init(const mech_params *mp, double *y0, double *yp0)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  scratch buf;
  double *work = mech_scratch_get(&buf, 2 * (size_t)l.n);
  if (!work) {
    return MBDAE_ERR_NOMEM;
  }
  double *y = work, *yp = work + l.n; /* (q, v, [a,] lambda, mu = 0) and (v, a, 0, 0) */
  memset(work, 0, sizeof(double) * 2 * (size_t)l.n);
  int rc = m->init(mp, y, y + l.V, m->acc_vars ? y + l.A : yp + l.V, y + l.L);
  memcpy(yp, y + l.V, sizeof(double) * (size_t)l.nq);
  if (m->acc_vars) {
    memcpy(yp + l.V, y + l.A, sizeof(double) * (size_t)l.nq);
  }
  if (rc == 0 && form_of(mp)->kind == MECH_KIND_MINIMAL) {
    rc = mech_ssf_state(mp, m->type->t0, y, y + l.V, y0, yp0);
  } else if (rc == 0) {
    memcpy(y0, y, sizeof(double) * (size_t)l.n);
    memcpy(yp0, yp, sizeof(double) * (size_t)l.n);
  }
  mech_scratch_release(&buf);
  return rc;
}

int mech_cartesian_ref(const mech_params *mp, double *yref)
{
  const mech_model *m = mp->model;
  if (m->acc_vars ? !m->ref_acc : !m->ref) {
    return MBDAE_ERR_NOREF;
  }
  layout l = mech_layout_of(mp);
  scratch buf;
  double *y = mech_scratch_get(&buf, (size_t)l.n);
  if (!y) {
    return MBDAE_ERR_NOMEM;
  }
  memset(y, 0, sizeof(double) * (size_t)l.n); /* mu = 0 */
  int rc =
      m->acc_vars ? m->ref_acc(mp, y, y + l.V, y + l.A, y + l.L) : m->ref(mp, y, y + l.V, y + l.L);
  const int *turns = m->ssf ? m->ssf->ref_turns : NULL;
  rc = rc == 0 ? mech_cartesian_ref_state(mp, m->type->tend, y, turns, yref) : rc;
  mech_scratch_release(&buf);
  return rc;
}

int mech_cartesian_ref_state(const mech_params *mp, double t, const double *y, const int *turns,
                             double *yref)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  if (form_of(mp)->kind != MECH_KIND_MINIMAL) {
    memcpy(yref, y, sizeof(double) * (size_t)l.n);
    return 0;
  }
  int rc = mech_ssf_state(mp, t, y, y + l.V, yref, NULL);
  for (int i = 0; rc == 0 && turns && i < m->ssf->nz; i++) {
    yref[i] += TWO_PI * turns[i];
  }
  return rc;
}
