/* mbdae: the public API of the DAE test set library.
 *
 * A problem is F(t, y, y') = 0 on [t0, tend] with consistent initial values, an analytic
 * Jacobian (dF/dy, dF/dy'), a differentiation index per variable and a reference solution at
 * tend.  Problems are created from a spec string, "id" or "id:key=value,key=value", and are
 * immutable after creation: one instance may be used from several threads at once.
 *
 * Matrices are dense and column-major: A[i + j*neq] is row i, column j.
 * Return codes: 0 success, negative an error (mbdae_strerror names it), positive a recoverable
 * failure of a callback (the residual cannot be evaluated at this point: retry with a smaller
 * step).
 *
 * Source of the problems: F. Mazzia, C. Magherini, Test Set for IVP Solvers, release 2.4 (Bari,
 * 2008); pendulum and double pendulum: Hafner & Poell, Comparison of regularisation methods
 * referring to a multi-pendulum case study, eqs. (1) and (6). */
#ifndef MBDAE_MBDAE_H
#define MBDAE_MBDAE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MBDAE_VERSION_MAJOR 0
#define MBDAE_VERSION_MINOR 2
#define MBDAE_VERSION_PATCH 0
#define MBDAE_VERSION "0.2.0"

/* What the shared library exports: the declarations marked MBDAE_API, nothing else (it is
 * built with hidden visibility). */
#if defined(__GNUC__)
#define MBDAE_API __attribute__((visibility("default")))
#else
#define MBDAE_API
#endif

/* The version of the library linked at run time ("0.2.0"), and the versions of the libraries it
 * uses, read from them at run time: "SUNDIALS 6.4.1, LAPACK 3.11.0" (for the records of a run). */
MBDAE_API const char *mbdae_version(void);
MBDAE_API void mbdae_dependency_versions(char *buf, size_t len);

/* ---- error codes: one table generates the enum and mbdae_strerror ------------------------ */

#define MBDAE_ERROR_TABLE(X)                                                                       \
  X(MBDAE_OK, 0, "success")                                                                        \
  X(MBDAE_RECOVERABLE, 1, "recoverable failure: the residual cannot be evaluated here")            \
  X(MBDAE_ERR_ARG, -1, "invalid argument")                                                         \
  X(MBDAE_ERR_SPEC, -2, "invalid problem spec (unknown id or key, or bad value)")                  \
  X(MBDAE_ERR_NOREF, -3, "no reference solution is known for this configuration")                  \
  X(MBDAE_ERR_NOMEM, -4, "out of memory")                                                          \
  X(MBDAE_ERR_SINGULAR, -5, "singular matrix")                                                     \
  X(MBDAE_ERR_INTERNAL, -6, "internal error (bad argument to LAPACK or the solver library)")       \
  X(MBDAE_ERR_MAX_STEPS, -7, "maximum number of steps reached")                                    \
  X(MBDAE_ERR_STEP_TOO_SMALL, -8, "step size too small")                                           \
  X(MBDAE_ERR_CONV, -9, "repeated convergence failures of the nonlinear iteration")                \
  X(MBDAE_ERR_ERRTEST, -10, "repeated error-test failures")                                        \
  X(MBDAE_ERR_RES, -11, "the residual function failed")                                            \
  X(MBDAE_ERR_SOLVER, -12, "the solver failed")                                                    \
  X(MBDAE_ERR_UNSUPPORTED, -13, "not supported by this problem or solver")                         \
  X(MBDAE_ERR_UNKNOWN_SOLVER, -14, "unknown solver")                                               \
  X(MBDAE_ERR_TIMEOUT, -15, "no result within the time limit (mbdae sweep --timeout)")

enum mbdae_status {
#define MBDAE_ENUM_ENTRY(name, value, text) name = value,
  MBDAE_ERROR_TABLE(MBDAE_ENUM_ENTRY)
#undef MBDAE_ENUM_ENTRY
};

/* A static string for any code; "unknown error code" for codes not in the table. */
MBDAE_API const char *mbdae_strerror(int code);
/* The MBDAE_ name of a code ("MBDAE_ERR_MAX_STEPS"); "unknown" for codes not in the table. */
MBDAE_API const char *mbdae_strcode(int code);

/* ---- problems ------------------------------------------------------------------------------ */

typedef struct mbdae_problem mbdae_problem; /* opaque instance, immutable after create */

MBDAE_API int mbdae_problem_count(void);
MBDAE_API const char *mbdae_problem_id(int i); /* NULL when i is out of range */
/* The options a problem id accepts, e.g. "index=1|2|3, beam=linear|nonlinear"; "" for none;
 * NULL for an unknown id. */
MBDAE_API const char *mbdae_problem_options(const char *id);

/* spec: "id" or "id:key=value,key=value".  On failure *out is NULL and msg (if not NULL)
 * holds a message that names the valid choices. */
MBDAE_API int mbdae_problem_create(const char *spec, mbdae_problem **out, char *msg, size_t msglen);
MBDAE_API void mbdae_problem_destroy(mbdae_problem *p); /* NULL is a no-op */

