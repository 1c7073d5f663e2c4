/* The model layer's entry points (mechanical.h): residual, Jacobian, hidden constraints, initial
 * values and reference of a mechanical problem, computed in block order (q, v, [a,] lambda[, mu])
 * and permuted into a grouped model's y order (mech_model.groups). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "mech_layer.h"

static int grouped(const mech_params *mp)
{
  return mp->model->groups > 1 && form_of(mp)->kind != MECH_KIND_MINIMAL;
}

/* A grouped call's work: the positions in y of the block-order entries, block-order copies of
 * y and y', and nout block-order outputs. */
typedef struct reorder {
  layout l;
  int *pos;
  double *y, *yp, *out;
} reorder;

static int reorder_begin(const mech_params *mp, const double *y, const double *yp, size_t nout,
                         reorder *o)
{
  o->l = mech_layout_of(mp);
  size_t n = (size_t)o->l.n;
  o->y = malloc(sizeof(double) * (2 * n + nout) + sizeof(int) * n);
  if (!o->y) {
    return MBDAE_ERR_NOMEM;
  }
  o->yp = o->y + n;
  o->out = o->yp + n;
  o->pos = (int *)(void *)(o->out + nout);
  for (int b = 0; b < o->l.n; b++) {
    o->pos[b] = mech_y_position(mp, &o->l, b);
    o->y[b] = y ? y[o->pos[b]] : 0.0;
    o->yp[b] = yp ? yp[o->pos[b]] : 0.0;
  }
  return 0;
}

/* dst[pos[b]] = src[b]: a block-order vector into y order. */
static void scatter(const reorder *o, const double *src, double *dst)
{
  for (int b = 0; b < o->l.n; b++) {
    dst[o->pos[b]] = src[b];
  }
}

/* An n x n block-order matrix into y order, rows and columns. */
static void scatter_matrix(const reorder *o, const double *src, double *dst)
{
  int n = o->l.n;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      MBDAE_AT(dst, n, o->pos[i], o->pos[j]) = MBDAE_AT(src, n, i, j);
    }
  }
}

int mbdae_mech_res(const void *params, double t, const double *y, const double *yp, double *r)
{
  const mech_params *mp = params;
  if (!grouped(mp)) {
    return form_of(mp)->assembly->res(mp, t, y, yp, r);
  }
  reorder o;
  int rc = reorder_begin(mp, y, yp, (size_t)mech_layout_of(mp).n, &o);
  rc = rc == 0 ? form_of(mp)->assembly->res(mp, t, o.y, o.yp, o.out) : rc;
  if (rc == 0) {
    scatter(&o, o.out, r);
  }
  free(o.y);
  return rc;
}

int mbdae_mech_jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
                   double *dfdyp)
{
  const mech_params *mp = params;
  if (!grouped(mp)) {
    return form_of(mp)->assembly->jac(mp, t, y, yp, dfdy, dfdyp);
  }
  size_t n = (size_t)mech_layout_of(mp).n;
  reorder o;
  int rc = reorder_begin(mp, y, yp, 2 * n * n, &o);
  double *jy = o.out, *jyp = o.out + n * n;
  rc = rc == 0 ? form_of(mp)->assembly->jac(mp, t, o.y, o.yp, dfdy ? jy : NULL, dfdyp ? jyp : NULL)
               : rc;
  if (rc == 0 && dfdy) {
    scatter_matrix(&o, jy, dfdy);
  }
  if (rc == 0 && dfdyp) {
    scatter_matrix(&o, jyp, dfdyp);
  }
  free(o.y);
  return rc;
}

int mbdae_mech_constraints(const void *params, double t, const double *y, const double *yp,
                           double *gpos, double *gvel, double *gacc)
{
  const mech_params *mp = params;
  if (!grouped(mp)) {
    return form_of(mp)->assembly->constraints(mp, t, y, yp, gpos, gvel, gacc);
  }
  reorder o;
  int rc = reorder_begin(mp, y, yp, 0, &o);
  rc = rc == 0 ? form_of(mp)->assembly->constraints(mp, t, o.y, o.yp, gpos, gvel, gacc) : rc;
  free(o.y);
  return rc;
}

