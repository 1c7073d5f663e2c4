/* The capability record on a solver type (mbdae_solver_caps, include/mbdae/solve.h), read by the
 * harness, never looked up by a solver's name: the LU cost of a factorization event
 * (mbdae_solver_lu_cost, `mbdae bench`'s %LU share), the storage AUTO resolves to
 * (mbdae_linsys_resolve), and the runs the harness refuses (a linsys kind the solver does not
 * take, options.project it does not honour, output times it cannot fill, stepping).
 *
 * Unit costs of 1 (real LU) and 10 (complex LU) make each count visible: radau5 and radau factor
 * a real and a complex matrix per event (radau at s = 3, its lowest order), so 11; ida, bdf and
 * spm 1.  Before the capabilities `mbdae bench` chose by name (strcmp with "radau5") and gave
 * radau 1, understating its LU share: that rule fails the radau check below.  Each built-in's
 * record is checked against what its integrate does when called directly (past the harness):
 * it refuses exactly the kinds and the projection its record leaves out. */
#include <stddef.h>
#include <string.h>

#include "check.h"
#include "support.h"
#include "mbdae/mbdae.h"

static int dummy_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                           mbdae_result *r)
{
  (void)p, (void)opt, (void)y, (void)yp, (void)r;
  return 0;
}

/* radau5's integrate, counting the runs that reach it and what they asked for. */
static int seen_runs, seen_project, seen_ntout;
static int radau5_spy(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                      mbdae_result *r)
{
  seen_runs++;
  seen_project += opt->project != NULL;
  seen_ntout += opt->ntout;
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

static void check_lu_cost(void)
{
  const mbdae_unit_costs c = {
      .size = sizeof c, .res = 0.5, .jac = 0.25, .lu_real = 1.0, .lu_complex = 10.0};
  const struct {
    const char *id;
    double cost;
  } want[] = {{"ida", 1.0}, {"radau5", 11.0}, {"radau", 11.0},
              {"bdf", 1.0}, {"spm", 1.0},     {"mebdf", 1.0}};
  CHECK(mbdae_solver_count() == (int)(sizeof want / sizeof want[0]), "%d built-in solvers",
        mbdae_solver_count());
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const mbdae_solver_type *type = mbdae_solver_find(want[i].id);
    CHECK(type != NULL, "built-in solver %s", want[i].id);
    double cost = mbdae_solver_lu_cost(type, &c);
    CHECK(cost == want[i].cost, "%s: one factorization event costs %g, want %g", want[i].id, cost,
          want[i].cost);
  }
  /* A type of the caller's own, even one named like a built-in, has no record: one real
   * factorization per event; with a record, what it says. */
  mbdae_solver_type mine = {sizeof(mbdae_solver_type), "radau5", "not the built-in radau5",
                            dummy_integrate,           NULL,     NULL};
  CHECK(mbdae_solver_lu_cost(&mine, &c) == 1.0, "a caller's type: %g",
        mbdae_solver_lu_cost(&mine, &c));
  const mbdae_solver_caps two = {.size = sizeof two,
                                 .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE),
                                 .dense_output = 1,
                                 .lu_real = 1,
                                 .lu_complex = 2};
  mine.caps = &two;
  CHECK(mbdae_solver_lu_cost(&mine, &c) == 21.0, "a caller's record: %g",
        mbdae_solver_lu_cost(&mine, &c));
  CHECK(mbdae_solver_lu_cost(NULL, &c) == 1.0, "no type: %g", mbdae_solver_lu_cost(NULL, &c));
  CHECK(mbdae_solver_lu_cost(mbdae_solver_find("radau"), NULL) == 0.0, "no unit costs");
}

/* AUTO on a dense problem of at most 64 equations: CONDENSED for the solvers that condense
 * (radau5, radau, bdf, mebdf), the pattern's DENSE for ida, spm and a caller's type named
 * "radau5" (its name buys it nothing); a kind asked for is returned as it is; a banded problem's
 * AUTO is BAND for every solver that takes BAND, DENSE for one that takes DENSE only. */
