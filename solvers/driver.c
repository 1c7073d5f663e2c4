/* The step driver shared by the built-in solvers: the loop around a method's step attempts, the
 * step limit, hmax, the end-point rule, output at requested times, on_step, the step counters and
 * the failure messages (see driver.h for the meaning of each; layering after GSL's
 * step/control/evolve and SUNDIALS' IDAStep / IDAHandleNFlag / IDACompleteStep). */
#include "driver.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fail.h"
#include "mbdae/mbdae.h"

void mbdae_driver_give_up(driver_report *rep, int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rep->reason, sizeof rep->reason, fmt, ap);
  va_end(ap);
  rep->status = status;
}

void mbdae_driver_start(mbdae_driver *d, const mbdae_problem *p, double t0,
                        const mbdae_options *opt, const driver_end_rule *end, const double *y,
                        mbdae_result *r)
{
  d->opt = opt;
  d->r = r;
  d->n = mbdae_problem_neq(p);
  d->t = t0;
  d->tend = mbdae_problem_tend(p);
  d->hmax = opt->hmax > 0.0 ? opt->hmax : 0.0;
  d->max_steps = opt->max_steps > 0 ? opt->max_steps : DRIVER_DEFAULT_MAX_STEPS;
  d->next_out = 0;
  static const driver_end_rule to_tend = {1.0, 1, 0.0, 0};
  d->end = end ? *end : to_tend;
  d->state_y = d->state_yp = NULL;
  d->stopped = 0;
  d->h = 0.0;
  d->tprev = d->t;
  d->done = 0;
  size_t n = (size_t)d->n;
  for (; d->next_out < opt->ntout && opt->tout[d->next_out] <= d->t; d->next_out++) {
    memcpy(opt->yout + (size_t)d->next_out * n, y, sizeof(double) * n);
  }
}

void mbdae_driver_own_state(mbdae_driver *d, double *y, double *yp)
{
  d->state_y = y;
  d->state_yp = yp;
}

/* The end-point rule (driver.h) for a step h from t. */
static double end_rule(const driver_end_rule *e, double t, double tend, double h)
{
  double rest = tend - t;
  if (h * e->stretch >= rest) {
    return rest;
  }
  double q = rest / h;
  if (q <= (double)e->split) {
    int m = (int)q;
    if (q - (double)m > e->slack) {
      m++;
    }
    return rest / (double)m;
  }
  return h;
}

static double limit_hmax(const mbdae_driver *d, double h)
{
  return d->hmax > 0.0 && h > d->hmax ? d->hmax : h;
}

double mbdae_driver_plan(const mbdae_driver *d, double h)
{
  return end_rule(&d->end, d->t, d->tend, limit_hmax(d, h));
}

double mbdae_driver_first_step(const mbdae_driver *d, double h) { return mbdae_driver_plan(d, h); }

/* The step size of a retry after a rejection or an unattempted step. */
static double retry_step(const mbdae_driver *d, double h)
{
  return d->end.after_reject ? mbdae_driver_plan(d, h) : limit_hmax(d, h);
}

int mbdae_driver_limit(mbdae_driver *d, long steps, double h)
{
  if (steps < d->max_steps) {
    return 0;
  }
  return mbdae_fail(d->r, MBDAE_ERR_MAX_STEPS, d->t, h, "maximum number of steps (%ld) reached",
                    d->max_steps);
}

void mbdae_driver_accepted(mbdae_driver *d, double tnew, double h, int order, const double *y,
                           const double *yp,
                           void (*interpolate)(const void *m, double t, double *yout),
                           const void *m)
{
  const mbdae_options *opt = d->opt;
  size_t n = (size_t)d->n;
  for (; d->next_out < opt->ntout && opt->tout[d->next_out] <= tnew; d->next_out++) {
    double *out = opt->yout + (size_t)d->next_out * n;
    if (opt->tout[d->next_out] == tnew) {
      memcpy(out, y, sizeof(double) * n);
    } else {
      interpolate(m, opt->tout[d->next_out], out);
    }
  }
  d->t = tnew;
  if (opt->on_step) {
    opt->on_step(opt->on_step_ctx, tnew, h, order);
  }
  if (opt->on_accept) {
    opt->on_accept(opt->on_accept_ctx, tnew, y, yp);
  }
  d->stopped = opt->stop && opt->stop(opt->stop_ctx, tnew, y, yp) != 0;
}

int mbdae_driver_finish(mbdae_driver *d, double h)
{
  d->r->status = MBDAE_OK;
  d->r->t = d->t;
  d->r->h = h;
  d->r->message[0] = '\0';
  return MBDAE_OK;
}

/* opt->project on the state at the end of the accepted step [d->t, tnew]: 0, or the failure
 * recorded in r. */
