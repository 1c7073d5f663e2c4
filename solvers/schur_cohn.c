/* The Schur-Cohn test (solvers/schur_cohn.h).  For p of degree m with coefficients a_0..a_m, all
 * roots lie in the open unit disc iff |a_m| > |a_0| and the same holds for the degree m-1
 * polynomial (conj(a_m) p(w) - a_0 w^m conj(p(1/conj(w)))) / w (by Rouche's theorem; P. Henrici,
 * Applied and Computational Complex Analysis I, Wiley 1974, section 6.8).  The test is invariant
 * under scaling of the coefficients, so each stage is divided by its largest modulus: without
 * that the coefficients square at every stage, and mebdf's of degree 7 overflowed at |z| = 100. */
#include "schur_cohn.h"

#include <math.h>

int schur_cohn_inside(double complex *a, int m)
{
  double complex next[SCHUR_COHN_MAX_DEGREE + 1];
  for (; m > 0; m--) {
    if (schur_cohn_abs2(a[m]) <= schur_cohn_abs2(a[0])) {
      return 0;
    }
    double big = 0.0;
    for (int j = 1; j <= m; j++) {
      next[j - 1] = conj(a[m]) * a[j] - a[0] * conj(a[m - j]);
      big = fmax(big, cabs(next[j - 1]));
    }
    for (int j = 0; j < m; j++) {
      a[j] = next[j] / big;
    }
  }
  return 1;
}
