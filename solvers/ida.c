/* PLACEHOLDER: replaced by the real integrator. */
#include "solver_type.h"
static int integrate(const daets_problem *p, const daets_options *opt, double *y, double *yp, daets_result *r)
{
  (void)p; (void)opt; (void)y; (void)yp;
  return daets_fail(r, DAETS_ERR_UNSUPPORTED, 0.0, 0.0, "not implemented yet");
}
const solver_type daets_solver_ida = {"ida", "placeholder", integrate};
