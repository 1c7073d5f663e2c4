/* The formulations of a constrained mechanical system, generated from one model: residual,
 * analytic dF/dy and dF/dy', index per variable, names, hidden constraints, consistent initial
 * values and the reference mapped to each form's variables.  The equations of each form and
 * their sources are in mechanical.h.
 *
 * index1 and baumgarte need the acceleration the dynamics give, a = -M^{-1} R(t,q,v,0,lambda):
 * M is factored here by Gaussian elimination with partial pivoting (Golub & Van Loan, Matrix
 * Computations, 3.4), nq being small; a model with a diagonal M (mech_model.mass_diag) has its
 * residual divide instead, in O(nq).  The instance is immutable and may be used from several
 * threads at once, so work arrays belong to the call: a bounded buffer on the stack, the heap only
 * for a model too large for it (scratch below). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "mech_forms.h"
#include "mechanical.h"
#include "weights.h"

/* The table entry of the instance's form. */
static const mech_form_info *form_of(const mech_params *mp)
{
  return mbdae_mech_form_info(mp->form);
}

/* Baumgarte's parameters when the spec gives none: alpha = beta, the critically damped choice,
 * with the constraint error decaying like t e^(-10 t).  Hafner & Poell do not print theirs. */
static const double BAUMGARTE_DEFAULT = 10.0;

static const double TWO_PI = 6.283185307179586476925286766559;

/* Offsets of the blocks of y in the forms with multipliers. */
typedef struct layout {
  int nq, nc, n; /* coordinates, constraints, equations */
  int V, L, MU;  /* offsets of v, lambda, mu (q starts at 0) */
  int A;         /* offset of a where the accelerations are variables (acc_vars), else 0 */
} layout;

static layout layout_of(const mech_params *mp)
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

/* Position in y of entry b of the block order (q, v, lambda, mu): the identity, or for a grouped
 * model (mech_model.groups) the group of b followed by b's place inside its group. */
static int y_position(const mech_params *mp, const layout *l, int b)
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

/* ---- spec keys ------------------------------------------------------------------------------ */

void mbdae_mech_defaults(mech_params *mp, const mech_model *model)
{
  mp->model = model;
  mp->form = MECH_INDEX3;
  mp->alpha = BAUMGARTE_DEFAULT;
  mp->beta = BAUMGARTE_DEFAULT;
  mp->alpha_set = mp->beta_set = 0;
  mp->selected = 0;
  mp->select_set = 0;
}

/* ---- form=dummy's selection key ------------------------------------------------------------- */

static int select_at(const mech_params *mp, double t, const double *q, double *current,
                     unsigned long long *best, double *best_pivot);

/* Name of variable i of the index-3 order (q, v, lambda) into buf. */
static void variable_name(const mech_params *mp, int i, char *buf, size_t len)
{
  if (mp->model->names) {
    snprintf(buf, len, "%s", mp->model->names[i]);
  } else {
    mp->model->name(mp, i, buf, len);
  }
}

/* The names of the selected coordinates joined by sep into buf. */
static void selection_names(const mech_params *mp, unsigned long long selected, const char *sep,
                            char *buf, size_t len)
{
  buf[0] = '\0';
  for (int j = 0; j < mp->model->nq; j++) {
    if ((selected >> j) & 1ULL) {
      char name[PROBLEM_NAME_LEN];
      variable_name(mp, j, name, sizeof name);
      size_t used = strlen(buf);
      snprintf(buf + used, len - used, "%s%s", used ? sep : "", name);
    }
  }
}

static int refuse_selection(const mech_params *mp, const char *value, char *msg, size_t msglen)
{
  const mech_model *m = mp->model;
  char names[MECH_DUMMY_MAX_NQ * PROBLEM_NAME_LEN];
  selection_names(mp, (m->nq < 64 ? (1ULL << m->nq) : 0ULL) - 1ULL, ", ", names, sizeof names);
  if (msg && msglen > 0) {
    snprintf(msg, msglen,
             "bad value '%s' for select= of problem '%s': %d distinct coordinate name(s) joined "
             "by '+', from: %s",
             value, m->type->id, m->nc, names);
  }
  return MBDAE_ERR_SPEC;
}

/* select=NAME+NAME...: nc distinct coordinates. */
static int parse_selection(mech_params *mp, const char *value, char *msg, size_t msglen)
{
  const mech_model *m = mp->model;
  unsigned long long set = 0;
  int count = 0;
  for (const char *p = value; m->dummy;) {
    size_t len = strcspn(p, "+");
    int found = -1;
    for (int j = 0; j < m->nq && found < 0; j++) {
      char name[PROBLEM_NAME_LEN];
      variable_name(mp, j, name, sizeof name);
      found = strlen(name) == len && strncmp(name, p, len) == 0 ? j : -1;
    }
    if (found < 0 || ((set >> found) & 1ULL)) {
      return refuse_selection(mp, value, msg, msglen);
    }
    set |= 1ULL << found;
    count++;
    if (p[len] == '\0') {
      break;
    }
    p += len + 1;
  }
  if (count != m->nc) {
    return refuse_selection(mp, value, msg, msglen);
  }
  mp->selected = set;
  mp->select_set = 1;
  return 0;
}

/* The selection complete pivoting of G picks at the initial state (mechanical.h). */
static int default_selection(mech_params *mp, char *msg, size_t msglen)
{
  const mech_model *m = mp->model;
  size_t nq = (size_t)m->nq;
  double *q = malloc(sizeof(double) * (3 * nq + (size_t)m->nc));
  double pivot = 0.0, *none = NULL;
  int rc = q ? m->init(mp, q, q + nq, q + 2 * nq, q + 3 * nq) : MBDAE_ERR_NOMEM;
  rc = rc == 0 ? select_at(mp, m->type->t0, q, none, &mp->selected, &pivot) : rc;
  free(q);
  if (rc == 0 && pivot == 0.0) {
    rc = MBDAE_ERR_SPEC;
  }
  if (rc != 0 && msg && msglen > 0) {
    snprintf(msg, msglen, "form=dummy of problem '%s': no selection at the initial state (%s)",
             m->type->id, rc == MBDAE_ERR_SPEC ? "G is rank deficient" : mbdae_strerror(rc));
  }
  return rc;
}

