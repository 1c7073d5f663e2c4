/* The step driver the built-in solvers share (private): one loop that owns the step limit, hmax,
 * the end-point rule, output at requested times, on_step, the step counters and the failure
 * messages, around a method that makes one step attempt at a time.
 *
 * The layering is that of GSL's ode-initval2 (step / control / evolve) and of SUNDIALS IDA
 * (IDAStep, IDAHandleNFlag, IDACompleteStep): the method attempts the step [t, t + h] and reports
 * accepted, rejected (error test or nonlinear iteration, with the step size to retry with) or
 * failed (status and reason); the driver counts, limits, plans the next step, fills the output
 * from the method's continuous output and calls the observer.
 *
 * Meaning of the options, the same for every solver:
 * - max_steps: attempted steps, rejected ones included; the run fails with MBDAE_ERR_MAX_STEPS
 *   when the next attempt would exceed it (default DRIVER_DEFAULT_MAX_STEPS);
 * - hmax: no step handed to the method is longer;
 * - tout/yout: every output time in [t0, tend] is filled; at t0 with the initial values, at the
 *   end of a step with the values there (exactly), inside a step from the method's interpolant;
 * - project: after every accepted step, before the outputs and the observers, on the method's
 *   own state arrays, for a method that declared them (mbdae_driver_own_state); refused
 *   (MBDAE_ERR_UNSUPPORTED) for one that did not;
 * - on_step: after every accepted step (t at its end, its size, its order); then on_accept with
 *   the state there (y, y'); then stop, whose nonzero answer ends the run there successfully;
 * - failures: r->message "t = ..., h = ...: reason" (mbdae_fail), t the start of the step.
 * SUNDIALS IDA keeps its own loop (IDASolve in one-step mode) and uses the pieces
 * mbdae_driver_start, mbdae_driver_limit and mbdae_driver_accepted directly. */
#ifndef MBDAE_DRIVER_H
#define MBDAE_DRIVER_H

#include "solver_type.h"

#define DRIVER_DEFAULT_MAX_STEPS 1000000L

/* Appended to a step-size-floor failure whose last rejections were residuals that could not be
 * evaluated (or were not finite), so the message names the cause. */
#define DRIVER_RESIDUAL_WALL                                                                       \
  " after residual evaluation failures (the residual cannot be evaluated, or is not finite, "      \
  "beyond t)"

enum { DRIVER_REASON_LEN = 200 };

/* What became of one step attempt. */
typedef enum driver_outcome {
  DRIVER_ACCEPTED,       /* the step is taken: y, yp hold the values at its end */
  DRIVER_REJECTED_ERROR, /* the error test failed: retry from t with hnew (counted in nerrfail) */
  DRIVER_REJECTED_CONV,  /* the nonlinear iteration failed: retry with hnew (nconvfail) */
  /* A rejection after which the method gives up (status and reason set) is counted as one. */
  DRIVER_RETRY,  /* prepare only: nothing was attempted, go again with hnew (uncounted) */
  DRIVER_FAILED, /* give up: status and reason */
  DRIVER_READY   /* prepare only: ready to attempt the step */
} driver_outcome;

/* The method's report of one call. */
typedef struct driver_report {
  driver_outcome outcome;
  double hnew; /* step size to go on with (accepted: proposed next step, before hmax and the
                * end-point rule; failed or given up: the step size reported in the message) */
  int order;   /* order of an accepted step, for on_step */
  int status;  /* 0, or a negative MBDAE_ code: the method gives up */
  char reason[DRIVER_REASON_LEN]; /* when status < 0: why, without "t = ..., h = ..." */
} driver_report;

/* Gives up: sets status and the reason (printf format); the outcome is left to the caller
 * (DRIVER_FAILED, or the kind of rejection that ends the run). */
