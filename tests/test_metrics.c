/* scd and mescd on hand-made vectors, against the definitions of doc/design.md. */
#include <stdlib.h>

#include "check.h"
#include "mbdae/mbdae.h"

int main(void)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create("crank", &p, NULL, 0) == 0, "crank");
  int n = mbdae_problem_neq(p);
  double *yref = calloc((size_t)(2 * n), sizeof(double)), *y = yref + n;
  CHECK(mbdae_problem_ref(p, yref) == 0, "crank reference");
  for (int i = 0; i < n; i++) {
    y[i] = yref[i];
  }
  /* An exact match gives 16 (a maximum of exactly 0 becomes 1e-16). */
  CHECK(mbdae_scd(p, y, yref) == 16.0, "exact scd %g", mbdae_scd(p, y, yref));
  CHECK(mbdae_mescd(p, y, yref, 1e-6, 1e-6) == 16.0, "exact mescd");

  /* y15 has reference 0 and drops out of scd, but not out of mescd (atol/rtol + 0 = 1). */
  y[14] = 1e-3;
  CHECK(mbdae_scd(p, y, yref) == 16.0, "zero reference component must drop out: %g",
        mbdae_scd(p, y, yref));
  CHECK(fabs(mbdae_mescd(p, y, yref, 1e-6, 1e-6) - 3.0) < 1e-12, "mescd %g",
        mbdae_mescd(p, y, yref, 1e-6, 1e-6));
  y[14] = 0.0;

  /* Relative error 1e-5 in y1 (in the scd set) gives scd 5. */
  y[0] = yref[0] * (1.0 + 1e-5);
  CHECK(fabs(mbdae_scd(p, y, yref) - 5.0) < 1e-9, "scd %g", mbdae_scd(p, y, yref));
  y[0] = yref[0];

  /* y10 is not in crank's scd set (y1-7, y22-24): scd stays 16, mescd sees it. */
  y[9] = yref[9] + 0.01 * (1.0 + fabs(yref[9]));
  CHECK(mbdae_scd(p, y, yref) == 16.0, "y10 must not enter scd");
  CHECK(fabs(mbdae_mescd(p, y, yref, 1.0, 1.0) - 2.0) < 1e-9, "mescd %g",
        mbdae_mescd(p, y, yref, 1.0, 1.0));
  y[9] = yref[9];

  /* atol/rtol enters the mescd denominator. */
  y[21] = yref[21] + 1e-4 * (100.0 + fabs(yref[21]));
  CHECK(fabs(mbdae_mescd(p, y, yref, 1e-8, 1e-6) - 4.0) < 1e-9, "mescd with atol/rtol = 100: %g",
        mbdae_mescd(p, y, yref, 1e-8, 1e-6));

  /* Tolerances outside mescd's domain give NaN, not 16 digits for a wrong answer (rtol = 0:
   * atol/rtol = inf) or NaN only when both are 0. */
  y[21] = yref[21] + 1.0;
  static const double bad_tol[][2] = {{0.0, 1e-6},   {0.0, 0.0},       {-1e-6, 1e-6}, {1e-6, 0.0},
                                      {1e-6, -1e-6}, {INFINITY, 1e-6}, {1e-6, NAN}};
  for (size_t k = 0; k < sizeof bad_tol / sizeof bad_tol[0]; k++) {
    double m = mbdae_mescd(p, y, yref, bad_tol[k][0], bad_tol[k][1]);
    CHECK(isnan(m), "mescd with rtol %g, atol %g gave %g, expected NaN", bad_tol[k][0],
          bad_tol[k][1], m);
  }
  y[21] = yref[21];

  /* A NaN never looks accurate. */
  y[0] = NAN;
  CHECK(!(mbdae_scd(p, y, yref) > 0.0), "NaN solution gave scd %g", mbdae_scd(p, y, yref));
  free(yref);
  mbdae_problem_destroy(p);
  return check_summary("test_metrics");
}
