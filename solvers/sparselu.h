/* Sparse LU of the iteration matrices by KLU (SuiteSparse; T. A. Davis, E. Palamadai Natarajan,
 * "Algorithm 907: KLU, a direct sparse solver for circuit simulation problems", ACM TOMS 37
 * (2010)), private.  The pattern is analysed once (klu_analyze: block triangular form and AMD
 * ordering); the first matrix is factored with partial pivoting (klu_factor), later ones reuse its
 * pivot order (klu_refactor) unless the refactored matrix looks ill-conditioned (klu_rcond below
 * REFACTOR_RCOND_MIN), then it is factored afresh, as SUNDIALS' sunlinsol_klu does.  Complex
 * systems (Radau IIA) use klu_z_* on the same pattern, values interleaved (re, im). */
#ifndef MBDAE_SPARSELU_H
#define MBDAE_SPARSELU_H

#include <stddef.h>

typedef struct mbdae_klu mbdae_klu;

/* A solver for matrices of order n with the compressed-column pattern colptr/rowind (kept, not
 * copied); NULL when out of memory or when KLU refuses the pattern. */
mbdae_klu *mbdae_klu_create(int n, const int *colptr, const int *rowind, int is_complex);
void mbdae_klu_free(mbdae_klu *k); /* NULL is a no-op */
/* The values to fill before mbdae_klu_factor: nnz doubles, or 2 nnz interleaved for complex. */
double *mbdae_klu_values(mbdae_klu *k);
/* Factor the values: 0, MBDAE_ERR_SINGULAR, MBDAE_ERR_NOMEM or MBDAE_ERR_INTERNAL. */
int mbdae_klu_factor(mbdae_klu *k);
/* Solve in place with the last factors: b (real) or br + i bi (complex). */
int mbdae_klu_solve(mbdae_klu *k, double *b);
int mbdae_klu_solve_complex(mbdae_klu *k, double *br, double *bi);

#endif /* MBDAE_SPARSELU_H */
