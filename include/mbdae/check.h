/* mbdae/check.h: diagnostics of a DAE's functions: residual size, the Jacobian against
 * difference quotients, the hidden constraints' derivative levels, the points a problem is
 * checked at, and what one unit of a solver's work costs. */
#ifndef MBDAE_CHECK_H
#define MBDAE_CHECK_H

#include <stddef.h>
#include "base.h"
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- diagnostics ------------------------------------------------------------------------- */

/* How well (t, y, y') satisfies F = 0: the largest |F_i|, and the largest |F_i| / size_i where
 * size_i = sum_j |dF_i/dy_j y_j| + |dF_i/dy'_j y'_j| is the size of the terms of equation i
 * (first order), so that a residual can be judged against what it is the difference of. */
MBDAE_API int mbdae_problem_residual_size(const mbdae_problem *p, double t, const double *y,
                                          const double *yp, double *max_abs, double *max_rel);

/* A DAE given by callbacks over one context: what the checks below examine, so that a caller can
 * check functions of its own, or wrap a problem's (mbdae_problem_functions fills one with the
 * problem's own functions, ctx = the problem).  Callbacks return 0, or non-zero on failure.
 * The struct begins with its size (sizeof as the caller's header knows it): a caller that fills
 * its own starts from MBDAE_FUNCTIONS_INIT (size set, the rest zero), and mbdae_problem_functions
 * sets it.  Fields are appended, never moved; the checks read the struct only as far as its size
 * (a field beyond it as zero) and refuse (MBDAE_ERR_ARG, their results untouched) a size of 0
 * (not set), one smaller than this first version with a size and one larger than their own (a
 * caller built against a newer mbdae.h).  A size field rather than an opaque object: a caller
 * fills the callbacks and copies the struct to change one (a mutated Jacobian, a wrapped res). */
typedef struct mbdae_functions {
  size_t size;      /* sizeof(mbdae_functions): MBDAE_FUNCTIONS_INIT sets it */
  int neq;          /* number of equations and variables */
  int nconstraints; /* hidden constraints per level; 0: none (constraints may be NULL) */
  int (*res)(void *ctx, double t, const double *y, const double *yp, double *res);
  int (*jac)(void *ctx, double t, const double *y, const double *yp, double *dfdy,
             double *dfdyp); /* dense, column-major; either output may be NULL */
  int (*constraints)(void *ctx, double t, const double *y, const double *yp, double *gpos,
                     double *gvel, double *gacc); /* as mbdae_problem_constraints */
  void *ctx;
  /* Optional structure of a large DAE (zeroed, or kind MBDAE_JAC_DENSE: dense, jac is used).
   * A pattern of kind MBDAE_JAC_BAND or _SPARSE makes the checks use jac_values (both matrices'
   * values in the pattern's order, as mbdae_problem_jac_values; either output may be NULL),
   * difference over groups of columns that share no row, and keep memory O(nnz + neq). */
  mbdae_jac_pattern pattern;
  int (*jac_values)(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp);
} mbdae_functions;
#define MBDAE_FUNCTIONS_INIT                                                                       \
  {                                                                                                \
    .size = sizeof(mbdae_functions)                                                                \
  }
/* The problem's own functions into fns, with fns->size = size (the macro passes the caller's
 * sizeof(mbdae_functions), the way mbdae_record_read_csv passes sizeof(mbdae_record)), written
 * only as far as size.  MBDAE_ERR_ARG, fns untouched, for p or fns NULL or a size the rule above
 * refuses; else 0. */
MBDAE_API int mbdae_problem_functions_sized(const mbdae_problem *p, size_t size,
                                            mbdae_functions *fns);
#define mbdae_problem_functions(p, fns)                                                            \
  mbdae_problem_functions_sized(p, sizeof(mbdae_functions), fns)

/* 1 when the problem's Jacobian is approximate by design (andrews:jac=approx, the test set's
 * II.13.4 approximation, says so in its description): a check reports it, it is not a mismatch.
 * 0 otherwise. */
MBDAE_API int mbdae_problem_jac_approximate(const mbdae_problem *p);

/* Thresholds of the checks: an entry, or a constraint derivative, is a mismatch when its error
 * (below) exceeds MBDAE_CHECK_TOL; MBDAE_CHECK_ROW_FRACTION of a row's size is the smallest
 * magnitude an entry is judged against (it keeps O(h^4) truncation and rounding in J itself from
 * counting as errors). */
#define MBDAE_CHECK_TOL 1e-6
#define MBDAE_CHECK_ROW_FRACTION 1e-3

