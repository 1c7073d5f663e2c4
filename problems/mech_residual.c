/* Residual assembly of the Cartesian forms (index3, index2, ggl, index1, baumgarte) in block
 * order, with the accelerations as variables or not: the constraint rows come from the levels the
 * table of forms (problems/mech_forms.c) names for rows lambda and mu. */
#include "mech_layer.h"
#include "finite.h"

/* The constraint rows, -(the form's constraint), from r + L on; c holds 2 nc doubles of work. */
static int accvar_constraint_rows(const mech_params *mp, double t, const double *y, double *r,
                                  double *c)
{
  const mech_model *m = mp->model;
  const mech_form_info *form = form_of(mp);
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V, *a = y + l.A;
  double *rows = r + l.L;
  int rc = mech_constraint_level(mp, form->lambda_level, t, q, v, a, rows);
  if (rc == 0 && form->mu_level != MECH_LEVEL_NONE) {
    rc = mech_constraint_level(mp, form->mu_level, t, q, v, a, r + l.MU);
  }
  if (rc == 0 && form->stabilised) {
    rc = m->con(mp, t, q, c, NULL);
    rc = rc == 0 ? m->con_vel(mp, t, q, v, c + l.nc, NULL) : rc;
    for (int k = 0; rc == 0 && k < l.nc; k++) {
      rows[k] += 2.0 * mp->alpha * c[l.nc + k] + mp->beta * mp->beta * c[k];
    }
  }
  mech_negate(rows, l.n - l.L);
  return rc;
}

static int accvar_res(const mech_params *mp, double t, const double *y, const double *yp, double *r)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V, *a = y + l.A;
  int level = mech_single_level(mp);
  int rc = level >= 0 ? mech_dyn_and_level(mp, t, q, v, a, y + l.L, level, r + l.A, r + l.L)
                      : m->dyn(mp, t, q, v, a, y + l.L, r + l.A);
  mech_negate(r + l.A, l.nq);
  int ggl = form_of(mp)->mu_level != MECH_LEVEL_NONE;
  if (rc == 0 && ggl) {
    rc = m->reaction(mp, t, q, y + l.MU, r, NULL, NULL, NULL);
  }
  for (int i = 0; rc == 0 && i < l.nq; i++) {
    r[i] = ggl ? (yp[i] - v[i]) + r[i] : yp[i] - v[i];
    r[l.V + i] = yp[l.V + i] - a[i];
  }
  scratch c;
  if (rc == 0 && level >= 0) {
    mech_negate(r + l.L, l.nc);
  } else if (rc == 0) {
    double *work = mech_scratch_get(&c, 2 * (size_t)l.nc);
    rc = work ? accvar_constraint_rows(mp, t, y, r, work) : MBDAE_ERR_NOMEM;
    mech_scratch_release(&c);
  }
  /* a residual that is not finite is recoverable (andrews.f and crank.f code it so) */
  return rc == 0 && !mbdae_all_finite((size_t)l.n, r) ? MBDAE_RECOVERABLE : rc;
}

/* The constraint rows of the form, -(its constraint), from r + L on. */
static int constraint_rows(const mech_params *mp, double t, const double *y, double *r)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V;
  const mech_form_info *form = form_of(mp);
  const int levels[2] = {form->lambda_level, form->mu_level}, rows[2] = {l.L, l.MU};
  int rc = 0;
  for (int b = 0; rc == 0 && b < 2; b++) {
    if (levels[b] == MECH_LEVEL_POS || levels[b] == MECH_LEVEL_VEL) {
      rc = mech_constraint_level(mp, levels[b], t, q, v, NULL, r + rows[b]);
    }
  }
  if (form->lambda_level == MECH_LEVEL_ACC) { /* at the dynamic acceleration */
    acc_work w;
    rc = mech_acc_work_get(&l, m->mass_diag != NULL, &w);
    rc = rc == 0 ? mech_acc_rows(mp, t, y, &w, r + l.L) : rc;
    mech_scratch_release(&w.buf);
  }
  mech_negate(r + l.L, l.n - l.L);
  return rc;
}

int mech_cartesian_res(const mech_params *mp, double t, const double *y, const double *yp,
                       double *r)
{
  const mech_model *m = mp->model;
  if (m->acc_vars) {
    return accvar_res(mp, t, y, yp, r);
  }
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V, *lam = y + l.L;
  int level = mech_single_level(mp);
  int rc = level >= 0 ? mech_dyn_and_level(mp, t, q, v, yp + l.V, lam, level, r + l.V, r + l.L)
                      : m->dyn(mp, t, q, v, yp + l.V, lam, r + l.V);
  if (rc != 0) {
    return rc;
  }
  if (level >= 0) {
    for (int i = 0; i < l.nq; i++) {
      r[i] = yp[i] - v[i];
    }
    mech_negate(r + l.L, l.nc);
    return 0;
  }
  int ggl = form_of(mp)->mu_level != MECH_LEVEL_NONE;
  if (ggl) {
    rc = m->reaction(mp, t, q, y + l.MU, r, NULL, NULL, NULL);
  }
  for (int i = 0; rc == 0 && i < l.nq; i++) {
    r[i] = ggl ? (yp[i] - v[i]) + r[i] : yp[i] - v[i];
  }
  return rc == 0 ? constraint_rows(mp, t, y, r) : rc;
}
