/* The output folder of mbdae sweep: runs.csv, runs.json, <problem>-table.md and the gnuplot
 * script workprecision.gp that draws the work-precision diagrams from runs.csv.
 *
 * runs.csv follows RFC 4180 (fields with commas or quotes are quoted, quotes doubled), one line
 * per record: line breaks inside messages become spaces, so that shards concatenate with
 * `awk 'FNR > 1 || NR == 1' a/runs.csv b/runs.csv` (keep the first header line).  A missing value
 * (scd of a failed run) is an empty field; JSON writes it as null.
 *
 * The tables follow the run-characteristics tables of the Test Set for IVP Solvers, report 2.4
 * (e.g. Table II.17.2: solver, rtol, atol, h0, mescd, scd, steps, accept, #f, #Jac, #LU, CPU; the
 * solver named on the first row of its group), followed by the failed runs as Table II.19.1 lists
 * them (solver, tolerances, reason).  The figures follow the report's work-precision diagrams
 * (e.g. Figures II.17.3-II.17.6): scd or mescd horizontally, CPU time on a log axis vertically,
 * one curve per solver; a second pair puts residual evaluations on the vertical axis. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep.h"

/* The columns of runs.csv, in order; the keys of runs.json. */
static const char *const columns[] = {
    "problem", "spec",        "solver",  "rtol",    "atol",     "h0",      "status",
    "message", "scd",         "mescd",   "steps",   "accepted", "nres",    "njac",
    "nlu",     "cpu_seconds", "cpu_min", "cpu_max", "repeats",  "nres_fd",
};
enum { NCOLUMNS = (int)(sizeof columns / sizeof columns[0]) };

/* ---- CSV ---------------------------------------------------------------------------------- */

static void csv_text(FILE *out, const char *s)
{
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') {
      fputs("\"\"", out);
    } else {
      fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
    }
  }
  fputc('"', out);
}

static void csv_number(FILE *out, const char *fmt, double v)
{
  if (isfinite(v)) {
    fprintf(out, fmt, v);
  }
}

void sweep_csv_header(FILE *out)
{
  for (int c = 0; c < NCOLUMNS; c++) {
    fprintf(out, "%s%s", c ? "," : "", columns[c]);
  }
  fputc('\n', out);
}

void sweep_csv_row(FILE *out, const sweep_row *r)
{
  csv_text(out, r->problem);
  fputc(',', out);
  csv_text(out, r->spec);
  fputc(',', out);
  csv_text(out, r->solver);
  /* 10 digits: enough to tell the tolerances of the grid apart and to match the table ones */
  fprintf(out, ",%.10g,%.10g,%.10g,%s,", r->rtol, r->atol, r->h0, r->ok ? "ok" : "fail");
  csv_text(out, r->message);
  fputc(',', out);
  csv_number(out, "%.4f", r->scd);
  fputc(',', out);
  csv_number(out, "%.4f", r->mescd);
  fprintf(out, ",%ld,%ld,%ld,%ld,%ld,", r->steps, r->accepted, r->nres, r->njac, r->nlu);
  csv_number(out, "%.6g", r->cpu_seconds);
  fputc(',', out);
  csv_number(out, "%.6g", r->cpu_min);
  fputc(',', out);
  csv_number(out, "%.6g", r->cpu_max);
  fprintf(out, ",%d,%ld\n", r->repeats, r->nres_fd);
}

/* Split one line into at most max fields (quotes removed, doubled quotes undone), in place;
 * returns the number of fields, or -1 for an unterminated quote. */
static int csv_split(char *line, char **fields, int max)
{
  int n = 0;
  char *s = line;
  for (;;) {
    char *start = s, *dst = s;
    if (*s == '"') {
      s++;
      for (;;) {
        if (*s == '\0') {
          return -1;
        }
        if (*s == '"' && s[1] == '"') {
          *dst++ = '"';
          s += 2;
        } else if (*s == '"') {
          s++;
          break;
        } else {
          *dst++ = *s++;
        }
      }
    }
    while (*s && *s != ',') {
      *dst++ = *s++;
    }
    char sep = *s;
    *dst = '\0';
    if (n < max) {
      fields[n] = start;
    }
    n++;
    if (sep != ',') {
      return n;
    }
    s++;
  }
}

