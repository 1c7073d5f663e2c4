/* mbdae/solve.h: running a solver: accuracy measures (scd, mescd), options, counters and
 * result of a run, the solver type (built-in or a user's), and the run harness. */
#ifndef MBDAE_SOLVE_H
#define MBDAE_SOLVE_H

#include <stddef.h>
#include "base.h"
#include "check.h"
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- accuracy measures (test set report conventions) -------------------------------------- */

/* scd = -log10(max_i |y_i - yref_i| / |yref_i|) over the scd components with yref_i != 0. */
MBDAE_API double mbdae_scd(const mbdae_problem *p, const double *y, const double *yref);
/* mescd = -log10(max_i |y_i - yref_i| / (atol/rtol + |yref_i|)) over all components.
 * A maximum of exactly 0 is replaced by 1e-16 in both.  mescd is NaN unless rtol and atol are
 * positive and finite (the tolerances of the run, which mbdae_solve requires to be so). */
MBDAE_API double mbdae_mescd(const mbdae_problem *p, const double *y, const double *yref,
                             double rtol, double atol);

/* Along a reference trajectory (mbdae_problem_reference_trajectory): y and yref hold ntimes
 * states of neq values, y[i + k*neq] = y_i(t_k) (the layout of mbdae_options.yout), the solver's
 * values and the reference's at the same output times t_k.
 *   tscd   = min over k of scd(y(t_k), yref(t_k)): the fewest significant correct digits along the
 *            solution.  With t_end among the output times, tscd <= scd at t_end; equal when the
 *            error at t_end is the largest.
 *   tmescd = min over k of mescd(y(t_k), yref(t_k), rtol, atol) (NaN for tolerances outside
 *            mescd's domain, as mbdae_mescd).
 *   tscd_rms = -log10 of the root mean square over k of the relative error inside scd at t_k
 *            (the error's "L2" mean over the grid, as SciML's work-precision sets report it,
 *            every output time weighing the same): >= tscd.
 * An exact match gives 16 as in scd; a NaN value anywhere gives NaN; ntimes 0 or a NULL array
 * gives NaN.  Pure functions: they read y and yref only. */
MBDAE_API double mbdae_tscd(const mbdae_problem *p, size_t ntimes, const double *y,
                            const double *yref);
MBDAE_API double mbdae_tmescd(const mbdae_problem *p, size_t ntimes, const double *y,
                              const double *yref, double rtol, double atol);
MBDAE_API double mbdae_tscd_rms(const mbdae_problem *p, size_t ntimes, const double *y,
                                const double *yref);

/* ---- solvers ----------------------------------------------------------------------------- */

/* The options of a run.  Initialise them with mbdae_options_default, then set what differs:
 * it sets size, the first field, to sizeof(mbdae_options) as the caller's header knows it, so
 * that a field appended in a later version breaks no caller.  The library reads the first `size`
 * bytes and takes every field beyond them at its default.  It refuses (MBDAE_ERR_ARG, with a
 * message) a size of 0 (options not made by mbdae_options_default), one smaller than the first
 * mbdae_options with a size (this one: options of mbdae 0.2 and earlier had none), and one larger
 * than its own sizeof(mbdae_options) (a caller built against a newer mbdae.h).  A solver's
 * integrate receives the library's own full struct. */