static void check_linsys(void)
{
  mbdae_problem *dense = NULL, *band = NULL;
  char msg[256];
  CHECK(mbdae_problem_create("pendulum", &dense, msg, sizeof msg) == 0, "%s", msg);
  CHECK(mbdae_problem_create("chain:n=40,form=index1", &band, msg, sizeof msg) == 0, "%s", msg);
  if (!dense || !band) {
    mbdae_problem_destroy(dense);
    mbdae_problem_destroy(band);
    return;
  }
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(band, &pat);
  CHECK(pat.kind == MBDAE_JAC_BAND, "chain:n=40's pattern is %s", mbdae_jac_kind_name(pat.kind));
  const mbdae_solver_type spoof = {sizeof spoof,    "radau5", "a caller's radau5",
                                   dummy_integrate, NULL,     NULL};
  const mbdae_solver_type *types[] = {mbdae_solver_find("ida"),
                                      mbdae_solver_find("radau5"),
                                      mbdae_solver_find("radau"),
                                      mbdae_solver_find("bdf"),
                                      mbdae_solver_find("spm"),
                                      mbdae_solver_find("mebdf"),
                                      &spoof};
  const int condensed[] = {0, 1, 1, 1, 0, 1, 0};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    const char *id = types[i]->id;
    int got = mbdae_linsys_resolve(dense, types[i], MBDAE_JAC_AUTO);
    int want = condensed[i] ? MBDAE_JAC_CONDENSED : MBDAE_JAC_DENSE;
    CHECK(got == want, "%s (%zu) on the pendulum: %s, want %s", id, i, mbdae_jac_kind_name(got),
          mbdae_jac_kind_name(want));
    CHECK(mbdae_linsys_resolve(dense, types[i], MBDAE_JAC_DENSE) == MBDAE_JAC_DENSE, "%s, dense",
          id);
    got = mbdae_linsys_resolve(band, types[i], MBDAE_JAC_AUTO);
    CHECK(got == MBDAE_JAC_BAND, "%s on chain:n=40: %s", id, mbdae_jac_kind_name(got));
  }
  const mbdae_solver_caps dense_only = {
      .size = sizeof dense_only, .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE), .lu_real = 1};
  const mbdae_solver_type mine = {sizeof mine,     "mine", "dense only",
                                  dummy_integrate, NULL,   &dense_only};
  int got = mbdae_linsys_resolve(band, &mine, MBDAE_JAC_AUTO);
  CHECK(got == MBDAE_JAC_DENSE, "dense only on chain:n=40: %s", mbdae_jac_kind_name(got));
  mbdae_problem_destroy(dense);
  mbdae_problem_destroy(band);
}

static int count_project(void *ctx, double t, double *y, double *yp)
{
  (void)t, (void)y, (void)yp;
  ++*(int *)ctx;
  return 0;
}

/* type's integrate called directly (past the harness) and through the harness on p with linsys
 * kind (and a projection when project): the two statuses. */
static void run_both(const mbdae_problem *p, const mbdae_solver_type *type, int kind, int project,
                     int *direct, int *harness, char *msg, size_t msglen)
{
  double y[SUPPORT_MAX_N], yp[SUPPORT_MAX_N];
  int calls = 0;
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  opt.max_steps = 5;
  opt.linsys = kind;
  opt.project = project ? count_project : NULL;
  opt.project_ctx = &calls;
  mbdae_result r;
  memset(&r, 0, sizeof r);
  CHECK(mbdae_problem_init(p, y, yp) == 0, "initial values");
  *direct = type->integrate(p, &opt, y, yp, &r);
  *direct = *direct ? *direct : r.status;
  *harness = mbdae_solve_with(p, type, &opt, 1, y, NULL, &r);
  snprintf(msg, msglen, "%s", r.message);
}

