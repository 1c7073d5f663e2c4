/* The finite eigenvalues of a Jacobian's pencil (dF/dy, -dF/dy'), kept for the stability-limited
 * orders of bdf and mebdf (solvers/pencil_modes.h): the stored entries scattered into dense n x n
 * matrices, the generalized eigenvalues by LAPACK dggev (QZ), then the infinite ones and the
 * second of each conjugate pair dropped. */
#include <math.h>
#include <string.h>

#include "lapack.h"
#include "pencil_modes.h"

int pencil_modes(const mbdae_jacobian *jac, int n, const double *dfdy, const double *dfdyp,
                 const pencil_work *w)
{
  size_t nn = (size_t)n;
  memset(w->a, 0, sizeof(double) * nn * nn);
  memset(w->b, 0, sizeof(double) * nn * nn);
  for (int j = 0; j < n; j++) {
    size_t end = mbdae_jacobian_col_end(jac, j);
    for (size_t q = mbdae_jacobian_col_begin(jac, j); q < end; q++) {
      size_t at = (size_t)mbdae_jacobian_row(jac, j, q) + (size_t)j * nn;
      w->a[at] = dfdy[q];
      w->b[at] = -dfdyp[q];
    }
  }
  if (mbdae_ggev(n, w->a, w->b, w->re, w->im, w->beta, w->work) != 0) {
    return 0;
  }
  int count = 0;
  for (int j = 0; j < n; j++) {
    if (w->im[j] < 0.0 || w->beta[j] == 0.0) {
      continue; /* the second of a conjugate pair, or infinite */
    }
    double re = w->re[j] / w->beta[j], im = w->im[j] / w->beta[j];
    if (isfinite(re) && isfinite(im)) {
      w->re[count] = fmin(re, 0.0);
      w->im[count] = fabs(im);
      count++;
    }
  }
  return count;
}