typedef struct mbdae_options {
  size_t size;        /* sizeof(mbdae_options), set by mbdae_options_default */
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
   * mbdae_projector_apply is one (ctx: a projector).  Only a solver whose capabilities say
   * `projects` gets it (the built-in radau5 and radau); for any other the harness refuses the run
   * with MBDAE_ERR_UNSUPPORTED and a message (mbdae_solver_caps). */
  int (*project)(void *ctx, double t, double *y, double *yp);
  void *project_ctx;
  /* The storage of the iteration matrix, an mbdae_jac_kind: MBDAE_JAC_AUTO (0) takes the one the
   * problem suggests (mbdae_jac_pattern.kind); DENSE, BAND (the pattern's bandwidths) or SPARSE
   * (its pattern) ask for that one, CONDENSED the condensed dense storage (enum mbdae_jac_kind).
   * The harness refuses (MBDAE_ERR_UNSUPPORTED, with a message) a kind the solver's capabilities
   * do not list (mbdae_solver_caps.linsys: ida lacks CONDENSED). */
  int linsys;
  /* Optional stop after an accepted step: called after on_accept with the same t, y, y'; nonzero
   * ends the run there, successfully (status MBDAE_OK, r->t = t < tend), y and y' holding that
   * state; the harness's drift figures end there and output times after t stay unfilled.  The
   * built-in solvers honour it; a plug-in solver written before it runs on to tend (r->t tells). */
  int (*stop)(void *ctx, double t, const double *y, const double *yp);
  void *stop_ctx;
} mbdae_options;

/* size = sizeof(mbdae_options), rtol = atol = 1e-6, everything else 0 / NULL. */
MBDAE_API void mbdae_options_default(mbdae_options *opt);

/* The test set's run policy: opt->rtol = rtol, opt->atol = rtol, opt->h0 = h0_factor * rtol (the
 * problem's mbdae_tolerance_plan), as the test set runs its problems and as the mbdae command and
 * the Python module do; rtol 0 takes the problem's run tolerance (plan.default_rtol).  Only those
 * three fields are set: initialise opt with mbdae_options_default first, and set a user's own
 * atol or h0 after.  The published tables' tolerances are plan.table_rtol.  MBDAE_ERR_ARG (opt
 * untouched) for p or opt NULL, opt->size too small to hold h0, or rtol negative, NaN or not
 * below 1. */
MBDAE_API int mbdae_options_test_set(const mbdae_problem *p, double rtol, mbdae_options *opt);

typedef struct mbdae_stats {
  long steps;     /* attempted steps, rejected ones included */
  long accepted;  /* accepted steps */
  long nres;      /* residual evaluations, without those for finite-difference Jacobians */
  long nres_fd;   /* residual evaluations for finite-difference Jacobians */
  long njac;      /* Jacobian evaluations */
  long nlu;       /* factorization events (Radau IIA: real + complex for one matrix count once) */
  long nerrfail;  /* error-test failures */
  long nconvfail; /* nonlinear-iteration convergence failures */
  /* Room for counters added later: each takes a reserved entry, so that mbdae_stats, and
   * mbdae_result and mbdae_record that embed it, keep their size and layout.  0.  Reserved room
   * rather than a size field: embedded in the middle of those two, a larger mbdae_stats would
   * move their later fields, which a size of their own cannot undo. */
  long reserved[8];
} mbdae_stats;

typedef struct mbdae_result {
  int status;         /* MBDAE_OK or a negative code */
  double t;           /* where the run ended: tend, or the point of failure */
  double h;           /* the last step size tried */
  char message[320];  /* "" on success; otherwise where and why it failed */
  mbdae_stats stats;  /* counters of the (last) run */
  double cpu_seconds; /* in-process CPU time; with repeats the median after dropping min, max */
  double cpu_min;     /* fastest of the repeats */
  double cpu_max;     /* slowest of the repeats */
  int repeats;        /* number of runs timed */
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
  /* Trajectory digits (mbdae_tscd, mbdae_tmescd at the run's rtol and atol, mbdae_tscd_rms) of
   * the run's continuous output at the problem's reference-trajectory times
   * (mbdae_problem_reference_trajectory), measured in the untimed run the drift uses, with
   * options.tout set to those times (the timed runs are unchanged).  NaN ("none") when the run
   * failed, the problem has no reference trajectory, the solver cannot give output times
   * (MBDAE_ERR_UNSUPPORTED for tout: that run is then made again without them; a solver that
   * leaves yout unwritten), or the caller's options have observers, callbacks or output times of
   * their own (the runs are then the caller's, as for the drift). */
  double tscd, tmescd, tscd_rms;
  /* Room for fields added later, each taking reserved entries of its size, so that a caller's
   * mbdae_result keeps its size and layout (8 entries at first: tscd, tmescd, tscd_rms took 3).
   * 0.  Reserved room rather than a size field: every solver type's integrate, a plug-in's
   * included, fills a result with no size to consult, and the Fortran module binds it. */
  double reserved[5];
} mbdae_result;

