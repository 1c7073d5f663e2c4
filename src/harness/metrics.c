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
 * function outside its domain, mescd then returns NaN, which no caller can read as accurate.
 *
 * Along a reference trajectory (mbdae_problem_reference_trajectory: ntimes output times t_k, the
 * values y(t_k) in column k) the same formulas are taken at every output time:
 *
 *   tscd      = min_k scd(y(t_k), yref(t_k))      = -log10( max_k e_k ),
 *   tmescd    = min_k mescd(y(t_k), yref(t_k))    (the same with mescd's error),
 *   tscd_rms  = -log10( sqrt( (1/ntimes) sum_k e_k^2 ) ),
 *
 * e_k the maximum inside scd at time t_k (so that tscd <= scd whenever the last output time is
 * t_end, and tscd_rms >= tscd).  tscd_rms is the root mean square over the grid of the relative
 * error per time, the time-averaged ("L2") error that SciML's DiffEqDevTools reports beside the
 * final error in its work-precision sets (Rackauckas & Nie, DifferentialEquations.jl, J. Open
 * Research Software 5 (2017)), with the per-time error of scd. */
#include <math.h>
#include <stddef.h>

#include "mbdae/mbdae.h"

static double digits(double maxerr) { return -log10(maxerr == 0.0 ? 1e-16 : maxerr); }

/* The maximum inside scd: the largest relative error over the scd set (NaN sticks). */
static double scd_error(const mbdae_problem *p, const double *y, const double *yref)
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
  return maxerr;
}

/* The maximum inside mescd, for ratio = atol/rtol (NaN sticks). */
static double mescd_error(const mbdae_problem *p, const double *y, const double *yref, double ratio)
{
  int n = mbdae_problem_neq(p);
  double maxerr = 0.0;
  for (int i = 0; i < n; i++) {
    double e = fabs(y[i] - yref[i]) / (ratio + fabs(yref[i]));
    if (isnan(e) || e > maxerr) {
      maxerr = e;
    }
  }
  return maxerr;
}

static int tolerances_valid(double rtol, double atol)
{
  return rtol > 0.0 && atol > 0.0 && isfinite(rtol) && isfinite(atol);
}

double mbdae_scd(const mbdae_problem *p, const double *y, const double *yref)
{
  return digits(scd_error(p, y, yref));
}

double mbdae_mescd(const mbdae_problem *p, const double *y, const double *yref, double rtol,
                   double atol)
{
  if (!tolerances_valid(rtol, atol)) {
    return NAN;
  }
  return digits(mescd_error(p, y, yref, atol / rtol));
}

/* The larger of two errors, a NaN sticking. */
static double worse(double a, double b) { return isnan(a) || a > b ? a : b; }

double mbdae_tscd(const mbdae_problem *p, size_t ntimes, const double *y, const double *yref)
{
  if (ntimes == 0 || !y || !yref) {
    return NAN;
  }
  size_t n = (size_t)mbdae_problem_neq(p);
  double maxerr = 0.0;
  for (size_t k = 0; k < ntimes; k++) {
    maxerr = worse(scd_error(p, y + k * n, yref + k * n), maxerr);
  }
  return digits(maxerr);
}

double mbdae_tmescd(const mbdae_problem *p, size_t ntimes, const double *y, const double *yref,
                    double rtol, double atol)
{
  if (ntimes == 0 || !y || !yref || !tolerances_valid(rtol, atol)) {
    return NAN;
  }
  size_t n = (size_t)mbdae_problem_neq(p);
  double maxerr = 0.0;
  for (size_t k = 0; k < ntimes; k++) {
    maxerr = worse(mescd_error(p, y + k * n, yref + k * n, atol / rtol), maxerr);
  }
  return digits(maxerr);
}

double mbdae_tscd_rms(const mbdae_problem *p, size_t ntimes, const double *y, const double *yref)
{
  if (ntimes == 0 || !y || !yref) {
    return NAN;
  }
  size_t n = (size_t)mbdae_problem_neq(p);
  double largest = 0.0, sum = 0.0;
  for (size_t k = 0; k < ntimes; k++) {
    largest = worse(scd_error(p, y + k * n, yref + k * n), largest);
  }
  if (!(largest > 0.0) || isinf(largest)) { /* 0, NaN or inf: the sum says no more */
    return digits(largest);
  }
  for (size_t k = 0; k < ntimes; k++) { /* scaled by the largest: no overflow of e^2 */
    double e = scd_error(p, y + k * n, yref + k * n) / largest;
    sum += e * e;
  }
  return digits(largest * sqrt(sum / (double)ntimes));
}
