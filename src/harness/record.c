/* Run records (mbdae_record): filling one from a run, releasing it, the environment it was made
 * in, and the column table that the CSV and JSON writers and the CSV reader share.
 *
 * A record copies what it needs out of the problem and the solver (ids, spec, names, reference),
 * so that it outlives both and can be written, read back and compared.  scd and mescd are those of
 * mbdae_scd and mbdae_mescd at the run's tolerances (test set report 2.4); the environment comes
 * from uname(2) and the "model name" line of /proc/cpuinfo where there is one. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "dummy.h"
#include "record_columns.h"
#include "options.h"
#include "struct_size.h"

/* The first mbdae_record with a size (0.4.0) is this one: a caller's size is at least that. */
#define RECORD_SIZE_MIN sizeof(mbdae_record)

#define COLUMN_OR(key, member, kind, absent)                                                       \
  {                                                                                                \
    key, kind, offsetof(mbdae_record, member), sizeof(((mbdae_record *)0)->member), absent         \
  }
#define COLUMN(key, member, kind) COLUMN_OR(key, member, kind, NULL)

/* The columns of runs.csv in order: the first twenty as the command wrote them before records
 * moved into the library, then those added with them, then the drift figures (>= 0; empty
 * for a problem without constraints, null in JSON), which a file written before them lacks: it
 * reads as no drift measured; then form=dummy's selection switches (0 when absent); then the
 * environment of the run (versions, machine), which older files gave in "# key: value" lines
 * after the header, where no CSV reader but ours expects them; then the trajectory digits (issue
 * 35: tscd, tmescd, tscd_rms; empty for none, and in a file written before them). */
const record_column record_columns[] = {
    COLUMN("problem", problem, KIND_ID),
    COLUMN("spec", spec, KIND_ID),
    COLUMN("solver", solver, KIND_ID),
    COLUMN("rtol", rtol, KIND_TOL),
    COLUMN("atol", atol, KIND_TOL),
    COLUMN("h0", h0, KIND_TOL),
    COLUMN("status", status, KIND_STATUS),
    COLUMN("message", message, KIND_TEXT),
    COLUMN("scd", scd, KIND_REAL),
    COLUMN("mescd", mescd, KIND_REAL),
    COLUMN("steps", stats.steps, KIND_COUNT),
    COLUMN("accepted", stats.accepted, KIND_COUNT),
    COLUMN("nres", stats.nres, KIND_COUNT),
    COLUMN("njac", stats.njac, KIND_COUNT),
    COLUMN("nlu", stats.nlu, KIND_COUNT),
    COLUMN("cpu_seconds", cpu_seconds, KIND_SECONDS),
    COLUMN("cpu_min", cpu_min, KIND_SECONDS),
    COLUMN("cpu_max", cpu_max, KIND_SECONDS),
    COLUMN("repeats", repeats, KIND_REPEATS),
    COLUMN("nres_fd", stats.nres_fd, KIND_COUNT),
    COLUMN("code", status, KIND_CODE),
    COLUMN("t", t, KIND_REAL),
    COLUMN("h", h, KIND_REAL),
    COLUMN("nerrfail", stats.nerrfail, KIND_COUNT),
    COLUMN("nconvfail", stats.nconvfail, KIND_COUNT),
    COLUMN("hmax", hmax, KIND_LIMIT),
    COLUMN("max_steps", max_steps, KIND_COUNT),
    COLUMN("solver_title", solver_title, KIND_TEXT),
    COLUMN("names", names, KIND_NAMES),
    COLUMN("y", y, KIND_VECTOR),
    COLUMN("yref", yref, KIND_VECTOR),
    COLUMN_OR("drift_pos_max", drift_pos_max, KIND_SECONDS, ""),
    COLUMN_OR("drift_vel_max", drift_vel_max, KIND_SECONDS, ""),
    COLUMN_OR("drift_pos_end", drift_pos_end, KIND_SECONDS, ""),
    COLUMN_OR("drift_vel_end", drift_vel_end, KIND_SECONDS, ""),
    COLUMN_OR("drift_steps", drift_steps, KIND_COUNT, "0"),
    COLUMN_OR("switches", switches, KIND_COUNT, "0"),
    COLUMN_OR("mbdae_version", env.mbdae, KIND_ENV, ""),
    COLUMN_OR("dependencies", env.dependencies, KIND_ENV, ""),
    COLUMN_OR("machine", env.machine, KIND_ENV, ""),
    COLUMN_OR("cpu", env.cpu, KIND_ENV, ""),
    COLUMN_OR("tscd", tscd, KIND_REAL, ""),
    COLUMN_OR("tmescd", tmescd, KIND_REAL, ""),
    COLUMN_OR("tscd_rms", tscd_rms, KIND_REAL, ""),
};
const int record_ncolumns = (int)(sizeof record_columns / sizeof record_columns[0]);

