/* The pendulum chain's Jacobian entries link by link, and the sinks that place them (see
 * chain_links.h).  Rows of the forms (mechanical.h, with W = G/2, M = diag(m_k, m_k)):
 *   q_k:  q_k' - v_k [+ (W^T mu)_k in ggl]             dF/dq' = I,  dF/dv = -I
 *   v_k:  R_k = m_k a_k - m_k g e_y + (W^T F)_k        dF/dv' = m_k
 *   F_k:  -g_k (index3, ggl), -g_k' (index2), -(g_k'' + [2 alpha g_k' + beta^2 g_k]) (index1,
 *         baumgarte; a from the dynamics, so that da_j/dx = -(1/m_j) d(W^T F)_j/dx), and in ggl
 *   mu_k: -g_k',
 * with g_k = |d_k|^2 - l_k^2, g_k' = 2 d_k.d_k', g_k'' = 2 (|d_k'|^2 + d_k.(a_k - a_{k-1})).
 * The pattern is what the emitters emit, whatever the values: counted, recorded, then sorted
 * and merged column by column (an entry may be emitted more than once: its values add). */
#include <stdlib.h>
#include <string.h>

#include "chain_links.h"
#include "dense.h"
#include "mbdae/mbdae.h"
#include "mech_forms.h"
#include "mechanical.h"

/* Components of a link in y: x, y, vx, vy, F and (ggl) mu. */
enum { AT_Q = 0, AT_V = 2, AT_F = 4, AT_MU = 5 };

link_sink chain_sink(int mode, int row_stride, int row_base)
{
  link_sink s;
  memset(&s, 0, sizeof s);
  s.mode = mode;
  s.row_stride = row_stride;
  s.row_base = row_base;
  s.row_fixed = -1;
  s.row_weight[0] = s.row_weight[1] = 1.0;
  for (int kind = 0; kind < LINK_NCOLS; kind++) {
    s.col_base[kind] = -1;
  }
  return s;
}

