/* Diagnostics of a problem, or of any DAE given by callbacks (mbdae_functions):
 *
 * - residual size: |F_i| against the size of the terms of equation i;
 * - Jacobian check, entry by entry, against central differences extrapolated by Richardson
 *   (error O(h^4); steps h_j = eps^(1/3) typ_j, see STEP_FACTOR; Nocedal & Wright, Numerical
 *   Optimization, 2nd ed., 8.1, for the balance of truncation and rounding).  Each entry is judged
 * against its own size, not its column's: a column holding a 1e8 stiffness term would hide any
 * error below ~100.  Rounding in F_i can make D_ij wrong by r_ij = 16 eps size_i / h_j when F_i is
 * the difference of large terms; that allowance is used only where the plain comparison fails, and
 * is reported;
 * - hidden constraints: g' is checked as the derivative of g, and g'' as the derivative of g',
 *   along the line (t + s, y + s y') with y' made to satisfy the differential rows of F.  Why
 *   this is sound: there y'_pos = v and y'_v = the accelerations F gives, so d/ds g(t+s, y+s y')
 *   = g_t + G v, which is what g' claims to be on the solution, for any y (on the constraint
 *   manifold or not); the same holds one level up because g' depends on (t, y) only (checked:
 *   were it to depend on y', y'' would be needed and the check says unsupported).  No
 *   integration, so no solver error enters, and random off-manifold states make every term of
 *   g' and g'' visible (at consistent states g' = 0 and a sign flip hides).  The sizes of the
 *   terms of g and g' come from differences in y, over column groups that share no constraint
 *   where the problem states where g and g' depend on y (the chain: O(nnz), not O(n^2));
 * - check points: initial values, reference, random states (a local xorshift64: no global state).
 * The library never prints: results go into the caller's structs. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "jac_pattern.h"
#include "mbdae/mbdae.h"
#include "problem_type.h"
#include "struct_size.h"

/* What rounding in one evaluation of F_i (or g_k) can amount to, in units of eps times the size
 * of its terms: a generous count of the operations that add up to one value. */
static const double ROUNDING_FACTOR = 16.0;

/* Relative differencing steps.  Jacobian: eps^(1/3) = 6.1e-6, smaller than the eps^(1/5) that
 * balances Richardson's O(h^4) truncation against rounding, because rounding has an allowance
 * and truncation has none: where a row's first derivatives vanish (the car axis' springs at rest
 * length) its size gives no scale for the truncation error, which must then be negligible.
 * Constraints along the line: eps^(1/5) = 7.4e-4, the balanced step (with eps^(1/3), rounding in
 * Andrews' g' at the reference, a cancellation of terms of 1e4, exceeded its allowance). */
static const double STEP_FACTOR = 6.1e-6;
static const double LINE_STEP_FACTOR = 7.4e-4;

/* size_i = sum_j |dF_i/dy_j y_j| + |dF_i/dy'_j y'_j| over the entries of pat (values in its
 * order; dense: column-major). */
static void term_size(const mbdae_jac_pattern *pat, const double *dfdy, const double *dfdyp,
                      const double *y, const double *yp, double *size)
{
  size_t n = (size_t)pat->neq;
  memset(size, 0, sizeof(double) * n);
  for (size_t j = 0; j < n; j++) {
    size_t begin = pat->colptr ? (size_t)pat->colptr[j] : j * n;
    size_t end = pat->colptr ? (size_t)pat->colptr[j + 1] : begin + n;
    for (size_t e = begin; e < end; e++) {
      size_t i = pat->colptr ? (size_t)pat->rowind[e] : e - begin;
      size[i] += fabs(dfdy[e] * y[j]) + fabs(dfdyp[e] * yp[j]);
    }
  }
}

int mbdae_problem_residual_size(const mbdae_problem *p, double t, const double *y, const double *yp,
                                double *max_abs, double *max_rel)
{
  if (!p || !y || !yp || !max_abs || !max_rel) {
    return MBDAE_ERR_ARG;
  }
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  size_t n = (size_t)pat.neq;
  double *res = malloc(sizeof(double) * (2 * n + 2 * pat.nnz));
  if (!res) {
    return MBDAE_ERR_NOMEM;
  }
  double *size = res + n, *dfdy = size + n, *dfdyp = dfdy + pat.nnz;
  int rc = mbdae_problem_res(p, t, y, yp, res);
  if (rc == 0) {
    rc = mbdae_problem_jac_values(p, t, y, yp, dfdy, dfdyp);
  }
  if (rc == 0) {
    term_size(&pat, dfdy, dfdyp, y, yp, size);
    double worst_abs = 0.0, worst_rel = 0.0;
    for (size_t i = 0; i < n; i++) {
      double a = fabs(res[i]);
      double r = size[i] > 0.0 ? a / size[i] : a;
      worst_abs = fmax(worst_abs, a);
      worst_rel = fmax(worst_rel, r);
    }
    *max_abs = worst_abs;
    *max_rel = worst_rel;
  }
  free(res);
  return rc;
}

/* ---- the problem's own functions as callbacks ---------------------------------------------- */

/* ctx is the problem, passed through void * and only ever read (the instance is immutable). */
static int problem_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  return mbdae_problem_res(ctx, t, y, yp, res);
}

static int problem_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                       double *dfdyp)
{
  return mbdae_problem_jac(ctx, t, y, yp, dfdy, dfdyp);
}

static int problem_constraints(void *ctx, double t, const double *y, const double *yp, double *gpos,
                               double *gvel, double *gacc)
{
  return mbdae_problem_constraints(ctx, t, y, yp, gpos, gvel, gacc);
}

static int problem_jac_values(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                              double *dfdyp)
{
  return mbdae_problem_jac_values(ctx, t, y, yp, dfdy, dfdyp);
}

/* Constraints that hold by construction (form=ssf: those of the Cartesian state mapped from the
 * angles) are left out: g is identically zero in y, so its derivatives are rounding noise with
 * nothing to judge them against; their drift is still measured. */
int mbdae_problem_functions_sized(const mbdae_problem *p, size_t size, mbdae_functions *fns)
{
  mbdae_functions own;
  if (!p || !fns || mbdae_struct_size_invalid(size, sizeof own, sizeof own) != NULL) {
    return MBDAE_ERR_ARG;
  }
  memset(&own, 0, sizeof own);
  own.size = sizeof own;
  mbdae_problem_jac_pattern(p, &own.pattern);
  own.jac_values = problem_jac_values;
  own.neq = mbdae_problem_neq(p);
  own.nconstraints = mbdae_problem_constraints_mapped(p) || mbdae_problem_constraints_in_residual(p)
                         ? 0
                         : mbdae_problem_nconstraints(p);
  own.res = problem_res;
  own.jac = problem_jac;
  own.constraints = own.nconstraints > 0 ? problem_constraints : NULL;
  own.ctx = (void *)p;
  fns->size = size;
  mbdae_struct_give(&own, fns, size);
  return 0;
}

