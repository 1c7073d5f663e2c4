/* The C side of the Fortran tests (tests/fortran/): a problem's start, residual and Jacobians
 * through the public C API directly, for the Fortran module's values to be compared with bit for
 * bit. */
#include <mbdae/mbdae.h>

/* 0 and y0, yp0, res = F(t, y, yp), dfdy, dfdyp (neq^2 each) for spec, or the create/eval code. */
int c_side_eval(const char *spec, double t, const double *y, const double *yp, double *y0,
                double *yp0, double *res, double *dfdy, double *dfdyp)
{
  mbdae_problem *p = NULL;
  int rc = mbdae_problem_create(spec, &p, NULL, 0);
  if (rc == 0) {
    rc = mbdae_problem_init(p, y0, yp0);
  }
  if (rc == 0) {
    rc = mbdae_problem_res(p, t, y, yp, res);
  }
  if (rc == 0) {
    rc = mbdae_problem_jac(p, t, y, yp, dfdy, dfdyp);
  }
  mbdae_problem_destroy(p);
  return rc;
}

/* sizeof of the structs the module mirrors. */
size_t c_side_sizeof(int which)
{
  switch (which) {
  case 0:
    return sizeof(mbdae_options);
  case 1:
    return sizeof(mbdae_result);
  case 2:
    return sizeof(mbdae_solver_type);
  default:
    return sizeof(mbdae_stats);
  }
}

/* mbdae_solve of spec with solver at rtol = atol, h0 from C: y(tend), steps and scd. */
int c_side_solve(const char *spec, const char *solver, double rtol, double h0, double *y,
                 long *steps, double *scd)
{
  mbdae_problem *p = NULL;
  int rc = mbdae_problem_create(spec, &p, NULL, 0);
  if (rc != 0) {
    return rc;
  }
  int n = mbdae_problem_neq(p);
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = rtol;
  opt.h0 = h0;
  mbdae_result r;
  double yp[64], yref[64];
  rc = n <= 64 ? mbdae_solve(p, solver, &opt, 1, y, yp, &r) : MBDAE_ERR_ARG;
  *steps = r.stats.steps;
  if (rc == 0 && mbdae_problem_ref(p, yref) == 0) {
    *scd = mbdae_scd(p, y, yref);
  }
  mbdae_problem_destroy(p);
  return rc;
}