const char *record_text(const mbdae_record *r, const record_column *c)
{
  return (const char *)r + c->offset;
}

double record_real(const mbdae_record *r, const record_column *c)
{
  double v;
  memcpy(&v, (const char *)r + c->offset, sizeof v);
  return v;
}

long record_long(const mbdae_record *r, const record_column *c)
{
  long v;
  memcpy(&v, (const char *)r + c->offset, sizeof v);
  return v;
}

int record_int(const mbdae_record *r, const record_column *c)
{
  int v;
  memcpy(&v, (const char *)r + c->offset, sizeof v);
  return v;
}

const void *record_pointer(const mbdae_record *r, const record_column *c)
{
  const void *v;
  memcpy(&v, (const char *)r + c->offset, sizeof v);
  return v;
}

int mbdae_record_id_ok(const char *s)
{
  if (!s || !*s) {
    return 0;
  }
  for (; *s; s++) {
    if (!isalnum((unsigned char)*s) && !strchr("_:=,.+-", *s)) {
      return 0;
    }
  }
  return 1;
}

/* ---- the environment ---------------------------------------------------------------------- */

/* The value of the first "model name" line of /proc/cpuinfo (x86; "Model" or "cpu model" on some
 * other machines), or "". */
static void cpu_model(char *buf, size_t len)
{
  static const char *const keys[] = {"model name", "Model", "cpu model", "Processor"};
  char line[512];
  buf[0] = '\0';
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && !buf[0] && fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    for (size_t k = 0; colon && k < sizeof keys / sizeof keys[0] && !buf[0]; k++) {
      size_t n = strlen(keys[k]);
      if (strncmp(line, keys[k], n) == 0 && strspn(line + n, " \t") == (size_t)(colon - line) - n) {
        const char *v = colon + 1 + strspn(colon + 1, " \t");
        snprintf(buf, len, "%.*s", (int)strcspn(v, "\r\n"), v);
      }
    }
  }
  if (f) {
    fclose(f);
  }
}

void mbdae_environment_get(mbdae_environment *env)
{
  struct utsname u;
  memset(env, 0, sizeof *env);
  snprintf(env->mbdae, sizeof env->mbdae, "%s", mbdae_version());
  mbdae_dependency_versions(env->dependencies, sizeof env->dependencies);
  if (uname(&u) == 0) {
    snprintf(env->machine, sizeof env->machine, "%s %s %s", u.sysname, u.release, u.machine);
  }
  cpu_model(env->cpu, sizeof env->cpu);
}

/* ---- filling a record --------------------------------------------------------------------- */

void mbdae_record_free(mbdae_record *rec)
{
  if (!rec) {
    return;
  }
  free(rec->y);
  free(rec->yref);
  free(rec->names);
  rec->y = rec->yref = NULL;
  rec->names = NULL;
}

void mbdae_records_free(mbdae_record *recs, size_t n)
{
  /* A zeroed array (size 0) can only have been made against this header: its stride is ours. */
  size_t stride = recs && n > 0 && mbdae_record_invalid(recs) == NULL ? recs->size : sizeof *recs;
  for (size_t k = 0; recs && k < n; k++) {
    mbdae_record_free((mbdae_record *)((char *)recs + k * stride));
  }
  free(recs);
}

const char *mbdae_record_invalid(const mbdae_record *rec)
{
  if (!rec) {
    return "the record is NULL";
  }
  return mbdae_struct_size_invalid(rec->size, RECORD_SIZE_MIN, sizeof *rec);
}

const char *mbdae_record_take(const mbdae_record *rec, mbdae_record *full)
{
  const char *why = mbdae_record_invalid(rec);
  if (why) {
    return why;
  }
  mbdae_struct_take(rec, rec->size, full, sizeof *full);
  return NULL;
}

