/* An external program that uses only the public API of an installed daets: it evaluates the
 * residual and the Jacobian of the car axis problem at its initial values and compares a final
 * vector with the reference through daets_scd.  Exit 0 when everything is as expected. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <daets/daets.h>

int main(void)
{
  daets_problem *p = NULL;
  char msg[256];
  if (daets_problem_create("caraxis", &p, msg, sizeof msg) != 0) {
    fprintf(stderr, "consumer: %s\n", msg);
    return 1;
  }
  int n = daets_problem_neq(p);
  double *y = malloc(sizeof(double) * (size_t)(4 * n + 2 * n * n));
  double *yp = y + n, *res = yp + n, *yref = res + n, *dfdy = yref + n, *dfdyp = dfdy + n * n;
  int ok = daets_problem_init(p, y, yp) == 0 && daets_problem_res(p, 0.0, y, yp, res) == 0 &&
           daets_problem_jac(p, 0.0, y, yp, dfdy, dfdyp) == 0 && daets_problem_ref(p, yref) == 0;
  double rmax = 0.0;
  for (int i = 0; i < n; i++) {
    rmax = fmax(rmax, fabs(res[i]));
  }
  /* A final vector with relative error 1e-6 in every component has scd 6. */
  for (int i = 0; i < n; i++) {
    y[i] = yref[i] * (1.0 + 1e-6);
  }
  double scd = daets_scd(p, y, yref);
  printf("consumer: daets %s, %s: n = %d, |F(t0)| = %.2e, scd = %.2f\n", DAETS_VERSION,
         daets_problem_title(p), n, rmax, scd);
  ok = ok && rmax < 1e-12 && fabs(scd - 6.0) < 1e-6;
  free(y);
  daets_problem_destroy(p);
  return ok ? 0 : 1;
}
