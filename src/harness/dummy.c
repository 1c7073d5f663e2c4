/* form=dummy with its state selection switched where it degenerates (mbdae_solve_dummy).
 *
 * Mattsson & Soederlind (SIAM J. Sci. Comput. 14, 1993) reduce the index by keeping g, g', g''
 * and making the derivatives of a selection S of coordinates algebraic (problems/mechanical.h,
 * form=dummy); the system is index 1 while G_S, the columns S of G = dg/dq, is nonsingular.  No
 * one selection serves a whole swing of the pendulum (x fails where x = 0, y where y = 0), so the
 * run goes segment after segment: form=dummy with selection S is integrated until, after an
 * accepted step, |det G_S| < |det G_B| / HYSTERESIS, B the selection complete pivoting of G picks
 * there (options.stop ends the segment); then the run restarts from the same physical state in
 * B's variables (q, v, lambda kept, the dummies the true derivatives v_B and a_B), consistent by
 * construction.  The factor HYSTERESIS keeps the run from switching back and forth where two
 * pivots are about equal: the pendulum leaves x when |x| < |y| / 2 and y when |y| < |x| / 2.
 * Each segment is a problem of its own starting at the switch time (a mbdae_problem_type over
 * the selection's instance), run by mbdae_solve; the counters and the CPU time are summed, the
 * drift measured over every segment's accepted states. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_time.h"
#include "dummy.h"
#include "options.h"
#include "mbdae/mbdae.h"
#include "problem_type.h"

static const double HYSTERESIS = 2.0;

/* One segment: the instance of its selection, its start, and the run's bookkeeping. */
typedef struct segment {
  const mbdae_problem *p;      /* the caller's instance (its selection is the output's) */
  const mbdae_problem *cur;    /* the instance of the current selection */
  unsigned long long selected; /* the current selection */
  double t0;                   /* where the segment starts */
  const double *y0, *yp0;      /* its initial values (cur's variables) */
  const mbdae_options *opt;    /* the caller's options */
  double tend;                 /* the end of the run */
  double *gpos, *gvel;         /* nc each: constraint values */
  double *ymap, *ypmap;        /* n each: a state in p's variables for the caller's on_accept */
  double pos_max, vel_max;     /* drift over the accepted states */
  long states;                 /* accepted states measured */
} segment;

static int seg_init(void *ctx, double *y0, double *yp0)
{
  const segment *s = ctx;
  size_t n = (size_t)mbdae_problem_neq(s->cur);
  memcpy(y0, s->y0, sizeof(double) * n);
  memcpy(yp0, s->yp0, sizeof(double) * n);
  return 0;
}

static int seg_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  return mbdae_problem_res(((const segment *)ctx)->cur, t, y, yp, res);
}

static int seg_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                   double *dfdyp)
{
  return mbdae_problem_jac(((const segment *)ctx)->cur, t, y, yp, dfdy, dfdyp);
}

/* max(a, b), NaN when either is (fmax would drop a NaN state's drift) */
static double max_or_nan(double a, double b) { return isnan(a) || a > b ? a : b; }

/* The state selection of a form=dummy instance (problem_type.h), on its own parameters. */
static unsigned long long selected_of(const mbdae_problem *p)
{
  return mbdae_problem_selection(p)->selected(mbdae_problem_params(p));
}

static int pivots_at(const mbdae_problem *p, double t, const double *y, double *current,
                     unsigned long long *best, double *best_pivot)
{
  return mbdae_problem_selection(p)->pivots(mbdae_problem_params(p), t, y, current, best,
                                            best_pivot);
}

static int remap(const mbdae_problem *p, unsigned long long to, const double *y, const double *yp,
                 double *y_to, double *yp_to)
{
  return mbdae_problem_selection(p)->remap(mbdae_problem_params(p), to, y, yp, y_to, yp_to);
}

/* options.stop: the current selection has degenerated against the best one here. */
static int must_switch(void *ctx, double t, const double *y, const double *yp)
{
  (void)yp;
  const segment *s = ctx;
  double current = 0.0, best_pivot = 0.0;
  unsigned long long best = 0;
  if (pivots_at(s->cur, t, y, &current, &best, &best_pivot) != 0) {
    return 0; /* the next residual fails the same way and reports it */
  }
  return best != s->selected && current * HYSTERESIS < best_pivot;
}

/* options.on_accept: the drift, then the caller's observer with the state in p's variables. */
static void observe(void *ctx, double t, const double *y, const double *yp)
{
  segment *s = ctx;
  int nc = mbdae_problem_nconstraints(s->cur);
  if (mbdae_problem_constraints(s->cur, t, y, yp, s->gpos, s->gvel, NULL) == 0) {
    s->states++;
    for (int k = 0; k < nc; k++) {
      s->pos_max = max_or_nan(s->pos_max, fabs(s->gpos[k]));
      s->vel_max = max_or_nan(s->vel_max, fabs(s->gvel[k]));
    }
  }
  const mbdae_options *opt = s->opt;
  if (opt->on_accept && remap(s->cur, selected_of(s->p), y, yp, s->ymap, s->ypmap) == 0) {
    opt->on_accept(opt->on_accept_ctx, t, s->ymap, s->ypmap);
  }
}

