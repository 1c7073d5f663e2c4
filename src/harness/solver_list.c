/* The built-in solvers (harness layer): their list, found by index or id, and what the public API
 * answers from their capability records (src/core/solver_caps.h): the storage a solver uses
 * (mbdae_linsys_resolve) and the cost of its factorization events (mbdae_solver_lu_cost).  A
 * record is found from the solver type's pointer; a type not in the list (a plug-in) has none. */
#include <string.h>

#include <math.h>

#include "solver_list.h"
#include "struct_size.h"

static const mbdae_solver_caps *const builtin[] = {
    &mbdae_caps_ida, &mbdae_caps_radau5, &mbdae_caps_radau,
    &mbdae_caps_bdf, &mbdae_caps_spm,    &mbdae_caps_mebdf,
};
enum { NSOLVERS = (int)(sizeof builtin / sizeof builtin[0]) };

int mbdae_solver_count(void) { return NSOLVERS; }

const mbdae_solver_type *mbdae_solver_get(int i)
{
  return (i >= 0 && i < NSOLVERS) ? builtin[i]->type : NULL;
}

const mbdae_solver_type *mbdae_solver_find(const char *id)
{
  for (int i = 0; id && i < NSOLVERS; i++) {
    if (strcmp(builtin[i]->type->id, id) == 0) {
      return builtin[i]->type;
    }
  }
  return NULL;
}

const char *mbdae_solver_id(int i)
{
  return (i >= 0 && i < NSOLVERS) ? builtin[i]->type->id : NULL;
}

const char *mbdae_solver_title(int i)
{
  return (i >= 0 && i < NSOLVERS) ? builtin[i]->type->title : NULL;
}

const mbdae_solver_caps *mbdae_solver_caps_of(const mbdae_solver_type *type)
{
  for (int i = 0; type && i < NSOLVERS; i++) {
    if (builtin[i]->type == type) {
      return builtin[i];
    }
  }
  return NULL;
}

int mbdae_linsys_resolve(const mbdae_problem *p, const char *solver, int linsys)
{
  return mbdae_linsys_choose(p, mbdae_solver_caps_of(mbdae_solver_find(solver)), linsys);
}

double mbdae_solver_lu_cost(const mbdae_solver_type *solver, const mbdae_unit_costs *c)
{
  const mbdae_solver_caps *caps = mbdae_solver_caps_of(solver);
  if (!c) {
    return 0.0;
  }
  if (mbdae_struct_size_invalid(c->size, sizeof *c, sizeof *c) != NULL) {
    return NAN;
  }
  if (!caps) {
    return c->lu_real;
  }
  return caps->lu_real * c->lu_real + caps->lu_complex * c->lu_complex;
}
