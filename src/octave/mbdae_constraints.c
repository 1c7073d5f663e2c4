/* mbdae_constraints: [g, gv, ga] = mbdae_constraints(p, t, y[, yp]), the hidden constraints of a
 * mechanical problem at a state (mbdae_problem_constraints): positions g, their derivative along
 * the solution gv (velocity level) and the second ga (acceleration level, which needs yp: zeros
 * without it).  Empty for a problem without constraints.  The drift of a state is
 * max(abs(g)) and max(abs(gv)). */
#include "mex_common.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  mx_arity(nrhs, 3, 4, nlhs, 3, "[g, gv, ga] = mbdae_constraints(p, t, y[, yp])");
  const mbdae_problem *p = mx_problem(prhs[0], "p");
  int n = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p);
  double t = mx_scalar(prhs[1], "t");
  const double *y = mx_vector(prhs[2], n, "y", NULL);
  mxArray *zeros = NULL;
  const double *yp;
  if (nrhs > 3) {
    yp = mx_vector(prhs[3], n, "yp", NULL);
  } else {
    zeros = mx_column(NULL, n, 0);
    yp = mxGetPr(zeros);
  }
  mxArray *out[3];
  for (int k = 0; k < 3; k++) {
    out[k] = mx_column(NULL, nc, 0);
  }
  if (nc > 0) {
    int rc =
        mbdae_problem_constraints(p, t, y, yp, mxGetPr(out[0]), mxGetPr(out[1]), mxGetPr(out[2]));
    if (rc != 0) {
      mx_fail("constraints", "the constraints failed at t = %.17g: %s", t, mbdae_strerror(rc));
    }
  }
  for (int k = 0; k < 3; k++) {
    if (k < (nlhs > 0 ? nlhs : 1)) {
      plhs[k] = out[k];
    } else {
      mxDestroyArray(out[k]);
    }
  }
  if (zeros) {
    mxDestroyArray(zeros);
  }
}
