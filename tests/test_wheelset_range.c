/* The wheelset's profiles end (problems/wheelset.c, wheel.f's wheelp and railp): the residual and
 * the analytic Jacobian refuse a state whose contact point leaves them (MBDAE_RECOVERABLE: the
 * solver retries a smaller step) and accept one just inside, at each of the four bounds.  With
 * the yaw and roll angles and the contact angles psi zero, the rail's contact abscissa is
 * x_g = x + xi exactly, so a state can sit eps/2 inside or outside a bound, where eps = 1e-5 is
 * the rail's margin: a sign flipped in a bound moves it by 2 eps or more (2 r_s sin(delta_0),
 * 2 r_s, 2 a) and turns one of the two verdicts.  Rail: r_s eps < |x_g| - a - r_s sin(delta_0) +
 * r_s < 2 r_s - eps, i.e. |x_g| in (a + s - r_s + eps, a + s + r_s - eps), s = r_s sin(delta_0);
 * wheel: b_1 < |xi| < b_2 (0 and 4; near b_2 the cone's radius is already negative, so only the
 * refusal at b_2 is asserted there). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

enum { NEQ = 17, X = 0, THETA = 3, PHI = 4, PSI_A = 11, XI_A = 12, PSI_B = 13, XI_B = 14 };

/* wheel.f's values (problems/wheelset.c PUBLISHED) */
static const double AR = 0.1506, RS = 0.06, DELTA0 = 0.0262, EPS = 1e-5, B2 = 4.0;
static const double INSIDE_XG = 0.15; /* well inside the rail's range */

/* The published start with the angles zero, x = x, and the contacts' xi so that contact a's rail
 * abscissa is x + xi_a and contact b's -INSIDE_XG. */
static void state(const mbdae_problem *p, double x, double xi_a, double *y, double *yp)
{
  mbdae_problem_init(p, y, yp);
  y[THETA] = y[PHI] = y[PSI_A] = y[PSI_B] = 0.0;
  y[X] = x;
  y[XI_A] = xi_a;
  y[XI_B] = -INSIDE_XG - x;
}

/* The residual's and the Jacobian's verdicts at x_g = x + xi_a, with the contacts swapped too. */
static void expect(const mbdae_problem *p, double x, double xi_a, int inside, const char *what)
{
  double y[NEQ], yp[NEQ], r[NEQ], *dfdy = malloc(sizeof *dfdy * NEQ * NEQ);
  int want = inside ? 0 : MBDAE_RECOVERABLE;
  for (int swap = 0; swap < 2; swap++) {
    state(p, x, xi_a, y, yp);
    if (swap) { /* the other contact off the profile; x_g mirrored: |x_g| is what counts */
      double t = y[XI_A];
      y[XI_A] = y[XI_B];
      y[XI_B] = t;
      y[X] = -y[X];
      y[XI_A] = -y[XI_A];
      y[XI_B] = -y[XI_B];
    }
    int rc = mbdae_problem_res(p, 0.0, y, yp, r);
    CHECK(rc == want, "%s (contacts swapped %d): residual %d, expected %d", what, swap, rc, want);
    rc = mbdae_problem_jac(p, 0.0, y, yp, dfdy, NULL);
    CHECK(inside ? rc == 0 : rc != 0, "%s (contacts swapped %d): Jacobian %d", what, swap, rc);
    for (int i = 0; inside && i < NEQ; i++) {
      CHECK(isfinite(r[i]), "%s: F[%d] = %g", what, i, r[i]);
    }
  }
  free(dfdy);
}

int main(void)
{
  mbdae_problem *p = NULL;
  char msg[256];
  CHECK(mbdae_problem_create("wheelset", &p, msg, sizeof msg) == 0, "%s", msg);
  if (!p) {
    return check_summary("test_wheelset_range");
  }
  double s = RS * sin(DELTA0), upper = AR + s + RS - EPS, lower = AR + s - RS + EPS;
  expect(p, 0.0, INSIDE_XG, 1, "inside");
  expect(p, 0.0, upper - EPS / 2, 1, "rail: just below the outer bound");
  expect(p, 0.0, upper + EPS / 2, 0, "rail: just above the outer bound");
  expect(p, 0.0, lower + EPS / 2, 1, "rail: just above the inner bound");
  expect(p, 0.0, lower - EPS / 2, 0, "rail: just below the inner bound");
  /* the wheel: xi = 0 (b_1) and xi = b_2 off it, the rail point kept inside by x */
  expect(p, INSIDE_XG - 1e-3, 1e-3, 1, "wheel: xi just above b1");
  expect(p, INSIDE_XG, 0.0, 0, "wheel: xi at b1");
  expect(p, INSIDE_XG - B2, B2, 0, "wheel: xi at b2");
  mbdae_problem_destroy(p);
  return check_summary("test_wheelset_range");
}
