/* The interface every integrator in solvers/ implements (private to the library).
 *
 * integrate() starts from y, yp (consistent values at t0, supplied by the harness), advances to
 * tend and leaves y(tend), y'(tend) there.  It fills r->status, r->t, r->h, r->message and
 * r->stats; the harness (src/solve.c) does the timing and repeats.  A solver knows a problem only
 * through the public problem API. */
#ifndef MBDAE_SOLVER_TYPE_H
#define MBDAE_SOLVER_TYPE_H

#include "mbdae/mbdae.h"

typedef struct solver_type {
  const char *id;    /* "ida" */
  const char *title; /* "SUNDIALS IDA (variable-order BDF), dense direct linear solver" */
  int (*integrate)(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                   mbdae_result *r);
} solver_type;

extern const solver_type mbdae_solver_ida;
extern const solver_type mbdae_solver_radau5;
extern const solver_type mbdae_solver_bdf;

/* Fill r->status, r->t, r->h and r->message ("t = ..., h = ...: reason") for a failure. */
int mbdae_fail(mbdae_result *r, int status, double t, double h, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif /* MBDAE_SOLVER_TYPE_H */