/* 1 when the model offers form f. */
static int offers(const mech_model *m, int f)
{
  mech_form_kind kind = mbdae_mech_form_info((mech_form)f)->kind;
  return (kind != MECH_KIND_MINIMAL || m->ssf) && (kind != MECH_KIND_DUMMY || m->dummy);
}

static void offered_forms(const mech_params *mp, char *buf, size_t len)
{
  buf[0] = '\0';
  for (int f = 0; f < MECH_NFORMS; f++) {
    if (offers(mp->model, f)) {
      size_t used = strlen(buf);
      snprintf(buf + used, len - used, "%s%s", f ? "|" : "",
               mbdae_mech_form_info((mech_form)f)->name);
    }
  }
}

static int refuse_form(const mech_params *mp, const char *what, const char *value, char *msg,
                       size_t msglen)
{
  char forms[96];
  offered_forms(mp, forms, sizeof forms);
  if (msg && msglen > 0) {
    snprintf(msg, msglen, "%s '%s' of problem '%s'; forms offered: form=%s", what, value,
             mp->model->type->id, forms);
  }
  return MBDAE_ERR_SPEC;
}

static int parse_gain(const char *key, const char *value, double *out, char *msg, size_t msglen)
{
  char *end = NULL;
  double x = strtod(value, &end);
  if (end == value || *end != '\0' || !isfinite(x) || x < 0.0) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "bad value '%s' for %s=: a finite number >= 0", value, key);
    }
    return MBDAE_ERR_SPEC;
  }
  *out = x;
  return 0;
}

int mbdae_mech_set_option(mech_params *mp, const char *key, const char *value, char *msg,
                          size_t msglen)
{
  if (strcmp(key, "form") == 0) {
    int f = mbdae_mech_form_by_name(value);
    if (f < 0) {
      return refuse_form(mp, "unknown form", value, msg, msglen);
    }
    if (!offers(mp->model, f)) {
      return refuse_form(mp, mbdae_mech_form_info((mech_form)f)->not_offered, value, msg, msglen);
    }
    mp->form = (mech_form)f;
    return form_of(mp)->kind == MECH_KIND_DUMMY && !mp->select_set
               ? default_selection(mp, msg, msglen)
               : 0;
  }
  if (strcmp(key, "select") == 0) {
    return parse_selection(mp, value, msg, msglen);
  }
  if (strcmp(key, "alpha") == 0) {
    mp->alpha_set = 1;
    return parse_gain(key, value, &mp->alpha, msg, msglen);
  }
  if (strcmp(key, "beta") == 0) {
    mp->beta_set = 1;
    return parse_gain(key, value, &mp->beta, msg, msglen);
  }
  return 1;
}

int mbdae_mech_option(void *params, const char *key, const char *value, char *msg, size_t msglen)
{
  mech_params *mp = params;
  int rc = mbdae_mech_set_option(mp, key, value, msg, msglen);
  if (rc == 1 && msg && msglen > 0) {
    snprintf(msg, msglen, "unknown key '%s' of problem '%s'; valid keys: %s", key,
             mp->model->type->id, mp->model->type->options_help);
  }
  return rc == 1 ? MBDAE_ERR_SPEC : rc;
}

int mbdae_mech_finish(const void *params, char *msg, size_t msglen)
{
  const mech_params *mp = params;
  if ((mp->alpha_set || mp->beta_set) && !form_of(mp)->stabilised) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "alpha= and beta= belong to form=baumgarte, not form=%s",
               form_of(mp)->name);
    }
    return MBDAE_ERR_SPEC;
  }
  if (mp->select_set && form_of(mp)->kind != MECH_KIND_DUMMY) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "select= belongs to form=dummy, not form=%s", form_of(mp)->name);
    }
    return MBDAE_ERR_SPEC;
  }
  return 0;
}

void mbdae_mech_format_options(const void *params, char *buf, size_t len)
{
  const mech_params *mp = params;
  int used = snprintf(buf, len, "form=%s", form_of(mp)->name);
  if (form_of(mp)->stabilised && used >= 0 && (size_t)used < len) {
    snprintf(buf + used, len - (size_t)used, ",alpha=%.17g,beta=%.17g", mp->alpha, mp->beta);
  }
  if (form_of(mp)->kind == MECH_KIND_DUMMY && used >= 0 && (size_t)used < len) {
    char names[MECH_DUMMY_MAX_NQ * PROBLEM_NAME_LEN];
    selection_names(mp, mp->selected, "+", names, sizeof names);
    snprintf(buf + used, len - (size_t)used, ",select=%s", names);
  }
}

/* ---- size, index, names --------------------------------------------------------------------- */

static void dummy_describe(const mech_params *mp, problem_info *info);

static void describe_ssf(const mech_params *mp, problem_info *info)
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

static void accvar_describe(const mech_params *mp, problem_info *info)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
  info->neq = l.n;
  info->nconstraints = l.nc;
  if (!info->index) {
    return;
  }
  for (int i = 0; i < l.n; i++) {
    int block = i < l.V ? 0 : (i < l.A ? 1 : (i < l.L ? 2 : (i < l.MU ? 3 : 4)));
    info->index[i] = form_of(mp)->index[block];
    info->in_scd[i] = (block == 4 || !m->in_scd) ? 1 : m->in_scd[i];
  }
  mbdae_problem_info_names(info, 0, l.MU, m->names);
  for (int k = 0; k < l.n - l.MU; k++) {
    snprintf(info->names + (size_t)(l.MU + k) * PROBLEM_NAME_LEN, PROBLEM_NAME_LEN, "mu%d", k + 1);
  }
}

