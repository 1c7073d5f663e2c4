/* The model layer for constrained mechanical systems (private to the library): a problem states
 * its model once, and the layer generates every formulation of doc/design.md ("Formulations").
 *
 * Model, with q in R^nq, v = q', lambda in R^nc:
 *   M(t,q) q'' = f(t,q,v) - W(t,q)^T lambda,   g(t,q) = 0,   G = dg/dq,
 * where W = diag(s) G is G with each row scaled by a constant s_k != 0 (s = 1/2 for the pendulum,
 * whose rod force F multiplies (x, y), while g = x^2 + y^2 - 1 as the paper states it).  The
 * problem supplies the dynamic residual R(t,q,v,a,lambda) = M a - f + W^T lambda (written in the
 * order of its published code, so that the index-3 form keeps its rounding), R's partial
 * derivatives dR/dq = d(M a)/dq - df/dq + d(W^T lambda)/dq, dR/dv = -df/dv and dR/da = M, the
 * reaction W^T lambda with W^T and d(W^T lambda)/dq, d(W^T lambda)/dt, and the constraint at
 * three levels with their partial derivatives:
 *   g,   g' = G v + g_t,   g'' = G a + d(G v)/dq v + 2 g_tq v + g_tt  (the curvature terms).
 * Residuals (test-set convention F = M y' - f, algebraic rows = -(constraint)):
 *   index3     y = (q, v, lambda):      q' - v,  R(t,q,v,v',lambda),  -g
 *   index2     y = (q, v, lambda):      q' - v,  R,                   -(G v + g_t)
 *   ggl        y = (q, v, lambda, mu):  q' - v + W^T mu,  R,  -g,  -(G v + g_t)
 *   index1     y = (q, v, lambda):      q' - v,  R,  -g''(t,q,v,a)
 *   baumgarte  y = (q, v, lambda):      q' - v,  R,  -(g'' + 2 alpha g' + beta^2 g)
 *   ssf        y = (z, w), minimal coordinates: z' - w,  w' - acc(t,z,w)
 * In index1 and baumgarte the acceleration is the one the dynamics give, a = -M^{-1} R(t,q,v,0,
 * lambda) (R is linear in a), so that no algebraic row holds y' (Hafner & Poell (2015) eq. (3) is
 * this row of the pendulum); its derivatives are da/dx = -M^{-1} dR/dx at a, x = q, v, lambda.
 * Sources: Hairer & Wanner, Solving ODEs II, 2nd ed., VII.1 (index reduction, (1.14)-(1.16)) and
 * VII.1 (1.29) / Gear, Gupta & Leimkuhler 1985 for the stabilised index-2 form; Baumgarte 1972
 * as Hafner & Poell (2015) eq. (4) cite it; the state-space form, their eqs. (5), (7).
 * Hidden constraints reported (mbdae_problem_constraints) are g, g', g'' along the form's own
 * flow: for ggl that is q' = v - W^T mu (equal to G v + g_t where mu = 0, as on the solution);
 * for ssf they are those of the Cartesian state mapped from the minimal one (mech_ssf.
 * to_cartesian), which satisfies them to rounding by construction: its drift shows that.
 *
 * dummy (Mattsson & Soederlind 1993, "Index reduction in differential-algebraic equations using
 * dummy derivatives", SIAM J. Sci. Comput. 14; Hairer & Wanner VII.1 for the differentiated
 * constraints): g = 0, g' = 0 and g'' = 0 all kept beside the equations of motion, and for a
 * selection S of nc coordinates (select=) the derivatives q_j' and v_j' of the selected ones
 * replaced by algebraic unknowns, the dummy derivatives d_j and e_j:
 *   dummy      y = (q, v, lambda, d, e):  qd - v,  R(t,q,v,a,lambda),  -g,  -(G v + g_t),  -g''
 * with qd_j = q_j' and a_j = v_j' for j outside S, qd_j = d_j and a_j = e_j inside.  The system
 * is index 1 (every variable 1) while G_S (the nc columns S of G) is nonsingular; y' holds q'
 * and v' of the unselected coordinates only.  Default selection: the columns complete pivoting
 * of G picks at the initial state (Golub & Van Loan 3.4.9), the largest |pivot| first; the
 * switching between selections where G_S degenerates is src/harness/dummy.c's (mbdae_solve_dummy).
 * Offered where mech_model.dummy is set (block order, no accelerations as variables, nq <= 64).
 *
 * Accelerations as variables (mech_model.acc_vars; Hairer & Wanner VII.7 write Andrews'
 * squeezer so in index 3, 2 and 1, and the slider crank of the test set is coded so):
 * y = (q, v, a, lambda[, mu]), every form keeping a = v' a variable and R an algebraic row:
 *   index3     q' - v,  v' - a,  -R(t,q,v,a,lambda),  -g
 *   index2     q' - v,  v' - a,  -R,  -(G v + g_t)
 *   ggl        q' - v + W^T mu,  v' - a,  -R,  -g,  -(G v + g_t)
 *   index1     q' - v,  v' - a,  -R,  -g''(t,q,v,a)
 *   baumgarte  q' - v,  v' - a,  -R,  -(g'' + 2 alpha g' + beta^2 g)
 * (rows R negated as the test set's andrews.f and crank.f do), index per variable (q, v, a,
 * lambda, mu): 1,2,3,3 / 1,1,2,2 / 1,1,2,2,2 / 1,1,1,1 / 1,1,1,1.  Their hidden constraints take
 * v and a from y (ggl: along q' = v - W^T mu, as above). */