static int project(mbdae_driver *d, double tnew, double h)
{
  const mbdae_options *opt = d->opt;
  int rc = opt->project(opt->project_ctx, tnew, d->state_y, d->state_yp);
  if (rc == 0) {
    return 0;
  }
  return mbdae_fail(d->r, rc < 0 ? rc : MBDAE_ERR_SOLVER, d->t, h,
                    "the projection after the step to t = %.17g failed: %s", tnew,
                    mbdae_strerror(rc));
}

/* Count a rejection; a negative status means the method gave up with it. */
static int rejected(mbdae_driver *d, const driver_report *rep, double h)
{
  if (rep->outcome == DRIVER_REJECTED_ERROR) {
    d->r->stats.nerrfail++;
  } else {
    d->r->stats.nconvfail++;
  }
  if (rep->status < 0) {
    return mbdae_fail(d->r, rep->status, d->t, rep->hnew > 0.0 ? rep->hnew : h, "%s", rep->reason);
  }
  return 0;
}

/* The report a method starts from: every field zero, the reason empty, as memset left it, without
 * writing the reason's DRIVER_REASON_LEN bytes twice per step (callgrind, mebdf at rtol 1e-7:
 * pendulum -0.7%, car axis -0.5%). */
static void clear_report(driver_report *rep)
{
  rep->outcome = DRIVER_ACCEPTED; /* 0 */
  rep->hnew = 0.0;
  rep->order = 0;
  rep->status = 0;
  rep->reason[0] = '\0';
}

int mbdae_driver_begin(mbdae_driver *d, double h)
{
  d->h = h;
  d->done = 0;
  if (d->opt->project && !d->state_y) {
    return mbdae_fail(d->r, MBDAE_ERR_UNSUPPORTED, d->t, h,
                      "this solver cannot project its state after a step (options.project)");
  }
  return 0;
}

/* The step size h from d->t shortened to end at stop (< tend), for a method that refreshes what it
 * keeps for its planned step (shorten); tstop is where a step of size h ends at the latest. */
static double shorten(const mbdae_driver *d, const driver_method *method, void *m, double h,
                      double stop)
{
  if (stop < d->tend && h >= stop - d->t) {
    if (method->shorten && h != stop - d->t) {
      method->shorten(m, stop - d->t);
    }
    return stop - d->t;
  }
  return h;
}

/* After the accepted step [d->t, tnew] of size h: the projection, the outputs and observers, then
 * the end of the run or the next step size.  Returns 0 or r->status. */
static int step_accepted(mbdae_driver *d, const driver_method *method, void *m,
                         const driver_report *rep, double tnew, double h, const double *y,
                         const double *yp)
{
  d->r->stats.accepted++;
  if (d->opt->project && project(d, tnew, h) != 0) {
    return d->r->status;
  }
  d->tprev = d->t;
  mbdae_driver_accepted(d, tnew, h, rep->order, y, yp, method->interpolate, m);
  if (tnew == d->tend || d->t >= d->tend || d->stopped) {
    d->done = 1;
    return mbdae_driver_finish(d, h);
  }
  double hnext = limit_hmax(d, rep->hnew);
  double hplan = end_rule(&d->end, d->t, d->tend, hnext);
  d->h = method->resize ? method->resize(m, h, hnext, hplan, hplan >= d->tend - d->t) : hplan;
  return 0;
}

int mbdae_driver_advance(mbdae_driver *d, const driver_method *method, void *m, const double *y,
                         const double *yp, double stop)
{
  mbdae_stats *st = &d->r->stats;
  driver_report rep;
  double h = d->h;
  for (;;) {
    clear_report(&rep);
    h = shorten(d, method, m, h, stop);
    if (method->prepare) {
      method->prepare(m, d->t, h, &rep);
      if (rep.outcome == DRIVER_RETRY) {
        h = retry_step(d, rep.hnew);
        continue;
      }
      if (rep.outcome == DRIVER_FAILED) {
        return mbdae_fail(d->r, rep.status, d->t, h, "%s", rep.reason);
      }
    }
    if (mbdae_driver_limit(d, st->steps, h) != 0) {
      return d->r->status;
    }
    st->steps++;
    double tlast = stop < d->tend ? stop : d->tend;
    double tnew = h >= tlast - d->t ? tlast : d->t + h;
    clear_report(&rep);
    method->attempt(m, d->t, h, tnew, &rep);
    if (rep.outcome == DRIVER_FAILED) {
      return mbdae_fail(d->r, rep.status, d->t, rep.hnew > 0.0 ? rep.hnew : h, "%s", rep.reason);
    }
    if (rep.outcome == DRIVER_ACCEPTED) {
      return step_accepted(d, method, m, &rep, tnew, h, y, yp);
    }
    if (rejected(d, &rep, h) != 0) {
      return d->r->status;
    }
    h = retry_step(d, rep.hnew);
  }
}

int mbdae_driver_run(mbdae_driver *d, const driver_method *method, void *m, double h,
                     const double *y, const double *yp)
{
  int rc = mbdae_driver_begin(d, h);
  while (rc == 0 && !d->done) {
    rc = mbdae_driver_advance(d, method, m, y, yp, d->tend);
  }
  return rc;
}
