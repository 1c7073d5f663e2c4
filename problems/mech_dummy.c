/* form=dummy, dummy derivatives over a state selection (Mattsson & Soederlind 1993; mechanical.h
 * gives the equations): layout, size and names, residual, Jacobian, hidden constraints, initial
 * values, reference, and the selection by complete pivoting of G (Golub & Van Loan 3.4.9). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dense.h"
#include "mech_layer.h"

/* Offsets of form=dummy's y = (q, v, lambda, d, e) and its rows (qd - v, R, g, g', g''), and the
 * selected coordinates in increasing order. */
typedef struct dummy_layout {
  int nq, nc, n;
  int V, L, D, E;              /* offsets of v, lambda, d, e */
  int GV, GA;                  /* rows of -g' and -g'' (the rows of -g start at L) */
  int sel[MECH_DUMMY_MAX_NQ];  /* S, nc entries */
  int slot[MECH_DUMMY_MAX_NQ]; /* slot[j] = k when sel[k] = j, -1 outside S */
} dummy_layout;

static dummy_layout dummy_layout_of(const mech_params *mp, unsigned long long selected)
{
  const mech_model *m = mp->model;
  int nq = m->nq, nc = m->nc;
  dummy_layout l = {nq,
                    nc,
                    2 * nq + 3 * nc,
                    nq,
                    2 * nq,
                    2 * nq + nc,
                    2 * nq + 2 * nc,
                    2 * nq + nc,
                    2 * nq + 2 * nc,
                    {0},
                    {0}};
  for (int j = 0, k = 0; j < nq; j++) {
    int in = (selected >> j) & 1ULL;
    l.slot[j] = in && k < nc ? k : -1;
    if (l.slot[j] >= 0) {
      l.sel[k++] = j;
    }
  }
  return l;
}

static unsigned long long dummy_selected(const void *params)
{
  return ((const mech_params *)params)->selected;
}

/* form=dummy's state selection, for the harness (problem_type.h, problem_selection). */
static const problem_selection DUMMY_SELECTION = {dummy_selected, mbdae_mech_dummy_pivots,
                                                  mbdae_mech_dummy_remap};

void mech_dummy_describe(const mech_params *mp, problem_info *info)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  info->neq = l.n;
  info->nconstraints = l.nc;
  info->constraints_in_residual = 1;
  info->selection = &DUMMY_SELECTION;
  if (!info->index) {
    return;
  }
  for (int i = 0; i < l.n; i++) {
    info->index[i] = 1;
    info->in_scd[i] = i >= l.D || !m->in_scd ? 1 : m->in_scd[i];
    char *name = info->names + (size_t)i * PROBLEM_NAME_LEN, base[PROBLEM_NAME_LEN];
    if (i < l.D) {
      mech_variable_name(mp, i, name, PROBLEM_NAME_LEN);
      continue;
    }
    int k = i < l.E ? i - l.D : i - l.E; /* d_j = q_j', e_j = v_j' of j = sel[k] */
    mech_variable_name(mp, l.sel[k] + (i < l.E ? 0 : l.nq), base, sizeof base);
    snprintf(name, PROBLEM_NAME_LEN, "%s%.*s", form_of(mp)->added_prefix, PROBLEM_NAME_LEN - 2,
             base);
  }
}

/* q' and v' as the form sees them: y' outside S, the dummies d, e inside. */
static void dummy_derivatives(const dummy_layout *l, const double *y, const double *yp, double *qd,
                              double *a)
{
  for (int j = 0; j < l->nq; j++) {
    int k = l->slot[j];
    qd[j] = k < 0 ? yp[j] : y[l->D + k];
    a[j] = k < 0 ? yp[l->V + j] : y[l->E + k];
  }
}

int mech_dummy_res(const mech_params *mp, double t, const double *y, const double *yp, double *r)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  scratch buf;
  double *qd = mech_scratch_get(&buf, 2 * (size_t)l.nq);
  if (!qd) {
    return MBDAE_ERR_NOMEM;
  }
  double *a = qd + l.nq;
  const double *q = y, *v = y + l.V;
  dummy_derivatives(&l, y, yp, qd, a);
  int rc = m->dyn(mp, t, q, v, a, y + l.L, r + l.V);
  rc = rc == 0 ? m->con(mp, t, q, r + l.L, NULL) : rc;
  rc = rc == 0 ? m->con_vel(mp, t, q, v, r + l.GV, NULL) : rc;
  rc = rc == 0 ? m->con_acc(mp, t, q, v, a, r + l.GA, NULL, NULL) : rc;
  for (int i = 0; i < l.nq; i++) {
    r[i] = qd[i] - v[i];
  }
  mech_negate(r + l.L, 3 * l.nc);
  mech_scratch_release(&buf);
  return rc;
}

