/* The Radau IIA integrator of solvers/radau.c behind its two solver types (private): `radau`
 * (s = 3, 5, 7 with RADAU's order selection, solvers/radau.c) and `radau5` (s = 3 with RADAU5's
 * controls, solvers/radau5.c) are one implementation run with different controls. */
#ifndef MBDAE_RADAU_H
#define MBDAE_RADAU_H

#include "session.h"
#include "solver_caps.h"
#include "solver_type.h"

/* The order sets: s = 3 + 2 k stages for k = 0 .. RADAU_ORDER_SETS - 1. */
enum { RADAU_ORDER_SETS = 3 };

/* What differs between the solver types. */
typedef struct radau_controls {
  const mbdae_solver_caps *caps; /* the solver type's capabilities (its default linsys) */
  int max_order_set;             /* the largest k the order selection may reach: 0 keeps s = 3 */
  double tol_factor;             /* rtol' = tol_factor rtol^((s + 1)/(2 s)) (RADAU: 0.1) */
  int radau5_bits; /* 1: radau5's tableau constants and operation order (see radau.c) */
} radau_controls;

/* A run of the solver type with controls c as an object (the open of its mbdae_stepper, whose
 * other ops are the driver session's, solvers/session.h). */
int radau_open(const radau_controls *c, const mbdae_problem *p, const mbdae_options *opt, double t0,
               double *y, double *yp, mbdae_result *r, void **session);

#endif /* MBDAE_RADAU_H */
