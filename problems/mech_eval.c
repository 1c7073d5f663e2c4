/* Model evaluation for the formulations of mechanical.h: the layout of y, the layer's small dense
 * algebra and work arrays, the acceleration the dynamics give and the constraint at one level.
 *
 * index1 and baumgarte need the acceleration the dynamics give, a = -M^{-1} R(t,q,v,0,lambda):
 * M is factored here by Gaussian elimination with partial pivoting (Golub & Van Loan, Matrix
 * Computations, 3.4), nq being small; a model with a diagonal M (mech_model.mass_diag) has its
 * residual divide instead, in O(nq).  The instance is immutable and may be used from several
 * threads at once, so work arrays belong to the call: a bounded buffer on the stack, the heap only
 * for a model too large for it (scratch in mech_layer.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "mech_layer.h"

layout mech_layout_of(const mech_params *mp)
{
  const mech_model *m = mp->model;
  layout l = {m->nq, m->nc, 0, m->nq, 2 * m->nq, 2 * m->nq + m->nc, 0};
  if (m->acc_vars) {
    l.A = 2 * m->nq;
    l.L = 3 * m->nq;
    l.MU = 3 * m->nq + m->nc;
  }
  l.n = l.MU + (form_of(mp)->mu_level != MECH_LEVEL_NONE ? m->nc : 0);
  return l;
}

int mech_y_position(const mech_params *mp, const layout *l, int b)
{
  int groups = mp->model->groups;
  if (groups <= 1 || form_of(mp)->kind == MECH_KIND_MINIMAL) {
    return b;
  }
  int gq = l->nq / groups, gc = l->nc / groups, gm = (l->n - l->MU) / groups;
  const int start[4] = {0, l->V, l->L, l->MU}, width[4] = {gq, gq, gc, gm};
  const int offset[4] = {0, gq, 2 * gq, 2 * gq + gc};
  int block = b < l->V ? 0 : (b < l->L ? 1 : (b < l->MU ? 2 : 3));
  int i = b - start[block];
  return (i / width[block]) * (2 * gq + gc + gm) + offset[block] + i % width[block];
}

int mech_lu_factor(int n, double *a, int *piv)
{
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) {
      p = fabs(MBDAE_AT(a, n, i, k)) > fabs(MBDAE_AT(a, n, p, k)) ? i : p;
    }
    piv[k] = p;
    if (MBDAE_AT(a, n, p, k) == 0.0) {
      return 1;
    }
    for (int j = 0; j < n; j++) {
      double swap = MBDAE_AT(a, n, k, j);
      MBDAE_AT(a, n, k, j) = MBDAE_AT(a, n, p, j);
      MBDAE_AT(a, n, p, j) = swap;
    }
    for (int i = k + 1; i < n; i++) {
      double l = MBDAE_AT(a, n, i, k) /= MBDAE_AT(a, n, k, k);
      for (int j = k + 1; j < n; j++) {
        MBDAE_AT(a, n, i, j) -= l * MBDAE_AT(a, n, k, j);
      }
    }
  }
  return 0;
}

/* mech_lu_factor swaps whole rows (as LAPACK's dgetf2), so the multipliers of column k end where
 * the later interchanges put them: b takes every interchange first (as dgetrs), then L and U. */
void mech_lu_solve(int n, const double *lu, const int *piv, double *b)
{
  for (int k = 0; k < n; k++) {
    double swap = b[k];
    b[k] = b[piv[k]];
    b[piv[k]] = swap;
  }
  for (int k = 0; k < n; k++) {
    for (int i = k + 1; i < n; i++) {
      b[i] -= MBDAE_AT(lu, n, i, k) * b[k];
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    b[k] /= MBDAE_AT(lu, n, k, k);
    for (int i = 0; i < k; i++) {
      b[i] -= MBDAE_AT(lu, n, i, k) * b[k];
    }
  }
}

void mech_matmul(int r, int k, int m, const double *a, const double *b, double *c)
{
  for (int j = 0; j < m; j++) {
    for (int i = 0; i < r; i++) {
      double s = 0.0;
      for (int p = 0; p < k; p++) {
        s += MBDAE_AT(a, r, i, p) * MBDAE_AT(b, k, p, j);
      }
      MBDAE_AT(c, r, i, j) = s;
    }
  }
}

void mech_negate(double *v, int n)
{
  for (int i = 0; i < n; i++) {
    v[i] = -v[i];
  }
}

void mech_zero_matrix(double *a, int n)
{
  size_t cols = n > 16 ? (size_t)n : 1, len = (size_t)n * (size_t)n / cols;
  for (size_t j = 0; a && j < cols; j++) {
    memset(a + j * len, 0, sizeof(double) * len);
  }
}

void mech_put_block(double *dst, int n, int row0, int col0, int rows, int cols, const double *src,
                    double scale)
{
  for (int j = 0; j < cols; j++) {
    for (int i = 0; i < rows; i++) {
      double v = MBDAE_AT(src, rows, i, j);
      MBDAE_AT(dst, n, row0 + i, col0 + j) = scale == 1.0 ? v : scale * v;
    }
  }
}

double *mech_scratch_get(scratch *s, size_t doubles)
{
  s->p = doubles <= SCRATCH_DOUBLES ? s->stack : malloc(sizeof(double) * doubles);
  return s->p;
}

void mech_scratch_release(scratch *s)
{
  if (s->p != s->stack) {
    free(s->p);
  }
}

int mech_acc_work_get(const layout *l, int diagonal, acc_work *w)
{
  size_t nq = (size_t)l->nq, nc = (size_t)l->nc, nx = 2 * nq + nc, mat = diagonal ? 0 : 1;
  size_t sizes[] = {nq,
                    nq,
                    diagonal ? nq : nq * nq,
                    mat * nq * nq,
                    mat * nq * nq,
                    mat * nq * nc,
                    mat * nq * nx,
                    nc,
                    nc,
                    nc,
                    mat * nc * nq,
                    mat * nc * nq,
                    mat * nc * nq,
                    mat * nc * nq,
                    mat * nc * nx};
  size_t doubles = 0;
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    doubles += sizes[k];
  }
  size_t piv_doubles = (sizeof(int) * nq + sizeof(double) - 1) / sizeof(double);
  double *v = mech_scratch_get(&w->buf, doubles + piv_doubles);
  if (!v) {
    return MBDAE_ERR_NOMEM;
  }
  double **vec[] = {&w->a,  &w->zero, &w->mass, &w->rq,  &w->rv,  &w->wt,  &w->x,  &w->g,
                    &w->gv, &w->ga,   &w->gq,   &w->gvq, &w->gaq, &w->gav, &w->tmp};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    *vec[k] = v;
    v += sizes[k];
  }
  w->piv = (int *)(void *)v;
  w->diagonal = diagonal;
  memset(w->zero, 0, sizeof(double) * nq);
  return 0;
}

