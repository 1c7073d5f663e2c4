/* The iteration matrices of every kind (solvers/linsys.h): a storage (solvers/matstore.h) and the
 * factor/solve operations of one factorization, an mbdae_factor_ops table chosen at creation.
 * The kernel forms its own storage while it condenses, or without condensation E's real and
 * imaginary parts apart; LAPACK (dense, above MBDAE_KERNEL_MAX_N rows) and the band LU
 * (solvers/bandlu.h) factor the storage in place; KLU's values are the storage. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "bandlu.h"
#include "lapack.h"
#include "linsys.h"
#include "smalldense.h"
#include "sparselu.h"

/* ---- the small-dense kernel with condensation (solvers/condense.h) -------------------------- */

static size_t kernel_bytes(const mbdae_jacobian *jac, int is_complex)
{
  return mbdae_linsys_bytes(jac->n, is_complex);
}

/* The allocation of bytes(jac, is_complex) for the kernel and LAPACK. */
static int allocate(mbdae_itmat *m)
{
  m->block = malloc(m->ops->bytes(m->jac, m->is_complex));
  return m->block ? 0 : MBDAE_ERR_NOMEM;
}

static int kernel_create(mbdae_itmat *m)
{
  if (allocate(m) != 0) {
    return MBDAE_ERR_NOMEM;
  }
  mbdae_condense_init(&m->cd, m->jac->n, m->is_complex, m->block);
  m->st.v = NULL; /* the kernel's E is m->cd.re, m->cd.im */
  return 0;
}

static int kernel_factor(mbdae_itmat *m, double sr, double si)
{
  const mbdae_jacobian *jac = m->jac;
  if (m->stamp != jac->stamp) {
    mbdae_condense_plan(&m->cd, jac->rows); /* a new Jacobian: a new plan (NULL: none) */
    m->stamp = jac->stamp;
  }
  return mbdae_condense_factor(&m->cd, jac->dfdy, jac->dfdyp, sr, si);
}

static int kernel_solve(const mbdae_itmat *m, double *br, double *bi)
{
  return mbdae_condense_solve(&m->cd, br, bi);
}

static int kernel_finite(const mbdae_itmat *m)
{
  return m->is_complex || mbdae_condense_finite(&m->cd);
}

static const mbdae_factor_ops kernel_ops = {"kernel",      kernel_bytes, kernel_create,
                                            kernel_factor, kernel_solve, kernel_finite};

/* 1 when x[0..count) are all finite. */
static int all_finite(size_t count, const double *x)
{
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}

/* ---- the small-dense kernel without condensation (above MBDAE_CONDENSE_MAX_N rows) ---------- */

/* E's real part, then (complex) its imaginary part, then n pivots. */
static size_t kernel_dense_bytes(const mbdae_jacobian *jac, int is_complex)
{
  size_t n = (size_t)jac->n;
  return sizeof(double) * (is_complex ? 2 : 1) * n * n + sizeof(int) * n;
}

static int kernel_dense_create(mbdae_itmat *m)
{
  size_t n = (size_t)m->jac->n;
  if (allocate(m) != 0) {
    return MBDAE_ERR_NOMEM;
  }
  m->st.v = m->block; /* E's real part (not the storage's interleaved layout) */
  m->ipiv = (int *)(m->st.v + (m->is_complex ? 2 : 1) * n * n);
  return 0;
}

/* The imaginary part of a complex E, after its real part. */
static double *kernel_dense_im(const mbdae_itmat *m)
{
  return m->is_complex ? m->st.v + (size_t)m->jac->n * (size_t)m->jac->n : NULL;
}

static int kernel_dense_factor(mbdae_itmat *m, double sr, double si)
{
  const mbdae_jacobian *jac = m->jac;
  return mbdae_kernel_factor(jac->n, jac->dfdy, jac->dfdyp, sr, si, m->st.v, kernel_dense_im(m),
                             m->ipiv);
}

static int kernel_dense_solve(const mbdae_itmat *m, double *br, double *bi)
{
  int n = m->jac->n;
  return bi ? mbdae_small_zlu_solve(n, m->st.v, kernel_dense_im(m), m->ipiv, br, bi)
            : mbdae_small_lu_solve(n, m->st.v, m->ipiv, br);
}

