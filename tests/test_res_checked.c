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

static void check_problem(mbdae_problem *p, const char *spec)
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

static int line_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx;
  y0[0] = 1.0;
  yp0[0] = -1.0;
  return 0;
}

static int line_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  (void)ctx, (void)t;
  res[0] = yp[0] + y[0];
  return 0;
}

static mbdae_problem *user_problem(void)
{
  static const int index[1] = {1};
  static const mbdae_problem_type type = {.size = sizeof(mbdae_problem_type),
                                          .id = "line",
                                          .title = "y' = -y",
                                          .neq = 1,
                                          .t0 = 0.0,
                                          .tend = 1.0,
                                          .index = index,
                                          .init = line_init,
                                          .res = line_res};
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_from_type(&type, NULL, &p, msg, sizeof msg);
  CHECK(rc == 0, "from_type: %s", msg);
  return p;
}

int main(void)
{
  for (size_t k = 0; k < sizeof SPECS / sizeof SPECS[0]; k++) {
    mbdae_problem *p = create_problem(SPECS[k]);
    if (p) {
      check_problem(p, SPECS[k]);
    }
    mbdae_problem_destroy(p);
  }
  mbdae_problem *p = user_problem();
  if (p) {
    check_problem(p, "user's problem");
  }
  mbdae_problem_destroy(p);
  return check_summary("test_res_checked");
}
