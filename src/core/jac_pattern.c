/* Compressed-column patterns: validation, bandwidths, column groups (see jac_pattern.h). */
#include "jac_pattern.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

const char *mbdae_pattern_invalid(int neq, const int *colptr, const int *rowind, char *buf,
                                  size_t len)
{
  if (!colptr || !rowind) {
    return "a pattern needs both colptr and rowind";
  }
  if (colptr[0] != 0) {
    return "colptr[0] is not 0";
  }
  for (int j = 0; j < neq; j++) {
    if (colptr[j + 1] < colptr[j]) {
      snprintf(buf, len, "colptr decreases at column %d", j);
      return buf;
    }
    for (int k = colptr[j]; k < colptr[j + 1]; k++) {
      if (rowind[k] < 0 || rowind[k] >= neq) {
        snprintf(buf, len, "row %d of column %d is outside 0..%d", rowind[k], j, neq - 1);
        return buf;
      }
      if (k > colptr[j] && rowind[k] <= rowind[k - 1]) {
        snprintf(buf, len, "rows of column %d are not strictly increasing", j);
        return buf;
      }
    }
  }
  return NULL;
}

void mbdae_pattern_bandwidths(int neq, const int *colptr, const int *rowind, int *ml, int *mu)
{
  *ml = 0;
  *mu = 0;
  for (int j = 0; j < neq; j++) {
    if (colptr[j + 1] > colptr[j]) {
      int lo = rowind[colptr[j]], hi = rowind[colptr[j + 1] - 1];
      *mu = j - lo > *mu ? j - lo : *mu;
      *ml = hi - j > *ml ? hi - j : *ml;
    }
  }
}

int mbdae_pattern_auto_kind(int neq, int ml, int mu)
{
  return (long)ml + mu + 1 <= neq / 4 ? MBDAE_JAC_BAND : MBDAE_JAC_SPARSE;
}

/* The pattern by rows (compressed rows: rowptr, colind), for the groups' conflicts. */
static int transpose(const mbdae_jac_pattern *pat, int **rowptr, int **colind)
{
  int n = pat->neq;
  *rowptr = calloc((size_t)n + 1, sizeof(int));
  *colind = malloc(sizeof(int) * (pat->nnz ? pat->nnz : 1));
  int *fill = malloc(sizeof(int) * (size_t)n);
  if (!*rowptr || !*colind || !fill) {
    free(fill);
    return -1;
  }
  for (size_t k = 0; k < pat->nnz; k++) {
    (*rowptr)[pat->rowind[k] + 1]++;
  }
  for (int i = 0; i < n; i++) {
    (*rowptr)[i + 1] += (*rowptr)[i];
    fill[i] = (*rowptr)[i];
  }
  for (int j = 0; j < n; j++) {
    for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++) {
      (*colind)[fill[pat->rowind[k]]++] = j;
    }
  }
  free(fill);
  return 0;
}

int mbdae_pattern_groups(const mbdae_jac_pattern *pat, int *group)
{
  int n = pat->neq;
  if (!pat->colptr) {
    for (int j = 0; j < n; j++) {
      group[j] = j;
    }
    return n;
  }
  int *rowptr = NULL, *colind = NULL;
  int *stamp = malloc(sizeof(int) * ((size_t)n + 1));
  if (!stamp || transpose(pat, &rowptr, &colind) != 0) {
    free(stamp), free(rowptr), free(colind);
    return -1;
  }
  int ngroups = 0;
  for (int g = 0; g <= n; g++) {
    stamp[g] = -1;
  }
  for (int j = 0; j < n; j++) {
    /* forbid the groups of the earlier columns that share a row with column j */
    for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++) {
      int i = pat->rowind[k];
      for (int m = rowptr[i]; m < rowptr[i + 1] && colind[m] < j; m++) {
        stamp[group[colind[m]]] = j;
      }
    }
    int g = 0;
    while (stamp[g] == j) {
      g++;
    }
    group[j] = g;
    ngroups = g + 1 > ngroups ? g + 1 : ngroups;
  }
  free(stamp), free(rowptr), free(colind);
  return ngroups;
}

static void dense_pattern(int neq, mbdae_jac_pattern *pat)
{
  *pat = (mbdae_jac_pattern){.kind = MBDAE_JAC_DENSE,
                             .neq = neq,
                             .ml = neq - 1,
                             .mu = neq - 1,
                             .nnz = (size_t)neq * (size_t)neq};
}

