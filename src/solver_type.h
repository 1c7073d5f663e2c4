/* The interface every integrator in solvers/ implements (private to the library).
 *
 * integrate() starts from y, yp (consistent values at t0, supplied by the harness), advances to
 * tend and leaves y(tend), y'(tend) there.  It fills r->status, r->t, r->h, r->message and
 * r->stats; the harness (src/solve.c) does the timing and repeats.  A solver knows a problem only
 * through the public problem API. */
#ifndef DAETS_SOLVER_TYPE_H
#define DAETS_SOLVER_TYPE_H

#include "daets/daets.h"

typedef struct solver_type {
  const char *id;    /* "ida" */
  const char *title; /* "SUNDIALS IDA (variable-order BDF), dense direct linear solver" */
  int (*integrate)(const daets_problem *p, const daets_options *opt, double *y, double *yp,
                   daets_result *r);
} solver_type;

extern const solver_type daets_solver_ida;
extern const solver_type daets_solver_radau5;
extern const solver_type daets_solver_bdf;

/* Fill r->status, r->t, r->h and r->message ("t = ..., h = ...: reason") for a failure. */
int daets_fail(daets_result *r, int status, double t, double h, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif /* DAETS_SOLVER_TYPE_H */
