/* test_consistent_start: mbdae_consistent_algebraic (solvers/consistent_start.c, private: compiled
 * in).  From the slider crank's published init1 in form index1 (|F| = 2.3e-7 in the acceleration
 * equations) it must return 0 with the residual at rounding level, every differential value and
 * every y'_a bit for bit as given, and y_a, y'_d moved by about the published inconsistency; in
 * form ggl (algebraic variables of index 2) it must return MBDAE_CONSISTENT_NONE and leave y, y'
 * untouched. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "consistent_start.h"
#include "mbdae/mbdae.h"
#include "support.h"

enum { N_MAX = 32 };

typedef struct fixture {
  mbdae_problem *p;
  mbdae_jacobian jac;
  mbdae_itmat lu;
  mbdae_tolerance tol;
  mbdae_stats st;
  int mask[N_MAX];
  double res[N_MAX], y[N_MAX], yp[N_MAX], y0[N_MAX], yp0[N_MAX];
  int n;
  mbdae_consistent_work w; /* over the fields above */
} fixture;

static int fixture_open(fixture *f, const char *spec)
{
  memset(f, 0, sizeof *f);
  f->p = create_problem(spec);
  char msg[160];
  if (!f->p || mbdae_jacobian_create(&f->jac, f->p, MBDAE_JAC_DENSE, msg, sizeof msg) != 0 ||
      mbdae_itmat_create(&f->lu, &f->jac, 0) != 0) {
    return -1;
  }
  f->n = mbdae_problem_neq(f->p);
  f->tol.rtol = f->tol.atol = 1e-10;
  f->tol.factor = 1.0;
  CHECK(f->n <= N_MAX && mbdae_problem_init(f->p, f->y0, f->yp0) == 0, "%s: init", spec);
  memcpy(f->y, f->y0, sizeof f->y);
  memcpy(f->yp, f->yp0, sizeof f->yp);
  f->w = (mbdae_consistent_work){f->p,    &f->jac, &f->lu, mbdae_problem_index(f->p),
                                 &f->tol, f->mask, f->res, &f->st};
  CHECK(mbdae_jacobian_eval(&f->jac, f->p, 0.0, f->y, f->yp) == 0, "%s: Jacobian", spec);
  return 0;
}

static void fixture_close(fixture *f)
{
  mbdae_itmat_free(&f->lu);
  mbdae_jacobian_free(&f->jac);
  mbdae_problem_destroy(f->p);
}

static double max_residual(const fixture *f, const double *y, const double *yp)
{
  double res[N_MAX], m = 0.0;
  CHECK(mbdae_problem_res(f->p, 0.0, y, yp, res) == 0, "residual");
  for (int i = 0; i < f->n; i++) {
    m = fmax(m, fabs(res[i]));
  }
  return m;
}

static void check_index1(void)
{
  fixture f;
  if (fixture_open(&f, "crank:index=1,beam=linear,damping=off,init=1") != 0) {
    return;
  }
  double before = max_residual(&f, f.y, f.yp);
  int rc = mbdae_consistent_algebraic(&f.w, 0.0, 1e11, f.y, f.yp);
  double after = max_residual(&f, f.y, f.yp), moved = 0.0;
  printf("index1: rc %d, max |F| %.3g -> %.3g\n", rc, before, after);
  CHECK(rc == 0, "index1: rc %d", rc);
  CHECK(before > 1e-7 && after < 1e-12, "index1: max |F| %.3g -> %.3g", before, after);
  for (int i = 0; i < f.n; i++) {
    if (f.mask[i]) {
      CHECK(f.y[i] == f.y0[i], "differential y[%d] moved: %.17g -> %.17g", i, f.y0[i], f.y[i]);
      moved = fmax(moved, fabs(f.yp[i] - f.yp0[i]));
    } else {
      CHECK(f.yp[i] == f.yp0[i], "algebraic y'[%d] moved", i);
      moved = fmax(moved, fabs(f.y[i] - f.y0[i]));
    }
  }
  CHECK(moved > 1e-7 && moved < 1e-5, "index1: y_a, y'_d moved by %.3g", moved);
  fixture_close(&f);
}

static void check_ggl_untouched(void)
{
  fixture f;
  if (fixture_open(&f, "crank:form=ggl,beam=linear,damping=off,init=1") != 0) {
    return;
  }
  int rc = mbdae_consistent_algebraic(&f.w, 0.0, 1e11, f.y, f.yp);
  CHECK(rc == MBDAE_CONSISTENT_NONE, "ggl: rc %d", rc);
  CHECK(memcmp(f.y, f.y0, sizeof f.y) == 0 && memcmp(f.yp, f.yp0, sizeof f.yp) == 0,
        "ggl: y, y' changed");
  fixture_close(&f);
}

int main(void)
{
  check_index1();
  check_ggl_untouched();
  return check_summary("test_consistent_start");
}
