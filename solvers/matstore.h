/* The storage of the iteration matrices (private): the one place that knows the layouts, and the
 * forming of J + c M (real c) or J + s M (complex s = sr + i si) from a Jacobian store
 * (solvers/jacobian.h) into them.  Factoring is elsewhere (solvers/linsys.h's factor operations);
 * the IDA binding (solvers/ida.c) forms its SUNDIALS matrices through the same functions.
 *   DENSE   column-major with leading dimension ld (>= n): entry (i, j) at v[i + j ld];
 *   BAND    LAPACK's band layout (dgbtrf's ab, the data of SUNDIALS' SUNBandMatrix):
 *           entry (i, j) at v[ml + mu + i - j + j ld], ld >= 2 ml + mu + 1 (the ml rows above
 *           the band hold the fill of partial pivoting);
 *   SPARSE  compressed sparse columns: the store's pattern, values in its order.
 * A complex storage interleaves real and imaginary parts (v[2 k], v[2 k + 1]), which is the layout
 * of double complex and of KLU's complex values. */
#ifndef MBDAE_MATSTORE_H
#define MBDAE_MATSTORE_H

#include <stddef.h>

#include "jacobian.h"

typedef struct mbdae_matstore {
  int kind;       /* MBDAE_JAC_DENSE, _BAND or _SPARSE: the layout */
  int n, ml, mu;  /* order and the bandwidths of the store's pattern */
  int is_complex; /* 1: complex entries, interleaved */
  size_t ld;      /* DENSE, BAND: the leading dimension; SPARSE: 0 */
  size_t count;   /* entries held: ld n (DENSE, BAND) or nnz (SPARSE) */
  double *v;      /* the values: count doubles, complex 2 count */
} mbdae_matstore;

/* The smallest band leading dimension for bandwidths ml, mu: 2 ml + mu + 1. */
static inline size_t mbdae_band_ld(int ml, int mu) { return (size_t)(2 * ml + mu + 1); }
/* Position of entry (i, j) in a band storage. */
static inline size_t mbdae_band_at(size_t ld, int ml, int mu, int i, int j)
{
  return (size_t)(ml + mu + i - j) + (size_t)j * ld;
}

/* The layout of jac's kind with the smallest leading dimension, on values v (may be NULL, to be
 * set before forming). */
void mbdae_matstore_layout(mbdae_matstore *st, const mbdae_jacobian *jac, int is_complex,
                           double *v);
/* Doubles of st's values: count, or 2 count when complex. */
size_t mbdae_matstore_doubles(const mbdae_matstore *st);

/* st = J + (sr + i si) M from jac's current values (si is ignored for a real storage).  DENSE and
 * BAND write every entry held (zero outside the pattern), SPARSE the pattern's values. */
void mbdae_matstore_form(mbdae_matstore *st, const mbdae_jacobian *jac, double sr, double si);
/* The same for a DENSE storage from full column-major n x n arrays J and M. */
void mbdae_matstore_form_full(mbdae_matstore *st, const double *J, const double *M, double sr,
                              double si);

#endif /* MBDAE_MATSTORE_H */