MBDAE_API const char *mbdae_problem_name(const mbdae_problem *p);  /* the id: "caraxis" ... */
MBDAE_API const char *mbdae_problem_title(const mbdae_problem *p); /* "Car axis problem" */
MBDAE_API const char *mbdae_problem_spec(const mbdae_problem *p);  /* canonical spec, all keys spelled out */
MBDAE_API int mbdae_problem_neq(const mbdae_problem *p);
MBDAE_API double mbdae_problem_t0(const mbdae_problem *p);
MBDAE_API double mbdae_problem_tend(const mbdae_problem *p);
MBDAE_API const int *mbdae_problem_index(const mbdae_problem *p); /* differentiation index per variable, 0..3 */
/* 1 when component i (0-based) enters scd, 0 otherwise (see mbdae_scd). */
MBDAE_API int mbdae_problem_in_scd(const mbdae_problem *p, int i);
/* The name of component i (0-based): "x_l", "vy2", "lambda3" (the source's names where it has
 * them, else y1, y2, ...); NULL when i is out of range. */
MBDAE_API const char *mbdae_problem_component(const mbdae_problem *p, int i);

MBDAE_API int mbdae_problem_init(const mbdae_problem *p, double *y0, double *yp0);
MBDAE_API int mbdae_problem_res(const mbdae_problem *p, double t, const double *y, const double *yp,
                      double *res);
/* dense, column-major, neq x neq; either of dfdy, dfdyp may be NULL */
MBDAE_API int mbdae_problem_jac(const mbdae_problem *p, double t, const double *y, const double *yp,
                      double *dfdy, double *dfdyp);
/* The reference solution at tend; MBDAE_ERR_NOREF for a configuration without one. */
MBDAE_API int mbdae_problem_ref(const mbdae_problem *p, double *yref);
/* Where the reference comes from (method, precision, publication); never NULL. */
MBDAE_API const char *mbdae_problem_ref_source(const mbdae_problem *p);

/* Hidden constraints of a mechanical problem: the position constraints g (with any prescribed
 * motion), their first derivative along the solution (velocity level) and their second
 * (acceleration level), evaluated from y and y'.  Any output pointer may be NULL.
 * mbdae_problem_nconstraints is 0 for a problem without constraints. */
MBDAE_API int mbdae_problem_nconstraints(const mbdae_problem *p);
MBDAE_API int mbdae_problem_constraints(const mbdae_problem *p, double t, const double *y, const double *yp,
                              double *gpos, double *gvel, double *gacc);

/* How the test set runs a problem: rtol = atol = 10^-(4 + m/m_div), m = 0..m_max;
 * h0 = h0_factor * rtol; the run-characteristics table uses table_rtol[0..ntable-1]. */
typedef struct mbdae_tolerance_plan {
  int m_div;            /* 4 or 8 */
  int m_max;            /* 24 or 48 */
  double h0_factor;     /* 1, or 1e-2 for the slider crank */
  int ntable;           /* number of table tolerances */
  double table_rtol[4]; /* rtol (= atol) of the published table rows */
  double default_rtol;  /* what `mbdae run` uses without --rtol */
} mbdae_tolerance_plan;
MBDAE_API void mbdae_problem_tolerances(const mbdae_problem *p, mbdae_tolerance_plan *plan);

/* Residual evaluations one mbdae_problem_jac call makes: 0 for an analytic Jacobian, 2 neq + 1
 * for a user's problem without one (forward differences).  Solvers add it to stats.nres_fd. */
MBDAE_API int mbdae_problem_jac_nres(const mbdae_problem *p);

/* ---- Jacobian structure (large problems) -------------------------------------------------- */

/* Where the nonzeros of dF/dy + c dF/dy' lie, so that a solver of a large problem stores and
 * factors only those: a compressed-column pattern (column j holds rows rowind[colptr[j]] ..
 * rowind[colptr[j+1] - 1], increasing) covering every entry of both matrices that can be nonzero,
 * its bandwidths, and the storage the problem suggests.  Every problem has one:
 *   MBDAE_JAC_DENSE  every entry (colptr and rowind are NULL; nnz = neq^2): the values are in
 *                    column-major order, which is the compressed-column order of the full pattern;
 *   MBDAE_JAC_BAND   a pattern inside a narrow band (ml + mu + 1 much less than neq): LAPACK's
 *                    band LU (dgbtrf) suits it;
 *   MBDAE_JAC_SPARSE any other pattern: a sparse LU (KLU) suits it.
 * MBDAE_JAC_AUTO is "let the library choose" where a kind is asked for (mbdae_options.linsys,
 * mbdae_problem_type.jac_kind); a pattern's kind is never AUTO.
 * MBDAE_JAC_CONDENSED is a choice of mbdae_options.linsys only: dense storage of at most 64
 * equations, with the rows of the form c y_i' - y_p (q' - v: one nonzero in y', on the diagonal,
 * and one in y) eliminated before a dense LU of the rest (RADAU5's treatment of second-order
 * systems, found here from the Jacobian's structure).  The built-in radau5, radau and bdf take it
 * for a dense problem of at most 64 equations when linsys is AUTO (mbdae_linsys_resolve); DENSE
 * asks them for the plain dense LU with partial pivoting. */
enum mbdae_jac_kind {
  MBDAE_JAC_AUTO = 0,
  MBDAE_JAC_DENSE = 1,
  MBDAE_JAC_BAND = 2,
  MBDAE_JAC_SPARSE = 3,
  MBDAE_JAC_CONDENSED = 4
};
/* The kind's name ("auto", "dense", "band", "sparse", "condensed"); NULL outside the enum. */
MBDAE_API const char *mbdae_jac_kind_name(int kind);
/* The kind of iteration matrix the solver named solver uses for p when asked for linsys: AUTO
 * resolves to the pattern's kind, and for the built-in radau5, radau and bdf a dense pattern of at
 * most 64 equations to MBDAE_JAC_CONDENSED; any other linsys is returned as it is (a solver
 * refuses a kind it lacks). */
