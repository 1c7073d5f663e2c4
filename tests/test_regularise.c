/* Orthogonal projection (the OPM of Hafner & Poell (2015); mbdae_projector, mbdae_options.project)
 * and the `mbdae regularise` command (Hafner & Poell 2015, Table 1).
 *
 * Known answers: on the index-1 form of the pendulum and the double pendulum, the projected run
 * of radau5 keeps |g| and |G v| at rounding level after every accepted step (checked in
 * on_accept, where the unprojected run drifts far off); solvers that cannot project refuse it;
 * a problem without constraints has no projector.  The command's rows come in Table 1's order,
 * from real runs: DaS C's error exceeds OPM's and SPM's by orders of magnitude, SST's is at
 * rounding level and SPM's below 1e-12 (the solver spm, with the chain of two links standing in
 * for the double pendulum over [0, 100]); P (form=dummy) switches its state selection many times
 * and keeps its error at tolerance level; every row is built;
 * bad options exit 2. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

/* The largest |g| and |G v + g_t| seen after the accepted steps (from the problem's own
 * constraint functions). */
typedef struct drift_watch {
  const mbdae_problem *p;
  long states;
  double pos_max, vel_max;
} drift_watch;

static void watch(void *ctx, double t, const double *y, const double *yp)
{
  drift_watch *w = ctx;
  double g[8], gv[8];
  int nc = mbdae_problem_nconstraints(w->p);
  if (mbdae_problem_constraints(w->p, t, y, yp, g, gv, NULL) != 0) {
    w->pos_max = w->vel_max = INFINITY;
    return;
  }
  w->states++;
  for (int k = 0; k < nc; k++) {
    w->pos_max = fmax(w->pos_max, fabs(g[k]));
    w->vel_max = fmax(w->vel_max, fabs(gv[k]));
  }
}

/* A run of solver on spec at rtol with or without the projection; the watch and the status. */
static int run_watched(const char *spec, const char *solver, double rtol, int projected,
                       drift_watch *w, mbdae_result *r)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return -1;
  }
  mbdae_projector *pr = NULL;
  char msg[256] = "";
  int rc = projected ? mbdae_projector_create(p, &pr, msg, sizeof msg) : 0;
  CHECK(rc == 0, "projector for %s: %s", spec, msg);
  double y[16], yp[16];
  mbdae_options opt;
  test_options(p, rtol, &opt);
  *w = (drift_watch){p, 0, 0.0, 0.0};
  opt.on_accept = watch;
  opt.on_accept_ctx = w;
  if (pr) {
    opt.project = mbdae_projector_apply;
    opt.project_ctx = pr;
  }
  rc = rc == 0 ? mbdae_solve(p, solver, &opt, 1, y, yp, r) : rc;
  mbdae_projector_destroy(pr);
  mbdae_problem_destroy(p);
  return rc;
}

static void check_projection_holds(const char *spec)
{
  drift_watch plain, proj;
  mbdae_result r;
  int rc = run_watched(spec, "radau5", 1e-6, 0, &plain, &r);
  CHECK(rc == 0, "%s unprojected: %s", spec, r.message);
  rc = run_watched(spec, "radau5", 1e-6, 1, &proj, &r);
  CHECK(rc == 0, "%s projected: %s", spec, r.message);
  printf("%s radau5 1e-6: max |g| %.3e -> %.3e, max |G v| %.3e -> %.3e over %ld steps\n", spec,
         plain.pos_max, proj.pos_max, plain.vel_max, proj.vel_max, proj.states);
  CHECK(proj.states > 100, "%s: %ld states observed", spec, proj.states);
  CHECK(proj.pos_max <= 1e-14, "%s: max |g| %.3e after projection", spec, proj.pos_max);
  CHECK(proj.vel_max <= 1e-13, "%s: max |G v| %.3e after projection", spec, proj.vel_max);
  CHECK(plain.pos_max > 1e4 * proj.pos_max, "%s: unprojected drift %.3e", spec, plain.pos_max);
}

