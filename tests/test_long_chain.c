/* bdf on long pendulum chains (issue 15): a chain of 2000 links, horizontal at rest,
 * index 3, band storage, over a short interval at rtol = 1e-6 must finish.  Its constraint
 * residuals can be resolved only to the rounding of the positions (|x_k| up to n), which reaches
 * the index-3 multipliers' corrections as noise growing with n: before the fix bdf's Newton
 * iteration took that noise for divergence from t = 1.3e-4 on (10 failures on one step) for every
 * chain of 1700 links or more.  The same run at 1000 links is checked too, so that the fix is seen
 * not to change a run that already finished. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "mbdae/mbdae.h"

static void run_chain(const char *solver, int links, double tend)
{
  char spec[96];
  snprintf(spec, sizeof spec, "chain:n=%d,tend=%g", links, tend);
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0 && p, "create %s: %s", spec, msg);
  if (!p) {
    return;
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
  free(y);
  mbdae_problem_destroy(p);
}

int main(void)
{
  run_chain("bdf", 1000, 0.01);
  run_chain("bdf", 2000, 0.01);
  return check_summary("test_long_chain");
}
