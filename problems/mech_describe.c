/* Size, index per variable and names of a formulation (mechanical.h), the index per block from
 * the table of forms (problems/mech_forms.c). */
#include <stdio.h>

#include "mech_layer.h"

static void accvar_describe(const mech_params *mp, problem_info *info)
{
  const mech_model *m = mp->model;
  layout l = mech_layout_of(mp);
  info->neq = l.n;
  info->nconstraints = l.nc;
  info->res_checks_finite = 1; /* accvar_res (problems/mech_residual.c) */
  if (!info->index) {
    return;
  }
  for (int i = 0; i < l.n; i++) {
    int block = i < l.V ? 0 : (i < l.A ? 1 : (i < l.L ? 2 : (i < l.MU ? 3 : 4)));
    info->index[i] = form_of(mp)->index[block];
    info->in_scd[i] = (block == 4 || !m->in_scd) ? 1 : m->in_scd[i];
  }
  mbdae_problem_info_names(info, 0, l.MU, m->names);
  for (int k = 0; k < l.n - l.MU; k++) {
    snprintf(info->names + (size_t)(l.MU + k) * PROBLEM_NAME_LEN, PROBLEM_NAME_LEN, "%s%d",
             form_of(mp)->added_prefix, k + 1);
  }
}

void mbdae_mech_describe(const void *params, problem_info *info)
{
  const mech_params *mp = params;
  const mech_model *m = mp->model;
  info->ref_source = m->ref_source ? m->ref_source : "no reference for this problem";
  form_of(mp)->assembly->describe(mp, info);
}

void mech_cartesian_describe(const mech_params *mp, problem_info *info)
{
  const mech_model *m = mp->model;
  if (m->acc_vars) {
    accvar_describe(mp, info);
    return;
  }
  layout l = mech_layout_of(mp);
  info->neq = l.n;
  info->nconstraints = l.nc;
  if (!info->index) {
    return;
  }
  for (int i = 0; i < l.n; i++) {
    int block = i < l.V ? 0 : (i < l.L ? 1 : (i < l.MU ? 2 : 3));
    int at = mech_y_position(mp, &l, i);
    char *name = info->names + (size_t)at * PROBLEM_NAME_LEN;
    info->index[at] = form_of(mp)->index[block < 2 ? block : block + 1]; /* no block a */
    info->in_scd[at] = (block == 3 || !m->in_scd) ? 1 : m->in_scd[i];
    if (block == 3) {
      snprintf(name, PROBLEM_NAME_LEN, "%s%d", form_of(mp)->added_prefix, i - l.MU + 1);
    } else if (m->names) {
      snprintf(name, PROBLEM_NAME_LEN, "%s", m->names[i]);
    } else {
      m->name(mp, i, name, PROBLEM_NAME_LEN);
    }
  }
}
