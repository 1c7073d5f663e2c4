/* mbdae check: is a problem what it claims?  The residual at the initial values against the
 * size of its terms, the hidden constraints at position, velocity and acceleration level, the
 * analytic Jacobian against central differences at t0 and at a perturbed point, and where the
 * reference comes from.  Exit 1 when a check exceeds its threshold. */
#include <math.h>
#include <stdlib.h>

#include "cli.h"

/* Thresholds: what an exact Jacobian and published consistent values meet. */
static const double JAC_TOL = 1e-6;
static const double RESIDUAL_REL_TOL = 1e-6; /* the slider crank's published values reach 2.3e-7 */

static double max_abs(const double *v, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(v[i]));
  }
  return m;
}

int cmd_check(int argc, char **argv)
{
  if (argc != 2) {
    return usage_error("check takes one problem spec, e.g. mbdae check crank:index=3");
  }
  mbdae_problem *p = open_problem(argv[1]);
  if (!p) {
    return EXIT_USAGE;
  }
  int n = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p), bad = 0;
  double t0 = mbdae_problem_t0(p);
  double *y = calloc((size_t)(4 * n + 3 * (nc + 1)), sizeof(double));
  if (!y) {
    mbdae_problem_destroy(p);
    return usage_error("out of memory");
  }
  double *yp = y + n, *ypert = yp + n, *yppert = ypert + n, *g = yppert + n;
  printf("%s (%s), n = %d, t in [%g, %g]\n", mbdae_problem_title(p), mbdae_problem_spec(p), n, t0,
         mbdae_problem_tend(p));
  mbdae_problem_init(p, y, yp);

  double rabs = 0.0, rrel = 0.0;
  mbdae_problem_residual_size(p, t0, y, yp, &rabs, &rrel);
  bad |= !(rrel <= RESIDUAL_REL_TOL);
  printf("residual at t0:      max |F| = %.3e, max |F_i| / size of terms = %.3e  %s\n", rabs, rrel,
         rrel <= RESIDUAL_REL_TOL ? "ok" : "TOO LARGE");

  if (nc > 0) {
    mbdae_problem_constraints(p, t0, y, yp, g, g + nc, g + 2 * nc);
    printf("hidden constraints:  position %.3e, velocity %.3e, acceleration %.3e\n",
           max_abs(g, nc), max_abs(g + nc, nc), max_abs(g + 2 * nc, nc));
  }

  double ey = 0.0, eyp = 0.0;
  mbdae_problem_check_jac(p, t0, y, yp, &ey, &eyp);
  bad |= !(ey <= JAC_TOL && eyp <= JAC_TOL);
  printf("Jacobian at t0:      dF/dy %.2e, dF/dy' %.2e (relative to column size)  %s\n", ey, eyp,
         ey <= JAC_TOL && eyp <= JAC_TOL ? "ok" : "MISMATCH");
  /* A perturbed point: every component moved by 1e-3 of its size (deterministic pattern). */
  for (int i = 0; i < n; i++) {
    double s = (i % 2 ? 1.0 : -1.0) * 1e-3 * (1.0 + 0.1 * i);
    ypert[i] = y[i] + s * fmax(fabs(y[i]), 1e-2);
    yppert[i] = yp[i] - s * fmax(fabs(yp[i]), 1e-2);
  }
  double tpert = t0 + 0.1 * (mbdae_problem_tend(p) - t0);
  mbdae_problem_check_jac(p, tpert, ypert, yppert, &ey, &eyp);
  bad |= !(ey <= JAC_TOL && eyp <= JAC_TOL);
  printf("Jacobian perturbed:  dF/dy %.2e, dF/dy' %.2e (t = %g)  %s\n", ey, eyp, tpert,
         ey <= JAC_TOL && eyp <= JAC_TOL ? "ok" : "MISMATCH");

  int rc = mbdae_problem_ref(p, y);
  printf("reference at t = %g: %s\n", mbdae_problem_tend(p),
         rc == 0 ? mbdae_problem_ref_source(p) : mbdae_strerror(rc));
  free(y);
  mbdae_problem_destroy(p);
  return bad ? EXIT_FAILED_RUN : EXIT_OK;
}
