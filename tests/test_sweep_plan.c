/* The library's sweep plan (mbdae_sweep_plan), which the command's sweep and Python's mbdae.sweep
 * take their runs from: the runs listed in the order problem, solver, tolerance with the test
 * set's options (mbdae_options_test_set) and the settings' overrides; the resume matching of a
 * record to its planned run (spec, solver, rtol, atol, h0; max_steps, hmax, an ok row's repeats);
 * bad settings refused with a message. */
#include <string.h>

#include "support.h"

static const char *const solvers[] = {"radau5", "bdf"};

static mbdae_sweep_plan *plan_of(const mbdae_problem *const *p, int np,
                                 const mbdae_sweep_settings *set)
{
  mbdae_sweep_plan *plan = NULL;
  char msg[256] = "";
  int rc = mbdae_sweep_plan_create(p, np, solvers, 2, set, &plan, msg, sizeof msg);
  CHECK(rc == 0 && plan, "plan: %d %s", rc, msg);
  return plan;
}

/* Run k is problem i, solver s at rtol with the test set's options of p (atol, h0 when > 0). */
static void expect_run(const mbdae_sweep_plan *plan, int k, const mbdae_problem *p, int i, int s,
                       double rtol, double atol, double h0)
{
  mbdae_options want, got;
  mbdae_options_default(&want);
  mbdae_options_test_set(p, rtol, &want);
  want.atol = atol > 0.0 ? atol : want.atol;
  want.h0 = h0 > 0.0 ? h0 : want.h0;
  mbdae_options_default(&got);
  int gi = -1, gs = -1;
  int rc = mbdae_sweep_plan_run(plan, k, &gi, &gs, &got);
  CHECK(rc == 0 && gi == i && gs == s && got.rtol == want.rtol && got.atol == want.atol &&
            got.h0 == want.h0 && got.max_steps == 7,
        "run %d: rc %d, problem %d solver %d rtol %g atol %g h0 %g", k, rc, gi, gs, got.rtol,
        got.atol, got.h0);
}

static void check_runs(const mbdae_problem *const *p)
{
  mbdae_sweep_settings set;
  mbdae_sweep_settings_default(&set);
  set.max_steps = 7;
  mbdae_sweep_plan *plan = plan_of(p, 2, &set); /* caraxis, crank: m = 0..24 each */
  CHECK(mbdae_sweep_plan_count(plan) == 2 * 2 * 25, "runs: %d", mbdae_sweep_plan_count(plan));
  expect_run(plan, 0, p[0], 0, 0, 1e-4, 0, 0);
  expect_run(plan, 24, p[0], 0, 0, pow(10.0, -(4.0 + 24.0 / 4)), 0, 0);
  expect_run(plan, 25, p[0], 0, 1, 1e-4, 0, 0);
  expect_run(plan, 50 + 25 + 3, p[1], 1, 1, pow(10.0, -(4.0 + 3.0 / 4)), 0, 0); /* h0 1e-2 rtol */
  mbdae_options opt;
  mbdae_options_default(&opt);
  CHECK(mbdae_sweep_plan_run(plan, 100, NULL, NULL, &opt) == MBDAE_ERR_ARG, "k out of range");
  mbdae_sweep_plan_free(plan);
  const double rtols[] = {1e-3, 1e-6};
  set.rtols = rtols;
  set.nrtols = 2;
  set.atol = 1e-9;
  set.h0 = 1e-5;
  plan = plan_of(p, 2, &set);
  CHECK(mbdae_sweep_plan_count(plan) == 8, "a list: %d runs", mbdae_sweep_plan_count(plan));
  expect_run(plan, 7, p[1], 1, 1, 1e-6, 1e-9, 1e-5);
  mbdae_sweep_plan_free(plan);
  set.nrtols = 0;
  set.m_lo = 2;
  set.m_hi = 4;
  plan = plan_of(p, 1, &set);
  CHECK(mbdae_sweep_plan_count(plan) == 6, "m 2..4: %d runs", mbdae_sweep_plan_count(plan));
  expect_run(plan, 3, p[0], 0, 1, pow(10.0, -(4.0 + 2.0 / 4)), 1e-9, 1e-5);
  mbdae_sweep_plan_free(plan);
}

/* Resume: a record of run k matches k, unless it is done, outside the slice, or made with other
 * options. */