void mbdae_mech_describe(const void *params, problem_info *info)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  info->ref_source = m->ref_source ? m->ref_source : "no reference for this problem";
  if (form_of(mp)->kind == MECH_KIND_MINIMAL) {
    describe_ssf(mp, info);
    return;
  }
  if (form_of(mp)->kind == MECH_KIND_DUMMY) {
    dummy_describe(mp, info);
    info->constraints_in_residual = 1;
    return;
  }
  if (m->acc_vars) {
    accvar_describe(mp, info);
    return;
  }
  layout l = layout_of(mp);
  info->neq = l.n;
  info->nconstraints = l.nc;
  if (!info->index) {
    return;
  }
  for (int i = 0; i < l.n; i++) {
    int block = i < l.V ? 0 : (i < l.L ? 1 : (i < l.MU ? 2 : 3));
    int at = y_position(mp, &l, i);
    char *name = info->names + (size_t)at * PROBLEM_NAME_LEN;
    info->index[at] = form_of(mp)->index[block < 2 ? block : block + 1]; /* no block a */
    info->in_scd[at] = (block == 3 || !m->in_scd) ? 1 : m->in_scd[i];
    if (block == 3) {
      snprintf(name, PROBLEM_NAME_LEN, "mu%d", i - l.MU + 1);
    } else if (m->names) {
      snprintf(name, PROBLEM_NAME_LEN, "%s", m->names[i]);
    } else {
      m->name(mp, i, name, PROBLEM_NAME_LEN);
    }
  }
}

/* ---- small dense algebra -------------------------------------------------------------------- */

/* LU factors of the n x n matrix a in place, row interchanges in piv; 1 when singular. */
static int lu_factor(int n, double *a, int *piv)
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

/* lu_factor swaps whole rows (as LAPACK's dgetf2), so the multipliers of column k end where the
 * later interchanges put them: b takes every interchange first (as dgetrs), then L and U. */
static void lu_solve(int n, const double *lu, const int *piv, double *b)
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

/* c (r x m) = a (r x k) b (k x m), all compact column-major. */
static void matmul(int r, int k, int m, const double *a, const double *b, double *c)
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

static void negate(double *v, int n)
{
  for (int i = 0; i < n; i++) {
    v[i] = -v[i];
  }
}

/* The n x n matrix a = 0 (NULL: nothing).  A large one a column at a time: glibc's memset
 * switches to "rep stosb" above a few kB (crank's Jacobian is 4.6 kB), which callgrind counts per
 * byte; the column stores are the same work and keep instruction counts comparable with the
 * hand-written code, whose fixed-size clears compile to "rep stosq". */
static void zero_matrix(double *a, int n)
{
  size_t cols = n > 16 ? (size_t)n : 1, len = (size_t)n * (size_t)n / cols;
  for (size_t j = 0; a && j < cols; j++) {
    memset(a + j * len, 0, sizeof(double) * len);
  }
}

/* dst block at (row0, col0) of the n x n matrix dst = scale * src (rows x cols, compact). */
static void put_block(double *dst, int n, int row0, int col0, int rows, int cols, const double *src,
                      double scale)
{
  for (int j = 0; j < cols; j++) {
    for (int i = 0; i < rows; i++) {
      double v = MBDAE_AT(src, rows, i, j);
      MBDAE_AT(dst, n, row0 + i, col0 + j) = scale == 1.0 ? v : scale * v;
    }
  }
}

/* ---- the acceleration the dynamics give (index1, baumgarte) --------------------------------- */

/* A call's work arrays: on the stack up to SCRATCH_DOUBLES (every published problem's needs fit,
 * andrews' index1 Jacobian the most at about 660), on the heap beyond (a long chain). */
enum { SCRATCH_DOUBLES = 1024 };
typedef struct scratch {
  double *p; /* the work arrays: stack, or a heap block of the size asked for */
  double stack[SCRATCH_DOUBLES];
} scratch;

/* NULL when the heap is exhausted. */
static double *scratch_get(scratch *s, size_t doubles)
{
  s->p = doubles <= SCRATCH_DOUBLES ? s->stack : malloc(sizeof(double) * doubles);
  return s->p;
}

static void scratch_release(scratch *s)
{
  if (s->p != s->stack) {
    free(s->p);
  }
}

/* Work of the acceleration-level rows: nq-vectors, nq x nq matrices, nc-vectors, nc x nq. */
typedef struct acc_work {
  double *a, *zero, *mass, *rq, *rv, *wt, *x, *g, *gv, *ga, *gq, *gvq, *gaq, *gav, *tmp;
  int *piv;
  int diagonal; /* 1: mass holds M's diagonal (mech_model.mass_diag), no matrix is allocated */
  scratch buf;
} acc_work;

/* diagonal: the residual's work of a model with mass_diag (vectors only), else all of it. */
static int acc_work_get(const layout *l, int diagonal, acc_work *w)
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
  double *v = scratch_get(&w->buf, doubles + piv_doubles);
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

/* a = -M^{-1} R(t,q,v,0,lambda), M left factored in w->mass (or, diagonal work, its diagonal:
 * the elimination of a diagonal M swaps nothing and subtracts only zeros, so -R_i / M_ii is its
 * result bit for bit). */
static int dynamic_acc(const mech_params *mp, double t, const double *y, acc_work *w)
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
  if (lu_factor(m->nq, w->mass, w->piv) != 0) {
    return 1; /* a singular mass matrix: recoverable, the solver may try another state */
  }
  for (int i = 0; i < m->nq; i++) {
    w->a[i] = -w->a[i];
  }
  lu_solve(m->nq, w->mass, w->piv, w->a);
  return 0;
}