int mbdae_mech_init(const void *params, double *y0, double *yp0)
{
  const mech_params *mp = params;
  if (!grouped(mp)) {
    return form_of(mp)->assembly->init(mp, y0, yp0);
  }
  size_t n = (size_t)mech_layout_of(mp).n;
  reorder o;
  int rc = reorder_begin(mp, NULL, NULL, 2 * n, &o);
  rc = rc == 0 ? form_of(mp)->assembly->init(mp, o.out, o.out + n) : rc;
  if (rc == 0) {
    scatter(&o, o.out, y0);
    scatter(&o, o.out + n, yp0);
  }
  free(o.y);
  return rc;
}

int mbdae_mech_ref(const void *params, double *yref)
{
  const mech_params *mp = params;
  if (!grouped(mp) || !mp->model->ref) {
    return form_of(mp)->assembly->ref(mp, yref);
  }
  reorder o;
  int rc = reorder_begin(mp, NULL, NULL, (size_t)mech_layout_of(mp).n, &o);
  rc = rc == 0 ? form_of(mp)->assembly->ref(mp, o.out) : rc;
  if (rc == 0) {
    scatter(&o, o.out, yref);
  }
  free(o.y);
  return rc;
}

/* Row k of tr as the model's state at t_k in block order (q, v, [a,] lambda, mu = 0), then in
 * the form's variables (out, in y order). */
static int traj_state(const mech_params *mp, const ref_traj *tr, size_t k, double *state,
                      double *out)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  const double *row = tr->y + k * (size_t)tr->width;
  memset(state, 0, sizeof(double) * (size_t)l.n);
  if (m->traj_row) {
    m->traj_row(mp, row, state, state + l.V, m->acc_vars ? state + l.A : NULL, state + l.L);
  } else {
    memcpy(state, row, sizeof(double) * (size_t)(l.MU < tr->width ? l.MU : tr->width));
  }
  const int *turns = tr->nturns > 0 ? tr->turns + k * (size_t)tr->nturns : NULL;
  if (!grouped(mp)) {
    return form_of(mp)->assembly->ref_state(mp, tr->t[k], state, turns, out);
  }
  reorder o;
  int rc = reorder_begin(mp, NULL, NULL, (size_t)l.n, &o);
  rc = rc == 0 ? form_of(mp)->assembly->ref_state(mp, tr->t[k], state, turns, o.out) : rc;
  if (rc == 0) {
    scatter(&o, o.out, out);
  }
  free(o.y);
  return rc;
}

int mbdae_mech_ref_traj(const void *params, int neq, size_t *ntimes, const double **t, double *y)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  int has_ref = m->acc_vars ? m->ref_acc != NULL : m->ref != NULL;
  const ref_traj *tr = m->traj && has_ref ? m->traj(mp) : NULL;
  if (!tr || tr->ntimes == 0) {
    return MBDAE_ERR_NOREF;
  }
  *ntimes = tr->ntimes;
  *t = tr->t;
  if (!y) {
    return 0;
  }
  layout l = mech_layout_of(mp);
  double *state = malloc(sizeof(double) * (size_t)l.n);
  int rc = state ? 0 : MBDAE_ERR_NOMEM;
  for (size_t k = 0; rc == 0 && k < tr->ntimes; k++) {
    rc = traj_state(mp, tr, k, state, y + k * (size_t)neq);
  }
  for (size_t j = 0; rc != 0 && j < tr->ntimes * (size_t)neq; j++) {
    y[j] = NAN; /* a failure (out of memory) leaves no value that looks computed */
  }
  free(state);
  return rc;
}