/* Each built-in's record against what its integrate does by itself: a kind or a projection the
 * record leaves out is refused (MBDAE_ERR_UNSUPPORTED) by the solver and, with a message from
 * the record, by the harness; one it lists is not. */
static void check_records_match_solvers(void)
{
  mbdae_problem *p = NULL;
  char msg[320];
  CHECK(mbdae_problem_create("pendulum:form=index1", &p, msg, sizeof msg) == 0, "%s", msg);
  for (int i = 0; p && i < mbdae_solver_count(); i++) {
    const mbdae_solver_type *type = mbdae_solver_get(i);
    const mbdae_solver_caps *c = type->caps;
    CHECK(c && c->size == sizeof *c && c->steps == 1 && c->dense_output == 1, "%s's record",
          type->id);
    if (!c) {
      continue;
    }
    int direct, harness;
    for (int kind = MBDAE_JAC_DENSE; kind <= MBDAE_JAC_CONDENSED; kind++) {
      int takes = (c->linsys & MBDAE_LINSYS_BIT(kind)) != 0;
      run_both(p, type, kind, 0, &direct, &harness, msg, sizeof msg);
      CHECK((direct != MBDAE_ERR_UNSUPPORTED) == takes, "%s by itself, linsys %s: %d", type->id,
            mbdae_jac_kind_name(kind), direct);
      CHECK((harness != MBDAE_ERR_UNSUPPORTED) == takes &&
                (takes || strstr(msg, "does not take linsys")),
            "%s in the harness, linsys %s: %d '%s'", type->id, mbdae_jac_kind_name(kind), harness,
            msg);
    }
    run_both(p, type, MBDAE_JAC_AUTO, 1, &direct, &harness, msg, sizeof msg);
    CHECK((direct != MBDAE_ERR_UNSUPPORTED) == c->projects, "%s by itself, project: %d", type->id,
          direct);
    CHECK((harness != MBDAE_ERR_UNSUPPORTED) == c->projects &&
              (c->projects || strstr(msg, "does not project")),
          "%s in the harness, project: %d '%s'", type->id, harness, msg);
  }
  mbdae_problem_destroy(p);
}

/* A caller's type (what a plug-in hands the loader) declaring a record: the harness refuses what
 * it leaves out, with a message, before its integrate runs, and passes on what it lists. */
static void check_declared_caps(const mbdae_problem *p)
{
  const mbdae_solver_caps caps = {.size = sizeof caps,
                                  .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE),
                                  .projects = 1,
                                  .dense_output = 0,
                                  .lu_real = 1};
  const mbdae_solver_type spy = {sizeof spy, "spy", "radau5, declaring", radau5_spy, NULL, &caps};
  CHECK(mbdae_solver_type_invalid(&spy) == NULL, "%s", mbdae_solver_type_invalid(&spy));
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  double y[SUPPORT_MAX_N], yout[SUPPORT_MAX_N], tout = 0.5;
  int calls = 0;
  mbdae_result r;
  seen_runs = seen_project = seen_ntout = 0;
  opt.linsys = MBDAE_JAC_BAND;
  int rc = mbdae_solve_with(p, &spy, &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_UNSUPPORTED && strstr(r.message, "'spy' does not take linsys band") &&
            strstr(r.message, "dense") && seen_runs == 0,
        "band refused: %d '%s', %d runs", rc, r.message, seen_runs);
  opt.linsys = MBDAE_JAC_DENSE;
  opt.tout = &tout;
  opt.ntout = 1;
  opt.yout = yout;
  rc = mbdae_solve_with(p, &spy, &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_UNSUPPORTED && strstr(r.message, "dense_output = 0") && seen_runs == 0,
        "output times refused: %d '%s'", rc, r.message);
  opt.ntout = 0;
  opt.project = count_project;
  opt.project_ctx = &calls;
  rc = mbdae_solve_with(p, &spy, &opt, 1, y, NULL, &r);
  CHECK(rc == 0 && seen_runs == 1 && seen_project == 1 && calls > 0,
        "projection passed on: %d '%s', %d runs, %d projections", rc, r.message, seen_runs, calls);
  mbdae_integrator *it = NULL;
  char msg[320];
  opt.project = NULL;
  rc = mbdae_integrator_create(p, &spy, &opt, &it, msg, sizeof msg);
  CHECK(rc == MBDAE_ERR_UNSUPPORTED && !it && strstr(msg, "steps = 0"), "no stepping: %d '%s'", rc,
        msg);
  mbdae_integrator_free(it);
}