/* The Jacobian at one point against central differences D of the residual (steps h and 2h,
 * Richardson-extrapolated), entry by entry:
 *   e_ij = max(0, |J_ij - D_ij| - r_ij) / max(|J_ij|, |D_ij|, MBDAE_CHECK_ROW_FRACTION s_i /
 * typ_j), s_i = max_k max(|D_ik| typ_k, |D'_ik| typ'_k) the row's size: the largest change of F_i
 * that one variable makes over its typical size typ_k (ytyp for y, yptyp for y'; NULL: max(|v_k|,
 * 1)). Steps h_j = eps^(1/3) typ_j. r_ij = 16 eps size_i / h_j is what rounding in F_i alone can
 * make of D_ij (size_i = |F_i| + sum_k |D_ik y_k| + |D'_ik y'_k|); it is deducted only where the
 * comparison fails without it, and such entries are counted and the largest reported.
 * With a non-dense f->pattern the columns are differenced in groups that share no row (4
 * residuals per group and matrix), only the pattern's entries are compared (s_i and size_i over
 * them), and a difference quotient in a row outside the pattern that is not zero to rounding is
 * an error too (noutside): a pattern that misses a nonzero fails the check.
 * A result begins with its size (sizeof as the caller's header knows it: MBDAE_JAC_CHECK_INIT sets
 * it); the library writes it only as far as that size and refuses (MBDAE_ERR_ARG, the struct
 * untouched) a size of 0, one smaller than this first version with a size and one larger than its
 * own (a caller built against a newer mbdae.h); in an array (mbdae_check_all), the first element's
 * size is the stride and the library sets every element's size to it.  A size field rather than an
 * opaque result: a caller keeps one per check point and reads the fields. */
typedef struct mbdae_jac_check {
  size_t size;         /* sizeof(mbdae_jac_check) */
  double err;          /* largest e_ij over both matrices */
  int ok;              /* err <= MBDAE_CHECK_TOL */
  int matrix;          /* where err occurs: 0 dF/dy, 1 dF/dy' */
  int row, col;        /* 0-based row and column of that entry */
  double jac, fd;      /* J_ij and D_ij there */
  int nnz;             /* nonzero entries of J in both matrices */
  int nrounding;       /* entries that pass only by the rounding allowance r_ij */
  int rounding_matrix; /* the entry with the largest such allowance (when nrounding > 0) */
  int rounding_row, rounding_col;
  double rounding; /* r_ij there */
  int noutside;    /* non-dense pattern: rows whose difference quotient over a column group is not
                      zero although no column of the group has the row in the pattern (judged
                      as entries with J_ij = 0, j the group's first column; 0 when dense) */
} mbdae_jac_check;
#define MBDAE_JAC_CHECK_INIT                                                                       \
  {                                                                                                \
    .size = sizeof(mbdae_jac_check)                                                                \
  }
MBDAE_API int mbdae_check_jac(const mbdae_functions *f, double t, const double *y, const double *yp,
                              const double *ytyp, const double *yptyp, mbdae_jac_check *out);

/* The hidden constraints' derivative levels at one point: g' against the derivative of g, and
 * g'' against the derivative of g', along (t + s, y + s y'), s -> 0, by central differences.
 * y' is first made to satisfy the differential rows of F (rows of dF/dy' with one nonzero, on the
 * diagonal; rows with nonzeros only off it, derivative-level constraints as in form=dummy, are
 * left; a row with both is MBDAE_ERR_UNSUPPORTED), so that positions move with the velocities and
 * velocities with the accelerations, as along the solution.  g and g' must not depend on y'
 * (else y'' would be needed): MBDAE_ERR_UNSUPPORTED.
 * Error e_k = max(0, |g'_k - D_k| - r_k) / max(|g'_k|, |D_k|, MBDAE_CHECK_ROW_FRACTION c_k),
 * c_k the largest term |dg_k/dy_j y'_j| of D_k, r_k = 16 eps size(g_k) / s.
 * The result keeps the size rule of mbdae_jac_check (MBDAE_CONSTRAINT_CHECK_INIT), arrays too. */
typedef struct mbdae_constraint_check {
  size_t size;      /* sizeof(mbdae_constraint_check) */
  double err;       /* largest e_k over both levels */
  int ok;           /* err <= MBDAE_CHECK_TOL (1 when there are no constraints) */
  int level;        /* where err occurs: 1 velocity (g'), 2 acceleration (g'') */
  int index;        /* 0-based constraint */
  double value, fd; /* the problem's g' (or g'') there, and the difference quotient */
} mbdae_constraint_check;
#define MBDAE_CONSTRAINT_CHECK_INIT                                                                \
  {                                                                                                \
    .size = sizeof(mbdae_constraint_check)                                                         \
  }
