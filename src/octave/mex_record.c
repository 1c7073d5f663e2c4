/* mex_record.c: run options from a struct and run records into structs (see mex_record.h).  The
 * record's CSV row and JSON come from the library's writers (mbdae_record_write_csv_row,
 * mbdae_record_write_json), so that mbdae_write_runs writes runs.csv rows the library reads back,
 * never a second list of columns. */
#include "mex_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const option_names[] = {"rtol",      "atol",   "h0",      "hmax",
                                           "max_steps", "linsys", "repeats", NULL};

static int linsys_kind(const char *s)
{
  for (int k = MBDAE_JAC_AUTO; k <= MBDAE_JAC_CONDENSED; k++) {
    if (strcmp(s, mbdae_jac_kind_name(k)) == 0) {
      return k;
    }
  }
  mx_fail("arg", "opts.linsys '%s': auto, dense, band, sparse or condensed", s);
}

static void check_fields(const mxArray *opts)
{
  for (int f = 0; f < mxGetNumberOfFields(opts); f++) {
    const char *name = mxGetFieldNameByNumber(opts, f);
    int known = 0;
    for (int k = 0; option_names[k]; k++) {
      known |= strcmp(name, option_names[k]) == 0;
    }
    if (!known) {
      mx_fail("arg", "opts.%s: unknown option (rtol, atol, h0, hmax, max_steps, linsys, repeats)",
              name);
    }
  }
}

static double field(const mxArray *opts, const char *name, double fallback)
{
  const mxArray *v = opts ? mxGetField(opts, 0, name) : NULL;
  if (!v) {
    return fallback;
  }
  char what[32];
  snprintf(what, sizeof what, "opts.%s", name);
  return mx_scalar(v, what);
}

void mx_options(const mxArray *opts, const mbdae_problem *p, mbdae_options *opt, int *repeats)
{
  if (opts && mxIsEmpty(opts) && !mxIsStruct(opts)) {
    opts = NULL;
  }
  if (opts && (!mxIsStruct(opts) || mxGetNumberOfElements(opts) != 1)) {
    mx_fail("arg", "opts: a struct (rtol, atol, h0, hmax, max_steps, linsys, repeats) expected");
  }
  if (opts) {
    check_fields(opts);
  }
  mbdae_options_default(opt);
  /* The test set's policy (mbdae_options_test_set: rtol 0 the run tolerance, atol = rtol,
   * h0 = h0_factor rtol), then the caller's atol and h0 over it. */
  double rtol = field(opts, "rtol", 0.0); /* 0: absent */
  if ((opts && mxGetField(opts, 0, "rtol") && !(rtol > 0.0)) ||
      mbdae_options_test_set(p, rtol, opt) != 0) {
    mx_fail("arg", "opts.rtol: a tolerance in (0, 1) expected");
  }
  opt->atol = field(opts, "atol", opt->atol);
  opt->h0 = field(opts, "h0", opt->h0);
  opt->hmax = field(opts, "hmax", 0);
  double steps = field(opts, "max_steps", 0), reps = field(opts, "repeats", 1);
  if (steps < 0 || steps > 1e15 || steps != floor(steps)) {
    mx_fail("arg", "opts.max_steps: a whole number >= 0 expected");
  }
  if (reps < 1 || reps > MBDAE_REPEATS_MAX || reps != floor(reps)) {
    mx_fail("arg", "opts.repeats: a whole number from 1 to %d expected", MBDAE_REPEATS_MAX);
  }
  opt->max_steps = (long)steps;
  *repeats = (int)reps;
  const mxArray *ls = opts ? mxGetField(opts, 0, "linsys") : NULL;
  opt->linsys = ls ? linsys_kind(mx_string(ls, "opts.linsys")) : MBDAE_JAC_AUTO;
}

/* ---- records -------------------------------------------------------------------------------- */

