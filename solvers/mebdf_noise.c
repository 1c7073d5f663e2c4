/* The rounding floor of index-1 algebraic variables in the MEBDF integrator (solvers/mebdf.h).
 *
 * An algebraic variable of index 1 (its column of dF/dy' zero: the accelerations and multipliers
 * of the index-1 and Baumgarte forms) is what its equations give at y, up to the rounding of those
 * equations, noise_i (the bound of solvers/noise_floor.h, shared with bdf).  Where the local
 * tolerance is below it, the Newton test and the error test see that noise whatever h is, and h
 * falls to hmin: Andrews' squeezer in forms index1 and baumgarte failed at rtol <= 1.8e-9 (Newton
 * failures down to h ~ 1e-17 near t = 0.02).  So the tolerance of such a variable is at least
 * noise_i, as in bdf (solvers/bdf_norm.c, bdf_algebraic_noise, the same rule): computed after a
 * failed step with that step's matrix, and with every new matrix only while it is above some
 * tolerance, on problems of at most MEBDF_NOISE_MAX_N equations (n solves with the LU).  Wherever
 * the tolerance is above the floor the weights are the same numbers as without it. */
#include "mebdf.h"
#include "noise_floor.h"

int mebdf_noise_update(mebdf *s, const double *y, const double *yp)
{
  s->noise_stamp = s->jac.stamp;
  int rc = mbdae_algebraic_noise(&s->jac, &s->lu, s->index, y, yp, MEBDF_NOISE_MAX_N,
                                 s->differential, s->noise, s->noise_unit, s->noise_size);
  s->noise_binds = rc == 0 && mbdae_noise_binds(&s->tol, s->n, s->yuser, s->noise);
  return rc;
}
