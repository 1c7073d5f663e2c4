/* Consistent index-1 algebraic values and derivatives at a point (private), for bdf's second start
 * from initial values whose index-1 algebraic part is inconsistent (solvers/consistent_start.c
 * says when and why). */
#ifndef MBDAE_CONSISTENT_START_H
#define MBDAE_CONSISTENT_START_H

#include "jacobian.h"
#include "linsys.h"
#include "weights.h"

/* Work and inputs of mbdae_consistent_algebraic: the problem, its Jacobian store and iteration
 * matrix (both overwritten), the index per variable, the caller's tolerance. */
typedef struct mbdae_consistent_work {
  const mbdae_problem *p;
  mbdae_jacobian *jac;
  mbdae_itmat *lu;
  const int *index;
  const mbdae_tolerance *tol;
  int *mask;       /* n ints: 1 where y'_i enters F (written) */
  double *res;     /* n doubles of scratch */
  mbdae_stats *st; /* residuals, Jacobians and factorizations are counted here */
} mbdae_consistent_work;

/* What mbdae_consistent_algebraic returns when it does not apply (MBDAE_RECOVERABLE is 1). */
enum { MBDAE_CONSISTENT_NONE = 2 };

/* Given the differential values y_d at t (kept), solve F(t, y, y') = 0 for the index-1 algebraic
 * values y_a and the derivatives y'_d (IDACalcIC's YA_YDP_INIT); y'_a is kept.  cj is the leading
 * coefficient of the iteration matrix used (1/h of the step to come).  Returns 0 when the Newton
 * iteration converged (y, yp updated); MBDAE_CONSISTENT_NONE when the problem has no index-1
 * algebraic variable or has an algebraic variable of higher index (y, yp untouched);
 * MBDAE_RECOVERABLE when it did not converge or a residual could not be evaluated, or a negative
 * code (y, yp then hold the last iterate: the caller passes copies). */
int mbdae_consistent_algebraic(const mbdae_consistent_work *w, double t, double cj, double *y,
                               double *yp);

#endif /* MBDAE_CONSISTENT_START_H */
