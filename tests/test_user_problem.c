/* A user's own problem (mbdae_problem_from_type) runs through every built-in solver exactly as a
 * built-in problem does.
 *
 * The user's problem here wraps the built-in car axis through the public API only (its ctx holds a
 * built-in instance), so the answer is known: with the user's analytic Jacobian every solver must
 * give the built-in's y(tend) and counters bit for bit; without one, the library differences the
 * residual (counted in nres_fd, 2 neq + 1 per Jacobian) and the accuracy stays that of the
 * built-in. Descriptors that break a rule of mbdae_problem_type are refused with a message. */
#include <math.h>
#include <string.h>

#include "support.h"

typedef struct wrapped {
  mbdae_problem *inner; /* the built-in car axis */
  int nres; /* residual calls the user's code saw (not thread-safe: one run at a time) */
} wrapped;

static int w_init(void *ctx, double *y0, double *yp0)
{
  return mbdae_problem_init(((wrapped *)ctx)->inner, y0, yp0);
}
static int w_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  wrapped *w = ctx;
  w->nres++;
  return mbdae_problem_res(w->inner, t, y, yp, res);
}
static int w_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                 double *dfdyp)
{
  return mbdae_problem_jac(((wrapped *)ctx)->inner, t, y, yp, dfdy, dfdyp);
}
static int w_ref(void *ctx, double *yref)
{
  return mbdae_problem_ref(((wrapped *)ctx)->inner, yref);
}

static mbdae_problem_type car_type(const mbdae_problem *inner, int with_jac)
{
  mbdae_problem_type t = {
      .size = sizeof(mbdae_problem_type),
      .id = "my_caraxis",
      .title = "Car axis, defined by the user",
      .neq = mbdae_problem_neq(inner),
      .t0 = mbdae_problem_t0(inner),
      .tend = mbdae_problem_tend(inner),
      .index = mbdae_problem_index(inner),
      .in_scd = NULL,
      .init = w_init,
      .res = w_res,
      .jac = with_jac ? w_jac : NULL,
      .ref = w_ref,
      .ref_source = "the built-in car axis reference",
  };
  return t;
}

enum { N = 10 };

static void compare_with_builtin(wrapped *w, const char *solver)
{
  mbdae_problem_type type = car_type(w->inner, 1);
  mbdae_problem *user = NULL;
  char msg[256];
  CHECK(mbdae_problem_from_type(&type, w, &user, msg, sizeof msg) == 0, "from_type: %s", msg);
  if (!user) {
    return;
  }
  mbdae_options opt;
  test_options(w->inner, 1e-7, &opt);
  double yb[N], yu[N];
  mbdae_result rb, ru;
  w->nres = 0;
  mbdae_solve(w->inner, solver, &opt, 1, yb, NULL, &rb);
  mbdae_solve(user, solver, &opt, 1, yu, NULL, &ru);
  CHECK(rb.status == 0 && ru.status == 0, "%s: %s / %s", solver, rb.message, ru.message);
  CHECK(memcmp(yb, yu, sizeof yb) == 0, "%s: y(tend) of the user's problem = the built-in's",
        solver);
  CHECK(memcmp(&rb.stats, &ru.stats, sizeof rb.stats) == 0, "%s: same counters (steps %ld / %ld)",
        solver, rb.stats.steps, ru.stats.steps);
  CHECK(ru.stats.nres_fd == rb.stats.nres_fd, "%s: an analytic Jacobian costs no residuals",
        solver);
  CHECK(w->nres > 0, "%s: the user's residual was called (%d)", solver, w->nres);
  CHECK(strcmp(mbdae_problem_component(user, 0), "y1") == 0 &&
            strcmp(mbdae_problem_component(user, N - 1), "y10") == 0 &&
            mbdae_problem_component(user, N) == NULL,
        "a type without names gets y1 .. y%d", N);
  CHECK(strcmp(mbdae_problem_name(user), "my_caraxis") == 0 &&
            strcmp(mbdae_problem_spec(user), "my_caraxis") == 0,
        "name and spec are the id");
  mbdae_problem_destroy(user);
}

/* The differenced Jacobian at the initial values against the analytic one, entry by entry
 * (forward differences: error O(sqrt(eps)) of the entry's scale). */
static void differences_match_analytic(const mbdae_problem *inner, const mbdae_problem *user)
{
  double y[N], yp[N], ja[2 * N * N], jd[2 * N * N];
  mbdae_problem_init(inner, y, yp);
  mbdae_problem_jac(inner, 0.0, y, yp, ja, ja + N * N);
  CHECK(mbdae_problem_jac(user, 0.0, y, yp, jd, jd + N * N) == 0, "differenced Jacobian");
  double worst = 0.0;
  for (int k = 0; k < 2 * N * N; k++) {
    worst = fmax(worst, fabs(jd[k] - ja[k]) / fmax(fabs(ja[k]), 1.0));
  }
  CHECK(worst < 1e-6, "differenced Jacobian within %.1e of the analytic one", worst);
}

/* The mean scd of solver on p at rtol 10^-6.5, 10^-7, 10^-7.5 (*r: the last run).  One tolerance
 * is not enough to compare two Jacobians: the step sequence, and with it mebdf's scd on the car
 * axis, moves by up to 0.7 digits either way between neighbouring tolerances or with a Jacobian
 * that differs by rounding (differences minus analytic at 10^-6 .. 10^-8 in quarter decades:
 * -0.72 -0.31 +0.55 +0.24 -0.67 -0.10 +0.08 -0.48 -0.17). */
