/* KLU binding (solvers/sparselu.h).  KLU's own state (klu_common, symbolic and numeric objects)
 * lives in the object; nothing is global. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include <klu.h>

#include "sparselu.h"
#include "mbdae/mbdae.h"

/* A refactored matrix whose pivot ratio (klu_rcond: min |u_kk| / max |u_kk|) falls below this is
 * factored again with fresh pivoting: eps^(2/3), SUNDIALS' threshold. */
static const double REFACTOR_RCOND_MIN = 3.7e-11;

struct mbdae_klu {
  int n;
  int is_complex;
  int *colptr, *rowind; /* the caller's pattern (KLU's prototypes are not const) */
  klu_common common;
  klu_symbolic *symbolic;
  klu_numeric *numeric; /* NULL until a matrix was factored (or after a singular one) */
  double *values;       /* nnz (real) or 2 nnz (complex, interleaved) */
  double *rhs;          /* 2 n: a complex right-hand side, interleaved */
};

mbdae_klu *mbdae_klu_create(int n, const int *colptr, const int *rowind, int is_complex)
{
  mbdae_klu *k = calloc(1, sizeof *k);
  if (!k) {
    return NULL;
  }
  size_t nnz = (size_t)colptr[n], width = is_complex ? 2 : 1;
  k->n = n;
  k->is_complex = is_complex;
  k->colptr = (int *)colptr;
  k->rowind = (int *)rowind;
  k->values = malloc(sizeof(double) * (width * nnz + 2 * (size_t)n + 1));
  klu_defaults(&k->common);
  if (k->values) {
    k->rhs = k->values + width * nnz;
    k->symbolic = klu_analyze(n, k->colptr, k->rowind, &k->common);
  }
  if (!k->symbolic) {
    mbdae_klu_free(k);
    return NULL;
  }
  return k;
}

void mbdae_klu_free(mbdae_klu *k)
{
  if (!k) {
    return;
  }
  if (k->numeric) {
    klu_free_numeric(&k->numeric, &k->common); /* frees real and complex ones alike */
  }
  if (k->symbolic) {
    klu_free_symbolic(&k->symbolic, &k->common);
  }
  free(k->values);
  free(k);
}

double *mbdae_klu_values(mbdae_klu *k) { return k->values; }

static int map_status(const klu_common *common)
{
  switch (common->status) {
  case KLU_OK:
    return 0;
  case KLU_SINGULAR:
    return MBDAE_ERR_SINGULAR;
  case KLU_OUT_OF_MEMORY:
    return MBDAE_ERR_NOMEM;
  default:
    return MBDAE_ERR_INTERNAL;
  }
}

/* Refactor with the pivot order of the last factorization: 1 when that gave usable factors. */
static int refactor(mbdae_klu *k)
{
  int ok, cond_ok;
  if (k->is_complex) {
    ok = klu_z_refactor(k->colptr, k->rowind, k->values, k->symbolic, k->numeric, &k->common);
    cond_ok = ok && klu_z_rcond(k->symbolic, k->numeric, &k->common);
  } else {
    ok = klu_refactor(k->colptr, k->rowind, k->values, k->symbolic, k->numeric, &k->common);
    cond_ok = ok && klu_rcond(k->symbolic, k->numeric, &k->common);
  }
  return cond_ok && k->common.rcond >= REFACTOR_RCOND_MIN;
}

int mbdae_klu_factor(mbdae_klu *k)
{
  if (k->numeric) {
    if (refactor(k)) {
      return 0;
    }
    klu_free_numeric(&k->numeric, &k->common);
  }
  k->numeric = k->is_complex
                   ? klu_z_factor(k->colptr, k->rowind, k->values, k->symbolic, &k->common)
                   : klu_factor(k->colptr, k->rowind, k->values, k->symbolic, &k->common);
  if (!k->numeric) {
    int rc = map_status(&k->common);
    return rc != 0 ? rc : MBDAE_ERR_INTERNAL;
  }
  return 0;
}

int mbdae_klu_solve(mbdae_klu *k, double *b)
{
  if (!klu_solve(k->symbolic, k->numeric, k->n, 1, b, &k->common)) {
    return MBDAE_ERR_INTERNAL;
  }
  return 0;
}

int mbdae_klu_solve_complex(mbdae_klu *k, double *br, double *bi)
{
  for (int i = 0; i < k->n; i++) {
    k->rhs[2 * i] = br[i];
    k->rhs[2 * i + 1] = bi[i];
  }
  if (!klu_z_solve(k->symbolic, k->numeric, k->n, 1, k->rhs, &k->common)) {
    return MBDAE_ERR_INTERNAL;
  }
  for (int i = 0; i < k->n; i++) {
    br[i] = k->rhs[2 * i];
    bi[i] = k->rhs[2 * i + 1];
  }
  return 0;
}
