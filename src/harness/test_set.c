/* The test set's run policy (mbdae_options_test_set): how the Test Set for IVP Solvers (release
 * 2.4, part II: sections II.13.4, II.17.4, II.19.4 among others) runs a problem at a tolerance:
 * rtol = atol, h0 = h0_factor * rtol (the problem's mbdae_tolerance_plan: 1e-2 for the slider
 * crank, 1 otherwise), and without a tolerance the problem's run tolerance (default_rtol).  The
 * command (run, table, sweep, plot, bench) and the Python module (mbdae.solve, Integrator, sweep)
 * both take their options from here, so the policy is written once. */
#include <math.h>
#include <stddef.h>

#include "mbdae/mbdae.h"

int mbdae_options_test_set(const mbdae_problem *p, double rtol, mbdae_options *opt)
{
  if (!p || !opt || opt->size < offsetof(mbdae_options, h0) + sizeof opt->h0) {
    return MBDAE_ERR_ARG;
  }
  if (!(rtol >= 0.0 && rtol < 1.0)) { /* NaN, negative, infinite, 1 and above */
    return MBDAE_ERR_ARG;
  }
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  opt->rtol = rtol > 0.0 ? rtol : plan.default_rtol;
  opt->atol = opt->rtol;
  opt->h0 = plan.h0_factor * opt->rtol;
  return MBDAE_OK;
}
