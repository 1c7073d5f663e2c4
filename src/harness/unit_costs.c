/* What one unit of a solver's work costs on a problem (mbdae_problem_unit_costs): residual,
 * Jacobian, and the real and complex factorizations of the iteration matrix, through the same
 * Jacobian store and linear-system layer (solvers/jacobian.h, solvers/linsys.h) the built-in
 * solvers use, in the storage the problem suggests (its pattern's kind: dense, band or KLU), so
 * that a large banded problem costs O(nnz) memory here too.  Timed on the process CPU clock.
 * `mbdae bench` turns a run's counters into shares of its time with these (the factorizations per
 * event from mbdae_solver_lu_cost).  Harness layer: it measures the solvers' own storage and
 * factorizations, so it stands above solvers/ and includes their private headers; the storage is
 * radau5's default for the problem (mbdae_linsys_resolve with radau5's type). */
#include <stdlib.h>

#include "cpu_time.h"
#include "jacobian.h"
#include "linsys.h"
#include "mbdae/mbdae.h"
#include "solver_list.h"
#include "struct_size.h"

static void time_evaluations(const mbdae_problem *p, int reps, const double *y, const double *yp,
                             double *res, mbdae_jacobian *jac, mbdae_unit_costs *c)
{
  double t0 = mbdae_problem_t0(p);
  double start = cpu_now();
  for (int k = 0; k < reps; k++) {
    mbdae_problem_res(p, t0, y, yp, res);
  }
  c->res = (cpu_now() - start) / reps;
  start = cpu_now();
  for (int k = 0; k < reps; k++) {
    mbdae_jacobian_eval(jac, p, t0, y, yp);
  }
  c->jac = (cpu_now() - start) / reps;
}

/* The mean time of reps factorizations of J + 1e3 M (real) or J + 1e3 (1 + i) M (complex). */
static int time_factorization(const mbdae_jacobian *jac, int is_complex, int reps, double *out)
{
  mbdae_itmat m;
  int rc = mbdae_itmat_create(&m, jac, is_complex);
  if (rc != 0) {
    return rc;
  }
  double start = cpu_now();
  for (int k = 0; k < reps; k++) {
    if (is_complex) {
      mbdae_itmat_factor_shift(&m, 1e3, 1e3);
    } else {
      mbdae_itmat_factor(&m, 1e3);
    }
  }
  *out = (cpu_now() - start) / reps;
  mbdae_itmat_free(&m);
  return 0;
}

/* mbdae_problem_unit_costs into the library's own struct. */
static int unit_costs(const mbdae_problem *p, int reps, mbdae_unit_costs *c)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  double *y = malloc(sizeof(double) * 3 * n);
  if (!y) {
    return MBDAE_ERR_NOMEM;
  }
  double *yp = y + n, *res = yp + n;
  mbdae_jacobian jac = {0};
  int rc = mbdae_jacobian_create(
      &jac, p, mbdae_linsys_resolve(p, &mbdae_solver_radau5, MBDAE_JAC_AUTO), NULL, 0);
  rc = rc == 0 ? mbdae_problem_init(p, y, yp) : rc;
  rc = rc == 0 ? mbdae_jacobian_eval(&jac, p, mbdae_problem_t0(p), y, yp) : rc;
  if (rc == 0) {
    time_evaluations(p, reps, y, yp, res, &jac, c);
    rc = time_factorization(&jac, 0, reps, &c->lu_real);
  }
  rc = rc == 0 ? time_factorization(&jac, 1, reps, &c->lu_complex) : rc;
  mbdae_jacobian_free(&jac);
  free(y);
  return rc;
}

int mbdae_problem_unit_costs(const mbdae_problem *p, int reps, mbdae_unit_costs *c)
{
  if (!p || !c || reps < 1 || mbdae_struct_size_invalid(c->size, sizeof *c, sizeof *c) != NULL) {
    return MBDAE_ERR_ARG;
  }
  mbdae_unit_costs full;
  mbdae_struct_take(c, c->size, &full, sizeof full);
  int rc = unit_costs(p, reps, &full);
  mbdae_struct_give(&full, c, c->size);
  return rc;
}
