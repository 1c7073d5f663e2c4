/* The linear-system layer: J + c M (real c) and J + s M (complex s) factored by the small-dense
 * kernel or by LAPACK, chosen once by n (MBDAE_SMALL_MAX_N); band (LAPACK) and sparse (KLU)
 * iteration matrices from a Jacobian store (mbdae_itmat).  The kernel forms E2 = J + s M as
 * re = J + Re(s) M, im = Im(s) M, so im is zero wherever M is, and its factorization keeps real
 * arithmetic there; LAPACK gets the interleaved complex matrix zgetrf expects. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "sparselu.h"
#include "lapack.h"
#include "linsys.h"

/* Doubles of the block: the real factors, or twice n*n + n for the complex ones (re and im, or
 * LAPACK's n x n complex factors and one complex right-hand side). */
static size_t ndoubles(int n, int is_complex)
{
  size_t nn = (size_t)n * (size_t)n;
  return is_complex ? 2 * (nn + (size_t)n) : nn;
}

size_t mbdae_linsys_bytes(int n, int is_complex)
{
  size_t bytes = n > MBDAE_SMALL_MAX_N
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
  ls->lapack = n > MBDAE_SMALL_MAX_N;
  if (!ls->lapack) {
    mbdae_condense_init(&ls->cd, n, is_complex, mem);
    ls->re = ls->cd.re;
    ls->im = ls->cd.im;
    ls->z = is_complex ? (double complex *)mem : NULL; /* LAPACK's, should a caller switch */
    ls->ipiv = ls->cd.ipiv;
    return;
  }
  ls->re = (double *)mem;
  ls->im = is_complex ? ls->re + nn : NULL;
  ls->z = is_complex ? (double complex *)mem : NULL; /* the same doubles, used by one path only */
  ls->ipiv = (int *)(ls->re + ndoubles(n, is_complex));
}

void mbdae_linsys_new_matrices(mbdae_linsys *ls) { ls->cd.planned = 0; }

int mbdae_linsys_factor(mbdae_linsys *ls, const double *J, const double *M, double c)
{
  if (!ls->lapack) {
    return mbdae_condense_factor(&ls->cd, J, M, c, 0.0);
  }
  size_t nn = (size_t)ls->n * (size_t)ls->n;
  for (size_t k = 0; k < nn; k++) {
    ls->re[k] = J[k] + c * M[k];
  }
  return mbdae_lu_factor(ls->n, ls->re, ls->ipiv);
}

int mbdae_linsys_factor_shift(mbdae_linsys *ls, const double *J, const double *M, double sr,
                              double si)
{
  if (!ls->lapack) {
    return mbdae_condense_factor(&ls->cd, J, M, sr, si);
  }
  size_t nn = (size_t)ls->n * (size_t)ls->n;
  for (size_t k = 0; k < nn; k++) {
    ls->z[k] = CMPLX(J[k] + sr * M[k], si * M[k]);
  }
  return mbdae_zlu_factor(ls->n, ls->z, ls->ipiv);
}

int mbdae_linsys_solve(const mbdae_linsys *ls, double *b)
{
  return ls->lapack ? mbdae_lu_solve(ls->n, ls->re, ls->ipiv, b)
                    : mbdae_condense_solve(&ls->cd, b, NULL);
}

