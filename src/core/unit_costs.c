/* What one unit of a solver's work costs on a problem (mbdae_problem_unit_costs): residual,
 * Jacobian, and the real and complex factorizations of the iteration matrix through the same
 * linear-system layer (solvers/linsys.h) the built-in solvers use, timed on the process CPU clock.
 * `mbdae bench` turns a run's counters into shares of its time with these. */
#include <stdlib.h>

#include "cpu_time.h"
#include "linsys.h"
#include "mbdae/mbdae.h"

/* One block: y, yp, res, J, M (n + n + n + n^2 + n^2 doubles), then the linear system. */
static void time_evaluations(const mbdae_problem *p, int reps, double *y, double *yp, double *res,
                             double *J, double *M, mbdae_unit_costs *c)
{
  double t0 = mbdae_problem_t0(p);
  double start = cpu_now();
  for (int k = 0; k < reps; k++) {
    mbdae_problem_res(p, t0, y, yp, res);
  }
  c->res = (cpu_now() - start) / reps;
  start = cpu_now();
  for (int k = 0; k < reps; k++) {
    mbdae_problem_jac(p, t0, y, yp, J, M);
  }
  c->jac = (cpu_now() - start) / reps;
}

static void time_factorizations(int n, int reps, const double *J, const double *M, void *mem,
                                mbdae_unit_costs *c)
{
  mbdae_linsys ls;
  mbdae_linsys_init(&ls, n, 0, mem);
  double start = cpu_now();
  for (int k = 0; k < reps; k++) {
    mbdae_linsys_factor(&ls, J, M, 1e3);
  }
  c->lu_real = (cpu_now() - start) / reps;
  mbdae_linsys_init(&ls, n, 1, mem);
  start = cpu_now();
  for (int k = 0; k < reps; k++) {
    mbdae_linsys_factor_shift(&ls, J, M, 1e3, 1e3);
  }
  c->lu_complex = (cpu_now() - start) / reps;
}

int mbdae_problem_unit_costs(const mbdae_problem *p, int reps, mbdae_unit_costs *c)
{
  if (!p || !c || reps < 1) {
    return MBDAE_ERR_ARG;
  }
  int n = mbdae_problem_neq(p);
  size_t nn = (size_t)n * (size_t)n;
  size_t doubles = 3 * (size_t)n + 2 * nn;
  size_t sys = mbdae_linsys_bytes(n, 1);
  /* the linear system after the doubles, rounded up to the alignment of double complex */
  size_t offset = (doubles * sizeof(double) + 15) / 16 * 16;
  char *block = malloc(offset + sys);
  if (!block) {
    return MBDAE_ERR_NOMEM;
  }
  double *y = (double *)(void *)block, *yp = y + n, *res = yp + n, *J = res + n, *M = J + nn;
  int rc = mbdae_problem_init(p, y, yp);
  if (rc == 0) {
    rc = mbdae_problem_jac(p, mbdae_problem_t0(p), y, yp, J, M);
  }
  if (rc == 0) {
    time_evaluations(p, reps, y, yp, res, J, M, c);
    time_factorizations(n, reps, J, M, block + offset, c);
  }
  free(block);
  return rc;
}
