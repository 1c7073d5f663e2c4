/* The model layer's private interface between its files (problems/mech_*.c, mechanical.c): the
 * layout of y in block order, the work arrays of a call, the shared evaluation and each form's
 * assembly functions.  Nothing here is for a problem file: those use mechanical.h. */
#ifndef MBDAE_MECH_LAYER_H
#define MBDAE_MECH_LAYER_H

#include <stddef.h>

#include "mech_forms.h"
#include "mechanical.h"

/* The table entry of the instance's form. */
static inline const mech_form_info *form_of(const mech_params *mp)
{
  return mbdae_mech_form_info(mp->form);
}

/* Offsets of the blocks of y in the forms with multipliers. */
typedef struct layout {
  int nq, nc, n; /* coordinates, constraints, equations */
  int V, L, MU;  /* offsets of v, lambda, mu (q starts at 0) */
  int A;         /* offset of a where the accelerations are variables (acc_vars), else 0 */
} layout;

/* A call's work arrays: on the stack up to SCRATCH_DOUBLES (every published problem's needs fit,
 * andrews' index1 Jacobian the most at about 660), on the heap beyond (a long chain). */
enum { SCRATCH_DOUBLES = 1024 };
typedef struct scratch {
  double *p; /* the work arrays: stack, or a heap block of the size asked for */
  double stack[SCRATCH_DOUBLES];
} scratch;

/* Work of the acceleration-level rows: nq-vectors, nq x nq matrices, nc-vectors, nc x nq. */
typedef struct acc_work {
  double *a, *zero, *mass, *rq, *rv, *wt, *x, *g, *gv, *ga, *gq, *gvq, *gaq, *gav, *tmp;
  int *piv;
  int diagonal; /* 1: mass holds M's diagonal (mech_model.mass_diag), no matrix is allocated */
  scratch buf;
} acc_work;

/* ---- mech_eval.c ---- */

/* The offsets of y's blocks (and its size) in the instance's form. */
layout mech_layout_of(const mech_params *mp);
/* Position in y of entry b of the block order (q, v, lambda, mu): the identity, or for a grouped
 * model (mech_model.groups) the group of b followed by b's place inside its group. */
int mech_y_position(const mech_params *mp, const layout *l, int b);
/* LU factors of the n x n matrix a in place, row interchanges in piv; 1 when singular. */
int mech_lu_factor(int n, double *a, int *piv);
/* lu_factor swaps whole rows (as LAPACK's dgetf2), so the multipliers of column k end where the
 * later interchanges put them: b takes every interchange first (as dgetrs), then L and U. */
void mech_lu_solve(int n, const double *lu, const int *piv, double *b);
/* c (r x m) = a (r x k) b (k x m), all compact column-major. */
void mech_matmul(int r, int k, int m, const double *a, const double *b, double *c);
void mech_negate(double *v, int n);
/* The n x n matrix a = 0 (NULL: nothing).  A large one a column at a time: glibc's memset
 * switches to "rep stosb" above a few kB (crank's Jacobian is 4.6 kB), which callgrind counts per
 * byte; the column stores are the same work and keep instruction counts comparable with the
 * hand-written code, whose fixed-size clears compile to "rep stosq". */
void mech_zero_matrix(double *a, int n);
/* dst block at (row0, col0) of the n x n matrix dst = scale * src (rows x cols, compact). */
void mech_put_block(double *dst, int n, int row0, int col0, int rows, int cols, const double *src,
                    double scale);
/* NULL when the heap is exhausted. */
double *mech_scratch_get(scratch *s, size_t doubles);
void mech_scratch_release(scratch *s);
/* diagonal: the residual's work of a model with mass_diag (vectors only), else all of it. */
int mech_acc_work_get(const layout *l, int diagonal, acc_work *w);
/* a = -M^{-1} R(t,q,v,0,lambda), M left factored in w->mass (or, diagonal work, its diagonal:
 * the elimination of a diagonal M swaps nothing and subtracts only zeros, so -R_i / M_ii is its
 * result bit for bit). */