mbdae_record *mbdae_records_take(const mbdae_record *recs, size_t n, const char **why)
{
  *why = n > 0 ? mbdae_record_invalid(recs) : NULL;
  mbdae_record *full = *why ? NULL : malloc(sizeof *full * (n > 0 ? n : 1));
  if (!full) {
    *why = *why ? *why : mbdae_strerror(MBDAE_ERR_NOMEM);
    return NULL;
  }
  for (size_t k = 0; k < n; k++) {
    const mbdae_record *r = (const mbdae_record *)((const char *)recs + k * recs->size);
    if (r->size != recs->size) {
      *why = "the records of an array differ in size";
      free(full);
      return NULL;
    }
    mbdae_struct_take(r, r->size, &full[k], sizeof *full);
  }
  return full;
}

/* names: one block, neq pointers then the strings. */
static char **copy_names(const mbdae_problem *p, int neq)
{
  size_t text = 0;
  for (int i = 0; i < neq; i++) {
    text += strlen(mbdae_problem_component(p, i)) + 1;
  }
  char **names = malloc(sizeof(char *) * (size_t)neq + text);
  if (!names) {
    return NULL;
  }
  char *s = (char *)(names + neq);
  for (int i = 0; i < neq; i++) {
    size_t n = strlen(mbdae_problem_component(p, i)) + 1;
    memcpy(s, mbdae_problem_component(p, i), n);
    names[i] = s;
    s += n;
  }
  return names;
}

/* mbdae_record_init into the library's own record. */
static int init_full(mbdae_record *rec, const mbdae_problem *p, const mbdae_solver_type *solver,
                     const mbdae_options *opt)
{
  memset(rec, 0, sizeof *rec);
  rec->size = sizeof *rec;
  rec->status = MBDAE_ERR_SOLVER;
  rec->t = rec->h = rec->scd = rec->mescd = NAN;
  rec->tscd = rec->tmescd = rec->tscd_rms = NAN;
  rec->cpu_seconds = rec->cpu_min = rec->cpu_max = NAN;
  rec->drift_pos_max = rec->drift_vel_max = rec->drift_pos_end = rec->drift_vel_end = NAN;
  mbdae_options o; /* the caller's options completed to the library's struct */
  if (!p || !solver || !opt || !solver->id || mbdae_options_take(opt, &o) != NULL) {
    return MBDAE_ERR_ARG;
  }
  snprintf(rec->problem, sizeof rec->problem, "%s", mbdae_problem_name(p));
  snprintf(rec->spec, sizeof rec->spec, "%s", mbdae_problem_spec(p));
  snprintf(rec->solver, sizeof rec->solver, "%s", solver->id);
  snprintf(rec->solver_title, sizeof rec->solver_title, "%s", solver->title ? solver->title : "");
  rec->rtol = o.rtol;
  rec->atol = o.atol;
  rec->h0 = o.h0;
  rec->hmax = o.hmax;
  rec->max_steps = o.max_steps;
  rec->neq = mbdae_problem_neq(p);
  mbdae_environment_get(&rec->env);
  rec->names = copy_names(p, rec->neq);
  rec->yref = malloc(sizeof(double) * (size_t)rec->neq);
  if (!rec->names || !rec->yref) {
    mbdae_record_free(rec);
    return MBDAE_ERR_NOMEM;
  }
  if (mbdae_problem_ref(p, rec->yref) != 0) {
    free(rec->yref);
    rec->yref = NULL;
  }
  return 0;
}

/* form=dummy: one run of mbdae_solve_dummy from p's initial values into rec->y, rec->switches. */
static int run_dummy(mbdae_record *rec, const mbdae_problem *p, const mbdae_solver_type *solver,
                     const mbdae_options *opt, mbdae_result *r)
{
  memset(r, 0, sizeof *r);
  double *yp = malloc(sizeof(double) * (size_t)rec->neq);
  int rc = yp ? mbdae_problem_init(p, rec->y, yp) : MBDAE_ERR_NOMEM;
  if (rc != 0) {
    r->status = rc < 0 ? rc : MBDAE_ERR_RES;
    snprintf(r->message, sizeof r->message, "initial values: %s", mbdae_strerror(rc));
  } else {
    int switches = 0;
    rc = mbdae_solve_dummy(p, solver, 0.0, opt, rec->y, yp, r, &switches);
    rec->switches = switches;
  }
  free(yp);
  return r->status;
}

