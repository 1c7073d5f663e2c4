/* Bad input to the run harness (mbdae_solve): every solver with an initial step far beyond the
 * interval (clamped: the run succeeds) and far below what any solver can take (refused with a
 * message that says so, not a solver failure with a wrong reason), and a repeat count that
 * overflowed an int. */
#include <limits.h>
#include <string.h>

#include "check.h"
#include "support.h"

/* h0 = 1e300 is the interval (or hmax): the run succeeds for every solver on every problem. */
static void huge_h0(const char *solver, const char *spec)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  double y[SUPPORT_MAX_N], yp[SUPPORT_MAX_N];
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  mbdae_options opt;
  test_options(p, plan.default_rtol, &opt);
  for (int with_hmax = 0; with_hmax < 2; with_hmax++) {
    opt.h0 = 1e300;
    opt.hmax = with_hmax ? 0.25 * (mbdae_problem_tend(p) - mbdae_problem_t0(p)) : 0.0;
    mbdae_result r;
    int rc = mbdae_solve(p, solver, &opt, 1, y, yp, &r);
    CHECK(rc == 0, "%s on %s, h0 = 1e300, hmax = %g: %s", solver, spec, opt.hmax, r.message);
  }
  mbdae_problem_destroy(p);
}

/* h0 = 1e-300 (or hmax = 1e-300) is refused before anything runs, saying why. */
static void tiny_step(const char *solver, const char *spec)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  double y[SUPPORT_MAX_N], yp[SUPPORT_MAX_N];
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  for (int which = 0; which < 2; which++) {
    opt.h0 = which ? 0.0 : 1e-300;
    opt.hmax = which ? 1e-300 : 0.0;
    mbdae_result r;
    int rc = mbdae_solve(p, solver, &opt, 1, y, yp, &r);
    CHECK(rc == MBDAE_ERR_ARG && r.status == MBDAE_ERR_ARG, "%s on %s, %s = 1e-300: %d %s", solver,
          spec, which ? "hmax" : "h0", rc, r.message);
    CHECK(strstr(r.message, which ? "hmax is below the smallest step"
                                  : "h0 is below the smallest step") != NULL,
          "%s on %s: message '%s'", solver, spec, r.message);
    CHECK(r.stats.steps == 0, "%s on %s: %ld steps", solver, spec, r.stats.steps);
  }
  /* just above the floor, 16 eps max(|t0|, |tend|), every solver runs every problem */
  opt.hmax = 0.0;
  opt.h0 = 16.0 * 2.3e-16 * mbdae_problem_tend(p);
  mbdae_result r;
  int rc = mbdae_solve(p, solver, &opt, 1, y, yp, &r);
  CHECK(rc == 0, "%s on %s, h0 = %g: %s", solver, spec, opt.h0, r.message);
  mbdae_problem_destroy(p);
}

/* y' = -y over [0, tend]: a user's problem (support.h's decay) with another interval.  The
 * instance keeps the type: one at a time. */
static mbdae_problem *decay_over(double tend)
{
  static const int index[1] = {0};
  static mbdae_problem_type decay;
  decay = (mbdae_problem_type){.size = sizeof(mbdae_problem_type),
                               .id = "decay",
                               .title = "y' = -y",
                               .neq = 1,
                               .t0 = 0,
                               .tend = tend,
                               .index = index,
                               .init = support_decay_init,
                               .res = support_decay_res};
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_from_type(&decay, NULL, &p, NULL, 0) == 0 && p, "decay over [0, %g]", tend);
  return p;
}

/* An interval too short for any step (issue 33, item 11): [0, 5e-324] and [0, 1e-160] are refused
 * before anything runs, saying so; [0, 1e-150] runs.  chain:n=2,tend=1e-160 failed in radau5,
 * radau, bdf and ida with the solvers' own reasons. */
static void tiny_interval(const char *solver)
{
  static const double tends[] = {5e-324, 1e-300, 1e-160, 1e-150};
  for (size_t k = 0; k < sizeof tends / sizeof tends[0]; k++) {
    mbdae_problem *p = decay_over(tends[k]);
    if (!p) {
      return;
    }
    double y[1], yp[1];
    mbdae_options opt;
    mbdae_options_default(&opt);
    mbdae_result r;
    int rc = mbdae_solve(p, solver, &opt, 1, y, yp, &r), refused = tends[k] < 1e-154;
    CHECK(refused ? rc == MBDAE_ERR_ARG && strstr(r.message, "is too short") &&
                        r.stats.steps == 0 && r.stats.nres == 0
                  : rc == 0,
          "%s over [0, %g]: %d, %ld steps, '%s'", solver, tends[k], rc, r.stats.steps, r.message);
    mbdae_problem_destroy(p);
  }
  mbdae_problem *p = create_problem("chain:n=2,tend=1e-160");
  if (p) {
    double y[SUPPORT_MAX_N], yp[SUPPORT_MAX_N];
    mbdae_options opt;
    test_options(p, 1e-6, &opt);
    mbdae_result r;
    int rc = mbdae_solve(p, solver, &opt, 1, y, yp, &r);
    CHECK(rc == MBDAE_ERR_ARG && strstr(r.message, "is too short"), "%s on %s: %d '%s'", solver,
          mbdae_problem_spec(p), rc, r.message);
    mbdae_problem_destroy(p);
  }
}

static void repeats_out_of_range(void)
{
  mbdae_problem *p = create_problem("pendulum");
  if (!p) {
    return;
  }
  double y[SUPPORT_MAX_N], yp[SUPPORT_MAX_N];
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  static const int bad[] = {INT_MAX, MBDAE_REPEATS_MAX + 1, 0, -1, INT_MIN};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    mbdae_result r;
    int rc = mbdae_solve(p, "bdf", &opt, bad[k], y, yp, &r);
    CHECK(rc == MBDAE_ERR_ARG, "repeats = %d gave %d: %s", bad[k], rc, r.message);
    CHECK(strstr(r.message, "repeats") != NULL, "repeats = %d: message '%s'", bad[k], r.message);
  }
  mbdae_result r;
  CHECK(mbdae_solve(p, "bdf", &opt, 3, y, yp, &r) == 0 && r.repeats == 3, "3 repeats: %s",
        r.message);
  mbdae_problem_destroy(p);
}

int main(void)
{
  for (int s = 0; s < mbdae_solver_count(); s++) {
    if (strcmp(mbdae_solver_id(s), "spm") == 0) { /* index-1 forms of the pendulums only */
      huge_h0("spm", "pendulum:form=index1");
      tiny_step("spm", "dpendulum:form=index1");
      continue;
    }
    tiny_interval(mbdae_solver_id(s));
    for (int i = 0; i < mbdae_problem_count(); i++) {
      huge_h0(mbdae_solver_id(s), mbdae_problem_id(i));
      tiny_step(mbdae_solver_id(s), mbdae_problem_id(i));
    }
  }
  repeats_out_of_range();
  return check_summary("test_input");
}
