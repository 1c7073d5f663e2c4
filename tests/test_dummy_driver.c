/* mbdae_solve_dummy's tend (0: the problem's own; -5, NaN, inf and times not after t0 are refused
 * with MBDAE_ERR_ARG, where -5 and NaN silently ran to the problem's tend), and form=dummy in the
 * commands: run and table go through the switching driver (the selection's pivot degenerates at
 * t = 0.59 for radau5 on one selection) and report the switches; plot refuses it, naming run. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

static void tend_is_checked(void)
{
  mbdae_problem *p = create_problem("pendulum:form=dummy");
  double y[16], yp[16];
  mbdae_options opt;
  mbdae_options_default(&opt);
  mbdae_result r;
  int switches = -1;
  const mbdae_solver_type *radau5 = mbdae_solver_find("radau5");
  const double bad[] = {-5.0, NAN, INFINITY, -INFINITY, 1e-300 * -1.0};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
    int rc = mbdae_solve_dummy(p, radau5, bad[k], &opt, y, yp, &r, &switches);
    CHECK(rc == MBDAE_ERR_ARG && strstr(r.message, "tend must be 0") && r.stats.steps == 0,
          "tend = %g: rc %d, %s", bad[k], rc, r.message);
  }
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  int rc = mbdae_solve_dummy(p, radau5, 2.0, &opt, y, yp, &r, &switches);
  CHECK(rc == 0 && r.t == 2.0, "tend = 2: rc %d, t = %g, %s", rc, r.t, r.message);
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  rc = mbdae_solve_dummy(p, radau5, 0.0, &opt, y, yp, &r, &switches);
  CHECK(rc == 0 && r.t == mbdae_problem_tend(p), "tend = 0: rc %d, t = %g", rc, r.t);
  mbdae_problem_destroy(p);
}

int main(void)
{
  tend_is_checked();
  return check_summary("test_dummy_driver");
}