/* A type built against mbdae 0.3's header ends at runs_on: the library reads nothing beyond its
 * size (here a record that would be refused) and runs it with the defaults: no projection. */
static void check_old_size(const mbdae_problem *p)
{
  const mbdae_solver_caps junk = {.size = 0};
  mbdae_solver_type old = {sizeof old, "old", "radau5, 0.3 header", radau5_spy, NULL, &junk};
  CHECK(mbdae_solver_type_invalid(&old) != NULL, "the full-size type with a size-0 record");
  old.size = offsetof(mbdae_solver_type, caps);
  CHECK(mbdae_solver_type_invalid(&old) == NULL, "%s", mbdae_solver_type_invalid(&old));
  mbdae_options opt;
  test_options(p, 1e-4, &opt);
  double y[SUPPORT_MAX_N];
  mbdae_result r;
  seen_runs = 0;
  int rc = mbdae_solve_with(p, &old, &opt, 1, y, NULL, &r);
  CHECK(rc == 0 && seen_runs == 1, "an old-size type runs: %d '%s' (%d runs)", rc, r.message,
        seen_runs);
  int calls = 0;
  opt.project = count_project;
  opt.project_ctx = &calls;
  rc = mbdae_solve_with(p, &old, &opt, 1, y, NULL, &r);
  CHECK(rc == MBDAE_ERR_UNSUPPORTED && calls == 0, "no projection by default: %d '%s'", rc,
        r.message);
}

/* The rules of a record (include/mbdae/solve.h), each broken once. */
static void check_invalid_records(void)
{
  const mbdae_solver_caps good = {.size = sizeof good,
                                  .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE),
                                  .dense_output = 1,
                                  .lu_real = 1};
  mbdae_solver_caps bad[8];
  const char *why[8] = {"size 0",    "newer mbdae.h", "0 or 1",   "linsys is",
                        "linsys is", "CONDENSED",     "negative", "only a built-in"};
  for (int k = 0; k < 8; k++) {
    bad[k] = good;
  }
  bad[0].size = 0;
  bad[1].size = sizeof good + 8;
  bad[2].projects = 2;
  bad[3].linsys = 0;
  bad[4].linsys |= MBDAE_LINSYS_BIT(MBDAE_JAC_AUTO);
  bad[5].condenses = 1;
  bad[6].lu_complex = -1;
  bad[7].steps = 1;
  mbdae_solver_type t = {sizeof t, "t", "t", dummy_integrate, NULL, &good};
  CHECK(mbdae_solver_type_invalid(&t) == NULL, "the good record");
  for (int k = 0; k < 8; k++) {
    t.caps = &bad[k];
    const char *got = mbdae_solver_type_invalid(&t);
    CHECK(got && strstr(got, why[k]), "record %d: '%s'", k, got ? got : "valid");
  }
}

int main(void)
{
  check_lu_cost();
  check_linsys();
  check_records_match_solvers();
  check_invalid_records();
  mbdae_problem *p = create_decay_problem();
  if (p) {
    check_declared_caps(p);
    check_old_size(p);
  }
  mbdae_problem_destroy(p);
  return check_summary("test_solver_caps");
}
