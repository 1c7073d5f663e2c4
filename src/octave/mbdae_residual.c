/* mbdae_residual: F = mbdae_residual(p, t, y, yp), the residual F(t, y, y') of problem p
 * (mbdae_problem_res), y and yp rows or columns; F has y's shape.  A residual that cannot be
 * evaluated there (outside the domain: a recoverable failure in the library) raises
 * mbdae:recoverable. */
#include "mex_common.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  mx_arity(nrhs, 4, 4, nlhs, 1, "F = mbdae_residual(p, t, y, yp)");
  const mbdae_problem *p = mx_problem(prhs[0], "p");
  int n = mbdae_problem_neq(p), row;
  double t = mx_scalar(prhs[1], "t");
  const double *y = mx_vector(prhs[2], n, "y", &row);
  const double *yp = mx_vector(prhs[3], n, "yp", NULL);
  mxArray *f = mx_column(NULL, n, row);
  int rc = mbdae_problem_res(p, t, y, yp, mxGetPr(f));
  if (rc != 0) {
    mx_fail(rc > 0 ? "recoverable" : "residual", "the residual failed at t = %.17g: %s", t,
            mbdae_strerror(rc));
  }
  plhs[0] = f;
}