static double field_double(const char *s)
{
  char *end = NULL;
  double v = strtod(s, &end);
  return (end == s) ? NAN : v;
}

static void copy_field(char *dst, size_t len, const char *s) { snprintf(dst, len, "%s", s); }

int sweep_csv_read(const char *path, sweep_row **rows, int *nrows, char *msg, size_t msglen)
{
  *rows = NULL;
  *nrows = 0;
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msglen, "cannot read %s: %s", path, strerror(errno));
    return -1;
  }
  int where[NCOLUMNS]; /* field number of each column, from the header */
  int have_header = 0, cap = 0, lineno = 0, rc = 0;
  char *line = NULL;
  size_t linecap = 0;
  ssize_t len;
  char *fields[64];
  while ((len = getline(&line, &linecap, f)) >= 0) {
    lineno++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
      line[--len] = '\0';
    }
    if (len == 0) {
      continue;
    }
    int nf = csv_split(line, fields, 64);
    if (nf < 0 || nf > 64) {
      snprintf(msg, msglen, "%s:%d: not a CSV record", path, lineno);
      rc = -1;
      break;
    }
    if (strcmp(fields[0], columns[0]) == 0) { /* a header line: the first, or one of a shard */
      for (int c = 0; c < NCOLUMNS; c++) {
        where[c] = -1;
        for (int k = 0; k < nf; k++) {
          if (strcmp(fields[k], columns[c]) == 0) {
            where[c] = k;
          }
        }
        if (where[c] < 0) {
          snprintf(msg, msglen, "%s:%d: the header has no column '%s'", path, lineno, columns[c]);
          rc = -1;
        }
      }
      if (rc != 0) {
        break;
      }
      have_header = 1;
      continue;
    }
    if (!have_header) {
      snprintf(msg, msglen, "%s:%d: a header line (problem,spec,solver,...) must come first", path,
               lineno);
      rc = -1;
      break;
    }
    const char *v[NCOLUMNS];
    for (int c = 0; c < NCOLUMNS; c++) {
      v[c] = where[c] < nf ? fields[where[c]] : "";
    }
    if (*nrows == cap) {
      cap = cap ? 2 * cap : 64;
      sweep_row *grown = realloc(*rows, sizeof **rows * (size_t)cap);
      if (!grown) {
        snprintf(msg, msglen, "out of memory");
        rc = -1;
        break;
      }
      *rows = grown;
    }
    sweep_row *r = &(*rows)[(*nrows)++];
    memset(r, 0, sizeof *r);
    copy_field(r->problem, sizeof r->problem, v[0]);
    copy_field(r->spec, sizeof r->spec, v[1]);
    copy_field(r->solver, sizeof r->solver, v[2]);
    r->rtol = field_double(v[3]);
    r->atol = field_double(v[4]);
    r->h0 = field_double(v[5]);
    r->ok = strcmp(v[6], "ok") == 0;
    copy_field(r->message, sizeof r->message, v[7]);
    r->scd = field_double(v[8]);
    r->mescd = field_double(v[9]);
    r->steps = strtol(v[10], NULL, 10);
    r->accepted = strtol(v[11], NULL, 10);
    r->nres = strtol(v[12], NULL, 10);
    r->njac = strtol(v[13], NULL, 10);
    r->nlu = strtol(v[14], NULL, 10);
    r->cpu_seconds = field_double(v[15]);
    r->cpu_min = field_double(v[16]);
    r->cpu_max = field_double(v[17]);
    r->repeats = (int)strtol(v[18], NULL, 10);
    r->nres_fd = strtol(v[19], NULL, 10);
  }
  free(line);
  fclose(f);
  if (rc != 0) {
    free(*rows);
    *rows = NULL;
    *nrows = 0;
  }
  return rc;
}

/* ---- JSON --------------------------------------------------------------------------------- */

