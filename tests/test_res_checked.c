/* mbdae_problem_res_checked checks each residual for finiteness once, by the problem's own residual
 * where it checks (the Cartesian forms of Andrews and the slider crank, the wheelset), else
 * itself.  For every form of every built-in problem and for a user's problem: a finite residual
 * comes back as mbdae_problem_res gives it (0, the same bits), and one with an infinite or NaN
 * value (y' set so at the initial values: every form has rows linear in y') as
 * MBDAE_RECOVERABLE. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

static const char *const SPECS[] = {
    "caraxis",
    "caraxis:form=ggl",
    "caraxis:form=index1",
    "andrews",
    "andrews:form=index2",
    "andrews:form=baumgarte",
    "andrews:jac=approx",
    "crank",
    "crank:index=3",
    "crank:form=index1",
    "pendulum",
    "pendulum:form=ssf",
    "pendulum:form=dummy",
    "dpendulum",
    "dpendulum:form=ggl",
    "chain:n=2",
    "fekete:n=3",
    "wheelset",
};

static void check_problem(const mbdae_problem *p, const char *spec)
{
  int n = mbdae_problem_neq(p);
  double *y = calloc(4 * (size_t)n, sizeof(double));
  if (!y) {
    CHECK(0, "out of memory");
    return;
  }
  double *yp = y + n, *res = yp + n, *checked = res + n;
  CHECK(mbdae_problem_init(p, y, yp) == 0, "%s: init", spec);
  int rc = mbdae_problem_res(p, 0.0, y, yp, res);
  CHECK(rc == 0, "%s: res at the initial values: %d", spec, rc);
  rc = mbdae_problem_res_checked(p, 0.0, y, yp, checked);
  CHECK(rc == 0 && memcmp(res, checked, sizeof(double) * (size_t)n) == 0,
        "%s: a finite residual changed by the check (%d)", spec, rc);
  const double bad[2] = {NAN, INFINITY};
  for (int b = 0; b < 2; b++) {
    for (int i = 0; i < n; i++) {
      yp[i] = bad[b];
    }
    rc = mbdae_problem_res_checked(p, 0.0, y, yp, checked);
    CHECK(rc == MBDAE_RECOVERABLE, "%s: y' = %g gave %d, not MBDAE_RECOVERABLE", spec, bad[b], rc);
  }
  free(y);
}

int main(void)
{
  check_each_spec(SPECS, sizeof SPECS / sizeof SPECS[0], check_problem);
  mbdae_problem *p = create_decay_problem(); /* y' = -y (support.h) */
  if (p) {
    check_problem(p, "user's problem");
  }
  mbdae_problem_destroy(p);
  return check_summary("test_res_checked");
}
