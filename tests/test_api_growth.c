/* A public API that can grow without breaking its callers (include/mbdae/):
 * mbdae_options, mbdae_solver_type, mbdae_problem_type, mbdae_record, mbdae_tolerance_plan,
 * mbdae_unit_costs, mbdae_jac_check, mbdae_constraint_check, mbdae_check_points and
 * mbdae_functions begin with their size, which the library checks (0, too small and larger than its
 * own refused, before anything runs or is written); mbdae_stats, mbdae_result and mbdae_environment
 * keep reserved room, zero after a run, at a pinned size. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
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
  mbdae_record rec = MBDAE_RECORD_INIT;
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

/* mbdae_record begins with its size: 0, smaller and larger refused, the record left as it was
 * and nothing written; an array's stride is its elements' size, the reader's the caller's. */
static void record_size(const mbdae_problem *p)
{
  CHECK(offsetof(mbdae_record, size) == 0, "size is the first field");
  mbdae_record rec = MBDAE_RECORD_INIT;
  CHECK(rec.size == sizeof rec && mbdae_record_invalid(&rec) == NULL, "MBDAE_RECORD_INIT");
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  const mbdae_solver_type *radau5 = mbdae_solver_find("radau5");
  const struct {
    size_t size;
    const char *why;
  } cases[] = {{0, "size is 0"}, {sizeof rec - 8, "smaller"}, {sizeof rec + 8, "newer mbdae.h"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    mbdae_record bad = {.size = cases[k].size, .neq = -7};
    const char *why = mbdae_record_invalid(&bad);
    CHECK(why && strstr(why, cases[k].why), "size %zu: '%s'", bad.size, why ? why : "valid");
    int rc = mbdae_record_run(&bad, p, radau5, &opt, 1);
    CHECK(rc == MBDAE_ERR_ARG && bad.neq == -7 && !bad.y, "run refuses size %zu: %d", bad.size, rc);
    rc = mbdae_record_init(&bad, p, radau5, &opt);
    CHECK(rc == MBDAE_ERR_ARG && bad.neq == -7, "init refuses size %zu: %d", bad.size, rc);
    char buf[4096] = "";
    FILE *out = fmemopen(buf, sizeof buf, "w");
    CHECK(mbdae_record_write_json(out, &bad) == -1 && mbdae_record_write_csv_row(out, &bad) == -1 &&
              mbdae_record_write_table_row(out, &bad, 1) == -1 &&
              mbdae_record_write_table(out, p, &bad, 1) == -1 &&
              mbdae_record_write_csv_row_side(out, &bad, "/tmp", "x.vec") == -1,
          "the writers refuse size %zu", bad.size);
    fclose(out);
    CHECK(buf[0] == '\0', "nothing written for size %zu: '%.40s'", bad.size, buf);
    char msg[256] = "";
    CHECK(mbdae_record_fits(&bad, p, msg, sizeof msg) == -1 && strstr(msg, cases[k].why),
          "fits refuses size %zu: '%s'", bad.size, msg);
    mbdae_record *recs = NULL;
    size_t n = 9;
    FILE *in = fmemopen((char *)"problem\n", 8, "r");
    int rrc = mbdae_record_read_csv_sized(in, "x.csv", cases[k].size, &recs, &n, msg, sizeof msg);
    CHECK(rrc == -1 && !recs && n == 0 && strstr(msg, cases[k].why), "reader, size %zu: '%s'",
          cases[k].size, msg);
    fclose(in);
  }
  CHECK(mbdae_record_run(&rec, p, radau5, &opt, 1) == 0 && rec.size == sizeof rec && rec.y,
        "a record of this size runs: '%s'", rec.message);
  mbdae_record pair[2] = {rec, rec};
  pair[1].size = 0;
  FILE *null = fopen("/dev/null", "w");
  CHECK(mbdae_record_write_table(null, p, pair, 2) == -1, "an array of mixed sizes refused");
  CHECK(mbdae_record_write_table(null, p, pair, 1) == 0, "an array of one valid record written");
  fclose(null);
  mbdae_record_free(&rec);
  static const mbdae_environment zero_env;
  mbdae_environment env;
  memset(&env, 0xff, sizeof env);
  mbdae_environment_get(&env);
  CHECK(memcmp(env.reserved, zero_env.reserved, sizeof env.reserved) == 0,
        "mbdae_environment: reserved room zero");
}

/* The output structs of the diagnostics and the tolerance plan begin with their size: a refused
 * size is MBDAE_ERR_ARG with the struct untouched (a sentinel field keeps its value); an array's
 * stride is its first element's size, and the library sets every element's. */
static const size_t bad_sizes[3] = {0, sizeof(size_t), 4096};

static void plan_and_costs_size(const mbdae_problem *p)
{
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  CHECK(offsetof(mbdae_tolerance_plan, size) == 0 && mbdae_problem_tolerances(p, &plan) == 0 &&
            plan.size == sizeof plan && plan.m_div == 4 && plan.ntable == 3,
        "the plan of this size: m_div %d", plan.m_div);
  mbdae_unit_costs c = MBDAE_UNIT_COSTS_INIT;
  CHECK(offsetof(mbdae_unit_costs, size) == 0 && mbdae_problem_unit_costs(p, 1, &c) == 0 &&
            c.size == sizeof c && c.res > 0.0,
        "the unit costs of this size: res %g", c.res);
  CHECK(isfinite(mbdae_solver_lu_cost(mbdae_solver_find("radau5"), &c)), "lu cost");
  for (int k = 0; k < 3; k++) {
    mbdae_tolerance_plan bp = {.size = bad_sizes[k], .m_div = -3};
    CHECK(mbdae_problem_tolerances(p, &bp) == MBDAE_ERR_ARG && bp.m_div == -3,
          "plan of size %zu refused, untouched", bad_sizes[k]);
    mbdae_unit_costs bc = {.size = bad_sizes[k], .res = -3.0};
    CHECK(mbdae_problem_unit_costs(p, 1, &bc) == MBDAE_ERR_ARG && bc.res == -3.0,
          "unit costs of size %zu refused, untouched", bad_sizes[k]);
    CHECK(isnan(mbdae_solver_lu_cost(mbdae_solver_find("radau5"), &bc)),
          "lu cost of unit costs of size %zu: NaN", bad_sizes[k]);
  }
}

static void checks_size(const mbdae_problem *p)
{
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  mbdae_functions f;
  mbdae_problem_functions(p, &f);
  CHECK(mbdae_problem_check_points(p, &pts) == 0 && pts.size == sizeof pts && pts.npoints > 2,
        "check points of this size: %d", pts.npoints);
  mbdae_jac_check jac[MBDAE_CHECK_MAX_POINTS] = {MBDAE_JAC_CHECK_INIT};
  mbdae_constraint_check con[MBDAE_CHECK_MAX_POINTS] = {MBDAE_CONSTRAINT_CHECK_INIT};
  CHECK(mbdae_check_all(&f, &pts, jac, con) == 0 && jac[pts.npoints - 1].size == sizeof jac[0] &&
            con[pts.npoints - 1].size == sizeof con[0] && jac[pts.npoints - 1].ok,
        "check_all sets every element's size");
  for (int k = 0; k < 3; k++) {
    mbdae_jac_check bj[MBDAE_CHECK_MAX_POINTS] = {{.size = bad_sizes[k], .row = -3}};
    mbdae_constraint_check bc[MBDAE_CHECK_MAX_POINTS] = {{.size = bad_sizes[k], .index = -3}};
    CHECK(mbdae_check_jac(&f, pts.t[0], pts.y, pts.yp, NULL, NULL, bj) == MBDAE_ERR_ARG &&
              bj[0].row == -3,
          "jac check of size %zu refused, untouched", bad_sizes[k]);
    CHECK(mbdae_check_constraints(&f, pts.t[0], pts.y, pts.yp, NULL, bc) == MBDAE_ERR_ARG &&
              bc[0].index == -3,
          "constraint check of size %zu refused, untouched", bad_sizes[k]);
    CHECK(mbdae_check_all(&f, &pts, bj, con) == MBDAE_ERR_ARG &&
              mbdae_check_all(&f, &pts, jac, bc) == MBDAE_ERR_ARG,
          "check_all refuses arrays of size %zu", bad_sizes[k]);
    CHECK(mbdae_problem_check_jac(p, pts.t[0], pts.y, pts.yp, bj) == MBDAE_ERR_ARG,
          "problem_check_jac refuses size %zu", bad_sizes[k]);
    mbdae_check_points bp = {.size = bad_sizes[k], .npoints = -3};
    CHECK(mbdae_problem_check_points(p, &bp) == MBDAE_ERR_ARG && bp.npoints == -3,
          "check points of size %zu refused, untouched", bad_sizes[k]);
    mbdae_check_points_free(&bp); /* a refused size is left alone: no free of y */
    bp.size = pts.size;
    CHECK(mbdae_check_all(&f, &bp, jac, con) == MBDAE_ERR_ARG, "points without arrays refused");
    pts.size = bad_sizes[k];
    CHECK(mbdae_check_all(&f, &pts, jac, con) == MBDAE_ERR_ARG, "points of size %zu refused",
          bad_sizes[k]);
    pts.size = sizeof pts;
  }
  mbdae_check_points_free(&pts);
  CHECK(pts.size == sizeof pts && !pts.y, "free keeps the size");
}

/* Functions a caller fills from MBDAE_FUNCTIONS_INIT: the problem's callbacks, dense. */
static mbdae_functions own_functions(const mbdae_functions *f)
{
  mbdae_functions own = MBDAE_FUNCTIONS_INIT;
  own.neq = f->neq;
  own.nconstraints = f->nconstraints;
  own.res = f->res;
  own.jac = f->jac;
  own.constraints = f->constraints;
  own.ctx = f->ctx;
  return own;
}

/* The checks given functions of a refused size: MBDAE_ERR_ARG, no result written. */
static void functions_refused(const mbdae_functions *bad, const mbdae_check_points *pts)
{
  mbdae_jac_check jac[MBDAE_CHECK_MAX_POINTS], jc = {.size = sizeof jc, .row = -3};
  mbdae_constraint_check con[MBDAE_CHECK_MAX_POINTS], cc = {.size = sizeof cc, .index = -3};
  for (int k = 0; k < MBDAE_CHECK_MAX_POINTS; k++) {
    jac[k] = jc;
    con[k] = cc;
    jac[k].size = k == 0 ? sizeof jc : 0;
    con[k].size = k == 0 ? sizeof cc : 0;
  }
  CHECK(mbdae_check_jac(bad, pts->t[0], pts->y, pts->yp, NULL, NULL, &jc) == MBDAE_ERR_ARG &&
            jc.row == -3 && jc.size == sizeof jc,
        "jac check: functions of size %zu refused, result untouched", bad->size);
  CHECK(mbdae_check_constraints(bad, pts->t[0], pts->y, pts->yp, NULL, &cc) == MBDAE_ERR_ARG &&
            cc.index == -3 && cc.size == sizeof cc,
        "constraint check: functions of size %zu refused, result untouched", bad->size);
  int untouched = 1;
  CHECK(mbdae_check_all(bad, pts, jac, con) == MBDAE_ERR_ARG, "check_all: size %zu refused",
        bad->size);
  for (int k = 0; k < MBDAE_CHECK_MAX_POINTS; k++) {
    untouched &= jac[k].row == -3 && con[k].index == -3 &&
                 jac[k].size == (k == 0 ? sizeof jc : 0) && con[k].size == (k == 0 ? sizeof cc : 0);
  }
  CHECK(untouched, "check_all: functions of size %zu leave every element untouched", bad->size);
}

/* mbdae_jac_pattern has neither size nor reserved room: its layout is pinned (LP64), as the
 * Fortran module's c_jac_pattern binds it, and it sits in mbdae_functions after ctx. */
static void pattern_fixed(void)
{
  CHECK(offsetof(mbdae_jac_pattern, kind) == 0 &&
            offsetof(mbdae_jac_pattern, ml) == 2 * sizeof(int),
        "mbdae_jac_pattern begins kind, neq, ml, mu");
  if (sizeof(size_t) == 8 && sizeof(void *) == 8 && sizeof(int) == 4) {
    CHECK(offsetof(mbdae_jac_pattern, nnz) == 16 && offsetof(mbdae_jac_pattern, colptr) == 24 &&
              offsetof(mbdae_jac_pattern, rowind) == 32 && sizeof(mbdae_jac_pattern) == 40,
          "mbdae_jac_pattern: 40 bytes, nnz at 16, colptr 24, rowind 32 (sizeof %zu)",
          sizeof(mbdae_jac_pattern));
  }
  CHECK(offsetof(mbdae_functions, pattern) > offsetof(mbdae_functions, ctx) &&
            offsetof(mbdae_functions, jac_values) ==
                offsetof(mbdae_functions, pattern) + sizeof(mbdae_jac_pattern),
        "mbdae_functions: pattern after ctx, jac_values after it");
}

static void functions_size(const mbdae_problem *p)
{
  mbdae_functions init = MBDAE_FUNCTIONS_INIT, f;
  CHECK(offsetof(mbdae_functions, size) == 0 && init.size == sizeof init && init.neq == 0 &&
            !init.res && !init.jac && !init.ctx && init.pattern.kind == 0 && !init.jac_values,
        "MBDAE_FUNCTIONS_INIT: size set, the rest zero");
  memset(&f, 0xff, sizeof f);
  CHECK(mbdae_problem_functions(p, &f) == 0 && f.size == sizeof f && f.neq == 10 && f.ctx == p,
        "mbdae_problem_functions sets the size: %zu", f.size);
  for (int k = 0; k < 3; k++) {
    mbdae_functions bf = {.size = 1, .neq = -3};
    CHECK(mbdae_problem_functions_sized(p, bad_sizes[k], &bf) == MBDAE_ERR_ARG && bf.size == 1 &&
              bf.neq == -3,
          "mbdae_problem_functions_sized: size %zu refused, untouched", bad_sizes[k]);
  }
  CHECK(mbdae_problem_functions_sized(NULL, sizeof f, &f) == MBDAE_ERR_ARG && f.ctx == p,
        "no problem: refused, untouched");

  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  CHECK(mbdae_problem_check_points(p, &pts) == 0 && pts.npoints > 2, "check points");
  mbdae_jac_check a = MBDAE_JAC_CHECK_INIT, b = MBDAE_JAC_CHECK_INIT;
  mbdae_constraint_check ca = MBDAE_CONSTRAINT_CHECK_INIT, cb = MBDAE_CONSTRAINT_CHECK_INIT;
  mbdae_functions own = own_functions(&f);
  const double *y = pts.y + 2 * (size_t)f.neq, *yp = pts.yp + 2 * (size_t)f.neq; /* random */
  int rc = mbdae_check_jac(&f, pts.t[2], y, yp, NULL, NULL, &a);
  rc |= mbdae_check_jac(&own, pts.t[2], y, yp, NULL, NULL, &b);
  rc |= mbdae_check_constraints(&f, pts.t[2], y, yp, NULL, &ca);
  rc |= mbdae_check_constraints(&own, pts.t[2], y, yp, NULL, &cb);
  CHECK(rc == 0 && a.ok && b.ok && a.err == b.err && a.nnz == b.nnz && ca.ok && cb.ok &&
            ca.err == cb.err && ca.index == cb.index,
        "functions from MBDAE_FUNCTIONS_INIT accepted, the same results: err %g %g, %g %g", a.err,
        b.err, ca.err, cb.err);
  for (int k = 0; k < 3; k++) {
    mbdae_functions bad = f;
    bad.size = bad_sizes[k];
    functions_refused(&bad, &pts);
  }
  CHECK(mbdae_check_jac(NULL, pts.t[0], pts.y, pts.yp, NULL, NULL, &a) == MBDAE_ERR_ARG,
        "no functions: refused");
  mbdae_check_points_free(&pts);
}

int main(void)
{
  mbdae_problem *p = create_problem("caraxis");
  options_size(p);
  reserved_room(p);
  solver_type_size(p);
  problem_type_size();
  record_size(p);
  plan_and_costs_size(p);
  checks_size(p);
  functions_size(p);
  pattern_fixed();
  mbdae_problem_destroy(p);
  return check_summary("test_api_growth");
}
