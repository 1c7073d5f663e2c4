/* The plan of a sweep (mbdae_sweep_plan): the runs of the test set's work-precision experiment
 * (Test Set for IVP Solvers, release 2.4, the "numerical solution" section of every problem, e.g.
 * II.17.4, II.13.4, II.19.4): each solver on each problem at rtol = atol = 10^-(4 + m/m_div),
 * m = 0..m_max, h0 = h0_factor * rtol (mbdae_options_test_set), in the order problem, solver,
 * tolerance; and the matching of a record to its planned run, by which an interrupted sweep is
 * resumed.  The mbdae command's sweep (its process pool stays in src/cli) and Python's
 * mbdae.sweep take their runs from here, so the plan and the matching are written once. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"

enum { MAX_M = 1000 }; /* 10^-254: still a normal double */

typedef struct plan_run {
  int problem, solver;
  mbdae_options opt; /* the library's full struct */
} plan_run;

struct mbdae_sweep_plan {
  const mbdae_problem *const *problems;
  const char *const *solvers;
  int repeats;
  int nruns;
  plan_run runs[]; /* nruns */
};

void mbdae_sweep_settings_default(mbdae_sweep_settings *set)
{
  memset(set, 0, sizeof *set);
  set->size = sizeof *set;
  set->m_hi = -1;
  set->repeats = 1;
}

