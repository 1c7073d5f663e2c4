/* mbdae_record_outcome: r = mbdae_record_outcome(p, solver, title, opts, out), the record of a
 * run made outside the library (an Octave/MATLAB solver run by mbdae_run_solver), from what was
 * measured there:
 *   out.t, out.Y        the accepted steps: times (k values) and states (k x n, one row each);
 *   out.status, out.message   0 or a negative MBDAE_ code, and why;
 *   out.nres, out.njac, out.steps, out.nlu, out.nerrfail, out.nconvfail   the counters (steps:
 *                       attempted; -1 when unknown: the accepted ones);
 *   out.cpu             CPU seconds of the run.
 * The record is made by the library's harness (mbdae_record_run), with a solver type that replays
 * the run: it hands the harness every accepted state (on_accept: the drift), ends at the last one
 * (y there: scd, mescd) and reports the counters.  y' at an accepted state, which the drift does
 * not use (the constraints and their first derivative depend on y only), is the backward
 * difference of the states.  CPU time is then the one measured in Octave, not the replay's. */
#include "mex_record.h"

#include <math.h>
#include <string.h>

typedef struct replay {
  int n, k;
  const double *t, *Y; /* Y: k x n, column-major (Y[j + i k] = y_i at t[j]) */
  int status;
  char message[320];
  mbdae_stats stats;
} replay;

static const replay *current; /* the run being replayed (one at a time: MEX is single-threaded) */

static int replay_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                            mbdae_result *r)
{
  const replay *rp = current;
  double t_prev = mbdae_problem_t0(p);
  for (int j = 0; j < rp->k; j++) {
    double dt = rp->t[j] - t_prev;
    for (int i = 0; i < rp->n; i++) {
      double v = rp->Y[j + (size_t)i * rp->k];
      yp[i] = dt > 0 ? (v - y[i]) / dt : yp[i];
      y[i] = v;
    }
    if (opt->on_step) {
      opt->on_step(opt->on_step_ctx, rp->t[j], dt, 0);
    }
    if (opt->on_accept) {
      opt->on_accept(opt->on_accept_ctx, rp->t[j], y, yp);
    }
    r->h = dt;
    t_prev = rp->t[j];
  }
  r->t = t_prev;
  r->stats = rp->stats;
  r->status = rp->status;
  snprintf(r->message, sizeof r->message, "%s", rp->message);
  return r->status;
}

static const mxArray *member(const mxArray *out, const char *name)
{
  const mxArray *v = mxGetField(out, 0, name);
  if (!v) {
    mx_fail("arg", "out.%s is missing (t, Y, status, message, nres, njac, steps, cpu)", name);
  }
  return v;
}

static long counter(const mxArray *out, const char *name, long fallback)
{
  const mxArray *v = mxGetField(out, 0, name);
  if (!v) {
    return fallback;
  }
  char what[32];
  snprintf(what, sizeof what, "out.%s", name);
  double c = mx_scalar(v, what);
  if (c < 0 || c > 1e15 || c != floor(c)) {
    mx_fail("arg", "%s = %g: a count from 0 to 10^15 expected", what, c);
  }
  return (long)c;
}

/* out into rp: the accepted states, the outcome and the counters. */
static void read_outcome(const mxArray *out, int n, replay *rp)
{
  if (!mxIsStruct(out) || mxGetNumberOfElements(out) != 1) {
    mx_fail("arg", "out: a struct expected (t, Y, status, message, nres, njac, steps, cpu)");
  }
  const mxArray *t = member(out, "t"), *Y = member(out, "Y");
  int k = (int)mxGetNumberOfElements(t);
  rp->n = n;
  rp->k = k;
  rp->t = k > 0 ? mx_vector(t, k, "out.t", NULL) : NULL;
  if (k > 0 && (!mxIsDouble(Y) || mxIsComplex(Y) || mxIsSparse(Y) || mxGetM(Y) != (size_t)k ||
                mxGetN(Y) != (size_t)n)) {
    mx_fail("arg", "out.Y: a real %d x %d matrix expected (a row per accepted step)", k, n);
  }
  rp->Y = k > 0 ? mxGetPr(Y) : NULL;
  double status = mx_scalar(member(out, "status"), "out.status");
  if (status > 0 || status != floor(status)) {
    mx_fail("arg", "out.status: 0 or a negative MBDAE_ code expected");
  }
  rp->status = (int)status;
  snprintf(rp->message, sizeof rp->message, "%s", mx_string(member(out, "message"), "out.message"));
  rp->stats.nres = counter(out, "nres", 0);
  rp->stats.njac = counter(out, "njac", 0);
  rp->stats.nres_fd = counter(out, "nres_fd", 0);
  rp->stats.nlu = counter(out, "nlu", 0);
  rp->stats.nerrfail = counter(out, "nerrfail", 0);
  rp->stats.nconvfail = counter(out, "nconvfail", 0);
  rp->stats.accepted = k;
  rp->stats.steps = counter(out, "steps", k);
  if (rp->stats.steps < k) {
    rp->stats.steps = k;
  }
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  mx_arity(nrhs, 5, 5, nlhs, 1, "r = mbdae_record_outcome(p, solver, title, opts, out)");
  const mbdae_problem *p = mx_problem(prhs[0], "p");
  char *id = mx_string(prhs[1], "solver"), *title = mx_string(prhs[2], "title");
  mbdae_solver_type type = {
      .size = sizeof type, .id = id, .title = title, .integrate = replay_integrate};
  const char *invalid = mbdae_solver_type_invalid(&type);
  if (invalid) {
    mx_fail("solver", "solver '%s': %s", id, invalid);
  }
  mbdae_options opt;
  int repeats;
  mx_options(prhs[3], p, &opt, &repeats);
  replay rp;
  memset(&rp, 0, sizeof rp);
  read_outcome(prhs[4], mbdae_problem_neq(p), &rp);
  double cpu = mx_scalar(member(prhs[4], "cpu"), "out.cpu");
  mbdae_record rec = MBDAE_RECORD_INIT;
  current = &rp;
  int rc = mbdae_record_run(&rec, p, &type, &opt, 1);
  current = NULL;
  rec.cpu_seconds = rec.cpu_min = rec.cpu_max = cpu;
  mxArray *s = rc == MBDAE_ERR_NOMEM || rc == MBDAE_ERR_ARG ? NULL : mx_record_struct(&rec);
  char message[MBDAE_RECORD_TEXT_LEN];
  snprintf(message, sizeof message, "%s", rec.message[0] ? rec.message : mbdae_strerror(rc));
  mbdae_record_free(&rec);
  if (!s) {
    mx_fail(rc == MBDAE_ERR_ARG ? "arg" : "nomem", "%s", message);
  }
  plhs[0] = s;
}
