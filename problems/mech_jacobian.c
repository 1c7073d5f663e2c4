/* Analytic dF/dy and dF/dy' of the Cartesian forms in block order, with the accelerations as
 * variables or not; the constraint rows from the table's levels (problems/mech_forms.c), index1
 * and baumgarte through da/dx = -M^{-1} dR/dx at the dynamic acceleration. */
#include "dense.h"
#include "mech_layer.h"

/* Rows lambda (and mu) of dF/dy: minus the derivatives of the form's constraint. */
static int accvar_constraint_jac(const mech_params *mp, double t, const double *y, acc_work *w,
                                 double *dfdy)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V, *a = y + l.A;
  const mech_form_info *f = form_of(mp);
  int top = f->mu_level > f->lambda_level ? f->mu_level : f->lambda_level;
  int rc = m->con(mp, t, q, NULL, w->gq);
  rc = rc == 0 && top >= MECH_LEVEL_VEL ? m->con_vel(mp, t, q, v, NULL, w->gvq) : rc;
  if (rc == 0 && top == MECH_LEVEL_ACC) {
    rc = m->con_acc(mp, t, q, v, a, NULL, w->gaq, w->gav);
  }
  if (rc != 0) {
    return rc;
  }
  const int levels[2] = {f->lambda_level, f->mu_level}, rows[2] = {l.L, l.MU};
  for (int b = 0; b < 2; b++) {
    if (levels[b] == MECH_LEVEL_POS) {
      mech_put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gq, -1.0);
    } else if (levels[b] == MECH_LEVEL_VEL) {
      mech_put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gvq, -1.0);
      mech_put_block(dfdy, l.n, rows[b], l.V, l.nc, l.nq, w->gq, -1.0);
    }
  }
  if (f->lambda_level == MECH_LEVEL_ACC) {
    double two_alpha = f->stabilised ? 2.0 * mp->alpha : 0.0;
    double beta2 = f->stabilised ? mp->beta * mp->beta : 0.0;
    for (size_t k = 0; f->stabilised && k < (size_t)l.nc * (size_t)l.nq; k++) {
      w->gaq[k] += two_alpha * w->gvq[k] + beta2 * w->gq[k];
      w->gav[k] += two_alpha * w->gq[k];
    }
    mech_put_block(dfdy, l.n, l.L, 0, l.nc, l.nq, w->gaq, -1.0);
    mech_put_block(dfdy, l.n, l.L, l.V, l.nc, l.nq, w->gav, -1.0);
    mech_put_block(dfdy, l.n, l.L, l.A, l.nc, l.nq, w->gq, -1.0);
  }
  if (f->mu_level != MECH_LEVEL_NONE) { /* q' - v + W^T mu */
    rc = m->reaction(mp, t, q, y + l.MU, NULL, w->wt, w->rq, NULL);
    mech_put_block(dfdy, l.n, 0, 0, l.nq, l.nq, w->rq, 1.0);
    mech_put_block(dfdy, l.n, 0, l.MU, l.nq, l.nc, w->wt, 1.0);
  }
  return rc;
}

/* Rows q, v and a of dF/dy and dF/dy' (zero on entry; either may be NULL). */
static int accvar_dynamic_jac(const mech_params *mp, double t, const double *y, acc_work *w,
                              double *dfdy, double *dfdyp)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  for (int i = 0; dfdyp && i < l.A; i++) {
    MBDAE_AT(dfdyp, l.n, i, i) = 1.0;
  }
  if (!dfdy) {
    return 0;
  }
  const double *q = y, *v = y + l.V, *a = y + l.A, *lam = y + l.L;
  int rc = m->dyn_jac(mp, t, q, v, a, lam, w->rq, w->rv, w->mass);
  rc = rc == 0 ? m->reaction(mp, t, q, lam, NULL, w->wt, NULL, NULL) : rc;
  if (rc != 0) {
    return rc;
  }
  for (int i = 0; i < l.nq; i++) {
    MBDAE_AT(dfdy, l.n, i, l.V + i) = -1.0;
    MBDAE_AT(dfdy, l.n, l.V + i, l.A + i) = -1.0;
  }
  mech_put_block(dfdy, l.n, l.A, 0, l.nq, l.nq, w->rq, -1.0);
  mech_put_block(dfdy, l.n, l.A, l.V, l.nq, l.nq, w->rv, -1.0);
  mech_put_block(dfdy, l.n, l.A, l.A, l.nq, l.nq, w->mass, -1.0);
  mech_put_block(dfdy, l.n, l.A, l.L, l.nq, l.nc, w->wt, -1.0);
  return 0;
}

