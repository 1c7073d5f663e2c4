/* The built-in integrators in solvers/ (private to the library): each exports one
 * mbdae_solver_type (public, include/mbdae/mbdae.h), listed by the harness (src/core/solve.c).
 * integrate() starts from y, yp (consistent values at t0, supplied by the harness), advances to
 * tend and leaves y(tend), y'(tend) there.  A solver knows a problem only through the public
 * problem API. */
#ifndef MBDAE_SOLVER_TYPE_H
#define MBDAE_SOLVER_TYPE_H

#include "mbdae/mbdae.h"

extern const mbdae_solver_type mbdae_solver_ida;
extern const mbdae_solver_type mbdae_solver_radau5;
extern const mbdae_solver_type mbdae_solver_radau;
extern const mbdae_solver_type mbdae_solver_bdf;
extern const mbdae_solver_type mbdae_solver_spm;

/* The options a caller passed, checked and completed into full (the library's own struct, size
 * sizeof(mbdae_options)): the first opt->size bytes, every field beyond them at its default.
 * NULL, or why opt->size is refused (0, below the first sized struct, above the library's). */
const char *mbdae_options_take(const mbdae_options *opt, mbdae_options *full);

/* Fill r->status, r->t, r->h and r->message ("t = ..., h = ...: reason") for a failure. */
int mbdae_fail(mbdae_result *r, int status, double t, double h, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif /* MBDAE_SOLVER_TYPE_H */
