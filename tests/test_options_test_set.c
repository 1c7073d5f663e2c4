/* The test set's run policy in the library (mbdae_options_test_set): rtol = atol, h0 = h0_factor
 * rtol from each problem's tolerance plan (the slider crank's 1e-2, the others' 1), rtol 0 the
 * problem's run tolerance, only rtol, atol and h0 set; bad input refused with opt untouched. */
#include <string.h>

#include "support.h"

static void check_policy(const char *spec, double h0_factor)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  CHECK(plan.h0_factor == h0_factor, "%s: h0_factor %g", spec, plan.h0_factor);
  for (int k = 0; k <= plan.ntable; k++) { /* the table tolerances, then 0: the run tolerance */
    double rtol = k < plan.ntable ? plan.table_rtol[k] : 0.0;
    double want = k < plan.ntable ? rtol : plan.default_rtol;
    mbdae_options opt;
    mbdae_options_default(&opt);
    opt.max_steps = 7;
    opt.hmax = 0.5;
    int rc = mbdae_options_test_set(p, rtol, &opt);
    CHECK(rc == 0 && opt.rtol == want && opt.atol == want && opt.h0 == h0_factor * want,
          "%s at %g: rc %d, rtol %g atol %g h0 %g", spec, rtol, rc, opt.rtol, opt.atol, opt.h0);
    CHECK(opt.max_steps == 7 && opt.hmax == 0.5 && opt.size == sizeof opt,
          "%s: only rtol, atol and h0 are set", spec);
  }
  mbdae_problem_destroy(p);
}

static void check_refusals(void)
{
  mbdae_problem *p = create_problem("caraxis");
  const double bad[] = {-1e-6, 1.0, 2.0, INFINITY, -INFINITY, NAN};
  mbdae_options opt, before;
  mbdae_options_default(&opt);
  before = opt;
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    CHECK(mbdae_options_test_set(p, bad[k], &opt) == MBDAE_ERR_ARG, "rtol %g refused", bad[k]);
  }
  CHECK(memcmp(&opt, &before, sizeof opt) == 0, "a refusal leaves opt untouched");
  CHECK(mbdae_options_test_set(NULL, 1e-6, &opt) == MBDAE_ERR_ARG, "no problem");
  CHECK(mbdae_options_test_set(p, 1e-6, NULL) == MBDAE_ERR_ARG, "no options");
  opt.size = 0; /* not made by mbdae_options_default */
  CHECK(mbdae_options_test_set(p, 1e-6, &opt) == MBDAE_ERR_ARG, "size 0 refused");
  opt.size = offsetof(mbdae_options, h0); /* too short to hold h0 */
  CHECK(mbdae_options_test_set(p, 1e-6, &opt) == MBDAE_ERR_ARG, "size without h0 refused");
  mbdae_problem_destroy(p);
}

int main(void)
{
  check_policy("caraxis", 1.0);
  check_policy("crank", 1e-2);
  check_policy("andrews", 1.0);
  check_refusals();
  return check_summary("test_options_test_set");
}