#ifndef MBDAE_MECHANICAL_H
#define MBDAE_MECHANICAL_H

#include <stddef.h>

#include "problem_type.h"
#include "ref_traj.h"

typedef enum mech_form {
  MECH_INDEX3,
  MECH_INDEX2,
  MECH_GGL,
  MECH_INDEX1,
  MECH_BAUMGARTE,
  MECH_SSF,
  MECH_DUMMY,
  MECH_NFORMS
} mech_form;

/* A minimal (state-space) parametrisation: z in R^nz, w = z', z'' = acc(t, z, w). */
typedef struct mech_ssf {
  int nz;                   /* minimal coordinates */
  const char *const *names; /* 2 nz: z, then w */
  /* acc (nz), d acc/dz and d acc/dw (nz x nz, column-major); each output may be NULL. */
  int (*acc)(const void *par, double t, const double *z, const double *w, double *acc, double *accz,
             double *accw);
  /* The minimal coordinates of a Cartesian state (q, v): initial values and reference. */
  int (*from_cartesian)(const void *par, const double *q, const double *v, double *z, double *w);
  /* nz whole turns (2 pi) to add to the reference's coordinates, where angles wind up over
   * [t0, tend] and from_cartesian gives the principal value; NULL: none. */
  const int *ref_turns;
  /* The Cartesian state of a minimal one: q, v and a = q'' from z, w and w' (any of v, a may be
   * NULL), for the hidden constraints of form=ssf (its drift); NULL: ssf reports none. */
  int (*to_cartesian)(const void *par, const double *z, const double *w, const double *wdot,
                      double *q, double *v, double *a);
} mech_ssf;