/* The instance of p's configuration with selection `selected`: p's spec, select= replaced. */
static int selection_instance(const mbdae_problem *p, unsigned long long selected,
                              mbdae_problem **out, char *msg, size_t msglen)
{
  const char *spec = mbdae_problem_spec(p), *at = strstr(spec, "select=");
  size_t len = strlen(spec) + PROBLEM_SELECTION_MAX * 66;
  char *buf = malloc(len);
  if (!buf || !at) {
    free(buf);
    return buf ? MBDAE_ERR_ARG : MBDAE_ERR_NOMEM;
  }
  at += strlen("select=");
  size_t used = (size_t)(at - spec), rest = strcspn(at, ",");
  memcpy(buf, spec, used);
  buf[used] = '\0';
  for (int j = 0, first = 1; j < PROBLEM_SELECTION_MAX; j++) {
    if ((selected >> j) & 1ULL) {
      used += (size_t)snprintf(buf + used, len - used, "%s%s", first ? "" : "+",
                               mbdae_problem_component(p, j));
      first = 0;
    }
  }
  snprintf(buf + used, len - used, "%s", at + rest);
  int rc = mbdae_problem_create(buf, out, msg, msglen);
  free(buf);
  return rc;
}

/* One segment from s->t0 (start s->y0, s->yp0) until tend or a switch: y, yp at its end. */
static int run_segment(segment *s, const mbdae_solver_type *solver, long max_steps, double *y,
                       double *yp, mbdae_result *rs)
{
  mbdae_problem_type type = {
      .size = sizeof(mbdae_problem_type),
      .id = "dummy_segment",
      .title = "form=dummy, one selection",
      .neq = mbdae_problem_neq(s->cur),
      .t0 = s->t0,
      .tend = s->tend,
      .index = mbdae_problem_index(s->cur),
      .init = seg_init,
      .res = seg_res,
      .jac = seg_jac,
  };
  mbdae_problem *seg = NULL;
  int rc = mbdae_problem_from_type(&type, s, &seg, rs->message, sizeof rs->message);
  if (rc != 0) {
    rs->status = rc;
    return rc;
  }
  mbdae_options o = *s->opt;
  o.max_steps = max_steps;
  o.on_accept = observe;
  o.on_accept_ctx = s;
  o.stop = must_switch;
  o.stop_ctx = s;
  rc = mbdae_solve_with(seg, solver, &o, 1, y, yp, rs);
  mbdae_problem_destroy(seg);
  return rc;
}

static void add_stats(mbdae_stats *sum, const mbdae_stats *one)
{
  sum->steps += one->steps;
  sum->accepted += one->accepted;
  sum->nres += one->nres;
  sum->nres_fd += one->nres_fd;
  sum->njac += one->njac;
  sum->nlu += one->nlu;
  sum->nerrfail += one->nerrfail;
  sum->nconvfail += one->nconvfail;
}

/* After a segment stopped at t with y, yp: the best selection there, its instance in *own
 * (replacing the previous one) and the state in its variables in s->y0, s->yp0. */
static int switch_selection(segment *s, mbdae_problem **own, double t, const double *y,
                            const double *yp, double *y0, double *yp0, mbdae_result *r)
{
  double current = 0.0, pivot = 0.0;
  unsigned long long best = 0;
  int rc = pivots_at(s->cur, t, y, &current, &best, &pivot);
  rc = rc == 0 ? remap(s->cur, best, y, yp, y0, yp0) : rc;
  mbdae_problem *next = NULL;
  rc = rc == 0 ? selection_instance(s->p, best, &next, r->message, sizeof r->message) : rc;
  if (rc != 0) {
    r->status = rc;
    return rc;
  }
  mbdae_problem_destroy(*own);
  *own = next;
  s->cur = next;
  s->selected = best;
  s->t0 = t;
  s->y0 = y0;
  s->yp0 = yp0;
  return 0;
}