MBDAE_API int mbdae_linsys_resolve(const mbdae_problem *p, const char *solver, int linsys);

typedef struct mbdae_jac_pattern {
  int kind;          /* MBDAE_JAC_DENSE, _BAND or _SPARSE: the storage the problem suggests */
  int neq;           /* order of the matrices */
  int ml, mu;        /* lower and upper bandwidth of the pattern (neq - 1 each when dense) */
  size_t nnz;        /* entries of the pattern (neq^2 when dense) */
  const int *colptr; /* neq + 1 entries, colptr[0] = 0, colptr[neq] = nnz; NULL when dense */
  const int *rowind; /* nnz row numbers (0-based), increasing within a column; NULL when dense */
} mbdae_jac_pattern;

/* The pattern of p (its arrays belong to the instance and live as long as it). */
MBDAE_API void mbdae_problem_jac_pattern(const mbdae_problem *p, mbdae_jac_pattern *pat);
/* dF/dy and dF/dy' at the pattern's entries, in its order (nnz values each; either output may be
 * NULL); every entry outside the pattern is zero.  The dense call, mbdae_problem_jac, gives the
 * same values scattered into neq x neq arrays. */
MBDAE_API int mbdae_problem_jac_values(const mbdae_problem *p, double t, const double *y,
                                       const double *yp, double *dfdy, double *dfdyp);

/* ---- a user's own problem ----------------------------------------------------------------- */

/* A problem written outside the library, run by every solver, the harness, the metrics and the
 * writers exactly as a built-in one.  Callbacks return 0, positive (recoverable: the residual
 * cannot be evaluated here) or negative (fatal), and must be reentrant for the same ctx if the
 * instance is used from several threads.  Fields may be added at the end, never renamed. */
typedef struct mbdae_problem_type {
  const char *id;    /* [a-z0-9_]+, at most 63 characters */
  const char *title; /* one line */
  int neq;           /* number of equations, >= 1 */
  double t0, tend;   /* finite, t0 < tend */
  const int *index;  /* neq entries, 0..3: differentiation index of each variable */
  const int *in_scd; /* neq entries 0/1: components that enter scd; NULL: every component */
  int (*init)(void *ctx, double *y0, double *yp0); /* consistent values at t0 */
  int (*res)(void *ctx, double t, const double *y, const double *yp, double *res);
  /* dense column-major dF/dy and dF/dy' (either may be NULL); NULL: forward differences of res,
   * counted in stats.nres_fd */
  int (*jac)(void *ctx, double t, const double *y, const double *yp, double *dfdy, double *dfdyp);
  int (*ref)(void *ctx, double *yref); /* y(tend); NULL: no reference (MBDAE_ERR_NOREF) */
  const char *ref_source;              /* how ref was computed; NULL when ref is NULL */
  const char *const *names; /* neq component names, [A-Za-z0-9_]+; NULL: y1, y2, ... */
  /* Optional structure of a large problem (mbdae_jac_pattern); all 0 / NULL: dense.
   * jac_colptr (neq + 1) and jac_rowind (jac_colptr[neq]) give the pattern of dF/dy + c dF/dy',
   * rows increasing within each column; they must outlive the instance.  jac_kind: MBDAE_JAC_BAND
   * or MBDAE_JAC_SPARSE (MBDAE_JAC_AUTO: band when ml + mu + 1 <= neq / 4, else sparse).
   * jac_values fills both matrices' values in the pattern's order (either output may be NULL);
   * NULL: from jac (dense, n^2 memory per call), or, without jac, by differences of res over
   * groups of columns that share no row (counted in stats.nres_fd). */
  int jac_kind;
  const int *jac_colptr;
  const int *jac_rowind;
  int (*jac_values)(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp);
} mbdae_problem_type;

/* An instance of a user's problem.  The instance keeps type and ctx (both must outlive it); its
 * spec is the id, and it runs at the test-set defaults of the tolerance plan
 * (rtol = atol = 10^-(4 + m/4), m = 0..24, h0 = rtol, table rows 1e-4, 1e-7, 1e-10; run: 1e-6).
 * A type that breaks a rule above is refused with MBDAE_ERR_ARG and a message. */
MBDAE_API int mbdae_problem_from_type(const mbdae_problem_type *type, void *ctx, mbdae_problem **out,
                            char *msg, size_t msglen);

/* ---- diagnostics ------------------------------------------------------------------------- */

/* How well (t, y, y') satisfies F = 0: the largest |F_i|, and the largest |F_i| / size_i where
 * size_i = sum_j |dF_i/dy_j y_j| + |dF_i/dy'_j y'_j| is the size of the terms of equation i
 * (first order), so that a residual can be judged against what it is the difference of. */
MBDAE_API int mbdae_problem_residual_size(const mbdae_problem *p, double t, const double *y, const double *yp,
                                double *max_abs, double *max_rel);

/* A DAE given by callbacks over one context: what the checks below examine, so that a caller can
 * check functions of its own, or wrap a problem's (mbdae_problem_functions fills one with the
 * problem's own functions, ctx = the problem).  Callbacks return 0, or non-zero on failure. */
