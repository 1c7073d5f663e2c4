/* mbdae_jacobian: [dFdy, dFdyp] = mbdae_jacobian(p, t, y, yp[, storage]), the Jacobians of the
 * residual (mbdae_problem_jac, or mbdae_problem_jac_values on the problem's pattern).  storage:
 * 'auto' (default: sparse where the problem's pattern is band or sparse, mbdae_problem_jac_pattern,
 * else dense), 'dense' or 'sparse'.  A sparse matrix holds the pattern's entries, zeros among
 * them; dense and sparse carry the same values. */
#include "mex_common.h"

#include <string.h>

static void raise_failed(int rc, double t)
{
  mx_fail("jacobian", "the Jacobian failed at t = %.17g: %s", t, mbdae_strerror(rc));
}

static void dense(const mbdae_problem *p, int n, double t, const double *y, const double *yp,
                  int nlhs, mxArray *plhs[])
{
  mxArray *a = mxCreateDoubleMatrix((size_t)n, (size_t)n, mxREAL);
  mxArray *b = mxCreateDoubleMatrix((size_t)n, (size_t)n, mxREAL);
  int rc = mbdae_problem_jac(p, t, y, yp, mxGetPr(a), mxGetPr(b));
  if (rc != 0) {
    raise_failed(rc, t);
  }
  plhs[0] = a;
  if (nlhs > 1) {
    plhs[1] = b;
  } else {
    mxDestroyArray(b);
  }
}

static mxArray *sparse_shell(const mbdae_jac_pattern *pat)
{
  int n = pat->neq;
  mxArray *a = mxCreateSparse((size_t)n, (size_t)n, pat->nnz > 0 ? pat->nnz : 1, mxREAL);
  mwIndex *jc = mxGetJc(a), *ir = mxGetIr(a);
  for (int j = 0; j <= n; j++) {
    jc[j] = pat->colptr ? (mwIndex)pat->colptr[j] : (mwIndex)j * (mwIndex)n;
  }
  for (size_t k = 0; k < pat->nnz; k++) {
    ir[k] = pat->rowind ? (mwIndex)pat->rowind[k] : (mwIndex)(k % (size_t)n);
  }
  return a;
}

static void sparse(const mbdae_problem *p, double t, const double *y, const double *yp, int nlhs,
                   mxArray *plhs[])
{
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  mxArray *a = sparse_shell(&pat), *b = sparse_shell(&pat);
  int rc = mbdae_problem_jac_values(p, t, y, yp, mxGetPr(a), mxGetPr(b));
  if (rc != 0) {
    raise_failed(rc, t);
  }
  plhs[0] = a;
  if (nlhs > 1) {
    plhs[1] = b;
  } else {
    mxDestroyArray(b);
  }
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  mx_arity(nrhs, 4, 5, nlhs, 2,
           "[dFdy, dFdyp] = mbdae_jacobian(p, t, y, yp[, 'auto'|'dense'|'sparse'])");
  const mbdae_problem *p = mx_problem(prhs[0], "p");
  int n = mbdae_problem_neq(p);
  double t = mx_scalar(prhs[1], "t");
  const double *y = mx_vector(prhs[2], n, "y", NULL);
  const double *yp = mx_vector(prhs[3], n, "yp", NULL);
  const char *storage = nrhs > 4 ? mx_string(prhs[4], "storage") : "auto";
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  int want_sparse;
  if (strcmp(storage, "auto") == 0) {
    want_sparse = pat.kind != MBDAE_JAC_DENSE;
  } else if (strcmp(storage, "dense") == 0 || strcmp(storage, "sparse") == 0) {
    want_sparse = storage[0] == 's';
  } else {
    mx_fail("arg", "storage '%s': 'auto', 'dense' or 'sparse'", storage);
  }
  if (want_sparse) {
    sparse(p, t, y, yp, nlhs, plhs);
  } else {
    dense(p, n, t, y, yp, nlhs, plhs);
  }
}