void mbdae_driver_give_up(driver_report *rep, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Each method's end-point rule: no step passes tend; a step that reaches within a factor stretch
 * of tend ends there (the remainder is absorbed); within split steps of tend the rest is divided
 * into equal steps (a fractional part of the step count up to slack counts as none); after_reject
 * applies the rule to the step sizes of retries too (else only to new steps). */
typedef struct driver_end_rule {
  double stretch;   /* >= 1 */
  int split;        /* >= 1 */
  double slack;     /* >= 0 */
  int after_reject; /* 0 or 1 */
} driver_end_rule;

/* A method: callbacks on its own state m. */
typedef struct driver_method {
  /* Before an attempt of [t, t + h] (NULL: nothing to do): refresh the Jacobian and the
   * factorization; DRIVER_READY, DRIVER_RETRY with hnew (no attempt made), or DRIVER_FAILED. */
  void (*prepare)(void *m, double t, double h, driver_report *rep);
  /* One attempt of the step [t, tnew], tnew = t + h (tend for the last step); on acceptance the
   * method leaves y(tnew), y'(tnew) in the arrays given to mbdae_driver_run. */
  void (*attempt)(void *m, double t, double h, double tnew, driver_report *rep);
  /* After an accepted step of size h (NULL: take hplan): the step size to go on with, given the
   * proposal hnext (limited by hmax) and hplan, what the end-point rule makes of it (last: it
   * ends at tend); a method may keep h (and its factorization) instead. */
  double (*resize)(void *m, double h, double hnext, double hplan, int last);
  /* y at t inside the last accepted step, from the method's continuous output. */
  void (*interpolate)(const void *m, double t, double *yout);
  /* NULL, or: the driver shortens the next step to h to end at a stop time (a one-step call's
   * tout, mbdae_driver_advance) instead of the size the method planned (resize); a method that
   * keeps data for the planned size (radau its factorization) refreshes them. */
  void (*shorten)(void *m, double h);
} driver_method;

/* The loop's state and the run's options. */
typedef struct mbdae_driver {
  const mbdae_options *opt;
  mbdae_result *r;
  int n;          /* number of equations */
  double t, tend; /* current time, end of the interval */
  double hmax;    /* opt->hmax, or 0 for none */
  long max_steps; /* the limit on attempted steps */
  int next_out;   /* first output time not yet filled */
  driver_end_rule end;
  double *state_y, *state_yp; /* the method's own state (mbdae_driver_own_state), or NULL */
  int stopped;                /* 1 when opt->stop asked to end the run after the last step */
  double h;                   /* the next step size (mbdae_driver_begin, mbdae_driver_advance) */
  double tprev;               /* the start of the last accepted step (t before any) */
  int done;                   /* 1 when the run ended: at tend, or stopped (r->status 0) */
} mbdae_driver;

/* Start a run of p at t0 (p's own, or a later one: mbdae_integrator_reset) from y (the initial
 * values): fills every output time <= t0 with y.  end NULL: the method has its own end-point rule
 * (IDA's stop time). */
void mbdae_driver_start(mbdae_driver *d, const mbdae_problem *p, double t0,
                        const mbdae_options *opt, const driver_end_rule *end, const double *y,
                        mbdae_result *r);
/* The method takes its next step from y, y' as they are after mbdae_driver_run reports an
 * accepted step (the arrays it gives to mbdae_driver_run): opt->project may then change them. */
void mbdae_driver_own_state(mbdae_driver *d, double *y, double *yp);
/* The first step size from the method's initial h: limited by hmax and by the end-point rule. */
double mbdae_driver_first_step(const mbdae_driver *d, double h);
/* The step after an accepted one: hmax, then the end-point rule from the current t. */
double mbdae_driver_plan(const mbdae_driver *d, double h);
/* MBDAE_ERR_MAX_STEPS (recorded in r, at t and the next step size h) when steps attempts were
 * made and the limit allows no more, else 0. */
int mbdae_driver_limit(mbdae_driver *d, long steps, double h);
/* After an accepted step ending at tnew with size h and the given order, y and yp the state
 * there: the outputs in (t, tnew] (at tnew: y; before it: interpolate(m, ...)), then on_step,
 * on_accept and stop (d->stopped); sets d->t = tnew. */
void mbdae_driver_accepted(mbdae_driver *d, double tnew, double h, int order, const double *y,
                           const double *yp,
                           void (*interpolate)(const void *m, double t, double *yout),
                           const void *m);
/* Success: r->status, r->t, r->h, r->message. */
int mbdae_driver_finish(mbdae_driver *d, double h);

/* Ready to step from the first step size h: 0, or MBDAE_ERR_UNSUPPORTED (recorded in r) when
 * opt->project is set and the method did not declare its state (mbdae_driver_own_state). */
int mbdae_driver_begin(mbdae_driver *d, double h);
/* One accepted step of the method with state m from d->t and d->h (attempts, rejections and
 * retries included), ending at stop at the latest: stop is tend, or a time before it where the
 * step is cut short (method->shorten).  y, yp are the caller's arrays the method updates (the
 * state on_accept reports).  Returns 0 after the step (d->done when the run ended, r->status set
 * by mbdae_driver_finish), or the failure's status recorded in r.  The whole run is
 * mbdae_driver_begin, then mbdae_driver_advance to tend until d->done: one loop, whether a caller
 * runs to tend (mbdae_driver_run) or steps (solvers/session.h). */
int mbdae_driver_advance(mbdae_driver *d, const driver_method *method, void *m, const double *y,
                         const double *yp, double stop);
/* The whole run for a method with state m from the first step size h.  Returns r->status. */
int mbdae_driver_run(mbdae_driver *d, const driver_method *method, void *m, double h,
                     const double *y, const double *yp);

#endif /* MBDAE_DRIVER_H */