typedef struct mbdae_functions {
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
MBDAE_API void mbdae_problem_functions(const mbdae_problem *p, mbdae_functions *fns);

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
 * an error too (noutside): a pattern that misses a nonzero fails the check. */
typedef struct mbdae_jac_check {
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
MBDAE_API int mbdae_check_jac(const mbdae_functions *f, double t, const double *y, const double *yp,
                    const double *ytyp, const double *yptyp, mbdae_jac_check *out);

/* The hidden constraints' derivative levels at one point: g' against the derivative of g, and
 * g'' against the derivative of g', along (t + s, y + s y'), s -> 0, by central differences.
 * y' is first made to satisfy the differential rows of F (rows of dF/dy' with one nonzero, on the
 * diagonal; rows with nonzeros only off it, derivative-level constraints as in form=dummy, are
 * left; a row with both is MBDAE_ERR_UNSUPPORTED), so that positions move with the velocities and
 * velocities with the accelerations, as along the solution.  g and g' must not depend on y' (else y'' would be needed): MBDAE_ERR_UNSUPPORTED.
 * Error e_k = max(0, |g'_k - D_k| - r_k) / max(|g'_k|, |D_k|, MBDAE_CHECK_ROW_FRACTION c_k),
 * c_k the largest term |dg_k/dy_j y'_j| of D_k, r_k = 16 eps size(g_k) / s. */
typedef struct mbdae_constraint_check {
  double err;       /* largest e_k over both levels */
  int ok;           /* err <= MBDAE_CHECK_TOL (1 when there are no constraints) */
  int level;        /* where err occurs: 1 velocity (g'), 2 acceleration (g'') */
  int index;        /* 0-based constraint */
  double value, fd; /* the problem's g' (or g'') there, and the difference quotient */
} mbdae_constraint_check;
MBDAE_API int mbdae_check_constraints(const mbdae_functions *f, double t, const double *y, const double *yp,
                            const double *ytyp, mbdae_constraint_check *out);

/* The points a problem is checked at: its consistent initial values; the reference at tend where
 * one exists; MBDAE_CHECK_RANDOM random states (deterministic seed) y0 + typ u, u uniform in
 * [-1, 1], t uniform in [t0, tend].  y' at the reference and random states satisfies the
 * differential rows of F.  Typical sizes typ_j = max(|y0_j|, |yref_j|) (1 where both are 0), the
 * same for y' from y'0 and y' at the reference. */
enum { MBDAE_CHECK_RANDOM = 3, MBDAE_CHECK_MAX_POINTS = 2 + MBDAE_CHECK_RANDOM };
typedef struct mbdae_check_points {
  int npoints;
  double t[MBDAE_CHECK_MAX_POINTS];
  const char *label[MBDAE_CHECK_MAX_POINTS]; /* "initial values", "reference", "random" */
  double *y, *yp;                            /* point k: y + k neq, yp + k neq */
  double *ytyp, *yptyp;                      /* typical sizes, neq each */
} mbdae_check_points;
/* Allocates; release with mbdae_check_points_free (NULL-safe, also after a failure). */
MBDAE_API int mbdae_problem_check_points(const mbdae_problem *p, mbdae_check_points *pts);
MBDAE_API void mbdae_check_points_free(mbdae_check_points *pts);

/* Both checks at every point (jac[k], con[k]: npoints entries each); what `mbdae check` and the
 * tests run.  Returns 0, or the first failure of a callback. */
MBDAE_API int mbdae_check_all(const mbdae_functions *f, const mbdae_check_points *pts, mbdae_jac_check *jac,
                    mbdae_constraint_check *con);

/* mbdae_check_jac with the problem's own functions at (t, y, y'), typical sizes from its check
 * points. */
MBDAE_API int mbdae_problem_check_jac(const mbdae_problem *p, double t, const double *y, const double *yp,
                            mbdae_jac_check *out);

/* What one unit of a solver's work costs on this problem, in CPU seconds: a residual, a Jacobian
 * (both matrices), a factorization of J + c M (c real) and of J + s M (s complex, Radau IIA's
 * second system) as the built-in solvers factor them, at the initial values (c = s = 1e3 (1 + i)).
 * Each is the mean of `reps` (>= 1) calls.  For `mbdae bench`'s shares of residual, Jacobian and
 * LU work. */
typedef struct mbdae_unit_costs {
  double res;        /* one residual evaluation */
  double jac;        /* one Jacobian evaluation */
  double lu_real;    /* one real factorization */
  double lu_complex; /* one complex factorization */
} mbdae_unit_costs;
MBDAE_API int mbdae_problem_unit_costs(const mbdae_problem *p, int reps, mbdae_unit_costs *c);

/* ---- accuracy measures (test set report conventions) -------------------------------------- */

/* scd = -log10(max_i |y_i - yref_i| / |yref_i|) over the scd components with yref_i != 0. */
MBDAE_API double mbdae_scd(const mbdae_problem *p, const double *y, const double *yref);
/* mescd = -log10(max_i |y_i - yref_i| / (atol/rtol + |yref_i|)) over all components.
 * A maximum of exactly 0 is replaced by 1e-16 in both.  mescd is NaN unless rtol and atol are
 * positive and finite (the tolerances of the run, which mbdae_solve requires to be so). */
MBDAE_API double mbdae_mescd(const mbdae_problem *p, const double *y, const double *yref, double rtol,
                   double atol);

/* ---- solvers ----------------------------------------------------------------------------- */

typedef struct mbdae_options {
  double rtol;        /* relative tolerance, > 0 */
  double atol;        /* absolute tolerance, > 0 */
  double h0;          /* initial step size; 0 lets the solver choose; beyond the interval or
                         hmax it is the interval or hmax; below 16 eps max(|t0|, |tend|) refused */
  double hmax;        /* largest step size; 0: no limit but the interval; not below h0's floor */
  long max_steps;     /* limit on attempted steps; 0 means the default (10^6) */
  const double *tout; /* optional output times, increasing, inside [t0, tend] */
  int ntout;          /* number of output times */
  double *yout; /* ntout * neq values, yout[k*neq + i] = y_i(tout[k]) from continuous output */
  /* Optional observer of every accepted step: t at its end, the step size and the order used. */
  void (*on_step)(void *ctx, double t, double h, int order);
  void *on_step_ctx;
  /* Optional observer of the state after every accepted step: t at its end, y(t) and y'(t) (neq
   * values each, valid during the call only).  Called right after on_step.  The harness measures
   * constraint drift through it (mbdae_result.drift_*); it passes a caller's on_accept on. */
  void (*on_accept)(void *ctx, double t, const double *y, const double *yp);
  void *on_accept_ctx;
  /* Optional projection after every accepted step, before the outputs, on_step and on_accept:
   * project(ctx, t, y, y') may change y (and y') in place, and the solver goes on from there.
   * It returns 0, or a negative code that ends the run (reported as the reason).
   * mbdae_projector_apply is one (ctx: a projector).  radau5 honours it; bdf, radau and ida
   * refuse it with MBDAE_ERR_UNSUPPORTED, as a plug-in solver that cannot honour it must. */
  int (*project)(void *ctx, double t, double *y, double *yp);
  void *project_ctx;
  /* The storage of the iteration matrix, an mbdae_jac_kind: MBDAE_JAC_AUTO (0) takes the one the
   * problem suggests (mbdae_jac_pattern.kind); DENSE, BAND (the pattern's bandwidths) or SPARSE
   * (its pattern) ask for that one.  A solver without the kind asked for refuses the run with
   * MBDAE_ERR_UNSUPPORTED. */
  int linsys;
  /* Optional stop after an accepted step: called after on_accept with the same t, y, y'; nonzero
   * ends the run there, successfully (status MBDAE_OK, r->t = t < tend), y and y' holding that
   * state; the harness's drift figures end there and output times after t stay unfilled.  The
   * built-in solvers honour it; a plug-in solver written before it runs on to tend (r->t tells). */
  int (*stop)(void *ctx, double t, const double *y, const double *yp);
  void *stop_ctx;
} mbdae_options;

/* rtol = atol = 1e-6, everything else 0 / NULL. */
MBDAE_API void mbdae_options_default(mbdae_options *opt);

typedef struct mbdae_stats {
  long steps;     /* attempted steps, rejected ones included */
  long accepted;  /* accepted steps */
  long nres;      /* residual evaluations, without those for finite-difference Jacobians */
  long nres_fd;   /* residual evaluations for finite-difference Jacobians */
  long njac;      /* Jacobian evaluations */
  long nlu;       /* factorization events (Radau IIA: real + complex for one matrix count once) */
  long nerrfail;  /* error-test failures */
  long nconvfail; /* nonlinear-iteration convergence failures */
} mbdae_stats;

typedef struct mbdae_result {
  int status;          /* MBDAE_OK or a negative code */
  double t;            /* where the run ended: tend, or the point of failure */
  double h;            /* the last step size tried */
  char message[320];   /* "" on success; otherwise where and why it failed */
  mbdae_stats stats;   /* counters of the (last) run */
  double cpu_seconds;  /* in-process CPU time; with repeats the median after dropping min, max */
  double cpu_min;      /* fastest of the repeats */
  double cpu_max;      /* slowest of the repeats */
  int repeats;         /* number of runs timed */
  /* Constraint drift (the hidden constraints of mbdae_problem_constraints): the largest
   * max_i |g_i| (position level) and max_i |g'_i| (velocity level, G v + g_t) over the accepted
   * states of the (last) run and the state where it ended, and their values at that end (tend,
   * unless the run failed).  The harness fills them; NaN when the problem has no constraints
   * (nconstraints 0: form=ssf) or nothing ran. */
  double drift_pos_max, drift_vel_max;
  double drift_pos_end, drift_vel_end;
  /* Accepted states the maxima cover besides the end point: the solver's on_accept calls.  0 for
   * a solver that does not call on_accept (the maxima are then the values at the end). */
  long drift_steps;
} mbdae_result;

/* An integrator: the built-in ida, radau5 and bdf are such types, and so is a user's own solver
 * (run it with mbdae_solve_with, or load it into the mbdae command as a plug-in).
 * Fields may be added at the end, never renamed. */
typedef struct mbdae_solver_type {
  const char *id;    /* name on the command line: [A-Za-z0-9_-]+, at most 63 characters */
  const char *title; /* one line for tables and legends */
  /* Integrate p over [t0, tend] from consistent y, yp at t0, leaving y(tend), y'(tend) there.
   * Fills r->status (0 or a negative MBDAE_ code), r->t, r->h, r->message, r->stats; honours
   * opt->rtol, atol, h0, hmax, max_steps; calls opt->on_step, then opt->on_accept (with the
   * state) after every accepted step (a solver that does not call on_accept gets its drift
   * measured at the end only: drift_steps 0); fills opt->yout at opt->tout when ntout > 0, or
   * returns MBDAE_ERR_UNSUPPORTED if it cannot.
   * r arrives zeroed; the harness does the timing and the repeats. */
  int (*integrate)(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                   mbdae_result *r);
  /* NULL for a general solver (any problem of the test set); for a specialist, the problems it
   * runs on, one line ("form=index1 of a mechanical problem, at most 200 equations"): the default
   * solver lists of `mbdae sweep` and `mbdae bench` leave it out, `mbdae list` shows it. */
  const char *runs_on;
} mbdae_solver_type;

#define MBDAE_REPEATS_MAX 100000 /* largest `repeats` of mbdae_solve and mbdae_solve_with */

MBDAE_API int mbdae_solver_count(void);                               /* built-in solvers */
MBDAE_API const mbdae_solver_type *mbdae_solver_get(int i);           /* NULL when i is out of range */
MBDAE_API const mbdae_solver_type *mbdae_solver_find(const char *id); /* built-in; NULL when unknown */
MBDAE_API const char *mbdae_solver_id(int i);    /* mbdae_solver_get(i)->id; NULL when out of range */
MBDAE_API const char *mbdae_solver_title(int i); /* mbdae_solver_get(i)->title; NULL when out of range */
/* NULL when the type keeps the rules above (id, title, integrate), else what is wrong. */
MBDAE_API const char *mbdae_solver_type_invalid(const mbdae_solver_type *type);
/* The CPU seconds of one factorization event (mbdae_stats.nlu) of a built-in solver, from unit
 * costs c: the real and complex factorizations it makes per event, from the solver's capabilities
 * (never its name).  ida, bdf and spm factor one real matrix; Radau IIA with s stages one real and
 * (s - 1)/2 complex ones: radau5 (s = 3) one of each, radau (s = 3, 5, 7 by its order selection)
 * one real and 1 to 3 complex ones, counted at s = 3, its lowest order (a lower bound: the
 * counters do not say at which order an event was).  A solver type the library does not know (a
 * plug-in's) is counted as one real factorization per event.  0 when c is NULL. */
MBDAE_API double mbdae_solver_lu_cost(const mbdae_solver_type *solver, const mbdae_unit_costs *c);

/* Integrate p from its consistent initial values over [t0, tend] with a solver type, `repeats`
 * times, storing y(tend) in y (and y'(tend) in yp unless NULL).  The harness validates
 * the options, takes the initial values from the problem and times each run (in-process CPU
 * time; with repeats the median after dropping min and max).  repeats: 1 to MBDAE_REPEATS_MAX.
 * Returns r->status.  A solver failure is reported in r (t, h, message), never printed; a status
 * a solver returns outside the contract (positive) is reported as MBDAE_ERR_SOLVER, and so are a
 * counter outside [0, 10^15] and a success with a non-finite y at the end or a non-finite drift
 * (NaN states keep their drift NaN, never 0).  Bad options
 * (see mbdae_options) return MBDAE_ERR_ARG before anything runs; yp is written only when an
 * integration ran (not when the initial values fail). */
MBDAE_API int mbdae_solve_with(const mbdae_problem *p, const mbdae_solver_type *solver,
                     const mbdae_options *opt, int repeats, double *y, double *yp,
                     mbdae_result *r);
/* mbdae_solve_with the built-in solver named `solver` (MBDAE_ERR_UNKNOWN_SOLVER with the valid
 * names in r->message when there is none). */
MBDAE_API int mbdae_solve(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
                double *y, double *yp, mbdae_result *r);

/* form=dummy (Mattsson & Soederlind's dummy derivatives, pendulum and dpendulum) run with its
 * state selection switched where it degenerates: p is a form=dummy instance, y, yp its initial
 * values; the run ends at tend (exactly 0: p's own; else a finite time after t0, or MBDAE_ERR_ARG:
 * -5 or NaN are refused, not taken for p's own).  Segment after segment, solver (which must honour
 * options.stop) integrates p's configuration with the current
 * selection S until, after an accepted step, |det G_S| drops below half that of the selection
 * complete pivoting of G picks there (G = dg/dq); it then restarts from the same physical state
 * in the new selection's variables (the dummies the true derivatives) at that time (also at t0
 * when p's own selection is poor there: select=y at the pendulum's start).  On return
 * y, yp hold the end state in p's own variables (p's selection), *switches the number of
 * switches; r has the summed counters, the CPU time of the whole run (switches included,
 * repeats 1), the drift over every segment's accepted states, and status and message of the
 * last segment.  opt as for mbdae_solve, max_steps counting all segments; opt->on_accept sees
 * each state in p's variables; output times, projection and stop are refused
 * (MBDAE_ERR_UNSUPPORTED), as is a problem not in form=dummy (MBDAE_ERR_ARG). */
MBDAE_API int mbdae_solve_dummy(const mbdae_problem *p, const mbdae_solver_type *solver,
                                double tend, const mbdae_options *opt, double *y, double *yp,
                                mbdae_result *r, int *switches);

/* ---- projection onto the constraint manifold ---------------------------------------------- */

/* The orthogonal projection method (OPM) of Hafner & Poell (2015), Table 1, after Hairer,
 * Lubich & Wanner, Geometric Numerical Integration, IV.4 (standard projection) and VII.2: the
 * positions q are moved onto g(q) = 0 along the constraint gradient taken at the unprojected
 * point, q = q~ + G(q~)^T mu, mu by simplified Newton iterations with G G^T factored once, then
 * the velocities onto G v + g_t = 0 the same way (linear in v).  The metric is Euclidean (the
 * mass metric for unit masses, as in the pendulum problems).  g and G v + g_t are the problem's
 * own hidden constraints (mbdae_problem_constraints); G is their central difference quotient (g
 * is evaluated exactly, so the iteration still ends on g = 0 to rounding).  Which components are
 * positions (those g depends on) and velocities (those G v + g_t depends on besides) is found
 * once, at a generic point near the initial values.  Not for multipliers: they are left as they
 * are (the next step's nonlinear iteration recomputes them).  A projector holds work arrays: one
 * per run at a time. */
typedef struct mbdae_projector mbdae_projector;
/* A projector for p (which must outlive it): MBDAE_ERR_UNSUPPORTED with a message for a problem
 * without constraints or whose positions or velocities cannot be told apart. */
MBDAE_API int mbdae_projector_create(const mbdae_problem *p, mbdae_projector **out, char *msg,
                                     size_t msglen);
MBDAE_API void mbdae_projector_destroy(mbdae_projector *pr); /* NULL is a no-op */
/* Project y at t in place (projector: a mbdae_projector, so that it fits mbdae_options.project);
 * y' is left as it is.  0, or MBDAE_ERR_CONV when the iteration does not reach g = 0 to rounding
 * (MBDAE_ERR_SINGULAR: G G^T singular), or the constraint function's error. */
MBDAE_API int mbdae_projector_apply(void *projector, double t, double *y, double *yp);

/* ---- run records and their writers ------------------------------------------------------- */

/* What one run was and gave, in a form that outlives the problem instance: what `mbdae run
 * --json` prints and what one row of a sweep's runs.csv holds, so that a program of one's own
 * produces exactly the records of `mbdae sweep`.  The writers write only to the caller's stream;
 * the CSV writer and reader share one column table (README, "runs.csv"). */

enum {
  MBDAE_RECORD_ID_LEN = 64,    /* problem and solver ids, with their terminating NUL */
  MBDAE_RECORD_SPEC_LEN = 256, /* canonical problem spec */
  MBDAE_RECORD_TEXT_LEN = 400  /* message, solver title, environment strings */
};

/* Where a run was made: versions and machine (uname, /proc/cpuinfo). */
typedef struct mbdae_environment {
  char mbdae[MBDAE_RECORD_ID_LEN];          /* mbdae_version() */
  char dependencies[MBDAE_RECORD_TEXT_LEN]; /* mbdae_dependency_versions() */
  char machine[MBDAE_RECORD_TEXT_LEN];      /* uname: "Linux 6.1.0-18-amd64 x86_64" */
  char cpu[MBDAE_RECORD_TEXT_LEN];          /* CPU model name; "" when unknown */
} mbdae_environment;
/* The environment of this process. */
MBDAE_API void mbdae_environment_get(mbdae_environment *env);

typedef struct mbdae_record {
  char problem[MBDAE_RECORD_ID_LEN];        /* problem id */
  char spec[MBDAE_RECORD_SPEC_LEN];         /* canonical spec, all keys spelled out */
  char solver[MBDAE_RECORD_ID_LEN];         /* solver id */
  char solver_title[MBDAE_RECORD_TEXT_LEN]; /* the solver's one-line title */
  double rtol, atol, h0, hmax;              /* the options of the run (hmax 0: no limit) */
  long max_steps;                           /* as given: 0 is the solver's default */
  int status;                               /* MBDAE_OK or a negative code */
  char message[MBDAE_RECORD_TEXT_LEN];      /* where and why it failed; "" on success */
  double t, h;       /* where the run ended and the last step size tried; NaN when not run */
  mbdae_stats stats; /* counters of the (last) run */
  double cpu_seconds, cpu_min, cpu_max; /* as mbdae_result; NaN when not timed */
  int repeats;                          /* runs timed */
  double scd, mescd;                    /* NaN when the run failed or there is no reference */
  int neq;                              /* length of y, yref, names */
  double *y;             /* y where the run ended, neq values; NULL when nothing ran */
  double *yref;          /* the reference at tend, neq values; NULL when there is none */
  char **names;          /* the component names, neq of them; NULL when neq is 0 */
  mbdae_environment env; /* where the run was made */
  double drift_pos_max, drift_vel_max; /* as mbdae_result; NaN: no constraints or no run */
  double drift_pos_end, drift_vel_end; /* as mbdae_result; NaN: no constraints or no run */
  long drift_steps; /* as mbdae_result: accepted states the maxima cover besides the end */
  long switches;    /* form=dummy: state-selection switches of mbdae_solve_dummy; 0 otherwise */
} mbdae_record;

/* The settings of a run of solver on p at opt, names, reference and environment, without an
 * outcome (status MBDAE_ERR_SOLVER, message "", counters 0, measures NaN): the record of a run
 * that never reported.  Allocates: release with mbdae_record_free.  0 or MBDAE_ERR_NOMEM /
 * MBDAE_ERR_ARG (NULL argument). */
MBDAE_API int mbdae_record_init(mbdae_record *rec, const mbdae_problem *p,
                                const mbdae_solver_type *solver, const mbdae_options *opt);
/* mbdae_record_init, then mbdae_solve_with(p, solver, opt, repeats), y, scd and mescd.  Returns
 * the run's status (also in rec->status), or MBDAE_ERR_NOMEM / MBDAE_ERR_ARG before any run.  A
 * form=dummy instance runs through mbdae_solve_dummy (its selection switched where it degenerates;
 * one run, whatever repeats says), its switches in rec->switches. */
MBDAE_API int mbdae_record_run(mbdae_record *rec, const mbdae_problem *p,
                               const mbdae_solver_type *solver, const mbdae_options *opt,
                               int repeats);
/* Release what a record holds (y, yref, names); a zeroed or freed record is a no-op. */
MBDAE_API void mbdae_record_free(mbdae_record *rec);
MBDAE_API void mbdae_records_free(mbdae_record *recs, size_t n); /* each, then the array */

/* 1 when s is a non-empty name of [A-Za-z0-9_:=,.+-]: what problem, spec and solver fields hold
 * (safe inside a gnuplot string and a file name). */
MBDAE_API int mbdae_record_id_ok(const char *s);

/* One record as a JSON object (no line break after it): the CSV columns as keys (numbers, null
 * for a missing one), y, yref and names as arrays, and the environment as mbdae_version,
 * dependencies, machine and cpu.  These writers return 0, or -1 when the stream has an error. */
MBDAE_API int mbdae_record_write_json(FILE *out, const mbdae_record *rec);
/* The JSON pieces those writers use, for a program's own JSON beside the records: a string,
 * quoted and escaped (RFC 8259); a number with %.17g, or null when it is not finite. */
MBDAE_API void mbdae_json_write_string(FILE *out, const char *s);
MBDAE_API void mbdae_json_write_number(FILE *out, double v);
/* runs.csv (RFC 4180): the header line.  Each row holds its record's environment in its last
 * columns (mbdae_version, dependencies, machine, cpu); env is unused (older files had it as
 * "# key: value" lines after the header, which the reader still takes) and may be NULL. */
MBDAE_API int mbdae_record_write_csv_header(FILE *out, const mbdae_environment *env);
MBDAE_API int mbdae_record_write_csv_row(FILE *out, const mbdae_record *rec);
/* A record of more than MBDAE_RECORD_INLINE_MAX components keeps its final vector out of its row:
 * mbdae_record_write_csv_row_side writes names, y and yref to the side file dir/side_name
 * (side_name: [A-Za-z0-9_.-], not starting with '.') and "@side_name" into those three fields
 * (empty where the record has no such vector); a smaller record is written inline, as
 * mbdae_record_write_csv_row writes it.  The side file (README, "runs.csv"): a line
 * "# mbdae record vectors: neq N", then N lines "i name y yref" (%.17g, nan for a non-finite
 * value, - where the record has no such vector).  0, or -1 (bad name, a write error). */
#define MBDAE_RECORD_INLINE_MAX 1000
MBDAE_API int mbdae_record_write_csv_row_side(FILE *out, const mbdae_record *rec, const char *dir,
                                              const char *side_name);
/* Read runs.csv from in (name is for messages, and its directory is where side files are: a
 * field "@FILE" reads that side file, checked line by line; a missing or bad one refuses the row
 * with "FILE:line: why"): columns found by name, every field checked (ids,
 * positive finite tolerances, counters from 0 to 10^15, codes from the table, vectors of neq
 * numbers); repeated header lines are skipped; in a file without the environment columns,
 * "# key: value" lines set the environment of the rows after them.  Returns 0 with *recs (release with mbdae_records_free) and *n, or -1 with
 * "name:line: why" in msg and nothing allocated. */
MBDAE_API int mbdae_record_read_csv(FILE *in, const char *name, mbdae_record **recs, size_t *n,
                                    char *msg, size_t msglen);
/* As mbdae_record_read_csv, and every row the reader accepts is passed to check(ctx, row, why,
 * len) before the next line: a non-zero return refuses the file with "name:line: why" (the row's
 * line).  What a caller that uses rows with a problem checks first (mbdae_record_fits). */
typedef int mbdae_record_check_fn(void *ctx, const mbdae_record *rec, char *why, size_t len);
MBDAE_API int mbdae_record_read_csv_checked(FILE *in, const char *name, mbdae_record_check_fn *check,
                                            void *ctx, mbdae_record **recs, size_t *n, char *msg,
                                            size_t msglen);
/* 0 when rec's vectors may be used with problem p (mbdae_scd, a reference copied in): names, y and
 * yref are each absent or hold mbdae_problem_neq(p) entries, and the names are p's component names
 * in order; else -1 with why.  A record read back holds what its file says, not what p has. */
MBDAE_API int mbdae_record_fits(const mbdae_record *rec, const mbdae_problem *p, char *why,
                                size_t len);
/* The run-characteristics table of problem p in Markdown, in the layout of the test set's tables
 * (solver, rtol, atol, h0, mescd, scd, steps, accept, #f, #Jac, #LU, CPU; then ours, drift: max
 * |g|, "-" without constraints): the records of p at
 * its table tolerances, then its failed runs.  A row of it alone (first: name the solver). */
MBDAE_API int mbdae_record_write_table(FILE *out, const mbdae_problem *p, const mbdae_record *recs,
                                       size_t n);
MBDAE_API int mbdae_record_write_table_row(FILE *out, const mbdae_record *rec, int first);
/* ---- plug-ins ----------------------------------------------------------------------------- */

/* A shared object loaded by the mbdae command (--plugin FILE) exports
 *   int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list);
 *   int mbdae_plugin_problems(int abi, const mbdae_problem_type *const **list);   (optional)
 * each returning the number of entries it points *list at, or -1 when it does not support abi
 * (the command passes MBDAE_PLUGIN_ABI). */
/* ABI 2 (0.2.0): mbdae_problem_type gained its pattern fields and mbdae_solver_type runs_on,
 * which the loader reads, so a plug-in built against 0.1's header (ABI 1, shorter structs) is
 * refused rather than read past its end. */
#define MBDAE_PLUGIN_ABI 2
typedef int mbdae_plugin_solvers_fn(int abi, const mbdae_solver_type *const **list);
typedef int mbdae_plugin_problems_fn(int abi, const mbdae_problem_type *const **list);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_MBDAE_H */