/* dF/dy' of form=dummy (zero on entry): q' and v' of the unselected coordinates. */
static void dummy_jac_yp(const dummy_layout *l, const acc_work *w, double *dfdyp)
{
  for (int j = 0; j < l->nq; j++) {
    if (l->slot[j] >= 0) {
      continue;
    }
    MBDAE_AT(dfdyp, l->n, j, j) = 1.0;
    mech_put_block(dfdyp, l->n, l->V, l->V + j, l->nq, 1, w->mass + (size_t)j * (size_t)l->nq, 1.0);
    mech_put_block(dfdyp, l->n, l->GA, l->V + j, l->nc, 1, w->gq + (size_t)j * (size_t)l->nc, -1.0);
  }
}

/* dF/dy of form=dummy (zero on entry), the model's derivatives in w. */
static void dummy_jac_y(const dummy_layout *l, const acc_work *w, double *dfdy)
{
  int n = l->n, nq = l->nq, nc = l->nc;
  for (int j = 0; j < nq; j++) {
    MBDAE_AT(dfdy, n, j, l->V + j) = -1.0;
  }
  mech_put_block(dfdy, n, l->V, 0, nq, nq, w->rq, 1.0);
  mech_put_block(dfdy, n, l->V, l->V, nq, nq, w->rv, 1.0);
  mech_put_block(dfdy, n, l->V, l->L, nq, nc, w->wt, 1.0);
  mech_put_block(dfdy, n, l->L, 0, nc, nq, w->gq, -1.0);
  mech_put_block(dfdy, n, l->GV, 0, nc, nq, w->gvq, -1.0);
  mech_put_block(dfdy, n, l->GV, l->V, nc, nq, w->gq, -1.0);
  mech_put_block(dfdy, n, l->GA, 0, nc, nq, w->gaq, -1.0);
  mech_put_block(dfdy, n, l->GA, l->V, nc, nq, w->gav, -1.0);
  for (int k = 0; k < nc; k++) {
    size_t j = (size_t)l->sel[k];
    MBDAE_AT(dfdy, n, l->sel[k], l->D + k) = 1.0;
    mech_put_block(dfdy, n, l->V, l->E + k, nq, 1, w->mass + j * (size_t)nq, 1.0);
    mech_put_block(dfdy, n, l->GA, l->E + k, nc, 1, w->gq + j * (size_t)nc, -1.0);
  }
}

int mech_dummy_jac(const mech_params *mp, double t, const double *y, const double *yp, double *dfdy,
                   double *dfdyp)
{
  const mech_model *m = mp->model;
  dummy_layout dl = dummy_layout_of(mp, mp->selected);
  layout l = mech_layout_of(mp);
  acc_work w;
  int rc = mech_acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  const double *q = y, *v = y + dl.V, *lam = y + dl.L;
  double *qd = w.tmp, *a = w.a; /* tmp holds nc (2 nq + nc) >= nq doubles */
  dummy_derivatives(&dl, y, yp, qd, a);
  rc = m->dyn_jac(mp, t, q, v, a, lam, w.rq, w.rv, w.mass);
  rc = rc == 0 ? m->reaction(mp, t, q, lam, NULL, w.wt, NULL, NULL) : rc;
  rc = rc == 0 ? m->con(mp, t, q, NULL, w.gq) : rc;
  rc = rc == 0 ? m->con_vel(mp, t, q, v, NULL, w.gvq) : rc;
  rc = rc == 0 ? m->con_acc(mp, t, q, v, a, NULL, w.gaq, w.gav) : rc;
  if (rc == 0) {
    mech_zero_matrix(dfdy, dl.n);
    mech_zero_matrix(dfdyp, dl.n);
  }
  if (rc == 0 && dfdyp) {
    dummy_jac_yp(&dl, &w, dfdyp);
  }
  if (rc == 0 && dfdy) {
    dummy_jac_y(&dl, &w, dfdy);
  }
  mech_scratch_release(&w.buf);
  return rc;
}

