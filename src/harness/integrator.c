/* The integrator object of include/mbdae/integrator.h (harness layer): the checks of the caller's
 * arguments, the state arrays and the counters, around a built-in solver's run as an object (its
 * mbdae_stepper, src/core/solver_type.h, found from the type when its capabilities say steps).  The
 * solver's integrate() is the same object stepped to tend (solvers/session.h), so that stepping
 * with MBDAE_NORMAL to tend is the whole run's computation, bit for bit.  As SUNDIALS' IDASolve
 * with IDA_ONE_STEP / IDA_NORMAL and IDAGetDky (A. C. Hindmarsh et al., ACM TOMS 31, 2005) and
 * SciPy's OdeSolver (step, dense_output). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "solver_list.h"
#include "mbdae/mbdae.h"

struct mbdae_integrator {
  const mbdae_problem *p;
  const mbdae_solver_type *type;
  const mbdae_stepper *st;
  mbdae_options opt; /* the caller's, checked and completed: the solver keeps a pointer to it */
  void *session;     /* the solver's run; NULL after a failed reset */
  mbdae_result r;    /* counters and the solver's failure */
  double *y, *yp;    /* the state at t (neq each) */
  double t;          /* the solver's time */
  int ended;         /* 1 when the run ended (tend, or options.stop) */
  int failed;        /* the status of a failure that ended the run, else 0 */
  char msg[sizeof(((mbdae_result *)0)->message)]; /* why the last call failed */
};

/* Records why a call fails and returns code. */
static int refuse(mbdae_integrator *it, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(mbdae_integrator *it, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(it->msg, sizeof it->msg, fmt, ap);
  va_end(ap);
  return code;
}

/* A new run from it->y, it->yp at t0: 0, or the solver's refusal (its message kept). */
static int open_run(mbdae_integrator *it, double t0)
{
  memset(&it->r, 0, sizeof it->r);
  it->session = NULL;
  it->t = t0;
  it->ended = 0;
  it->failed = 0;
  it->msg[0] = '\0';
  int rc = it->st->open(it->p, &it->opt, t0, it->y, it->yp, &it->r, &it->session);
  if (rc != 0) {
    it->session = NULL;
    it->r.message[sizeof it->r.message - 1] = '\0';
    return refuse(it, rc < 0 ? rc : MBDAE_ERR_SOLVER, "%s", it->r.message);
  }
  return 0;
}

/* The stepper of a valid solver type whose capabilities say it steps (a valid type says so only
 * when it is built in), or NULL with the reason in msg. */
static const mbdae_stepper *stepper_of(const mbdae_solver_type *s, char *msg, size_t msglen)
{
  mbdae_solver_caps caps;
  mbdae_solver_caps_take(s, &caps);
  const mbdae_stepper *st = caps.steps ? mbdae_solver_stepper(s) : NULL;
  if (!st) {
    snprintf(msg, msglen,
             "solver '%s' cannot step (its capabilities: steps = 0): its type gives only "
             "integrate (whole runs with mbdae_solve_with); every built-in solver steps",
             s->id);
  }
  return st;
}

/* The integrator's memory and state for p, s, o (checked): NULL when out of memory. */
static mbdae_integrator *integrator_new(const mbdae_problem *p, const mbdae_solver_type *s,
                                        const mbdae_stepper *st, const mbdae_options *o)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  mbdae_integrator *it = calloc(1, sizeof *it);
  double *state = malloc(2 * n * sizeof(double));
  if (!it || !state) {
    free(it);
    free(state);
    return NULL;
  }
  it->p = p;
  it->type = s;
  it->st = st;
  it->opt = *o;
  it->y = state;
  it->yp = state + n;
  return it;
}

int mbdae_integrator_create(const mbdae_problem *p, const mbdae_solver_type *s,
                            const mbdae_options *opt, mbdae_integrator **out, char *msg,
                            size_t msglen)
{
  char why[sizeof(((mbdae_result *)0)->message)] = "";
  const char *bad = mbdae_solver_type_invalid(s);
  mbdae_options o;
  int rc = 0;
  const mbdae_stepper *st = NULL;
  if (out) {
    *out = NULL;
  }
  if (!p || !opt || !out || bad) {
    rc = MBDAE_ERR_ARG;
    snprintf(why, sizeof why, "mbdae_integrator_create: %s",
             bad ? bad : "problem, options and out are required");
  } else if ((bad = mbdae_options_take(opt, &o)) != NULL) {
    rc = MBDAE_ERR_ARG;
    snprintf(why, sizeof why, "mbdae_integrator_create: %s", bad);
  } else if ((rc = mbdae_options_check(p, &o, why, sizeof why)) == 0) {
    mbdae_options_complete(p, &o);
    st = stepper_of(s, why, sizeof why);
    rc = st ? mbdae_solver_caps_refuse(s, &o, why, sizeof why) : MBDAE_ERR_UNSUPPORTED;
  }
  mbdae_integrator *it = rc == 0 ? integrator_new(p, s, st, &o) : NULL;
  if (rc == 0 && !it) {
    rc = MBDAE_ERR_NOMEM;
    snprintf(why, sizeof why, "out of memory");
  }
  if (rc == 0) {
    int init = mbdae_problem_init(p, it->y, it->yp);
    rc = init != 0 ? refuse(it, init < 0 ? init : MBDAE_ERR_RES, "initial values: %s",
                            mbdae_strerror(init))
                   : open_run(it, mbdae_problem_t0(p));
    snprintf(why, sizeof why, "%s", it->msg);
  }
  if (rc != 0) {
    mbdae_integrator_free(it);
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "%s", why);
    }
    return rc;
  }
  *out = it;
  return 0;
}