/* bdf and ida cannot project their state: MBDAE_ERR_UNSUPPORTED with a message, no crash. */
static void check_refused(const char *solver)
{
  drift_watch w;
  mbdae_result r;
  int rc = run_watched("pendulum:form=index1", solver, 1e-6, 1, &w, &r);
  CHECK(rc == MBDAE_ERR_UNSUPPORTED, "%s with a projection: %d %s", solver, rc, r.message);
  CHECK(strstr(r.message, "project") != NULL, "%s: message '%s'", solver, r.message);
}

static void check_no_projector(void)
{
  mbdae_problem *p = create_problem("pendulum:form=ssf");
  mbdae_projector *pr = NULL;
  char msg[256] = "";
  int rc = p ? mbdae_projector_create(p, &pr, msg, sizeof msg) : 0;
  CHECK(rc == MBDAE_ERR_UNSUPPORTED && !pr && strstr(msg, "by construction"), "ssf: %d %s", rc,
        msg);
  CHECK(mbdae_projector_create(p, NULL, msg, sizeof msg) == MBDAE_ERR_ARG, "NULL out");
  CHECK(mbdae_projector_apply(NULL, 0.0, NULL, NULL) == MBDAE_ERR_ARG, "NULL projector");
  mbdae_problem_destroy(p);
}

/* ---- mbdae regularise ------------------------------------------------------------------- */

/* The JSON row of problem/method in out (its opening brace), or NULL. */
static const char *find_row(const char *out, const char *problem, const char *method)
{
  char key[128];
  snprintf(key, sizeof key, "{\"problem\": \"%s\", \"method\": \"%s\"", problem, method);
  return strstr(out, key);
}

/* The row's number `key`, or the largest entry of its list ("max_err": [e1, e2]); NaN for null
 * or none. */
static double row_number(const char *row, const char *key)
{
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": ", key);
  const char *at = row ? strstr(row, pattern) : NULL;
  if (!at) {
    return NAN;
  }
  at += strlen(pattern);
  int list = *at == '[';
  double v = NAN, x;
  int used = 0;
  for (at += list; sscanf(at, "%lf%n", &x, &used) == 1; at += used) {
    v = isnan(v) ? x : fmax(v, x);
    if (!list || *(at + used) != ',') {
      break;
    }
    used++;
  }
  return v;
}

/* The rows of one case study: Table 1's order, real runs, DaS C far above OPM, SST at rounding. */
static void check_study(const char *out, const char *problem)
{
  static const char *const methods[] = {
      "dasc", "baumgarte_a_ne_b", "baumgarte_a_eq_b", "pantelides", "opm", "spm", "sst"};
  const char *last = out;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
    const char *row = find_row(out, problem, methods[i]);
    CHECK(row && row > last, "%s %s: missing or out of order", problem, methods[i]);
    last = row ? row : last;
    int built = 1; /* every method of Table 1 runs */
    const char *status = built ? "\"status\": \"ok\"" : "\"status\": \"not implemented\"";
    const char *end = row ? strchr(row, '}') : NULL;
    const char *st = row ? strstr(row, status) : NULL;
    CHECK(st && st < end, "%s %s: status should be %s", problem, methods[i], status);
    double err = row_number(row, "max_err"), cpu = row_number(row, "cpu_seconds");
    double steps = row_number(row, "steps");
    CHECK(built ? err >= 0.0 && cpu > 0.0 && steps > 10.0 : isnan(err) && isnan(cpu),
          "%s %s: max_err %g, cpu %g, steps %g", problem, methods[i], err, cpu, steps);
    CHECK(row_number(row, "paper_seconds") > 0.0, "%s %s: the paper's seconds", problem,
          methods[i]);
  }
  /* P: form=dummy switched along the swings, its error at tolerance level like Baumgarte's */
  const char *p_row = find_row(out, problem, "pantelides");
  double switches = row_number(p_row, "switches"), p_err = row_number(p_row, "max_err");
  CHECK(switches > 50.0 && p_err < 1e-6, "%s P: %g switches, max_err %.3e", problem, switches,
        p_err);
  double dasc = row_number(find_row(out, problem, "dasc"), "max_err");
  double opm = row_number(find_row(out, problem, "opm"), "max_err");
  double sst = row_number(find_row(out, problem, "sst"), "max_err");
  double spm = row_number(find_row(out, problem, "spm"), "max_err");
  CHECK(dasc > 1e6 * opm, "%s: DaS C %.3e, OPM %.3e", problem, dasc, opm);
  CHECK(spm <= 1e-12 && dasc > 1e6 * spm, "%s: SPM %.3e (DaS C %.3e)", problem, spm, dasc);
  CHECK(opm <= 4.0 * DBL_EPSILON && sst <= 4.0 * DBL_EPSILON, "%s: OPM %.3e, SST %.3e", problem,
        opm, sst);
}

