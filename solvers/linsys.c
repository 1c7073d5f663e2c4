/* The dense linear systems from full arrays (mbdae_linsys): J + c M (real c) and J + s M (complex
 * s) factored by the small-dense kernel, with condensation up to MBDAE_CONDENSE_MAX_N rows, or by
 * LAPACK above MBDAE_KERNEL_MAX_N, chosen once by n; the iteration matrices of every kind are in
 * solvers/itmat.c.  The kernel forms E2 = J + s M as
 * re = J + Re(s) M, im = Im(s) M, so im is zero wherever M is, and its factorization keeps real
 * arithmetic there; LAPACK gets the interleaved complex matrix zgetrf expects. */
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "lapack.h"
#include "linsys.h"
#include "smalldense.h"

/* Doubles of the block: the real factors, or twice n*n + n for the complex ones (re and im, or
 * LAPACK's n x n complex factors and one complex right-hand side). */
static size_t ndoubles(int n, int is_complex)
{
  size_t nn = (size_t)n * (size_t)n;
  return is_complex ? 2 * (nn + (size_t)n) : nn;
}

size_t mbdae_linsys_bytes(int n, int is_complex)
{
  size_t bytes = n > MBDAE_CONDENSE_MAX_N
                     ? ndoubles(n, is_complex) * sizeof(double) + (size_t)n * sizeof(int)
                     : mbdae_condense_bytes(n, is_complex);
  size_t align = sizeof(double complex);
  return (bytes + align - 1) / align * align;
}

void mbdae_linsys_init(mbdae_linsys *ls, int n, int is_complex, void *mem)
{
  size_t nn = (size_t)n * (size_t)n;
  ls->n = n;
  ls->is_complex = is_complex;
  ls->lapack = n > MBDAE_KERNEL_MAX_N;
  ls->condensed = n <= MBDAE_CONDENSE_MAX_N;
  if (ls->condensed) {
    mbdae_condense_init(&ls->cd, n, is_complex, mem);
    ls->re = ls->cd.re;
    ls->im = ls->cd.im;
    ls->z = is_complex ? (double complex *)mem : NULL; /* LAPACK's, should a caller switch */
    ls->ipiv = ls->cd.ipiv;
    return;
  }
  ls->re = (double *)mem; /* the kernel's re and im, or LAPACK's: the same doubles */
  ls->im = is_complex ? ls->re + nn : NULL;
  ls->z = is_complex ? (double complex *)mem : NULL;
  ls->ipiv = (int *)(ls->re + ndoubles(n, is_complex));
}

/* LAPACK's path: the dense storage (solvers/matstore.h) on the factors' doubles v. */
static mbdae_matstore dense_storage(const mbdae_linsys *ls, double *v)
{
  size_t n = (size_t)ls->n;
  return (mbdae_matstore){.kind = MBDAE_JAC_DENSE,
                          .n = ls->n,
                          .ml = ls->n - 1,
                          .mu = ls->n - 1,
                          .is_complex = ls->is_complex,
                          .ld = n,
                          .count = n * n,
                          .v = v};
}

void mbdae_linsys_new_matrices(mbdae_linsys *ls) { ls->cd.planned = 0; }

int mbdae_kernel_factor(int n, const double *restrict J, const double *restrict M, double sr,
                        double si, double *restrict re, double *restrict im, int *ipiv)
{
  size_t nn = (size_t)n * (size_t)n;
  for (size_t k = 0; k < nn; k++) {
    re[k] = J[k] + sr * M[k];
  }
  if (!im) {
    return mbdae_small_lu_factor(n, re, ipiv);
  }
  for (size_t k = 0; k < nn; k++) {
    im[k] = si * M[k];
  }
  return mbdae_small_zlu_factor(n, re, im, ipiv);
}

int mbdae_linsys_factor(mbdae_linsys *ls, const double *J, const double *M, double c)
{
  if (!ls->lapack) {
    return ls->condensed ? mbdae_condense_factor(&ls->cd, J, M, c, 0.0)
                         : mbdae_kernel_factor(ls->n, J, M, c, 0.0, ls->re, NULL, ls->ipiv);
  }
  mbdae_matstore st = dense_storage(ls, ls->re);
  mbdae_matstore_form_full(&st, J, M, c, 0.0);
  return mbdae_lu_factor(ls->n, ls->re, ls->ipiv);
}

int mbdae_linsys_factor_shift(mbdae_linsys *ls, const double *J, const double *M, double sr,
                              double si)
{
  if (!ls->lapack) {
    return ls->condensed ? mbdae_condense_factor(&ls->cd, J, M, sr, si)
                         : mbdae_kernel_factor(ls->n, J, M, sr, si, ls->re, ls->im, ls->ipiv);
  }
  mbdae_matstore st = dense_storage(ls, (double *)ls->z);
  mbdae_matstore_form_full(&st, J, M, sr, si);
  return mbdae_zlu_factor(ls->n, ls->z, ls->ipiv);
}

int mbdae_linsys_solve(const mbdae_linsys *ls, double *b)
{
  if (!ls->lapack) {
    return ls->condensed ? mbdae_condense_solve(&ls->cd, b, NULL)
                         : mbdae_small_lu_solve(ls->n, ls->re, ls->ipiv, b);
  }
  return mbdae_lu_solve(ls->n, ls->re, ls->ipiv, b);
}

int mbdae_linsys_solve_shift(const mbdae_linsys *ls, double *br, double *bi)
{
  int n = ls->n;
  if (!ls->lapack) {
    return ls->condensed ? mbdae_condense_solve(&ls->cd, br, bi)
                         : mbdae_small_zlu_solve(n, ls->re, ls->im, ls->ipiv, br, bi);
  }
  double complex *rhs = ls->z + (size_t)n * (size_t)n;
  for (int k = 0; k < n; k++) {
    rhs[k] = CMPLX(br[k], bi[k]);
  }
  int rc = mbdae_zlu_solve(n, ls->z, ls->ipiv, rhs);
  for (int k = 0; k < n; k++) {
    br[k] = creal(rhs[k]);
    bi[k] = cimag(rhs[k]);
  }
  return rc;
}