/* The real factors only: a complex factorization is not checked. */
static int kernel_dense_finite(const mbdae_itmat *m)
{
  return m->is_complex || all_finite((size_t)m->jac->n * (size_t)m->jac->n, m->st.v);
}

static const mbdae_factor_ops kernel_dense_ops = {"kernel dense",      kernel_dense_bytes,
                                                  kernel_dense_create, kernel_dense_factor,
                                                  kernel_dense_solve,  kernel_dense_finite};

/* ---- LAPACK (dense) and the band LU: the storage factored in place -------------------------- */

/* Values, then (complex) an interleaved right-hand side of n entries, then n pivots; the real band
 * keeps the n doubles of the right-hand side too (the layout is the same for both widths). */
static size_t lapack_bytes(const mbdae_jacobian *jac, int is_complex, int band)
{
  size_t n = (size_t)jac->n, width = is_complex ? 2 : 1;
  if (!band) {
    return mbdae_linsys_bytes(jac->n, is_complex);
  }
  return sizeof(double) * width * (mbdae_band_ld(jac->ml, jac->mu) * n + n) + sizeof(int) * n;
}

static size_t lapack_dense_bytes(const mbdae_jacobian *jac, int is_complex)
{
  return lapack_bytes(jac, is_complex, 0);
}

static size_t band_bytes(const mbdae_jacobian *jac, int is_complex)
{
  return lapack_bytes(jac, is_complex, 1);
}

static int lapack_create(mbdae_itmat *m)
{
  size_t values = mbdae_matstore_doubles(&m->st), n = (size_t)m->jac->n;
  size_t rhs = m->is_complex || m->st.kind == MBDAE_JAC_BAND ? (m->is_complex ? 2 : 1) * n : 0;
  if (allocate(m) != 0) {
    return MBDAE_ERR_NOMEM;
  }
  m->st.v = m->block;
  m->rhs = m->st.v + values;
  m->ipiv = (int *)(m->rhs + rhs);
  return 0;
}

static int lapack_dense_factor(mbdae_itmat *m, double sr, double si)
{
  mbdae_matstore_form(&m->st, m->jac, sr, si);
  return m->is_complex ? mbdae_zlu_factor(m->st.n, (double complex *)m->st.v, m->ipiv)
                       : mbdae_lu_factor(m->st.n, m->st.v, m->ipiv);
}

static int band_factor(mbdae_itmat *m, double sr, double si)
{
  const mbdae_matstore *st = &m->st;
  mbdae_matstore_form(&m->st, m->jac, sr, si);
  return m->is_complex ? mbdae_band_zlu_factor(st->n, st->ml, st->mu, st->v, m->ipiv)
                       : mbdae_band_lu_factor(st->n, st->ml, st->mu, st->v, m->ipiv);
}

/* A complex solve through the interleaved right-hand side after the values. */
static int lapack_solve(const mbdae_itmat *m, double *br, double *bi)
{
  const mbdae_matstore *st = &m->st;
  int band = st->kind == MBDAE_JAC_BAND;
  if (!bi) {
    return band ? mbdae_band_lu_solve(st->n, st->ml, st->mu, st->v, m->ipiv, br)
                : mbdae_lu_solve(st->n, st->v, m->ipiv, br);
  }
  double *rhs = m->rhs;
  for (int k = 0; k < st->n; k++) {
    rhs[2 * k] = br[k];
    rhs[2 * k + 1] = bi[k];
  }
  int rc =
      band ? mbdae_band_zlu_solve(st->n, st->ml, st->mu, st->v, m->ipiv, rhs)
           : mbdae_zlu_solve(st->n, (const double complex *)st->v, m->ipiv, (double complex *)rhs);
  for (int k = 0; k < st->n; k++) {
    br[k] = rhs[2 * k];
    bi[k] = rhs[2 * k + 1];
  }
  return rc;
}

/* The real factors only: a complex factorization is not checked. */
static int lapack_finite(const mbdae_itmat *m)
{
  return m->is_complex || all_finite(m->st.count, m->st.v);
}

