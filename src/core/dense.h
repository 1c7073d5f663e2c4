/* Dense column-major matrices: one accessor for the whole library.
 * Element (i, j) of a matrix with leading dimension ld is A[i + j*ld] (LAPACK's layout). */
#ifndef MBDAE_DENSE_H
#define MBDAE_DENSE_H

#define MBDAE_AT(A, ld, i, j) ((A)[(size_t)(i) + (size_t)(j) * (size_t)(ld)])

#endif /* MBDAE_DENSE_H */