/* The caller's functions f as the library's own (read as far as f->size, the fields beyond it
 * zero); MBDAE_ERR_ARG for f NULL or a size the rule of mbdae_functions (check.h) refuses. */
static int functions_take(const mbdae_functions *f, mbdae_functions *own)
{
  if (!f || mbdae_struct_size_invalid(f->size, sizeof *own, sizeof *own) != NULL) {
    return MBDAE_ERR_ARG;
  }
  mbdae_struct_take(f, f->size, own, sizeof *own);
  return 0;
}

/* ---- Jacobian check ------------------------------------------------------------------------ */

/* 1 when f states a non-dense pattern: its values come from jac_values, in the pattern's order. */
static int has_pattern(const mbdae_functions *f)
{
  return (f->pattern.kind == MBDAE_JAC_BAND || f->pattern.kind == MBDAE_JAC_SPARSE) &&
         f->pattern.colptr && f->pattern.rowind;
}

/* Entries of one matrix as the checks store it: the pattern's, or n^2. */
static size_t matrix_len(const mbdae_functions *f)
{
  return has_pattern(f) ? f->pattern.nnz : (size_t)f->neq * (size_t)f->neq;
}

static double typical(const double *typ, const double *v, size_t j)
{
  return typ && typ[j] > 0.0 ? typ[j] : fmax(fabs(v[j]), 1.0);
}

/* (F(v + s e_j) - F(v - s e_j)) / (2 s) into out (v is y or yp, perturbed and restored). */
static int central(const mbdae_functions *f, double t, double *y, double *yp, double *v, size_t j,
                   double s, double *rplus, double *rminus, double *out)
{
  double saved = v[j];
  v[j] = saved + s;
  int rc = f->res(f->ctx, t, y, yp, rplus);
  v[j] = saved - s;
  if (rc == 0) {
    rc = f->res(f->ctx, t, y, yp, rminus);
  }
  v[j] = saved;
  for (size_t i = 0; rc == 0 && i < (size_t)f->neq; i++) {
    out[i] = (rplus[i] - rminus[i]) / (2.0 * s);
  }
  return rc;
}

/* Column j of D: central differences with steps h and 2h, extrapolated (4 D_h - D_2h) / 3
 * (Richardson): truncation O(h^4), so that it stays below rounding even where a row's first
 * derivatives vanish and its third do not (the car axis' springs at rest length).  The step
 * h = STEP_FACTOR typ_j is made exact in floating point; steps[j] = h. */
static int difference_columns(const mbdae_functions *f, double t, double *y, double *yp, double *v,
                              const double *typ, double *fd, double *rplus, double *rminus,
                              double *wide, double *steps)
{
  size_t n = (size_t)f->neq;
  for (size_t j = 0; j < n; j++) {
    double h = (v[j] + STEP_FACTOR * typical(typ, v, j)) - v[j];
    steps[j] = h;
    double *col = &MBDAE_AT(fd, n, 0, j);
    int rc = central(f, t, y, yp, v, j, h, rplus, rminus, col);
    if (rc == 0) {
      rc = central(f, t, y, yp, v, j, 2.0 * h, rplus, rminus, wide);
    }
    if (rc != 0) {
      return rc;
    }
    for (size_t i = 0; i < n; i++) {
      col[i] = (4.0 * col[i] - wide[i]) / 3.0;
    }
  }
  return 0;
}

/* The work arrays of one Jacobian check: J, J', D, D' (n x n), then vectors of n. */
typedef struct jac_work {
  double *jac[2], *fd[2];
  double *y, *yp, *res, *rplus, *rminus, *wide, *steps[2], *size, *rowmax;
} jac_work;

static double *jac_work_alloc(size_t n, jac_work *w)
{
  size_t nn = n * n;
  double *block = malloc(sizeof(double) * (4 * nn + 10 * n));
  if (!block) {
    return NULL;
  }
  double *v = block;
  for (int m = 0; m < 2; m++) {
    w->jac[m] = v;
    w->fd[m] = v + nn;
    v += 2 * nn;
  }
  double **vec[] = {&w->y,    &w->yp,       &w->res,      &w->rplus, &w->rminus,
                    &w->wide, &w->steps[0], &w->steps[1], &w->size,  &w->rowmax};
  for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++) {
    *vec[k] = v;
    v += n;
  }
  return block;
}

/* size_i = |F_i| + sum_k |D_ik y_k| + |D'_ik y'_k|, what rounding in F_i scales with;
 * rowmax_i = max_k max(|D_ik| typ_k, |D'_ik| typ'_k), the largest change of F_i that one
 * variable makes over its typical size (the row's size in units that do not depend on how each
 * variable is measured: a 1e8 stiffness times 1e-5 m is compared with a mass times 1e3 m/s^2). */
static void row_sizes(size_t n, const double *const typ[2], jac_work *w)
{
  for (size_t i = 0; i < n; i++) {
    w->size[i] = fabs(w->res[i]);
    w->rowmax[i] = 0.0;
    for (size_t k = 0; k < n; k++) {
      double d = MBDAE_AT(w->fd[0], n, i, k), dp = MBDAE_AT(w->fd[1], n, i, k);
      w->size[i] += fabs(d * w->y[k]) + fabs(dp * w->yp[k]);
      double change =
          fmax(fabs(d) * typical(typ[0], w->y, k), fabs(dp) * typical(typ[1], w->yp, k));
      w->rowmax[i] = fmax(w->rowmax[i], change);
    }
  }
}

/* One entry J_ij = jv against D_ij = dv, in a row of sizes size_i and rowmax_i, a column of step
 * h_j and typical size typ_j: its error (rounding allowance deducted where the plain comparison
 * fails), recorded in out where it is the largest so far; returns it. */
static double judge_value(double jv, double dv, double size_i, double rowmax_i, double step_j,
                          double typ_j, int m, size_t i, size_t j, mbdae_jac_check *out)
{
  double least = MBDAE_CHECK_ROW_FRACTION * rowmax_i / typ_j;
  double scale = fmax(fmax(fabs(jv), fabs(dv)), least);
  double diff = fabs(jv - dv), err = scale > 0.0 ? diff / scale : 0.0;
  out->nnz += jv != 0.0;
  if (err > MBDAE_CHECK_TOL) {
    double allowance = ROUNDING_FACTOR * DBL_EPSILON * size_i / step_j;
    err = fmax(diff - allowance, 0.0) / scale;
    if (err <= MBDAE_CHECK_TOL) {
      if (out->nrounding == 0 || allowance > out->rounding) {
        out->rounding_matrix = m;
        out->rounding_row = (int)i;
        out->rounding_col = (int)j;
        out->rounding = allowance;
      }
      out->nrounding++;
    }
  }
  if (err > out->err || (out->row < 0 && err >= out->err)) {
    out->err = err;
    out->matrix = m;
    out->row = (int)i;
    out->col = (int)j;
    out->jac = jv;
    out->fd = dv;
  }
  return err;
}

