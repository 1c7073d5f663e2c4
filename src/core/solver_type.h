/* The built-in integrators in solvers/ (private to the library): each exports one
 * mbdae_solver_type (public, include/mbdae/mbdae.h, its capabilities in .caps) and its
 * mbdae_stepper, both listed and declared by the harness (src/harness/solver_list.h).
 * integrate() starts from y, yp (consistent values at t0, supplied by the harness), advances to
 * tend and leaves y(tend), y'(tend) there.  A solver knows a problem only through the public
 * problem API.
 *
 * A built-in solver also steps (include/mbdae/integrator.h): its run is an object, opened, stepped
 * and closed through its mbdae_stepper (found from the type by the harness), and its integrate()
 * is that object run to tend (mbdae_stepper_run, solvers/session.h): one loop for both uses, so
 * stepping to tend gives a whole run's y and counters bit for bit. */
#ifndef MBDAE_SOLVER_TYPE_H
#define MBDAE_SOLVER_TYPE_H

#include "mbdae/mbdae.h"

/* A run as an object (the modes are include/mbdae/integrator.h's). */
typedef struct mbdae_stepper {
  /* A run of p with opt (checked: the library's full struct) from the consistent y, yp at t0 in
   * [t0 of p, tend of p): y, yp are the caller's arrays, which hold the state at the end of the
   * last accepted step after every call; r (zeroed) receives the counters and any failure.
   * 0 and *session, or a negative status recorded in r (nothing to close). */
  int (*open)(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y, double *yp,
              mbdae_result *r, void **session);
  /* MBDAE_ONE_STEP: one accepted step, ending at tout at the latest; MBDAE_NORMAL: steps until
   * the solver's t reaches tout (tend at the latest).  The caller keeps t < tout <= tend.  *t the
   * solver's t after the call; returns 1 when the run ended (at tend, or options.stop; r->status
   * 0), 0 to go on, or a negative status recorded in r. */
  int (*step)(void *session, double tout, int mode, double *t);
  /* y at t inside the last accepted step [*tprev, *t] of last_step (the caller checks): 0, or a
   * negative code. */
  int (*dense)(void *session, double t, double *yout);
  void (*last_step)(const void *session, double *tprev, double *t);
  void (*close)(void *session);
} mbdae_stepper;

#endif /* MBDAE_SOLVER_TYPE_H */
