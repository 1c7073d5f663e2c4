/* The start of the bdf integrator (solvers/bdf.h): the order-1 history of the first step, and a
 * second start from consistent index-1 algebraic values for a run that would fail within its start.
 *
 * The first step.  From (t0, y0, y'0) the history is phi_0 = y0, phi_1 = h y'0 at order 1 (BCP
 * ch. 5), h the first step size (the caller's h0, else DASSL's from the weighted norm of y'0).
 *
 * Inconsistent index-1 algebraic start. Initial values whose index-1 algebraic part does not
 * satisfy its equations (the slider crank's published init1 in forms index1 and baumgarte: a_q3,
 * a_q4 2.2e-7, 2.7e-7 off) are moved onto them by the first step at any h: a jump, not a local
 * error. After a rejected first step the history keeps psi_1 = h_first (IDA's IDAReset sets psi_1 =
 * h), so the estimate's alpha_1 = h / (h + h_first) lets the first step pass only near h = 1e-15,
 * and the history then carries the jump into the next step's predictor: the crank failed at rtol
 * 1.78e-9 to 1e-10 with "step size below the minimum", at t = 0 or after one step. A run that would
 * end so within its first START_STEPS + 1 steps starts once more from its last accepted point (y_d
 * as they are), y_a and y'_d made consistent (solvers/consistent_start.h, as IDACalcIC does) and a
 * new order-1 history from the first step size (bdf_restart_consistent); those 12 runs finish with
 * scd 8.79-9.64 (from init=consistent 8.80-8.92, radau5 8.59-9.46). Only a run that would fail
 * takes it, so a run that passes is the same to the bit (made consistent before every first step,
 * the same 12 runs passed with scd within 0.02, but 136 runs that passed changed in the 870 of
 * bdf's forms sweep: the crank's other init1 runs in those forms and all 98 of Andrews', whose
 * initial values are consistent only to rounding). A system with an algebraic variable of index 2
 * or 3 has no such start: in form ggl the same init1 moves velocities (up to 3.4 tolerances at rtol
 * 1e-9), differential values, which bdf never changes. The other solvers pass the 12 runs because
 * their error tests do not see the algebraic jump: ida leaves algebraic variables out
 * (IDASetSuppressAlg), and radau5's and radau's estimate E_0^-1 M (...) has M's zero columns there.
 */
#include <string.h>

#include "bdf.h"
#include "consistent_start.h"

/* The history for the first step of size h from (t0, y, y'): order 1, phi_0 = y, phi_1 = h y'. */
void bdf_start(bdf *s, double t0, double h, const double *y, const double *yp)
{
  s->t = t0;
  s->h = h;
  memcpy(s->phi[0], y, sizeof(double) * (size_t)s->n);
  for (int i = 0; i < s->n; i++) {
    s->phi[1][i] = h * yp[i];
  }
  s->k = 1;
  s->kold = 0;
  s->hold = 0.0;
  s->psi[0] = h;
  s->cj = s->cjold = 1.0 / h;
  s->conv_factor = RATE_START;
  s->need_jac = 1;
  s->phase = 0;
  s->ns = 0;
}

/* The second start (see above): from the last accepted
 * point (t_n, y, y'), y_a and y'_d consistent, y'_a the caller's initial ones, a new order-1
 * history with the run's first step size.  1 when made (once per run, within the start, on an
 * index-1 system), else 0: the caller then gives up as before. */
int bdf_restart_consistent(bdf *s)
{
  if (s->restarted || s->st->accepted > START_STEPS) {
    return 0;
  }
  s->restarted = 1;
  size_t bytes = sizeof(double) * (size_t)s->n;
  memcpy(s->y, s->yuser, bytes);
  memcpy(s->yp, s->ypuser, bytes);
  mbdae_consistent_work w = {s->p, &s->jac, &s->lu, s->index, &s->tol, s->mask, s->delta, s->st};
  if (mbdae_consistent_algebraic(&w, s->t, 1.0 / s->h_first, s->y, s->yp) != 0) {
    return 0;
  }
  for (int i = 0; i < s->n; i++) {
    if (!s->mask[i]) {
      s->yp[i] = s->yp0[i]; /* at t_n > t0 the corrector's y'_a carries the jump divided by h */
    }
  }
  memcpy(s->yuser, s->y, bytes);
  memcpy(s->ypuser, s->yp, bytes);
  bdf_set_base_weights(s, s->yuser);
  bdf_start(s, s->t, s->h_first, s->yuser, s->ypuser);
  s->ncf = s->nef = s->nsf = 0;
  return 1;
}
