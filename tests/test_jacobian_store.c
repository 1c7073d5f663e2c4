/* The Jacobian store's kept structure of a small dense J and M (solvers/jacobian.c), which the
 * condensation plans and bdf's eigenvalue refresh test rely on: after each evaluation, the inside
 * list is exactly the entries where J or M is nonzero when the structure was taken, in order, the
 * outside mask its complement, and the structure count grows only when a nonzero appears outside
 * (a user problem whose J gains an entry at t > 0.5). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jacobian.h"
#include "mbdae/mbdae.h"

/* 1 when inside/outside describe exactly the nonzeros of the store's J and M (in order). */
static int describes(const mbdae_jacobian *jac, const char *label)
{
  size_t nn = (size_t)jac->n * (size_t)jac->n;
  int ni = 0, ok = 1;
  for (size_t k = 0; k < nn; k++) {
    int nonzero = jac->dfdy[k] != 0.0 || jac->dfdyp[k] != 0.0;
    ok &= (jac->outside[k] == (nonzero ? 0ULL : ~0ULL));
    if (nonzero) {
      ok &= ni < jac->ninside && jac->inside[ni] == (int)k;
      ni++;
    }
  }
  ok &= ni == jac->ninside;
  CHECK(ok, "%s: inside (%d entries) and outside do not describe J and M (%d nonzeros)", label,
        jac->ninside, ni);
  return ok;
}

static void built_in(const char *id)
{
  mbdae_problem *p = NULL;
  char msg[256];
  CHECK(mbdae_problem_create(id, &p, msg, sizeof msg) == 0, "create %s: %s", id, msg);
  if (!p) {
    return;
  }
  int n = mbdae_problem_neq(p);
  double *y = calloc(2 * (size_t)n, sizeof *y), *yp = y + n;
  mbdae_jacobian jac;
  CHECK(y && mbdae_problem_init(p, y, yp) == 0, "%s: init", id);
  CHECK(mbdae_jacobian_create(&jac, p, MBDAE_JAC_CONDENSED, msg, sizeof msg) == 0, "%s: %s", id,
        msg);
  CHECK(jac.rows != NULL, "%s: no kept structure", id);
  CHECK(mbdae_jacobian_eval(&jac, p, mbdae_problem_t0(p), y, yp) == 0, "%s: eval", id);
  describes(&jac, id);
  CHECK(jac.structures == 1, "%s: %lu structures after one evaluation", id, jac.structures);
  printf("%-10s n = %2d: %d of %d entries inside\n", id, n, jac.ninside, n * n);
  mbdae_jacobian_free(&jac);
  free(y);
  mbdae_problem_destroy(p);
}

/* y1' + y1 - g(t) y2 = 0, y2' + y2 = 0 with g = 0 up to t = 0.5 and 1 after: dF1/dy2 appears. */
static int grow_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx;
  y0[0] = y0[1] = 1.0;
  yp0[0] = yp0[1] = -1.0;
  return 0;
}

static double coupling(double t) { return t > 0.5 ? 1.0 : 0.0; }

static int grow_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  (void)ctx;
  res[0] = yp[0] + y[0] - coupling(t) * y[1];
  res[1] = yp[1] + y[1];
  return 0;
}

static int grow_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp)
{
  (void)ctx, (void)y, (void)yp;
  const double j[4] = {1.0, 0.0, -coupling(t), 1.0}, m[4] = {1.0, 0.0, 0.0, 1.0};
  memcpy(dfdy, j, sizeof j);
  memcpy(dfdyp, m, sizeof m);
  return 0;
}

static void growing_structure(void)
{
  static const int index[2] = {1, 1};
  mbdae_problem_type type = {.size = sizeof(mbdae_problem_type),
                             .id = "grow",
                             .title = "a Jacobian entry that appears at t = 0.5",
                             .neq = 2,
                             .t0 = 0.0,
                             .tend = 1.0,
                             .index = index,
                             .init = grow_init,
                             .res = grow_res,
                             .jac = grow_jac};
  mbdae_problem *p = NULL;
  char msg[256];
  CHECK(mbdae_problem_from_type(&type, NULL, &p, msg, sizeof msg) == 0, "from_type: %s", msg);
  if (!p) {
    return;
  }
  double y[2] = {1.0, 1.0}, yp[2] = {-1.0, -1.0};
  mbdae_jacobian jac;
  CHECK(mbdae_jacobian_create(&jac, p, MBDAE_JAC_CONDENSED, msg, sizeof msg) == 0, "%s", msg);
  CHECK(mbdae_jacobian_eval(&jac, p, 0.25, y, yp) == 0 &&
            mbdae_jacobian_eval(&jac, p, 0.3, y, yp) == 0,
        "evals before the wall");
  CHECK(jac.structures == 1 && jac.ninside == 2 && describes(&jac, "grow, t = 0.3"),
        "before: %lu structures, %d inside", jac.structures, jac.ninside);
  CHECK(mbdae_jacobian_eval(&jac, p, 0.75, y, yp) == 0, "eval after the wall");
  CHECK(jac.structures == 2 && jac.ninside == 3 && describes(&jac, "grow, t = 0.75"),
        "after: %lu structures, %d inside", jac.structures, jac.ninside);
  mbdae_jacobian_free(&jac);
  mbdae_problem_destroy(p);
}

int main(void)
{
  const char *ids[] = {"caraxis", "andrews", "crank", "pendulum", "dpendulum", "chain:n=3"};
  for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
    built_in(ids[k]);
  }
  growing_structure();
  return check_summary("test_jacobian_store");
}
