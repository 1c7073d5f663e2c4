/* The linear-system layer: J + c M (real c) and J + s M (complex s) factored by the small-dense
 * kernel or by LAPACK, chosen once by n (MBDAE_SMALL_MAX_N).  The kernel forms E2 = J + s M as
 * re = J + Re(s) M, im = Im(s) M, so im is zero wherever M is, and its factorization keeps real
 * arithmetic there; LAPACK gets the interleaved complex matrix zgetrf expects. */
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
  size_t bytes = ndoubles(n, is_complex) * sizeof(double) + (size_t)n * sizeof(int);
  size_t align = sizeof(double complex);
  return (bytes + align - 1) / align * align;
}

void mbdae_linsys_init(mbdae_linsys *ls, int n, int is_complex, void *mem)
{
  size_t nn = (size_t)n * (size_t)n;
  ls->n = n;
  ls->is_complex = is_complex;
  ls->lapack = n > MBDAE_SMALL_MAX_N;
  ls->re = (double *)mem;
  ls->im = is_complex ? ls->re + nn : NULL;
  ls->z = is_complex ? (double complex *)mem : NULL; /* the same doubles, used by one path only */
  ls->ipiv = (int *)(ls->re + ndoubles(n, is_complex));
}

int mbdae_linsys_factor(mbdae_linsys *ls, const double *J, const double *M, double c)
{
  size_t nn = (size_t)ls->n * (size_t)ls->n;
  for (size_t k = 0; k < nn; k++) {
    ls->re[k] = J[k] + c * M[k];
  }
  return ls->lapack ? mbdae_lu_factor(ls->n, ls->re, ls->ipiv)
                    : mbdae_small_lu_factor(ls->n, ls->re, ls->ipiv);
}

int mbdae_linsys_factor_shift(mbdae_linsys *ls, const double *J, const double *M, double sr,
                              double si)
{
  size_t nn = (size_t)ls->n * (size_t)ls->n;
  if (ls->lapack) {
    for (size_t k = 0; k < nn; k++) {
      ls->z[k] = CMPLX(J[k] + sr * M[k], si * M[k]);
    }
    return mbdae_zlu_factor(ls->n, ls->z, ls->ipiv);
  }
  for (size_t k = 0; k < nn; k++) {
    ls->re[k] = J[k] + sr * M[k];
    ls->im[k] = si * M[k];
  }
  return mbdae_small_zlu_factor(ls->n, ls->re, ls->im, ls->ipiv);
}

int mbdae_linsys_solve(const mbdae_linsys *ls, double *b)
{
  return ls->lapack ? mbdae_lu_solve(ls->n, ls->re, ls->ipiv, b)
                    : mbdae_small_lu_solve(ls->n, ls->re, ls->ipiv, b);
}

int mbdae_linsys_solve_shift(const mbdae_linsys *ls, double *br, double *bi)
{
  int n = ls->n;
  if (!ls->lapack) {
    return mbdae_small_zlu_solve(n, ls->re, ls->im, ls->ipiv, br, bi);
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
