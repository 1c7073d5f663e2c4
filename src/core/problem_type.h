/* The interface every problem module in problems/ implements (private to the library).
 *
 * A module defines its equations as static functions over its own typed parameter struct and
 * exports one const descriptor, the way a GSL stepper exports gsl_odeiv2_step_msbdf; the harness
 * lists the built-in descriptors in one table (src/harness/problem_list.c, which declares them) and
 * the registry (src/core/registry.c) owns the instances.
 * A capability a problem lacks is a NULL pointer, never a stub. */
#ifndef MBDAE_PROBLEM_TYPE_H
#define MBDAE_PROBLEM_TYPE_H

#include <stddef.h>

#include "mbdae/mbdae.h"

enum { PROBLEM_NAME_LEN = 64 }; /* storage of one component name, its terminating NUL included */

/* A state selection (form=dummy's, problems/mechanical.h): the harness's switching driver
 * (mbdae_solve_dummy) reaches it through the instance (mbdae_problem_selection), never through a
 * problem's own header or parameter struct.  params: the instance's (mbdae_problem_params). */
enum { PROBLEM_SELECTION_MAX = 64 }; /* a selection is a bit set over at most 64 coordinates */
typedef struct problem_selection {
  /* The instance's selection S: bit j set when coordinate j is in S. */
  unsigned long long (*selected)(const void *params);
  /* |det G_S| of the instance's selection at (t, y), and the selection complete pivoting of G
   * picks there with its |det G_S|: 0 or an error. */
  int (*pivots)(const void *params, double t, const double *y, double *current,
                unsigned long long *best, double *best_pivot);
  /* The same physical state in the variables of the selection `to`: 0 or an error. */
  int (*remap)(const void *params, unsigned long long to, const double *y, const double *yp,
               double *y_to, double *yp_to);
} problem_selection;

/* What a configured instance tells the registry about itself: its size depends on the
 * configuration (a formulation adds multipliers or keeps only minimal coordinates).  describe()
 * is called twice: first with index, in_scd and names NULL, to learn neq and nconstraints; then
 * with arrays of neq entries to fill (names: neq slots of PROBLEM_NAME_LEN characters). */
typedef struct problem_info {
  int neq;                /* number of equations of this configuration */
  int nconstraints;       /* number of position constraints, 0 if none */
  int *index;             /* neq entries: differentiation index per variable (second call) */
  int *in_scd;            /* neq entries: 1 when the component enters scd (second call) */
  char *names;            /* neq names, PROBLEM_NAME_LEN characters each (second call) */
  const char *ref_source; /* static string: how the reference was computed, and where */
  int jac_approximate;    /* 1 when jac() is an approximation by design (andrews:jac=approx) */
  double tend;            /* the configuration's end of the interval; 0: the descriptor's tend */
  int constraints_in_residual; /* 1: g, g' and g'' are rows of F itself (form=dummy): the
                                  Jacobian check covers them, and the flow of the selected
                                  coordinates runs through the dummies, which a line along y'
                                  cannot follow */
  int constraints_mapped;      /* 1: the hidden constraints are those of a Cartesian state mapped
                                  from minimal coordinates (form=ssf), which hold by construction */
  int jac_kind; /* MBDAE_JAC_BAND or MBDAE_JAC_SPARSE when the type's jac_pattern states this
                   configuration's pattern; 0 (or MBDAE_JAC_DENSE): dense */
  const problem_selection *selection; /* form=dummy: its state selection; NULL: none */
  int res_checks_finite; /* 1: res() returns MBDAE_RECOVERABLE for a residual that is not all
                            finite, so the solvers need not check it again */
} problem_info;

/* Copy names[0..n-1] into the name slots of info from slot first on (names of at most
 * PROBLEM_NAME_LEN - 1 characters). */
void mbdae_problem_info_names(problem_info *info, int first, int n, const char *const *names);

