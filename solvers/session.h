/* A built-in solver's run as an object over the shared step driver (private): the mbdae_stepper
 * ops (solver_type.h) for a method of solvers/driver.h, and the whole run as that object stepped
 * to tend (mbdae_stepper_run), which every built-in solver's integrate() is.  The session holds
 * the driver, the method's table and its state; a solver's open makes the state, then the
 * session with the driver started (mbdae_session_open), and begins with the first step size
 * (mbdae_session_begin); its stepper ops and integrate() are the session's (MBDAE_SESSION_STEPPER,
 * MBDAE_STEPPER_INTEGRATE). */
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

/* The mbdae_stepper ops of a driver session. */
int mbdae_session_step(void *session, double tout, int mode, double *t);
int mbdae_session_dense(void *session, double t, double *yout);
void mbdae_session_last_step(const void *session, double *tprev, double *t);
void mbdae_session_close(void *session);

/* The start of a solver's open (its stepper's open op) from its state m, made by the solver (NULL
 * when that failed, the failure then in r): the session of m with the driver started at t0 under
 * the end-point rule (mbdae_driver_start), or NULL with the failure in r (m released). */
driver_session *mbdae_session_open(const driver_method *method, void *m, void (*release)(void *m),
                                   const mbdae_problem *p, const mbdae_options *opt, double t0,
                                   const driver_end_rule *end, double *y, double *yp,
                                   mbdae_result *r);
/* The end of a solver's open: the driver of ds begun with the first step h (mbdae_driver_begin);
 * 0 with *session = ds, or the driver's code with ds closed. */
int mbdae_session_begin(driver_session *ds, double h, void **session);

/* The mbdae_stepper ops of a driver session whose open op is open_fn. */
#define MBDAE_SESSION_STEPPER(open_fn)                                                             \
  {                                                                                                \
    open_fn, mbdae_session_step, mbdae_session_dense, mbdae_session_last_step, mbdae_session_close \
  }

/* Defines the integrate() of a solver type (solver_type.h) as static function `name`: the whole
 * run of the stepper (mbdae_stepper_run). */
#define MBDAE_STEPPER_INTEGRATE(name, stepper)                                                     \
  static int name(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,         \
                  mbdae_result *r)                                                                 \
  {                                                                                                \
    return mbdae_stepper_run(&(stepper), p, opt, y, yp, r);                                        \
  }

/* The whole run of the stepper's solver over [t0, tend] of p: open at t0, step with MBDAE_NORMAL
 * to tend, close.  The integrate() of solver_type.h: returns r->status. */
int mbdae_stepper_run(const mbdae_stepper *st, const mbdae_problem *p, const mbdae_options *opt,
                      double *y, double *yp, mbdae_result *r);

#endif /* MBDAE_SESSION_H */