static const mbdae_factor_ops lapack_dense_ops = {"lapack dense", lapack_dense_bytes,
                                                  lapack_create,  lapack_dense_factor,
                                                  lapack_solve,   lapack_finite};
static const mbdae_factor_ops band_ops = {"band",      band_bytes,   lapack_create,
                                          band_factor, lapack_solve, lapack_finite};

/* ---- KLU (solvers/sparselu.h): the storage's values are KLU's ---------------------------------
 */

/* The values handed to KLU and a right-hand side, without KLU's factors (they depend on the
 * fill). */
static size_t klu_bytes(const mbdae_jacobian *jac, int is_complex)
{
  return sizeof(double) * ((is_complex ? 2 : 1) * jac->nnz + 2 * (size_t)jac->n + 1);
}

static int klu_create(mbdae_itmat *m)
{
  const mbdae_jacobian *jac = m->jac;
  m->klu = mbdae_klu_create(jac->n, jac->colptr, jac->rowind, m->is_complex);
  m->st.v = m->klu ? mbdae_klu_values(m->klu) : NULL;
  return m->klu ? 0 : MBDAE_ERR_NOMEM;
}

static int klu_factor(mbdae_itmat *m, double sr, double si)
{
  mbdae_matstore_form(&m->st, m->jac, sr, si);
  return mbdae_klu_factor(m->klu);
}

static int klu_solve(const mbdae_itmat *m, double *br, double *bi)
{
  return bi ? mbdae_klu_solve_complex(m->klu, br, bi) : mbdae_klu_solve(m->klu, br);
}

static int klu_finite(const mbdae_itmat *m)
{
  return all_finite(mbdae_matstore_doubles(&m->st), m->st.v);
}

static const mbdae_factor_ops klu_ops = {"klu",      klu_bytes, klu_create,
                                         klu_factor, klu_solve, klu_finite};

/* ---- the composition ------------------------------------------------------------------------- */

/* The factorization of jac's kind: for dense matrices the kernel with condensation, the kernel
 * alone, then LAPACK (linsys.h: MBDAE_CONDENSE_MAX_N, MBDAE_KERNEL_MAX_N). */
static const mbdae_factor_ops *ops_for(const mbdae_jacobian *jac)
{
  switch (jac->kind) {
  case MBDAE_JAC_DENSE:
    if (jac->n <= MBDAE_CONDENSE_MAX_N) {
      return &kernel_ops;
    }
    return jac->n <= MBDAE_KERNEL_MAX_N ? &kernel_dense_ops : &lapack_dense_ops;
  case MBDAE_JAC_BAND:
    return &band_ops;
  default:
    return &klu_ops;
  }
}

size_t mbdae_itmat_bytes(const mbdae_jacobian *jac, int is_complex)
{
  return ops_for(jac)->bytes(jac, is_complex);
}

int mbdae_itmat_create(mbdae_itmat *m, const mbdae_jacobian *jac, int is_complex)
{
  memset(m, 0, sizeof *m);
  m->jac = jac;
  m->is_complex = is_complex;
  m->ops = ops_for(jac);
  mbdae_matstore_layout(&m->st, jac, is_complex, NULL);
  return m->ops->create(m);
}

void mbdae_itmat_free(mbdae_itmat *m)
{
  mbdae_klu_free(m->klu);
  free(m->block);
  m->klu = NULL;
  m->block = NULL;
}

int mbdae_itmat_factored_order(const mbdae_itmat *m)
{
  return m->ops == &kernel_ops && m->cd.planned && !m->cd.full ? m->cd.m : m->jac->n;
}

int mbdae_itmat_factor(mbdae_itmat *m, double c) { return m->ops->factor(m, c, 0.0); }

int mbdae_itmat_factor_shift(mbdae_itmat *m, double sr, double si)
{
  return m->ops->factor(m, sr, si);
}

int mbdae_itmat_solve(const mbdae_itmat *m, double *b) { return m->ops->solve(m, b, NULL); }

int mbdae_itmat_solve_shift(const mbdae_itmat *m, double *br, double *bi)
{
  return m->ops->solve(m, br, bi);
}

int mbdae_itmat_finite(const mbdae_itmat *m) { return m->ops->finite(m); }
