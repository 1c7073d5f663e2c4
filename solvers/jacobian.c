/* The Jacobian store (solvers/jacobian.h): J and M as pattern values, one allocation per run.
 * Every pass is over the pattern's entries, O(nnz); a DENSE store is the full pattern. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condense.h"
#include "jacobian.h"

/* The full pattern of order n as explicit arrays (colptr: n + 1, rowind: n^2), for KLU. */
static void full_pattern(int n, int *colptr, int *rowind)
{
  size_t k = 0;
  for (int j = 0; j < n; j++) {
    colptr[j] = (int)k;
    for (int i = 0; i < n; i++) {
      rowind[k++] = i;
    }
  }
  colptr[n] = (int)k;
}

/* Pattern and sizes of the store for a resolved kind. */
static void set_pattern(mbdae_jacobian *jac, const mbdae_jac_pattern *pat, int kind)
{
  int n = pat->neq;
  jac->kind = kind;
  jac->n = n;
  jac->ml = jac->mu = n > 0 ? n - 1 : 0;
  jac->nnz = (size_t)n * (size_t)n;
  jac->colptr = jac->rowind = NULL;
  if (kind != MBDAE_JAC_DENSE && pat->colptr) {
    jac->ml = pat->ml;
    jac->mu = pat->mu;
    jac->nnz = pat->nnz;
    jac->colptr = pat->colptr;
    jac->rowind = pat->rowind;
  }
}

int mbdae_jacobian_create(mbdae_jacobian *jac, const mbdae_problem *p, int kind, char *msg,
                          size_t msglen)
{
  memset(jac, 0, sizeof *jac);
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  if (kind == MBDAE_JAC_AUTO) {
    kind = pat.kind;
  }
  int condensed = kind == MBDAE_JAC_CONDENSED;
  kind = condensed ? MBDAE_JAC_DENSE : kind;
  if (kind != MBDAE_JAC_DENSE && kind != MBDAE_JAC_BAND && kind != MBDAE_JAC_SPARSE) {
    snprintf(msg, msglen,
             "linsys %d is not a kind of iteration matrix (auto, dense, band, sparse, condensed)",
             kind);
    return MBDAE_ERR_UNSUPPORTED;
  }
  set_pattern(jac, &pat, kind);
  int explicit_full = kind == MBDAE_JAC_SPARSE && !jac->colptr;
  size_t n = (size_t)jac->n, values = 2 * (jac->nnz ? jac->nnz : 1);
  size_t ints = explicit_full ? n + 1 + jac->nnz : 0;
  size_t nrows = condensed && jac->n <= MBDAE_CONDENSE_MAX_N ? n : 0;
  size_t words = nrows ? n + n * n : 0;  /* the row sets, the outside mask */
  ints += nrows ? 2 * n * n + n + 1 : 0; /* M's nonzeros (positions, column starts), inside */
  jac->block = malloc(values * sizeof(double) + words * sizeof(row_set) + ints * sizeof(int));
  if (!jac->block) {
    snprintf(msg, msglen, "out of memory for the Jacobian (%zu values)", values);
    return MBDAE_ERR_NOMEM;
  }
  jac->dfdy = jac->block;
  jac->dfdyp = jac->dfdy + values / 2;
  jac->rows = nrows ? (row_set *)(jac->dfdy + values) : NULL;
  if (nrows) {
    jac->outside = jac->rows + n;
    jac->mcolptr = (int *)(jac->outside + n * n);
    jac->mpos = jac->mcolptr + n + 1;
    jac->inside = jac->mpos + n * n;
  }
  if (explicit_full) {
    int *colptr = (int *)(jac->dfdy + values);
    full_pattern(jac->n, colptr, colptr + n + 1);
    jac->colptr = colptr;
    jac->rowind = colptr + n + 1;
  }
  return 0;
}

void mbdae_jacobian_free(mbdae_jacobian *jac)
{
  free(jac->block);
  jac->block = NULL;
}

/* The structure of a small dense J and M, in one pass: the row sets of J and M together
 * (condense.h), the positions of M's nonzeros by columns, the mask of the entries where both are
 * zero (outside) and the list of the others (inside). */
