/* The Schur-Cohn test (private): whether every root of a complex polynomial lies in the open unit
 * disc, the test a stability-limited order asks of its characteristic polynomial at z = h lambda
 * (bdf's BDF3-5, solvers/bdf_stability.c; mebdf's orders 5-8, solvers/mebdf_stability.c). */
#ifndef MBDAE_SCHUR_COHN_H
#define MBDAE_SCHUR_COHN_H

#include <complex.h>

enum { SCHUR_COHN_MAX_DEGREE = 8 }; /* mebdf's corrector order at most */

/* |x|^2. */
static inline double schur_cohn_abs2(double complex x)
{
  return creal(x) * creal(x) + cimag(x) * cimag(x);
}

/* 1 when every root of a[0] + a[1] w + ... + a[m] w^m (m <= SCHUR_COHN_MAX_DEGREE) lies in
 * |w| < 1; a is overwritten. */
int schur_cohn_inside(double complex *a, int m);

#endif /* MBDAE_SCHUR_COHN_H */
