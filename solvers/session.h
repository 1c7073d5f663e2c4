/* A built-in solver's run as an object over the shared step driver (private): the mbdae_stepper
 * ops (solver_type.h) for a method of solvers/driver.h, and the whole run as that object stepped
 * to tend (mbdae_stepper_run), which every built-in solver's integrate() is.  The session holds
 * the driver, the method's table and its state; a solver's open makes the state, then the
 * session, starts the driver in it and begins with the first step size. */
#ifndef MBDAE_SESSION_H
#define MBDAE_SESSION_H

#include "driver.h"
#include "solver_type.h"

typedef struct driver_session {
  mbdae_driver d;
  const driver_method *method;
  void *m;                  /* the method's state */
  void (*release)(void *m); /* frees m and what it holds */
  const double *y, *yp;     /* the caller's arrays the method updates */
} driver_session;

/* A session for the method with state m (NULL when out of memory: m is then released). */
driver_session *mbdae_session_new(const driver_method *method, void *m, void (*release)(void *m),
                                  const double *y, const double *yp);
/* The mbdae_stepper ops of a driver session. */
int mbdae_session_step(void *session, double tout, int mode, double *t);
int mbdae_session_dense(void *session, double t, double *yout);
void mbdae_session_last_step(const void *session, double *tprev, double *t);
void mbdae_session_close(void *session);

/* The whole run of the stepper's solver over [t0, tend] of p: open at t0, step with MBDAE_NORMAL
 * to tend, close.  The integrate() of solver_type.h: returns r->status. */
int mbdae_stepper_run(const mbdae_stepper *st, const mbdae_problem *p, const mbdae_options *opt,
                      double *y, double *yp, mbdae_result *r);

#endif /* MBDAE_SESSION_H */
