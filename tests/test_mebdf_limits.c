/* test_mebdf_limits: the limits of the modified extended BDF solver (solvers/mebdf*.c) on large
 * or stiff-at-rest systems.
 *
 * - Fekete (160 equations): the stability-limited order (solvers/mebdf_stability.c) must act
 *   above 64 equations too.  Without it the run sat at order 6 with h at the stability boundary
 *   of the undamped modes through the rest phase: 2732 steps at rtol 1e-7 (scd 6.44) and 51
 *   error-test failures, against MEBDFI's 584 steps (scd 6.87, refsol/peer/testset.jsonl);
 * - Andrews' squeezer in forms index1 and baumgarte at rtol 1e-9, 1e-10: the rounding floor of
 *   index-1 algebraic variables (solvers/mebdf_noise.c).  Without it every run failed (Newton
 *   failures down to h ~ 1e-17 near t = 0.02, or at t ~ 2e-9 at 1e-10);
 * - chain:n=60 and n=100 (300, 500 equations, banded) at rtol 1e-10 from the horizontal resting
 *   start: the iteration matrix's algebraic rows scaled by c after a singular matrix
 *   (solvers/mebdf_stage.c).  Without it both failed at t = 3.1e-9, 1.2e-9: singular iteration
 *   matrix 3 times on one step. */
#include <math.h>
#include <stdlib.h>

#include "support.h"

/* MEBDFI's Fekete rows (refsol/peer/testset.jsonl) and our step ceilings, measured with the
 * eigenvalue check on: 637 steps, scd 7.16 at 1e-7; 2070, 10.16 at 1e-10 (637, 7.03 and 1736,
 * 10.17 with LSODE's step-size biases, solvers/mebdf_control.c). */
static void fekete_steps(void)
{
  static const struct {
    double rtol, peer_scd;
    long peer_steps, steps;
  } rows[] = {{1e-7, 6.87, 584, 660}, {1e-10, 9.37, 1338, 2100}};
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

/* Measured with the floor: scd 9.14, 9.70 (index1), 9.16, 9.68 (baumgarte) at 1e-9, 1e-10. */
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

/* 7136 and 27407 steps measured (6300 and 23702 with LSODE's step-size factors; `--linsys sparse`
 * on n = 100 then 23279). */
static void chain_tight(void)
{
  static const char *const specs[] = {"chain:n=60", "chain:n=100"};
  for (size_t k = 0; k < 2; k++) {
    mbdae_problem *p = create_problem(specs[k]);
    if (!p) {
      continue;
    }
    int n = mbdae_problem_neq(p);
    double *y = calloc((size_t)n, sizeof(double));
    mbdae_options opt;
    mbdae_options_default(&opt);
    opt.rtol = opt.atol = opt.h0 = 1e-10;
    mbdae_result r;
    int rc = y ? mbdae_solve(p, "mebdf", &opt, 1, y, NULL, &r) : -1;
    CHECK(rc == 0, "%s rtol 1e-10: %s", specs[k], rc == -1 ? "out of memory" : r.message);
    printf("%s 1e-10  steps %ld\n", specs[k], rc == 0 ? r.stats.steps : -1L);
    free(y);
    mbdae_problem_destroy(p);
  }
}

int main(void)
{
  fekete_steps();
  andrews_index1_noise();
  chain_tight();
  return check_summary("test_mebdf_limits");
}
