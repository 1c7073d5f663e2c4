/* A residual that returns a value that is not finite (instead of an error code) is treated as
 * "could not be evaluated" by every built-in solver (mbdae_residual_checked's finiteness check,
 * IDA's own): y' = -y whose residual is NaN (or +inf) beyond t = 0.5.  Each run must fail cleanly
 * at the wall with a message naming the residual, with the last good state, and never return NaN
 * as a success. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

static int wall_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx;
  y0[0] = 1.0;
  yp0[0] = -1.0;
  return 0;
}

static int wall_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  const double *bad = ctx;
  res[0] = t > 0.5 ? *bad : yp[0] + y[0];
  return 0;
}

static int wall_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp)
{
  (void)ctx, (void)t, (void)y, (void)yp;
  if (dfdy) {
    dfdy[0] = 1.0;
  }
  if (dfdyp) {
    dfdyp[0] = 1.0;
  }
  return 0;
}

static void run_into_wall(const char *solver, double bad)
{
  static const int index[1] = {1};
  mbdae_problem_type type = {.size = sizeof(mbdae_problem_type),
                             .id = "wall",
                             .title = "y' = -y, residual not finite beyond t = 0.5",
                             .neq = 1,
                             .t0 = 0.0,
                             .tend = 1.0,
                             .index = index,
                             .init = wall_init,
                             .res = wall_res,
                             .jac = wall_jac};
  mbdae_problem *p = NULL;
  char msg[256];
  CHECK(mbdae_problem_from_type(&type, &bad, &p, msg, sizeof msg) == 0, "from_type: %s", msg);
  if (!p) {
    return;
  }
  double y[1], yp[1];
  mbdae_options opt;
  mbdae_options_default(&opt);
  mbdae_result r;
  int rc = mbdae_problem_init(p, y, yp);
  rc = rc == 0 ? mbdae_solve(p, solver, &opt, 1, y, yp, &r) : rc;
  printf("%-6s residual %g beyond t = 0.5: status %d at t = %.6f, \"%s\"\n", solver, bad, rc, r.t,
         r.message);
  CHECK(rc < 0 && r.status == rc && strstr(r.message, "residual"), "%s: status %d, \"%s\"", solver,
        rc, r.message);
  CHECK(isfinite(y[0]) && fabs(y[0] - exp(-r.t)) < 1e-4, "%s: y = %g at t = %g", solver, y[0], r.t);
  CHECK(r.t > 0.4 && r.t <= 0.5 + 1e-6, "%s: failed at t = %g, not at the wall", solver, r.t);
  mbdae_problem_destroy(p);
}

/* Problem id's residual at its start (0) and with y_0 = NaN (MBDAE_RECOVERABLE). */
static void published_flag(const char *id)
{
  mbdae_problem *p = NULL;
  char msg[256];
  CHECK(mbdae_problem_create(id, &p, msg, sizeof msg) == 0, "create %s: %s", id, msg);
  if (!p) {
    return;
  }
  int n = mbdae_problem_neq(p);
  double *y = calloc(3 * (size_t)n, sizeof *y), *yp = y + n, *res = yp + n;
  CHECK(y && mbdae_problem_init(p, y, yp) == 0, "%s: init", id);
  if (y) {
    CHECK(mbdae_problem_res(p, mbdae_problem_t0(p), y, yp, res) == 0, "%s: residual at start", id);
    y[0] = NAN;
    int rc = mbdae_problem_res(p, mbdae_problem_t0(p), y, yp, res);
    CHECK(rc == MBDAE_RECOVERABLE, "%s: residual at y_0 = NaN gives %d, not MBDAE_RECOVERABLE", id,
          rc);
  }
  free(y);
  mbdae_problem_destroy(p);
}

int main(void)
{
  published_flag("andrews");
  published_flag("crank");
  const char *solvers[] = {"radau5", "radau", "bdf", "ida"};
  for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; k++) {
    run_into_wall(solvers[k], NAN);
    run_into_wall(solvers[k], INFINITY);
  }
  return check_summary("test_nonfinite");
}
