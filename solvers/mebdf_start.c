/* The first step of the MEBDF integrator (solvers/mebdf.h) from initial values that are
 * consistent only to about the tolerance.
 *
 * An index-3 form imposes g(q) = 0 on the positions.  Initial values with g(q_0) = delta != 0
 * (the slider crank's published init1: |g| = 2.03e-10, x3 given to nine digits) move q by about
 * delta on the first step whatever h is, so the velocity jumps by delta/h and, with the index
 * scaling of the error weights (tolerance of an index-2 variable times h), the error estimate
 * stays the same at every h: the crank in form index3 from init1 failed at t = 0 at rtol <= 1e-9
 * (estimate 2.02 at rtol 1e-9 and 40.4 at 1e-10 at every h from 1e-11 down to 3e-17, then "step
 * size below the minimum after error-test failures").  That part of the estimate is not a local
 * error of the method: it is the jump onto the constraint manifold, made once; the step that makes
 * it is exact about it (the new values satisfy the constraints).  The other solvers accept the
 * first step of these runs (rtol 1e-9: ida, radau5 and radau at h0 = 1e-11, bdf at h0/16) because
 * they measure the jump against a looser tolerance: ida against the caller's own (the jump is 0.14
 * of x3's tolerance at rtol 1e-9), radau5 and radau against rtol' = 0.08 and 0.1 rtol^(2/3), about
 * 100 times the caller's at 1e-9, where mebdf's local tolerance is f = 0.007 times it.
 *
 * Here: after an error-test failure of a first step, the next attempt, at h = r h_prev, splits its
 * estimate into the part that falls with h like the local error of order k + 1,
 * E_trunc = (E_prev - E) r^(k+1) / (1 - r^(k+1)) (from E = E_flat + b h^(k+1) at both steps), and
 * the rest, E_flat = E - E_trunc.  The step is accepted when E_trunc <= 1 (the local error within
 * the local tolerance, as always) and E_flat f <= 1: the jump within the caller's own tolerance,
 * f being the local tolerance factor (solvers/mebdf.c), because a jump made once does not add up
 * over the steps as local errors do.  A larger jump, or a first step without an earlier failure,
 * is rejected as before, and a start inconsistent beyond the tolerance still ends with the error
 * test's failure.  The rule only ever turns a rejection into an acceptance, and only on the first
 * step of a run: runs whose first step passes are the same to the bit. */
#include <math.h>

#include "mebdf.h"

int mebdf_start_accepts(mebdf *s)
{
  if (s->st->accepted > 0 || s->nreal != 1) {
    return 0;
  }
  double h_prev = s->start_h, est_prev = s->start_est;
  s->start_h = s->h;
  s->start_est = s->est;
  if (!(est_prev > 0.0 && s->h < h_prev)) {
    return 0;
  }
  double rp = pow(s->h / h_prev, (double)(s->k + 1));
  double trunc = fmax(0.0, est_prev - s->est) * rp / (1.0 - rp);
  double flat = s->est - trunc;
  return trunc <= 1.0 && flat * s->tol.factor <= 1.0;
}
