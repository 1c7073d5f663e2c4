/* test_mebdf_limits: the limits of the modified extended BDF solver (solvers/mebdf*.c) on large
 * or stiff-at-rest systems.
 *
 * - Fekete (160 equations): the stability-limited order (solvers/mebdf_stability.c) must act
 *   above 64 equations too.  Without it the run sat at order 6 with h at the stability boundary
 *   of the undamped modes through the rest phase: 2732 steps at rtol 1e-7 (scd 6.44) and 51
 *   error-test failures, against MEBDFI's 584 steps (scd 6.87, refsol/peer/testset.jsonl);
 * - Andrews' squeezer in forms index1 and baumgarte at rtol 1e-9, 1e-10: the rounding floor of
 *   index-1 algebraic variables (solvers/mebdf_noise.c).  Without it every run failed (Newton
 *   failures down to h ~ 1e-17 near t = 0.02, or at t ~ 2e-9 at 1e-10). */
#include <math.h>

#include "support.h"

/* MEBDFI's Fekete rows (refsol/peer/testset.jsonl) and our step ceilings, measured with the
 * eigenvalue check on: 637 steps, scd 7.03 at 1e-7; 1736, 10.17 at 1e-10. */
static void fekete_steps(void)
{
  static const struct {
    double rtol, peer_scd;
    long peer_steps, steps;
  } rows[] = {{1e-7, 6.87, 584, 660}, {1e-10, 9.37, 1338, 1800}};
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    double scd = 0.0, mescd = 0.0;
    mbdae_stats st = {0};
    if (run_as_test_set("fekete", "mebdf", rows[k].rtol, &scd, &mescd, &st) != 0) {
      continue;
    }
    printf("fekete %7.0e  scd %5.2f (MEBDFI %5.2f)  steps %5ld (%5ld)\n", rows[k].rtol, scd,
           rows[k].peer_scd, st.steps, rows[k].peer_steps);
    CHECK(st.steps <= rows[k].steps, "fekete %g: %ld steps", rows[k].rtol, st.steps);
    CHECK(scd >= rows[k].peer_scd - 0.2, "fekete %g: scd %.2f", rows[k].rtol, scd);
  }
}

/* Measured with the floor: scd 9.14, 9.67 (index1), 9.04, 9.66 (baumgarte) at 1e-9, 1e-10. */
static void andrews_index1_noise(void)
{
  static const char *const specs[] = {"andrews:form=index1", "andrews:form=baumgarte"};
  static const double rtols[] = {1e-9, 1e-10};
  for (size_t k = 0; k < 2; k++) {
    for (size_t m = 0; m < 2; m++) {
      double scd = 0.0, mescd = 0.0;
      mbdae_stats st = {0};
      if (run_as_test_set(specs[k], "mebdf", rtols[m], &scd, &mescd, &st) != 0) {
        continue;
      }
      printf("%s %7.0e  scd %5.2f  steps %5ld\n", specs[k], rtols[m], scd, st.steps);
      CHECK(scd >= 8.5, "%s %g: scd %.2f", specs[k], rtols[m], scd);
    }
  }
}

int main(void)
{
  fekete_steps();
  andrews_index1_noise();
  return check_summary("test_mebdf_limits");
}