int mbdae_linsys_solve_shift(const mbdae_linsys *ls, double *br, double *bi)
{
  int n = ls->n;
  if (!ls->lapack) {
    return mbdae_condense_solve(&ls->cd, br, bi);
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

/* ---- iteration matrices of every kind ----------------------------------------------------- */

static int band_ldab(const mbdae_jacobian *jac) { return 2 * jac->ml + jac->mu + 1; }

size_t mbdae_itmat_bytes(const mbdae_jacobian *jac, int is_complex)
{
  size_t n = (size_t)jac->n, width = is_complex ? 2 : 1;
  switch (jac->kind) {
  case MBDAE_JAC_DENSE:
    return mbdae_linsys_bytes(jac->n, is_complex);
  case MBDAE_JAC_BAND:
    return sizeof(double) * width * ((size_t)band_ldab(jac) * n + n) + sizeof(int) * n;
  default:
    return sizeof(double) * (width * jac->nnz + 2 * n + 1);
  }
}

int mbdae_itmat_create(mbdae_itmat *m, const mbdae_jacobian *jac, int is_complex)
{
  memset(m, 0, sizeof *m);
  m->jac = jac;
  m->is_complex = is_complex;
  if (jac->kind == MBDAE_JAC_SPARSE) {
    m->klu = mbdae_klu_create(jac->n, jac->colptr, jac->rowind, is_complex);
    return m->klu ? 0 : MBDAE_ERR_NOMEM;
  }
  m->block = malloc(mbdae_itmat_bytes(jac, is_complex));
  if (!m->block) {
    return MBDAE_ERR_NOMEM;
  }
  if (jac->kind == MBDAE_JAC_DENSE) {
    mbdae_linsys_init(&m->dense, jac->n, is_complex, m->block);
    return 0;
  }
  size_t storage = (size_t)band_ldab(jac) * (size_t)jac->n + (size_t)jac->n;
  if (is_complex) {
    m->zab = m->block;
    m->ipiv = (int *)(m->zab + storage);
  } else {
    m->ab = m->block;
    m->ipiv = (int *)(m->ab + storage);
  }
  return 0;
}

void mbdae_itmat_free(mbdae_itmat *m)
{
  mbdae_klu_free(m->klu);
  free(m->block);
  m->klu = NULL;
  m->block = NULL;
}

/* The band storage of J + (sr + i si) M: zero, then the pattern's entries at
 * ab[ml + mu + i - j + j ldab]. */
static void form_band(mbdae_itmat *m, double sr, double si)
{
  const mbdae_jacobian *jac = m->jac;
  size_t ldab = (size_t)band_ldab(jac), storage = ldab * (size_t)jac->n;
  if (m->is_complex) {
    memset(m->zab, 0, sizeof(double complex) * storage);
  } else {
    memset(m->ab, 0, sizeof(double) * storage);
  }
  for (int j = 0; j < jac->n; j++) {
    size_t end = mbdae_jacobian_col_end(jac, j);
    for (size_t k = mbdae_jacobian_col_begin(jac, j); k < end; k++) {
      int band_row = jac->ml + jac->mu + mbdae_jacobian_row(jac, j, k) - j;
      size_t at = (size_t)band_row + (size_t)j * ldab;
      if (m->is_complex) {
        m->zab[at] = CMPLX(jac->dfdy[k] + sr * jac->dfdyp[k], si * jac->dfdyp[k]);
      } else {
        m->ab[at] = jac->dfdy[k] + sr * jac->dfdyp[k];
      }
    }
  }
}

/* KLU's values of J + (sr + i si) M, in the pattern's order. */
static void form_sparse(mbdae_itmat *m, double sr, double si)
{
  const mbdae_jacobian *jac = m->jac;
  double *values = mbdae_klu_values(m->klu);
  for (size_t k = 0; k < jac->nnz; k++) {
    double re = jac->dfdy[k] + sr * jac->dfdyp[k];
    if (m->is_complex) {
      values[2 * k] = re;
      values[2 * k + 1] = si * jac->dfdyp[k];
    } else {
      values[k] = re;
    }
  }
}

int mbdae_itmat_factor(mbdae_itmat *m, double c) { return mbdae_itmat_factor_shift(m, c, 0.0); }

int mbdae_itmat_factor_shift(mbdae_itmat *m, double sr, double si)
{
  const mbdae_jacobian *jac = m->jac;
  switch (jac->kind) {
  case MBDAE_JAC_DENSE:
    if (m->stamp != jac->stamp && !m->dense.lapack) {
      mbdae_condense_plan(&m->dense.cd, jac->rows); /* a new Jacobian: a new plan (NULL: none) */
    }
    m->stamp = jac->stamp;
    return m->is_complex ? mbdae_linsys_factor_shift(&m->dense, jac->dfdy, jac->dfdyp, sr, si)
                         : mbdae_linsys_factor(&m->dense, jac->dfdy, jac->dfdyp, sr);
  case MBDAE_JAC_BAND:
    form_band(m, sr, si);
    return m->is_complex ? mbdae_zband_factor(jac->n, jac->ml, jac->mu, m->zab, m->ipiv)
                         : mbdae_band_factor(jac->n, jac->ml, jac->mu, m->ab, m->ipiv);
  default:
    form_sparse(m, sr, si);
    return mbdae_klu_factor(m->klu);
  }
}

int mbdae_itmat_solve(const mbdae_itmat *m, double *b)
{
  const mbdae_jacobian *jac = m->jac;
  switch (jac->kind) {
  case MBDAE_JAC_DENSE:
    return mbdae_linsys_solve(&m->dense, b);
  case MBDAE_JAC_BAND:
    return mbdae_band_solve(jac->n, jac->ml, jac->mu, m->ab, m->ipiv, b);
  default:
    return mbdae_klu_solve(m->klu, b);
  }
}

/* The complex band solve through the right-hand side kept after the factors. */
static int band_solve_shift(const mbdae_itmat *m, double *br, double *bi)
{
  const mbdae_jacobian *jac = m->jac;
  double complex *rhs = m->zab + (size_t)band_ldab(jac) * (size_t)jac->n;
  for (int k = 0; k < jac->n; k++) {
    rhs[k] = CMPLX(br[k], bi[k]);
  }
  int rc = mbdae_zband_solve(jac->n, jac->ml, jac->mu, m->zab, m->ipiv, rhs);
  for (int k = 0; k < jac->n; k++) {
    br[k] = creal(rhs[k]);
    bi[k] = cimag(rhs[k]);
  }
  return rc;
}

int mbdae_itmat_solve_shift(const mbdae_itmat *m, double *br, double *bi)
{
  switch (m->jac->kind) {
  case MBDAE_JAC_DENSE:
    return mbdae_linsys_solve_shift(&m->dense, br, bi);
  case MBDAE_JAC_BAND:
    return band_solve_shift(m, br, bi);
  default:
    return mbdae_klu_solve_complex(m->klu, br, bi);
  }
}

static int all_finite(size_t count, const double *x)
{
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}

int mbdae_itmat_finite(const mbdae_itmat *m)
{
  const mbdae_jacobian *jac = m->jac;
  size_t width = m->is_complex ? 2 : 1, n = (size_t)jac->n;
  switch (jac->kind) {
  case MBDAE_JAC_DENSE:
    return m->is_complex ||
           (m->dense.lapack ? all_finite(n * n, m->dense.re) : mbdae_condense_finite(&m->dense.cd));
  case MBDAE_JAC_BAND:
    return m->is_complex || all_finite((size_t)band_ldab(jac) * n, m->ab);
  default:
    return all_finite(width * jac->nnz, mbdae_klu_values(m->klu));
  }
}
