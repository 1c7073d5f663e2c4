/* The finiteness check (private, core layer): shared by the solvers (solvers/weights.h, on every
 * residual and iteration matrix) and the problems (problems/mechanical.c, on a residual), so it
 * lives below both. */
#ifndef MBDAE_FINITE_H
#define MBDAE_FINITE_H

#include <stddef.h>

/* 1 when all count values are finite. */
int mbdae_all_finite(size_t count, const double *x);

#endif /* MBDAE_FINITE_H */
