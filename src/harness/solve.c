/* The run harness: solver-type validation, validation of options, initial values from the problem,
 * constraint drift, in-process CPU timing and repeats.
 *
 * CPU time is the process CPU clock around one integration (initial values excluded).  With
 * repeats the reported time is the median of the runs left after dropping the fastest and the
 * slowest, as the test set's driver reports it; counters and y come from the last run (every run
 * is the same computation, so they are identical).
 *
 * Drift (doc/design.md, "Metrics"): through opt->on_accept the harness sees the state after every
 * accepted step and evaluates the hidden constraints there (mbdae_problem_constraints, position
 * and velocity level: max_i |g_i| and max_i |g'_i|, g' = G v + g_t), keeping the largest; the end
 * state is evaluated after the run.  One buffer per run, no allocation per step.  The evaluation
 * is not timed: the timed runs go without the observer, and one more run of the same computation,
 * untimed, observes; its result (y, counters, status) is the one reported, so y and the drift
 * come from one run.  Measured inside the timed run it was 1.6-3.8% of mebdf's CPU at rtol 1e-7
 * (Andrews 3.8%, car axis 3.5%, pendulum 2.5%, crank 2.0%, double pendulum 1.6%) and of
 * radau5's 10.0% on Fekete, 5.7% on the wheelset (2026-11-27),
 * a cost the Fortran codes' timings (the peer harness) do not carry and a plug-in solver that
 * does not call on_accept did not pay.  When the caller's options have observers, callbacks or
 * outputs of their own (on_step, on_accept, project, stop, output times), the drift is observed
 * inside every timed run as before, so that the caller's callbacks see exactly `repeats` runs.
 *
 * Trajectory digits (mbdae_result.tscd, tmescd, tscd_rms; issue 35): the same untimed run, made
 * also for a problem without constraints when it has a reference trajectory, is given the
 * reference's output times (options.tout; the built-in solvers interpolate their continuous
 * output there without changing a step, so y and the counters are those of the timed runs), and
 * its output is compared with the reference there (mbdae_tscd and its kin).  A solver that
 * refuses output times runs again without them and has none (NaN); so has a run whose caller's
 * options have observers, callbacks or output times of their own: its runs are the caller's. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_time.h"
#include "fail.h"
#include "options.h"
#include "record_columns.h"
#include "solver_list.h"
#include "mbdae/mbdae.h"

static const char SOLVER_ID_CHARS[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

/* The first structs with a size field (include/mbdae/solve.h) end with these fields: a caller's
 * size is at least that.  A field appended later is read only where a struct's size covers it. */
#define OPTIONS_SIZE_MIN (offsetof(mbdae_options, stop_ctx) + sizeof(void *))
#define SOLVER_TYPE_SIZE_MIN (offsetof(mbdae_solver_type, runs_on) + sizeof(const char *))

const char *mbdae_solver_type_invalid(const mbdae_solver_type *type)
{
  if (!type) {
    return "the solver type is NULL";
  }
  if (type->size == 0) {
    return "the solver type's size is 0: set .size = sizeof(mbdae_solver_type) (its first field "
           "since plug-in ABI 3; README, \"Your solver in the tables\")";
  }
  if (type->size < SOLVER_TYPE_SIZE_MIN) {
    return "the solver type's size is smaller than any mbdae_solver_type this library knows";
  }
  if (type->size > sizeof *type) {
    return "the solver type's size is larger than this library's mbdae_solver_type: it was built "
           "against a newer mbdae.h";
  }
  size_t len = type->id ? strlen(type->id) : 0;
  if (len == 0 || len > 63 || strspn(type->id, SOLVER_ID_CHARS) != len) {
    return "the solver id must be 1 to 63 characters from [A-Za-z0-9_-]";
  }
  if (!type->title || !type->integrate) {
    return "the solver type needs a title and an integrate function";
  }
  return mbdae_solver_caps_invalid(type);
}

void mbdae_options_default(mbdae_options *opt)
{
  memset(opt, 0, sizeof *opt);
  opt->size = sizeof *opt;
  opt->rtol = 1e-6;
  opt->atol = 1e-6;
}

