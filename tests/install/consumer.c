/* An external program that uses only the public API of an installed mbdae: it evaluates the
 * residual and the Jacobian of the car axis problem at its initial values and compares a final
 * vector with the reference through mbdae_scd; then it steps the car axis with each built-in
 * solver (mbdae_integrator, MBDAE_ONE_STEP to tend) and compares y(tend) with mbdae_solve's, bit
 * for bit.  Exit 0 when everything is as expected. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbdae/mbdae.h>

/* solver stepped one step at a time to tend gives mbdae_solve's y(tend) bit for bit. */
static int steps_as_solve(const mbdae_problem *p, const char *solver)
{
  double y[64], z[64], t = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = opt.h0 = 1e-6;
  mbdae_result r;
  mbdae_integrator *it = NULL;
  char msg[320];
  if (mbdae_solve(p, solver, &opt, 1, y, NULL, &r) != 0 ||
      mbdae_integrator_create(p, mbdae_solver_find(solver), &opt, &it, msg, sizeof msg) != 0) {
    return 0;
  }
  long steps = 0;
  while (t < tend && mbdae_integrator_step(it, tend, MBDAE_ONE_STEP, &t) == 0) {
    steps++;
  }
  mbdae_integrator_state(it, z, NULL);
  mbdae_integrator_free(it);
  int same = t == tend && memcmp(y, z, sizeof(double) * (size_t)mbdae_problem_neq(p)) == 0;
  printf("consumer: %s stepped to tend in %ld steps, y(tend) %s mbdae_solve's\n", solver, steps,
         same ? "equal to" : "DIFFERENT from");
  return same;
}

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
  const char *solvers[] = {"ida", "radau5", "radau", "bdf", "mebdf"};
  for (int k = 0; k < 5; k++) {
    ok = steps_as_solve(p, solvers[k]) && ok;
  }
  free(y);
  mbdae_problem_destroy(p);
  return ok ? 0 : 1;
}
