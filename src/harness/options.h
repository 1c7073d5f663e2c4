/* Private to the library (harness): the options a caller passed, taken up to their size
 * (include/mbdae/solve.h says how mbdae_options grows), checked and completed for a run, as
 * mbdae_solve_with and mbdae_integrator_create take them.  Defined in src/harness/solve.c. */
#ifndef MBDAE_OPTIONS_H
#define MBDAE_OPTIONS_H

#include "mbdae/mbdae.h"

/* The options a caller passed, checked and completed into full (the library's own struct, size
 * sizeof(mbdae_options)): the first opt->size bytes, every field beyond them at its default.
 * NULL, or why opt->size is refused (0, below the first sized struct, above the library's). */
const char *mbdae_options_take(const mbdae_options *opt, mbdae_options *full);
/* 0 when the values of opt (the library's full struct) suit a run of p; else MBDAE_ERR_ARG with
 * the first problem in msg. */
int mbdae_options_check(const mbdae_problem *p, const mbdae_options *opt, char *msg, size_t msglen);
/* What the harness makes of checked options before a run: h0 beyond the interval or hmax is the
 * interval or hmax (the same for every solver). */
void mbdae_options_complete(const mbdae_problem *p, mbdae_options *o);

#endif /* MBDAE_OPTIONS_H */