const char *mbdae_options_take(const mbdae_options *opt, mbdae_options *full)
{
  if (opt->size == 0) {
    return "options.size is 0: initialise the options with mbdae_options_default";
  }
  if (opt->size < OPTIONS_SIZE_MIN) {
    return "options.size is smaller than any mbdae_options this library knows";
  }
  if (opt->size > sizeof *full) {
    return "options.size is larger than this library's mbdae_options: the caller was built "
           "against a newer mbdae.h";
  }
  mbdae_options_default(full);
  memcpy(full, opt, opt->size);
  full->size = sizeof *full;
  return NULL;
}

static int compare_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median after dropping min and max (when there are at least three runs). */
static double trimmed_median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, compare_double);
  int lo = n >= 3 ? 1 : 0, hi = n >= 3 ? n - 2 : n - 1;
  int m = hi - lo + 1;
  return (m % 2) ? v[lo + m / 2] : 0.5 * (v[lo + m / 2 - 1] + v[lo + m / 2]);
}

/* The smallest h0 (and hmax) a run accepts: H0_FLOOR_EPS eps max(|t0|, |tend|).  Below it the
 * built-in solvers cannot take a step at the scale of the interval: radau5 stops at 10 eps
 * max(|t|, |tend|), bdf's minimum step is 4 eps max(|t0|, |tend|), and the iteration matrix
 * dF/dy + (1/h) dF/dy' loses dF/dy to rounding, then overflows (h0 = 1e-300 ended in "singular
 * iteration matrix" from radau5 and bdf, "the residual could not be evaluated" from IDA).  Such an
 * h0 is refused rather than raised to the floor: the run records and tables print h0 as given,
 * so a raised value would publish a setting that was not used. */
#define H0_FLOOR_EPS 16.0

static double step_floor(double t0, double tend)
{
  return H0_FLOOR_EPS * DBL_EPSILON * fmax(fabs(t0), fabs(tend));
}

/* The first problem with opt, as a static message, or NULL. */
static const char *bad_option(const mbdae_problem *p, const mbdae_options *opt)
{
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p), floor = step_floor(t0, tend);
  if (!(opt->rtol > 0.0) || !isfinite(opt->rtol)) {
    return "rtol must be a positive finite number";
  } else if (!(opt->atol > 0.0) || !isfinite(opt->atol)) {
    return "atol must be a positive finite number";
  } else if (!(opt->h0 >= 0.0) || !isfinite(opt->h0)) {
    return "h0 must be a non-negative finite number (0: the solver chooses)";
  } else if (opt->h0 > 0.0 && opt->h0 < floor) {
    return "h0 is below the smallest step the solvers can take, 16 eps max(|t0|, |tend|)";
  } else if (!(opt->hmax >= 0.0) || !isfinite(opt->hmax)) {
    return "hmax must be a non-negative finite number (0: no limit)";
  } else if (opt->hmax > 0.0 && opt->hmax < floor) {
    return "hmax is below the smallest step the solvers can take, 16 eps max(|t0|, |tend|)";
  } else if (opt->max_steps < 0) {
    return "max_steps must be >= 0 (0: the default)";
  } else if (opt->ntout < 0 || (opt->ntout > 0 && (!opt->tout || !opt->yout))) {
    return "ntout output times need tout and yout";
  }
  for (int k = 0; k < opt->ntout; k++) {
    if (!(opt->tout[k] >= t0 && opt->tout[k] <= tend) ||
        (k > 0 && opt->tout[k] < opt->tout[k - 1])) {
      return "output times must increase and lie inside [t0, tend]";
    }
  }
  return NULL;
}

/* The shortest interval a run accepts: tend - t0 of at least sqrt(DBL_MIN) (about 1.5e-154) and
 * the smallest step above.  The iteration matrices scale index-3 rows by 1/h^2 and velocity rows
 * by 1/h: below sqrt(DBL_MIN) a step's square is not a normal number and the matrices overflow
 * (chain:n=2 with tend = 1e-160 ended in "singular iteration matrix" from radau5, radau and bdf and
 * IDA_ILL_INPUT from ida; from tend = 1e-154 up every solver runs); an interval of subnormal
 * length ([0, 5e-324]) gave a million zero-length steps or "the residual could not be evaluated".
 * Refused for every solver, the command's and Python's alike, before anything runs. */
static int interval_too_short(const mbdae_problem *p, char *msg, size_t msglen)
{
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  double shortest = fmax(sqrt(DBL_MIN), step_floor(t0, tend));
  if (tend - t0 >= shortest) {
    return 0;
  }
  snprintf(
      msg, msglen,
      "the interval [t0, tend] = [%.17g, %.17g] is too short: tend - t0 = %.3g, and a run needs "
      "at least %.3g (sqrt(DBL_MIN), so that 1/h^2 is finite, and 16 eps max(|t0|, |tend|), "
      "the smallest step)",
      t0, tend, tend - t0, shortest);
  return MBDAE_ERR_ARG;
}