int mech_dummy_levels(const mech_params *mp, double t, const double *y, const double *yp,
                      double *gpos, double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  scratch buf;
  double *qd = mech_scratch_get(&buf, 2 * (size_t)l.nq);
  if (!qd) {
    return MBDAE_ERR_NOMEM;
  }
  dummy_derivatives(&l, y, yp, qd, qd + l.nq);
  int rc = gpos ? m->con(mp, t, y, gpos, NULL) : 0;
  rc = rc == 0 && gvel ? m->con_vel(mp, t, y, y + l.V, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, y, y + l.V, qd + l.nq, gacc, NULL, NULL) : rc;
  mech_scratch_release(&buf);
  return rc;
}

/* y, y' (NULL: not wanted) of the selection `to` from q, v, lambda (block order), a = q'' and
 * lambda' (NULL: 0). */
static void dummy_state(const mech_params *mp, unsigned long long to, const double *qvl,
                        const double *a, const double *lamdot, double *y, double *yp)
{
  dummy_layout l = dummy_layout_of(mp, to);
  memcpy(y, qvl, sizeof(double) * (size_t)l.D);
  if (yp) {
    memset(yp, 0, sizeof(double) * (size_t)l.n);
    memcpy(yp, qvl + l.V, sizeof(double) * (size_t)l.nq);
    memcpy(yp + l.V, a, sizeof(double) * (size_t)l.nq);
  }
  if (yp && lamdot) {
    memcpy(yp + l.L, lamdot, sizeof(double) * (size_t)l.nc);
  }
  for (int k = 0; k < l.nc; k++) {
    y[l.D + k] = qvl[l.V + l.sel[k]];
    y[l.E + k] = a[l.sel[k]];
  }
}

int mech_dummy_init(const mech_params *mp, double *y0, double *yp0)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  scratch buf;
  double *qvl = mech_scratch_get(&buf, (size_t)(l.D + l.nq));
  if (!qvl) {
    return MBDAE_ERR_NOMEM;
  }
  double *a = qvl + l.D;
  int rc = m->init(mp, qvl, qvl + l.V, a, qvl + l.L);
  if (rc == 0) {
    dummy_state(mp, mp->selected, qvl, a, NULL, y0, yp0);
  }
  mech_scratch_release(&buf);
  return rc;
}

/* The dummy form's y of the state qvl = (q, v, lambda) at t (w->tmp may hold qvl). */
static int dummy_from_state(const mech_params *mp, double t, const double *qvl, acc_work *w,
                            double *yref)
{
  int rc = mech_dynamic_acc(mp, t, qvl, w);
  if (rc == 0) {
    dummy_state(mp, mp->selected, qvl, w->a, NULL, yref, NULL);
  }
  return rc;
}

int mech_dummy_ref(const mech_params *mp, double *yref)
{
  const mech_model *m = mp->model;
  if (!m->ref) {
    return MBDAE_ERR_NOREF;
  }
  layout l = mech_layout_of(mp);
  dummy_layout dl = dummy_layout_of(mp, mp->selected);
  acc_work w;
  int rc = mech_acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  double *qvl = w.tmp; /* nc (2 nq + nc) >= 2 nq + nc doubles */
  rc = m->ref(mp, qvl, qvl + dl.V, qvl + dl.L);
  rc = rc == 0 ? dummy_from_state(mp, m->type->tend, qvl, &w, yref) : rc;
  mech_scratch_release(&w.buf);
  return rc;
}

int mech_dummy_ref_state(const mech_params *mp, double t, const double *y, const int *turns,
                         double *yref)
{
  (void)turns; /* the dummy form keeps the Cartesian coordinates */
  layout l = mech_layout_of(mp);
  acc_work w;
  int rc = mech_acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  memcpy(w.tmp, y, sizeof(double) * (size_t)(2 * l.nq + l.nc));
  rc = dummy_from_state(mp, t, w.tmp, &w, yref);
  mech_scratch_release(&w.buf);
  return rc;
}

