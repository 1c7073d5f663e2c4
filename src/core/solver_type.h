/* The built-in integrators in solvers/ (private to the library): each exports one
 * mbdae_solver_type (public, include/mbdae/mbdae.h) and its capabilities (solver_caps.h), listed
 * by the harness (src/harness/solver_list.c).  integrate() starts from y, yp (consistent values at
 * t0, supplied by the harness), advances to tend and leaves y(tend), y'(tend) there.  A solver
 * knows a problem only through the public problem API. */
#ifndef MBDAE_SOLVER_TYPE_H
#define MBDAE_SOLVER_TYPE_H

#include "mbdae/mbdae.h"

extern const mbdae_solver_type mbdae_solver_ida;
extern const mbdae_solver_type mbdae_solver_radau5;
extern const mbdae_solver_type mbdae_solver_radau;
extern const mbdae_solver_type mbdae_solver_bdf;
extern const mbdae_solver_type mbdae_solver_spm;
extern const mbdae_solver_type mbdae_solver_mebdf;

#endif /* MBDAE_SOLVER_TYPE_H */