/* h = g'' + [baumgarte] 2 alpha g' + beta^2 g at the dynamic acceleration, into h (nc). */
static int acc_rows(const mech_params *mp, double t, const double *y, acc_work *w, double *h)
{
  const mech_model *m = mp->model;
  const double *q = y, *v = y + m->nq;
  int baum = form_of(mp)->stabilised;
  int rc = dynamic_acc(mp, t, y, w);
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

/* ---- accelerations as variables (acc_vars) -------------------------------------------------- */

/* The constraint at level (MECH_LEVEL_POS, _VEL, _ACC at the given a) into c (nc). */
static int constraint_level(const mech_params *mp, int level, double t, const double *q,
                            const double *v, const double *a, double *c)
{
  const mech_model *m = mp->model;
  if (level == MECH_LEVEL_POS) {
    return m->con(mp, t, q, c, NULL);
  }
  return level == MECH_LEVEL_VEL ? m->con_vel(mp, t, q, v, c, NULL)
                                 : m->con_acc(mp, t, q, v, a, c, NULL, NULL);
}

/* The constraint rows, -(the form's constraint), from r + L on; c holds 2 nc doubles of work. */
static int accvar_constraint_rows(const mech_params *mp, double t, const double *y, double *r,
                                  double *c)
{
  const mech_model *m = mp->model;
  const mech_form_info *form = form_of(mp);
  layout l = layout_of(mp);
  const double *q = y, *v = y + l.V, *a = y + l.A;
  double *rows = r + l.L;
  int rc = constraint_level(mp, form->lambda_level, t, q, v, a, rows);
  if (rc == 0 && form->mu_level != MECH_LEVEL_NONE) {
    rc = constraint_level(mp, form->mu_level, t, q, v, a, r + l.MU);
  }
  if (rc == 0 && form->stabilised) {
    rc = m->con(mp, t, q, c, NULL);
    rc = rc == 0 ? m->con_vel(mp, t, q, v, c + l.nc, NULL) : rc;
    for (int k = 0; rc == 0 && k < l.nc; k++) {
      rows[k] += 2.0 * mp->alpha * c[l.nc + k] + mp->beta * mp->beta * c[k];
    }
  }
  negate(rows, l.n - l.L);
  return rc;
}

/* The level of a form whose constraint rows are one constraint function at y's own (q, v, a):
 * 0 (g), 1 (g') or 2 (g''); -1 for the others (ggl has two, baumgarte three, and index1 without
 * accelerations as variables takes a from the dynamics). */
static int single_level(const mech_params *mp)
{
  const mech_form_info *form = form_of(mp);
  if (form->mu_level != MECH_LEVEL_NONE || form->stabilised) {
    return -1;
  }
  return form->lambda_level < MECH_LEVEL_ACC || mp->model->acc_vars ? form->lambda_level : -1;
}

/* R and the constraint at level (single_level) into r and c: model.dyn_con when there is one. */
static int dyn_and_level(const mech_params *mp, double t, const double *q, const double *v,
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

static int accvar_res(const mech_params *mp, double t, const double *y, const double *yp, double *r)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
  const double *q = y, *v = y + l.V, *a = y + l.A;
  int level = single_level(mp);
  int rc = level >= 0 ? dyn_and_level(mp, t, q, v, a, y + l.L, level, r + l.A, r + l.L)
                      : m->dyn(mp, t, q, v, a, y + l.L, r + l.A);
  negate(r + l.A, l.nq);
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
    negate(r + l.L, l.nc);
  } else if (rc == 0) {
    double *work = scratch_get(&c, 2 * (size_t)l.nc);
    rc = work ? accvar_constraint_rows(mp, t, y, r, work) : MBDAE_ERR_NOMEM;
    scratch_release(&c);
  }
  /* a residual that is not finite is recoverable (andrews.f and crank.f code it so) */
  return rc == 0 && !mbdae_all_finite((size_t)l.n, r) ? MBDAE_RECOVERABLE : rc;
}

/* Rows lambda (and mu) of dF/dy: minus the derivatives of the form's constraint. */
static int accvar_constraint_jac(const mech_params *mp, double t, const double *y, acc_work *w,
                                 double *dfdy)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
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
      put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gq, -1.0);
    } else if (levels[b] == MECH_LEVEL_VEL) {
      put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gvq, -1.0);
      put_block(dfdy, l.n, rows[b], l.V, l.nc, l.nq, w->gq, -1.0);
    }
  }
  if (f->lambda_level == MECH_LEVEL_ACC) {
    double two_alpha = f->stabilised ? 2.0 * mp->alpha : 0.0;
    double beta2 = f->stabilised ? mp->beta * mp->beta : 0.0;
    for (size_t k = 0; f->stabilised && k < (size_t)l.nc * (size_t)l.nq; k++) {
      w->gaq[k] += two_alpha * w->gvq[k] + beta2 * w->gq[k];
      w->gav[k] += two_alpha * w->gq[k];
    }
    put_block(dfdy, l.n, l.L, 0, l.nc, l.nq, w->gaq, -1.0);
    put_block(dfdy, l.n, l.L, l.V, l.nc, l.nq, w->gav, -1.0);
    put_block(dfdy, l.n, l.L, l.A, l.nc, l.nq, w->gq, -1.0);
  }
  if (f->mu_level != MECH_LEVEL_NONE) { /* q' - v + W^T mu */
    rc = m->reaction(mp, t, q, y + l.MU, NULL, w->wt, w->rq, NULL);
    put_block(dfdy, l.n, 0, 0, l.nq, l.nq, w->rq, 1.0);
    put_block(dfdy, l.n, 0, l.MU, l.nq, l.nc, w->wt, 1.0);
  }
  return rc;
}

/* Rows q, v and a of dF/dy and dF/dy' (zero on entry; either may be NULL). */
static int accvar_dynamic_jac(const mech_params *mp, double t, const double *y, acc_work *w,
                              double *dfdy, double *dfdyp)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
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
  put_block(dfdy, l.n, l.A, 0, l.nq, l.nq, w->rq, -1.0);
  put_block(dfdy, l.n, l.A, l.V, l.nq, l.nq, w->rv, -1.0);
  put_block(dfdy, l.n, l.A, l.A, l.nq, l.nq, w->mass, -1.0);
  put_block(dfdy, l.n, l.A, l.L, l.nq, l.nc, w->wt, -1.0);
  return 0;
}