/* The segments one after another from the caller's y, yp; y, yp at the end in cur's variables. */
static int run_segments(segment *s, const mbdae_solver_type *solver, double *y, double *yp,
                        double *work, int *switches, mbdae_result *r)
{
  size_t n = (size_t)mbdae_problem_neq(s->p);
  double *y0 = work, *yp0 = work + n;
  long max_steps = s->opt->max_steps > 0 ? s->opt->max_steps : 1000000L;
  mbdae_problem *own = NULL;
  double t = s->t0;
  int rc = 0;
  for (;;) { /* the state at t in y, yp: switch where the selection is poor, then run on */
    if (must_switch(s, t, y, yp)) {
      rc = switch_selection(s, &own, t, y, yp, y0, yp0, r);
      if (rc != 0) {
        break;
      }
      ++*switches;
    } else {
      memcpy(y0, y, sizeof(double) * n);
      memcpy(yp0, yp, sizeof(double) * n);
      s->t0 = t;
      s->y0 = y0;
      s->yp0 = yp0;
    }
    mbdae_result one;
    rc = run_segment(s, solver, max_steps - r->stats.steps, y, yp, &one);
    add_stats(&r->stats, &one.stats);
    r->status = one.status;
    r->t = t = one.t;
    r->h = one.h;
    memcpy(r->message, one.message, sizeof r->message);
    if (rc != 0 || t >= s->tend) {
      break;
    }
    if (r->stats.steps >= max_steps) { /* a segment that used up the steps left ended on a stop */
      rc = r->status = MBDAE_ERR_MAX_STEPS;
      snprintf(r->message, sizeof r->message, "t = %.17g: maximum number of steps (%ld) reached", t,
               max_steps);
      break;
    }
  }
  if (s->cur != s->p) { /* the end state in p's variables */
    int mapped = remap(s->cur, selected_of(s->p), y, yp, y0, yp0);
    if (mapped == 0) {
      memcpy(y, y0, sizeof(double) * n);
      memcpy(yp, yp0, sizeof(double) * n);
    }
  }
  s->cur = s->p;
  mbdae_problem_destroy(own);
  return rc;
}

/* The drift at the end state (p's variables) and over the run. */
static void drift_report(segment *s, const double *y, const double *yp, mbdae_result *r)
{
  r->drift_pos_max = r->drift_vel_max = r->drift_pos_end = r->drift_vel_end = NAN;
  if (mbdae_problem_constraints(s->p, r->t, y, yp, s->gpos, s->gvel, NULL) != 0) {
    return;
  }
  double pos = 0.0, vel = 0.0;
  for (int k = 0; k < mbdae_problem_nconstraints(s->p); k++) {
    pos = max_or_nan(pos, fabs(s->gpos[k]));
    vel = max_or_nan(vel, fabs(s->gvel[k]));
  }
  r->drift_pos_end = pos;
  r->drift_vel_end = vel;
  r->drift_pos_max = max_or_nan(pos, s->pos_max);
  r->drift_vel_max = max_or_nan(vel, s->vel_max);
  r->drift_steps = s->states;
}

/* p is a form=dummy instance: it has a state selection (a user's problem has none). */
int dummy_form(const mbdae_problem *p) { return p && mbdae_problem_selection(p); }

/* tend: 0 for p's own, else finite and after t0 (-5 or NaN silently meant p's own). */
static int tend_ok(const mbdae_problem *p, double tend)
{
  return tend == 0.0 || (isfinite(tend) && tend > mbdae_problem_t0(p));
}

int mbdae_solve_dummy(const mbdae_problem *p, const mbdae_solver_type *solver, double tend,
                      const mbdae_options *opt, double *y, double *yp, mbdae_result *r,
                      int *switches)
{
  if (!r) {
    return MBDAE_ERR_ARG;
  }
  memset(r, 0, sizeof *r);
  r->drift_pos_max = r->drift_vel_max = r->drift_pos_end = r->drift_vel_end = NAN;
  mbdae_options full; /* the caller's options completed to the library's struct */
  const char *bad_size = opt ? mbdae_options_take(opt, &full) : NULL;
  const char *bad = !p || !opt || !y || !yp || !switches ? "problem, options, y, yp and switches "
                                                           "are required"
                    : bad_size                           ? bad_size
                    : !dummy_form(p)                     ? "the problem is not in form=dummy"
                    : !tend_ok(p, tend)
                        ? "tend must be 0 (the problem's own) or a finite time after t0"
                    : full.ntout > 0 || full.project || full.stop
                        ? "output times, projection and stop are not supported"
                        : NULL;
  if (bad) {
    r->status = opt && !bad_size && dummy_form(p) && tend_ok(p, tend) && y && yp && switches
                    ? MBDAE_ERR_UNSUPPORTED
                    : MBDAE_ERR_ARG;
    snprintf(r->message, sizeof r->message, "mbdae_solve_dummy: %s", bad);
    return r->status;
  }
  size_t n = (size_t)mbdae_problem_neq(p), nc = (size_t)mbdae_problem_nconstraints(p);
  double *work = malloc(sizeof(double) * (4 * n + 2 * nc));
  if (!work) {
    r->status = MBDAE_ERR_NOMEM;
    snprintf(r->message, sizeof r->message, "out of memory");
    return r->status;
  }
  segment s = {.p = p,
               .cur = p,
               .selected = selected_of(p),
               .t0 = mbdae_problem_t0(p),
               .opt = &full,
               .tend = tend == 0.0 ? mbdae_problem_tend(p) : tend,
               .gpos = work + 4 * n,
               .gvel = work + 4 * n + nc,
               .ymap = work + 2 * n,
               .ypmap = work + 3 * n};
  *switches = 0;
  double start = cpu_now();
  int rc = run_segments(&s, solver, y, yp, work, switches, r);
  r->cpu_seconds = r->cpu_min = r->cpu_max = cpu_now() - start;
  r->repeats = 1;
  drift_report(&s, y, yp, r);
  free(work);
  return rc;
}
