/* The one door to LAPACK (private): dense column-major LU above linsys.h's MBDAE_KERNEL_MAX_N
 * rows and the generalized eigenvalues of bdf's and mebdf's stability limit, one right-hand side.
 * Band matrices have their own LU (solvers/bandlu.h).  doc/design.md says which results may
 * depend on the LAPACK installed.
 * info > 0 from a factorization becomes MBDAE_ERR_SINGULAR, info < 0 MBDAE_ERR_INTERNAL, as
 * SUNDIALS' LAPACK linear solver maps them. */
#ifndef MBDAE_LAPACK_H
#define MBDAE_LAPACK_H

#include <complex.h>
#include <stddef.h>

/* LU factorization with partial pivoting of the n x n matrix a (leading dimension n), in place. */
int mbdae_lu_factor(int n, double *a, int *ipiv);
/* Solve A x = b with the factors from mbdae_lu_factor; b is overwritten by x. */
int mbdae_lu_solve(int n, const double *lu, const int *ipiv, double *b);
/* The same for complex matrices (zgetrf / zgetrs). */
int mbdae_zlu_factor(int n, double complex *a, int *ipiv);
int mbdae_zlu_solve(int n, const double complex *lu, const int *ipiv, double complex *b);

/* Generalized eigenvalues of the pencil (A, B), A x = lambda B x, without eigenvectors (dggev):
 * lambda_j = (alphar[j] + i alphai[j]) / beta[j], beta[j] = 0 for an infinite eigenvalue; complex
 * ones come in conjugate pairs, the one with positive imaginary part first.  a and b (n x n,
 * leading dimension n) are overwritten; work holds mbdae_ggev_lwork(n) doubles.  A failed QZ
 * iteration (info > 0) returns MBDAE_ERR_SOLVER. */
int mbdae_ggev(int n, double *a, double *b, double *alphar, double *alphai, double *beta,
               double *work);
int mbdae_ggev_lwork(int n);

/* "LAPACK major.minor.patch" of the library linked at run time (ilaver) into buf. */
void mbdae_lapack_version(char *buf, size_t len);

#endif /* MBDAE_LAPACK_H */