/* The slot of row in column col of the pattern; -1 when absent. */
static int slot_of(const link_sink *s, int row, int col)
{
  int lo = s->colptr[col], hi = s->colptr[col + 1] - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (s->rowind[mid] == row) {
      return mid;
    }
    if (s->rowind[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

static void emit(link_sink *s, int link, int comp, int kind, int col_link, int col_comp,
                 double value)
{
  if (s->col_base[kind] < 0) {
    return;
  }
  int row = s->row_fixed >= 0 ? s->row_fixed : link * s->row_stride + s->row_base + comp;
  int col = col_link * s->col_stride[kind] + s->col_base[kind] + col_comp;
  double v = s->row_weight[comp] == 1.0 ? value : s->row_weight[comp] * value;
  if (s->mode == LINK_DENSE && s->dense[kind]) { /* the first store as is: -0 stays -0 */
    double *at = &MBDAE_AT(s->dense[kind], s->ld, row, col);
    *at = *at == 0.0 ? v : *at + v;
  } else if (s->mode == LINK_COUNT) {
    s->count[col]++;
  } else if (s->mode == LINK_RECORD) {
    s->rows[s->count[col]++] = row;
  } else if (s->mode == LINK_VALUES) {
    int at = slot_of(s, row, col);
    s->missed += at < 0;
    if (at >= 0) {
      s->values[at] += v;
    }
  }
}

void chain_rod(const double *q, int k, double d[2])
{
  d[0] = k ? q[2 * k] - q[2 * k - 2] : q[0];
  d[1] = k ? q[2 * k + 1] - q[2 * k - 1] : q[1];
}

void chain_reaction_entries(link_sink *s, int n, const double *q, const double *lam, int k)
{
  double next = k + 1 < n ? lam[k + 1] : 0.0, d[2], dn[2] = {0.0, 0.0};
  chain_rod(q, k, d);
  if (k + 1 < n) {
    chain_rod(q, k + 1, dn);
  }
  for (int c = 0; c < 2; c++) {
    if (k > 0) {
      emit(s, k, c, LINK_Q, k - 1, c, -lam[k]);
    }
    emit(s, k, c, LINK_Q, k, c, lam[k] + next);
    if (k + 1 < n) {
      emit(s, k, c, LINK_Q, k + 1, c, -next);
    }
    emit(s, k, c, LINK_LAM, k, 0, d[c]);
    if (k + 1 < n) {
      emit(s, k, c, LINK_LAM, k + 1, 0, -dn[c]);
    }
  }
}

void chain_rod_entries(link_sink *s, const double *vec, double factor, int k, int kind)
{
  double d[2];
  chain_rod(vec, k, d);
  for (int c = 0; c < 2; c++) {
    emit(s, k, 0, kind, k, c, factor * d[c]);
  }
  for (int c = 0; k > 0 && c < 2; c++) {
    emit(s, k, 0, kind, k - 1, c, -factor * d[c]);
  }
}

void chain_dynamic_acc(const chain_config *c, const double *q, const double *lam, int k,
                       double a[2])
{
  double m = chain_value(&c->mass, k), d[2], r[2];
  chain_rod(q, k, d);
  r[0] = lam[k] * d[0];
  r[1] = -m * CHAIN_GRAVITY + lam[k] * d[1];
  if (k + 1 < c->n) {
    chain_rod(q, k + 1, d);
    r[0] -= lam[k + 1] * d[0];
    r[1] -= lam[k + 1] * d[1];
  }
  a[0] = -r[0] / m;
  a[1] = -r[1] / m;
}

/* Entries per link in y: 5 (x, y, vx, vy, F), 6 with mu (ggl). */
static int has_mu(const chain_form *f)
{
  return mbdae_mech_form_info((mech_form)f->form)->mu_level != MECH_LEVEL_NONE;
}

static int stride_of(const chain_form *f) { return has_mu(f) ? 6 : 5; }

/* A sink of y order: rows at row_base of each link, columns q, v and the multipliers at lam. */
static void aim(link_sink *s, int stride, int row_base, int lam, double weight)
{
  s->row_stride = stride;
  s->row_base = row_base;
  s->row_fixed = -1;
  s->row_weight[0] = s->row_weight[1] = weight;
  int base[LINK_NCOLS] = {AT_Q, AT_V, lam};
  for (int kind = 0; kind < LINK_NCOLS; kind++) {
    s->col_stride[kind] = stride;
    s->col_base[kind] = base[kind];
  }
}

/* Row F_k of index1 / baumgarte, -(g'' + 2 alpha g' + beta^2 g) at the dynamic acceleration a
 * (block order): its direct terms, then the terms through a_k and a_{k-1}. */
static void acc_row_entries(const chain_config *c, const chain_form *f, const double *q,
                            const double *v, const double *lam, const double *a, int k,
                            link_sink *s)
{
  int stride = s->row_stride;
  chain_rod_entries(s, a, 2.0, k, LINK_Q);
  chain_rod_entries(s, v, 4.0, k, LINK_V);
  if (mbdae_mech_form_info((mech_form)f->form)->stabilised) {
    chain_rod_entries(s, v, 4.0 * f->alpha, k, LINK_Q);
    chain_rod_entries(s, q, 4.0 * f->alpha, k, LINK_V);
    chain_rod_entries(s, q, 2.0 * f->beta * f->beta, k, LINK_Q);
  }
  double d[2];
  chain_rod(q, k, d);
  s->row_fixed = k * stride + AT_F;
  for (int j = k - 1; j <= k; j++) { /* 2 d_k.(da_k/dx - da_{k-1}/dx), da_j/dx = -dR_j/dx / m_j */
    double m = chain_value(&c->mass, j < 0 ? 0 : j), sign = j == k ? 1.0 : -1.0;
    s->row_weight[0] = sign * 2.0 * d[0] / m;
    s->row_weight[1] = sign * 2.0 * d[1] / m;
    if (j >= 0) {
      chain_reaction_entries(s, c->n, q, lam, j);
    }
  }
}

/* The entries of row k of the constraint at level (MECH_LEVEL_POS, _VEL, _ACC), into s's rows. */
static void level_entries(const chain_config *c, const chain_form *f, const double *const x[5],
                          int k, int level, link_sink *s)
{
  const double *q = x[0], *v = x[1], *lam = x[2], *a = x[4];
  if (level == MECH_LEVEL_POS) {
    chain_rod_entries(s, q, 2.0, k, LINK_Q);
  } else if (level == MECH_LEVEL_VEL) {
    chain_rod_entries(s, v, 2.0, k, LINK_Q);
    chain_rod_entries(s, q, 2.0, k, LINK_V);
  } else {
    acc_row_entries(c, f, q, v, lam, a, k, s);
  }
}

/* The rows of link k (block-order q, v, F, mu and accelerations a, where needed). */
static void link_entries(const chain_config *c, const chain_form *f, const double *const x[5],
                         int k, link_sink *sy, link_sink *syp)
{
  const double *q = x[0], *lam = x[2], *mu = x[3];
  const mech_form_info *form = mbdae_mech_form_info((mech_form)f->form);
  int stride = stride_of(f), ggl = has_mu(f);
  double m = chain_value(&c->mass, k);
  for (int comp = 0; syp && comp < 2; comp++) {
    aim(syp, stride, AT_Q, AT_F, 1.0);
    emit(syp, k, comp, LINK_Q, k, comp, 1.0);
    aim(syp, stride, AT_V, AT_F, 1.0);
    emit(syp, k, comp, LINK_V, k, comp, m);
  }
  if (!sy) {
    return;
  }
  aim(sy, stride, AT_Q, AT_MU, 1.0);
  for (int comp = 0; comp < 2; comp++) {
    emit(sy, k, comp, LINK_V, k, comp, -1.0);
  }
  if (ggl) {
    chain_reaction_entries(sy, c->n, q, mu, k);
  }
  aim(sy, stride, AT_V, AT_F, 1.0);
  chain_reaction_entries(sy, c->n, q, lam, k);
  const int levels[2] = {form->lambda_level, form->mu_level}, rows[2] = {AT_F, AT_MU};
  for (int b = 0; b < 2 && levels[b] != MECH_LEVEL_NONE; b++) {
    aim(sy, stride, rows[b], AT_F, -1.0);
    level_entries(c, f, x, k, levels[b], sy);
  }
}

/* Block-order copies of y's q, v, F, mu and the dynamic accelerations (5 n-vectors of 2 n). */
typedef struct blocks {
  double *all;
  const double *x[5];
} blocks;

static int blocks_of(const chain_config *c, const chain_form *f, const double *y, blocks *b)
{
  size_t n = (size_t)c->n, stride = (size_t)stride_of(f);
  b->all = calloc(10 * n, sizeof(double));
  if (!b->all) {
    return MBDAE_ERR_NOMEM;
  }
  double *q = b->all, *v = q + 2 * n, *lam = v + 2 * n, *mu = lam + 2 * n, *a = mu + 2 * n;
  for (size_t k = 0; y && k < n; k++) {
    for (size_t comp = 0; comp < 2; comp++) {
      q[2 * k + comp] = y[k * stride + AT_Q + comp];
      v[2 * k + comp] = y[k * stride + AT_V + comp];
    }
    lam[k] = y[k * stride + AT_F];
    mu[k] = stride > AT_MU ? y[k * stride + AT_MU] : 0.0;
  }
  for (int k = 0; y && k < c->n; k++) {
    chain_dynamic_acc(c, q, lam, k, a + 2 * k);
  }
  const double *x[5] = {q, v, lam, mu, a};
  memcpy(b->x, x, sizeof x);
  return 0;
}

static void form_entries(const chain_config *c, const chain_form *f, const blocks *b, link_sink *sy,
                         link_sink *syp)
{
  for (int k = 0; k < c->n; k++) {
    link_entries(c, f, b->x, k, sy, syp);
  }
}

/* Sort rows[lo..hi) (a column's few entries) and drop repeats; returns the new end. */
static int sort_unique(int *rows, int lo, int hi, int out)
{
  for (int i = lo + 1; i < hi; i++) {
    int r = rows[i], j = i;
    for (; j > lo && rows[j - 1] > r; j--) {
      rows[j] = rows[j - 1];
    }
    rows[j] = r;
  }
  for (int i = lo; i < hi; i++) {
    if (i == lo || rows[i] != rows[i - 1]) {
      rows[out++] = rows[i];
    }
  }
  return out;
}

int chain_form_pattern(const chain_config *c, const chain_form *f, int *colptr, int *rowind)
{
  int neq = c->n * stride_of(f);
  blocks b;
  int *start = calloc((size_t)neq + 1, sizeof(int));
  if (!start || blocks_of(c, f, NULL, &b) != 0) {
    free(start);
    return MBDAE_ERR_NOMEM;
  }
  link_sink s = chain_sink(LINK_COUNT, 0, 0);
  s.count = start + 1;
  form_entries(c, f, &b, &s, &s);
  for (int j = 0; j < neq; j++) {
    start[j + 1] += start[j];
  }
  int *next = malloc(sizeof(int) * ((size_t)neq + (size_t)start[neq] + 1));
  int rc = next ? 0 : MBDAE_ERR_NOMEM;
  if (rc == 0) {
    memcpy(next, start, sizeof(int) * (size_t)neq);
    s = chain_sink(LINK_RECORD, 0, 0);
    s.count = next;
    s.rows = next + neq;
    form_entries(c, f, &b, &s, &s);
    colptr[0] = 0;
    for (int j = 0; j < neq; j++) {
      colptr[j + 1] = sort_unique(s.rows, start[j], start[j + 1], colptr[j]);
    }
    if (rowind) {
      memcpy(rowind, s.rows, sizeof(int) * (size_t)colptr[neq]);
    }
  }
  free(next);
  free(start);
  free(b.all);
  return rc;
}

/* The pattern, built into one block (colptr, then rowind): NULL when out of memory. */
static int *pattern_block(const chain_config *c, const chain_form *f)
{
  size_t neq = (size_t)c->n * (size_t)stride_of(f);
  int *colptr = malloc(sizeof(int) * (neq + 1));
  if (!colptr || chain_form_pattern(c, f, colptr, NULL) != 0) {
    free(colptr);
    return NULL;
  }
  int *all = realloc(colptr, sizeof(int) * (neq + 1 + (size_t)colptr[neq]));
  if (!all || chain_form_pattern(c, f, all, all + neq + 1) != 0) {
    free(all ? all : colptr);
    return NULL;
  }
  return all;
}

int chain_form_values(const chain_config *c, const chain_form *f, const double *y, const double *yp,
                      double *dfdy, double *dfdyp)
{
  (void)yp; /* M is constant: neither matrix depends on y' */
  int neq = c->n * stride_of(f);
  blocks b;
  int *pat = pattern_block(c, f);
  if (!pat || blocks_of(c, f, y, &b) != 0) {
    free(pat);
    return MBDAE_ERR_NOMEM;
  }
  size_t nnz = (size_t)pat[neq];
  link_sink sink[2];
  double *out[2] = {dfdy, dfdyp};
  for (int i = 0; i < 2; i++) {
    sink[i] = chain_sink(LINK_VALUES, 0, 0);
    sink[i].colptr = pat;
    sink[i].rowind = pat + neq + 1;
    sink[i].values = out[i];
    if (out[i]) {
      memset(out[i], 0, sizeof(double) * nnz);
    }
  }
  form_entries(c, f, &b, dfdy ? &sink[0] : NULL, dfdyp ? &sink[1] : NULL);
  free(pat);
  free(b.all);
  return sink[0].missed + sink[1].missed ? MBDAE_ERR_INTERNAL : 0;
}
