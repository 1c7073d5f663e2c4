/* bdf on long pendulum chains (issue 15): a chain of 2000 links, horizontal at rest,
 * index 3, band storage, over a short interval at rtol = 1e-6 must finish.  Its constraint
 * residuals can be resolved only to the rounding of the positions (|x_k| up to n), which reaches
 * the index-3 multipliers' corrections as noise growing with n: before the fix bdf's Newton
 * iteration took that noise for divergence from t = 1.3e-4 on (10 failures on one step) for every
 * chain of 1700 links or more.  The same run at 1000 links is checked too, so that the fix is seen
 * not to change a run that already finished.  Then every built-in general solver runs the chain
 * of 2000 links (10^4 equations) in its band storage to t = 0.05, and the positions of radau5,
 * radau and ida agree (the motion is smooth that early): a long chain in CI in a few seconds. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "mbdae/mbdae.h"

/* Runs solver on the chain of links to tend; y (2 neq, malloc'd) holds y(tend), or NULL. */
static double *run_chain(const char *solver, int links, double tend)
{
  char spec[96];
  snprintf(spec, sizeof spec, "chain:n=%d,tend=%g", links, tend);
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0 && p, "create %s: %s", spec, msg);
  if (!p) {
    return NULL;
  }
  size_t neq = (size_t)mbdae_problem_neq(p);
  double *y = malloc(2 * neq * sizeof(double));
  CHECK(y != NULL, "out of memory");
  if (y) {
    mbdae_options opt;
    mbdae_options_default(&opt); /* rtol = atol = 1e-6; the pattern's storage (band) */
    opt.h0 = 1e-6;               /* as `mbdae run` starts the chain */
    mbdae_result r;
    rc = mbdae_solve(p, solver, &opt, 1, y, y + neq, &r);
    printf("%s %s: status %d, %ld steps (%ld accepted, %ld Newton failures) %s\n", solver, spec, rc,
           r.stats.steps, r.stats.accepted, r.stats.nconvfail, r.message);
    CHECK(rc == 0, "%s %s: %s", solver, spec, r.message);
  }
  mbdae_problem_destroy(p);
  return y;
}

/* Largest |a_i - b_i| over the positions x_k, y_k (5 components a link: x, y, vx, vy, F). */
static double position_difference(const double *a, const double *b, int links)
{
  double worst = 0.0;
  for (int k = 0; k < links; k++) {
    for (int c = 0; c < 2; c++) {
      double d = a[5 * k + c] - b[5 * k + c];
      worst = d > worst ? d : (-d > worst ? -d : worst);
    }
  }
  return worst;
}

int main(void)
{
  free(run_chain("bdf", 1000, 0.01));
  free(run_chain("bdf", 2000, 0.01));
  enum { LINKS = 2000 };
  const char *solvers[] = {"radau5", "radau", "bdf", "ida"};
  double *y[4];
  for (int s = 0; s < 4; s++) {
    y[s] = run_chain(solvers[s], LINKS, 0.05);
  }
  for (int s = 1; s < 4; s++) {
    if (y[0] && y[s]) {
      double d = position_difference(y[0], y[s], LINKS);
      printf("positions at t = 0.05, %s against radau5: %.2e\n", solvers[s], d);
      CHECK(d < 1e-3, "%s and radau5 differ by %g in a position at t = 0.05", solvers[s], d);
    }
  }
  for (int s = 0; s < 4; s++) {
    free(y[s]);
  }
  return check_summary("test_long_chain");
}
