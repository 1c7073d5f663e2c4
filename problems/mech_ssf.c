/* form=ssf, the state-space form in minimal coordinates (mech_model.ssf): y = (z, w),
 * z' - w, w' - acc(t,z,w) (Hafner & Poell (2015) eqs. (5), (7)); its size and names, residual,
 * Jacobian, hidden constraints through the Cartesian state, and the map of a Cartesian state. */
#include <string.h>

#include "dense.h"
#include "mech_layer.h"

void mech_describe_ssf(const mech_params *mp, problem_info *info)
{
  const mech_ssf *s = mp->model->ssf;
  info->neq = 2 * s->nz;
  info->nconstraints = s->to_cartesian ? mp->model->nc : 0;
  info->constraints_mapped = 1;
  if (info->index) {
    for (int i = 0; i < info->neq; i++) {
      info->index[i] = 0;
      info->in_scd[i] = 1;
    }
    if (s->names) {
      mbdae_problem_info_names(info, 0, info->neq, s->names);
    }
    for (int i = 0; !s->names && i < info->neq; i++) {
      mp->model->ssf_name(mp, i, info->names + (size_t)i * PROBLEM_NAME_LEN, PROBLEM_NAME_LEN);
    }
  }
}

int mech_ssf_res(const mech_params *mp, double t, const double *y, const double *yp, double *r)
{
  const mech_ssf *s = mp->model->ssf;
  int nz = s->nz;
  int rc = s->acc(mp, t, y, y + nz, r + nz, NULL, NULL);
  for (int i = 0; rc == 0 && i < nz; i++) {
    r[i] = yp[i] - y[nz + i];
    r[nz + i] = yp[nz + i] - r[nz + i];
  }
  return rc;
}

int mech_ssf_jac(const mech_params *mp, double t, const double *y, const double *yp, double *dfdy,
                 double *dfdyp)
{
  (void)yp; /* the residual is linear in y' */
  const mech_ssf *s = mp->model->ssf;
  size_t nz = (size_t)s->nz, n = 2 * nz;
  if (dfdyp) {
    mech_zero_matrix(dfdyp, (int)n);
    for (size_t i = 0; i < n; i++) {
      MBDAE_AT(dfdyp, n, i, i) = 1.0;
    }
  }
  if (!dfdy) {
    return 0;
  }
  scratch buf;
  double *work = mech_scratch_get(&buf, 2 * nz * nz);
  int rc = work ? s->acc(mp, t, y, y + nz, NULL, work, work + nz * nz) : MBDAE_ERR_NOMEM;
  if (rc == 0) {
    mech_zero_matrix(dfdy, (int)n);
    for (size_t i = 0; i < nz; i++) {
      MBDAE_AT(dfdy, n, i, nz + i) = -1.0;
    }
    mech_put_block(dfdy, (int)n, (int)nz, 0, (int)nz, (int)nz, work, -1.0);
    mech_put_block(dfdy, (int)n, (int)nz, (int)nz, (int)nz, (int)nz, work + nz * nz, -1.0);
  }
  mech_scratch_release(&buf);
  return rc;
}

int mech_ssf_levels(const mech_params *mp, double t, const double *y, const double *yp,
                    double *gpos, double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  const mech_ssf *s = m->ssf;
  if (!s->to_cartesian) {
    return MBDAE_ERR_UNSUPPORTED;
  }
  size_t nq = (size_t)m->nq;
  scratch buf;
  double *q = mech_scratch_get(&buf, 3 * nq);
  if (!q) {
    return MBDAE_ERR_NOMEM;
  }
  double *v = q + nq, *a = v + nq;
  int rc = s->to_cartesian(mp, y, y + s->nz, yp + s->nz, q, v, a);
  rc = rc == 0 && gpos ? m->con(mp, t, q, gpos, NULL) : rc;
  rc = rc == 0 && gvel ? m->con_vel(mp, t, q, v, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, q, v, a, gacc, NULL, NULL) : rc;
  mech_scratch_release(&buf);
  return rc;
}

int mech_ssf_state(const mech_params *mp, double t, const double *q, const double *v, double *y,
                   double *yp)
{
  const mech_ssf *s = mp->model->ssf;
  int rc = s->from_cartesian(mp, q, v, y, y + s->nz);
  if (rc == 0 && yp) {
    memcpy(yp, y + s->nz, sizeof(double) * (size_t)s->nz);
    rc = s->acc(mp, t, y, y + s->nz, yp + s->nz, NULL, NULL);
  }
  return rc;
}