/* A mechanical problem.  Matrices are column-major; every output may be NULL (not wanted). */
typedef struct mech_model {
  const problem_type *type; /* the problem's descriptor (its t0 for the state-space start) */
  int nq, nc;               /* coordinates, constraints */
  const char *const *names; /* 2 nq + nc: q, v, lambda (the index-3 order) */
  const int *in_scd;        /* 2 nq + nc entries 0/1; NULL: every component */
  const char *ref_source;   /* how the physical reference was computed; NULL: none */
  int (*dyn)(const void *par, double t, const double *q, const double *v, const double *a,
             const double *lam, double *r); /* R (nq) */
  int (*dyn_jac)(const void *par, double t, const double *q, const double *v, const double *a,
                 const double *lam, double *rq, double *rv, double *mass); /* nq x nq each */
  /* W^T lam (nq), W^T (nq x nc), d(W^T lam)/dq (nq x nq), d(W^T lam)/dt (nq). */
  int (*reaction)(const void *par, double t, const double *q, const double *lam, double *wtl,
                  double *wt, double *wtlq, double *wtlt);
  int (*con)(const void *par, double t, const double *q, double *g, double *gq); /* G: nc x nq */
  int (*con_vel)(const void *par, double t, const double *q, const double *v, double *gv,
                 double *gvq); /* d g'/dq (nc x nq); d g'/dv = G */
  int (*con_acc)(const void *par, double t, const double *q, const double *v, const double *a,
                 double *ga, double *gaq, double *gav); /* at fixed a; d g''/da = G */
  /* Consistent initial values q, v, a = q'', lambda; the reference q, v, lambda at tend. */
  int (*init)(const void *par, double *q, double *v, double *a, double *lam);
  int (*ref)(const void *par, double *q, double *v, double *lam); /* NULL: none */
  const mech_ssf *ssf; /* NULL: no global minimal parametrisation */
  /* 1: the accelerations are variables, y = (q, v, a, lambda) in the index-3 form (names then
   * has 3 nq + nc entries, in_scd too, and the reference comes from ref_acc); 0: y = (q, v,
   * lambda). */
  int acc_vars;
  int (*ref_acc)(const void *par, double *q, double *v, double *a, double *lam); /* NULL: none */
  /* Name of variable i of the index-3 order (0..2 nq + nc - 1) into buf when names is NULL. */
  void (*name)(const void *par, int i, char *buf, size_t len);
  /* Name of minimal coordinate i (0..2 nz - 1) into buf when ssf->names is NULL. */
  void (*ssf_name)(const void *par, int i, char *buf, size_t len);
  /* Order of y in the Cartesian forms.  0 or 1: the blocks (q, v, lambda, mu).  groups > 1: y
   * holds group after group (a chain's links), each with nq/groups coordinates, their
   * velocities, nc/groups multipliers and, in ggl, as many mu, so that the Jacobian of a model
   * whose groups couple only to their neighbours is banded.  The layer computes in block order
   * and permutes at its entry points; a grouped model's nq and nc are multiples of groups. */
  int groups;
  /* For a grouped model (groups > 1): the constraints of group k involve only the coordinates
   * of groups k - con_reach .. k + con_reach (a chain's link k: links k - 1 and k, so 1), which
   * gives the hidden constraints' pattern (mbdae_mech_constraint_pattern); 0: not stated. */
  int con_reach;
  /* Optional, for speed: R (as dyn) and the constraint at one level (0: g as con, 1: g' as
   * con_vel, 2: g'' at a as con_acc) in one evaluation that shares their common terms (angles,
   * the prescribed motion), with the same values as the separate calls; the residual of index3,
   * index2 and (acc_vars) index1 uses it.  NULL: dyn, then con, con_vel or con_acc. */
  int (*dyn_con)(const void *par, double t, const double *q, const double *v, const double *a,
                 const double *lam, int level, double *r, double *c);
  /* Optional, for speed: g (as con) and g' (as con_vel) in one evaluation that shares their
   * common terms, with the same values; the hidden constraints (drift after every accepted step)
   * use it.  NULL: con, then con_vel. */
  int (*con_pos_vel)(const void *par, double t, const double *q, const double *v, double *g,
                     double *gv);
  /* Optional, for a large model: the diagonal of a diagonal M (nq) at (t, q).  The residuals of
   * index1 and baumgarte then take a = -R(t,q,v,0,lambda) / M_ii (what the elimination gives
   * for a diagonal M, bit for bit) in O(nq), without an nq x nq matrix.  NULL: M is factored. */
  int (*mass_diag)(const void *par, double t, const double *q, double *m);
  /* Optional, for a large model: the rate of the reaction along q' = u, lambda' = lamdot,
   * d(W^T lambda)/dq u + d(W^T lambda)/dt + W^T lamdot (nq), without nq x nq matrices (ggl's
   * hidden constraints).  NULL: from reaction's matrices. */
  int (*reaction_rate)(const void *par, double t, const double *q, const double *lam,
                       const double *u, const double *lamdot, double *rate);
  /* 1: the model offers form=dummy (it must keep block order, groups <= 1, acc_vars 0, and have
   * nq <= MECH_DUMMY_MAX_NQ). */
  int dummy;
  /* Optional: the reference trajectory of the configuration (problems/ref_traj.h), or NULL where
   * it has none; only asked where ref (ref_acc) gives an end reference, which its last row is.
   * Its rows are the components of the end reference's file, which every form maps as it maps
   * that one (at the row's time; form=ssf adds the row's whole turns, not ref_turns). */
  const ref_traj *(*traj)(const void *par);
  /* A row of traj into q, v, [a,] lambda (a NULL unless acc_vars), read as ref reads the end
   * reference; NULL: the row is in block order (q, v, [a,] lambda[, mu]), mu left out. */
  void (*traj_row)(const void *par, const double *row, double *q, double *v, double *a,
                   double *lam);
} mech_model;

enum { MECH_DUMMY_MAX_NQ = PROBLEM_SELECTION_MAX }; /* a selection is a bit set (problem_type.h) */

/* The head of every mechanical problem's parameter struct (its first member): the layer's
 * callbacks below take the whole struct as params and hand it on to the model's functions. */
typedef struct mech_params {
  const mech_model *model;     /* set by the problem's set_defaults */
  mech_form form;              /* form= */
  double alpha, beta;          /* Baumgarte's alpha= and beta= */
  int alpha_set, beta_set;     /* 1 when given in the spec (refused with any other form) */
  unsigned long long selected; /* form=dummy: bit j set when coordinate j is in S */
  int select_set;              /* 1 when select= was given (refused with any other form) */
} mech_params;