MBDAE_API int mbdae_check_constraints(const mbdae_functions *f, double t, const double *y,
                                      const double *yp, const double *ytyp,
                                      mbdae_constraint_check *out);

/* The points a problem is checked at: its consistent initial values; the reference at tend where
 * one exists; MBDAE_CHECK_RANDOM random states (deterministic seed) y0 + typ u, u uniform in
 * [-1, 1], t uniform in [t0, tend].  y' at the reference and random states satisfies the
 * differential rows of F.  Typical sizes typ_j = max(|y0_j|, |yref_j|) (1 where both are 0), the
 * same for y' from y'0 and y' at the reference.
 * The points struct begins with its size (sizeof as the caller's header knows it:
 * MBDAE_CHECK_POINTS_INIT sets it); the library writes it only as far as that size and refuses
 * (MBDAE_ERR_ARG, the struct untouched) a size of 0, one smaller than this first version with a
 * size and one larger than its own (a caller built against a newer mbdae.h) (and it is read so by
 * mbdae_check_all; mbdae_check_points_free leaves a struct of a refused size alone).  A size field
 * rather than an opaque object: the arrays are read directly. */
enum { MBDAE_CHECK_RANDOM = 3, MBDAE_CHECK_MAX_POINTS = 2 + MBDAE_CHECK_RANDOM };
typedef struct mbdae_check_points {
  size_t size; /* sizeof(mbdae_check_points) */
  int npoints;
  double t[MBDAE_CHECK_MAX_POINTS];
  const char *label[MBDAE_CHECK_MAX_POINTS]; /* "initial values", "reference", "random" */
  double *y, *yp;                            /* point k: y + k neq, yp + k neq */
  double *ytyp, *yptyp;                      /* typical sizes, neq each */
} mbdae_check_points;
#define MBDAE_CHECK_POINTS_INIT                                                                    \
  {                                                                                                \
    .size = sizeof(mbdae_check_points)                                                             \
  }
/* Allocates; release with mbdae_check_points_free (NULL-safe, also after a failure). */
MBDAE_API int mbdae_problem_check_points(const mbdae_problem *p, mbdae_check_points *pts);
MBDAE_API void mbdae_check_points_free(mbdae_check_points *pts);

/* Both checks at every point (jac[k], con[k]: npoints entries each, the stride of each array its
 * first element's size, which the caller sets); what `mbdae check` and the tests run.  Returns 0,
 * or the first failure of a callback; MBDAE_ERR_ARG, before any element is written, for a size of
 * f, pts, jac[0] or con[0] that its rule refuses. */
MBDAE_API int mbdae_check_all(const mbdae_functions *f, const mbdae_check_points *pts,
                              mbdae_jac_check *jac, mbdae_constraint_check *con);

/* mbdae_check_jac with the problem's own functions at (t, y, y'), typical sizes from its check
 * points. */
MBDAE_API int mbdae_problem_check_jac(const mbdae_problem *p, double t, const double *y,
                                      const double *yp, mbdae_jac_check *out);

/* What one unit of a solver's work costs on this problem, in CPU seconds: a residual, a Jacobian
 * (both matrices), a factorization of J + c M (c real) and of J + s M (s complex, Radau IIA's
 * second system) as the built-in solvers factor them, at the initial values (c = s = 1e3 (1 + i)).
 * Each is the mean of `reps` (>= 1) calls.  For `mbdae bench`'s shares of residual, Jacobian and
 * LU work.
 * The costs struct begins with its size (sizeof as the caller's header knows it:
 * MBDAE_UNIT_COSTS_INIT sets it); the library writes it only as far as that size and refuses
 * (MBDAE_ERR_ARG, the struct untouched) a size of 0, one smaller than this first version with a
 * size and one larger than its own (a caller built against a newer mbdae.h); mbdae_solver_lu_cost
 * reads them so (NaN for a refused size).  A size field rather than an opaque object: four numbers
 * a caller reads. */
typedef struct mbdae_unit_costs {
  size_t size;       /* sizeof(mbdae_unit_costs) */
  double res;        /* one residual evaluation */
  double jac;        /* one Jacobian evaluation */
  double lu_real;    /* one real factorization */
  double lu_complex; /* one complex factorization */
} mbdae_unit_costs;
#define MBDAE_UNIT_COSTS_INIT                                                                      \
  {                                                                                                \
    .size = sizeof(mbdae_unit_costs)                                                               \
  }
MBDAE_API int mbdae_problem_unit_costs(const mbdae_problem *p, int reps, mbdae_unit_costs *c);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_CHECK_H */