int sweep_write_json(const char *path, const sweep_row *rows, int nrows)
{
  FILE *out = fopen(path, "w");
  if (!out) {
    return -1;
  }
  fputs("[\n", out);
  for (int k = 0; k < nrows; k++) {
    const sweep_row *r = &rows[k];
    fputs("  {\"problem\": ", out);
    json_string(out, r->problem);
    json_field_string(out, "spec", r->spec);
    json_field_string(out, "solver", r->solver);
    json_field_number(out, "rtol", r->rtol);
    json_field_number(out, "atol", r->atol);
    json_field_number(out, "h0", r->h0);
    fprintf(out, ", \"status\": \"%s\", \"message\": ", r->ok ? "ok" : "fail");
    json_string(out, r->message);
    json_field_number(out, "scd", r->scd);
    json_field_number(out, "mescd", r->mescd);
    fprintf(out, ", \"steps\": %ld, \"accepted\": %ld, \"nres\": %ld, \"njac\": %ld, \"nlu\": %ld",
            r->steps, r->accepted, r->nres, r->njac, r->nlu);
    json_field_number(out, "cpu_seconds", r->cpu_seconds);
    json_field_number(out, "cpu_min", r->cpu_min);
    json_field_number(out, "cpu_max", r->cpu_max);
    fprintf(out, ", \"repeats\": %d, \"nres_fd\": %ld}%s\n", r->repeats, r->nres_fd,
            k + 1 < nrows ? "," : "");
  }
  fputs("]\n", out);
  return fclose(out) == 0 ? 0 : -1;
}

/* ---- run-characteristics table ---------------------------------------------------------- */

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

/* The reason of a failure without the "t = ..., h = ...: " of mbdae_fail, to group by. */
static const char *failure_reason(const char *message)
{
  const char *colon = strstr(message, ": ");
  return (strncmp(message, "t = ", 4) == 0 && colon) ? colon + 2 : message;
}

static int row_of(const sweep_row *r, const mbdae_problem *p)
{
  return strcmp(r->problem, mbdae_problem_name(p)) == 0 &&
         strcmp(r->spec, mbdae_problem_spec(p)) == 0;
}

/* The solvers of p's rows in their first order of appearance; returns how many (at most max). */
static int solvers_of(const mbdae_problem *p, const sweep_row *rows, int nrows, const char **out,
                      int max)
{
  int n = 0;
  for (int k = 0; k < nrows; k++) {
    if (!row_of(&rows[k], p)) {
      continue;
    }
    int seen = 0;
    for (int i = 0; i < n && !seen; i++) {
      seen = strcmp(out[i], rows[k].solver) == 0;
    }
    if (!seen && n < max) {
      out[n++] = rows[k].solver;
    }
  }
  return n;
}

/* -0.001 prints as -0.00 with %.2f; the report prints 0.00. */
static double no_negative_zero(double v) { return fabs(v) < 0.005 ? 0.0 : v; }

static void table_row(FILE *out, const sweep_row *r, int first)
{
  char rtol[24], atol[24], h0[24], digits[48];
  format_tolerance(rtol, sizeof rtol, r->rtol);
  format_tolerance(atol, sizeof atol, r->atol);
  format_tolerance(h0, sizeof h0, r->h0);
  if (!r->ok) {
    snprintf(digits, sizeof digits, "failed | failed");
  } else if (!isfinite(r->scd)) {
    snprintf(digits, sizeof digits, "no ref | no ref");
  } else {
    snprintf(digits, sizeof digits, "%.2f | %.2f", no_negative_zero(r->mescd),
             no_negative_zero(r->scd));
  }
  fprintf(out, "| %s | %s | %s | %s | %s | %ld | %ld | %ld | %ld | %ld | %.4f |\n",
          first ? r->solver : "", rtol, atol, h0, digits, r->steps, r->accepted,
          r->nres + r->nres_fd, r->njac, r->nlu, isfinite(r->cpu_seconds) ? r->cpu_seconds : 0.0);
}