typedef struct problem_type {
  const char *id;    /* "caraxis" */
  const char *title; /* "Car axis problem" */
  double t0, tend;   /* integration interval */
  mbdae_tolerance_plan tolerances;
  size_t params_size;       /* sizeof the module's parameter struct */
  const char *options_help; /* "key=a|b, key2=..." or "" */
  /* Fill the parameter struct with the published default configuration. */
  void (*set_defaults)(void *params);
  /* Apply one key=value; MBDAE_ERR_SPEC with a message naming the valid choices. NULL: no keys. */
  int (*set_option)(void *params, const char *key, const char *value, char *msg, size_t msglen);
  /* After every key=value: refuse a combination of keys (MBDAE_ERR_SPEC, message). NULL: none. */
  int (*finish)(const void *params, char *msg, size_t msglen);
  /* Canonical "key=value,..." of a configured instance into buf ("" when no keys). */
  void (*format_options)(const void *params, char *buf, size_t len);
  void (*describe)(const void *params, problem_info *info); /* called twice, see problem_info */
  int (*init)(const void *params, double *y0, double *yp0);
  int (*res)(const void *params, double t, const double *y, const double *yp, double *res);
  int (*jac)(const void *params, double t, const double *y, const double *yp, double *dfdy,
             double *dfdyp);
  int (*ref)(const void *params, double *yref); /* MBDAE_ERR_NOREF when none is known */
  int (*constraints)(const void *params, double t, const double *y, const double *yp, double *gpos,
                     double *gvel, double *gacc); /* each output may be NULL */
  int jac_nres; /* residual evaluations per jac call (differenced Jacobians); 0: analytic */
  /* Optional, for a configuration that describes a jac_kind: its compressed-column pattern of
   * dF/dy + c dF/dy' (mbdae_jac_pattern), in two calls: colptr (neq + 1) with rowind NULL, then
   * both again with rowind of colptr[neq] entries. */
  int (*jac_pattern)(const void *params, int *colptr, int *rowind);
  /* The values at the pattern's entries (mbdae_problem_jac_values); NULL: gathered from jac. */
  int (*jac_values)(const void *params, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp);
  /* Optional: where g_k or g'_k can depend on y_j (j < neq, k < nconstraints), compressed-column
   * as jac_pattern's two calls; MBDAE_ERR_UNSUPPORTED when this configuration states none.  The
   * constraint check then differences columns in groups that share no row.  NULL: dense. */
  int (*constraint_pattern)(const void *params, int *colptr, int *rowind);
  /* Optional: the reference trajectory (mbdae_problem_reference_trajectory): *ntimes and the
   * times *t (static data), and with y not NULL the values, y[i + k neq]; MBDAE_ERR_NOREF when
   * this configuration has none.  NULL: none. */
  int (*ref_traj)(const void *params, int neq, size_t *ntimes, const double **t, double *y);
} problem_type;

/* A user's problem (mbdae_problem_from_type): the callbacks of user_problem_ops take a
 * user_binding as their params; the registry copies user_problem_ops into the instance and
 * fills in id, title, interval and tolerances from the user's type (the size, index and names
 * go into the instance). */
typedef struct user_binding {
  const mbdae_problem_type *type; /* the user's descriptor */
  void *ctx;                      /* the user's context */
  mbdae_jac_pattern pattern;      /* the user's pattern (dense when it states none) */
  const int *group;               /* column groups of a pattern without values (else NULL) */
  int ngroups;
} user_binding;
extern const problem_type mbdae_user_problem_ops;
/* NULL when the user's type keeps every rule of mbdae_problem_type, else what is wrong. */
const char *mbdae_user_problem_invalid(const mbdae_problem_type *type);

/* 1 when p's hidden constraints hold by construction (problem_info.constraints_mapped): their
 * derivatives are rounding noise, which the constraint check leaves out. */
int mbdae_problem_constraints_mapped(const mbdae_problem *p);
/* 1 when p's hidden constraints are rows of its residual (problem_info.constraints_in_residual). */
int mbdae_problem_constraints_in_residual(const mbdae_problem *p);

/* mbdae_problem_constraint_pattern (mbdae/problem.h) in one block: kind MBDAE_JAC_SPARSE, rows the
 * nconstraints constraints, its arrays in *block (the caller's to free); kind MBDAE_JAC_DENSE,
 * colptr NULL and *block NULL when p states none.  0, or an error. */
int mbdae_problem_constraint_pattern_alloc(const mbdae_problem *p, mbdae_jac_pattern *pat,
                                           int **block);

/* The parameter struct of an instance, for code inside the library that holds a mbdae_problem. */
const void *mbdae_problem_params(const mbdae_problem *p);
/* The state selection of an instance (problem_info.selection); NULL when it has none. */
const problem_selection *mbdae_problem_selection(const mbdae_problem *p);

#endif /* MBDAE_PROBLEM_TYPE_H */
