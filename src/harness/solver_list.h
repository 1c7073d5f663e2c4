/* Private to the library (harness): the built-in solvers, one line each in MBDAE_BUILTIN_SOLVERS
 * (their order is mbdae_solver_get's), and what the harness reads from a solver type's
 * capability record (include/mbdae/solve.h, mbdae_solver_caps).  Each solver in solvers/<x>.c
 * defines the public-API type mbdae_solver_<x> (its record in .caps) and its private run as an
 * object, mbdae_stepper_<x> (src/core/solver_type.h), declared here: adding a solver is its
 * file(s), its line below and its line in CMakeLists.txt. */
#ifndef MBDAE_SOLVER_LIST_H
#define MBDAE_SOLVER_LIST_H

#include <stddef.h>

#include "solver_type.h"

#define MBDAE_BUILTIN_SOLVERS(X) X(ida) X(radau5) X(radau) X(bdf) X(spm) X(mebdf)

#define MBDAE_DECLARE_BUILTIN(x)                                                                   \
  extern const mbdae_solver_type mbdae_solver_##x;                                                 \
  extern const mbdae_stepper mbdae_stepper_##x;
MBDAE_BUILTIN_SOLVERS(MBDAE_DECLARE_BUILTIN)
#undef MBDAE_DECLARE_BUILTIN

/* The run as an object of a built-in solver type; NULL for any other type (a plug-in's). */
const mbdae_stepper *mbdae_solver_stepper(const mbdae_solver_type *type);

/* The capabilities of a valid type (mbdae_solver_type_invalid): its record read as far as its
 * size, the rest at the defaults of a type without one (include/mbdae/solve.h); those defaults
 * for NULL, a type whose size ends before .caps, or .caps NULL. */
void mbdae_solver_caps_take(const mbdae_solver_type *type, mbdae_solver_caps *caps);

/* NULL when type's capability record (if any) keeps the rules of include/mbdae/solve.h, else
 * what is wrong (for mbdae_solver_type_invalid). */
const char *mbdae_solver_caps_invalid(const mbdae_solver_type *type);

/* 0 when the type's capabilities allow a run with opt (checked options); else
 * MBDAE_ERR_UNSUPPORTED with the reason in msg: a linsys kind it does not take, a projection it
 * does not honour, output times it cannot fill. */
int mbdae_solver_caps_refuse(const mbdae_solver_type *type, const mbdae_options *opt, char *msg,
                             size_t msglen);

#endif /* MBDAE_SOLVER_LIST_H */