static void judge_entry(const jac_work *w, size_t n, int m, size_t i, size_t j, double typ_j,
                        mbdae_jac_check *out)
{
  judge_value(MBDAE_AT(w->jac[m], n, i, j), MBDAE_AT(w->fd[m], n, i, j), w->size[i], w->rowmax[i],
              w->steps[m][j], typ_j, m, i, j, out);
}

/* ---- Jacobian check over a pattern ---------------------------------------------------------- */

/* The work of a check over a non-dense pattern: values J, J' and differences D, D' in the
 * pattern's order (nnz each); per column its group, step and typical size; per row its sizes,
 * the group column that owns it, and the largest difference quotient seen outside the pattern. */
typedef struct pattern_work {
  const mbdae_jac_pattern *pat;
  double *jac[2], *fd[2];
  double *y, *yp, *res, *rplus, *rminus, *narrow, *wide, *steps[2], *typ[2], *size, *rowmax;
  double *outside[2];  /* row i: the difference quotient outside the pattern, largest so far */
  int *outside_col[2]; /* ... and the column it was divided by; -1: none */
  int *group, *order, *first, *owner;
  int ngroups;
} pattern_work;

static void *pattern_work_alloc(const mbdae_jac_pattern *pat, pattern_work *w)
{
  size_t n = (size_t)pat->neq, nnz = pat->nnz;
  double *block = malloc(sizeof(double) * (4 * nnz + 15 * n) + sizeof(int) * (6 * n + 1));
  if (!block) {
    return NULL;
  }
  double *v = block;
  double **vec[] = {&w->y,      &w->yp,   &w->res,      &w->rplus,      &w->rminus,
                    &w->narrow, &w->wide, &w->steps[0], &w->steps[1],   &w->typ[0],
                    &w->typ[1], &w->size, &w->rowmax,   &w->outside[0], &w->outside[1]};
  for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++) {
    *vec[k] = v;
    v += n;
  }
  for (int m = 0; m < 2; m++) {
    w->jac[m] = v;
    w->fd[m] = v + nnz;
    v += 2 * nnz;
  }
  int *iv = (int *)v;
  int **ivec[] = {&w->outside_col[0], &w->outside_col[1], &w->group, &w->order, &w->owner};
  for (size_t k = 0; k < sizeof ivec / sizeof ivec[0]; k++) {
    *ivec[k] = iv;
    iv += n;
  }
  w->first = iv; /* ngroups + 1 <= n + 1 */
  w->pat = pat;
  return block;
}

/* Column groups (Curtis, Powell & Reid), their columns listed group by group: order[first[g]] ..
 * order[first[g + 1] - 1]. */
static int list_groups(pattern_work *w)
{
  size_t n = (size_t)w->pat->neq;
  w->ngroups = mbdae_pattern_groups(w->pat, w->group);
  if (w->ngroups < 0) {
    return MBDAE_ERR_NOMEM;
  }
  memset(w->first, 0, sizeof(int) * ((size_t)w->ngroups + 1));
  for (size_t j = 0; j < n; j++) {
    w->first[w->group[j] + 1]++;
  }
  for (int g = 0; g < w->ngroups; g++) {
    w->first[g + 1] += w->first[g];
  }
  for (size_t j = 0; j < n; j++) {
    w->order[w->first[w->group[j]]++] = (int)j;
  }
  for (int g = w->ngroups; g > 0; g--) {
    w->first[g] = w->first[g - 1];
  }
  w->first[0] = 0;
  for (size_t i = 0; i < n; i++) {
    w->owner[i] = -1;
  }
  return 0;
}

/* F(v + factor h) - F(v - factor h) into out, h the steps of the columns of group g of matrix m
 * (v = y for m = 0, y' for m = 1; base is its unperturbed value). */
static int group_change(const mbdae_functions *f, double t, pattern_work *w, int m,
                        const double *base, int g, double factor, double *out)
{
  double *v = m == 0 ? w->y : w->yp;
  int rc = 0;
  for (int side = 0; rc == 0 && side < 2; side++) {
    double s = side == 0 ? factor : -factor;
    for (int k = w->first[g]; k < w->first[g + 1]; k++) {
      v[w->order[k]] = base[w->order[k]] + s * w->steps[m][w->order[k]];
    }
    rc = f->res(f->ctx, t, w->y, w->yp, side == 0 ? w->rplus : w->rminus);
  }
  for (int k = w->first[g]; k < w->first[g + 1]; k++) {
    v[w->order[k]] = base[w->order[k]];
  }
  for (size_t i = 0; rc == 0 && i < (size_t)f->neq; i++) {
    out[i] = w->rplus[i] - w->rminus[i];
  }
  return rc;
}

/* Richardson's (4 D_h - D_2h) / 3 from the changes over steps h and 2h. */
static double extrapolated(double narrow, double wide, double h)
{
  return (4.0 * (narrow / (2.0 * h)) - wide / (4.0 * h)) / 3.0;
}

/* Rows no column of group g has in the pattern: their quotient (divided by the group's first
 * column's step; the criterion is the same for any column of the group, as h_j ~ typ_j) is kept
 * where it is the largest so far relative to its column's typical size. */
static void note_outside(pattern_work *w, int m, int g)
{
  int j0 = w->order[w->first[g]];
  for (size_t i = 0; i < (size_t)w->pat->neq; i++) {
    if (w->owner[i] >= 0) {
      continue;
    }
    double d = extrapolated(w->narrow[i], w->wide[i], w->steps[m][j0]);
    int jk = w->outside_col[m][i];
    if (jk < 0 || fabs(d) * w->typ[m][j0] > fabs(w->outside[m][i]) * w->typ[m][jk]) {
      w->outside[m][i] = d;
      w->outside_col[m][i] = j0;
    }
  }
}

/* D (or D') at the pattern's entries of the columns of group g, and what lies outside. */
static int difference_group(const mbdae_functions *f, double t, pattern_work *w, int m,
                            const double *base, int g)
{
  const mbdae_jac_pattern *pat = w->pat;
  int rc = group_change(f, t, w, m, base, g, 1.0, w->narrow);
  if (rc == 0) {
    rc = group_change(f, t, w, m, base, g, 2.0, w->wide);
  }
  if (rc != 0) {
    return rc;
  }
  for (int k = w->first[g]; k < w->first[g + 1]; k++) {
    int j = w->order[k];
    for (int e = pat->colptr[j]; e < pat->colptr[j + 1]; e++) {
      w->owner[pat->rowind[e]] = j;
      w->fd[m][e] =
          extrapolated(w->narrow[pat->rowind[e]], w->wide[pat->rowind[e]], w->steps[m][j]);
    }
  }
  note_outside(w, m, g);
  for (int k = w->first[g]; k < w->first[g + 1]; k++) {
    int j = w->order[k];
    for (int e = pat->colptr[j]; e < pat->colptr[j + 1]; e++) {
      w->owner[pat->rowind[e]] = -1;
    }
  }
  return 0;
}