int mbdae_integrator_reset(mbdae_integrator *it, double t0, const double *y0, const double *yp0)
{
  if (!it) {
    return MBDAE_ERR_ARG;
  }
  double t_first = mbdae_problem_t0(it->p), tend = mbdae_problem_tend(it->p);
  if (!y0 || !yp0) {
    return refuse(it, MBDAE_ERR_ARG, "mbdae_integrator_reset: y0 and yp0 are required");
  }
  if (!(t0 >= t_first && t0 < tend)) {
    return refuse(it, MBDAE_ERR_ARG, "mbdae_integrator_reset: t0 = %.17g is outside [%g, %g)", t0,
                  t_first, tend);
  }
  if (it->session) {
    it->st->close(it->session);
    it->session = NULL;
  }
  size_t n = (size_t)mbdae_problem_neq(it->p);
  memmove(it->y, y0, n * sizeof(double));
  memmove(it->yp, yp0, n * sizeof(double));
  return open_run(it, t0);
}

/* Why no step can be made towards tout with mode, or NULL. */
static const char *cannot_step(const mbdae_integrator *it, double tout, int mode)
{
  double tprev = it->t, t = it->t;
  if (it->session) {
    it->st->last_step(it->session, &tprev, &t);
  }
  if (mode != MBDAE_NORMAL && mode != MBDAE_ONE_STEP) {
    return "the mode is MBDAE_NORMAL or MBDAE_ONE_STEP";
  } else if (!it->session) {
    return "no run: the last reset failed";
  } else if (!(tout <= mbdae_problem_tend(it->p))) {
    return "tout is beyond tend (or not a number)";
  } else if (mode == MBDAE_NORMAL && tout <= t) {
    return tout >= tprev ? NULL : "step backward: tout is before the last step";
  } else if (it->ended) {
    return "the run has ended (at tend, or options.stop asked)";
  } else if (tout <= t) {
    return "step backward: tout is not after t";
  }
  return NULL;
}

int mbdae_integrator_step(mbdae_integrator *it, double tout, int mode, double *tret)
{
  if (!it) {
    return MBDAE_ERR_ARG;
  }
  if (it->failed) {
    return it->failed; /* the message stays the failure's */
  }
  const char *bad = cannot_step(it, tout, mode);
  if (bad) {
    return refuse(it, MBDAE_ERR_ARG, "mbdae_integrator_step: %s (t = %.17g, tout = %.17g)", bad,
                  it->t, tout);
  }
  it->msg[0] = '\0';
  int rc = tout <= it->t ? 0 : it->st->step(it->session, tout, mode, &it->t);
  if (rc < 0) {
    it->failed = rc;
    it->r.message[sizeof it->r.message - 1] = '\0';
    return refuse(it, rc, "%s", it->r.message);
  }
  it->ended |= rc == 1;
  if (tret) {
    *tret = mode == MBDAE_NORMAL && it->t >= tout ? tout : it->t;
  }
  return 0;
}

double mbdae_integrator_t(const mbdae_integrator *it) { return it ? it->t : NAN; }

void mbdae_integrator_state(const mbdae_integrator *it, double *y, double *yp)
{
  size_t n = it ? (size_t)mbdae_problem_neq(it->p) : 0;
  if (it && y) {
    memcpy(y, it->y, n * sizeof(double));
  }
  if (it && yp) {
    memcpy(yp, it->yp, n * sizeof(double));
  }
}

int mbdae_integrator_dense(mbdae_integrator *it, double t, double *y)
{
  if (!it || !y) {
    return MBDAE_ERR_ARG;
  }
  double tprev = it->t, tnow = it->t;
  if (it->session) {
    it->st->last_step(it->session, &tprev, &tnow);
  }
  if (t == tnow) {
    memcpy(y, it->y, (size_t)mbdae_problem_neq(it->p) * sizeof(double));
    return 0;
  }
  if (!it->session || !(t >= tprev && t < tnow)) {
    return refuse(it, MBDAE_ERR_ARG,
                  "mbdae_integrator_dense: t = %.17g is outside the last step [%.17g, %.17g]", t,
                  tprev, tnow);
  }
  int rc = it->st->dense(it->session, t, y);
  return rc == 0 ? 0
                 : refuse(it, rc, "mbdae_integrator_dense: the continuous output failed (%s)",
                          mbdae_strerror(rc));
}

void mbdae_integrator_stats(const mbdae_integrator *it, mbdae_stats *stats)
{
  if (it && stats) {
    *stats = it->r.stats;
  }
}

const char *mbdae_integrator_message(const mbdae_integrator *it) { return it ? it->msg : ""; }

void mbdae_integrator_free(mbdae_integrator *it)
{
  if (!it) {
    return;
  }
  if (it->session) {
    it->st->close(it->session);
  }
  free(it->y);
  free(it);
}
