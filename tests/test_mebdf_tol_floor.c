/* test_mebdf_tol_floor: mebdf's local tolerance is not taken below LOCAL_TOL_MIN (solvers/mebdf.c).
 *
 * At rtol = atol = 1e-11 the tolerance-proportionality factor alone made the local tolerance
 * 2e-14 (relative), and the slider crank (index 3, the test set's h0 = rtol/100) spent most of
 * its steps at order 2 with h about 1e-9 near t = 0.094: 254535 steps, scd 8.31, against MEBDFI's
 * 14430 steps (scripts/workprecision.py's grid, h0 = 1e-13).  With the floor: 16641 steps here (h0
 * = 0.01 rtol), scd 8.19; without it the cap is reached at t = 0.051.  The run is capped at 40000
 * attempted steps so that a regression fails fast. */
#include "support.h"

static void crank_tightest(void)
{
  mbdae_problem *p = create_problem("crank");
  if (!p) {
    return;
  }
  double y[SUPPORT_MAX_N], yref[SUPPORT_MAX_N];
  mbdae_options opt;
  test_options(p, 1e-11, &opt);
  opt.max_steps = 40000;
  mbdae_result r;
  int rc = mbdae_solve(p, "mebdf", &opt, 1, y, NULL, &r);
  CHECK(rc == 0, "crank 1e-11: %s (%ld steps)", r.message, r.stats.steps);
  CHECK(mbdae_problem_ref(p, yref) == 0, "crank has a reference");
  double scd = rc == 0 ? mbdae_scd(p, y, yref) : 0.0;
  printf("crank 1e-11: %ld steps, scd %.2f\n", r.stats.steps, scd);
  CHECK(rc == 0 && scd >= 8.0, "crank 1e-11: scd %.2f", scd);
  mbdae_problem_destroy(p);
}

int main(void)
{
  crank_tightest();
  return check_summary("test_mebdf_tol_floor");
}
