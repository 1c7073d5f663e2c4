/* The run-characteristics table of one problem in Markdown, from run records.
 *
 * The layout follows the run-characteristics tables of the Test Set for IVP Solvers, report 2.4
 * (e.g. Table II.17.2: solver, rtol, atol, h0, mescd, scd, steps, accept, #f, #Jac, #LU, CPU; the
 * solver named on the first row of its group), at the problem's table tolerances
 * (mbdae_tolerance_plan), followed by the failed runs as Table II.19.1 lists them (solver,
 * tolerances, reason).  One column is ours, after CPU: drift, the largest position-constraint
 * residual max |g| over the run (mbdae_record.drift_pos_max; "-" without constraints). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "record_columns.h"

/* 1e-4 for a power of ten, 5.62e-5 otherwise (the report prints 10^{-4}). */
static void format_tolerance(char *buf, size_t len, double v)
{
  double e = log10(v);
  if (fabs(e - round(e)) < 1e-9) {
    snprintf(buf, len, "1e%d", (int)round(e));
    return;
  }
  int exponent = (int)floor(e);
  double mantissa = v / pow(10.0, exponent);
  if (mantissa >= 9.995) { /* rounds up to the next power */
    mantissa /= 10.0;
    exponent++;
  }
  snprintf(buf, len, "%.3ge%d", mantissa, exponent);
}

static int same_tolerance(double a, double b) { return fabs(a - b) <= 1e-6 * fabs(b); }

/* The reason of a failure without the "t = ..., h = ...: " of the step driver, to group by. */
static const char *failure_reason(const mbdae_record *r)
{
  const char *colon = strstr(r->message, ": ");
  if (!r->message[0]) {
    return mbdae_strerror(r->status);
  }
  return (strncmp(r->message, "t = ", 4) == 0 && colon) ? colon + 2 : r->message;
}

static int record_of(const mbdae_record *r, const mbdae_problem *p)
{
  return strcmp(r->problem, mbdae_problem_name(p)) == 0 &&
         strcmp(r->spec, mbdae_problem_spec(p)) == 0;
}

/* -0.001 prints as -0.00 with %.2f; the report prints 0.00. */
static double no_negative_zero(double v) { return fabs(v) < 0.005 ? 0.0 : v; }

int mbdae_record_write_table_row(FILE *out, const mbdae_record *caller, int first)
{
  mbdae_record full;
  if (mbdae_record_take(caller, &full) != NULL) {
    return -1;
  }
  const mbdae_record *r = &full;
  char rtol[24], atol[24], h0[24], digits[48], tscd[24] = "-";
  const mbdae_stats *st = &r->stats;
  format_tolerance(rtol, sizeof rtol, r->rtol);
  format_tolerance(atol, sizeof atol, r->atol);
  format_tolerance(h0, sizeof h0, r->h0);
  if (r->status != MBDAE_OK) {
    snprintf(digits, sizeof digits, "failed | failed");
  } else if (!isfinite(r->scd)) {
    snprintf(digits, sizeof digits, "no ref | no ref");
  } else {
    snprintf(digits, sizeof digits, "%.2f | %.2f", no_negative_zero(r->mescd),
             no_negative_zero(r->scd));
  }
  if (r->status == MBDAE_OK && isfinite(r->tscd)) { /* "-": no trajectory digits */
    snprintf(tscd, sizeof tscd, "%.2f", no_negative_zero(r->tscd));
  }
  char drift[24] = "-";
  if (isfinite(r->drift_pos_max)) {
    snprintf(drift, sizeof drift, "%.2e", r->drift_pos_max);
  }
  fprintf(out, "| %s | %s | %s | %s | %s | %s | %ld | %ld | %ld | %ld | %ld | %.4f | %s |\n",
          first ? r->solver : "", rtol, atol, h0, digits, tscd, st->steps, st->accepted,
          st->nres + st->nres_fd, st->njac, st->nlu,
          isfinite(r->cpu_seconds) ? r->cpu_seconds : 0.0, drift);
  return ferror(out) ? -1 : 0;
}

/* One cell of text: a bare | would end the cell. */
static void cell(FILE *out, const char *s)
{
  for (; *s; s++) {
    if (*s == '|') {
      fputc('\\', out);
    }
    fputc(*s, out);
  }
}

/* The tolerances at which solver r->solver failed on p for r's reason, marking them listed. */
static void failed_tolerances(FILE *out, const mbdae_problem *p, const mbdae_record *recs, size_t n,
                              size_t k, char *listed)
{
  const mbdae_record *r = &recs[k];
  const char *reason = failure_reason(r);
  for (size_t j = k, first = 1; j < n; j++) {
    const mbdae_record *s = &recs[j];
    if (!listed[j] && s->status != MBDAE_OK && record_of(s, p) &&
        strcmp(s->solver, r->solver) == 0 && strcmp(failure_reason(s), reason) == 0) {
      char tol[24];
      format_tolerance(tol, sizeof tol, s->rtol);
      fprintf(out, "%s%s", first ? "" : ", ", tol);
      listed[j] = 1;
      first = 0;
    }
  }
}

