/* Private to the library (harness): the capability record of a built-in solver type, found from
 * its pointer (src/harness/solver_list.c). */
#ifndef MBDAE_SOLVER_LIST_H
#define MBDAE_SOLVER_LIST_H

#include "solver_caps.h"

/* The capabilities of a built-in solver type; NULL for any other type (a plug-in's). */
const mbdae_solver_caps *mbdae_solver_caps_of(const mbdae_solver_type *type);

#endif /* MBDAE_SOLVER_LIST_H */