int mech_dynamic_acc(const mech_params *mp, double t, const double *y, acc_work *w);
/* h = g'' + [baumgarte] 2 alpha g' + beta^2 g at the dynamic acceleration, into h (nc). */
int mech_acc_rows(const mech_params *mp, double t, const double *y, acc_work *w, double *h);
/* The constraint at level (MECH_LEVEL_POS, _VEL, _ACC at the given a) into c (nc). */
int mech_constraint_level(const mech_params *mp, int level, double t, const double *q,
                          const double *v, const double *a, double *c);
/* The level of a form whose constraint rows are one constraint function at y's own (q, v, a):
 * 0 (g), 1 (g') or 2 (g''); -1 for the others (ggl has two, baumgarte three, and index1 without
 * accelerations as variables takes a from the dynamics). */
int mech_single_level(const mech_params *mp);
/* R and the constraint at level (single_level) into r and c: model.dyn_con when there is one. */
int mech_dyn_and_level(const mech_params *mp, double t, const double *q, const double *v,
                       const double *a, const double *lam, int level, double *r, double *c);

/* ---- mech_options.c ---- */

/* Name of variable i of the index-3 order (q, v, lambda) into buf. */
void mech_variable_name(const mech_params *mp, int i, char *buf, size_t len);

/* ---- mech_ssf.c ---- */

void mech_describe_ssf(const mech_params *mp, problem_info *info);
int mech_ssf_res(const mech_params *mp, double t, const double *y, const double *yp, double *r);
int mech_ssf_jac(const mech_params *mp, double t, const double *y, const double *yp, double *dfdy,
                 double *dfdyp);
/* ssf: g, g', g'' of the Cartesian state mapped from (z, w, w'). */
int mech_ssf_levels(const mech_params *mp, double t, const double *y, const double *yp,
                    double *gpos, double *gvel, double *gacc);
/* y, y' of the state-space form from a Cartesian (q, v) at time t. */
int mech_ssf_state(const mech_params *mp, double t, const double *q, const double *v, double *y,
                   double *yp);

/* ---- mech_dummy.c ---- */

void mech_dummy_describe(const mech_params *mp, problem_info *info);
int mech_dummy_res(const mech_params *mp, double t, const double *y, const double *yp, double *r);
int mech_dummy_jac(const mech_params *mp, double t, const double *y, const double *yp, double *dfdy,
                   double *dfdyp);
/* g, g', g'' along the form's own derivatives. */
int mech_dummy_levels(const mech_params *mp, double t, const double *y, const double *yp,
                      double *gpos, double *gvel, double *gacc);
int mech_dummy_init(const mech_params *mp, double *y0, double *yp0);
/* The reference: q, v, lambda at tend; a (for the dummies e) from the dynamics there. */
int mech_dummy_ref(const mech_params *mp, double *yref);
/* A state (q, v, lambda) at t as the reference: a from the dynamics at t (turns unused). */
int mech_dummy_ref_state(const mech_params *mp, double t, const double *y, const int *turns,
                         double *yref);
/* The selection at q (and |det G_S| of mp's own into *current when not NULL). */
int mech_select_at(const mech_params *mp, double t, const double *q, double *current,
                   unsigned long long *best, double *best_pivot);

/* ---- the Cartesian forms' assembly (mech_describe.c, mech_residual.c, mech_jacobian.c,
 * mech_constraints.c, mech_values.c; mech_form_assembly says what each does) ---- */

void mech_cartesian_describe(const mech_params *mp, problem_info *info);
int mech_cartesian_res(const mech_params *mp, double t, const double *y, const double *yp,
                       double *r);
int mech_cartesian_jac(const mech_params *mp, double t, const double *y, const double *yp,
                       double *dfdy, double *dfdyp);
int mech_cartesian_constraints(const mech_params *mp, double t, const double *y, const double *yp,
                               double *gpos, double *gvel, double *gacc);
/* Also form=ssf's: the Cartesian values mapped to minimal coordinates. */
int mech_cartesian_init(const mech_params *mp, double *y0, double *yp0);
int mech_cartesian_ref(const mech_params *mp, double *yref);
int mech_cartesian_ref_state(const mech_params *mp, double t, const double *y, const int *turns,
                             double *yref);

#endif /* MBDAE_MECH_LAYER_H */