/* Steps and typical sizes of matrix m's columns, then its differences, group by group. */
static int difference_pattern(const mbdae_functions *f, double t, pattern_work *w, int m,
                              const double *base, const double *typ)
{
  size_t n = (size_t)f->neq;
  for (size_t j = 0; j < n; j++) {
    w->typ[m][j] = typical(typ, base, j);
    w->steps[m][j] = (base[j] + STEP_FACTOR * w->typ[m][j]) - base[j];
    w->outside_col[m][j] = -1;
  }
  int rc = 0;
  for (int g = 0; rc == 0 && g < w->ngroups; g++) {
    rc = difference_group(f, t, w, m, base, g);
  }
  return rc;
}

/* size_i and rowmax_i as row_sizes does, over the pattern's entries. */
static void pattern_row_sizes(pattern_work *w)
{
  const mbdae_jac_pattern *pat = w->pat;
  size_t n = (size_t)pat->neq;
  for (size_t i = 0; i < n; i++) {
    w->size[i] = fabs(w->res[i]);
    w->rowmax[i] = 0.0;
  }
  for (int m = 0; m < 2; m++) {
    const double *v = m == 0 ? w->y : w->yp;
    for (size_t j = 0; j < n; j++) {
      for (int e = pat->colptr[j]; e < pat->colptr[j + 1]; e++) {
        size_t i = (size_t)pat->rowind[e];
        w->size[i] += fabs(w->fd[m][e] * v[j]);
        w->rowmax[i] = fmax(w->rowmax[i], fabs(w->fd[m][e]) * w->typ[m][j]);
      }
    }
  }
}

static void judge_pattern(pattern_work *w, mbdae_jac_check *out)
{
  const mbdae_jac_pattern *pat = w->pat;
  size_t n = (size_t)pat->neq;
  for (int m = 0; m < 2; m++) {
    for (size_t j = 0; j < n; j++) {
      for (int e = pat->colptr[j]; e < pat->colptr[j + 1]; e++) {
        size_t i = (size_t)pat->rowind[e];
        judge_value(w->jac[m][e], w->fd[m][e], w->size[i], w->rowmax[i], w->steps[m][j],
                    w->typ[m][j], m, i, j, out);
      }
    }
  }
  for (int m = 0; m < 2; m++) {
    for (size_t i = 0; i < n; i++) {
      int j = w->outside_col[m][i];
      if (j >= 0 && judge_value(0.0, w->outside[m][i], w->size[i], w->rowmax[i], w->steps[m][j],
                                w->typ[m][j], m, i, (size_t)j, out) > MBDAE_CHECK_TOL) {
        out->noutside++;
      }
    }
  }
}

static int check_jac_pattern(const mbdae_functions *f, double t, const double *y, const double *yp,
                             const double *ytyp, const double *yptyp, mbdae_jac_check *out)
{
  pattern_work w;
  void *block = pattern_work_alloc(&f->pattern, &w);
  if (!block) {
    return MBDAE_ERR_NOMEM;
  }
  size_t n = (size_t)f->neq;
  memcpy(w.y, y, sizeof(double) * n);
  memcpy(w.yp, yp, sizeof(double) * n);
  int rc = list_groups(&w);
  if (rc == 0) {
    rc = f->jac_values(f->ctx, t, y, yp, w.jac[0], w.jac[1]);
  }
  if (rc == 0) {
    rc = f->res(f->ctx, t, y, yp, w.res);
  }
  if (rc == 0) {
    rc = difference_pattern(f, t, &w, 0, y, ytyp);
  }
  if (rc == 0) {
    rc = difference_pattern(f, t, &w, 1, yp, yptyp);
  }
  if (rc == 0) {
    pattern_row_sizes(&w);
    judge_pattern(&w, out);
    out->ok = out->err <= MBDAE_CHECK_TOL;
  }
  free(block);
  return rc;
}

/* The callbacks the checks need: res, and jac (dense) or jac_values over a pattern of order neq. */
static int functions_bad(const mbdae_functions *f)
{
  return !f || !f->res || f->neq <= 0 ||
         (has_pattern(f) ? !f->jac_values || f->pattern.neq != f->neq : !f->jac);
}

static int jac_arguments_bad(const mbdae_functions *f, const double *y, const double *yp,
                             const mbdae_jac_check *out)
{
  return functions_bad(f) || !y || !yp || !out;
}

/* mbdae_check_jac into the library's own struct. */
static int check_jac(const mbdae_functions *f, double t, const double *y, const double *yp,
                     const double *ytyp, const double *yptyp, mbdae_jac_check *out)
{
  if (jac_arguments_bad(f, y, yp, out)) {
    return MBDAE_ERR_ARG;
  }
  memset(out, 0, sizeof *out);
  out->size = sizeof *out;
  out->row = out->col = -1;
  if (has_pattern(f)) {
    return check_jac_pattern(f, t, y, yp, ytyp, yptyp, out);
  }
  size_t n = (size_t)f->neq;
  jac_work w;
  double *block = jac_work_alloc(n, &w);
  if (!block) {
    return MBDAE_ERR_NOMEM;
  }
  memcpy(w.y, y, sizeof(double) * n);
  memcpy(w.yp, yp, sizeof(double) * n);
  int rc = f->jac(f->ctx, t, y, yp, w.jac[0], w.jac[1]);
  if (rc == 0) {
    rc = f->res(f->ctx, t, y, yp, w.res);
  }
  if (rc == 0) {
    rc = difference_columns(f, t, w.y, w.yp, w.y, ytyp, w.fd[0], w.rplus, w.rminus, w.wide,
                            w.steps[0]);
  }
  if (rc == 0) {
    rc = difference_columns(f, t, w.y, w.yp, w.yp, yptyp, w.fd[1], w.rplus, w.rminus, w.wide,
                            w.steps[1]);
  }
  if (rc == 0) {
    const double *const typ[2] = {ytyp, yptyp};
    row_sizes(n, typ, &w);
    for (int m = 0; m < 2; m++) {
      for (size_t j = 0; j < n; j++) {
        double typ_j = typical(typ[m], m == 0 ? w.y : w.yp, j);
        for (size_t i = 0; i < n; i++) {
          judge_entry(&w, n, m, i, j, typ_j, out);
        }
      }
    }
    out->ok = out->err <= MBDAE_CHECK_TOL;
  }
  free(block);
  return rc;
}

/* ---- hidden constraints -------------------------------------------------------------------- */

/* The diagonal of dF/dy' (kmat, as the checks store a matrix) into diag, for the rows with a
 * nonzero diagonal (differential rows, K_ii y_i' + sum_j K_ij y_j' - f_i); a row with nonzeros
 * only off the diagonal (a derivative-level constraint in y', as form=dummy has) gets 0 and is
 * left as it is.  *mixed counts the rows with nonzeros both on and off the diagonal (a mass
 * matrix that is not diagonal: the wheelset's row 11 holds theta'' beside beta'). */