static int accvar_jac(const mech_params *mp, double t, const double *y, double *dfdy, double *dfdyp)
{
  layout l = layout_of(mp);
  acc_work w;
  int rc = acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  zero_matrix(dfdy, l.n);
  zero_matrix(dfdyp, l.n);
  rc = accvar_dynamic_jac(mp, t, y, &w, dfdy, dfdyp);
  if (rc == 0 && dfdy) {
    rc = accvar_constraint_jac(mp, t, y, &w, dfdy);
  }
  scratch_release(&w.buf);
  return rc;
}

/* ---- form=dummy: dummy derivatives over a state selection ----------------------------------- */

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

static void dummy_describe(const mech_params *mp, problem_info *info)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  info->neq = l.n;
  info->nconstraints = l.nc;
  if (!info->index) {
    return;
  }
  for (int i = 0; i < l.n; i++) {
    info->index[i] = 1;
    info->in_scd[i] = i >= l.D || !m->in_scd ? 1 : m->in_scd[i];
    char *name = info->names + (size_t)i * PROBLEM_NAME_LEN, base[PROBLEM_NAME_LEN];
    if (i < l.D) {
      variable_name(mp, i, name, PROBLEM_NAME_LEN);
      continue;
    }
    int k = i < l.E ? i - l.D : i - l.E; /* d_j = q_j', e_j = v_j' of j = sel[k] */
    variable_name(mp, l.sel[k] + (i < l.E ? 0 : l.nq), base, sizeof base);
    snprintf(name, PROBLEM_NAME_LEN, "d%.*s", PROBLEM_NAME_LEN - 2, base);
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

static int dummy_res(const mech_params *mp, double t, const double *y, const double *yp, double *r)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  scratch buf;
  double *qd = scratch_get(&buf, 2 * (size_t)l.nq);
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
  negate(r + l.L, 3 * l.nc);
  scratch_release(&buf);
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
    put_block(dfdyp, l->n, l->V, l->V + j, l->nq, 1, w->mass + (size_t)j * (size_t)l->nq, 1.0);
    put_block(dfdyp, l->n, l->GA, l->V + j, l->nc, 1, w->gq + (size_t)j * (size_t)l->nc, -1.0);
  }
}

/* dF/dy of form=dummy (zero on entry), the model's derivatives in w. */
static void dummy_jac_y(const dummy_layout *l, const acc_work *w, double *dfdy)
{
  int n = l->n, nq = l->nq, nc = l->nc;
  for (int j = 0; j < nq; j++) {
    MBDAE_AT(dfdy, n, j, l->V + j) = -1.0;
  }
  put_block(dfdy, n, l->V, 0, nq, nq, w->rq, 1.0);
  put_block(dfdy, n, l->V, l->V, nq, nq, w->rv, 1.0);
  put_block(dfdy, n, l->V, l->L, nq, nc, w->wt, 1.0);
  put_block(dfdy, n, l->L, 0, nc, nq, w->gq, -1.0);
  put_block(dfdy, n, l->GV, 0, nc, nq, w->gvq, -1.0);
  put_block(dfdy, n, l->GV, l->V, nc, nq, w->gq, -1.0);
  put_block(dfdy, n, l->GA, 0, nc, nq, w->gaq, -1.0);
  put_block(dfdy, n, l->GA, l->V, nc, nq, w->gav, -1.0);
  for (int k = 0; k < nc; k++) {
    size_t j = (size_t)l->sel[k];
    MBDAE_AT(dfdy, n, l->sel[k], l->D + k) = 1.0;
    put_block(dfdy, n, l->V, l->E + k, nq, 1, w->mass + j * (size_t)nq, 1.0);
    put_block(dfdy, n, l->GA, l->E + k, nc, 1, w->gq + j * (size_t)nc, -1.0);
  }
}

static int dummy_jac(const mech_params *mp, double t, const double *y, const double *yp,
                     double *dfdy, double *dfdyp)
{
  const mech_model *m = mp->model;
  dummy_layout dl = dummy_layout_of(mp, mp->selected);
  layout l = layout_of(mp);
  acc_work w;
  int rc = acc_work_get(&l, 0, &w);
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
    zero_matrix(dfdy, dl.n);
    zero_matrix(dfdyp, dl.n);
  }
  if (rc == 0 && dfdyp) {
    dummy_jac_yp(&dl, &w, dfdyp);
  }
  if (rc == 0 && dfdy) {
    dummy_jac_y(&dl, &w, dfdy);
  }
  scratch_release(&w.buf);
  return rc;
}