/* What a solver can do, as data the harness reads (as GSL reads a step type's fields and SUNDIALS
 * asks a linear solver its type), never decided from the solver's name.  A solver type points to
 * its record (mbdae_solver_type.caps); size, the first field, is sizeof(mbdae_solver_caps) as the
 * solver's header knows it (fields are appended; the library reads a record only as far as its
 * size, one beyond at the default below).  mbdae_solver_type_invalid refuses a record of size 0,
 * one larger than the library's, flags other than 0 and 1, negative LU counts, linsys bits other
 * than DENSE, BAND, SPARSE and CONDENSED or none of them, condenses without CONDENSED, and steps
 * for a type that is not built in (stepping needs the solver's run as an object, which only the
 * built-in solvers have).
 *
 * A type without a record (caps NULL, or a size that ends before caps: a plug-in built against
 * mbdae 0.3's header) is taken as solvers were before capabilities existed: linsys DENSE, BAND
 * and SPARSE (its integrate gets them and refuses what it lacks, as its contract said), no
 * condensation (AUTO is the pattern's kind), projects 0 (the harness refuses options.project:
 * a solver that ignored it would give an unprojected answer silently), steps 0, dense_output 1
 * (its integrate fills yout or returns MBDAE_ERR_UNSUPPORTED, as its contract says), one real
 * factorization per event. */
#define MBDAE_LINSYS_BIT(kind) (1u << (unsigned)(kind)) /* a kind's bit in .linsys */

typedef struct mbdae_solver_caps {
  size_t size;      /* sizeof(mbdae_solver_caps) */
  unsigned linsys;  /* MBDAE_LINSYS_BIT of each options.linsys kind it takes (AUTO always: the
                       harness resolves it, mbdae_linsys_resolve); another is refused */
  int condenses;    /* 1: AUTO on a dense problem of at most 64 equations is CONDENSED */
  int projects;     /* 1: honours options.project; 0: the harness refuses a run with one */
  int steps;        /* 1: mbdae_integrator_create steps it; 0: it refuses with a message */
  int dense_output; /* 1: fills options.yout at options.tout (its continuous output); 0: the
                       harness refuses a run with output times (and measures no trajectory) */
  int lu_real;      /* real n x n factorizations per factorization event (mbdae_stats.nlu) */
  int lu_complex;   /* complex ones per event (Radau IIA: (s - 1)/2 at its lowest s) */
} mbdae_solver_caps;

/* An integrator: the built-in ida, radau5 and bdf are such types, and so is a user's own solver
 * (run it with mbdae_solve_with, or load it into the mbdae command as a plug-in).
 * size, the first field, is sizeof(mbdae_solver_type) as the solver's own header knows it:
 *   static const mbdae_solver_type euler = {.size = sizeof(mbdae_solver_type), .id = "euler",
 *                                           .title = "...", .integrate = euler_integrate};
 * Fields are added at the end, never renamed or moved, and the library reads a field only when
 * size covers it (one beyond is NULL / 0), so that a type written against an older header keeps
 * working.  mbdae_solver_type_invalid refuses a size of 0 (a type without it: the first field
 * was id up to mbdae 0.2), one smaller than the first mbdae_solver_type with a size (this one),
 * and one larger than the library's (built against a newer mbdae.h). */
typedef struct mbdae_solver_type {
  size_t size;       /* sizeof(mbdae_solver_type) */
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
  /* What it can do (mbdae_solver_caps), or NULL: the defaults written there. */
  const mbdae_solver_caps *caps;
} mbdae_solver_type;

