/* mbdae_scd: [scd, mescd] = mbdae_scd(p, y[, rtol, atol[, yref]]), the test set's accuracy of a
 * state at tend against the problem's reference (or yref): scd (mbdae_scd) and mescd
 * (mbdae_mescd at the run's tolerances; NaN without them).  A problem without a reference and no
 * yref raises mbdae:noref. */
#include "mex_common.h"

#include <math.h>

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  mx_arity(nrhs, 2, 5, nlhs, 2, "[scd, mescd] = mbdae_scd(p, y[, rtol, atol[, yref]])");
  if (nrhs == 3) {
    mx_fail("arg",
            "rtol without atol; usage: [scd, mescd] = mbdae_scd(p, y[, rtol, atol[, yref]])");
  }
  const mbdae_problem *p = mx_problem(prhs[0], "p");
  int n = mbdae_problem_neq(p);
  const double *y = mx_vector(prhs[1], n, "y", NULL);
  double rtol = nrhs > 3 ? mx_scalar(prhs[2], "rtol") : NAN;
  double atol = nrhs > 3 ? mx_scalar(prhs[3], "atol") : NAN;
  mxArray *own = NULL;
  const double *yref;
  if (nrhs > 4) {
    yref = mx_vector(prhs[4], n, "yref", NULL);
  } else {
    own = mx_column(NULL, n, 0);
    if (mbdae_problem_ref(p, mxGetPr(own)) != 0) {
      mx_fail("noref", "%s has no reference solution: pass yref", mbdae_problem_spec(p));
    }
    yref = mxGetPr(own);
  }
  plhs[0] = mxCreateDoubleScalar(mbdae_scd(p, y, yref));
  if (nlhs > 1) {
    double m = nrhs > 3 ? mbdae_mescd(p, y, yref, rtol, atol) : NAN;
    plhs[1] = mxCreateDoubleScalar(m);
  }
  if (own) {
    mxDestroyArray(own);
  }
}