/* g, g', g'' along the form's own derivatives. */
static int dummy_levels(const mech_params *mp, double t, const double *y, const double *yp,
                        double *gpos, double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  scratch buf;
  double *qd = scratch_get(&buf, 2 * (size_t)l.nq);
  if (!qd) {
    return MBDAE_ERR_NOMEM;
  }
  dummy_derivatives(&l, y, yp, qd, qd + l.nq);
  int rc = gpos ? m->con(mp, t, y, gpos, NULL) : 0;
  rc = rc == 0 && gvel ? m->con_vel(mp, t, y, y + l.V, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, y, y + l.V, qd + l.nq, gacc, NULL, NULL) : rc;
  scratch_release(&buf);
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

static int dummy_init(const mech_params *mp, double *y0, double *yp0)
{
  const mech_model *m = mp->model;
  dummy_layout l = dummy_layout_of(mp, mp->selected);
  scratch buf;
  double *qvl = scratch_get(&buf, (size_t)(l.D + l.nq));
  if (!qvl) {
    return MBDAE_ERR_NOMEM;
  }
  double *a = qvl + l.D;
  int rc = m->init(mp, qvl, qvl + l.V, a, qvl + l.L);
  if (rc == 0) {
    dummy_state(mp, mp->selected, qvl, a, NULL, y0, yp0);
  }
  scratch_release(&buf);
  return rc;
}

/* The reference: q, v, lambda at tend; a (for the dummies e) from the dynamics there. */
static int dummy_ref(const mech_params *mp, double *yref)
{
  const mech_model *m = mp->model;
  if (!m->ref) {
    return MBDAE_ERR_NOREF;
  }
  layout l = layout_of(mp);
  dummy_layout dl = dummy_layout_of(mp, mp->selected);
  acc_work w;
  int rc = acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  double *qvl = w.tmp; /* nc (2 nq + nc) >= 2 nq + nc doubles */
  rc = m->ref(mp, qvl, qvl + dl.V, qvl + dl.L);
  rc = rc == 0 ? dynamic_acc(mp, m->type->tend, qvl, &w) : rc;
  if (rc == 0) {
    dummy_state(mp, mp->selected, qvl, w.a, NULL, yref, NULL);
  }
  scratch_release(&w.buf);
  return rc;
}

/* |det| of the nc x nc matrix a (overwritten), 0 when singular. */
static double abs_det(int nc, double *a, int *piv)
{
  if (lu_factor(nc, a, piv) != 0) {
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

/* The selection at q (and |det G_S| of mp's own into *current when not NULL). */
static int select_at(const mech_params *mp, double t, const double *q, double *current,
                     unsigned long long *best, double *best_pivot)
{
  const mech_model *m = mp->model;
  size_t nq = (size_t)m->nq, nc = (size_t)m->nc;
  scratch buf;
  double *g = scratch_get(&buf, 2 * nc * nq + nc * nc + nc);
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
  scratch_release(&buf);
  return rc;
}

int mbdae_mech_dummy_pivots(const void *params, double t, const double *y, double *current,
                            unsigned long long *best, double *best_pivot)
{
  const mech_params *mp = params;
  if (form_of(mp)->kind != MECH_KIND_DUMMY) {
    return MBDAE_ERR_ARG;
  }
  return select_at(mp, t, y, current, best, best_pivot);
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
  double *qvl = scratch_get(&buf, (size_t)(l.D + 2 * l.nq));
  if (!qvl) {
    return MBDAE_ERR_NOMEM;
  }
  double *qd = qvl + l.D, *a = qd + l.nq;
  memcpy(qvl, y, sizeof(double) * (size_t)l.D);
  dummy_derivatives(&l, y, yp, qd, a);
  dummy_state(mp, to, qvl, a, yp + l.L, y_to, yp_to);
  scratch_release(&buf);
  return 0;
}

/* ---- residual ------------------------------------------------------------------------------- */

static int ssf_res(const mech_params *mp, double t, const double *y, const double *yp, double *r)
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

/* The constraint rows of the form, -(its constraint), from r + L on. */
static int constraint_rows(const mech_params *mp, double t, const double *y, double *r)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
  const double *q = y, *v = y + l.V;
  const mech_form_info *form = form_of(mp);
  const int levels[2] = {form->lambda_level, form->mu_level}, rows[2] = {l.L, l.MU};
  int rc = 0;
  for (int b = 0; rc == 0 && b < 2; b++) {
    if (levels[b] == MECH_LEVEL_POS || levels[b] == MECH_LEVEL_VEL) {
      rc = constraint_level(mp, levels[b], t, q, v, NULL, r + rows[b]);
    }
  }
  if (form->lambda_level == MECH_LEVEL_ACC) { /* at the dynamic acceleration */
    acc_work w;
    rc = acc_work_get(&l, m->mass_diag != NULL, &w);
    rc = rc == 0 ? acc_rows(mp, t, y, &w, r + l.L) : rc;
    scratch_release(&w.buf);
  }
  negate(r + l.L, l.n - l.L);
  return rc;
}

static int res_blocks(const void *params, double t, const double *y, const double *yp, double *r)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  if (form_of(mp)->kind == MECH_KIND_MINIMAL) {
    return ssf_res(mp, t, y, yp, r);
  }
  if (form_of(mp)->kind == MECH_KIND_DUMMY) {
    return dummy_res(mp, t, y, yp, r);
  }
  if (m->acc_vars) {
    return accvar_res(mp, t, y, yp, r);
  }
  layout l = layout_of(mp);
  const double *q = y, *v = y + l.V, *lam = y + l.L;
  int level = single_level(mp);
  int rc = level >= 0 ? dyn_and_level(mp, t, q, v, yp + l.V, lam, level, r + l.V, r + l.L)
                      : m->dyn(mp, t, q, v, yp + l.V, lam, r + l.V);
  if (rc != 0) {
    return rc;
  }
  if (level >= 0) {
    for (int i = 0; i < l.nq; i++) {
      r[i] = yp[i] - v[i];
    }
    negate(r + l.L, l.nc);
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

/* ---- Jacobian ------------------------------------------------------------------------------- */

static int ssf_jac(const mech_params *mp, double t, const double *y, double *dfdy, double *dfdyp)
{
  const mech_ssf *s = mp->model->ssf;
  size_t nz = (size_t)s->nz, n = 2 * nz;
  if (dfdyp) {
    zero_matrix(dfdyp, (int)n);
    for (size_t i = 0; i < n; i++) {
      MBDAE_AT(dfdyp, n, i, i) = 1.0;
    }
  }
  if (!dfdy) {
    return 0;
  }
  scratch buf;
  double *work = scratch_get(&buf, 2 * nz * nz);
  int rc = work ? s->acc(mp, t, y, y + nz, NULL, work, work + nz * nz) : MBDAE_ERR_NOMEM;
  if (rc == 0) {
    zero_matrix(dfdy, (int)n);
    for (size_t i = 0; i < nz; i++) {
      MBDAE_AT(dfdy, n, i, nz + i) = -1.0;
    }
    put_block(dfdy, (int)n, (int)nz, 0, (int)nz, (int)nz, work, -1.0);
    put_block(dfdy, (int)n, (int)nz, (int)nz, (int)nz, (int)nz, work + nz * nz, -1.0);
  }
  scratch_release(&buf);
  return rc;
}

/* Rows lambda of index1 / baumgarte: -dh/d(q, v, lambda), with da/dx = -M^{-1} dR/dx at the
 * dynamic acceleration a. */
static int acc_row_jac(const mech_params *mp, double t, const double *y, acc_work *w, double *dfdy)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
  const double *q = y, *v = y + l.V, *lam = y + l.L;
  int nq = l.nq, nc = l.nc, nx = 2 * nq + nc;
  int rc = dynamic_acc(mp, t, y, w);
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
    negate(col, nq);
    lu_solve(nq, w->mass, w->piv, col);
  }
  matmul(nc, nq, nx, w->gq, w->x, w->tmp); /* G da/d(q, v, lambda) */
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
  layout l = layout_of(mp);
  const double *q = y, *v = y + l.V;
  const mech_form_info *form = form_of(mp);
  if (form->lambda_level == MECH_LEVEL_ACC) {
    return acc_row_jac(mp, t, y, w, dfdy);
  }
  int rc = m->con(mp, t, q, NULL, w->gq);
  const int levels[2] = {form->lambda_level, form->mu_level}, rows[2] = {l.L, l.MU};
  for (int b = 0; rc == 0 && b < 2; b++) {
    if (levels[b] == MECH_LEVEL_POS) {
      put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gq, -1.0);
    } else if (levels[b] == MECH_LEVEL_VEL) {
      rc = m->con_vel(mp, t, q, v, NULL, w->gvq);
      put_block(dfdy, l.n, rows[b], 0, l.nc, l.nq, w->gvq, -1.0);
      put_block(dfdy, l.n, rows[b], l.V, l.nc, l.nq, w->gq, -1.0);
    }
  }
  if (rc == 0 && form->mu_level != MECH_LEVEL_NONE) { /* q' - v + W^T mu */
    rc = m->reaction(mp, t, q, y + l.MU, NULL, w->wt, w->rq, NULL);
    put_block(dfdy, l.n, 0, 0, l.nq, l.nq, w->rq, 1.0);
    put_block(dfdy, l.n, 0, l.MU, l.nq, l.nc, w->wt, 1.0);
  }
  return rc;
}