/* The spec keys the layer reads, for a problem's options_help. */
#define MECH_OPTIONS_HELP "form=index3|index2|ggl|index1|baumgarte|ssf, alpha=, beta="
/* The same for a problem without a minimal parametrisation (mech_model.ssf NULL). */
#define MECH_OPTIONS_HELP_NO_SSF "form=index3|index2|ggl|index1|baumgarte, alpha=, beta="

/* The same for a problem that also offers form=dummy (mech_model.dummy). */
#define MECH_OPTIONS_HELP_DUMMY                                                                    \
  "form=index3|index2|ggl|index1|baumgarte|ssf|dummy, alpha=, beta=, select=NAME+NAME (dummy)"

/* The published form (index 3) and Baumgarte's defaults. */
void mbdae_mech_defaults(mech_params *mp, const mech_model *model);
/* form=, alpha=, beta=: 0, MBDAE_ERR_SPEC with a message, or 1 when the key is not the layer's
 * (a problem with keys of its own then tries them). */
int mbdae_mech_set_option(mech_params *mp, const char *key, const char *value, char *msg,
                          size_t msglen);

/* problem_type callbacks (params is the problem's struct, which starts with mech_params).
 * set_option is for a problem whose only keys are the layer's; finish refuses alpha=/beta=
 * without form=baumgarte; format_options spells out form= (and alpha=, beta= for baumgarte). */
int mbdae_mech_option(void *params, const char *key, const char *value, char *msg, size_t msglen);
int mbdae_mech_finish(const void *params, char *msg, size_t msglen);
void mbdae_mech_format_options(const void *params, char *buf, size_t len);
void mbdae_mech_describe(const void *params, problem_info *info);
int mbdae_mech_init(const void *params, double *y0, double *yp0);
int mbdae_mech_res(const void *params, double t, const double *y, const double *yp, double *res);
int mbdae_mech_jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
                   double *dfdyp);
int mbdae_mech_ref(const void *params, double *yref);
/* problem_type.ref_traj: the model's trajectory (mech_model.traj) in the instance's form. */
int mbdae_mech_ref_traj(const void *params, int neq, size_t *ntimes, const double **t, double *y);
/* Where g_k or g'_k can depend on y_j, compressed-column over y's neq columns, rows the nc
 * constraints (problem_type.constraint_pattern's two calls): for a grouped model with con_reach
 * in a Cartesian form, the variables of the groups within reach of k's group (twice the reach in
 * ggl, whose g' runs along v - W^T mu); MBDAE_ERR_UNSUPPORTED otherwise (dense). */
int mbdae_mech_constraint_pattern(const void *params, int *colptr, int *rowind);
int mbdae_mech_constraints(const void *params, double t, const double *y, const double *yp,
                           double *gpos, double *gvel, double *gacc);

/* form=dummy's state selection (params: a form=dummy instance's, y its state in block order).
 * mbdae_mech_dummy_pivots: |det G_S| of the instance's selection at q, and the selection complete
 * pivoting of G picks there with its |det G_S|.  mbdae_mech_dummy_remap: the same physical state
 * in the variables of another selection `to` (q, v, lambda kept; d, e the true derivatives
 * v_S and a_S of the new S, a taken from the state's own y' and dummies).  0 or an error.
 * The describe() of a form=dummy instance hands them to the registry as its problem_selection. */
int mbdae_mech_dummy_pivots(const void *params, double t, const double *y, double *current,
                            unsigned long long *best, double *best_pivot);
int mbdae_mech_dummy_remap(const void *params, unsigned long long to, const double *y,
                           const double *yp, double *y_to, double *yp_to);

/* A start consistent to rounding at every level, from a guess (q, v, a, lambda) at t, in place:
 * g = 0 and G v + g_t = 0 by minimum-norm Newton steps in the coordinates (and velocities) with
 * movable[k] = 1 (NULL: all nq), then (a, lambda) from M a + W^T lambda = f,
 * g'' = 0 (problems/mech_consistent.c).  For a model with nq + nc <= 64 and no groups; 0 or an
 * error (MBDAE_ERR_SINGULAR where G G^T or the augmented matrix is singular). */
int mbdae_mech_consistent(const void *params, const int *movable, double t, double *q, double *v,
                          double *a, double *lam);

/* The layer's small dense solver (Gaussian elimination with partial pivoting), for a model's
 * own minimal-coordinate accelerations: factor the n x n column-major a in place (1 when
 * singular), then solve for b in place. */
int mbdae_mech_lu_factor(int n, double *a, int *piv);
void mbdae_mech_lu_solve(int n, const double *lu, const int *piv, double *b);

#endif /* MBDAE_MECHANICAL_H */