/* |det| of the nc x nc matrix a (overwritten), 0 when singular. */
static double abs_det(int nc, double *a, int *piv)
{
  if (mech_lu_factor(nc, a, piv) != 0) {
    return 0.0;
  }
  double det = 1.0;
  for (int k = 0; k < nc; k++) {
    det *= fabs(MBDAE_AT(a, nc, k, k));
  }
  return det;
}

/* The columns complete pivoting picks in the nc x nq matrix g (overwritten; Golub & Van Loan
 * 3.4.9): each step the largest remaining |entry|, its row eliminated from the other rows.  The
 * product of the pivots' magnitudes into *pivot (0 when g has rank < nc, the set then short). */
static unsigned long long complete_pivoting(int nc, int nq, double *g, double *pivot)
{
  unsigned long long cols = 0, rows = 0;
  *pivot = 1.0;
  for (int step = 0; step < nc; step++) {
    int pr = -1, pc = -1;
    for (int j = 0; j < nq; j++) {
      for (int i = 0; i < nc && !((cols >> j) & 1ULL); i++) {
        int better = pr < 0 || fabs(MBDAE_AT(g, nc, i, j)) > fabs(MBDAE_AT(g, nc, pr, pc));
        if (!((rows >> i) & 1ULL) && better) {
          pr = i, pc = j;
        }
      }
    }
    if (pr < 0) {
      *pivot = 0.0;
      return cols;
    }
    double p = MBDAE_AT(g, nc, pr, pc);
    *pivot *= fabs(p);
    if (p == 0.0) {
      return cols;
    }
    rows |= 1ULL << pr;
    cols |= 1ULL << pc;
    for (int i = 0; i < nc; i++) {
      double f = (rows >> i) & 1ULL ? 0.0 : MBDAE_AT(g, nc, i, pc) / p;
      for (int j = 0; j < nq && f != 0.0; j++) {
        MBDAE_AT(g, nc, i, j) -= f * MBDAE_AT(g, nc, pr, j);
      }
    }
  }
  return cols;
}

int mech_select_at(const mech_params *mp, double t, const double *q, double *current,
                   unsigned long long *best, double *best_pivot)
{
  const mech_model *m = mp->model;
  size_t nq = (size_t)m->nq, nc = (size_t)m->nc;
  scratch buf;
  double *g = mech_scratch_get(&buf, 2 * nc * nq + nc * nc + nc);
  if (!g) {
    return MBDAE_ERR_NOMEM;
  }
  double *gs = g + nc * nq, *copy = gs + nc * nc;
  int *piv = (int *)(void *)(copy + nc * nq);
  int rc = m->con(mp, t, q, NULL, g);
  if (rc == 0 && current) {
    dummy_layout l = dummy_layout_of(mp, mp->selected);
    for (size_t k = 0; k < nc; k++) {
      memcpy(gs + k * nc, g + (size_t)l.sel[k] * nc, sizeof(double) * nc);
    }
    *current = abs_det((int)nc, gs, piv);
  }
  if (rc == 0) {
    memcpy(copy, g, sizeof(double) * nc * nq);
    *best = complete_pivoting((int)nc, (int)nq, copy, best_pivot);
  }
  mech_scratch_release(&buf);
  return rc;
}

int mbdae_mech_dummy_pivots(const void *params, double t, const double *y, double *current,
                            unsigned long long *best, double *best_pivot)
{
  const mech_params *mp = params;
  if (form_of(mp)->kind != MECH_KIND_DUMMY) {
    return MBDAE_ERR_ARG;
  }
  return mech_select_at(mp, t, y, current, best, best_pivot);
}

int mbdae_mech_dummy_remap(const void *params, unsigned long long to, const double *y,
                           const double *yp, double *y_to, double *yp_to)
{
  const mech_params *mp = params;
  if (form_of(mp)->kind != MECH_KIND_DUMMY) {
    return MBDAE_ERR_ARG;
  }
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  scratch buf;
  double *qvl = mech_scratch_get(&buf, (size_t)(l.D + 2 * l.nq));
  if (!qvl) {
    return MBDAE_ERR_NOMEM;
  }
  double *qd = qvl + l.D, *a = qd + l.nq;
  memcpy(qvl, y, sizeof(double) * (size_t)l.D);
  dummy_derivatives(&l, y, yp, qd, a);
  dummy_state(mp, to, qvl, a, yp + l.L, y_to, yp_to);
  mech_scratch_release(&buf);
  return 0;
}
