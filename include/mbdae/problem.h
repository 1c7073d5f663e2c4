/* mbdae/problem.h: problems: the built-in ones created from a spec string, a user's own
 * (mbdae_problem_type), their residual, Jacobian (dense, or its pattern and values), reference
 * solution, hidden constraints and tolerance plan.  Matrices are dense and column-major:
 * A[i + j*neq] is row i, column j. */
#ifndef MBDAE_PROBLEM_H
#define MBDAE_PROBLEM_H

#include <stddef.h>
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* The canonical spec, all keys spelled out. */
MBDAE_API const char *mbdae_problem_spec(const mbdae_problem *p);
MBDAE_API int mbdae_problem_neq(const mbdae_problem *p);
MBDAE_API double mbdae_problem_t0(const mbdae_problem *p);
MBDAE_API double mbdae_problem_tend(const mbdae_problem *p);
/* The differentiation index per variable, 0..3. */
MBDAE_API const int *mbdae_problem_index(const mbdae_problem *p);
/* 1 when component i (0-based) enters scd, 0 otherwise (see mbdae_scd). */
MBDAE_API int mbdae_problem_in_scd(const mbdae_problem *p, int i);
/* The name of component i (0-based): "x_l", "vy2", "lambda3" (the source's names where it has
 * them, else y1, y2, ...); NULL when i is out of range. */
MBDAE_API const char *mbdae_problem_component(const mbdae_problem *p, int i);

MBDAE_API int mbdae_problem_init(const mbdae_problem *p, double *y0, double *yp0);
MBDAE_API int mbdae_problem_res(const mbdae_problem *p, double t, const double *y, const double *yp,
                                double *res);
/* mbdae_problem_res, and MBDAE_RECOVERABLE when a value of res is not finite (the iterate left the
 * domain: a smaller step may stay inside), checked once: by the problem's residual where it
 * checks itself (the Cartesian forms of Andrews and the slider crank, as andrews.f and crank.f
 * code it, and the wheelset), else here. */
MBDAE_API int mbdae_problem_res_checked(const mbdae_problem *p, double t, const double *y,
                                        const double *yp, double *res);
/* dense, column-major, neq x neq; either of dfdy, dfdyp may be NULL */
MBDAE_API int mbdae_problem_jac(const mbdae_problem *p, double t, const double *y, const double *yp,
                                double *dfdy, double *dfdyp);
/* The reference solution at tend; MBDAE_ERR_NOREF for a configuration without one. */
MBDAE_API int mbdae_problem_ref(const mbdae_problem *p, double *yref);
/* Where the reference comes from (method, precision, publication); never NULL. */
MBDAE_API const char *mbdae_problem_ref_source(const mbdae_problem *p);
/* The reference trajectory: the solution at *ntimes output times t_k, uniform in [t0, tend]
 * (t[0] = t0, t[*ntimes - 1] = tend; *t points to the library's array, valid as long as p), and,
 * with y not NULL, its values there into y, neq * *ntimes doubles the caller provides: y[i + k*neq]
 * = y_i(t_k) (the layout of mbdae_options.yout, so that a run with tout = t fills the same).  The
 * last column equals mbdae_problem_ref bit for bit.  Call with y NULL to learn *ntimes first.
 * How each was computed, by two methods, and the digits the two share: refsol/<id>_traj.txt.
 * MBDAE_ERR_NOREF (*ntimes 0, *t NULL) for a configuration without one, as mbdae_problem_ref;
 * MBDAE_ERR_ARG when ntimes or t is NULL. */
MBDAE_API int mbdae_problem_reference_trajectory(const mbdae_problem *p, size_t *ntimes,
                                                 const double **t, double *y);

/* Hidden constraints of a mechanical problem: the position constraints g (with any prescribed
 * motion), their first derivative along the solution (velocity level) and their second
 * (acceleration level), evaluated from y and y'.  Any output pointer may be NULL.
 * mbdae_problem_nconstraints is 0 for a problem without constraints. */
MBDAE_API int mbdae_problem_nconstraints(const mbdae_problem *p);
MBDAE_API int mbdae_problem_constraints(const mbdae_problem *p, double t, const double *y,
                                        const double *yp, double *gpos, double *gvel, double *gacc);

/* How the test set runs a problem: rtol = atol = 10^-(4 + m/m_div), m = 0..m_max;
 * h0 = h0_factor * rtol; the run-characteristics table uses table_rtol[0..ntable-1].
 * A caller's plan begins with its size (sizeof as the caller's header knows it:
 * MBDAE_TOLERANCE_PLAN_INIT sets it); the library writes it only as far as that size and refuses
 * (MBDAE_ERR_ARG, the struct untouched) a size of 0, one smaller than this first version with a
 * size and one larger than its own (a caller built against a newer mbdae.h).  A size field rather
 * than an opaque plan: it is a handful of numbers a caller reads directly. */
