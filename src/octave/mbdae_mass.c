/* mbdae_mass: the form M(t, y) y' = f(t, y) of a problem whose residual is linear in y', for the
 * MATLAB suite's ode15s (and ode23t): with F(t, y, y') = M y' - f,
 *   M = dF/dy'(t, y, 0),  f = -F(t, y, 0),  df/dy = -dF/dy(t, y, 0)
 * (at y' = 0 the derivative of M(y) y' with respect to y vanishes, so df/dy is exact).
 *   [M, f, dfdy] = mbdae_mass(p, t, y)   (dense)
 *   info = mbdae_mass(p, 'check')        linear (true/false), constant (M the same everywhere),
 *                                        why (the first failure) and M at the start
 * The check runs at the problem's check points (mbdae_problem_check_points: the start, the
 * reference, three random states) and at two values of y' there (y', 2 y' + 1): dF/dy' must be
 * the same at all three values of y' bit for bit, and F(t, y, y') - F(t, y, 0) - M y' must be
 * rounding (1e-10 of the size of the terms of each row); M is constant when it is the same at
 * every point. */
#include "mex_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct work {
  int n;
  double *j0, *j1, *jfirst, *f0, *f1, *z, *yp2, *dummy;
} work;

static int work_alloc(work *w, int n)
{
  size_t nn = (size_t)n * (size_t)n;
  double *all = calloc(4 * nn + 4 * (size_t)n, sizeof(double));
  if (!all) {
    return -1;
  }
  *w = (work){.n = n, .j0 = all, .j1 = all + nn, .jfirst = all + 2 * nn, .dummy = all + 3 * nn};
  w->f0 = all + 4 * nn;
  w->f1 = w->f0 + n;
  w->z = w->f1 + n;
  w->yp2 = w->z + n;
  return 0;
}

/* 0 when F is linear in y' at (t, y) along yp; else a message in why. */
static int linear_at(const mbdae_problem *p, work *w, double t, const double *y, const double *yp,
                     char *why, size_t len)
{
  int n = w->n;
  size_t nn = (size_t)n * (size_t)n;
  if (mbdae_problem_jac(p, t, y, w->z, w->dummy, w->j0) != 0 ||
      mbdae_problem_jac(p, t, y, yp, w->dummy, w->j1) != 0 ||
      mbdae_problem_res(p, t, y, w->z, w->f0) != 0 || mbdae_problem_res(p, t, y, yp, w->f1) != 0) {
    snprintf(why, len, "the residual or Jacobian failed at t = %g", t);
    return -1;
  }
  if (memcmp(w->j0, w->j1, sizeof(double) * nn) != 0) {
    snprintf(why, len, "dF/dy' depends on y' (at t = %g)", t);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    double d = w->f1[i] - w->f0[i], size = fabs(w->f1[i]) + fabs(w->f0[i]);
    for (int j = 0; j < n; j++) {
      d -= w->j0[i + (size_t)j * n] * yp[j];
      size += fabs(w->j0[i + (size_t)j * n] * yp[j]);
    }
    if (fabs(d) > 1e-10 * size) {
      snprintf(why, len, "row %d of F is not linear in y' (at t = %g: %.3g against terms of %.3g)",
               i + 1, t, fabs(d), size);
      return -1;
    }
  }
  return 0;
}