/* Table II.19.1's layout: per solver and reason, the tolerances at which the runs failed. */
static void failed_runs(FILE *out, const mbdae_problem *p, const sweep_row *rows, int nrows)
{
  int header = 0;
  char *listed = calloc((size_t)nrows + 1, 1);
  if (!listed) {
    return;
  }
  for (int k = 0; k < nrows; k++) {
    const sweep_row *r = &rows[k];
    if (listed[k] || r->ok || !row_of(r, p)) {
      continue;
    }
    if (!header) {
      fprintf(out, "\nFailed runs (all tolerances of the sweep):\n\n| solver | rtol | reason "
                   "|\n|---|---|---|\n");
      header = 1;
    }
    const char *reason = failure_reason(r->message);
    fprintf(out, "| %s | ", r->solver);
    for (int j = k, first = 1; j < nrows; j++) {
      const sweep_row *s = &rows[j];
      if (!listed[j] && !s->ok && row_of(s, p) && strcmp(s->solver, r->solver) == 0 &&
          strcmp(failure_reason(s->message), reason) == 0) {
        char tol[24];
        format_tolerance(tol, sizeof tol, s->rtol);
        fprintf(out, "%s%s", first ? "" : ", ", tol);
        listed[j] = 1;
        first = 0;
      }
    }
    fputs(" | ", out);
    for (const char *c = reason; *c; c++) {
      if (*c == '|') { /* a bare | would end the cell */
        fputc('\\', out);
      }
      fputc(*c, out);
    }
    fputs(" |\n", out);
  }
  free(listed);
}

int sweep_write_table(const char *path, const mbdae_problem *p, const sweep_row *rows, int nrows)
{
  enum { MAX_SOLVERS = 32 };
  FILE *out = fopen(path, "w");
  if (!out) {
    return -1;
  }
  mbdae_tolerance_plan plan;
  mbdae_problem_tolerances(p, &plan);
  const char *solvers[MAX_SOLVERS];
  int nsolvers = solvers_of(p, rows, nrows, solvers, MAX_SOLVERS);
  int repeats = 0;
  for (int k = 0; k < nrows; k++) {
    repeats = (row_of(&rows[k], p) && rows[k].repeats > repeats) ? rows[k].repeats : repeats;
  }
  fprintf(out, "# %s: run characteristics\n\n", mbdae_problem_title(p));
  fprintf(out,
          "Problem `%s`: the runs of a `mbdae sweep` at the problem's table tolerances, in the "
          "layout of the run-characteristics tables of the Test Set for IVP Solvers (report "
          "2.4).  \n",
          mbdae_problem_spec(p));
  fprintf(out, "Reference: %s.  \n", mbdae_problem_ref_source(p));
  fprintf(out,
          "#f counts all residual evaluations (finite-difference Jacobians included); CPU in "
          "seconds on the machine that ran the sweep, %s.\n\n",
          repeats > 2 ? "median of the repeats without the fastest and the slowest"
                      : "one timed run");
  fputs("| solver | rtol | atol | h0 | mescd | scd | steps | accept | #f | #Jac | #LU | CPU |\n"
        "|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        out);
  char missing[256] = "";
  for (int t = 0; t < plan.ntable; t++) {
    int found = 0;
    for (int k = 0; k < nrows && !found; k++) {
      found = row_of(&rows[k], p) && same_tolerance(rows[k].rtol, plan.table_rtol[t]);
    }
    if (!found) {
      size_t used = strlen(missing);
      char tol[24];
      format_tolerance(tol, sizeof tol, plan.table_rtol[t]);
      snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", tol);
    }
  }
  for (int s = 0; s < nsolvers; s++) {
    int first = 1;
    for (int t = 0; t < plan.ntable; t++) {
      for (int k = 0; k < nrows; k++) {
        const sweep_row *r = &rows[k];
        if (row_of(r, p) && strcmp(r->solver, solvers[s]) == 0 &&
            same_tolerance(r->rtol, plan.table_rtol[t])) {
          table_row(out, r, first);
          first = 0;
          break;
        }
      }
    }
  }
  if (missing[0]) {
    fprintf(out, "\nNot in this sweep: rtol = %s (see --m and --rtol).\n", missing);
  }
  failed_runs(out, p, rows, nrows);
  return fclose(out) == 0 ? 0 : -1;
}

/* ---- the gnuplot script ------------------------------------------------------------------- */

static void gp_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') {
      fputc('\\', out);
    }
    fputc(*s, out);
  }
  fputc('"', out);
}