#define MBDAE_REPEATS_MAX 100000 /* largest `repeats` of mbdae_solve and mbdae_solve_with */

/* The built-in solvers: their number, the i-th (NULL when i is out of range), the one named id
 * (NULL when unknown), and the i-th's id and title (NULL when i is out of range). */
MBDAE_API int mbdae_solver_count(void);
MBDAE_API const mbdae_solver_type *mbdae_solver_get(int i);
MBDAE_API const mbdae_solver_type *mbdae_solver_find(const char *id);
MBDAE_API const char *mbdae_solver_id(int i);
MBDAE_API const char *mbdae_solver_title(int i);
/* NULL when the type keeps the rules above (size, id, title, integrate), else what is wrong. */
MBDAE_API const char *mbdae_solver_type_invalid(const mbdae_solver_type *type);
/* The CPU seconds of one factorization event (mbdae_stats.nlu) of a solver, from unit costs c:
 * lu_real and lu_complex of its capabilities (never its name).  ida, bdf, mebdf and spm factor one
 * real matrix; Radau IIA with s stages one real and (s - 1)/2 complex ones: radau5 (s = 3) one
 * of each, radau (s = 3, 5, 7 by its order selection) one real and 1 to 3 complex ones, counted
 * at s = 3, its lowest order (a lower bound: the counters do not say at which order an event
 * was).  A type without capabilities counts one real factorization per event.  0 when c is
 * NULL. */
MBDAE_API double mbdae_solver_lu_cost(const mbdae_solver_type *solver, const mbdae_unit_costs *c);
/* The kind of iteration matrix the solver type s uses for p when asked for linsys, from its
 * capabilities (never its name): AUTO resolves to MBDAE_JAC_CONDENSED for a dense pattern of at
 * most 64 equations when s condenses (the built-in radau5, radau, bdf and mebdf), else to the
 * pattern's kind when s takes it, else to DENSE; any other linsys is returned as it is (the
 * harness refuses a kind s does not take).  A NULL s is a type without capabilities. */
MBDAE_API int mbdae_linsys_resolve(const mbdae_problem *p, const mbdae_solver_type *s, int linsys);

/* Integrate p from its consistent initial values over [t0, tend] with a solver type, `repeats`
 * times, storing y(tend) in y (and y'(tend) in yp unless NULL).  The harness validates
 * the options, takes the initial values from the problem and times each run (in-process CPU
 * time; with repeats the median after dropping min and max).  repeats: 1 to MBDAE_REPEATS_MAX.
 * The constraint drift is measured in one more run, untimed, whose result r reports (the timed
 * runs go without the harness's observer), unless opt has on_step, on_accept, project, stop or
 * output times: then every timed run observes, and those see exactly `repeats` runs.
 * Returns r->status.  A solver failure is reported in r (t, h, message), never printed; a status
 * a solver returns outside the contract (positive) is reported as MBDAE_ERR_SOLVER, and so are a
 * counter outside [0, 10^15] and a success with a non-finite y at the end or a non-finite drift
 * (NaN states keep their drift NaN, never 0).  Bad options (see mbdae_options) return MBDAE_ERR_ARG
 * before anything runs; yp is written only when an integration ran (not when the initial values
 * fail). */
MBDAE_API int mbdae_solve_with(const mbdae_problem *p, const mbdae_solver_type *solver,
                               const mbdae_options *opt, int repeats, double *y, double *yp,
                               mbdae_result *r);
/* mbdae_solve_with the built-in solver named `solver` (MBDAE_ERR_UNKNOWN_SOLVER with the valid
 * names in r->message when there is none). */
MBDAE_API int mbdae_solve(const mbdae_problem *p, const char *solver, const mbdae_options *opt,
                          int repeats, double *y, double *yp, mbdae_result *r);

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

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_SOLVE_H */
