/* The table of formulations (mech_forms.h): one entry per form of mechanical.h; the index per
 * block is the test set's usual one for mechanical systems (Hairer & Wanner, Solving ODEs II,
 * VII.1; Gear, Gupta & Leimkuhler 1985 for ggl), with the accelerations a of index3 as the
 * test set's andrews.f and crank.f count them. */
#include <string.h>

#include "mech_layer.h"

static const mech_form_assembly CARTESIAN = {mech_cartesian_describe, mech_cartesian_res,
                                             mech_cartesian_jac,      mech_cartesian_constraints,
                                             mech_cartesian_init,     mech_cartesian_ref,
                                             mech_cartesian_ref_state};
/* ssf's initial values and reference are the Cartesian ones mapped (mech_values.c) */
static const mech_form_assembly SSF = {
    mech_describe_ssf,       mech_ssf_res,        mech_ssf_jac,
    mech_ssf_levels,         mech_cartesian_init, mech_cartesian_ref,
    mech_cartesian_ref_state};
static const mech_form_assembly DUMMY = {mech_dummy_describe, mech_dummy_res,  mech_dummy_jac,
                                         mech_dummy_levels,   mech_dummy_init, mech_dummy_ref,
                                         mech_dummy_ref_state};

/* name, kind, rows lambda, rows mu, Baumgarte, index of q v a lambda mu, crank's index=, refusal,
 * names of the added variables, assembly */
/* clang-format off */
static const mech_form_info FORMS[MECH_NFORMS] = {
  [MECH_INDEX3]    = {"index3",    MECH_KIND_CARTESIAN, MECH_LEVEL_POS,  MECH_LEVEL_NONE, 0,
                      {1, 2, 3, 3, 0}, 3, NULL, "", &CARTESIAN},
  [MECH_INDEX2]    = {"index2",    MECH_KIND_CARTESIAN, MECH_LEVEL_VEL,  MECH_LEVEL_NONE, 0,
                      {1, 1, 2, 2, 0}, 2, NULL, "", &CARTESIAN},
  [MECH_GGL]       = {"ggl",       MECH_KIND_CARTESIAN, MECH_LEVEL_POS,  MECH_LEVEL_VEL,  0,
                      {1, 1, 2, 2, 2}, 0, NULL, "mu", &CARTESIAN},
  [MECH_INDEX1]    = {"index1",    MECH_KIND_CARTESIAN, MECH_LEVEL_ACC,  MECH_LEVEL_NONE, 0,
                      {1, 1, 1, 1, 0}, 1, NULL, "", &CARTESIAN},
  [MECH_BAUMGARTE] = {"baumgarte", MECH_KIND_CARTESIAN, MECH_LEVEL_ACC,  MECH_LEVEL_NONE, 1,
                      {1, 1, 1, 1, 0}, 0, NULL, "", &CARTESIAN},
  [MECH_SSF]       = {"ssf",       MECH_KIND_MINIMAL,   MECH_LEVEL_NONE, MECH_LEVEL_NONE, 0,
                      {0, 0, 0, 0, 0}, 0, "no global minimal parametrisation for form",
                      "", &SSF},
  [MECH_DUMMY]     = {"dummy",     MECH_KIND_DUMMY,     MECH_LEVEL_POS,  MECH_LEVEL_NONE, 0,
                      {1, 1, 1, 1, 1}, 0, "form not offered", "d", &DUMMY},
};
/* clang-format on */

const mech_form_info *mbdae_mech_form_info(mech_form f) { return &FORMS[f]; }

int mbdae_mech_form_by_name(const char *name)
{
  for (int f = 0; f < MECH_NFORMS; f++) {
    if (strcmp(name, FORMS[f].name) == 0) {
      return f;
    }
  }
  return -1;
}

int mbdae_mech_form_by_test_set_index(int n)
{
  for (int f = 0; f < MECH_NFORMS; f++) {
    if (FORMS[f].test_set_index == n && n != 0) {
      return f;
    }
  }
  return -1;
}
