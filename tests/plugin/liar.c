/* Plug-in solvers that report what cannot be, for tests/test_plugin_report.c: each runs the
 * built-in radau5, then spoils its report while keeping status 0 (success):
 *   nan_state   y_1 = NaN at the end
 *   nan_drift   a NaN state passed to on_accept at the first accepted step (y at the end finite)
 *   neg_steps   stats.steps = -3
 *   huge_nres   stats.nres = 2e18 (beyond what runs.csv holds)
 * The harness (mbdae_solve_with) must turn each into a failed run that says why. */
#include <math.h>
#include <stddef.h>

#include <mbdae/mbdae.h>

static int radau5(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                  mbdae_result *r)
{
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static int nan_state(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                     mbdae_result *r)
{
  int rc = radau5(p, opt, y, yp, r);
  y[0] = NAN;
  return rc;
}

/* on_accept sees y with a NaN in it once, as a solver that lost its state would pass it. */
typedef struct spoiler {
  const mbdae_options *opt;
  int neq, done;
  double buf[64];
} spoiler;

static void spoil_once(void *ctx, double t, const double *y, const double *yp)
{
  spoiler *s = ctx;
  if (!s->done && s->neq <= 64) {
    for (int i = 0; i < s->neq; i++) {
      s->buf[i] = i == 0 ? NAN : y[i];
    }
    s->done = 1;
    y = s->buf;
  }
  if (s->opt->on_accept) {
    s->opt->on_accept(s->opt->on_accept_ctx, t, y, yp);
  }
}

static int nan_drift(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                     mbdae_result *r)
{
  spoiler s = {.opt = opt, .neq = mbdae_problem_neq(p)};
  mbdae_options o = *opt;
  o.on_accept = spoil_once;
  o.on_accept_ctx = &s;
  return radau5(p, &o, y, yp, r);
}

static int neg_steps(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                     mbdae_result *r)
{
  int rc = radau5(p, opt, y, yp, r);
  r->stats.steps = -3;
  return rc;
}

static int huge_nres(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                     mbdae_result *r)
{
  int rc = radau5(p, opt, y, yp, r);
  r->stats.nres = 2000000000000000000L;
  return rc;
}

#define LIAR(name)                                                                                 \
  {                                                                                                \
    .size = sizeof(mbdae_solver_type), .id = #name,                                                \
    .title = "radau5 with a spoiled report (test plug-in)", .integrate = name                      \
  }
static const mbdae_solver_type liars[] = {LIAR(nan_state), LIAR(nan_drift), LIAR(neg_steps),
                                          LIAR(huge_nres)};
static const mbdae_solver_type *const solvers[] = {&liars[0], &liars[1], &liars[2], &liars[3]};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 4;
}
