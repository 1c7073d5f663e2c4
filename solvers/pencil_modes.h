/* The modes a stability-limited order is tested on (bdf's BDF3-5, mebdf's orders 5-8): the
 * finite eigenvalues lambda of the pencil (dF/dy, -dF/dy') of a stored Jacobian, i.e. of the
 * linearized DAE dF/dy v + lambda dF/dy' v = 0 (LAPACK dggev; E. Anderson et al., LAPACK Users'
 * Guide, 3rd ed., SIAM 1999, 2.3.5.2). */
#ifndef MBDAE_PENCIL_MODES_H
#define MBDAE_PENCIL_MODES_H

#include "jacobian.h"

/* The pencil's work arrays: a, b (n x n each, overwritten), re, im, beta (n each) and work
 * (mbdae_ggev_lwork(n)). */
typedef struct pencil_work {
  double *a, *b, *re, *im, *beta, *work;
} pencil_work;

/* The finite eigenvalues of the pencil (dfdy, -dfdyp), both in jac's storage order, into
 * w->re[0..count), w->im[0..count): one of each conjugate pair (Im >= 0), real parts clipped to
 * <= 0 (the growth of the solution itself is not the method's: Re lambda > 0 is tested on the
 * axis).  Returns count, 0 when the QZ iteration fails. */
int pencil_modes(const mbdae_jacobian *jac, int n, const double *dfdy, const double *dfdyp,
                 const pencil_work *w);

#endif /* MBDAE_PENCIL_MODES_H */