/* The part of the script that does not depend on the sweep. */
static const char script_body[] =
    "formats = \"png svg\"   # drop svg to draw PNG files only\n"
    "\n"
    "set datafile separator comma\n"
    "set datafile columnheaders\n"
    "set style data linespoints\n"
    "set logscale y\n"
    "set format y \"10^{%L}\"\n"
    "set grid xtics ytics mytics\n"
    "set key top left box opaque\n"
    "set mxtics 2\n"
    "set offsets graph 0.03, graph 0.03, 0, 0   # keep the markers at the ends inside the frame\n"
    "# Failed runs: crosses in a strip at the bottom (second y axis, 0..1), one row per solver,\n"
    "# at -log10(rtol), the number of digits that was asked for.\n"
    "set y2range [0:1]\n"
    "unset y2tics\n"
    "set style line 1 lc rgb \"#0072b2\" lw 1.5 pt 7 ps 0.9\n"
    "set style line 2 lc rgb \"#d55e00\" lw 1.5 pt 5 ps 0.9\n"
    "set style line 3 lc rgb \"#009e73\" lw 1.5 pt 9 ps 1.1\n"
    "set style line 4 lc rgb \"#cc79a7\" lw 1.5 pt 11 ps 1.1\n"
    "set style line 5 lc rgb \"#e69f00\" lw 1.5 pt 13 ps 1.0\n"
    "set style line 6 lc rgb \"#56b4e9\" lw 1.5 pt 4 ps 0.9\n"
    "set style line 7 lc rgb \"#000000\" lw 1.5 pt 6 ps 0.9\n"
    "set style line 8 lc rgb \"#999999\" lw 1.5 pt 8 ps 0.9\n"
    "\n"
    "is_run(p, s) = strcol(\"problem\") eq p && strcol(\"solver\") eq s\n"
    "is_ok(p, s) = is_run(p, s) && strcol(\"status\") eq \"ok\"\n"
    "is_failed(p, s) = is_run(p, s) && strcol(\"status\") ne \"ok\"\n"
    "work(w) = (w == 1) ? column(\"cpu_seconds\") : column(\"nres\") + column(\"nres_fd\")\n"
    "measures = \"scd mescd\"\n"
    "array work_label[2] = [\"CPU time [s]\", \"residual evaluations\"]\n"
    "array work_title[2] = [\"CPU-time\", \"residual evaluations\"]\n"
    "array work_suffix[2] = [\"\", \"-nres\"]\n"
    "ns = words(solvers)\n"
    "array nok[ns]\n"
    "array nfailed[ns]\n"
    "\n"
    "do for [i = 1:words(problems)] {\n"
    "  p = word(problems, i)\n"
    "  total = 0\n"
    "  any_ok = 0\n"
    "  # points per solver: ok runs with a reference (scd), failed runs (an empty plot is an "
    "error)\n"
    "  do for [k = 1:ns] {\n"
    "    stats csv using (is_ok(p, word(solvers, k)) ? column(\"scd\") : NaN) nooutput\n"
    "    nok[k] = exists(\"STATS_records\") ? STATS_records : 0\n"
    "    stats csv using (is_failed(p, word(solvers, k)) ? 1 : NaN) nooutput\n"
    "    nfailed[k] = exists(\"STATS_records\") ? STATS_records : 0\n"
    "    total = total + nok[k] + nfailed[k]\n"
    "    any_ok = any_ok + nok[k]\n"
    "  }\n"
    "  if (total == 0) {\n"
    "    print sprintf(\"%s: nothing to draw (no runs in %s, or none with a reference)\", p, csv)\n"
    "  } else {\n"
    "    do for [j = 1:words(measures)] {\n"
    "      m = word(measures, j)\n"
    "      do for [w = 1:2] {\n"
    "        set autoscale xy\n"
    "        set xlabel m\n"
    "        set ylabel work_label[w]\n"
    "        if (any_ok == 0) {\n"
    "          set yrange [1:10]   # no successful run: an empty frame around the failures\n"
    "          set ylabel work_label[w].\" (no successful run)\"\n"
    "        }\n"
    "        set title sprintf(\"%s: work-precision diagram (%s versus %s)\", titles[i], m, "
    "work_title[w])\n"
    "        do for [f in formats] {\n"
    "          if (f eq \"svg\") {\n"
    "            set terminal svg size 800,600 enhanced font \"Helvetica,12\" background "
    "\"white\"\n"
    "          } else {\n"
    "            set terminal pngcairo size 800,600 enhanced font \"Helvetica,10\"\n"
    "          }\n"
    "          set output sprintf(\"%s-%s%s.%s\", p, m, work_suffix[w], f)\n"
    "          plot for [k = 1:ns] csv using (is_ok(p, word(solvers, k)) ? column(m) : "
    "NaN):(work(w)) \\\n"
    "                 ls k title (nok[k] > 0 ? word(solvers, k) : \"\"), \\\n"
    "               for [k = 1:ns] csv using (is_failed(p, word(solvers, k)) ? "
    "-log10(column(\"rtol\")) : NaN):(0.035 * k) \\\n"
    "                 axes x1y2 with points ls k pt 2 ps 1.5 lw 2 \\\n"
    "                 title (nfailed[k] > 0 ? sprintf(\"%s failed (at -log_{10} rtol)\", "
    "word(solvers, k)) : \"\")\n"
    "          unset output\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

