/* The one door to LAPACK (private).  Dense column-major matrices, one right-hand side.
 * info > 0 from a factorization becomes DAETS_ERR_SINGULAR, info < 0 DAETS_ERR_INTERNAL, as
 * SUNDIALS' LAPACK linear solver maps them. */
#ifndef DAETS_LAPACK_H
#define DAETS_LAPACK_H

#include <complex.h>

/* LU factorization with partial pivoting of the n x n matrix a (leading dimension n), in place. */
int daets_lu_factor(int n, double *a, int *ipiv);
/* Solve A x = b with the factors from daets_lu_factor; b is overwritten by x. */
int daets_lu_solve(int n, const double *lu, const int *ipiv, double *b);
/* The same for complex matrices (zgetrf / zgetrs). */
int daets_zlu_factor(int n, double complex *a, int *ipiv);
int daets_zlu_solve(int n, const double complex *lu, const int *ipiv, double complex *b);

#endif /* DAETS_LAPACK_H */
