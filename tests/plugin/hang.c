/* A plug-in solver that hangs, for tests/test_plugin.c: "hang" runs the built-in radau5, except
 * below rtol HANG_BELOW_RTOL, where it waits for a signal that never comes.  A sweep with
 * --timeout S kills its worker after S seconds and records the run as failed
 * (MBDAE_ERR_TIMEOUT); without a time limit the sweep would wait forever. */
#include <unistd.h>

#include <mbdae/mbdae.h>

#define HANG_BELOW_RTOL 9e-5 /* between the sweep's m = 0 (1e-4) and m = 1 (5.6e-5) */

static int hang_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                          mbdae_result *r)
{
  while (opt->rtol < HANG_BELOW_RTOL) {
    pause();
  }
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static const mbdae_solver_type hang_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "hang",
    .title = "radau5 that hangs below rtol 9e-5 (test plug-in)",
    .integrate = hang_integrate,
};

static const mbdae_solver_type *const solvers[] = {&hang_solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 1;
}