int mbdae_options_check(const mbdae_problem *p, const mbdae_options *opt, char *msg, size_t msglen)
{
  if (interval_too_short(p, msg, msglen) != 0) {
    return MBDAE_ERR_ARG;
  }
  const char *bad = bad_option(p, opt);
  if (bad) {
    double floor = step_floor(mbdae_problem_t0(p), mbdae_problem_tend(p));
    snprintf(msg, msglen, "%s (h0 = %g, hmax = %g; smallest step %.3g)", bad, opt->h0, opt->hmax,
             floor);
    return MBDAE_ERR_ARG;
  }
  return 0;
}

void mbdae_options_complete(const mbdae_problem *p, mbdae_options *o)
{
  /* h0 beyond the interval or hmax is the whole interval or hmax: the same for every solver */
  o->h0 = fmin(o->h0, mbdae_problem_tend(p) - mbdae_problem_t0(p));
  o->h0 = o->hmax > 0.0 ? fmin(o->h0, o->hmax) : o->h0;
}

/* ---- constraint drift ---------------------------------------------------------------------- */

/* The drift observer of one run: a buffer for g and g' and the largest values seen, and the
 * caller's own on_accept, which it passes the state on to. */
typedef struct drift_meter {
  const mbdae_problem *p;
  int nc;              /* constraints per level */
  double *gpos, *gvel; /* nc values each */
  double pos_max, vel_max;
  long states; /* accepted states evaluated */
  void (*user)(void *ctx, double t, const double *y, const double *yp);
  void *user_ctx;
} drift_meter;

/* max(a, b), NaN when either is: fmax drops a NaN, and a NaN state would read as drift 0. */
static double max_or_nan(double a, double b) { return isnan(a) || a > b ? a : b; }

static double max_abs(const double *v, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = max_or_nan(m, fabs(v[i]));
  }
  return m;
}

/* max_i |g_i| and max_i |g'_i| at (t, y, y'); 0, or the failure of the constraint function. */
static int drift_at(drift_meter *dm, double t, const double *y, const double *yp, double *pos,
                    double *vel)
{
  int rc = mbdae_problem_constraints(dm->p, t, y, yp, dm->gpos, dm->gvel, NULL);
  if (rc == 0) {
    *pos = max_abs(dm->gpos, dm->nc);
    *vel = max_abs(dm->gvel, dm->nc);
  }
  return rc;
}

static void drift_observe(void *ctx, double t, const double *y, const double *yp)
{
  drift_meter *dm = ctx;
  double pos, vel;
  if (drift_at(dm, t, y, yp, &pos, &vel) == 0) {
    dm->pos_max = max_or_nan(dm->pos_max, pos);
    dm->vel_max = max_or_nan(dm->vel_max, vel);
    dm->states++;
  }
  if (dm->user) {
    dm->user(dm->user_ctx, t, y, yp);
  }
}

/* Before each run: nothing seen yet. */
static void drift_reset(drift_meter *dm)
{
  dm->pos_max = dm->vel_max = 0.0;
  dm->states = 0;
}

/* The drift figures of r: NaN without constraints (or when the end state cannot be evaluated),
 * else the maxima over the observed states and the end state (t, y, y'), NaN when a state was
 * not finite.  A run that claims success with such a drift fails (MBDAE_ERR_SOLVER). */
static void drift_report(drift_meter *dm, const mbdae_solver_type *type, double t, const double *y,
                         const double *yp, mbdae_result *r)
{
  double pos = NAN, vel = NAN;
  r->drift_pos_max = r->drift_vel_max = r->drift_pos_end = r->drift_vel_end = NAN;
  r->drift_steps = 0;
  if (dm->nc == 0 || drift_at(dm, t, y, yp, &pos, &vel) != 0) {
    return;
  }
  r->drift_pos_end = pos;
  r->drift_vel_end = vel;
  r->drift_pos_max = max_or_nan(dm->pos_max, pos);
  r->drift_vel_max = max_or_nan(dm->vel_max, vel);
  r->drift_steps = dm->states;
  if (r->status == 0 && !(isfinite(r->drift_pos_max) && isfinite(r->drift_vel_max))) {
    mbdae_fail(r, MBDAE_ERR_SOLVER, r->t, r->h,
               "solver '%s' reported success, but the constraint drift is not finite (a "
               "non-finite state at an accepted step: max |g| = %g, max |g'| = %g)",
               type->id, r->drift_pos_max, r->drift_vel_max);
  }
}

