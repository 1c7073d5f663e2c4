/* A public API that can grow without breaking its callers (include/mbdae/solve.h, problem.h):
 * mbdae_options, mbdae_solver_type and mbdae_problem_type begin with their size, which the
 * library checks (0, too small and larger than its own refused with a message, before anything
 * runs); mbdae_stats and mbdae_result keep reserved room, zero after a run, at a pinned size. */
#include <stddef.h>
#include <string.h>

#include "support.h"

/* Options in a buffer with room beyond the struct, as a caller built against a newer header. */
typedef struct {
  mbdae_options opt;
  double newer_fields[4];
} newer_options;

static void options_size(const mbdae_problem *p)
{
  mbdae_options opt;
  memset(&opt, 0xff, sizeof opt);
  mbdae_options_default(&opt);
  CHECK(opt.size == sizeof opt && opt.rtol == 1e-6 && opt.on_step == NULL, "defaults with size");
  CHECK(offsetof(mbdae_options, size) == 0, "size is the first field");

  double y[10];
  mbdae_result r;
  mbdae_options bad = opt;
  bad.size = 0; /* options not made by mbdae_options_default */
  int rc = mbdae_solve(p, "radau5", &bad, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_ARG && r.repeats == 0 && strstr(r.message, "mbdae_options_default"),
        "size 0 refused: %d '%s'", rc, r.message);
  bad.size = sizeof bad - sizeof(void *);
  rc = mbdae_solve(p, "radau5", &bad, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_ARG && r.repeats == 0 && strstr(r.message, "smaller"),
        "a size below the first sized struct refused: %d '%s'", rc, r.message);
  newer_options newer;
  mbdae_options_default(&newer.opt);
  newer.opt.size = sizeof newer;
  rc = mbdae_solve(p, "radau5", &newer.opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_ARG && r.repeats == 0 && strstr(r.message, "newer mbdae.h"),
        "a larger size refused: %d '%s'", rc, r.message);
  int switches = 0;
  rc = mbdae_solve_dummy(p, mbdae_solver_find("radau5"), 0.0, &newer.opt, y, y, &r, &switches);
  CHECK(rc == MBDAE_ERR_ARG && strstr(r.message, "newer mbdae.h"), "mbdae_solve_dummy: '%s'",
        r.message);
  mbdae_record rec;
  rc = mbdae_record_run(&rec, p, mbdae_solver_find("radau5"), &newer.opt, 1);
  CHECK(rc == MBDAE_ERR_ARG, "mbdae_record_run refuses a larger size: %d", rc);
  mbdae_record_free(&rec);

  rc = mbdae_solve(p, "radau5", &opt, 1, y, NULL, &r);
  CHECK(rc == 0 && r.repeats == 1, "the default options run: '%s'", r.message);
}

/* Every built-in solver leaves the reserved room zero; the sizes of the structs a caller
 * allocates and the harness fills are pinned (LP64): a new counter or result field takes reserved
 * entries instead of growing them. */
static void reserved_room(const mbdae_problem *p)
{
  CHECK(sizeof(mbdae_stats) == 16 * sizeof(long) &&
            offsetof(mbdae_stats, reserved) == 8 * sizeof(long),
        "mbdae_stats: 8 counters and 8 reserved");
  CHECK(offsetof(mbdae_result, reserved) + sizeof(double[5]) == sizeof(mbdae_result) &&
            offsetof(mbdae_result, tscd) + sizeof(double[8]) == sizeof(mbdae_result),
        "mbdae_result ends with tscd, tmescd, tscd_rms and its reserved room, 8 entries");
  if (sizeof(long) == 8 && sizeof(void *) == 8) {
    CHECK(sizeof(mbdae_result) == 608, "sizeof(mbdae_result) %zu", sizeof(mbdae_result));
  }
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  for (int i = 0; i < mbdae_solver_count(); i++) {
    double y[10];
    mbdae_result r;
    memset(&r, 0xff, sizeof r);
    mbdae_solve(p, mbdae_solver_id(i), &opt, 1, y, NULL, &r);
    static const long zero_counters[8] = {0};
    static const double zero_fields[5] = {0};
    CHECK(memcmp(r.stats.reserved, zero_counters, sizeof zero_counters) == 0 &&
              memcmp(r.reserved, zero_fields, sizeof zero_fields) == 0,
          "%s: reserved room zero", mbdae_solver_id(i));
  }
}

static int copy_radau5(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                       mbdae_result *r)
{
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static void solver_type_size(const mbdae_problem *p)
{
  CHECK(offsetof(mbdae_solver_type, size) == 0, "size is the first field");
  mbdae_solver_type t = {.size = sizeof t, .id = "copy", .title = "t", .integrate = copy_radau5};
  CHECK(mbdae_solver_type_invalid(&t) == NULL, "a type with its size is valid");
  /* caps (0.4.0) appended after runs_on; a type of 0.3's size, ending before it, is valid */
  CHECK(offsetof(mbdae_solver_type, caps) == offsetof(mbdae_solver_type, runs_on) + sizeof(char *),
        "caps follows runs_on");
  CHECK(offsetof(mbdae_solver_caps, size) == 0, "size is the capability record's first field");
  t.size = offsetof(mbdae_solver_type, caps);
  CHECK(mbdae_solver_type_invalid(&t) == NULL, "a type of 0.3's size is valid");
  t.size = sizeof t;
  const struct {
    size_t size;
    const char *why;
  } cases[] = {{0, "size is 0"}, {sizeof(void *), "smaller"}, {sizeof t + 8, "newer mbdae.h"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    t.size = cases[k].size;
    const char *why = mbdae_solver_type_invalid(&t);
    CHECK(why && strstr(why, cases[k].why), "size %zu: '%s'", t.size, why ? why : "valid");
  }
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  double y[10];
  mbdae_result r;
  t.size = 0;
  int rc = mbdae_solve_with(p, &t, &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_ARG && strstr(r.message, "size is 0"), "solve_with: '%s'", r.message);
}

static int decay_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx;
  y0[0] = 1.0;
  yp0[0] = -1.0;
  return 0;
}

static int decay_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  (void)ctx;
  (void)t;
  res[0] = yp[0] + y[0];
  return 0;
}

static void problem_type_size(void)
{
  CHECK(offsetof(mbdae_problem_type, size) == 0, "size is the first field");
  static const int index[1] = {0};
  mbdae_problem_type t = {.size = sizeof t,
                          .id = "decay",
                          .title = "y' = -y",
                          .neq = 1,
                          .t0 = 0.0,
                          .tend = 1.0,
                          .index = index,
                          .init = decay_init,
                          .res = decay_res};
  const struct {
    size_t size;
    const char *why;
  } cases[] = {{sizeof t, NULL}, {0, "size is 0"}, {8, "smaller"}, {sizeof t + 8, "newer"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char msg[256] = "";
    mbdae_problem *p = NULL;
    t.size = cases[k].size;
    int rc = mbdae_problem_from_type(&t, NULL, &p, msg, sizeof msg);
    CHECK(cases[k].why ? rc == MBDAE_ERR_ARG && !p && strstr(msg, cases[k].why) : rc == 0 && p,
          "problem type of size %zu: %d '%s'", t.size, rc, msg);
    mbdae_problem_destroy(p);
  }
}

int main(void)
{
  mbdae_problem *p = create_problem("caraxis");
  options_size(p);
  reserved_room(p);
  solver_type_size(p);
  problem_type_size();
  mbdae_problem_destroy(p);
  return check_summary("test_api_growth");
}
