/* mbdae_problem: p = mbdae_problem(spec), a problem of the test set as an Octave/MATLAB struct:
 * its canonical spec, id, title, size n, interval t0..tend, consistent start y0, yp0, component
 * names, differentiation index and scd membership per component, the reference at tend (yref,
 * [] without one) and its source, the number of hidden constraints, the Jacobian's storage kind
 * and the test set's tolerance plan (mbdae_problem_tolerances).  The other gateways take p (or
 * the spec string) as their first argument. */
#include "mex_common.h"

#include <stdlib.h>
#include <string.h>

static mxArray *tolerance_plan(const mbdae_problem *p)
{
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  const char *fields[] = {"m_div", "m_max", "h0_factor", "table_rtol", "default_rtol"};
  mxArray *s = mxCreateStructMatrix(1, 1, 5, fields);
  mxSetField(s, 0, "m_div", mxCreateDoubleScalar(plan.m_div));
  mxSetField(s, 0, "m_max", mxCreateDoubleScalar(plan.m_max));
  mxSetField(s, 0, "h0_factor", mxCreateDoubleScalar(plan.h0_factor));
  mxSetField(s, 0, "table_rtol", mx_column(plan.table_rtol, plan.ntable, 1));
  mxSetField(s, 0, "default_rtol", mxCreateDoubleScalar(plan.default_rtol));
  return s;
}

/* names, index and in_scd of the n components */
static void components(mxArray *s, const mbdae_problem *p, int n)
{
  mxArray *names = mxCreateCellMatrix((size_t)n, 1);
  mxArray *index = mxCreateDoubleMatrix((size_t)n, 1, mxREAL);
  mxArray *in_scd = mxCreateLogicalMatrix((size_t)n, 1);
  const int *ix = mbdae_problem_index(p);
  for (int i = 0; i < n; i++) {
    mxSetCell(names, (size_t)i, mxCreateString(mbdae_problem_component(p, i)));
    mxGetPr(index)[i] = ix[i];
    mxGetLogicals(in_scd)[i] = mbdae_problem_in_scd(p, i) != 0;
  }
  mxSetField(s, 0, "names", names);
  mxSetField(s, 0, "index", index);
  mxSetField(s, 0, "in_scd", in_scd);
}

/* y0, yp0 and yref; the vectors come from mxArrays, so nothing to free if a call raises. */
static void vectors(mxArray *s, const mbdae_problem *p, int n)
{
  mxArray *y0 = mx_column(NULL, n, 0), *yp0 = mx_column(NULL, n, 0);
  int rc = mbdae_problem_init(p, mxGetPr(y0), mxGetPr(yp0));
  if (rc != 0) {
    mx_fail("init", "the initial values of %s failed: %s", mbdae_problem_spec(p),
            mbdae_strerror(rc));
  }
  mxSetField(s, 0, "y0", y0);
  mxSetField(s, 0, "yp0", yp0);
  mxArray *yref = mx_column(NULL, n, 0);
  if (mbdae_problem_ref(p, mxGetPr(yref)) != 0) {
    mxDestroyArray(yref);
    yref = mxCreateDoubleMatrix(0, 0, mxREAL);
  }
  mxSetField(s, 0, "yref", yref);
  mxSetField(s, 0, "ref_source", mxCreateString(mbdae_problem_ref_source(p)));
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  mx_arity(nrhs, 1, 1, nlhs, 1, "p = mbdae_problem(spec)");
  const mbdae_problem *p = mx_problem(prhs[0], "spec");
  int n = mbdae_problem_neq(p);
  const char *fields[] = {"spec",       "id",           "title",    "n",         "t0",     "tend",
                          "y0",         "yp0",          "names",    "index",     "in_scd", "yref",
                          "ref_source", "nconstraints", "jac_kind", "tolerances"};
  mxArray *s = mxCreateStructMatrix(1, 1, sizeof fields / sizeof fields[0], fields);
  mxSetField(s, 0, "spec", mxCreateString(mbdae_problem_spec(p)));
  mxSetField(s, 0, "id", mxCreateString(mbdae_problem_name(p)));
  mxSetField(s, 0, "title", mxCreateString(mbdae_problem_title(p)));
  mxSetField(s, 0, "n", mxCreateDoubleScalar(n));
  mxSetField(s, 0, "t0", mxCreateDoubleScalar(mbdae_problem_t0(p)));
  mxSetField(s, 0, "tend", mxCreateDoubleScalar(mbdae_problem_tend(p)));
  components(s, p, n);
  vectors(s, p, n);
  mxSetField(s, 0, "nconstraints", mxCreateDoubleScalar(mbdae_problem_nconstraints(p)));
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  mxSetField(s, 0, "jac_kind", mxCreateString(mbdae_jac_kind_name(pat.kind)));
  mxSetField(s, 0, "tolerances", tolerance_plan(p));
  plhs[0] = s;
}