/* The counters of a result, by name, for the range check of a solver's report. */
static const struct {
  const char *name;
  size_t offset;
} stat_fields[] = {
    {"steps", offsetof(mbdae_stats, steps)},       {"accepted", offsetof(mbdae_stats, accepted)},
    {"nres", offsetof(mbdae_stats, nres)},         {"nres_fd", offsetof(mbdae_stats, nres_fd)},
    {"njac", offsetof(mbdae_stats, njac)},         {"nlu", offsetof(mbdae_stats, nlu)},
    {"nerrfail", offsetof(mbdae_stats, nerrfail)}, {"nconvfail", offsetof(mbdae_stats, nconvfail)},
};

/* What a solver (a plug-in's above all) reports must hold up: every counter from 0 to
 * RECORD_COUNT_MAX (what runs.csv can hold and read back), and, when it claims success, a finite
 * y at the end (a NaN y passed as a run with drift 0).  Else the run fails, naming why. */
static void check_report(const mbdae_solver_type *type, const mbdae_problem *p, const double *y,
                         mbdae_result *one)
{
  for (size_t k = 0; k < sizeof stat_fields / sizeof stat_fields[0]; k++) {
    long v;
    memcpy(&v, (const char *)&one->stats + stat_fields[k].offset, sizeof v);
    if (v < 0 || v > RECORD_COUNT_MAX) {
      mbdae_fail(one, MBDAE_ERR_SOLVER, one->t, one->h,
                 "solver '%s' reported %s = %ld, outside [0, %ld]", type->id, stat_fields[k].name,
                 v, RECORD_COUNT_MAX);
      memset(&one->stats, 0, sizeof one->stats); /* no record keeps a count it cannot hold */
      return;
    }
  }
  for (int i = 0; one->status == 0 && i < mbdae_problem_neq(p); i++) {
    if (!isfinite(y[i])) {
      mbdae_fail(one, MBDAE_ERR_SOLVER, one->t, one->h,
                 "solver '%s' reported success, but y_%d (%s) = %g at the end is not finite",
                 type->id, i + 1, mbdae_problem_component(p, i), y[i]);
    }
  }
}

/* One integration by a solver type, with r zeroed for it and its result kept inside the contract:
 * a NUL-terminated message, and a status that is 0 or a negative code. */
static void integrate_once(const mbdae_solver_type *type, const mbdae_problem *p,
                           const mbdae_options *opt, double *y, double *yp, mbdae_result *one)
{
  memset(one, 0, sizeof *one);
  int rc = mbdae_solver_caps_refuse(type, opt, one->message, sizeof one->message);
  if (rc != 0) { /* as the solver's own refusal would be: at t0, no step */
    one->status = rc;
    one->t = mbdae_problem_t0(p);
  } else {
    rc = type->integrate(p, opt, y, yp, one);
  }
  one->message[sizeof one->message - 1] = '\0';
  if (one->status == 0 && rc != 0) {
    one->status = rc;
  }
  if (one->status > 0) {
    int bad = one->status;
    one->status = MBDAE_ERR_SOLVER;
    snprintf(one->message, sizeof one->message,
             "solver '%s' returned status %d, outside the contract (0 or a negative code)",
             type->id, bad);
  }
  check_report(type, p, y, one);
}

/* 1 when the options carry none of the caller's observers, callbacks or outputs, so that one more
 * run is invisible to the caller. */
static int caller_sees_nothing(const mbdae_options *o)
{
  return !o->on_step && !o->on_accept && !o->project && !o->stop && o->ntout == 0;
}

/* y, ypw from the problem's initial values: 0, or -1 with r saying why. */
static int start_values(const mbdae_problem *p, double *y, double *ypw, mbdae_result *r)
{
  int rc = mbdae_problem_init(p, y, ypw);
  if (rc != 0) {
    r->status = rc < 0 ? rc : MBDAE_ERR_RES;
    snprintf(r->message, sizeof r->message, "initial values: %s", mbdae_strerror(rc));
    return -1;
  }
  return 0;
}

/* ---- trajectory digits --------------------------------------------------------------------- */

