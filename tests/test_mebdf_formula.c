/* test_mebdf_formula: the constant-step formulas of the mebdf solver (solvers/mebdf_formula.c)
 * satisfy their order conditions (BDF-k exact for polynomials of degree k, the extended corrector
 * for degree k + 1, both not for the next degree), equal Cash's closed forms for k = 1 and 2
 * (J. R. Cash, Comp. & Maths. with Appls. 9 (1983) 645-657: y_{n+1} - y_n =
 * h (3/2 y'_{n+1} - 1/2 y'_{n+2}); 23 y_{n+1} - 28 y_n + 5 y_{n-1} = h (22 y'_{n+1} - 4 y'_{n+2})),
 * carry the error constant of the residual at degree k + 2, and that the Lagrange weights
 * reproduce polynomials; and that the amplification test of the stability-limited order
 * (solvers/mebdf_stability.c, the roots of the scheme's characteristic polynomial) finds the
 * spectral radii of the three-stage step on y' = lambda y, computed independently as the
 * eigenvalues of its k x k companion matrix (numpy): orders 2-4 A-stable on the imaginary axis,
 * order 5 at h omega = 1 1.016496, order 6 1.021965, order 7 at 1.5 1.151803, order 8 1.202711,
 * order 5 at 0.5 1.000649; at z = -100 every order damps (order 8: 0.3415). */
#include <complex.h>
#include <math.h>

#include "check.h"
#include "mebdf.h"

/* Residual of sum_j coef_j x_j^q - h-terms for x^q at the nodes x_j = -j (t_{n+1} at 0). */
static double bdf_residual(const mebdf_formula *f, int k, int q)
{
  double sum = 0.0;
  for (int j = 0; j <= k; j++) {
    sum += f->a[j] * pow(-(double)j, (double)q);
  }
  return sum - (q == 1 ? f->beta : 0.0);
}

static double extended_residual(const mebdf_formula *f, int k, int q)
{
  double sum = 0.0;
  for (int j = 0; j <= k; j++) {
    sum += f->ahat[j] * pow(-(double)j, (double)q);
  }
  /* derivative of x^q at 0 (q = 1 only) and at 1 */
  return sum - (q == 1 ? f->bhat : 0.0) - (q >= 1 ? (double)q * f->bhat1 : 0.0);
}

static void order_conditions(const mebdf_formula *f)
{
  for (int k = 1; k <= MEBDF_MAX_ORDER; k++) {
    double scale = pow((double)k, (double)k + 2.0);
    for (int q = 0; q <= k; q++) {
      CHECK(fabs(bdf_residual(&f[k], k, q)) <= 1e-13 * scale, "BDF-%d, degree %d: %g", k, q,
            bdf_residual(&f[k], k, q));
    }
    CHECK(fabs(bdf_residual(&f[k], k, k + 1)) > 0.1, "BDF-%d is not exact at degree %d", k, k + 1);
    for (int q = 0; q <= k + 1; q++) {
      CHECK(fabs(extended_residual(&f[k], k, q)) <= 1e-13 * scale, "MEBDF-%d, degree %d: %g", k, q,
            extended_residual(&f[k], k, q));
    }
    double fact = 1.0;
    for (int i = 2; i <= k + 2; i++) {
      fact *= (double)i;
    }
    double c = fabs(extended_residual(&f[k], k, k + 2)) / fact;
    CHECK(c > 1e-3 && fabs(c - f[k].err) <= 1e-12 * fmax(1.0, c * scale), "k = %d: err %g, %g", k,
          f[k].err, c);
    CHECK(f[k].a[0] == 1.0 && f[k].ahat[0] == 1.0 && f[k].beta > 0.0, "k = %d normalized", k);
  }
}

static void cash_closed_forms(const mebdf_formula *f)
{
  CHECK(fabs(f[1].bhat - 1.5) < 1e-15 && fabs(f[1].bhat1 + 0.5) < 1e-15 &&
            fabs(f[1].ahat[1] + 1.0) < 1e-15 && fabs(f[1].beta - 1.0) < 1e-15,
        "k = 1: %.17g %.17g", f[1].bhat, f[1].bhat1);
  CHECK(fabs(f[2].bhat - 22.0 / 23.0) < 1e-15 && fabs(f[2].bhat1 + 4.0 / 23.0) < 1e-15 &&
            fabs(f[2].ahat[1] + 28.0 / 23.0) < 1e-15 && fabs(f[2].ahat[2] - 5.0 / 23.0) < 1e-15 &&
            fabs(f[2].beta - 2.0 / 3.0) < 1e-15,
        "k = 2: %.17g %.17g %.17g", f[2].bhat, f[2].bhat1, f[2].ahat[1]);
  CHECK(fabs(f[1].err - 5.0 / 12.0) < 1e-15, "k = 1 error constant %.17g", f[1].err);
}

static void lagrange(void)
{
  double w[MEBDF_HIST];
  for (int q = 0; q < MEBDF_HIST; q++) {
    double s = 0.37 - 0.5 * q;
    mebdf_lagrange(q, s, w);
    for (int d = 0; d <= q; d++) {
      double sum = 0.0;
      for (int m = 0; m <= q; m++) {
        sum += w[m] * pow(-(double)m, (double)d);
      }
      CHECK(fabs(sum - pow(s, (double)d)) <= 1e-9 * fmax(1.0, pow(fabs(s) + q, (double)d)),
            "degree %d of %d at %g: %.17g", d, q, s, sum);
    }
  }
}

static void amplification(const mebdf_formula *f)
{
  static const struct {
    int k;
    double x, rho; /* z = i x; the spectral radius */
  } known[] = {{4, 1.0, 1.016496},
               {5, 1.0, 1.021965},
               {6, 1.5, 1.151803},
               {7, 1.5, 1.202711},
               {4, 0.5, 1.000649}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    int k = known[i].k;
    double complex z = I * known[i].x;
    CHECK(mebdf_amplifies(&f[k], k, z, known[i].rho - 2e-6) &&
              !mebdf_amplifies(&f[k], k, z, known[i].rho + 2e-6),
          "k = %d, z = %g i: spectral radius not %.6f", k, known[i].x, known[i].rho);
  }
  for (int k = 1; k <= 3; k++) {
    for (double x = 0.05; x <= 100.0; x *= 1.1) {
      CHECK(!mebdf_amplifies(&f[k], k, I * x, 1.0 + 1e-9), "k = %d amplifies at %g i", k, x);
    }
  }
  for (int k = 1; k <= MEBDF_MAX_ORDER; k++) {
    CHECK(!mebdf_amplifies(&f[k], k, -100.0, 0.35) && !mebdf_amplifies(&f[k], k, -100.0, 1.1),
          "k = %d: z = -100 not damped below 0.35", k);
  }
  CHECK(mebdf_amplifies(&f[7], 7, -100.0, 0.34), "k = 7 at z = -100: 0.3415");
}

int main(void)
{
  mebdf_formula f[MEBDF_MAX_ORDER + 1];
  mebdf_formulas_init(f);
  order_conditions(f);
  cash_closed_forms(f);
  lagrange();
  amplification(f);
  return check_summary("test_mebdf_formula");
}
