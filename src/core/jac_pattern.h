/* Compressed-column patterns of dF/dy + c dF/dy' (private to the library): their validation,
 * bandwidths and the column groups that finite differences and the Jacobian check use.
 *
 * Column groups (Curtis, Powell & Reid, "On the estimation of sparse Jacobian matrices", 1974):
 * columns that share no row can be perturbed together, one residual difference giving all of
 * them; a greedy pass in column order puts each column into the first group none of whose
 * columns touches its rows.  For a band of width w = ml + mu + 1 that is at most w groups. */
#ifndef MBDAE_JAC_PATTERN_H
#define MBDAE_JAC_PATTERN_H

#include <stddef.h>

#include "mbdae/mbdae.h"

/* NULL when colptr/rowind form a valid pattern of order neq (colptr[0] = 0, non-decreasing,
 * colptr[neq] <= INT_MAX; rows in [0, neq) strictly increasing within each column), else what is
 * wrong (a static string, or written into buf). */
const char *mbdae_pattern_invalid(int neq, const int *colptr, const int *rowind, char *buf,
                                  size_t len);
/* Lower and upper bandwidths of a valid pattern. */
void mbdae_pattern_bandwidths(int neq, const int *colptr, const int *rowind, int *ml, int *mu);
/* The kind a pattern suggests: band when ml + mu + 1 <= neq / 4, else sparse. */
int mbdae_pattern_auto_kind(int neq, int ml, int mu);

/* group[j] (neq entries) = the group of column j, 0 .. ngroups - 1; returns ngroups, or -1 when
 * out of memory.  A dense pattern (colptr NULL) gives one group per column. */
int mbdae_pattern_groups(const mbdae_jac_pattern *pat, int *group);

#include "problem_type.h"

/* The pattern of a configured instance: dense unless info_kind is BAND or SPARSE, then the
 * type's jac_pattern (validated; arrays in *block, the caller's to free).  0, or an error with
 * a message. */
int mbdae_pattern_build(const problem_type *type, const void *params, int neq, int info_kind,
                        mbdae_jac_pattern *pat, int **block, char *msg, size_t msglen);
/* The pattern of a user's arrays (validated by the type's check): kind AUTO becomes band or
 * sparse by the bandwidths; no arrays are copied. */
void mbdae_pattern_of_user(int neq, int kind, const int *colptr, const int *rowind,
                           mbdae_jac_pattern *pat);

/* A Jacobian function over a problem's params (problem_type's jac and jac_values). */
typedef int pattern_jac_fn(const void *params, double t, const double *y, const double *yp,
                           double *dfdy, double *dfdyp);
/* Pattern values from a dense Jacobian function (n^2 work arrays per call), and the dense
 * Jacobian from a pattern-values function (nnz work arrays); either output may be NULL. */
int mbdae_pattern_values_of_dense(const mbdae_jac_pattern *pat, pattern_jac_fn *dense,
                                  const void *params, double t, const double *y, const double *yp,
                                  double *dfdy, double *dfdyp);
int mbdae_pattern_dense_of_values(const mbdae_jac_pattern *pat, pattern_jac_fn *values,
                                  const void *params, double t, const double *y, const double *yp,
                                  double *dfdy, double *dfdyp);

/* Dense values from pattern values and back: scatter zeroes the rest of the n x n array. */
void mbdae_pattern_scatter(const mbdae_jac_pattern *pat, const double *values, double *dense);
void mbdae_pattern_gather(const mbdae_jac_pattern *pat, const double *dense, double *values);

#endif /* MBDAE_JAC_PATTERN_H */