static int mass_diagonal(const mbdae_functions *f, const double *kmat, double *diag, int *mixed)
{
  size_t n = (size_t)f->neq;
  unsigned char *off = calloc(n ? n : 1, 1);
  if (!off) {
    return MBDAE_ERR_NOMEM;
  }
  memset(diag, 0, sizeof(double) * n);
  const mbdae_jac_pattern *pat = has_pattern(f) ? &f->pattern : NULL;
  for (size_t j = 0; j < n; j++) {
    size_t begin = pat ? (size_t)pat->colptr[j] : j * n;
    size_t end = pat ? (size_t)pat->colptr[j + 1] : begin + n;
    for (size_t e = begin; e < end; e++) {
      size_t i = pat ? (size_t)pat->rowind[e] : e - begin;
      if (kmat[e] != 0.0 && i == j) {
        diag[i] = kmat[e];
      } else if (kmat[e] != 0.0) {
        off[i] = 1;
      }
    }
  }
  *mixed = 0;
  for (size_t i = 0; i < n; i++) {
    *mixed += off[i] && diag[i] != 0.0;
    diag[i] = off[i] && diag[i] == 0.0 ? 0.0 : diag[i];
  }
  free(off);
  return 0;
}

/* Work of consistent_yp: dF/dy' as the checks store it, then its diagonal. */
static size_t kmat_len(const mbdae_functions *f) { return matrix_len(f) + (size_t)f->neq; }

/* y' with the differential rows of F solved: on the rows where F is K_ii y'_i - f_i (see
 * mass_diagonal), one Newton step y'_i -= F_i / K_ii is exact up to rounding.  Rows that also
 * hold other y'_j (mixed) take one more step per such row, F evaluated again: a row whose
 * coupling reaches only rows solved before it is then exact too.  kmat and res are work arrays
 * (kmat_len and n). */
static int consistent_yp(const mbdae_functions *f, double t, const double *y, double *yp,
                         double *kmat, double *res)
{
  size_t n = (size_t)f->neq;
  double *diag = kmat + matrix_len(f);
  int mixed = 0;
  int rc = has_pattern(f) ? f->jac_values(f->ctx, t, y, yp, NULL, kmat)
                          : f->jac(f->ctx, t, y, yp, NULL, kmat);
  if (rc == 0) {
    rc = mass_diagonal(f, kmat, diag, &mixed);
  }
  for (int pass = 0; rc == 0 && pass <= mixed; pass++) {
    rc = f->res(f->ctx, t, y, yp, res);
    for (size_t i = 0; rc == 0 && i < n; i++) {
      if (diag[i] != 0.0) {
        yp[i] -= res[i] / diag[i];
      }
    }
  }
  return rc;
}

/* The work of one constraint check: nc-vectors for g and g' at the point, at +s and -s, the
 * differences, the term sizes; n-vectors for y, y'; the n x n matrix for dF/dy'. */
typedef struct con_work {
  double *g[2], *gacc, *plus[2], *minus[2], *fd[2], *terms[2], *size[2];
  double *y, *yp, *ytmp, *yptmp, *res, *kmat;
  double timescale[2]; /* per level, the time in which some variable that g (g') depends on
                          moves by its typical size */
} con_work;

static double *con_work_alloc(const mbdae_functions *f, con_work *w)
{
  size_t n = (size_t)f->neq, nc = (size_t)f->nconstraints;
  double *block = malloc(sizeof(double) * (13 * nc + 5 * n + kmat_len(f)));
  if (!block) {
    return NULL;
  }
  double *v = block;
  double **cvec[] = {&w->g[0],     &w->g[1],     &w->gacc,   &w->plus[0], &w->plus[1],
                     &w->minus[0], &w->minus[1], &w->fd[0],  &w->fd[1],   &w->terms[0],
                     &w->terms[1], &w->size[0],  &w->size[1]};
  for (size_t k = 0; k < sizeof cvec / sizeof cvec[0]; k++) {
    *cvec[k] = v;
    v += nc;
  }
  double **nvec[] = {&w->y, &w->yp, &w->ytmp, &w->yptmp, &w->res};
  for (size_t k = 0; k < sizeof nvec / sizeof nvec[0]; k++) {
    *nvec[k] = v;
    v += n;
  }
  w->kmat = v;
  return block;
}

/* g and g' at (t, y, y'); MBDAE_ERR_UNSUPPORTED when either depends on y' (a perturbed y'
 * must give them bit for bit). */
static int levels_at_point(const mbdae_functions *f, double t, con_work *w)
{
  size_t n = (size_t)f->neq, nc = (size_t)f->nconstraints;
  int rc = f->constraints(f->ctx, t, w->y, w->yp, w->g[0], w->g[1], w->gacc);
  for (size_t i = 0; i < n; i++) {
    w->yptmp[i] = w->yp[i] * 1.25 + 0.5;
  }
  if (rc == 0) {
    rc = f->constraints(f->ctx, t, w->y, w->yptmp, w->plus[0], w->plus[1], NULL);
  }
  for (size_t k = 0; rc == 0 && k < nc; k++) {
    if (w->plus[0][k] != w->g[0][k] || w->plus[1][k] != w->g[1][k]) {
      rc = MBDAE_ERR_UNSUPPORTED;
    }
  }
  return rc;
}

/* g, g' at (t + s, y + s y') into plus, minus for s = +-step. */
static int levels_along(const mbdae_functions *f, double t, double step, double sign, con_work *w,
                        double *out[2])
{
  size_t n = (size_t)f->neq;
  for (size_t i = 0; i < n; i++) {
    w->ytmp[i] = w->y[i] + sign * step * w->yp[i];
  }
  return f->constraints(f->ctx, t + sign * step, w->ytmp, w->yp, out[0], out[1], NULL);
}

/* What column j's difference quotient d of g_k (l = 0) or g'_k (1) adds to the term sizes. */
static void add_term(con_work *w, int l, size_t k, size_t j, double typ, double d)
{
  w->terms[l][k] = fmax(w->terms[l][k], fabs(d * w->yp[j]));
  w->size[l][k] += fabs(d * w->y[j]);
  if (d != 0.0 && w->yp[j] != 0.0) {
    w->timescale[l] = fmin(w->timescale[l], typ / fabs(w->yp[j]));
  }
}

/* g, g' at y + h and y - h in the ncols columns cols (together, h[c] the step of cols[c]) into
 * plus, minus. */
static int column_change(const mbdae_functions *f, double t, con_work *w, const int *cols,
                         size_t ncols, const double *h)
{
  for (size_t c = 0; c < ncols; c++) {
    w->ytmp[cols[c]] = w->y[cols[c]] + h[c];
  }
  int rc = f->constraints(f->ctx, t, w->ytmp, w->yp, w->plus[0], w->plus[1], NULL);
  for (size_t c = 0; c < ncols; c++) {
    w->ytmp[cols[c]] = w->y[cols[c]] - h[c];
  }
  if (rc == 0) {
    rc = f->constraints(f->ctx, t, w->ytmp, w->yp, w->minus[0], w->minus[1], NULL);
  }
  for (size_t c = 0; c < ncols; c++) {
    w->ytmp[cols[c]] = w->y[cols[c]];
  }
  return rc;
}