/* Table II.19.1's layout: per solver and reason, the tolerances at which the runs failed. */
static void failed_runs(FILE *out, const mbdae_problem *p, const mbdae_record *recs, size_t n)
{
  int header = 0;
  char *listed = calloc(n + 1, 1);
  if (!listed) {
    return;
  }
  for (size_t k = 0; k < n; k++) {
    const mbdae_record *r = &recs[k];
    if (listed[k] || r->status == MBDAE_OK || !record_of(r, p)) {
      continue;
    }
    if (!header) {
      fputs("\nFailed runs (all tolerances of the records):\n\n| solver | rtol | reason | code |\n"
            "|---|---|---|---|\n",
            out);
      header = 1;
    }
    fprintf(out, "| %s | ", r->solver);
    failed_tolerances(out, p, recs, n, k, listed);
    fputs(" | ", out);
    cell(out, failure_reason(r));
    fprintf(out, " | %s |\n", mbdae_strcode(r->status));
  }
  free(listed);
}

/* The table tolerances of p that no record of p was run at, "1e-4, 1e-7", into buf. */
static void missing_tolerances(char *buf, size_t len, const mbdae_problem *p,
                               const mbdae_tolerance_plan *plan, const mbdae_record *recs, size_t n)
{
  buf[0] = '\0';
  for (int t = 0; t < plan->ntable; t++) {
    int found = 0;
    for (size_t k = 0; k < n && !found; k++) {
      found = record_of(&recs[k], p) && same_tolerance(recs[k].rtol, plan->table_rtol[t]);
    }
    size_t used = strlen(buf);
    if (!found && used < len) {
      char tol[24];
      format_tolerance(tol, sizeof tol, plan->table_rtol[t]);
      snprintf(buf + used, len - used, "%s%s", used ? ", " : "", tol);
    }
  }
}

static void table_intro(FILE *out, const mbdae_problem *p, const mbdae_record *recs, size_t n)
{
  int repeats = 0;
  for (size_t k = 0; k < n; k++) {
    repeats = (record_of(&recs[k], p) && recs[k].repeats > repeats) ? recs[k].repeats : repeats;
  }
  fprintf(out, "# %s: run characteristics\n\n", mbdae_problem_title(p));
  fprintf(out,
          "Problem `%s`: the runs at the problem's table tolerances, in the "
          "layout of the run-characteristics tables of the Test Set for IVP Solvers (report "
          "2.4).  \n",
          mbdae_problem_spec(p));
  fprintf(out, "Reference: %s.  \n", mbdae_problem_ref_source(p));
  fprintf(out,
          "#f counts all residual evaluations (finite-difference Jacobians included); CPU in "
          "seconds on the machine that made the runs, %s; drift is the largest |g| of the position "
          "constraints over the run's accepted states (- for a form without constraints).\n\n",
          repeats > 2 ? "median of the repeats without the fastest and the slowest"
                      : "one timed run");
  fputs(
      "| solver | rtol | atol | h0 | mescd | scd | tscd | steps | accept | #f | #Jac | #LU | CPU | "
      "drift |\n|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      out);
}

/* Under the table: what scd and mescd are (metrics.c, after the test set's report, part I). */
static void digits_legend(FILE *out)
{
  fputs("\nscd: correct significant digits at t_end, `-log10 max_i |y_i - yref_i| / |yref_i|` "
        "over the problem's scd components; mescd: the mixed absolute-relative version, "
        "`-log10 max_i |y_i - yref_i| / (atol/rtol + |yref_i|)` over all components (Test Set for "
        "IVP Solvers, release 2.4); tscd: the least scd along the solution, over the reference "
        "trajectory's output times (refsol/<problem>_traj.txt; - for none).\n",
        out);
}

/* mbdae_record_write_table on the library's own records. */
static void write_table(FILE *out, const mbdae_problem *p, const mbdae_record *recs, size_t n)
{
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  table_intro(out, p, recs, n);
  /* solvers in their first order of appearance: a solver's group starts at its first record */
  for (size_t s = 0; s < n; s++) {
    int first_of_solver = record_of(&recs[s], p);
    for (size_t j = 0; j < s && first_of_solver; j++) {
      first_of_solver = !(record_of(&recs[j], p) && strcmp(recs[j].solver, recs[s].solver) == 0);
    }
    for (int t = 0, first = 1; first_of_solver && t < plan.ntable; t++) {
      for (size_t k = 0; k < n; k++) {
        const mbdae_record *r = &recs[k];
        if (record_of(r, p) && strcmp(r->solver, recs[s].solver) == 0 &&
            same_tolerance(r->rtol, plan.table_rtol[t])) {
          mbdae_record_write_table_row(out, r, first);
          first = 0;
          break;
        }
      }
    }
  }
  digits_legend(out);
  char missing[256];
  missing_tolerances(missing, sizeof missing, p, &plan, recs, n);
  if (missing[0]) {
    fprintf(out, "\nNot among the runs: rtol = %s.\n", missing);
  }
  failed_runs(out, p, recs, n);
}

int mbdae_record_write_table(FILE *out, const mbdae_problem *p, const mbdae_record *recs, size_t n)
{
  const char *why;
  mbdae_record *full = mbdae_records_take(recs, n, &why);
  if (!full) {
    return -1;
  }
  write_table(out, p, full, n);
  free(full);
  return ferror(out) ? -1 : 0;
}
