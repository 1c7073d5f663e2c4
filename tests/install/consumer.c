/* An external program that uses only the public API of an installed mbdae: it evaluates the
 * residual and the Jacobian of the car axis problem at its initial values and compares a final
 * vector with the reference through mbdae_scd.  Exit 0 when everything is as expected. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mbdae/mbdae.h>

int main(void)
{
  mbdae_problem *p = NULL;
  char msg[256];
  if (mbdae_problem_create("caraxis", &p, msg, sizeof msg) != 0) {
    fprintf(stderr, "consumer: %s\n", msg);
    return 1;
  }
  int n = mbdae_problem_neq(p);
  double *y = malloc(sizeof(double) * (size_t)(4 * n + 2 * n * n));
  double *yp = y + n, *res = yp + n, *yref = res + n, *dfdy = yref + n, *dfdyp = dfdy + n * n;
  int ok = mbdae_problem_init(p, y, yp) == 0 && mbdae_problem_res(p, 0.0, y, yp, res) == 0 &&
           mbdae_problem_jac(p, 0.0, y, yp, dfdy, dfdyp) == 0 && mbdae_problem_ref(p, yref) == 0;
  double rmax = 0.0;
  for (int i = 0; i < n; i++) {
    rmax = fmax(rmax, fabs(res[i]));
  }
  /* A final vector with relative error 1e-6 in every component has scd 6. */
  for (int i = 0; i < n; i++) {
    y[i] = yref[i] * (1.0 + 1e-6);
  }
  double scd = mbdae_scd(p, y, yref);
  printf("consumer: mbdae %s, %s: n = %d, |F(t0)| = %.2e, scd = %.2f\n", MBDAE_VERSION,
         mbdae_problem_title(p), n, rmax, scd);
  ok = ok && rmax < 1e-12 && fabs(scd - 6.0) < 1e-6;
  free(y);
  mbdae_problem_destroy(p);
  return ok ? 0 : 1;
}