/* The differencing step and typical size of column j. */
static double column_step(const double *ytyp, const con_work *w, size_t j, double *typ)
{
  *typ = typical(ytyp, w->y, j);
  return (w->y[j] + STEP_FACTOR * *typ) - w->y[j];
}

/* term_sizes one column at a time (2 n evaluations of g and g'). */
static int term_sizes_dense(const mbdae_functions *f, double t, const double *ytyp, con_work *w)
{
  size_t n = (size_t)f->neq, nc = (size_t)f->nconstraints;
  for (size_t j = 0; j < n; j++) {
    double typ, h = column_step(ytyp, w, j, &typ);
    int col = (int)j, rc = column_change(f, t, w, &col, 1, &h);
    if (rc != 0) {
      return rc;
    }
    for (int l = 0; l < 2; l++) {
      for (size_t k = 0; k < nc; k++) {
        add_term(w, l, k, j, typ, (w->plus[l][k] - w->minus[l][k]) / (2.0 * h));
      }
    }
  }
  return 0;
}

/* Work of term_sizes_grouped: per column its step, typical size and group; the columns group
 * by group (order[first[g]] .. order[first[g + 1] - 1]) and their steps in that order; the
 * difference quotients of g and g' at the pattern's entries. */
typedef struct group_work {
  double *step, *typ, *ordered_step, *d[2];
  int *group, *order, *first;
  int ngroups;
} group_work;

static int group_work_alloc(const mbdae_jac_pattern *pat, group_work *gw)
{
  size_t n = (size_t)pat->neq;
  gw->step = malloc(sizeof(double) * (3 * n + 2 * pat->nnz + 1));
  gw->group = malloc(sizeof(int) * (3 * n + 1));
  if (!gw->step || !gw->group) {
    return MBDAE_ERR_NOMEM;
  }
  gw->typ = gw->step + n;
  gw->ordered_step = gw->typ + n;
  gw->d[0] = gw->ordered_step + n;
  gw->d[1] = gw->d[0] + pat->nnz;
  gw->order = gw->group + n;
  gw->first = gw->order + n; /* ngroups + 1 <= n + 1 */
  gw->ngroups = mbdae_pattern_groups(pat, gw->group);
  if (gw->ngroups < 0) {
    return MBDAE_ERR_NOMEM;
  }
  memset(gw->first, 0, sizeof(int) * ((size_t)gw->ngroups + 1));
  for (size_t j = 0; j < n; j++) {
    gw->first[gw->group[j] + 1]++;
  }
  for (int g = 0; g < gw->ngroups; g++) {
    gw->first[g + 1] += gw->first[g];
  }
  for (size_t j = 0; j < n; j++) { /* first[g] ends at first[g + 1], then shifts back */
    gw->order[gw->first[gw->group[j]]++] = (int)j;
  }
  for (int g = gw->ngroups; g > 0; g--) {
    gw->first[g] = gw->first[g - 1];
  }
  gw->first[0] = 0;
  return 0;
}

/* term_sizes over column groups that share no constraint of pat (2 evaluations of g and g' per
 * group): the quotients at the pattern's entries, then added column by column as the dense pass
 * does, so that every sum runs in the same order (rows outside the pattern add exact zeros
 * there), and the result is the same bit for bit. */
static int term_sizes_grouped(const mbdae_functions *f, double t, const double *ytyp,
                              const mbdae_jac_pattern *pat, con_work *w)
{
  group_work gw;
  int rc = group_work_alloc(pat, &gw);
  for (int j = 0; rc == 0 && j < pat->neq; j++) {
    gw.step[j] = column_step(ytyp, w, (size_t)j, &gw.typ[j]);
  }
  for (int c = 0; rc == 0 && c < pat->neq; c++) {
    gw.ordered_step[c] = gw.step[gw.order[c]];
  }
  for (int g = 0; rc == 0 && g < gw.ngroups; g++) {
    int begin = gw.first[g], end = gw.first[g + 1];
    rc = column_change(f, t, w, gw.order + begin, (size_t)(end - begin), gw.ordered_step + begin);
    for (int c = begin; rc == 0 && c < end; c++) {
      int j = gw.order[c];
      for (int e = pat->colptr[j]; e < pat->colptr[j + 1]; e++) {
        int k = pat->rowind[e];
        gw.d[0][e] = (w->plus[0][k] - w->minus[0][k]) / (2.0 * gw.step[j]);
        gw.d[1][e] = (w->plus[1][k] - w->minus[1][k]) / (2.0 * gw.step[j]);
      }
    }
  }
  for (int j = 0; rc == 0 && j < pat->neq; j++) {
    for (int l = 0; l < 2; l++) {
      for (int e = pat->colptr[j]; e < pat->colptr[j + 1]; e++) {
        add_term(w, l, (size_t)pat->rowind[e], (size_t)j, gw.typ[j], gw.d[l][e]);
      }
    }
  }
  free(gw.step);
  free(gw.group);
  return rc;
}

/* terms[l]_k = max_j |dg_k/dy_j y'_j| (the largest term of the derivative) and size[l]_k =
 * |g_k| + sum_j |dg_k/dy_j y_j| (what rounding in g_k scales with), for g (l = 0) and g' (1).
 * A problem's own functions that state where g and g' depend on y (problem_type's
 * constraint_pattern; mbdae_functions has no room for it) are differenced in column groups. */
static int term_sizes(const mbdae_functions *f, double t, const double *ytyp, con_work *w)
{
  size_t n = (size_t)f->neq, nc = (size_t)f->nconstraints;
  for (int l = 0; l < 2; l++) {
    for (size_t k = 0; k < nc; k++) {
      w->terms[l][k] = 0.0;
      w->size[l][k] = fabs(w->g[l][k]);
    }
  }
  memcpy(w->ytmp, w->y, sizeof(double) * n);
  w->timescale[0] = w->timescale[1] = HUGE_VAL;
  mbdae_jac_pattern pat = {0};
  int *block = NULL;
  int rc = 0;
  if (f->constraints == problem_constraints && f->neq == mbdae_problem_neq(f->ctx) &&
      f->nconstraints == mbdae_problem_nconstraints(f->ctx)) {
    rc = mbdae_problem_constraint_pattern_alloc(f->ctx, &pat, &block);
  }
  if (rc == 0) {
    rc = pat.colptr ? term_sizes_grouped(f, t, ytyp, &pat, w) : term_sizes_dense(f, t, ytyp, w);
  }
  free(block);
  return rc;
}

/* The step along the line for level l: LINE_STEP_FACTOR times its time scale (1 when nothing that
 * level depends on moves). */
static double line_step(double t, const con_work *w, int l)
{
  double scale = isfinite(w->timescale[l]) ? w->timescale[l] : 1.0;
  return (t + LINE_STEP_FACTOR * scale) - t;
}