static int accvar_jac(const mech_params *mp, double t, const double *y, double *dfdy, double *dfdyp)
{
  layout l = mech_layout_of(mp);
  acc_work w;
  int rc = mech_acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  mech_zero_matrix(dfdy, l.n);
  mech_zero_matrix(dfdyp, l.n);
  rc = accvar_dynamic_jac(mp, t, y, &w, dfdy, dfdyp);
  if (rc == 0 && dfdy) {
    rc = accvar_constraint_jac(mp, t, y, &w, dfdy);
  }
  mech_scratch_release(&w.buf);
  return rc;
}

/* Rows lambda of index1 / baumgarte: -dh/d(q, v, lambda), with da/dx = -M^{-1} dR/dx at the
 * dynamic acceleration a. */
static int acc_row_jac(const mech_params *mp, double t, const double *y, acc_work *w, double *dfdy)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V, *lam = y + l.L;
  int nq = l.nq, nc = l.nc, nx = 2 * nq + nc;
  int rc = mech_dynamic_acc(mp, t, y, w);
  rc = rc == 0 ? m->dyn_jac(mp, t, q, v, w->a, lam, w->x, w->x + nq * nq, NULL) : rc;
  rc = rc == 0 ? m->reaction(mp, t, q, lam, NULL, w->x + 2 * nq * nq, NULL, NULL) : rc;
  rc = rc == 0 ? m->con(mp, t, q, NULL, w->gq) : rc;
  rc = rc == 0 ? m->con_vel(mp, t, q, v, NULL, w->gvq) : rc;
  rc = rc == 0 ? m->con_acc(mp, t, q, v, w->a, NULL, w->gaq, w->gav) : rc;
  if (rc != 0) {
    return rc;
  }
  for (int j = 0; j < nx; j++) { /* x = -M^{-1} [dR/dq, dR/dv, W^T] */
    double *col = w->x + (size_t)j * (size_t)nq;
    mech_negate(col, nq);
    mech_lu_solve(nq, w->mass, w->piv, col);
  }
  mech_matmul(nc, nq, nx, w->gq, w->x, w->tmp); /* G da/d(q, v, lambda) */
  double two_alpha = form_of(mp)->stabilised ? 2.0 * mp->alpha : 0.0;
  double beta2 = form_of(mp)->stabilised ? mp->beta * mp->beta : 0.0;
  for (int j = 0; j < nq; j++) {
    for (int k = 0; k < nc; k++) {
      size_t kj = (size_t)k + (size_t)j * (size_t)nc;
      double dq = w->gaq[kj] + w->tmp[kj] + two_alpha * w->gvq[kj] + beta2 * w->gq[kj];
      double dv = w->gav[kj] + w->tmp[kj + (size_t)nq * (size_t)nc] + two_alpha * w->gq[kj];
      MBDAE_AT(dfdy, l.n, l.L + k, j) = -dq;
      MBDAE_AT(dfdy, l.n, l.L + k, l.V + j) = -dv;
    }
  }
  for (int j = 0; j < nc; j++) {
    for (int k = 0; k < nc; k++) {
      MBDAE_AT(dfdy, l.n, l.L + k, l.L + j) = -w->tmp[k + (size_t)(2 * nq + j) * (size_t)nc];
    }
  }
  return 0;
}

