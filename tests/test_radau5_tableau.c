/* test_radau5_tableau: the 3-stage tableau radau5 keeps (radau_tableau_radau5, solvers/
 * radau_tableau.c: RADAU5's closed forms evaluated in double) is the tableau radau_tableau_init
 * computes in long double, to within a few units in the 14th digit in every constant: the same
 * method, different last bits (which radau5's published rows depend on). */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "radau_tableau.h"

/* Measured: 7.5e-15; a constant moved by 2e-14 relative fails. */
static const double AGREEMENT = 1.5e-14;

static double worst = 0.0;

static void compare(const char *what, double a, double b)
{
  double d = fabs(a - b) / fmax(1.0, fabs(b));
  worst = fmax(worst, d);
  CHECK(d <= AGREEMENT, "%s: %.17g against %.17g (%.1e)", what, a, b, d);
}

int main(void)
{
  radau_tableau r5, ld;
  radau_tableau_radau5(&r5);
  CHECK(radau_tableau_init(&ld, 3) == 0, "the long-double tableau");
  CHECK(r5.s == 3 && r5.c[2] == 1.0, "s = %d, c_3 = %g", r5.s, r5.c[2]);
  char what[32];
  for (int i = 0; i < 3; i++) {
    snprintf(what, sizeof what, "c[%d]", i);
    compare(what, r5.c[i], ld.c[i]);
    snprintf(what, sizeof what, "d[%d]", i);
    compare(what, r5.d[i], ld.d[i]);
    for (int j = 0; j < 3; j++) {
      snprintf(what, sizeof what, "ainv[%d][%d]", i, j);
      compare(what, r5.ainv[i][j], ld.ainv[i][j]);
      snprintf(what, sizeof what, "t[%d][%d]", i, j);
      compare(what, r5.t[i][j], ld.t[i][j]);
      snprintf(what, sizeof what, "tinv[%d][%d]", i, j);
      compare(what, r5.tinv[i][j], ld.tinv[i][j]);
    }
  }
  compare("gamma", r5.gamma, ld.gamma);
  compare("alpha", r5.alpha[0], ld.alpha[0]);
  compare("beta", r5.beta[0], ld.beta[0]);
  printf("radau5's tableau against the long-double one: largest relative difference %.1e\n", worst);
  return check_summary("test_radau5_tableau");
}