/* Both values of y' at every check point; constant is cleared when M differs between points. */
static int check_all(const mbdae_problem *p, work *w, int *constant, char *why, size_t len)
{
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  int rc = mbdae_problem_check_points(p, &pts);
  int n = w->n;
  *constant = 1;
  for (int k = 0; rc == 0 && k < pts.npoints; k++) {
    const double *y = pts.y + (size_t)k * n, *yp = pts.yp + (size_t)k * n;
    for (int i = 0; i < n; i++) {
      w->yp2[i] = 2 * yp[i] + 1;
    }
    rc = linear_at(p, w, pts.t[k], y, yp, why, len);
    rc = rc == 0 ? linear_at(p, w, pts.t[k], y, w->yp2, why, len) : rc;
    if (rc == 0 && k == 0) {
      memcpy(w->jfirst, w->j0, sizeof(double) * (size_t)n * n);
    } else if (rc == 0 && memcmp(w->jfirst, w->j0, sizeof(double) * (size_t)n * n) != 0) {
      *constant = 0;
    }
  }
  if (rc > 0 || (rc < 0 && !why[0])) {
    snprintf(why, len, "the check points failed: %s", mbdae_strerror(rc));
  }
  mbdae_check_points_free(&pts);
  return rc;
}

static void check(const mbdae_problem *p, mxArray *plhs[])
{
  int n = mbdae_problem_neq(p), constant = 0;
  work w;
  if (work_alloc(&w, n) != 0) {
    mx_fail("nomem", "out of memory");
  }
  char why[256] = "";
  int rc = check_all(p, &w, &constant, why, sizeof why);
  mxArray *m = mxCreateDoubleMatrix((size_t)n, (size_t)n, mxREAL);
  memcpy(mxGetPr(m), w.jfirst, sizeof(double) * (size_t)n * n);
  free(w.j0);
  const char *fields[] = {"linear", "constant", "why", "M"};
  mxArray *s = mxCreateStructMatrix(1, 1, 4, fields);
  mxSetField(s, 0, "linear", mxCreateLogicalScalar(rc == 0));
  mxSetField(s, 0, "constant", mxCreateLogicalScalar(rc == 0 && constant));
  mxSetField(s, 0, "why", mxCreateString(why));
  mxSetField(s, 0, "M", m);
  plhs[0] = s;
}

static void evaluate(const mbdae_problem *p, double t, const double *y, int nlhs, mxArray *plhs[])
{
  int n = mbdae_problem_neq(p);
  mxArray *z = mx_column(NULL, n, 0), *f = mx_column(NULL, n, 0);
  mxArray *m = mxCreateDoubleMatrix((size_t)n, (size_t)n, mxREAL);
  mxArray *dfdy = mxCreateDoubleMatrix((size_t)n, (size_t)n, mxREAL);
  int rc = mbdae_problem_res(p, t, y, mxGetPr(z), mxGetPr(f));
  rc = rc == 0 ? mbdae_problem_jac(p, t, y, mxGetPr(z), mxGetPr(dfdy), mxGetPr(m)) : rc;
  if (rc != 0) {
    mx_fail(rc > 0 ? "recoverable" : "residual", "the residual failed at t = %.17g: %s", t,
            mbdae_strerror(rc));
  }
  double *fv = mxGetPr(f), *dv = mxGetPr(dfdy);
  for (int i = 0; i < n; i++) {
    fv[i] = -fv[i];
  }
  for (size_t k = 0; k < (size_t)n * n; k++) {
    dv[k] = -dv[k];
  }
  mxArray *out[3] = {m, f, dfdy};
  for (int k = 0; k < 3; k++) {
    if (k < (nlhs > 0 ? nlhs : 1)) {
      plhs[k] = out[k];
    } else {
      mxDestroyArray(out[k]);
    }
  }
  mxDestroyArray(z);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *usage = "[M, f, dfdy] = mbdae_mass(p, t, y) or info = mbdae_mass(p, 'check')";
  mx_arity(nrhs, 2, 3, nlhs, 3, usage);
  const mbdae_problem *p = mx_problem(prhs[0], "p");
  if (nrhs == 2) {
    char *what = mx_string(prhs[1], "second argument");
    if (strcmp(what, "check") != 0 || nlhs > 1) {
      mx_fail("arg", "usage: %s", usage);
    }
    check(p, plhs);
    return;
  }
  double t = mx_scalar(prhs[1], "t");
  evaluate(p, t, mx_vector(prhs[2], mbdae_problem_neq(p), "y", NULL), nlhs, plhs);
}
