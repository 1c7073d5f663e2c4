/* test_mebdf: the modified extended BDF solver (solvers/mebdf*.c) on the test set's problems:
 * it runs, it is accurate, and its state-space form of the pendulum (an ODE) converges. */
#include <math.h>

#include "support.h"

/* A run at the test set's settings succeeds with scd above a floor. */
static void runs(void)
{
  static const struct {
    const char *spec;
    double rtol, scd_min;
  } rows[] = {
      {"caraxis", 1e-7, 1.5},
      {"andrews", 1e-7, 3.0},
      {"pendulum:form=ssf", 1e-7, 2.0},
  };
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    double scd = 0.0, mescd = 0.0;
    mbdae_stats st = {0};
    int rc = run_as_test_set(rows[k].spec, "mebdf", rows[k].rtol, &scd, &mescd, &st);
    CHECK(rc == 0 && scd >= rows[k].scd_min, "%s %g: scd %.2f (floor %.2f), %ld steps",
          rows[k].spec, rows[k].rtol, scd, rows[k].scd_min, st.steps);
  }
}

int main(void)
{
  runs();
  return check_summary("test_mebdf");
}
