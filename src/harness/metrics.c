/* scd and mescd, as the test set's report program computes them (Mazzia & Magherini, Test Set
 * for IVP Solvers, release 2.4, Introduction: "significant correct digits").
 *
 *   scd   = -log10( max_{i in scd set, yref_i != 0} |y_i - yref_i| / |yref_i| )
 *   mescd = -log10( max_i |y_i - yref_i| / (atol/rtol + |yref_i|) )
 *
 * A maximum of exactly 0 is replaced by 1e-16, so an exact match gives 16.  Pure functions.
 *
 * mescd is defined for rtol > 0 and atol > 0 only: rtol = 0 would divide by zero (atol/rtol =
 * inf makes every error vanish, 16 digits for any answer) and 0/0 gives NaN.  Like a math
 * function outside its domain, mescd then returns NaN, which no caller can read as accurate. */
#include <math.h>
#include <stddef.h>

#include "mbdae/mbdae.h"

static double digits(double maxerr) { return -log10(maxerr == 0.0 ? 1e-16 : maxerr); }

double mbdae_scd(const mbdae_problem *p, const double *y, const double *yref)
{
  int n = mbdae_problem_neq(p);
  double maxerr = 0.0;
  for (int i = 0; i < n; i++) {
    if (mbdae_problem_in_scd(p, i) && yref[i] != 0.0) {
      double e = fabs(y[i] - yref[i]) / fabs(yref[i]);
      if (isnan(e) || e > maxerr) { /* a NaN sticks: a NaN solution never looks accurate */
        maxerr = e;
      }
    }
  }
  return digits(maxerr);
}

double mbdae_mescd(const mbdae_problem *p, const double *y, const double *yref, double rtol,
                   double atol)
{
  if (!(rtol > 0.0) || !(atol > 0.0) || !isfinite(rtol) || !isfinite(atol)) {
    return NAN;
  }
  int n = mbdae_problem_neq(p);
  double ratio = atol / rtol, maxerr = 0.0;
  for (int i = 0; i < n; i++) {
    double e = fabs(y[i] - yref[i]) / (ratio + fabs(yref[i]));
    if (isnan(e) || e > maxerr) {
      maxerr = e;
    }
  }
  return digits(maxerr);
}