/* The trajectory meter of the untimed run: the reference grid, the run's output there (yout) and
 * the reference's values (yref), ntimes * neq each; ntimes 0 when none is measured. */
typedef struct traj_meter {
  size_t ntimes;
  const double *t;
  double *yout, *yref;
} traj_meter;

/* tm for p's reference trajectory: 0, or -1 (tm->ntimes 0) without one or without memory. */
static int traj_open(const mbdae_problem *p, traj_meter *tm)
{
  memset(tm, 0, sizeof *tm);
  size_t nt = 0, n = (size_t)mbdae_problem_neq(p);
  const double *t = NULL;
  if (mbdae_problem_reference_trajectory(p, &nt, &t, NULL) != 0 || nt == 0 || nt > INT_MAX ||
      n == 0 || nt > SIZE_MAX / (2 * n * sizeof(double))) {
    return -1;
  }
  tm->yout = malloc(sizeof(double) * 2 * nt * n);
  if (!tm->yout) {
    return -1;
  }
  tm->yref = tm->yout + nt * n;
  if (mbdae_problem_reference_trajectory(p, &nt, &t, tm->yref) != 0) {
    free(tm->yout);
    tm->yout = tm->yref = NULL;
    return -1;
  }
  tm->ntimes = nt;
  tm->t = t;
  return 0;
}

/* tscd, tmescd and tscd_rms of r from tm: NaN unless the run succeeded with output times. */
static void traj_report(const mbdae_problem *p, const traj_meter *tm, const mbdae_options *o,
                        mbdae_result *r)
{
  r->tscd = r->tmescd = r->tscd_rms = NAN;
  if (tm->ntimes == 0 || r->status != 0) {
    return;
  }
  r->tscd = mbdae_tscd(p, tm->ntimes, tm->yout, tm->yref);
  r->tmescd = mbdae_tmescd(p, tm->ntimes, tm->yout, tm->yref, o->rtol, o->atol);
  r->tscd_rms = mbdae_tscd_rms(p, tm->ntimes, tm->yout, tm->yref);
}

/* The untimed run (see the header) with observed, and with tm's output times when tm has them
 * (yout NaN before, so that a solver that leaves it unwritten gives no digits).  A solver that
 * refuses output times (MBDAE_ERR_UNSUPPORTED) runs again without them (tm->ntimes 0): output
 * times are the harness's wish, not the caller's, and never fail a run. */
static void run_observed(const mbdae_problem *p, const mbdae_solver_type *type,
                         const mbdae_options *observed, double *y, double *ypw, drift_meter *dm,
                         traj_meter *tm, mbdae_result *r)
{
  mbdae_options o = *observed;
  if (tm->ntimes > 0) {
    size_t count = tm->ntimes * (size_t)mbdae_problem_neq(p);
    for (size_t k = 0; k < count; k++) {
      tm->yout[k] = NAN;
    }
    o.tout = tm->t;
    o.ntout = (int)tm->ntimes;
    o.yout = tm->yout;
  }
  drift_reset(dm);
  if (start_values(p, y, ypw, r) != 0) {
    return;
  }
  integrate_once(type, p, &o, y, ypw, r);
  if (tm->ntimes > 0 && r->status == MBDAE_ERR_UNSUPPORTED) {
    tm->ntimes = 0;
    drift_reset(dm);
    if (start_values(p, y, ypw, r) == 0) {
      integrate_once(type, p, observed, y, ypw, r);
    }
  }
}

/* Run `repeats` integrations with opt, timing each into times[], then, when observed is not NULL,
 * one more with it, untimed (the drift's and the trajectory digits' run, see the header); r and
 * ypw are the last run's.  Returns the number of runs timed (0 when the initial values failed: r
 * says why). */
static int run_repeats(const mbdae_problem *p, const mbdae_solver_type *type,
                       const mbdae_options *opt, const mbdae_options *observed, int repeats,
                       double *y, double *ypw, double *times, drift_meter *dm, traj_meter *tm,
                       mbdae_result *r)
{
  int made = 0;
  for (int k = 0; k < repeats; k++) {
    drift_reset(dm);
    if (start_values(p, y, ypw, r) != 0) {
      return made;
    }
    mbdae_result one;
    double start = cpu_now();
    integrate_once(type, p, opt, y, ypw, &one);
    times[k] = cpu_now() - start;
    *r = one;
    made = k + 1;
    if (one.status != 0) {
      times[0] = times[k];
      made = 1;
      break;
    }
  }
  if (observed && made > 0) {
    run_observed(p, type, observed, y, ypw, dm, tm, r);
  }
  return made;
}

