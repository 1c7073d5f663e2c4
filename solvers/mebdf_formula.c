/* The constant-step formulas of the MEBDF integrator (solvers/mebdf.h), computed at the start of a
 * run from their definitions rather than typed in.
 *
 * With the nodes x_j = -j (y_{n+1-j}, j = 0..k, in units of h from t_{n+1}) and the Lagrange basis
 * l_j of those nodes:
 *   BDF-k (the polynomial through the k + 1 values has derivative h y'_{n+1} at x = 0):
 *       a_j = beta l_j'(0),  beta = 1 / l_0'(0);
 *   the extended formula sum_j ahat_j y_{n+1-j} = bhat h y'(0) + bhat1 h y'(1), exact for all
 *   polynomials of degree k + 1 (J. R. Cash, Comp. & Maths. with Appls. 9 (1983) 645-657; Hairer &
 *   Wanner, Solving ODEs II, V.3).  Those are spanned by the l_j and w(x) = prod_j (x - x_j), which
 *   vanishes at the nodes, so exactness means
 *       bhat w'(0) + bhat1 w'(1) = 0,   ahat_j = bhat l_j'(0) + bhat1 l_j'(1),
 *   and ahat_0 = 1 fixes the scale: bhat l_0'(0) + bhat1 l_0'(1) = 1.  (k = 1: the order-2 formula
 *   y_{n+1} - y_n = h (3/2 y'_{n+1} - 1/2 y'_{n+2}).)
 * Error constant: the formula applied to x^(k+2)/(k+2)! leaves
 *       C = (sum_j ahat_j x_j^(k+2) - (k+2) bhat1) / (k+2)!,
 * so the local error of the corrector is C h^(k+2) y^(k+2) ~ C nabla^(k+2) y_{n+1}.  All products
 * and sums of small integers: the coefficients are exact to rounding (MEBDFI's tables agree to
 * their 14 digits). */
#include <math.h>

#include "mebdf.h"

/* l_i'(x) for the nodes x_m = -m, m = 0..k: sum over m != i of the product of (x - x_r), r != i, m,
 * divided by prod_{r != i} (x_i - x_r). */
static double lagrange_derivative(int k, int i, double x)
{
  double den = 1.0, num = 0.0;
  for (int r = 0; r <= k; r++) {
    if (r != i) {
      den *= (double)(r - i); /* x_i - x_r = -i + r */
    }
  }
  for (int m = 0; m <= k; m++) {
    if (m == i) {
      continue;
    }
    double prod = 1.0;
    for (int r = 0; r <= k; r++) {
      if (r != i && r != m) {
        prod *= x + (double)r;
      }
    }
    num += prod;
  }
  return num / den;
}

/* w'(x) for w(x) = prod_{m=0..k} (x + m). */
static double node_polynomial_derivative(int k, double x)
{
  double sum = 0.0;
  for (int m = 0; m <= k; m++) {
    double prod = 1.0;
    for (int r = 0; r <= k; r++) {
      if (r != m) {
        prod *= x + (double)r;
      }
    }
    sum += prod;
  }
  return sum;
}

static void bdf_formula(int k, mebdf_formula *f)
{
  f->beta = 1.0 / lagrange_derivative(k, 0, 0.0);
  for (int j = 0; j <= k; j++) {
    f->a[j] = f->beta * lagrange_derivative(k, j, 0.0);
  }
  f->a[0] = 1.0;
}

static void extended_formula(int k, mebdf_formula *f)
{
  /* bhat w'(0) + bhat1 w'(1) = 0 and bhat l_0'(0) + bhat1 l_0'(1) = 1 (Cramer's rule) */
  double w0 = node_polynomial_derivative(k, 0.0), w1 = node_polynomial_derivative(k, 1.0);
  double l0 = lagrange_derivative(k, 0, 0.0), l1 = lagrange_derivative(k, 0, 1.0);
  double det = w0 * l1 - w1 * l0;
  f->bhat = -w1 / det;
  f->bhat1 = w0 / det;
  for (int j = 0; j <= k; j++) {
    f->ahat[j] =
        f->bhat * lagrange_derivative(k, j, 0.0) + f->bhat1 * lagrange_derivative(k, j, 1.0);
  }
  f->ahat[0] = 1.0;
  int q = k + 2;
  double sum = 0.0, fact = 1.0;
  for (int j = 1; j <= k; j++) {
    sum += f->ahat[j] * pow(-(double)j, (double)q);
  }
  for (int i = 2; i <= q; i++) {
    fact *= (double)i;
  }
  f->err = fabs((sum - (double)q * f->bhat1) / fact);
}

void mebdf_formulas_init(mebdf_formula f[MEBDF_MAX_ORDER + 1])
{
  for (int k = 1; k <= MEBDF_MAX_ORDER; k++) {
    bdf_formula(k, &f[k]);
    extended_formula(k, &f[k]);
    mebdf_lagrange(k, 1.0, f[k].pred);
  }
}

/* w_j = prod_{m != j} (s + m) / prod_{m != j} (m - j).  The numerator's product runs over m in
 * increasing order: its factors below j are the previous weight's, times s + j - 1, so they are
 * carried (the same products, the same bits) and only the factors above j are multiplied anew; the
 * denominator is the integer (-1)^j j! (q - j)!, exact in a double for q <= 18 however it is
 * formed.  Half the multiplications of the double loop over (j, m) and no test in it, and the
 * factors s + m formed once, not once per product (the same sums; callgrind, pendulum at rtol
 * 1e-3: 1.0% fewer instructions): the rescaling of the history calls this q + 1 times per change
 * of h. */
void mebdf_lagrange(int q, double s, double *w)
{
  double fact[MEBDF_HIST + 1], factor[MEBDF_HIST + 1], below = 1.0;
  fact[0] = 1.0;
  for (int m = 1; m <= q; m++) {
    fact[m] = fact[m - 1] * (double)m;
  }
  for (int m = 0; m <= q; m++) {
    factor[m] = s + (double)m; /* s + 0.0 too: a factor -0.0 becomes +0.0, as always */
  }
  for (int j = 0; j <= q; j++) {
    double num = below;
    for (int m = j + 1; m <= q; m++) {
      num *= factor[m];
    }
    double den = fact[j] * fact[q - j];
    w[j] = num / (j % 2 ? -den : den);
    below *= factor[j];
  }
}
