/* A plug-in solver that reports no accepted states, for tests/test_cli_trajectory.c: "silent"
 * runs the built-in radau5 with the caller's on_accept taken away, as a solver written without
 * on_accept would (the contract asks for it; the harness then measures the drift at t_end only,
 * and run --trajectory has the initial values and the end). */
#include <mbdae/mbdae.h>

static int silent_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                            mbdae_result *r)
{
  mbdae_options quiet = *opt;
  quiet.on_accept = NULL;
  quiet.on_accept_ctx = NULL;
  return mbdae_solver_find("radau5")->integrate(p, &quiet, y, yp, r);
}

static const mbdae_solver_type silent_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "silent",
    .title = "radau5 without on_accept (test plug-in)",
    .integrate = silent_integrate,
};

static const mbdae_solver_type *const solvers[] = {&silent_solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 1;
}