/* What a writer puts on a stream, as an mxArray string; NULL when out of memory. */
static mxArray *written(const mbdae_record *rec, int csv)
{
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  int rc = !mem ? -1
           : csv
               ? (mbdae_record_write_csv_header(mem, NULL) || mbdae_record_write_csv_row(mem, rec))
               : mbdae_record_write_json(mem, rec);
  if (!mem || fclose(mem) != 0 || rc != 0) {
    free(text);
    return NULL;
  }
  mxArray *s = mxCreateString(text);
  free(text);
  return s;
}

static void set_number(mxArray *s, const char *name, double v)
{
  mxSetField(s, 0, name, mxCreateDoubleScalar(v));
}

static void set_counters(mxArray *s, const mbdae_record *rec)
{
  const mbdae_stats *st = &rec->stats;
  set_number(s, "steps", (double)st->steps);
  set_number(s, "accepted", (double)st->accepted);
  set_number(s, "nres", (double)st->nres);
  set_number(s, "nres_fd", (double)st->nres_fd);
  set_number(s, "njac", (double)st->njac);
  set_number(s, "nlu", (double)st->nlu);
  set_number(s, "nerrfail", (double)st->nerrfail);
  set_number(s, "nconvfail", (double)st->nconvfail);
}

mxArray *mx_record_struct(const mbdae_record *rec)
{
  static const char *fields[] = {"problem",
                                 "spec",
                                 "solver",
                                 "solver_title",
                                 "rtol",
                                 "atol",
                                 "h0",
                                 "status",
                                 "code",
                                 "message",
                                 "t",
                                 "h",
                                 "y",
                                 "scd",
                                 "mescd",
                                 "steps",
                                 "accepted",
                                 "nres",
                                 "nres_fd",
                                 "njac",
                                 "nlu",
                                 "nerrfail",
                                 "nconvfail",
                                 "cpu_seconds",
                                 "repeats",
                                 "drift_pos_max",
                                 "drift_vel_max",
                                 "drift_pos_end",
                                 "drift_vel_end",
                                 "drift_steps",
                                 "csv",
                                 "json"};
  mxArray *csv = written(rec, 1), *json = written(rec, 0);
  if (!csv || !json) {
    return NULL;
  }
  mxArray *s = mxCreateStructMatrix(1, 1, sizeof fields / sizeof fields[0], fields);
  mxSetField(s, 0, "problem", mxCreateString(rec->problem));
  mxSetField(s, 0, "spec", mxCreateString(rec->spec));
  mxSetField(s, 0, "solver", mxCreateString(rec->solver));
  mxSetField(s, 0, "solver_title", mxCreateString(rec->solver_title));
  set_number(s, "rtol", rec->rtol);
  set_number(s, "atol", rec->atol);
  set_number(s, "h0", rec->h0);
  set_number(s, "status", rec->status);
  mxSetField(s, 0, "code", mxCreateString(mbdae_strcode(rec->status)));
  mxSetField(s, 0, "message", mxCreateString(rec->message));
  set_number(s, "t", rec->t);
  set_number(s, "h", rec->h);
  mxSetField(s, 0, "y",
             rec->y ? mx_column(rec->y, rec->neq, 0) : mxCreateDoubleMatrix(0, 0, mxREAL));
  set_number(s, "scd", rec->scd);
  set_number(s, "mescd", rec->mescd);
  set_counters(s, rec);
  set_number(s, "cpu_seconds", rec->cpu_seconds);
  set_number(s, "repeats", rec->repeats);
  set_number(s, "drift_pos_max", rec->drift_pos_max);
  set_number(s, "drift_vel_max", rec->drift_vel_max);
  set_number(s, "drift_pos_end", rec->drift_pos_end);
  set_number(s, "drift_vel_end", rec->drift_vel_end);
  set_number(s, "drift_steps", (double)rec->drift_steps);
  mxSetField(s, 0, "csv", csv);
  mxSetField(s, 0, "json", json);
  return s;
}
