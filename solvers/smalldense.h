/* The small-dense kernel (private): LU with partial pivoting and solves for the iteration matrices
 * of the implicit solvers (n = 5..27 for the multibody test problems, 160 for Fekete), with the
 * interface shape of solvers/lapack.h so that the linear-system layer (solvers/linsys.h) can
 * switch by n.
 *
 * Storage is LAPACK's: column-major, leading dimension n, unit lower L below the diagonal and U on
 * and above it, ipiv[k] = 1 + the row swapped with row k (1-based as in dgetrf), so factors of
 * either code can be solved by either.  Complex matrices are held as two real arrays, real part
 * re and imaginary part im, so that the arithmetic can stay real where the entries are real
 * (E2 = J + s M is complex only where M is nonzero).  An exact zero pivot stops the factorization
 * with MBDAE_ERR_SINGULAR (LAPACK's info > 0).  No allocation, no argument parsing. */
#ifndef MBDAE_SMALLDENSE_H
#define MBDAE_SMALLDENSE_H

/* LU factorization with partial pivoting of the n x n matrix a, in place. */
int mbdae_small_lu_factor(int n, double *a, int *ipiv);
/* Solve A x = b with the factors from mbdae_small_lu_factor; b is overwritten by x. */
int mbdae_small_lu_solve(int n, const double *lu, const int *ipiv, double *b);
/* ipiv's interchanges applied in turn to the n entries of index, as the solve applies them to b:
 * the right-hand side b[index[r]] gathered with the result is P b, in the factors' row order. */
void mbdae_small_lu_interchange(int n, const int *ipiv, int *index);
/* mbdae_small_lu_solve of a right-hand side already in the factors' row order (b[r] the r-th
 * entry of P b): the same operations after the interchanges, the same bits. */
int mbdae_small_lu_solve_permuted(int n, const double *lu, double *b);

/* The same for the complex matrix re + i im (pivots chosen by |re| + |im|, as zgetrf does). */
int mbdae_small_zlu_factor(int n, double *re, double *im, int *ipiv);
/* Solve (re + i im) x = br + i bi with the factors from mbdae_small_zlu_factor, in place. */
int mbdae_small_zlu_solve(int n, const double *re, const double *im, const int *ipiv, double *br,
                          double *bi);

#endif /* MBDAE_SMALLDENSE_H */
