/* mbdae_list: L = mbdae_list(), what the library offers: problems (ids), options (the keys each
 * id accepts, mbdae_problem_options), solvers (the built-in ids) and solver_titles, each a cell
 * column; and version. */
#include "mex_common.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  (void)prhs;
  mx_arity(nrhs, 0, 0, nlhs, 1, "L = mbdae_list()");
  int np = mbdae_problem_count(), ns = mbdae_solver_count();
  mxArray *ids = mxCreateCellMatrix((size_t)np, 1), *opts = mxCreateCellMatrix((size_t)np, 1);
  for (int i = 0; i < np; i++) {
    mxSetCell(ids, (size_t)i, mxCreateString(mbdae_problem_id(i)));
    mxSetCell(opts, (size_t)i, mxCreateString(mbdae_problem_options(mbdae_problem_id(i))));
  }
  mxArray *sids = mxCreateCellMatrix((size_t)ns, 1), *titles = mxCreateCellMatrix((size_t)ns, 1);
  for (int i = 0; i < ns; i++) {
    mxSetCell(sids, (size_t)i, mxCreateString(mbdae_solver_id(i)));
    mxSetCell(titles, (size_t)i, mxCreateString(mbdae_solver_title(i)));
  }
  const char *fields[] = {"problems", "options", "solvers", "solver_titles", "version"};
  mxArray *s = mxCreateStructMatrix(1, 1, 5, fields);
  mxSetField(s, 0, "problems", ids);
  mxSetField(s, 0, "options", opts);
  mxSetField(s, 0, "solvers", sids);
  mxSetField(s, 0, "solver_titles", titles);
  mxSetField(s, 0, "version", mxCreateString(mbdae_version()));
  plhs[0] = s;
}