static void small_dense_structure(mbdae_jacobian *jac)
{
  size_t n = (size_t)jac->n;
  int nm = 0, ni = 0;
  jac->structures++;
  memset(jac->rows, 0, sizeof(row_set) * n);
  for (size_t j = 0; j < n; j++) {
    const double *cj = jac->dfdy + j * n, *cm = jac->dfdyp + j * n;
    row_set bit = 1ULL << j;
    jac->mcolptr[j] = nm;
    for (size_t k = 0; k < n; k++) {
      row_set in_m = mbdae_nonzero_bits(cm[k]), in_either = mbdae_nonzero_bits(cj[k]) | in_m;
      jac->rows[k] |= bit & -in_either;
      if (in_m) {
        jac->mpos[nm++] = (int)(j * n + k);
      }
      jac->outside[j * n + k] = in_either - 1; /* all ones where both are zero */
      if (in_either) {
        jac->inside[ni++] = (int)(j * n + k);
      }
    }
  }
  jac->mcolptr[n] = nm;
  jac->ninside = ni;
}

/* 1 when J and M are still zero wherever they were when the structure was taken: the row sets
 * and M's positions still cover every nonzero (entries that became zero stay in them, which
 * the plans and M x tolerate), so the scan of all n^2 entries is needed only when this fails. */
static int structure_holds(const mbdae_jacobian *jac)
{
  size_t nn = (size_t)jac->n * (size_t)jac->n;
  row_set any = 0;
  for (size_t k = 0; k < nn; k++) { /* integer operations over all entries: it vectorizes */
    uint64_t a, b;
    memcpy(&a, jac->dfdy + k, sizeof a);
    memcpy(&b, jac->dfdyp + k, sizeof b);
    any |= ((a | b) << 1) & jac->outside[k]; /* << 1: -0.0 is zero */
  }
  return any == 0;
}

int mbdae_jacobian_eval(mbdae_jacobian *jac, const mbdae_problem *p, double t, const double *y,
                        const double *yp)
{
  jac->stamp++;
  if (jac->kind == MBDAE_JAC_DENSE) {
    int rc = mbdae_problem_jac(p, t, y, yp, jac->dfdy, jac->dfdyp);
    if (jac->rows && (jac->stamp == 1 || !structure_holds(jac))) {
      small_dense_structure(jac);
    }
    return rc;
  }
  return mbdae_problem_jac_values(p, t, y, yp, jac->dfdy, jac->dfdyp);
}

void mbdae_jacobian_differential(const mbdae_jacobian *jac, int *mask)
{
  for (int j = 0; jac->mcolptr && j < jac->n; j++) { /* M's entries: their values decide */
    mask[j] = 0;
    for (int e = jac->mcolptr[j]; e < jac->mcolptr[j + 1] && !mask[j]; e++) {
      mask[j] = jac->dfdyp[jac->mpos[e]] != 0.0;
    }
  }
  for (int j = 0; !jac->mcolptr && j < jac->n; j++) {
    mask[j] = 0;
    size_t end = mbdae_jacobian_col_end(jac, j);
    for (size_t k = mbdae_jacobian_col_begin(jac, j); k < end && !mask[j]; k++) {
      mask[j] = jac->dfdyp[k] != 0.0;
    }
  }
}

void mbdae_jacobian_mult_dfdyp(const mbdae_jacobian *jac, const int *only, const double *x,
                               double *out)
{
  memset(out, 0, sizeof(double) * (size_t)jac->n);
  if (jac->mcolptr) { /* M's nonzeros only: the same sums, without the products by zero */
    size_t n = (size_t)jac->n;
    for (size_t j = 0; j < n; j++) {
      if (only && !only[j]) {
        continue;
      }
      for (int e = jac->mcolptr[j]; e < jac->mcolptr[j + 1]; e++) {
        out[(size_t)jac->mpos[e] % n] += jac->dfdyp[jac->mpos[e]] * x[j];
      }
    }
    return;
  }
  for (int j = 0; j < jac->n; j++) {
    if (only && !only[j]) {
      continue;
    }
    double xj = x[j];
    size_t end = mbdae_jacobian_col_end(jac, j);
    for (size_t k = mbdae_jacobian_col_begin(jac, j); k < end; k++) {
      out[mbdae_jacobian_row(jac, j, k)] += jac->dfdyp[k] * xj;
    }
  }
}