/* mbdae_record_run into the library's own record. */
static int run_full(mbdae_record *rec, const mbdae_problem *p, const mbdae_solver_type *solver,
                    const mbdae_options *opt, int repeats)
{
  int rc = init_full(rec, p, solver, opt);
  if (rc != 0) {
    return rc;
  }
  rec->y = calloc((size_t)rec->neq, sizeof(double));
  if (!rec->y) {
    mbdae_record_free(rec);
    return MBDAE_ERR_NOMEM;
  }
  mbdae_result r;
  rec->status = dummy_form(p) ? run_dummy(rec, p, solver, opt, &r)
                              : mbdae_solve_with(p, solver, opt, repeats, rec->y, NULL, &r);
  snprintf(rec->message, sizeof rec->message, "%s", r.message);
  rec->stats = r.stats;
  rec->repeats = r.repeats;
  if (r.repeats == 0) { /* refused before any integration (bad options, out of memory) */
    free(rec->y);
    rec->y = NULL;
    return rec->status;
  }
  rec->t = r.t;
  rec->h = r.h;
  rec->cpu_seconds = r.cpu_seconds;
  rec->cpu_min = r.cpu_min;
  rec->cpu_max = r.cpu_max;
  rec->drift_pos_max = r.drift_pos_max;
  rec->drift_vel_max = r.drift_vel_max;
  rec->drift_pos_end = r.drift_pos_end;
  rec->drift_vel_end = r.drift_vel_end;
  rec->drift_steps = r.drift_steps;
  if (!dummy_form(p)) {
    rec->tscd = r.tscd;
    rec->tmescd = r.tmescd;
    rec->tscd_rms = r.tscd_rms;
  }
  if (rec->status == 0 && rec->yref) {
    rec->scd = mbdae_scd(p, rec->y, rec->yref);
    rec->mescd = mbdae_mescd(p, rec->y, rec->yref, rec->rtol, rec->atol);
  }
  return rec->status;
}

/* The caller's record gets the library's as far as its size; a refused size leaves it as it is. */
int mbdae_record_init(mbdae_record *rec, const mbdae_problem *p, const mbdae_solver_type *solver,
                      const mbdae_options *opt)
{
  if (mbdae_record_invalid(rec)) {
    return MBDAE_ERR_ARG;
  }
  mbdae_record full;
  int rc = init_full(&full, p, solver, opt);
  mbdae_struct_give(&full, rec, rec->size);
  return rc;
}

int mbdae_record_run(mbdae_record *rec, const mbdae_problem *p, const mbdae_solver_type *solver,
                     const mbdae_options *opt, int repeats)
{
  if (mbdae_record_invalid(rec)) {
    return MBDAE_ERR_ARG;
  }
  mbdae_record full;
  int rc = run_full(&full, p, solver, opt, repeats);
  mbdae_struct_give(&full, rec, rec->size);
  return rc;
}

/* ---- a record against a problem ----------------------------------------------------------- */

int mbdae_record_fits(const mbdae_record *caller, const mbdae_problem *p, char *why, size_t len)
{
  mbdae_record full;
  const char *bad = mbdae_record_take(caller, &full);
  if (bad) {
    snprintf(why, len, "mbdae_record: %s", bad);
    return -1;
  }
  const mbdae_record *rec = &full;
  int neq = mbdae_problem_neq(p);
  if ((rec->names || rec->y || rec->yref) && rec->neq != neq) {
    snprintf(why, len, "names, y and yref of %d entries, %.80s has %d", rec->neq,
             mbdae_problem_spec(p), neq);
    return -1;
  }
  for (int i = 0; rec->names && i < neq; i++) {
    const char *own = mbdae_problem_component(p, i);
    if (!own || strcmp(rec->names[i], own) != 0) {
      snprintf(why, len, "component %d is named %.63s, %.80s calls it %.63s", i + 1, rec->names[i],
               mbdae_problem_spec(p), own ? own : "(nothing)");
      return -1;
    }
  }
  return 0;
}