static double mean_scd(const mbdae_problem *p, const char *solver, mbdae_result *r)
{
  double sum = 0.0, y[N], yref[N];
  mbdae_problem_ref(p, yref);
  for (int q = 0; q < 3; q++) {
    mbdae_options opt;
    test_options(p, pow(10.0, -6.5 - 0.5 * q), &opt);
    mbdae_solve(p, solver, &opt, 1, y, NULL, r);
    sum += r->status == 0 ? mbdae_scd(p, y, yref) : 0.0;
  }
  return sum / 3.0;
}

static void differenced_jacobian(wrapped *w, const char *solver)
{
  mbdae_problem_type type = car_type(w->inner, 0);
  mbdae_problem *user = NULL;
  CHECK(mbdae_problem_from_type(&type, w, &user, NULL, 0) == 0, "from_type without jac");
  if (!user) {
    return;
  }
  CHECK(mbdae_problem_jac_nres(user) == 2 * N + 1, "jac_nres %d", mbdae_problem_jac_nres(user));
  CHECK(mbdae_problem_jac_nres(w->inner) == 0, "a built-in Jacobian is analytic");
  differences_match_analytic(w->inner, user);
  mbdae_result rb, ru;
  double scd_b = mean_scd(w->inner, solver, &rb), scd_u = mean_scd(user, solver, &ru);
  CHECK(ru.status == 0, "%s with differences: %s", solver, ru.message);
  CHECK(scd_u > scd_b - 0.5, "%s: mean scd %.2f with differences, %.2f analytic", solver, scd_u,
        scd_b);
  CHECK(ru.stats.njac > 0 && ru.stats.nres_fd >= ru.stats.njac * (2 * N + 1),
        "%s: nres_fd %ld counts %ld differenced Jacobians", solver, ru.stats.nres_fd,
        ru.stats.njac);
  mbdae_problem_destroy(user);
}

static int failing_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx, (void)y0, (void)yp0;
  return MBDAE_ERR_RES;
}

/* When the user's init fails, the harness reports it and leaves the caller's y' alone. */
static void init_failure(wrapped *w)
{
  mbdae_problem_type type = car_type(w->inner, 1);
  type.init = failing_init;
  mbdae_problem *user = NULL;
  mbdae_problem_from_type(&type, w, &user, NULL, 0);
  if (!user) {
    CHECK(0, "from_type with a failing init");
    return;
  }
  mbdae_options opt;
  test_options(w->inner, 1e-6, &opt);
  double y[N], yp[N];
  for (int i = 0; i < N; i++) {
    yp[i] = 42.0;
  }
  mbdae_result r;
  int rc = mbdae_solve(user, "radau5", &opt, 1, y, yp, &r);
  CHECK(rc == MBDAE_ERR_RES && strstr(r.message, "initial values"), "init failure: %d '%s'", rc,
        r.message);
  int untouched = 1;
  for (int i = 0; i < N; i++) {
    untouched &= yp[i] == 42.0;
  }
  CHECK(untouched, "y' is not written when the initial values fail");
  mbdae_problem_destroy(user);
}

static void refused(wrapped *w)
{
  static const int bad_index[N] = {1, 1, 1, 1, 2, 2, 2, 2, 4, 3};
  struct {
    const char *what;
    mbdae_problem_type t;
  } cases[9];
  static const char *const bad_names[N] = {"a", "b", "c", "d", "e", "f", "g", "h", "i j", "k"};
  for (int k = 0; k < 9; k++) {
    cases[k].t = car_type(w->inner, 1);
  }
  cases[8].what = "a name with a blank", cases[8].t.names = bad_names;
  cases[0].what = "upper-case id", cases[0].t.id = "MyCar";
  cases[1].what = "NULL id", cases[1].t.id = NULL;
  cases[2].what = "neq 0", cases[2].t.neq = 0;
  cases[3].what = "tend <= t0", cases[3].t.tend = cases[3].t.t0;
  cases[4].what = "index 4", cases[4].t.index = bad_index;
  cases[5].what = "no residual", cases[5].t.res = NULL;
  cases[6].what = "ref without ref_source", cases[6].t.ref_source = NULL;
  cases[7].what = "infinite tend", cases[7].t.tend = 1.0 / 0.0;
  for (int k = 0; k < 9; k++) {
    mbdae_problem *p = (mbdae_problem *)&cases[k];
    char msg[256] = "";
    int rc = mbdae_problem_from_type(&cases[k].t, w, &p, msg, sizeof msg);
    CHECK(rc == MBDAE_ERR_ARG && p == NULL && msg[0], "%s refused: rc %d, '%s'", cases[k].what, rc,
          msg);
  }
  CHECK(mbdae_problem_from_type(NULL, w, &(mbdae_problem *){NULL}, NULL, 0) == MBDAE_ERR_ARG,
        "NULL type refused");
}

int main(void)
{
  wrapped w = {create_problem("caraxis"), 0};
  if (!w.inner || mbdae_problem_neq(w.inner) != N) {
    return 1;
  }
  for (int i = 0; i < mbdae_solver_count(); i++) {
    if (strcmp(mbdae_solver_id(i), "spm") == 0) {
      continue; /* index-1 forms only, not caraxis: test_spm, and regularise's user problems */
    }
    compare_with_builtin(&w, mbdae_solver_id(i));
    differenced_jacobian(&w, mbdae_solver_id(i));
  }
  refused(&w);
  init_failure(&w);
  mbdae_problem_destroy(w.inner);
  return check_summary("test_user_problem");
}