/* A result before any run: zeros, and no drift (NaN). */
static void result_clear(mbdae_result *r)
{
  memset(r, 0, sizeof *r);
  r->drift_pos_max = r->drift_vel_max = r->drift_pos_end = r->drift_vel_end = NAN;
  r->tscd = r->tmescd = r->tscd_rms = NAN;
}

int mbdae_solve_with(const mbdae_problem *p, const mbdae_solver_type *type,
                     const mbdae_options *opt, int repeats, double *y, double *yp, mbdae_result *r)
{
  if (!r) {
    return MBDAE_ERR_ARG;
  }
  result_clear(r);
  const char *bad_type = mbdae_solver_type_invalid(type);
  int bad_repeats = repeats < 1 || repeats > MBDAE_REPEATS_MAX;
  if (!p || !opt || !y || bad_repeats || bad_type) {
    r->status = MBDAE_ERR_ARG;
    snprintf(r->message, sizeof r->message, "mbdae_solve_with: %s",
             bad_type      ? bad_type
             : bad_repeats ? "repeats must be from 1 to MBDAE_REPEATS_MAX"
                           : "problem, options and y are required");
    return r->status;
  }
  mbdae_options o;
  const char *bad_size = mbdae_options_take(opt, &o);
  if (bad_size) {
    r->status = MBDAE_ERR_ARG;
    snprintf(r->message, sizeof r->message, "mbdae_solve_with: %s", bad_size);
    return r->status;
  }
  if (mbdae_options_check(p, &o, r->message, sizeof r->message) != 0) {
    r->status = MBDAE_ERR_ARG;
    return r->status;
  }
  mbdae_options_complete(p, &o);
  size_t n = (size_t)mbdae_problem_neq(p);
  int nc = mbdae_problem_nconstraints(p);
  size_t nwork = n + (size_t)repeats + 2 * (size_t)nc;
  double *work = malloc(sizeof(double) * nwork);
  if (!work) {
    r->status = MBDAE_ERR_NOMEM;
    snprintf(r->message, sizeof r->message, "out of memory");
    return r->status;
  }
  double *ypw = work, *times = work + n;
  drift_meter dm = {p,   nc, times + repeats, times + repeats + nc, 0.0,
                    0.0, 0,  o.on_accept,     o.on_accept_ctx};
  mbdae_options observing = o;
  observing.on_accept = drift_observe;
  observing.on_accept_ctx = &dm;
  /* the drift and the trajectory digits in a run of their own, untimed */
  traj_meter tm = {0, NULL, NULL, NULL};
  int quiet = caller_sees_nothing(&o);
  int apart = quiet && (traj_open(p, &tm) == 0 || nc > 0);
  const mbdae_options *timed = nc > 0 && !apart ? &observing : &o;
  const mbdae_options *untimed = !apart ? NULL : nc > 0 ? &observing : &o;
  r->repeats = run_repeats(p, type, timed, untimed, repeats, y, ypw, times, &dm, &tm, r);
  traj_report(p, &tm, &o, r);
  free(tm.yout);
  if (r->repeats > 0) {
    r->cpu_seconds = trimmed_median(times, r->repeats);
    r->cpu_min = times[0];
    r->cpu_max = times[r->repeats - 1];
    drift_report(&dm, type, r->t, y, ypw, r);
    if (yp) {
      memcpy(yp, ypw, sizeof(double) * n);
    }
  }
  free(work);
  return r->status;
}

int mbdae_solve(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
                double *y, double *yp, mbdae_result *r)
{
  const mbdae_solver_type *type = mbdae_solver_find(solver);
  if (type || !r) {
    return mbdae_solve_with(p, type, opt, repeats, y, yp, r);
  }
  result_clear(r);
  size_t used =
      (size_t)snprintf(r->message, sizeof r->message,
                       "unknown solver '%.100s'; valid solvers:", solver ? solver : "(null)");
  for (int i = 0; i < mbdae_solver_count() && used < sizeof r->message; i++) {
    used += (size_t)snprintf(r->message + used, sizeof r->message - used, "%s %s", i ? "," : "",
                             mbdae_solver_id(i));
  }
  r->status = MBDAE_ERR_UNKNOWN_SOLVER;
  return r->status;
}
