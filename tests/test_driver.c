/* test_driver: the bookkeeping the built-in solvers share (solvers/driver.c) means the same for
 * every solver (ida, radau5, bdf):
 *
 * - max_steps = 5 gives exactly 5 attempted steps (rejected ones included) and
 *   MBDAE_ERR_MAX_STEPS, and the failure message starts with "t = " (the driver's format
 *   "t = ..., h = ...: reason"); the same limit at 1 and 40;
 * - on_step is called once per accepted step (count = stats.accepted) and at increasing times
 *   ending at tend, on several problems;
 * - output at requested times: every tout is filled (yout starts as NaN), output at tout = t0 is
 *   the initial value, output at tout = tend equals y(tend) bit for bit, repeated times give
 *   repeated values;
 * - counters add up: accepted + nerrfail + nconvfail <= steps.
 * The radau5 step count with max_steps = 5 was 6 before the shared driver (counted, then
 * checked). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"
#include "mbdae/mbdae.h"

enum { NMAX = 32, NTOUT = 8 };

static const char *const SOLVERS[] = {"ida", "radau5", "bdf"};
enum { NSOLVERS = (int)(sizeof SOLVERS / sizeof SOLVERS[0]) };

/* Observer state: calls, and whether the times increase and end at tend. */
typedef struct observer {
  long calls;
  double last_t;
  int monotone;
} observer;

static void observe(void *ctx, double t, double h, int order)
{
  observer *o = ctx;
  (void)order;
  if (!(t > o->last_t) || !(h > 0.0)) {
    o->monotone = 0;
  }
  o->last_t = t;
  o->calls++;
}

static void test_max_steps(const char *solver, long limit)
{
  mbdae_problem *p = create_problem("caraxis");
  double y[NMAX];
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  opt.max_steps = limit;
  mbdae_result r;
  int rc = mbdae_solve(p, solver, &opt, 1, y, NULL, &r);
  printf("%-7s max_steps %3ld: status %d, steps %ld, accepted %ld, \"%s\"\n", solver, limit, rc,
         r.stats.steps, r.stats.accepted, r.message);
  CHECK(rc == MBDAE_ERR_MAX_STEPS, "%s max_steps %ld: status %d (%s)", solver, limit, rc,
        r.message);
  CHECK(r.stats.steps == limit, "%s max_steps %ld: %ld attempted steps", solver, limit,
        r.stats.steps);
  CHECK(strncmp(r.message, "t = ", 4) == 0 && strstr(r.message, ", h = "),
        "%s: message \"%s\" does not start with \"t = ..., h = \"", solver, r.message);
  CHECK(r.t > mbdae_problem_t0(p) && r.t < mbdae_problem_tend(p), "%s: failed at t = %g", solver,
        r.t);
  mbdae_problem_destroy(p);
}

/* A run with output times t0, t0, three inside, tend, tend (and the observer). */
static void test_outputs(const char *solver, const char *spec)
{
  mbdae_problem *p = create_problem(spec);
  int n = mbdae_problem_neq(p);
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  double tout[NTOUT] = {t0,
                        t0,
                        t0 + 0.25 * (tend - t0),
                        t0 + 0.5 * (tend - t0),
                        t0 + 0.5 * (tend - t0),
                        t0 + 0.75 * (tend - t0),
                        tend,
                        tend};
  double yout[NTOUT * NMAX], y[NMAX], y0[NMAX], yp0[NMAX];
  for (int k = 0; k < NTOUT * NMAX; k++) {
    yout[k] = NAN;
  }
  mbdae_problem_init(p, y0, yp0);
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  opt.tout = tout;
  opt.ntout = NTOUT;
  opt.yout = yout;
  observer o = {0, t0, 1};
  opt.on_step = observe;
  opt.on_step_ctx = &o;
  mbdae_result r;
  int rc = mbdae_solve(p, solver, &opt, 1, y, NULL, &r);
  CHECK(rc == 0, "%s %s: %s", solver, spec, r.message);
  CHECK(o.calls == r.stats.accepted, "%s %s: on_step called %ld times for %ld accepted steps",
        solver, spec, o.calls, r.stats.accepted);
  CHECK(o.monotone && o.last_t == tend, "%s %s: on_step times (last %.17g, tend %.17g)", solver,
        spec, o.last_t, tend);
  const mbdae_stats *st = &r.stats;
  CHECK(st->accepted + st->nerrfail + st->nconvfail <= st->steps && st->accepted > 0,
        "%s %s: counters steps %ld accepted %ld nerrfail %ld nconvfail %ld", solver, spec,
        st->steps, st->accepted, st->nerrfail, st->nconvfail);
  int filled = 1, at_t0 = 1, at_tend = 1, repeated = 1;
  for (int k = 0; k < NTOUT; k++) {
    for (int i = 0; i < n; i++) {
      double v = yout[k * n + i];
      filled &= isfinite(v);
      at_t0 &= k > 1 || memcmp(&v, &y0[i], sizeof v) == 0;
      at_tend &= k < NTOUT - 2 || memcmp(&v, &y[i], sizeof v) == 0;
    }
  }
  repeated = memcmp(yout + 3 * n, yout + 4 * n, sizeof(double) * (size_t)n) == 0;
  CHECK(filled, "%s %s: some output not filled", solver, spec);
  CHECK(at_t0, "%s %s: output at t0 is not y0", solver, spec);
  CHECK(at_tend, "%s %s: output at tend is not y(tend)", solver, spec);
  CHECK(repeated, "%s %s: repeated output time, different values", solver, spec);
  printf("%-7s %-10s: %ld steps, %ld accepted, on_step %ld, outputs ok %d\n", solver, spec,
         st->steps, st->accepted, o.calls, filled && at_t0 && at_tend && repeated);
  mbdae_problem_destroy(p);
}

int main(void)
{
  const char *specs[] = {"caraxis", "andrews", "crank", "pendulum", "dpendulum"};
  for (int s = 0; s < NSOLVERS; s++) {
    test_max_steps(SOLVERS[s], 5);
    test_max_steps(SOLVERS[s], 1);
    test_max_steps(SOLVERS[s], 40);
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
      test_outputs(SOLVERS[s], specs[k]);
    }
  }
  return check_summary("test_driver");
}
