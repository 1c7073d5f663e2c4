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

/* Generalized eigenvalues of the pencil (A, B), A x = lambda B x, without eigenvectors (dggev):
 * lambda_j = (alphar[j] + i alphai[j]) / beta[j], beta[j] = 0 for an infinite eigenvalue; complex
 * ones come in conjugate pairs, the one with positive imaginary part first.  a and b (n x n,
 * leading dimension n) are overwritten; work holds daets_ggev_lwork(n) doubles.  A failed QZ
 * iteration (info > 0) returns DAETS_ERR_SOLVER. */
int daets_ggev(int n, double *a, double *b, double *alphar, double *alphai, double *beta,
               double *work);
int daets_ggev_lwork(int n);

#endif /* DAETS_LAPACK_H */