static void judge_levels(size_t nc, const double step[2], const con_work *w,
                         mbdae_constraint_check *out)
{
  for (int l = 0; l < 2; l++) {
    const double *value = l == 0 ? w->g[1] : w->gacc;
    for (size_t k = 0; k < nc; k++) {
      double v = value[k], d = w->fd[l][k];
      double scale = fmax(fmax(fabs(v), fabs(d)), MBDAE_CHECK_ROW_FRACTION * w->terms[l][k]);
      double err = scale > 0.0 ? fabs(v - d) / scale : 0.0;
      if (err > MBDAE_CHECK_TOL) { /* rounding in g_k may dominate: deduct what it can make */
        double allowance = ROUNDING_FACTOR * DBL_EPSILON * w->size[l][k] / step[l];
        err = fmax(fabs(v - d) - allowance, 0.0) / scale;
      }
      if (err > out->err || out->index < 0) {
        out->err = err;
        out->level = l + 1;
        out->index = (int)k;
        out->value = v;
        out->fd = d;
      }
    }
  }
}

/* fd[l] = d/ds of g (l = 0) or g' (l = 1) along the line with the step of level l: central
 * differences with steps s and 2s, extrapolated (4 D_s - D_2s) / 3 as for the Jacobian. */
static int line_derivative(const mbdae_functions *f, double t, double step, int l, con_work *w)
{
  size_t nc = (size_t)f->nconstraints;
  for (int pass = 0; pass < 2; pass++) {
    double s = pass == 0 ? 2.0 * step : step;
    int rc = levels_along(f, t, s, 1.0, w, w->plus);
    if (rc == 0) {
      rc = levels_along(f, t, s, -1.0, w, w->minus);
    }
    if (rc != 0) {
      return rc;
    }
    for (size_t k = 0; k < nc; k++) {
      double d = (w->plus[l][k] - w->minus[l][k]) / (2.0 * s);
      w->fd[l][k] = pass == 0 ? d : (4.0 * d - w->fd[l][k]) / 3.0;
    }
  }
  return 0;
}

static int constraint_check_run(const mbdae_functions *f, double t, const double *ytyp, con_work *w,
                                mbdae_constraint_check *out)
{
  int rc = consistent_yp(f, t, w->y, w->yp, w->kmat, w->res);
  if (rc == 0) {
    rc = levels_at_point(f, t, w);
  }
  if (rc == 0) {
    rc = term_sizes(f, t, ytyp, w);
  }
  double step[2] = {line_step(t, w, 0), line_step(t, w, 1)};
  for (int l = 0; rc == 0 && l < 2; l++) {
    rc = line_derivative(f, t, step[l], l, w);
  }
  if (rc != 0) {
    return rc;
  }
  judge_levels((size_t)f->nconstraints, step, w, out);
  out->ok = out->err <= MBDAE_CHECK_TOL;
  return 0;
}

/* The caller's result struct (size bytes, checked by the caller) as the library's, run through
 * check, and given back as far as its size. */
#define CHECK_SIZED(type, out, call)                                                               \
  do {                                                                                             \
    if (!(out) || mbdae_struct_size_invalid((out)->size, sizeof(type), sizeof(type)) != NULL) {    \
      return MBDAE_ERR_ARG;                                                                        \
    }                                                                                              \
    type full_;                                                                                    \
    mbdae_struct_take(out, (out)->size, &full_, sizeof full_);                                     \
    int rc_ = call;                                                                                \
    mbdae_struct_give(&full_, out, (out)->size);                                                   \
    return rc_;                                                                                    \
  } while (0)

int mbdae_check_jac(const mbdae_functions *f, double t, const double *y, const double *yp,
                    const double *ytyp, const double *yptyp, mbdae_jac_check *out)
{
  mbdae_functions own;
  if (functions_take(f, &own) != 0) {
    return MBDAE_ERR_ARG;
  }
  CHECK_SIZED(mbdae_jac_check, out, check_jac(&own, t, y, yp, ytyp, yptyp, &full_));
}

/* mbdae_check_constraints into the library's own struct. */
static int check_constraints(const mbdae_functions *f, double t, const double *y, const double *yp,
                             const double *ytyp, mbdae_constraint_check *out)
{
  if (functions_bad(f) || f->nconstraints < 0 || !y || !yp || !out ||
      (f->nconstraints > 0 && !f->constraints)) {
    return MBDAE_ERR_ARG;
  }
  memset(out, 0, sizeof *out);
  out->size = sizeof *out;
  out->index = -1;
  out->ok = 1;
  if (f->nconstraints == 0) {
    return 0;
  }
  con_work w = {0};
  double *block = con_work_alloc(f, &w);
  if (!block) {
    return MBDAE_ERR_NOMEM;
  }
  memcpy(w.y, y, sizeof(double) * (size_t)f->neq);
  memcpy(w.yp, yp, sizeof(double) * (size_t)f->neq);
  int rc = constraint_check_run(f, t, ytyp, &w, out);
  free(block);
  return rc;
}

int mbdae_check_constraints(const mbdae_functions *f, double t, const double *y, const double *yp,
                            const double *ytyp, mbdae_constraint_check *out)
{
  mbdae_functions own;
  if (functions_take(f, &own) != 0) {
    return MBDAE_ERR_ARG;
  }
  CHECK_SIZED(mbdae_constraint_check, out, check_constraints(&own, t, y, yp, ytyp, &full_));
}

/* ---- check points --------------------------------------------------------------------------- */

/* xorshift64 (Marsaglia 2003), state kept by the caller: a uniform number in [-1, 1]. */
static double next_uniform(uint64_t *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return 2.0 * (double)(*state >> 11) / 9007199254740992.0 - 1.0;
}

static const char *points_invalid(const mbdae_check_points *pts)
{
  return mbdae_struct_size_invalid(pts->size, sizeof *pts, sizeof *pts);
}

void mbdae_check_points_free(mbdae_check_points *pts)
{
  if (pts && !points_invalid(pts)) {
    free(pts->y);
    memset((char *)pts + sizeof pts->size, 0, pts->size - sizeof pts->size);
  }
}

/* typ_j = max(typ_j, |v_j|), leaving out values at rounding level (below 1e-12 max_k |v_k|: the
 * crank's published init1 prints 1.8e-20 for an acceleration that is zero). */
static void widen(size_t n, const double *v, double *typ)
{
  double vmax = 0.0;
  for (size_t j = 0; j < n; j++) {
    vmax = fmax(vmax, fabs(v[j]));
  }
  for (size_t j = 0; j < n; j++) {
    if (fabs(v[j]) > 1e-12 * vmax) {
      typ[j] = fmax(typ[j], fabs(v[j]));
    }
  }
}

/* The initial values of q into y0, yp0, and its reference with a consistent y' into yref, ypref
 * (1 when there is one, 0 when not, or a negative code); the typical sizes widened by all. */
