/* test_mebdf_renew: mebdf's Jacobian renewal by cost (solvers/mebdf_renew.c).
 *
 * - the index-3 pendulum at rtol 1e-3, where a Jacobian one step old iterates at rates 0.3-0.6:
 *   renewing while the old one's steps cost more than a new Jacobian takes fewer residual
 *   evaluations than the rate rule alone (13746);
 * - Andrews at rtol 1e-7 (27 equations, 13 after condensation: a renewal costs more than the
 *   old Jacobian's extra iterations): no more Jacobians than the rate rule alone (117);
 * - the wheelset at rtol 1e-4, whose analytic Jacobian costs about 11 residuals and solves (more
 *   than the rule's W assumes): no more Jacobians than the rate rule alone takes (1060), plus
 *   5%. */
#include "support.h"

/* The rate rule alone (2026-11-27): pendulum 13746 residual evaluations, Andrews 117 Jacobians,
 * the wheelset 1060; with the renewal 11102, 117, 1060. */
enum { PENDULUM_NRES_MAX = 12000, ANDREWS_NJAC_MAX = 117, WHEELSET_NJAC_MAX = 1113 };

static mbdae_stats run(const char *spec, double rtol)
{
  mbdae_stats st = {0};
  double scd = 0.0, mescd = 0.0;
  int rc = run_as_test_set(spec, "mebdf", rtol, &scd, &mescd, &st);
  CHECK(rc == 0, "%s at rtol %g: status %d", spec, rtol, rc);
  return st;
}

int main(void)
{
  mbdae_stats pend = run("pendulum", 1e-3);
  CHECK(pend.nres <= PENDULUM_NRES_MAX,
        "pendulum at rtol 1e-3: %ld residual evaluations, at most %d", pend.nres,
        PENDULUM_NRES_MAX);
  mbdae_stats andrews = run("andrews", 1e-7);
  CHECK(andrews.njac <= ANDREWS_NJAC_MAX, "andrews at rtol 1e-7: %ld Jacobians, at most %d",
        andrews.njac, ANDREWS_NJAC_MAX);
  mbdae_stats wheelset = run("wheelset", 1e-4);
  CHECK(wheelset.njac <= WHEELSET_NJAC_MAX, "wheelset at rtol 1e-4: %ld Jacobians, at most %d",
        wheelset.njac, WHEELSET_NJAC_MAX);
  return check_summary("test_mebdf_renew");
}
