/* The drift is measured outside the timed runs (src/harness/solve.c): with no observer, callback or
 * output of the caller's, mbdae_solve_with times `repeats` runs without its drift observer and
 * observes one more, untimed, whose result it reports; with one of the caller's (here on_step),
 * every timed run observes, so the caller's callback sees exactly `repeats` runs.  A problem
 * without constraints (a user's y' = -y) gets no extra run.
 *
 * A spy solver type counts its integrations and those that had an on_accept, and passes them on
 * to radau5. */
#include <string.h>

#include "check.h"
#include "support.h"

typedef struct spy_log {
  int runs, observed;
} spy_log;

static spy_log spy; /* the spy's counts (a test's own state, reset before each case) */

static int spy_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                         mbdae_result *r)
{
  spy.runs++;
  spy.observed += opt->on_accept != NULL;
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static const mbdae_solver_type spy_solver = {
    sizeof(mbdae_solver_type), "spy", "radau5, counted", spy_integrate, NULL, NULL};

static void count_step(void *ctx, double t, double h, int order)
{
  (void)t, (void)h, (void)order;
  ++*(long *)ctx;
}

/* spec ("decay": support.h's create_decay_problem) run `repeats` times with the spy; on_step
 * counted into *steps when steps is not NULL. */
static int run_spy(const char *spec, int repeats, long *steps, double *y, mbdae_result *r)
{
  mbdae_problem *p = strcmp(spec, "decay") == 0 ? create_decay_problem() : create_problem(spec);
  if (!p) {
    return -1;
  }
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  if (steps) {
    opt.on_step = count_step;
    opt.on_step_ctx = steps;
  }
  memset(&spy, 0, sizeof spy);
  int rc = mbdae_solve_with(p, &spy_solver, &opt, repeats, y, NULL, r);
  mbdae_problem_destroy(p);
  return rc;
}

int main(void)
{
  double y[SUPPORT_MAX_N], y_observed[SUPPORT_MAX_N];
  mbdae_result r, ref;
  CHECK(run_spy("pendulum", 3, NULL, y_observed, &r) == 0, "pendulum: %s", r.message);
  CHECK(spy.runs == 4 && spy.observed == 1,
        "no callbacks of the caller's, 3 repeats: %d integrations, %d observed; expected 4, 1 "
        "(3 timed without the drift observer, then the untimed drift run)",
        spy.runs, spy.observed);
  CHECK(r.repeats == 3 && r.drift_steps == r.stats.accepted && r.drift_steps > 0,
        "repeats %d (expected 3), drift over %ld states, accepted %ld", r.repeats, r.drift_steps,
        r.stats.accepted);

  long steps = 0;
  CHECK(run_spy("pendulum", 3, &steps, y, &ref) == 0, "pendulum with on_step: %s", ref.message);
  CHECK(spy.runs == 3 && spy.observed == 3,
        "the caller's on_step, 3 repeats: %d integrations, %d observed; expected 3, 3", spy.runs,
        spy.observed);
  CHECK(steps == 3 * ref.stats.accepted, "the caller's on_step saw %ld steps, expected 3 x %ld",
        steps, ref.stats.accepted);
  CHECK(memcmp(y, y_observed, sizeof(double) * 5) == 0 && ref.drift_pos_max == r.drift_pos_max &&
            ref.drift_vel_max == r.drift_vel_max && ref.drift_steps == r.drift_steps,
        "the drift run apart and the drift inside the timed runs differ: |g| %.17g / %.17g, "
        "|g'| %.17g / %.17g",
        r.drift_pos_max, ref.drift_pos_max, r.drift_vel_max, ref.drift_vel_max);

  CHECK(run_spy("decay", 2, NULL, y, &r) == 0, "decay: %s", r.message);
  CHECK(spy.runs == 2 && spy.observed == 0,
        "no constraints, 2 repeats: %d integrations, %d observed; expected 2, 0", spy.runs,
        spy.observed);
  return check_summary("test_drift_untimed");
}