static int refuse(char *msg, size_t msglen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(char *msg, size_t msglen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (msg && msglen > 0) {
    vsnprintf(msg, msglen, fmt, ap);
  }
  va_end(ap);
  return MBDAE_ERR_ARG;
}

/* Why the settings cannot make a plan, or NULL. */
static const char *settings_invalid(const mbdae_sweep_settings *set)
{
  if (set->size != sizeof *set) {
    return "settings not made by mbdae_sweep_settings_default (size)";
  } else if (set->m_hi >= 0 && !(set->m_lo >= 0 && set->m_lo <= set->m_hi && set->m_hi <= MAX_M)) {
    return "the m range must be A..B with 0 <= A <= B <= 1000";
  } else if (set->nrtols < 0 || (set->nrtols > 0 && !set->rtols)) {
    return "a count of tolerances without a list";
  } else if (!(set->atol >= 0.0 && set->h0 >= 0.0 && set->hmax >= 0.0) || set->max_steps < 0 ||
             set->repeats < 1) {
    return "atol, h0, hmax and max_steps must not be negative, repeats at least 1";
  }
  for (int t = 0; t < set->nrtols; t++) {
    if (!(set->rtols[t] > 0.0 && set->rtols[t] < 1.0)) {
      return "rtol must be below 1 (a relative error of 100%) and above 0";
    }
  }
  return NULL;
}

/* The tolerances of problem p into rtol (when not NULL): the list, or its m grid; their number. */
static int tolerances_of(const mbdae_problem *p, const mbdae_sweep_settings *set, double *rtol)
{
  if (set->nrtols > 0) {
    if (rtol) {
      memcpy(rtol, set->rtols, sizeof(double) * (size_t)set->nrtols);
    }
    return set->nrtols;
  }
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  int lo = set->m_hi >= 0 ? set->m_lo : 0, hi = set->m_hi >= 0 ? set->m_hi : plan.m_max, n = 0;
  for (int m = lo; m <= hi; m++, n++) {
    if (rtol) {
      rtol[n] = pow(10.0, -(4.0 + (double)m / plan.m_div));
    }
  }
  return n;
}

static void fill_runs(mbdae_sweep_plan *plan, int nproblems, int nsolvers,
                      const mbdae_sweep_settings *set, double *rtol)
{
  int k = 0;
  for (int i = 0; i < nproblems; i++) {
    const mbdae_problem *p = plan->problems[i];
    int nt = tolerances_of(p, set, rtol);
    for (int s = 0; s < nsolvers; s++) {
      for (int t = 0; t < nt; t++, k++) {
        mbdae_options *o = &plan->runs[k].opt;
        plan->runs[k].problem = i;
        plan->runs[k].solver = s;
        mbdae_options_default(o);
        mbdae_options_test_set(p, rtol[t], o); /* rtol checked: > 0 and below 1 */
        o->atol = set->atol > 0.0 ? set->atol : o->atol;
        o->h0 = set->h0 > 0.0 ? set->h0 : o->h0;
        o->hmax = set->hmax;
        o->max_steps = set->max_steps;
        o->linsys = set->linsys;
      }
    }
  }
}

int mbdae_sweep_plan_create(const mbdae_problem *const *problems, int nproblems,
                            const char *const *solvers, int nsolvers,
                            const mbdae_sweep_settings *set, mbdae_sweep_plan **out, char *msg,
                            size_t msglen)
{
  if (!out || !set || !problems || !solvers || nproblems < 1 || nsolvers < 1) {
    return refuse(msg, msglen, "a sweep needs problems, solvers, settings and an output");
  }
  *out = NULL;
  const char *why = settings_invalid(set);
  if (why) {
    return refuse(msg, msglen, "%s", why);
  }
  long total = 0;
  for (int i = 0; i < nproblems; i++) {
    if (!problems[i]) {
      return refuse(msg, msglen, "problem %d is NULL", i + 1);
    }
    total += (long)nsolvers * tolerances_of(problems[i], set, NULL);
  }
  for (int s = 0; s < nsolvers; s++) {
    if (!solvers[s]) {
      return refuse(msg, msglen, "solver %d is NULL", s + 1);
    }
  }
  int nt = set->nrtols > 0 ? set->nrtols : MAX_M + 1;
  double *rtol = malloc(sizeof(double) * (size_t)nt);
  mbdae_sweep_plan *plan =
      total <= 100000000 ? malloc(sizeof *plan + sizeof(plan_run) * (size_t)total) : NULL;
  if (!rtol || !plan) {
    free(rtol);
    free(plan);
    refuse(msg, msglen, "out of memory (%ld runs)", total);
    return MBDAE_ERR_NOMEM;
  }
  plan->problems = problems;
  plan->solvers = solvers;
  plan->repeats = set->repeats;
  plan->nruns = (int)total;
  fill_runs(plan, nproblems, nsolvers, set, rtol);
  free(rtol);
  *out = plan;
  return MBDAE_OK;
}

void mbdae_sweep_plan_free(mbdae_sweep_plan *plan) { free(plan); }

int mbdae_sweep_plan_count(const mbdae_sweep_plan *plan) { return plan ? plan->nruns : 0; }

int mbdae_sweep_plan_run(const mbdae_sweep_plan *plan, int k, int *problem, int *solver,
                         mbdae_options *opt)
{
  if (!plan || k < 0 || k >= plan->nruns || !opt || opt->size < sizeof(size_t) ||
      opt->size > sizeof *opt) {
    return MBDAE_ERR_ARG;
  }
  const plan_run *run = &plan->runs[k];
  if (problem) {
    *problem = run->problem;
  }
  if (solver) {
    *solver = run->solver;
  }
  size_t size = opt->size; /* the caller's struct: its first size bytes */
  memcpy(opt, &run->opt, size);
  opt->size = size;
  return MBDAE_OK;
}

/* The option a record holds with another value than run o (with `repeats` timed runs) gives it:
 * "max_steps 5 there, 0 here" in why, 1; 0 when they agree.  The repeats of a failed run are
 * those it got to (the first failure ends them): compared for an ok row only. */
static int options_differ(const mbdae_options *o, int repeats, const mbdae_record *r, char *why,
                          size_t len)
{
  char a[64], b[64];
  snprintf(a, sizeof a, "%.10g", o->hmax);
  snprintf(b, sizeof b, "%.10g", r->hmax);
  if (r->max_steps != o->max_steps) {
    snprintf(why, len, "max_steps %ld there, %ld here", r->max_steps, o->max_steps);
  } else if (strcmp(a, b) != 0) {
    snprintf(why, len, "hmax %s there, %s here", b, a);
  } else if (r->status == MBDAE_OK && r->repeats != repeats) {
    snprintf(why, len, "repeats %d there, %d here", r->repeats, repeats);
  } else {
    return 0;
  }
  return 1;
}

int mbdae_sweep_plan_match(const mbdae_sweep_plan *plan, int lo, int hi, const char *done,
                           const mbdae_record *r, char *why, size_t len)
{
  char scratch[8];
  why = why && len > 0 ? why : scratch;
  len = why == scratch ? sizeof scratch : len;
  why[0] = '\0';
  const char *bad = r ? mbdae_record_invalid(r) : NULL;
  if (bad) { /* a record whose fields this library cannot read */
    snprintf(why, len, "%s", bad);
    return -1;
  }
  lo = lo < 0 ? 0 : lo;
  hi = plan && hi > plan->nruns ? plan->nruns : hi;
  for (int k = lo; plan && r && k < hi; k++) {
    const plan_run *run = &plan->runs[k];
    const mbdae_options *o = &run->opt;
    char a[96], b[96];
    snprintf(a, sizeof a, "%.10g %.10g %.10g", o->rtol, o->atol, o->h0);
    snprintf(b, sizeof b, "%.10g %.10g %.10g", r->rtol, r->atol, r->h0);
    if (!(done && done[k - lo]) &&
        strcmp(mbdae_problem_spec(plan->problems[run->problem]), r->spec) == 0 &&
        strcmp(plan->solvers[run->solver], r->solver) == 0 && strcmp(a, b) == 0) {
      return options_differ(o, plan->repeats, r, why, len) ? -1 : k;
    }
  }
  return -1;
}