static void check_match(const mbdae_problem *const *p)
{
  mbdae_sweep_settings set;
  mbdae_sweep_settings_default(&set);
  set.repeats = 3;
  mbdae_sweep_plan *plan = plan_of(p, 2, &set);
  int n = mbdae_sweep_plan_count(plan), k = 80; /* crank, bdf, m = 5 */
  mbdae_options opt;
  mbdae_options_default(&opt);
  mbdae_sweep_plan_run(plan, k, NULL, NULL, &opt);
  mbdae_record rec = MBDAE_RECORD_INIT;
  CHECK(mbdae_record_init(&rec, p[1], mbdae_solver_find("bdf"), &opt) == 0, "record");
  char done[100] = {0}, why[128] = "";
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) == k && !why[0],
        "a failed row of run %d (repeats 0 there): %s", k, why);
  CHECK(mbdae_sweep_plan_match(plan, 70, 90, done + 70, &rec, why, sizeof why) == k, "a slice");
  CHECK(mbdae_sweep_plan_match(plan, 0, k, done, &rec, why, sizeof why) == -1, "not in the slice");
  rec.size = 8; /* a record the library cannot read */
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) == -1 && why[0],
        "a record of size 8 refused: '%s'", why);
  rec.size = sizeof rec;
  done[k] = 1;
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) == -1, "done already");
  done[k] = 0;
  rec.status = MBDAE_OK;
  rec.repeats = 1;
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) == -1 &&
            strcmp(why, "repeats 1 there, 3 here") == 0,
        "an ok row's repeats: '%s'", why);
  rec.repeats = 3;
  rec.max_steps = 5;
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) == -1 &&
            strcmp(why, "max_steps 5 there, 0 here") == 0,
        "max_steps: '%s'", why);
  rec.max_steps = 0;
  rec.hmax = 0.5;
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) == -1 &&
            strstr(why, "hmax"),
        "hmax: '%s'", why);
  rec.hmax = 0.0;
  rec.h0 *= 1.0 + 1e-6; /* beyond 10 significant digits: another run */
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) == -1 && !why[0], "h0");
  rec.h0 = opt.h0 * (1.0 + 1e-13); /* within them: the same run, as a record file holds it */
  CHECK(mbdae_sweep_plan_match(plan, 0, n, NULL, &rec, NULL, 0) == k, "h0 to 10 digits");
  snprintf(rec.solver, sizeof rec.solver, "radau5");
  CHECK(mbdae_sweep_plan_match(plan, 0, n, done, &rec, why, sizeof why) != k, "another solver");
  mbdae_record_free(&rec);
  mbdae_sweep_plan_free(plan);
}

static void check_refusals(const mbdae_problem *const *p)
{
  mbdae_sweep_settings set;
  mbdae_sweep_settings_default(&set);
  mbdae_sweep_plan *plan = (mbdae_sweep_plan *)&set;
  char msg[256];
  const double bad[] = {1e-4, 1.5};
  set.rtols = bad;
  set.nrtols = 2;
  CHECK(mbdae_sweep_plan_create(p, 2, solvers, 2, &set, &plan, msg, sizeof msg) == MBDAE_ERR_ARG &&
            !plan && strstr(msg, "rtol must be below 1"),
        "rtol 1.5: %s", msg);
  set.nrtols = 0;
  set.m_lo = 3;
  set.m_hi = 2;
  CHECK(mbdae_sweep_plan_create(p, 2, solvers, 2, &set, &plan, msg, sizeof msg) == MBDAE_ERR_ARG,
        "m 3..2");
  set.m_hi = -1;
  set.size = 0;
  CHECK(mbdae_sweep_plan_create(p, 2, solvers, 2, &set, &plan, msg, sizeof msg) == MBDAE_ERR_ARG &&
            strstr(msg, "mbdae_sweep_settings_default"),
        "size 0: %s", msg);
  mbdae_sweep_settings_default(&set);
  CHECK(mbdae_sweep_plan_create(p, 0, solvers, 2, &set, &plan, msg, sizeof msg) == MBDAE_ERR_ARG,
        "no problems");
  CHECK(mbdae_sweep_plan_create(p, 2, solvers, 0, &set, &plan, msg, sizeof msg) == MBDAE_ERR_ARG,
        "no solvers");
  set.repeats = 0;
  CHECK(mbdae_sweep_plan_create(p, 2, solvers, 2, &set, &plan, msg, sizeof msg) == MBDAE_ERR_ARG,
        "repeats 0");
}

int main(void)
{
  mbdae_problem *p[2] = {create_problem("caraxis"), create_problem("crank")};
  if (p[0] && p[1]) {
    const mbdae_problem *const *cp = (const mbdae_problem *const *)p;
    check_runs(cp);
    check_match(cp);
    check_refusals(cp);
  }
  mbdae_problem_destroy(p[0]);
  mbdae_problem_destroy(p[1]);
  return check_summary("test_sweep_plan");
}
