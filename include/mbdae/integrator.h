/* mbdae/integrator.h: a run as an object, stepped by the caller (the pattern of SUNDIALS' IDASolve
 * with IDA_ONE_STEP / IDA_NORMAL and IDAGetDky, GSL's gsl_odeiv2_evolve_apply and SciPy's
 * OdeSolver.step / dense_output).
 *
 *   mbdae_integrator *it;
 *   mbdae_integrator_create(p, mbdae_solver_find("radau5"), &opt, &it, msg, sizeof msg);
 *   double t;
 *   while (mbdae_integrator_step(it, tend, MBDAE_ONE_STEP, &t) == MBDAE_OK && t < tend) {
 *     mbdae_integrator_dense(it, t - h / 2, y); ... (y anywhere in the last step)
 *   }
 *   mbdae_integrator_state(it, y, yp);  (the state at t)
 *   mbdae_integrator_free(it);
 *
 * The run covers the problem's interval: it starts at t0 (or the reset's) and no step passes
 * tend, whose end-point rule each solver applies as in a whole run.  Stepping with MBDAE_NORMAL
 * to tend makes the very computation of mbdae_solve_with: every built-in solver's integrate is an
 * integrator stepped so (one loop for both), and y(tend) and the counters are equal bit for bit.
 * Every built-in solver steps (its capabilities say steps = 1); a solver type that gives only
 * integrate (a plug-in's, steps = 0) runs whole runs only and is refused by
 * mbdae_integrator_create.  The options are those of mbdae_solve_with
 * (checked the same way; on_step, on_accept, project, stop and output times are honoured in the
 * steps that pass them); the integrator keeps its own copy of them (not of the arrays tout, yout
 * and the callbacks' contexts, which must outlive it). */
#ifndef MBDAE_INTEGRATOR_H
#define MBDAE_INTEGRATOR_H

#include <stddef.h>
#include "base.h"
#include "problem.h"
#include "solve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The modes of mbdae_integrator_step. */
#define MBDAE_NORMAL 1   /* steps until the solver's t reaches tout; y(tout) is then dense(tout) */
#define MBDAE_ONE_STEP 2 /* one accepted step, cut short to end at tout if it would pass it */

/* An integrator (opaque: its layout may change without a change of the API). */
typedef struct mbdae_integrator mbdae_integrator;

/* An integrator of p by solver s with opt, starting from p's consistent initial values at t0.
 * Returns 0 and *out, or a negative code with the reason in msg (msglen bytes, may be NULL / 0):
 * MBDAE_ERR_ARG for a missing argument, a bad solver type or bad options; MBDAE_ERR_UNSUPPORTED
 * for a solver that cannot step (capabilities steps = 0) and for what its capabilities or the
 * solver refuse at the start (options.project, a linsys it lacks: the message says),
 * MBDAE_ERR_NOMEM. */
MBDAE_API int mbdae_integrator_create(const mbdae_problem *p, const mbdae_solver_type *s,
                                      const mbdae_options *opt, mbdae_integrator **out, char *msg,
                                      size_t msglen);
/* Start again at t0 (in [t0 of p, tend of p)) from y0, yp0 (consistent: neq values each, copied),
 * with the counters at 0, as a new integrator would from there.  Returns 0, or a negative code
 * (mbdae_integrator_message says why; the integrator then refuses to step until a reset works). */
MBDAE_API int mbdae_integrator_reset(mbdae_integrator *it, double t0, const double *y0,
                                     const double *yp0);
/* Advance (mode MBDAE_ONE_STEP or MBDAE_NORMAL) towards tout <= tend from the solver's time t
 * (mbdae_integrator_t).  MBDAE_ONE_STEP: t < tout; MBDAE_NORMAL: tout anywhere from the start of
 * the last step on (a tout the solver has reached makes no step: y(tout) is dense(tout), as for
 * IDASolve's IDA_NORMAL).  *tret (may be NULL): tout after a NORMAL call, else the solver's t (tout
 * after a ONE_STEP cut short, before tout when options.stop ended the run).  Returns 0, or a
 * negative code: MBDAE_ERR_ARG (no step made) for a bad mode, a tout behind t ("step backward")
 * or beyond tend, a ONE_STEP after the run's end ("ended"); a solver failure (MBDAE_ERR_CONV,
 * ..., with the message mbdae_solve_with reports), after which the integrator holds the last
 * accepted state and answers every step with that failure. */
MBDAE_API int mbdae_integrator_step(mbdae_integrator *it, double tout, int mode, double *tret);
/* The solver's time: the end of its last accepted step (t0 before the first). */
MBDAE_API double mbdae_integrator_t(const mbdae_integrator *it);
/* y(t) and y'(t) at the solver's time t (neq values each; yp may be NULL): the state it steps
 * from, bit for bit the y and y' of a whole run that ended there. */
MBDAE_API void mbdae_integrator_state(const mbdae_integrator *it, double *y, double *yp);
/* y at t in the last accepted step [t - h, t] from the solver's continuous extension (its
 * collocation or interpolation polynomial; at t itself the state).  Returns 0, or MBDAE_ERR_ARG
 * (y untouched, the message says the step's bounds) for t outside it (before the first step:
 * every t but t0). */
MBDAE_API int mbdae_integrator_dense(mbdae_integrator *it, double t, double *y);
/* The counters since create or the last reset (those of mbdae_solve_with's result). */
MBDAE_API void mbdae_integrator_stats(const mbdae_integrator *it, mbdae_stats *stats);
/* Why the last call failed ("" after a success), valid until the next call. */
MBDAE_API const char *mbdae_integrator_message(const mbdae_integrator *it);
/* Frees it (NULL: nothing). */
MBDAE_API void mbdae_integrator_free(mbdae_integrator *it);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_INTEGRATOR_H */
