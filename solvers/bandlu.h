/* The band LU (private): Gaussian elimination with partial pivoting on a band matrix and the
 * solves with its factors, real and complex, for the band iteration matrices (solvers/itmat.c).
 * Our own code, so that a band run gives the same bits whatever LAPACK the library is linked with
 * (OpenBLAS' dgbtrf rounds differently from the reference one).
 *
 * Storage is LAPACK's band layout (solvers/matstore.h): n x n with ml sub- and mu
 * super-diagonals, entry (i, j) at ab[ml + mu + i - j + j * ld], ld = 2 ml + mu + 1; the first ml
 * rows of the layout hold the fill of the pivoting (U gets up to ml + mu super-diagonals) and are
 * cleared by the factorization.  ipiv[k] = 1 + the row exchanged with row k (1-based, as dgbtrf's),
 * so factors of either code solve with either.  Complex matrices interleave real and imaginary
 * parts (v[2 k], v[2 k + 1]), the layout of double complex.  An exact zero pivot stops the
 * factorization with MBDAE_ERR_SINGULAR (LAPACK's info > 0).  No allocation. */
#ifndef MBDAE_BANDLU_H
#define MBDAE_BANDLU_H

/* LU factorization with partial pivoting of the band matrix ab, in place. */
int mbdae_band_lu_factor(int n, int ml, int mu, double *ab, int *ipiv);
/* Solve A x = b with the factors from mbdae_band_lu_factor; b is overwritten by x. */
int mbdae_band_lu_solve(int n, int ml, int mu, const double *ab, const int *ipiv, double *b);

/* The same for a complex band matrix (2 ld n doubles, interleaved) and right-hand side (2 n). */
int mbdae_band_zlu_factor(int n, int ml, int mu, double *ab, int *ipiv);
int mbdae_band_zlu_solve(int n, int ml, int mu, const double *ab, const int *ipiv, double *b);

#endif /* MBDAE_BANDLU_H */
