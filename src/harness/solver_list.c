/* The built-in solvers (harness layer): their list (solver_list.h, MBDAE_BUILTIN_SOLVERS), found
 * by index or id, and the private map from a built-in type to its run as an object
 * (mbdae_stepper, for mbdae_integrator_create).  What a solver can do is on its type
 * (mbdae_solver_caps, read in src/harness/solver_caps.c), not here. */
#include <string.h>

#include "solver_list.h"

typedef struct builtin_solver {
  const mbdae_solver_type *type;
  const mbdae_stepper *stepper;
} builtin_solver;

#define MBDAE_BUILTIN_ENTRY(x) {&mbdae_solver_##x, &mbdae_stepper_##x},
static const builtin_solver builtin[] = {MBDAE_BUILTIN_SOLVERS(MBDAE_BUILTIN_ENTRY)};
#undef MBDAE_BUILTIN_ENTRY
enum { NSOLVERS = (int)(sizeof builtin / sizeof builtin[0]) };

int mbdae_solver_count(void) { return NSOLVERS; }

const mbdae_solver_type *mbdae_solver_get(int i)
{
  return (i >= 0 && i < NSOLVERS) ? builtin[i].type : NULL;
}

const mbdae_solver_type *mbdae_solver_find(const char *id)
{
  for (int i = 0; id && i < NSOLVERS; i++) {
    if (strcmp(builtin[i].type->id, id) == 0) {
      return builtin[i].type;
    }
  }
  return NULL;
}

const char *mbdae_solver_id(int i) { return (i >= 0 && i < NSOLVERS) ? builtin[i].type->id : NULL; }

const char *mbdae_solver_title(int i)
{
  return (i >= 0 && i < NSOLVERS) ? builtin[i].type->title : NULL;
}

const mbdae_stepper *mbdae_solver_stepper(const mbdae_solver_type *type)
{
  for (int i = 0; type && i < NSOLVERS; i++) {
    if (builtin[i].type == type) {
      return builtin[i].stepper;
    }
  }
  return NULL;
}