int mech_dynamic_acc(const mech_params *mp, double t, const double *y, acc_work *w)
{
  const mech_model *m = mp->model;
  const double *q = y, *v = y + m->nq, *lam = y + 2 * m->nq;
  int rc = m->dyn(mp, t, q, v, w->zero, lam, w->a);
  if (rc == 0 && w->diagonal) {
    rc = m->mass_diag(mp, t, q, w->mass);
    for (int i = 0; rc == 0 && i < m->nq; i++) {
      w->a[i] = -w->a[i] / w->mass[i];
    }
    return rc;
  }
  if (rc == 0) {
    rc = m->dyn_jac(mp, t, q, v, w->zero, lam, NULL, NULL, w->mass);
  }
  if (rc != 0) {
    return rc;
  }
  if (mech_lu_factor(m->nq, w->mass, w->piv) != 0) {
    return 1; /* a singular mass matrix: recoverable, the solver may try another state */
  }
  for (int i = 0; i < m->nq; i++) {
    w->a[i] = -w->a[i];
  }
  mech_lu_solve(m->nq, w->mass, w->piv, w->a);
  return 0;
}

int mech_acc_rows(const mech_params *mp, double t, const double *y, acc_work *w, double *h)
{
  const mech_model *m = mp->model;
  const double *q = y, *v = y + m->nq;
  int baum = form_of(mp)->stabilised;
  int rc = mech_dynamic_acc(mp, t, y, w);
  if (rc == 0) {
    rc = m->con_acc(mp, t, q, v, w->a, h, NULL, NULL);
  }
  if (rc == 0 && baum) {
    rc = m->con(mp, t, q, w->g, NULL);
  }
  if (rc == 0 && baum) {
    rc = m->con_vel(mp, t, q, v, w->gv, NULL);
  }
  for (int k = 0; rc == 0 && baum && k < m->nc; k++) {
    h[k] += 2.0 * mp->alpha * w->gv[k] + mp->beta * mp->beta * w->g[k];
  }
  return rc;
}

int mech_constraint_level(const mech_params *mp, int level, double t, const double *q,
                          const double *v, const double *a, double *c)
{
  const mech_model *m = mp->model;
  if (level == MECH_LEVEL_POS) {
    return m->con(mp, t, q, c, NULL);
  }
  return level == MECH_LEVEL_VEL ? m->con_vel(mp, t, q, v, c, NULL)
                                 : m->con_acc(mp, t, q, v, a, c, NULL, NULL);
}

int mech_single_level(const mech_params *mp)
{
  const mech_form_info *form = form_of(mp);
  if (form->mu_level != MECH_LEVEL_NONE || form->stabilised) {
    return -1;
  }
  return form->lambda_level < MECH_LEVEL_ACC || mp->model->acc_vars ? form->lambda_level : -1;
}

/* R and the constraint at level (mech_single_level) into r and c: model.dyn_con when there is one.
 */
int mech_dyn_and_level(const mech_params *mp, double t, const double *q, const double *v,
                       const double *a, const double *lam, int level, double *r, double *c)
{
  const mech_model *m = mp->model;
  if (m->dyn_con) {
    return m->dyn_con(mp, t, q, v, a, lam, level, r, c);
  }
  int rc = m->dyn(mp, t, q, v, a, lam, r);
  if (rc == 0 && level == 0) {
    rc = m->con(mp, t, q, c, NULL);
  } else if (rc == 0) {
    rc = level == 1 ? m->con_vel(mp, t, q, v, c, NULL) : m->con_acc(mp, t, q, v, a, c, NULL, NULL);
  }
  return rc;
}

int mbdae_mech_lu_factor(int n, double *a, int *piv) { return mech_lu_factor(n, a, piv); }

void mbdae_mech_lu_solve(int n, const double *lu, const int *piv, double *b)
{
  mech_lu_solve(n, lu, piv, b);
}
