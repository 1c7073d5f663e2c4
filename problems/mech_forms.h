/* The table of formulations (private to the library): for each form of mechanical.h, the facts
 * the model layer, the chain's banded Jacobian and the slider crank read instead of branching on
 * the form: its name, which constraint level becomes which block of rows, whether the GGL
 * multipliers mu exist, the Baumgarte combination, the index per block and what a model must
 * offer.  Equations and sources: mechanical.h and doc/design.md ("Formulations").
 *
 * Levels of the constraint: g (position), g' = G v + g_t (velocity), g'' = G a + ... (acceleration;
 * without accelerations as variables at the dynamic a = -M^{-1} R(t,q,v,0,lambda)). */
#ifndef MBDAE_MECH_FORMS_H
#define MBDAE_MECH_FORMS_H

#include "mechanical.h"

enum { MECH_LEVEL_NONE = -1, MECH_LEVEL_POS = 0, MECH_LEVEL_VEL = 1, MECH_LEVEL_ACC = 2 };

/* What a form needs beside the Cartesian model, and so how its variables are laid out. */
typedef enum mech_form_kind {
  MECH_KIND_CARTESIAN, /* y = (q, v, [a,] lambda[, mu]), the layer's block assembly */
  MECH_KIND_MINIMAL,   /* y = (z, w), mech_model.ssf's minimal coordinates */
  MECH_KIND_DUMMY      /* y = (q, v, lambda, d, e) over a state selection (mech_model.dummy) */
} mech_form_kind;

/* Blocks of the index per variable, in the order of the acc_vars layout (a model without
 * accelerations as variables skips A). */
enum { MECH_BLOCK_Q, MECH_BLOCK_V, MECH_BLOCK_A, MECH_BLOCK_LAMBDA, MECH_BLOCK_MU, MECH_NBLOCKS };

/* A form's assembly in block order (mechanical.c's entry points permute a grouped model's y):
 * the five Cartesian forms share one (problems/mech_residual.c, mech_jacobian.c, ...), parametrised
 * by the levels below; ssf (mech_ssf.c) and dummy (mech_dummy.c) have their own. */
typedef struct mech_form_assembly {
  void (*describe)(const mech_params *mp, problem_info *info); /* neq, index, names */
  int (*res)(const mech_params *mp, double t, const double *y, const double *yp, double *r);
  int (*jac)(const mech_params *mp, double t, const double *y, const double *yp, double *dfdy,
             double *dfdyp);
  int (*constraints)(const mech_params *mp, double t, const double *y, const double *yp,
                     double *gpos, double *gvel, double *gacc);
  int (*init)(const mech_params *mp, double *y0, double *yp0);
  int (*ref)(const mech_params *mp, double *yref);
  /* A state of the model at t, y in block order (q, v, [a,] lambda, mu = 0; the Cartesian
   * layout's n entries), mapped to the form as ref maps the end reference; turns: the angles'
   * whole turns to add (ssf), NULL: none. */
  int (*ref_state)(const mech_params *mp, double t, const double *y, const int *turns,
                   double *yref);
} mech_form_assembly;

typedef struct mech_form_info {
  const char *name;         /* form= */
  mech_form_kind kind;      /* layout and assembly */
  int lambda_level;         /* level of the constraint rows lambda (dummy: g, with g', g'' after) */
  int mu_level;             /* level of the rows mu; MECH_LEVEL_NONE: no GGL multipliers mu */
  int stabilised;           /* 1: rows lambda are g'' + 2 alpha g' + beta^2 g (alpha=, beta=) */
  int index[MECH_NBLOCKS];  /* index per variable of each block (Hairer & Wanner VII.1) */
  int test_set_index;       /* the slider crank's index=N naming this form; 0: none */
  const char *not_offered;  /* why a model lacking kind's part refuses the form */
  const char *added_prefix; /* names of the variables beyond (q, v, [a,] lambda): mu1, ... of
                             * ggl, or d + the coordinate's name (dx, dvx) of dummy; "": none */
  const mech_form_assembly *assembly; /* residual, Jacobian, ... of the form */
} mech_form_info;

/* The entry of form f (0 <= f < MECH_NFORMS). */
const mech_form_info *mbdae_mech_form_info(mech_form f);
/* The form named name, or -1. */
int mbdae_mech_form_by_name(const char *name);
/* The form the slider crank's index=n names, or -1. */
int mbdae_mech_form_by_test_set_index(int n);

#endif /* MBDAE_MECH_FORMS_H */
