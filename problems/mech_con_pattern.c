/* Where the hidden constraints g and g' of a grouped model (a chain's links) can depend on y:
 * constraint k of group K involves the coordinates of the groups within mech_model.con_reach of
 * K, and g' (G v + g_t) their velocities too; ggl's g' runs along u = v - W^T mu, where u of a
 * group holds the multipliers and coordinates of the groups within reach of it, so its reach
 * doubles.  The pattern takes every variable of a group within reach (a superset: the check
 * only needs that nothing outside it can be nonzero), so that the constraint check can
 * difference the columns in groups that share no row (src/harness/diagnostics.c). */
#include "mech_layer.h"

/* Reach in groups of g and g' in mp's form, or -1 when the model or form states none. */
static int reach_of(const mech_params *mp)
{
  const mech_model *m = mp->model;
  if (m->groups <= 1 || m->con_reach <= 0 || form_of(mp)->kind != MECH_KIND_CARTESIAN) {
    return -1;
  }
  return form_of(mp)->mu_level != MECH_LEVEL_NONE ? 2 * m->con_reach : m->con_reach;
}

int mbdae_mech_constraint_pattern(const void *params, int *colptr, int *rowind)
{
  const mech_params *mp = params;
  int reach = reach_of(mp);
  if (reach < 0) {
    return MBDAE_ERR_UNSUPPORTED;
  }
  layout l = mech_layout_of(mp);
  int groups = mp->model->groups, per = l.n / groups, gc = l.nc / groups;
  int nnz = 0;
  colptr[0] = 0;
  for (int j = 0; j < l.n; j++) {
    int group = j / per;
    int first = group - reach < 0 ? 0 : group - reach;
    int last = group + reach >= groups ? groups - 1 : group + reach;
    for (int k = first * gc; k < (last + 1) * gc; k++) {
      if (rowind) {
        rowind[nnz] = k;
      }
      nnz++;
    }
    colptr[j + 1] = nnz;
  }
  return 0;
}
