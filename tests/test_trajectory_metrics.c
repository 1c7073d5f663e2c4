/* tscd, tmescd and tscd_rms (mbdae/solve.h) on hand-made trajectories: the scd and mescd of every
 * output time, their minimum, and the root mean square of the relative error per time. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

enum { NT = 4 };

/* y = yref with relative error err[k] in component i at time k. */
static void perturb(int n, const double *yref, const double *err, int i, double *y)
{
  memcpy(y, yref, sizeof(double) * (size_t)n * NT);
  for (int k = 0; k < NT; k++) {
    y[i + k * n] = yref[i + k * n] * (1.0 + err[k]);
  }
}

static void exact_and_end(const mbdae_problem *p, int n, const double *yref, double *y)
{
  memcpy(y, yref, sizeof(double) * (size_t)n * NT);
  CHECK(mbdae_tscd(p, NT, y, yref) == 16.0, "exact tscd %g", mbdae_tscd(p, NT, y, yref));
  CHECK(mbdae_tmescd(p, NT, y, yref, 1e-6, 1e-6) == 16.0, "exact tmescd");
  CHECK(mbdae_tscd_rms(p, NT, y, yref) == 16.0, "exact tscd_rms");
  /* Only the end off: tscd is scd at the end, bit for bit, tmescd mescd. */
  const double *end = yref + (size_t)(NT - 1) * n;
  y[1 + (NT - 1) * n] = end[1] * (1.0 + 3e-6);
  double scd = mbdae_scd(p, y + (NT - 1) * n, end);
  double mescd = mbdae_mescd(p, y + (NT - 1) * n, end, 1e-6, 1e-7);
  CHECK(mbdae_tscd(p, NT, y, yref) == scd, "tscd %.17g, scd at the end %.17g",
        mbdae_tscd(p, NT, y, yref), scd);
  CHECK(mbdae_tmescd(p, NT, y, yref, 1e-6, 1e-7) == mescd, "tmescd %.17g, mescd %.17g",
        mbdae_tmescd(p, NT, y, yref, 1e-6, 1e-7), mescd);
}

static void minimum_and_rms(const mbdae_problem *p, int n, const double *yref, double *y)
{
  /* Errors 0, 1e-4, 1e-7, 1e-6 in x: tscd = 4 (the worst time), below scd at the end (6). */
  static const double err[NT] = {0.0, 1e-4, 1e-7, 1e-6};
  perturb(n, yref, err, 0, y);
  double scd = mbdae_scd(p, y + (NT - 1) * n, yref + (NT - 1) * n);
  double tscd = mbdae_tscd(p, NT, y, yref);
  CHECK(fabs(tscd - 4.0) < 1e-9, "tscd %.17g, expected 4", tscd);
  CHECK(fabs(scd - 6.0) < 1e-9 && tscd < scd, "scd %.17g > tscd %.17g", scd, tscd);
  CHECK(tscd == mbdae_scd(p, y + n, yref + n), "tscd is the scd of time 1");
  double rms = sqrt((1e-8 + 1e-14 + 1e-12) / NT);
  CHECK(fabs(mbdae_tscd_rms(p, NT, y, yref) + log10(rms)) < 1e-9, "tscd_rms %.17g, expected %.17g",
        mbdae_tscd_rms(p, NT, y, yref), -log10(rms));
  CHECK(mbdae_tscd_rms(p, NT, y, yref) >= tscd, "rms at least tscd");
  /* mescd's denominator atol/rtol + |yref|, minimised over the times. */
  double worst = 1e-4 * fabs(yref[n]) / (10.0 + fabs(yref[n]));
  CHECK(fabs(mbdae_tmescd(p, NT, y, yref, 1e-7, 1e-6) + log10(worst)) < 1e-9, "tmescd %.17g",
        mbdae_tmescd(p, NT, y, yref, 1e-7, 1e-6));
  /* Errors far beyond 1: the mean of squares does not overflow (a relative error below 2^-53
   * cannot occur, so none underflows). */
  static const double huge[NT] = {0.0, 1e200, 1e199, 1e198};
  perturb(n, yref, huge, 0, y);
  double rms_huge = mbdae_tscd_rms(p, NT, y, yref);
  CHECK(rms_huge > -200.0 && rms_huge < -199.0 && mbdae_tscd(p, NT, y, yref) < rms_huge,
        "huge errors: tscd_rms %g, tscd %g", rms_huge, mbdae_tscd(p, NT, y, yref));
}

static void outside_the_domain(const mbdae_problem *p, int n, const double *yref, double *y)
{
  memcpy(y, yref, sizeof(double) * (size_t)n * NT);
  y[2 + n] = NAN; /* a NaN in the middle is never accurate */
  CHECK(isnan(mbdae_tscd(p, NT, y, yref)), "NaN: tscd %g", mbdae_tscd(p, NT, y, yref));
  CHECK(isnan(mbdae_tmescd(p, NT, y, yref, 1e-6, 1e-6)), "NaN: tmescd");
  CHECK(isnan(mbdae_tscd_rms(p, NT, y, yref)), "NaN: tscd_rms");
  y[2 + n] = yref[2 + n];
  CHECK(isnan(mbdae_tscd(p, 0, y, yref)) && isnan(mbdae_tscd_rms(p, 0, y, yref)), "no times");
  CHECK(isnan(mbdae_tscd(p, NT, NULL, yref)) && isnan(mbdae_tmescd(p, NT, y, NULL, 1, 1)), "NULL");
  CHECK(isnan(mbdae_tmescd(p, NT, y, yref, 0.0, 1e-6)), "rtol 0: tmescd NaN");
}

int main(void)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create("pendulum", &p, NULL, 0) == 0, "pendulum");
  int n = mbdae_problem_neq(p);
  double *yref = calloc((size_t)(2 * n * NT), sizeof(double)), *y = yref + n * NT;
  for (int k = 0; k < NT; k++) { /* any nonzero states, the end the reference */
    for (int i = 0; i < n; i++) {
      yref[i + k * n] = (1.0 + i) * (k + 0.5) * (i % 2 ? -1.0 : 1.0);
    }
  }
  CHECK(mbdae_problem_ref(p, yref + (NT - 1) * n) == 0, "pendulum reference");
  exact_and_end(p, n, yref, y);
  minimum_and_rms(p, n, yref, y);
  outside_the_domain(p, n, yref, y);
  free(yref);
  mbdae_problem_destroy(p);
  return check_summary("test_trajectory_metrics");
}
