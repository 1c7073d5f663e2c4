/* The failure message of a run (private, core layer): what every solver in solvers/ fills into its
 * mbdae_result when it stops, in one format, so that tables and records read alike. */
#ifndef MBDAE_FAIL_H
#define MBDAE_FAIL_H

#include "mbdae/mbdae.h"

/* Fill r->status, r->t, r->h and r->message ("t = ..., h = ...: reason") for a failure; returns
 * status. */
int mbdae_fail(mbdae_result *r, int status, double t, double h, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif /* MBDAE_FAIL_H */
