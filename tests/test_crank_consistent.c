/* The slider crank's init=consistent (problems/crank.c, problems/mech_consistent.c): init1 of the
 * test set projected onto every constraint level, so that each form starts consistent to
 * rounding.  Checked: (a) in every form its residual and the hidden constraints g, G v + g_t, g''
 * at rounding (1e-12 relative to the crank's scales), where init1 leaves |R| = 2.3e-7 and |g| =
 * 2.03e-10; its distance from init1 per block (x3 only among p, q and v as published, a within
 * 3e-7, lambda within 3e-8); (b) runs that fail from init1 within the first 3e-15 of t (bdf in
 * index1, baumgarte and ggl at rtol <= 1.8e-9, ida in ggl at <= 3.2e-10, radau5 in ggl at 1e-10,
 * sweep of all forms x solvers x the test set's 25 tolerances) finish from it; (c) the published
 * configuration keeps init1 and the reference stays that of init=consistent too. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "support.h"

enum { N_CRANK = 27 }; /* the largest crank form: ggl, 24 + 3 mu */

/* The crank's scales: |x3| (positions), L1 Omega (velocities), L1 Omega^2 (accelerations). */
static const double POS_SCALE = 0.45, VEL_SCALE = 0.15 * 150.0, ACC_SCALE = 0.15 * 150.0 * 150.0;
static const double REL = 1e-12;

static double max_abs(const double *x, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

/* (a) residual and hidden constraints of spec's start at rounding. */
static void check_start_consistent(const char *form)
{
  char spec[96];
  snprintf(spec, sizeof spec, "crank:%s,init=consistent", form);
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  int n = mbdae_problem_neq(p);
  double y[N_CRANK], yp[N_CRANK], r[N_CRANK], g[3], gv[3], ga[3];
  if (n > N_CRANK) {
    CHECK(0, "%s: %d equations", spec, n);
    mbdae_problem_destroy(p);
    return;
  }
  CHECK(mbdae_problem_init(p, y, yp) == 0, "%s: init", spec);
  CHECK(mbdae_problem_res(p, 0.0, y, yp, r) == 0, "%s: residual", spec);
  CHECK(mbdae_problem_constraints(p, 0.0, y, yp, g, gv, ga) == 0, "%s: constraints", spec);
  CHECK(max_abs(g, 3) <= REL * POS_SCALE, "%s: |g| = %.3g", spec, max_abs(g, 3));
  CHECK(max_abs(gv, 3) <= REL * VEL_SCALE, "%s: |G v + g_t| = %.3g", spec, max_abs(gv, 3));
  CHECK(max_abs(ga, 3) <= REL * ACC_SCALE, "%s: |g''| = %.3g", spec, max_abs(ga, 3));
  CHECK(max_abs(r, n) <= REL * ACC_SCALE, "%s: |F(0, y0, y'0)| = %.3g", spec, max_abs(r, n));
  mbdae_problem_destroy(p);
}

/* y0 of spec into y (24 entries used). */
static int start_of(const char *spec, double *y)
{
  mbdae_problem *p = create_problem(spec);
  double yp[N_CRANK];
  int rc = p ? mbdae_problem_init(p, y, yp) : -1;
  mbdae_problem_destroy(p);
  return rc;
}

/* The distance from init1 per block of y = (p, q, v, a, lambda), and init1's own inconsistency
 * (what the projection removes). */
static void check_distance_from_init1(void)
{
  double y1[N_CRANK], yc[N_CRANK];
  CHECK(start_of("crank", y1) == 0 && start_of("crank:init=consistent", yc) == 0, "starts");
  CHECK(fabs(yc[2] - y1[2] + 2.031e-10) < 1e-13, "x3 moves by -2.03e-10: %.4g", yc[2] - y1[2]);
  yc[2] = y1[2];
  CHECK(memcmp(y1, yc, sizeof(double) * 14) == 0, "p (but x3), q and v as published");
  double da = 0.0, dl = 0.0;
  for (int i = 14; i < 21; i++) {
    da = fmax(da, fabs(yc[i] - y1[i]));
  }
  for (int i = 21; i < 24; i++) {
    dl = fmax(dl, fabs(yc[i] - y1[i]));
  }
  CHECK(da > 1e-7 && da < 3e-7, "a moves by %.3g", da);
  CHECK(dl > 1e-8 && dl < 3e-8, "lambda moves by %.3g", dl);

  mbdae_problem *p = create_problem("crank:form=ggl");
  double y[N_CRANK], yp[N_CRANK], r[N_CRANK];
  if (p && mbdae_problem_init(p, y, yp) == 0 && mbdae_problem_res(p, 0.0, y, yp, r) == 0) {
    CHECK(max_abs(r, N_CRANK) > 1e-7, "init1 in ggl: |F| = %.3g (the published inconsistency)",
          max_abs(r, N_CRANK));
  }
  mbdae_problem_destroy(p);
}

/* (b) runs that fail from init1 (sweep of the issue) and finish from init=consistent. */
static void check_runs_finish(void)
{
  static const struct {
    const char *spec, *solver;
    double rtol;
  } runs[] = {
      {"crank:form=ggl,init=consistent", "bdf", 1e-10},
      {"crank:form=ggl,init=consistent", "ida", 3.1622776601683794e-10},
      {"crank:form=ggl,init=consistent", "radau5", 1e-10},
      {"crank:index=1,init=consistent", "bdf", 1.7782794100389228e-09},
      {"crank:form=baumgarte,init=consistent", "bdf", 1.7782794100389228e-09},
  };
  for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
    double scd = 0.0, mescd = 0.0;
    mbdae_stats st;
    int rc = run_as_test_set(runs[k].spec, runs[k].solver, runs[k].rtol, &scd, &mescd, &st);
    CHECK(rc == 0 && scd > 3.0, "%s %s rtol %g: rc %d scd %.2f", runs[k].spec, runs[k].solver,
          runs[k].rtol, rc, scd);
  }
}

/* (c) the published default is init=1, and its name in the spec. */
static void check_spec_names(void)
{
  mbdae_problem *p = create_problem("crank:init=consistent");
  if (p) {
    CHECK(strstr(mbdae_problem_spec(p), "init=consistent") != NULL, "spec %s",
          mbdae_problem_spec(p));
    CHECK(strstr(mbdae_problem_ref_source(p), "init=consistent") != NULL, "ref source names it");
  }
  mbdae_problem_destroy(p);
  p = create_problem("crank");
  if (p) {
    CHECK(strstr(mbdae_problem_spec(p), "init=1") != NULL, "default %s", mbdae_problem_spec(p));
  }
  mbdae_problem_destroy(p);
  CHECK(strstr(mbdae_problem_options("crank"), "init=1|2|consistent") != NULL, "options text");
}

int main(void)
{
  static const char *const forms[] = {"index=1",        "index=2",
                                      "index=3",        "form=ggl",
                                      "form=baumgarte", "index=2,beam=nonlinear,damping=on"};
  for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
    check_start_consistent(forms[k]);
  }
  check_distance_from_init1();
  check_runs_finish();
  check_spec_names();
  return check_summary("test_crank_consistent");
}