/* The constraint rows of dF/dy (the matrix is zero there on entry). */
static int constraint_jac(const mech_params *mp, double t, const double *y, acc_work *w,
                          double *dfdy)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V;
  const mech_form_info *form = form_of(mp);
  if (form->lambda_level == MECH_LEVEL_ACC) {
    return acc_row_jac(mp, t, y, w, dfdy);
  }
  int rc = m->con(mp, t, q, NULL, w->gq);
  const int levels[2] = {form->lambda_level, form->mu_level}, rows[2] = {l.L, l.MU};
  for (int b = 0; rc == 0 && b < 2; b++) {
    if (levels[b] == MECH_LEVEL_POS) {
      mech_put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gq, -1.0);
    } else if (levels[b] == MECH_LEVEL_VEL) {
      rc = m->con_vel(mp, t, q, v, NULL, w->gvq);
      mech_put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gvq, -1.0);
      mech_put_block(dfdy, l.n, rows[b], l.V, l.nc, l.nq, w->gq, -1.0);
    }
  }
  if (rc == 0 && form->mu_level != MECH_LEVEL_NONE) { /* q' - v + W^T mu */
    rc = m->reaction(mp, t, q, y + l.MU, NULL, w->wt, w->rq, NULL);
    mech_put_block(dfdy, l.n, 0, 0, l.nq, l.nq, w->rq, 1.0);
    mech_put_block(dfdy, l.n, 0, l.MU, l.nq, l.nc, w->wt, 1.0);
  }
  return rc;
}

/* The rows q and v of dF/dy and dF/dy' (both zero on entry; either may be NULL). */
static int dynamic_jac(const mech_params *mp, double t, const double *y, const double *yp,
                       acc_work *w, double *dfdy, double *dfdyp)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  const double *q = y, *v = y + l.V, *lam = y + l.L;
  int rc = m->dyn_jac(mp, t, q, v, yp + l.V, lam, w->rq, w->rv, w->mass);
  if (rc == 0 && dfdy) {
    rc = m->reaction(mp, t, q, lam, NULL, w->wt, NULL, NULL);
  }
  if (rc != 0) {
    return rc;
  }
  if (dfdyp) {
    for (int i = 0; i < l.nq; i++) {
      MBDAE_AT(dfdyp, l.n, i, i) = 1.0;
    }
    mech_put_block(dfdyp, l.n, l.V, l.V, l.nq, l.nq, w->mass, 1.0);
  }
  if (dfdy) {
    for (int i = 0; i < l.nq; i++) {
      MBDAE_AT(dfdy, l.n, i, l.V + i) = -1.0;
    }
    mech_put_block(dfdy, l.n, l.V, 0, l.nq, l.nq, w->rq, 1.0);
    mech_put_block(dfdy, l.n, l.V, l.V, l.nq, l.nq, w->rv, 1.0);
    mech_put_block(dfdy, l.n, l.V, l.L, l.nq, l.nc, w->wt, 1.0);
  }
  return 0;
}

int mech_cartesian_jac(const mech_params *mp, double t, const double *y, const double *yp,
                       double *dfdy, double *dfdyp)
{
  if (mp->model->acc_vars) {
    return accvar_jac(mp, t, y, dfdy, dfdyp);
  }
  layout l = mech_layout_of(mp);
  acc_work w;
  int rc = mech_acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  mech_zero_matrix(dfdy, l.n);
  mech_zero_matrix(dfdyp, l.n);
  rc = dynamic_jac(mp, t, y, yp, &w, dfdy, dfdyp);
  if (rc == 0 && dfdy) {
    rc = constraint_jac(mp, t, y, &w, dfdy);
  }
  mech_scratch_release(&w.buf);
  return rc;
}