/* The rows q and v of dF/dy and dF/dy' (both zero on entry; either may be NULL). */
static int dynamic_jac(const mech_params *mp, double t, const double *y, const double *yp,
                       acc_work *w, double *dfdy, double *dfdyp)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
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
    put_block(dfdyp, l.n, l.V, l.V, l.nq, l.nq, w->mass, 1.0);
  }
  if (dfdy) {
    for (int i = 0; i < l.nq; i++) {
      MBDAE_AT(dfdy, l.n, i, l.V + i) = -1.0;
    }
    put_block(dfdy, l.n, l.V, 0, l.nq, l.nq, w->rq, 1.0);
    put_block(dfdy, l.n, l.V, l.V, l.nq, l.nq, w->rv, 1.0);
    put_block(dfdy, l.n, l.V, l.L, l.nq, l.nc, w->wt, 1.0);
  }
  return 0;
}

static int jac_blocks(const void *params, double t, const double *y, const double *yp, double *dfdy,
                      double *dfdyp)
{
  const mech_params *mp = params;
  if (form_of(mp)->kind == MECH_KIND_MINIMAL) {
    return ssf_jac(mp, t, y, dfdy, dfdyp);
  }
  if (form_of(mp)->kind == MECH_KIND_DUMMY) {
    return dummy_jac(mp, t, y, yp, dfdy, dfdyp);
  }
  if (mp->model->acc_vars) {
    return accvar_jac(mp, t, y, dfdy, dfdyp);
  }
  layout l = layout_of(mp);
  acc_work w;
  int rc = acc_work_get(&l, 0, &w);
  if (rc != 0) {
    return rc;
  }
  zero_matrix(dfdy, l.n);
  zero_matrix(dfdyp, l.n);
  rc = dynamic_jac(mp, t, y, yp, &w, dfdy, dfdyp);
  if (rc == 0 && dfdy) {
    rc = constraint_jac(mp, t, y, &w, dfdy);
  }
  scratch_release(&w.buf);
  return rc;
}

/* ---- hidden constraints --------------------------------------------------------------------- */

/* ggl_levels below with the model's reaction_rate: O(nq) work. */
static int ggl_levels_by_rate(const mech_params *mp, double t, const double *y, const double *yp,
                              double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  layout l = layout_of(mp);
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
  layout l = layout_of(mp);
  size_t nq = (size_t)l.nq;
  if (m->reaction_rate) {
    return ggl_levels_by_rate(mp, t, y, yp, gvel, gacc);
  }
  scratch buf;
  double *work = scratch_get(&buf, 3 * nq + nq * nq + nq * (size_t)l.nc);
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
  scratch_release(&buf);
  return rc;
}

/* ssf: g, g', g'' of the Cartesian state mapped from (z, w, w'). */
static int ssf_levels(const mech_params *mp, double t, const double *y, const double *yp,
                      double *gpos, double *gvel, double *gacc)
{
  const mech_model *m = mp->model;
  const mech_ssf *s = m->ssf;
  if (!s->to_cartesian) {
    return MBDAE_ERR_UNSUPPORTED;
  }
  size_t nq = (size_t)m->nq;
  scratch buf;
  double *q = scratch_get(&buf, 3 * nq);
  if (!q) {
    return MBDAE_ERR_NOMEM;
  }
  double *v = q + nq, *a = v + nq;
  int rc = s->to_cartesian(mp, y, y + s->nz, yp + s->nz, q, v, a);
  rc = rc == 0 && gpos ? m->con(mp, t, q, gpos, NULL) : rc;
  rc = rc == 0 && gvel ? m->con_vel(mp, t, q, v, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, q, v, a, gacc, NULL, NULL) : rc;
  scratch_release(&buf);
  return rc;
}