int sweep_write_script(const char *path, const mbdae_problem *const *problems, int nproblems,
                       const char *const *solvers, int nsolvers)
{
  FILE *out = fopen(path, "w");
  if (!out) {
    return -1;
  }
  fputs("# Work-precision diagrams of a mbdae sweep, drawn from runs.csv in this folder.\n"
        "# Written by `mbdae sweep`; edit and rerun with:   gnuplot workprecision.gp\n"
        "# For every problem: <problem>-scd and <problem>-mescd against CPU time, and\n"
        "# <problem>-scd-nres and <problem>-mescd-nres against residual evaluations (the same on\n"
        "# every machine), one curve per solver, in the layout of the work-precision diagrams of\n"
        "# the Test Set for IVP Solvers, report 2.4 (e.g. Figures II.17.3-II.17.6).\n"
        "# Merged shards: concatenate their runs.csv keeping one header line,\n"
        "#   awk 'FNR > 1 || NR == 1' shard*/runs.csv > runs.csv\n"
        "# then run this script (or `mbdae sweep --report DIR`) where that runs.csv is.\n\n",
        out);
  fputs("csv = \"runs.csv\"\nproblems = \"", out);
  for (int i = 0; i < nproblems; i++) {
    fprintf(out, "%s%s", i ? " " : "", mbdae_problem_name(problems[i]));
  }
  fprintf(out, "\"\narray titles[%d] = [", nproblems);
  for (int i = 0; i < nproblems; i++) {
    fputs(i ? ", " : "", out);
    gp_string(out, mbdae_problem_title(problems[i]));
  }
  fputs("]\nsolvers = \"", out);
  for (int s = 0; s < nsolvers; s++) {
    fprintf(out, "%s%s", s ? " " : "", solvers[s]);
  }
  fputs("\"\n", out);
  fputs(script_body, out);
  return fclose(out) == 0 ? 0 : -1;
}

int make_dirs(const char *path)
{
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *s = buf + 1;; s++) {
    if (*s == '/' || *s == '\0') {
      char c = *s;
      *s = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        return -1;
      }
      *s = c;
      if (c == '\0') {
        break;
      }
    }
  }
  struct stat st;
  if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}
