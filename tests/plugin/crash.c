/* A plug-in solver with a crash in it, for tests/test_plugin.c: "crash" runs the built-in radau5,
 * except below rtol CRASH_BELOW_RTOL, where it writes to opt->yout as if output had been asked
 * for.  A sweep asks for none (yout is NULL), so the write is a SIGSEGV in the sweep's worker,
 * which must end as a failed row while the sweep goes on.  Built without sanitizers
 * (tests/CMakeLists.txt), so that the fault is a plain signal in every build. */
#include <mbdae/mbdae.h>

#define CRASH_BELOW_RTOL 9e-5 /* between the sweep's m = 0 (1e-4) and m = 1 (5.6e-5) */

static int crash_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                           mbdae_result *r)
{
  if (opt->rtol < CRASH_BELOW_RTOL) {
    opt->yout[0] = y[0]; /* the defect: no check of ntout */
  }
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static const mbdae_solver_type crash_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "crash",
    .title = "radau5 with a NULL write below rtol 9e-5 (test plug-in)",
    .integrate = crash_integrate,
};

static const mbdae_solver_type *const solvers[] = {&crash_solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 1;
}