int mbdae_pattern_build(const problem_type *type, const void *params, int neq, int info_kind,
                        mbdae_jac_pattern *pat, int **block, char *msg, size_t msglen)
{
  *block = NULL;
  dense_pattern(neq, pat);
  if (info_kind != MBDAE_JAC_BAND && info_kind != MBDAE_JAC_SPARSE) {
    return 0;
  }
  int *colptr = malloc(sizeof(int) * ((size_t)neq + 1));
  int rc = colptr ? type->jac_pattern(params, colptr, NULL) : MBDAE_ERR_NOMEM;
  int *all =
      rc == 0 ? realloc(colptr, sizeof(int) * ((size_t)neq + 1 + (size_t)colptr[neq])) : NULL;
  if (!all) {
    free(colptr);
    snprintf(msg, msglen, "problem '%s': no memory for its Jacobian pattern", type->id);
    return rc ? rc : MBDAE_ERR_NOMEM;
  }
  rc = type->jac_pattern(params, all, all + neq + 1);
  char why[128];
  const char *bad =
      rc == 0 ? mbdae_pattern_invalid(neq, all, all + neq + 1, why, sizeof why) : NULL;
  if (rc != 0 || bad) {
    free(all);
    snprintf(msg, msglen, "internal error: problem '%s' states a bad Jacobian pattern: %s",
             type->id, bad ? bad : mbdae_strerror(rc));
    return MBDAE_ERR_INTERNAL;
  }
  *block = all;
  pat->kind = info_kind;
  pat->colptr = all;
  pat->rowind = all + neq + 1;
  pat->nnz = (size_t)all[neq];
  mbdae_pattern_bandwidths(neq, pat->colptr, pat->rowind, &pat->ml, &pat->mu);
  return 0;
}

void mbdae_pattern_of_user(int neq, int kind, const int *colptr, const int *rowind,
                           mbdae_jac_pattern *pat)
{
  dense_pattern(neq, pat);
  if (!colptr) {
    return;
  }
  pat->colptr = colptr;
  pat->rowind = rowind;
  pat->nnz = (size_t)colptr[neq];
  mbdae_pattern_bandwidths(neq, colptr, rowind, &pat->ml, &pat->mu);
  pat->kind = kind == MBDAE_JAC_AUTO ? mbdae_pattern_auto_kind(neq, pat->ml, pat->mu) : kind;
}

void mbdae_pattern_scatter(const mbdae_jac_pattern *pat, const double *values, double *dense)
{
  size_t n = (size_t)pat->neq;
  for (size_t j = 0; j < n; j++) {
    double *col = dense + j * n;
    for (size_t i = 0; i < n; i++) {
      col[i] = 0.0;
    }
    for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++) {
      col[pat->rowind[k]] = values[k];
    }
  }
}

void mbdae_pattern_gather(const mbdae_jac_pattern *pat, const double *dense, double *values)
{
  size_t n = (size_t)pat->neq;
  for (size_t j = 0; j < n; j++) {
    for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++) {
      values[k] = dense[j * n + (size_t)pat->rowind[k]];
    }
  }
}

int mbdae_pattern_values_of_dense(const mbdae_jac_pattern *pat, pattern_jac_fn *dense,
                                  const void *params, double t, const double *y, const double *yp,
                                  double *dfdy, double *dfdyp)
{
  size_t n2 = (size_t)pat->neq * (size_t)pat->neq;
  double *d = malloc(sizeof(double) * 2 * n2);
  if (!d) {
    return MBDAE_ERR_NOMEM;
  }
  int rc = dense(params, t, y, yp, dfdy ? d : NULL, dfdyp ? d + n2 : NULL);
  if (rc == 0 && dfdy) {
    mbdae_pattern_gather(pat, d, dfdy);
  }
  if (rc == 0 && dfdyp) {
    mbdae_pattern_gather(pat, d + n2, dfdyp);
  }
  free(d);
  return rc;
}

int mbdae_pattern_dense_of_values(const mbdae_jac_pattern *pat, pattern_jac_fn *values,
                                  const void *params, double t, const double *y, const double *yp,
                                  double *dfdy, double *dfdyp)
{
  size_t nnz = pat->nnz ? pat->nnz : 1;
  double *v = malloc(sizeof(double) * 2 * nnz);
  if (!v) {
    return MBDAE_ERR_NOMEM;
  }
  int rc = values(params, t, y, yp, dfdy ? v : NULL, dfdyp ? v + nnz : NULL);
  if (rc == 0 && dfdy) {
    mbdae_pattern_scatter(pat, v, dfdy);
  }
  if (rc == 0 && dfdyp) {
    mbdae_pattern_scatter(pat, v + nnz, dfdyp);
  }
  free(v);
  return rc;
}