static int constraints_blocks(const void *params, double t, const double *y, const double *yp,
                              double *gpos, double *gvel, double *gacc)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  if (form_of(mp)->kind == MECH_KIND_MINIMAL) {
    return ssf_levels(mp, t, y, yp, gpos, gvel, gacc);
  }
  if (form_of(mp)->kind == MECH_KIND_DUMMY) {
    return dummy_levels(mp, t, y, yp, gpos, gvel, gacc);
  }
  const double *q = y, *v = y + m->nq;
  const double *a = m->acc_vars ? y + 2 * m->nq : yp + m->nq; /* acc_vars: a is in y */
  int rc = gpos ? m->con(mp, t, q, gpos, NULL) : 0;
  if (rc == 0 && form_of(mp)->mu_level != MECH_LEVEL_NONE && (gvel || gacc)) {
    scratch buf;
    double *gv = gvel ? gvel : scratch_get(&buf, (size_t)m->nc);
    rc = gv ? ggl_levels(mp, t, y, yp, gv, gacc) : MBDAE_ERR_NOMEM;
    if (gv != gvel) {
      scratch_release(&buf);
    }
    return rc;
  }
  rc = rc == 0 && gvel ? m->con_vel(mp, t, q, v, gvel, NULL) : rc;
  rc = rc == 0 && gacc ? m->con_acc(mp, t, q, v, a, gacc, NULL, NULL) : rc;
  return rc;
}

/* ---- initial values and reference ----------------------------------------------------------- */

/* y, y' of the state-space form from a Cartesian (q, v) at time t. */
static int ssf_state(const mech_params *mp, double t, const double *q, const double *v, double *y,
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

static int init_blocks(const void *params, double *y0, double *yp0)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  if (form_of(mp)->kind == MECH_KIND_DUMMY) {
    return dummy_init(mp, y0, yp0);
  }
  layout l = layout_of(mp);
  scratch buf;
  double *work = scratch_get(&buf, 2 * (size_t)l.n);
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
    rc = ssf_state(mp, m->type->t0, y, y + l.V, y0, yp0);
  } else if (rc == 0) {
    memcpy(y0, y, sizeof(double) * (size_t)l.n);
    memcpy(yp0, yp, sizeof(double) * (size_t)l.n);
  }
  scratch_release(&buf);
  return rc;
}

static int ref_blocks(const void *params, double *yref)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  if (form_of(mp)->kind == MECH_KIND_DUMMY) {
    return dummy_ref(mp, yref);
  }
  if (m->acc_vars ? !m->ref_acc : !m->ref) {
    return MBDAE_ERR_NOREF;
  }
  layout l = layout_of(mp);
  scratch buf;
  double *y = scratch_get(&buf, (size_t)l.n);
  if (!y) {
    return MBDAE_ERR_NOMEM;
  }
  memset(y, 0, sizeof(double) * (size_t)l.n); /* mu = 0 */
  int rc =
      m->acc_vars ? m->ref_acc(mp, y, y + l.V, y + l.A, y + l.L) : m->ref(mp, y, y + l.V, y + l.L);
  if (rc == 0 && form_of(mp)->kind == MECH_KIND_MINIMAL) {
    rc = ssf_state(mp, m->type->tend, y, y + l.V, yref, NULL);
    for (int i = 0; rc == 0 && m->ssf->ref_turns && i < m->ssf->nz; i++) {
      yref[i] += TWO_PI * m->ssf->ref_turns[i];
    }
  } else if (rc == 0) {
    memcpy(yref, y, sizeof(double) * (size_t)l.n);
  }
  scratch_release(&buf);
  return rc;
}

/* ---- entry points: block order, or a grouped model's y order -------------------------------- */

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
  o->l = layout_of(mp);
  size_t n = (size_t)o->l.n;
  o->y = malloc(sizeof(double) * (2 * n + nout) + sizeof(int) * n);
  if (!o->y) {
    return MBDAE_ERR_NOMEM;
  }
  o->yp = o->y + n;
  o->out = o->yp + n;
  o->pos = (int *)(void *)(o->out + nout);
  for (int b = 0; b < o->l.n; b++) {
    o->pos[b] = y_position(mp, &o->l, b);
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
    return res_blocks(params, t, y, yp, r);
  }
  reorder o;
  int rc = reorder_begin(mp, y, yp, (size_t)layout_of(mp).n, &o);
  rc = rc == 0 ? res_blocks(params, t, o.y, o.yp, o.out) : rc;
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
    return jac_blocks(params, t, y, yp, dfdy, dfdyp);
  }
  size_t n = (size_t)layout_of(mp).n;
  reorder o;
  int rc = reorder_begin(mp, y, yp, 2 * n * n, &o);
  double *jy = o.out, *jyp = o.out + n * n;
  rc = rc == 0 ? jac_blocks(params, t, o.y, o.yp, dfdy ? jy : NULL, dfdyp ? jyp : NULL) : rc;
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
    return constraints_blocks(params, t, y, yp, gpos, gvel, gacc);
  }
  reorder o;
  int rc = reorder_begin(mp, y, yp, 0, &o);
  rc = rc == 0 ? constraints_blocks(params, t, o.y, o.yp, gpos, gvel, gacc) : rc;
  free(o.y);
  return rc;
}

int mbdae_mech_init(const void *params, double *y0, double *yp0)
{
  const mech_params *mp = params;
  if (!grouped(mp)) {
    return init_blocks(params, y0, yp0);
  }
  size_t n = (size_t)layout_of(mp).n;
  reorder o;
  int rc = reorder_begin(mp, NULL, NULL, 2 * n, &o);
  rc = rc == 0 ? init_blocks(params, o.out, o.out + n) : rc;
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
    return ref_blocks(params, yref);
  }
  reorder o;
  int rc = reorder_begin(mp, NULL, NULL, (size_t)layout_of(mp).n, &o);
  rc = rc == 0 ? ref_blocks(params, o.out) : rc;
  if (rc == 0) {
    scatter(&o, o.out, yref);
  }
  free(o.y);
  return rc;
}

int mbdae_mech_lu_factor(int n, double *a, int *piv) { return lu_factor(n, a, piv); }

void mbdae_mech_lu_solve(int n, const double *lu, const int *piv, double *b)
{
  lu_solve(n, lu, piv, b);
}
