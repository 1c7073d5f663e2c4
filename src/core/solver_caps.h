/* The storage AUTO resolves to from a solver's capabilities (private, core layer).  The record
 * itself is public (mbdae_solver_caps, include/mbdae/solve.h): each built-in solver in solvers/
 * points its type to one and passes it here when it sets up its iteration matrix; the harness
 * reads a type's record for mbdae_linsys_resolve, the run's refusals and the LU cost
 * (src/harness/solver_caps.c).  Nothing compares a solver's id to decide a default or a cost. */
#ifndef MBDAE_SOLVER_CAPS_H
#define MBDAE_SOLVER_CAPS_H

#include "mbdae/mbdae.h"

/* The kind of iteration matrix a solver with capabilities caps (NULL: none) uses for p when asked
 * for linsys: AUTO resolves to the pattern's kind, and to MBDAE_JAC_CONDENSED for a dense pattern
 * of at most MBDAE_CONDENSE_MAX_N equations when caps->condenses; any other linsys is returned as
 * it is. */
int mbdae_linsys_choose(const mbdae_problem *p, const mbdae_solver_caps *caps, int linsys);

#endif /* MBDAE_SOLVER_CAPS_H */
