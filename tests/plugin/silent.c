/* Plug-in solvers that lack something the contract offers, for tests/test_cli_trajectory.c and
 * tests/test_plot_data.c: "silent" runs the built-in radau5 with the caller's on_accept taken
 * away, as a solver written without on_accept would (the harness then measures the drift at t_end
 * only, and run --trajectory has the initial values and the end); "no_output" has no continuous
 * output: it refuses output times (MBDAE_ERR_UNSUPPORTED, as the contract asks) and otherwise
 * runs radau5 (its id has an underscore: legends must show it as written). */
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

static int no_output_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y,
                               double *yp, mbdae_result *r)
{
  if (opt->ntout > 0) {
    return r->status = MBDAE_ERR_UNSUPPORTED;
  }
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static const mbdae_solver_type no_output_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "no_output",
    .title = "radau5 without continuous output (test plug-in)",
    .integrate = no_output_integrate,
};

static const mbdae_solver_type *const solvers[] = {&silent_solver, &no_output_solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 2;
}
