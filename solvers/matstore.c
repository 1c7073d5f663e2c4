/* The storage of the iteration matrices (solvers/matstore.h): layouts and forming, O(count) for
 * DENSE and BAND (zeroing included), O(nnz) for SPARSE. */
#include <string.h>

#include "matstore.h"

void mbdae_matstore_layout(mbdae_matstore *st, const mbdae_jacobian *jac, int is_complex, double *v)
{
  st->kind = jac->kind;
  st->n = jac->n;
  st->ml = jac->ml;
  st->mu = jac->mu;
  st->is_complex = is_complex;
  st->ld = jac->kind == MBDAE_JAC_DENSE  ? (size_t)jac->n
           : jac->kind == MBDAE_JAC_BAND ? mbdae_band_ld(jac->ml, jac->mu)
                                         : 0;
  st->count = jac->kind == MBDAE_JAC_SPARSE ? jac->nnz : st->ld * (size_t)jac->n;
  st->v = v;
}

size_t mbdae_matstore_doubles(const mbdae_matstore *st)
{
  return st->is_complex ? 2 * st->count : st->count;
}

/* Entry at position at (in entries) = J_k + (sr + i si) M_k. */
static inline void put(const mbdae_matstore *st, size_t at, double J, double M, double sr,
                       double si)
{
  if (st->is_complex) {
    st->v[2 * at] = J + sr * M;
    st->v[2 * at + 1] = si * M;
  } else {
    st->v[at] = J + sr * M;
  }
}

void mbdae_matstore_form_full(mbdae_matstore *st, const double *J, const double *M, double sr,
                              double si)
{
  size_t n = (size_t)st->n;
  if (st->ld == n) {
    for (size_t k = 0; k < n * n; k++) {
      put(st, k, J[k], M[k], sr, si);
    }
    return;
  }
  for (size_t j = 0; j < n; j++) {
    for (size_t i = 0; i < n; i++) {
      put(st, i + j * st->ld, J[i + j * n], M[i + j * n], sr, si);
    }
  }
}

/* Zero, then the pattern's entries at their band positions. */
static void form_band(mbdae_matstore *st, const mbdae_jacobian *jac, double sr, double si)
{
  memset(st->v, 0, sizeof(double) * mbdae_matstore_doubles(st));
  for (int j = 0; j < jac->n; j++) {
    size_t end = mbdae_jacobian_col_end(jac, j);
    for (size_t k = mbdae_jacobian_col_begin(jac, j); k < end; k++) {
      size_t at = mbdae_band_at(st->ld, st->ml, st->mu, mbdae_jacobian_row(jac, j, k), j);
      put(st, at, jac->dfdy[k], jac->dfdyp[k], sr, si);
    }
  }
}

void mbdae_matstore_form(mbdae_matstore *st, const mbdae_jacobian *jac, double sr, double si)
{
  switch (st->kind) {
  case MBDAE_JAC_DENSE:
    mbdae_matstore_form_full(st, jac->dfdy, jac->dfdyp, sr, si);
    return;
  case MBDAE_JAC_BAND:
    form_band(st, jac, sr, si);
    return;
  default:
    for (size_t k = 0; k < jac->nnz; k++) {
      put(st, k, jac->dfdy[k], jac->dfdyp[k], sr, si);
    }
  }
}
