/* Condensation of kinematic rows (private): the small dense iteration matrix E = J + s M (s real
 * or complex) with the rows of the form  c_i y_i' - y_p = ...  eliminated before the dense LU.
 *
 * A row i of E with exactly two nonzeros, on the diagonal (i, i) and at one column p != i, gives
 * x_i = (b_i - E_ip x_p) / E_ii; substituting it into every other row k changes only column p:
 *   E_kp -= l_k E_ip,  b_k -= l_k b_i,  l_k = E_ki / E_ii,
 * so a mechanical system's q' - v rows (and v' - a rows where the accelerations are variables)
 * leave a dense system in (v, lambda) (or (a, lambda)) of n - nq (n - 2 nq) rows: car axis 10 -> 6,
 * Andrews 27 -> 13, slider crank 24 -> 9 (test_condense lists more).  This is the elimination
 * RADAU5 performs for second- order systems when told their structure (its M1/M2 option: Hairer &
 * Wanner, Solving ODEs II, IV.8, and RADAU5's documentation); here the rows are found from the
 * nonzero structure of J and M (mbdae_condense_plan, once per Jacobian: rows in index order, each
 * taken when it has two nonzeros left, the fill of the earlier ones counted), so no problem states
 * them.  At each factorization a planned row is used only if its pivot passes a threshold
 * (condense.c: threshold pivoting, as sparse LU codes do: KLU, UMFPACK); if one does not, that
 * factorization is the plain dense LU.  The rest of E is factored with partial pivoting by the
 * small-dense kernel (solvers/smalldense.h). */
#ifndef MBDAE_CONDENSE_H
#define MBDAE_CONDENSE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* MBDAE_CONDENSE_MAX_N, the largest order condensed: one 64-bit row_set per row (linsys.h's
 * MBDAE_KERNEL_MAX_N is the kernel's range without condensation).  Found by its path from here, so
 * that the private kernel's tests and benchmarks need no core include directory. */
#include "../src/core/condense_max.h"

/* Bit j of rows[k] set where J or M (n x n column-major, n <= 64) has a nonzero (k, j). */
typedef unsigned long long row_set;

typedef struct mbdae_condensed {
  int n, is_complex;
  int planned;         /* 1: the plan below belongs to the current J and M */
  row_set *structure;  /* n: the row sets the plan was made from (a plan is kept while equal) */
  int full;            /* 1: the last factorization is the plain LU of E (no row eliminated) */
  int ne, m;           /* eliminated rows and the order of the reduced system (ne + m = n) */
  double *re, *im;     /* E (n x n, column-major); eliminated in place, or its LU when full */
  double *rre, *rim;   /* the reduced m x m system, then its LU factors */
  double *lre, *lim;   /* multipliers l_k of each eliminated row, in elimination order */
  int *lrow;           /* their rows k */
  int *lstart;         /* ne + 1: eliminated row t's multipliers are lstart[t] .. lstart[t+1] */
  int *elim, *partner; /* ne: the eliminated row i and its partner column p, in order */
  double *rpr, *rpi;   /* ne: 1 / E_ii */
  double *upr, *upi;   /* ne: E_ip / E_ii */
  int *keep;           /* m: the rows (= columns) of the reduced system */
  int *ipiv;           /* the kernel's pivots (m, or n when full) */
  int *gather;         /* m (real, not full): keep in the reduced LU's row order (condense.c) */
  double *wre, *wim;   /* n: the reduced right-hand side (scratch of the solves) */
  int *idx;            /* m x m: the reduced matrix's entries, as positions in E (k + j n) */
  int *tgt;            /* per multiplier: its update's target (condense.c plan_positions) */
  int *eform, nform;   /* the entries of E the planned steps read or update */
} mbdae_condensed;

/* Bytes of the block for order n (a multiple of sizeof(double)). */
size_t mbdae_condense_bytes(int n, int is_complex);
/* cd set up on mem (mbdae_condense_bytes bytes, aligned for double), without a plan. */
void mbdae_condense_init(mbdae_condensed *cd, int n, int is_complex, void *mem);
/* 1 where x is not +-0, from its bits below the sign (no floating-point compare, so that a loop
 * over a column stays branch-free). */
static inline row_set mbdae_nonzero_bits(double x)
{
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  return (b << 1) != 0;
}
void mbdae_condense_row_sets(int n, const double *J, const double *M, row_set *rows);
/* The elimination plan for the structure rows (mbdae_condense_row_sets); rows NULL: no row
 * eliminated (the plain dense LU), until the next plan. */
void mbdae_condense_plan(mbdae_condensed *cd, const row_set *rows);
/* Form E = J + (sr + i si) M (si ignored for a real system), eliminate the planned rows (planning
 * first when cd has no plan) and factor the rest: 0 or MBDAE_ERR_SINGULAR. */
int mbdae_condense_factor(mbdae_condensed *cd, const double *J, const double *M, double sr,
                          double si);
/* 1 when the real parts of the last factorization's values are all finite: E (or its LU) when
 * full, else the reduced matrix's LU and the entries of E the steps used. */
int mbdae_condense_finite(const mbdae_condensed *cd);
/* Solve E x = b in place (bi: complex systems only). */
int mbdae_condense_solve(const mbdae_condensed *cd, double *br, double *bi);

#endif /* MBDAE_CONDENSE_H */
