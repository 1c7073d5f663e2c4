/* The Jacobian store of the implicit solvers (private): J = dF/dy and M = dF/dy' at one point,
 * held as the values of a compressed-column pattern (mbdae_jac_pattern), and everything the
 * solvers do with them besides factoring: the differential-row mask from M, M x, the largest
 * entry, in O(nnz).  The kind of the iteration matrix (mbdae_options.linsys; AUTO: the problem's
 * pattern kind) decides the storage:
 *   DENSE   every entry, column-major (mbdae_problem_jac: today's dense path, unchanged);
 *   BAND    the problem's pattern and bandwidths (a dense pattern: ml = mu = n - 1);
 *   SPARSE  the problem's pattern (a dense pattern: every entry, with explicit arrays for KLU).
 * Values come from mbdae_problem_jac_values in pattern order (for DENSE from mbdae_problem_jac,
 * the same numbers). */
#ifndef MBDAE_JACOBIAN_H
#define MBDAE_JACOBIAN_H

#include <stddef.h>

#include "mbdae/mbdae.h"

typedef struct mbdae_jacobian {
  int kind;            /* MBDAE_JAC_DENSE, _BAND or _SPARSE: the iteration matrix's storage */
  int n;               /* order */
  int ml, mu;          /* bandwidths of the pattern (n - 1 each when dense) */
  size_t nnz;          /* entries of the pattern */
  const int *colptr;   /* compressed columns; NULL: every entry, column-major */
  const int *rowind;   /* rows of the entries; NULL with colptr */
  double *dfdy;        /* J at the pattern's entries (nnz) */
  double *dfdyp;       /* M at the pattern's entries (nnz) */
  void *block;         /* the one allocation: values and, for SPARSE of a dense pattern, arrays */
  unsigned long stamp; /* counts the evaluations (mbdae_jacobian_eval): the values' version */
  /* DENSE with n <= 64: the nonzero structure of J and M as row bit sets (solvers/condense.h),
   * made by each evaluation for the condensation plans of the iteration matrices; else NULL. */
  unsigned long long *rows;
  int *mcolptr, *mpos; /* with rows: M's nonzeros by columns, at dfdyp[mpos[mcolptr[j] ..]] */
  /* with rows, one word per entry: all ones where J and M were both zero when the structure was
   * taken, else 0 */
  unsigned long long *outside;
  int *inside, ninside;     /* with rows: the other entries (where J or M was nonzero), in order */
  unsigned long structures; /* counts the structures taken: two Jacobians with the same count are
                               both zero outside the same structure */
} mbdae_jacobian;

/* The store for problem p and the kind asked for (an mbdae_jac_kind; CONDENSED: DENSE storage with
 * the structure the condensation plans need, when n <= MBDAE_CONDENSE_MAX_N).  0;
 * MBDAE_ERR_UNSUPPORTED for a value outside the enum (message in msg); MBDAE_ERR_NOMEM. */
int mbdae_jacobian_create(mbdae_jacobian *jac, const mbdae_problem *p, int kind, char *msg,
                          size_t msglen);
void mbdae_jacobian_free(mbdae_jacobian *jac);

/* J and M at (t, y, yp): the problem's return code. */
int mbdae_jacobian_eval(mbdae_jacobian *jac, const mbdae_problem *p, double t, const double *y,
                        const double *yp);

/* First entry of column j and the end of its entries (k = begin .. end - 1). */
static inline size_t mbdae_jacobian_col_begin(const mbdae_jacobian *jac, int j)
{
  return jac->colptr ? (size_t)jac->colptr[j] : (size_t)j * (size_t)jac->n;
}
static inline size_t mbdae_jacobian_col_end(const mbdae_jacobian *jac, int j)
{
  return mbdae_jacobian_col_begin(jac, j + 1);
}
/* Row of entry k of column j. */
static inline int mbdae_jacobian_row(const mbdae_jacobian *jac, int j, size_t k)
{
  return jac->rowind ? jac->rowind[k] : (int)(k - (size_t)j * (size_t)jac->n);
}

/* mask[j] = 1 when column j of M has a nonzero (y'_j enters F), else 0. */
void mbdae_jacobian_differential(const mbdae_jacobian *jac, int *mask);
/* out = M x by columns, each out[i] summing in the order of j; column j is left
 * out when only is not NULL and only[j] == 0 (the algebraic variables: their columns of M are
 * zero). */
void mbdae_jacobian_mult_dfdyp(const mbdae_jacobian *jac, const int *only, const double *x,
                               double *out);

#endif /* MBDAE_JACOBIAN_H */