typedef struct mbdae_tolerance_plan {
  size_t size;          /* sizeof(mbdae_tolerance_plan) */
  int m_div;            /* 4 or 8 */
  int m_max;            /* 24 or 48 */
  double h0_factor;     /* 1, or 1e-2 for the slider crank */
  int ntable;           /* number of table tolerances */
  double table_rtol[4]; /* rtol (= atol) of the published table rows */
  double default_rtol;  /* what `mbdae run` uses without --rtol */
} mbdae_tolerance_plan;
#define MBDAE_TOLERANCE_PLAN_INIT                                                                  \
  {                                                                                                \
    .size = sizeof(mbdae_tolerance_plan)                                                           \
  }
/* 0, or MBDAE_ERR_ARG (p or plan NULL, plan's size refused). */
MBDAE_API int mbdae_problem_tolerances(const mbdae_problem *p, mbdae_tolerance_plan *plan);

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
 * systems, found here from the Jacobian's structure).  The built-in radau5, radau, bdf and
 * mebdf take it for a dense problem of at most 64 equations when linsys is AUTO
 * (mbdae_linsys_resolve); DENSE asks them for the plain dense LU with partial pivoting. */
enum mbdae_jac_kind {
  MBDAE_JAC_AUTO = 0,
  MBDAE_JAC_DENSE = 1,
  MBDAE_JAC_BAND = 2,
  MBDAE_JAC_SPARSE = 3,
  MBDAE_JAC_CONDENSED = 4
};
/* The kind's name ("auto", "dense", "band", "sparse", "condensed"); NULL outside the enum. */
MBDAE_API const char *mbdae_jac_kind_name(int kind);
/* mbdae_linsys_resolve (solve.h) says which kind a solver type uses for a problem. */

/* A complete description of a compressed-column pattern with its bandwidths (above): the storage
 * the problem suggests, the order, ml and mu, nnz, colptr and rowind, all that scheme needs.  Its
 * layout is fixed: no size field and no reserved room, since it is embedded in mbdae_functions
 * (check.h), filled by mbdae_problem_jac_pattern into the memory of programs and plug-in solvers
 * built against this header, and bound field for field in the Fortran module (src/fortran).  A
 * new storage scheme would come as a new struct beside this one, never as fields added to it. */
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
/* Where the hidden constraints g_k and g'_k (k < nconstraints) can depend on y_j, for a problem
 * that states it (the chain in its Cartesian forms: each constraint couples neighbouring links):
 * compressed-column over y's neq columns, in two calls, colptr (neq + 1) with rowind NULL, then
 * both with rowind of colptr[neq] entries.  The constraint check differences columns that share
 * no row together.  MBDAE_ERR_UNSUPPORTED when p states none (any entry may be nonzero). */
MBDAE_API int mbdae_problem_constraint_pattern(const mbdae_problem *p, int *colptr, int *rowind);
/* dF/dy and dF/dy' at the pattern's entries, in its order (nnz values each; either output may be
 * NULL); every entry outside the pattern is zero.  The dense call, mbdae_problem_jac, gives the
 * same values scattered into neq x neq arrays. */
MBDAE_API int mbdae_problem_jac_values(const mbdae_problem *p, double t, const double *y,
                                       const double *yp, double *dfdy, double *dfdyp);

/* ---- a user's own problem ----------------------------------------------------------------- */

/* A problem written outside the library, run by every solver, the harness, the metrics and the
 * writers exactly as a built-in one.  Callbacks return 0, positive (recoverable: the residual
 * cannot be evaluated here) or negative (fatal), and must be reentrant for the same ctx if the
 * instance is used from several threads.  size, the first field, is sizeof(mbdae_problem_type)
 * as the caller's header knows it; the rules of mbdae_solver_type's size hold for it (fields
 * added at the end only, read only when size covers them; 0, too small or larger than the
 * library's refused with a message). */
typedef struct mbdae_problem_type {
  size_t size;       /* sizeof(mbdae_problem_type) */
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
  const char *const *names;            /* neq component names, [A-Za-z0-9_]+; NULL: y1, y2, ... */
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
MBDAE_API int mbdae_problem_from_type(const mbdae_problem_type *type, void *ctx,
                                      mbdae_problem **out, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_PROBLEM_H */
