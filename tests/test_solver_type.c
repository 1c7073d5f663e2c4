/* The public solver interface: built-in solvers as mbdae_solver_type values, mbdae_solve_with
 * running any type through the same harness as mbdae_solve, a user's solver (the example plug-in
 * tests/plugin/euler.c, linked in) on a built-in problem, and the harness keeping a misbehaving
 * solver's result inside the contract. */
#include <string.h>

#include "support.h"

extern const mbdae_solver_type euler_solver; /* tests/plugin/euler.c */

static void builtin_types(void)
{
  CHECK(mbdae_solver_count() == 6, "six built-in solvers");
  for (int i = 0; i < mbdae_solver_count(); i++) {
    const mbdae_solver_type *s = mbdae_solver_get(i);
    CHECK(s && mbdae_solver_find(s->id) == s && strcmp(mbdae_solver_id(i), s->id) == 0,
          "solver %d found by its id", i);
    CHECK(s && mbdae_solver_type_invalid(s) == NULL, "built-in solver %d is a valid type", i);
  }
  CHECK(mbdae_solver_get(6) == NULL && mbdae_solver_get(-1) == NULL, "get out of range is NULL");
  CHECK(mbdae_solver_find("radau13") == NULL && mbdae_solver_find(NULL) == NULL, "unknown: NULL");
}

static void same_as_by_name(const mbdae_problem *p)
{
  mbdae_options opt;
  test_options(p, 1e-6, &opt);
  for (int i = 0; i < mbdae_solver_count(); i++) {
    double y1[10], y2[10];
    mbdae_result r1, r2;
    if (strcmp(mbdae_solver_id(i), "spm") == 0) {
      continue; /* index-1 forms only: test_spm */
    }
    mbdae_solve(p, mbdae_solver_id(i), &opt, 1, y1, NULL, &r1);
    mbdae_solve_with(p, mbdae_solver_get(i), &opt, 1, y2, NULL, &r2);
    CHECK(r1.status == 0 && memcmp(y1, y2, sizeof y1) == 0 &&
              memcmp(&r1.stats, &r2.stats, sizeof r1.stats) == 0,
          "%s: by name = by type", mbdae_solver_id(i));
  }
}

/* scd of the example solver at rtol, with its counters in r. */
static double euler_scd(const mbdae_problem *p, double rtol, mbdae_options *opt, mbdae_result *r)
{
  double y[10], yref[10];
  test_options(p, rtol, opt);
  int rc = mbdae_solve_with(p, &euler_solver, opt, 3, y, NULL, r);
  CHECK(rc == 0 && r->repeats == 3, "euler on caraxis at %g: %s", rtol, r->message);
  mbdae_problem_ref(p, yref);
  return mbdae_scd(p, y, yref);
}

static void user_solver(const mbdae_problem *p)
{
  mbdae_options opt;
  mbdae_result r;
  double scd4 = euler_scd(p, 1e-4, &opt, &r);
  CHECK(r.stats.steps == 1000 && r.stats.accepted == 1000 && r.stats.njac == 1000,
        "euler's counters reach the harness: %ld steps", r.stats.steps);
  double scd6 = euler_scd(p, 1e-6, &opt, &r);
  /* the car axis' fast spring modes are damped by implicit Euler until h resolves them: the gain
   * from 10 times the steps is small (measured -0.61 -> -0.44), but it must be a gain */
  CHECK(scd6 > scd4 + 0.1, "more steps, more digits (scd %.2f -> %.2f)", scd4, scd6);
  double y[10], tout[2] = {0.0, 1.5}, yout[20];
  test_options(p, 1e-4, &opt);
  opt.tout = tout, opt.ntout = 2, opt.yout = yout;
  mbdae_solve_with(p, &euler_solver, &opt, 1, y, NULL, &r);
  CHECK(yout[0] == 0.0 && yout[1] == 0.5 && yout[10] != 0.0,
        "output at tout from the user's solver");
  opt.ntout = 0, opt.max_steps = 5;
  int rc = mbdae_solve_with(p, &euler_solver, &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_MAX_STEPS && r.stats.steps == 5 && strstr(r.message, "t = "),
        "euler with max_steps 5: %d, %ld steps, '%s'", rc, r.stats.steps, r.message);
}

static int positive_status(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                           mbdae_result *r)
{
  (void)p, (void)opt, (void)y, (void)yp;
  memset(r->message, 'x', sizeof r->message); /* not NUL-terminated */
  r->status = 3;
  return 3;
}

static void misbehaving(const mbdae_problem *p)
{
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  double y[10];
  mbdae_result r;
  mbdae_solver_type bad = {sizeof(mbdae_solver_type), "bad", "returns a positive status",
                           positive_status,           NULL,  NULL};
  int rc = mbdae_solve_with(p, &bad, &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_SOLVER && strstr(r.message, "outside the contract"),
        "a positive status is MBDAE_ERR_SOLVER: %d '%s'", rc, r.message);
  const char *ids[] = {"", "a b", "x\";system(1)", NULL};
  for (int k = 0; k < 4; k++) {
    mbdae_solver_type t = {sizeof(mbdae_solver_type), ids[k], "title", positive_status, NULL, NULL};
    rc = mbdae_solve_with(p, &t, &opt, 1, y, NULL, &r);
    CHECK(rc == MBDAE_ERR_ARG && strstr(r.message, "[A-Za-z0-9_-]"), "id '%s' refused: %s",
          ids[k] ? ids[k] : "(null)", r.message);
  }
  mbdae_solver_type no_fn = {sizeof(mbdae_solver_type), "nofn", "title", NULL, NULL, NULL};
  CHECK(mbdae_solve_with(p, &no_fn, &opt, 1, y, NULL, &r) == MBDAE_ERR_ARG, "no integrate refused");
  CHECK(mbdae_solve_with(p, NULL, &opt, 1, y, NULL, &r) == MBDAE_ERR_ARG, "NULL type refused");
  CHECK(mbdae_solve(p, "radau13", &opt, 1, y, NULL, &r) == MBDAE_ERR_UNKNOWN_SOLVER &&
            strstr(r.message, "ida, radau5, radau, bdf"),
        "unknown name lists the valid ones: %s", r.message);
}

int main(void)
{
  mbdae_problem *p = create_problem("caraxis");
  if (!p) {
    return 1;
  }
  builtin_types();
  same_as_by_name(p);
  user_solver(p);
  misbehaving(p);
  mbdae_problem_destroy(p);
  return check_summary("test_solver_type");
}