static int known_states(const mbdae_problem *q, double *y0, double *yp0, double *yref,
                        double *ypref, double *typ, double *typp, double *kmat, double *res)
{
  mbdae_functions f;
  mbdae_problem_functions(q, &f);
  size_t n = (size_t)f.neq;
  int rc = mbdae_problem_init(q, y0, yp0);
  if (rc != 0) {
    return rc;
  }
  widen(n, y0, typ);
  widen(n, yp0, typp);
  if (mbdae_problem_ref(q, yref) != 0) {
    return 0;
  }
  memcpy(ypref, yp0, sizeof(double) * n);
  rc = consistent_yp(&f, mbdae_problem_tend(q), yref, ypref, kmat, res);
  if (rc != 0) {
    return rc;
  }
  widen(n, yref, typ);
  widen(n, ypref, typp);
  return 1;
}

/* 1 when the work array kmat sized for p also holds what consistent_yp stores for q. */
static int fits_kmat(const mbdae_problem *q, const mbdae_problem *p)
{
  mbdae_functions fq, fp;
  mbdae_problem_functions(q, &fq);
  mbdae_problem_functions(p, &fp);
  return kmat_len(&fq) <= kmat_len(&fp);
}

/* Initial values, the reference, and the typical sizes, widened by the states of the problem's
 * default configuration (its variants share the physical scales; crank:init=2 starts from
 * q = 0 and has no reference).  Sizes no state gives are 1. */
static int fixed_points(const mbdae_problem *p, mbdae_check_points *pts, double *scratch,
                        double *kmat, double *res)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  int has_ref =
      known_states(p, pts->y, pts->yp, pts->y + n, pts->yp + n, pts->ytyp, pts->yptyp, kmat, res);
  if (has_ref < 0) {
    return has_ref;
  }
  pts->t[0] = mbdae_problem_t0(p);
  pts->label[0] = "initial values";
  pts->t[1] = mbdae_problem_tend(p);
  pts->label[1] = "reference";
  pts->npoints = 1 + has_ref;
  mbdae_problem *def = NULL;
  if (mbdae_problem_create(mbdae_problem_name(p), &def, NULL, 0) == 0 &&
      mbdae_problem_neq(def) == (int)n && fits_kmat(def, p)) {
    int rc = known_states(def, scratch, scratch + n, scratch + 2 * n, scratch + 3 * n, pts->ytyp,
                          pts->yptyp, kmat, res);
    has_ref = rc < 0 ? rc : has_ref;
  }
  mbdae_problem_destroy(def);
  for (size_t j = 0; j < n; j++) {
    pts->ytyp[j] = pts->ytyp[j] > 0.0 ? pts->ytyp[j] : 1.0;
    pts->yptyp[j] = pts->yptyp[j] > 0.0 ? pts->yptyp[j] : 1.0;
  }
  return has_ref < 0 ? has_ref : 0;
}

/* A random state around the initial values (k-th point, its own seed); retried when the
 * residual cannot be evaluated there. */
static int random_point(const mbdae_problem *p, const mbdae_functions *f, int k,
                        mbdae_check_points *pts, double *kmat, double *res)
{
  size_t n = (size_t)f->neq;
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  double *y = pts->y + (size_t)pts->npoints * n, *yp = pts->yp + (size_t)pts->npoints * n;
  uint64_t state = 0x9e3779b97f4a7c15ULL * (uint64_t)(k + 1);
  int rc = MBDAE_ERR_RES;
  for (int attempt = 0; attempt < 10 && rc != 0; attempt++) {
    double t = t0 + 0.5 * (1.0 + next_uniform(&state)) * (tend - t0);
    for (size_t j = 0; j < n; j++) {
      y[j] = pts->y[j] + pts->ytyp[j] * next_uniform(&state);
      yp[j] = pts->yp[j] + pts->yptyp[j] * next_uniform(&state);
    }
    rc = consistent_yp(f, t, y, yp, kmat, res);
    pts->t[pts->npoints] = t;
  }
  if (rc == 0) {
    pts->label[pts->npoints++] = "random";
  }
  return rc;
}

int mbdae_problem_check_points(const mbdae_problem *p, mbdae_check_points *pts)
{
  if (!pts || points_invalid(pts)) {
    return MBDAE_ERR_ARG;
  }
  memset((char *)pts + sizeof pts->size, 0, pts->size - sizeof pts->size);
  if (!p) {
    return MBDAE_ERR_ARG;
  }
  mbdae_functions f;
  mbdae_problem_functions(p, &f);
  size_t n = (size_t)f.neq, npt = MBDAE_CHECK_MAX_POINTS;
  double *block = calloc(2 * npt * n + 7 * n + kmat_len(&f), sizeof(double));
  if (!block) {
    return MBDAE_ERR_NOMEM;
  }
  pts->y = block;
  pts->yp = block + npt * n;
  pts->ytyp = pts->yp + npt * n;
  pts->yptyp = pts->ytyp + n;
  double *res = pts->yptyp + n, *scratch = res + n, *kmat = scratch + 4 * n;
  int rc = fixed_points(p, pts, scratch, kmat, res);
  for (int k = 0; rc == 0 && k < MBDAE_CHECK_RANDOM; k++) {
    rc = random_point(p, &f, k, pts, kmat, res);
  }
  if (rc != 0) {
    mbdae_check_points_free(pts);
  }
  return rc;
}

int mbdae_check_all(const mbdae_functions *f, const mbdae_check_points *pts, mbdae_jac_check *jac,
                    mbdae_constraint_check *con)
{
  mbdae_functions own;
  if (functions_take(f, &own) != 0 || !pts || points_invalid(pts) || !pts->y || !jac || !con ||
      mbdae_struct_size_invalid(jac->size, sizeof *jac, sizeof *jac) != NULL ||
      mbdae_struct_size_invalid(con->size, sizeof *con, sizeof *con) != NULL) {
    return MBDAE_ERR_ARG;
  }
  size_t n = (size_t)own.neq, jstride = jac->size, cstride = con->size;
  for (int k = 0; k < pts->npoints; k++) {
    const double *y = pts->y + (size_t)k * n, *yp = pts->yp + (size_t)k * n;
    mbdae_jac_check *jk = (mbdae_jac_check *)((char *)jac + (size_t)k * jstride);
    mbdae_constraint_check *ck = (mbdae_constraint_check *)((char *)con + (size_t)k * cstride);
    jk->size = jstride;
    ck->size = cstride;
    int rc = mbdae_check_jac(&own, pts->t[k], y, yp, pts->ytyp, pts->yptyp, jk);
    if (rc == 0) {
      rc = mbdae_check_constraints(&own, pts->t[k], y, yp, pts->ytyp, ck);
    }
    if (rc != 0) {
      return rc;
    }
  }
  return 0;
}

int mbdae_problem_check_jac(const mbdae_problem *p, double t, const double *y, const double *yp,
                            mbdae_jac_check *out)
{
  if (!p || !y || !yp || !out) {
    return MBDAE_ERR_ARG;
  }
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  int rc = mbdae_problem_check_points(p, &pts);
  if (rc == 0) {
    mbdae_functions f;
    mbdae_problem_functions(p, &f);
    rc = mbdae_check_jac(&f, t, y, yp, pts.ytyp, pts.yptyp, out);
  }
  mbdae_check_points_free(&pts);
  return rc;
}