static void check_command(void)
{
  static char out[1 << 16];
  int rc = run_cli("regularise all --json", out, sizeof out);
  CHECK(rc == 0, "regularise all --json: exit %d\n%s", rc, out);
  check_study(out, "pendulum");
  check_study(out, "dpendulum");
  CHECK(row_number(find_row(out, "pendulum", "sst"), "scd") > 2.0, "pendulum: scd at t = 100");
  CHECK(strstr(find_row(out, "dpendulum", "spm"), "\"spec\": \"chain:n=2,tend=100,form=index1\""),
        "dpendulum's SPM row: the chain of two links over [0, 100]");
  CHECK(strstr(find_row(out, "pendulum", "spm"), "\"solver\": \"spm\""),
        "the SPM row names its solver");
  CHECK(strstr(find_row(out, "dpendulum", "sst"), "\"scd\": null") != NULL,
        "dpendulum over [0, 100]: no reference, scd null");
  /* bdf cannot project: the OPM row fails (exit 1) with no number; the other rows run. */
  rc = run_cli("regularise pendulum --solver bdf --tend 5 --json", out, sizeof out);
  const char *opm = find_row(out, "pendulum", "opm");
  CHECK(rc == 1 && opm && strstr(opm, "MBDAE_ERR_UNSUPPORTED"), "bdf: exit %d\n%s", rc, out);
  CHECK(isnan(row_number(opm, "max_err")) && isnan(row_number(opm, "cpu_seconds")),
        "bdf: the failed OPM row has no numbers");
  CHECK(row_number(find_row(out, "pendulum", "sst"), "max_err") <= 4.0 * DBL_EPSILON,
        "bdf: SST still runs");
  expect("regularise pendulum --tend 5 --out /nonexistent/dir/t.md", 2, "cannot open");
  /* Over another interval spm's pendulum is the chain of one link, watched by its names x1, y1
   * (the pendulum's x, y failed the row: "lacks the components of the paths", exit 1). */
  rc = run_cli("regularise pendulum --tend 5 --json", out, sizeof out);
  const char *spm = find_row(out, "pendulum", "spm");
  CHECK(rc == 0 && spm && strstr(spm, "\"spec\": \"chain:n=1,tend=5,form=index1\""),
        "pendulum --tend 5: exit %d, the SPM row on the chain of one link\n%s", rc, out);
  CHECK(row_number(spm, "max_err") <= 1e-12, "pendulum --tend 5: SPM's max_err %g",
        row_number(spm, "max_err"));
}

static void check_bad_options(void)
{
  expect("regularise", 2, "which case study");
  expect("regularise caraxis", 2, "unknown case study");
  expect("regularise pendulum --rtol 0", 2, "--rtol");
  expect("regularise pendulum --rtol abc", 2, "--rtol");
  expect("regularise pendulum --rtol 2", 2, "--rtol");
  expect("regularise pendulum --tend -1", 2, "--tend");
  expect("regularise pendulum --solver nope", 2, "nope");
  expect("regularise pendulum --bogus", 2, "unknown option '--bogus'");
  expect("regularise pendulum dpendulum", 2, "unexpected argument");
  expect("regularise pendulum --rtol", 2, "needs a value");
}

int main(void)
{
  check_projection_holds("pendulum:form=index1");
  check_projection_holds("dpendulum:form=index1");
  check_projection_holds("pendulum:form=index3");
  check_refused("bdf");
  check_refused("ida");
  check_no_projector();
  check_command();
  check_bad_options();
  return check_summary("regularise");
}
