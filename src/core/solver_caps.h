/* What a built-in solver can do, as data (private, core layer): the linear systems it takes,
 * whether AUTO condenses a small dense system for it, whether it honours options.project, and its
 * LU cost model.  Each solver in solvers/ defines its record beside its mbdae_solver_type and
 * passes it to the core (mbdae_linsys_choose); the harness finds a record from the type pointer
 * (src/harness/solver_list.c), never from the solver's name, for mbdae_linsys_resolve and
 * mbdae_solver_lu_cost.  As SUNDIALS asks a linear solver for its type through its ops table and
 * GSL reads step_type fields, nothing compares a solver's id to decide a default or a cost. */
#ifndef MBDAE_SOLVER_CAPS_H
#define MBDAE_SOLVER_CAPS_H

#include "mbdae/mbdae.h"
#include "solver_type.h"

/* Bit of an mbdae_jac_kind in mbdae_solver_caps.linsys. */
#define MBDAE_LINSYS_BIT(kind) (1u << (unsigned)(kind))

typedef struct mbdae_solver_caps {
  const mbdae_solver_type *type; /* the solver these capabilities are of */
  unsigned linsys;               /* MBDAE_LINSYS_BIT of each kind of options.linsys it accepts */
  int condenses; /* 1: linsys AUTO on a dense problem of <= MBDAE_CONDENSE_MAX_N eqs is CONDENSED */
  int projects;  /* 1: honours options.project (the driver owns its state); 0: refuses it */
  int lu_real;   /* real n x n factorizations (J + c M) per factorization event (stats.nlu) */
  int lu_complex;               /* complex ones (J + s M) per event, at the lowest order */
  int lu_complex_max;           /* the same at the highest order (Radau IIA, s stages: (s - 1)/2) */
  const mbdae_stepper *stepper; /* its run as an object (mbdae_integrator_create), or NULL */
} mbdae_solver_caps;

extern const mbdae_solver_caps mbdae_caps_ida;
extern const mbdae_solver_caps mbdae_caps_radau5;
extern const mbdae_solver_caps mbdae_caps_radau;
extern const mbdae_solver_caps mbdae_caps_bdf;
extern const mbdae_solver_caps mbdae_caps_spm;
extern const mbdae_solver_caps mbdae_caps_mebdf;

/* The kind of iteration matrix a solver with capabilities caps (NULL: a solver the library does
 * not know) uses for p when asked for linsys: AUTO resolves to the pattern's kind, and to
 * MBDAE_JAC_CONDENSED for a dense pattern of at most MBDAE_CONDENSE_MAX_N equations when
 * caps->condenses; any other linsys is returned as it is (a solver refuses a kind it lacks). */
int mbdae_linsys_choose(const mbdae_problem *p, const mbdae_solver_caps *caps, int linsys);

#endif /* MBDAE_SOLVER_CAPS_H */
