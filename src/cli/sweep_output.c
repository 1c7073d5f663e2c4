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
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep.h"

/* ---- the column table --------------------------------------------------------------------- */

/* How a column is written and what the reader accepts in it. */
typedef enum column_kind {
  KIND_ID,      /* a name: 1..size-1 characters of [A-Za-z0-9_:=,.-] (safe in gnuplot and files) */
  KIND_TEXT,    /* free text under size characters, RFC 4180 quoted when needed */
  KIND_STATUS,  /* "ok" or "fail" (the int ok) */
  KIND_TOL,     /* a positive finite number, %.10g */
  KIND_DIGITS,  /* scd, mescd: a finite number with 4 decimals, or empty (NaN) */
  KIND_SECONDS, /* a finite number >= 0, %.6g, or empty (NaN) */
  KIND_COUNT,   /* a counter: an integer from 0 to COUNT_MAX */
  KIND_REPEATS  /* an integer from 0 to REPEATS_MAX */
} column_kind;

typedef struct column {
  const char *name; /* header of runs.csv, key of runs.json */
  column_kind kind;
  size_t offset, size; /* of the field in sweep_row */
} column;

#define COLUMN(field, kind)                                                                        \
  {                                                                                                \
#field, kind, offsetof(sweep_row, field), sizeof(((sweep_row *)0)->field)                      \
  }

/* The columns of runs.csv, in order; the keys of runs.json.  Writer and reader both go through
 * this table; the reader finds the columns by name. */
static const column columns[] = {
    COLUMN(problem, KIND_ID),
    COLUMN(spec, KIND_ID),
    COLUMN(solver, KIND_ID),
    COLUMN(rtol, KIND_TOL),
    COLUMN(atol, KIND_TOL),
    COLUMN(h0, KIND_TOL),
    {"status", KIND_STATUS, offsetof(sweep_row, ok), sizeof(int)},
    COLUMN(message, KIND_TEXT),
    COLUMN(scd, KIND_DIGITS),
    COLUMN(mescd, KIND_DIGITS),
    COLUMN(steps, KIND_COUNT),
    COLUMN(accepted, KIND_COUNT),
    COLUMN(nres, KIND_COUNT),
    COLUMN(njac, KIND_COUNT),
    COLUMN(nlu, KIND_COUNT),
    COLUMN(cpu_seconds, KIND_SECONDS),
    COLUMN(cpu_min, KIND_SECONDS),
    COLUMN(cpu_max, KIND_SECONDS),
    COLUMN(repeats, KIND_REPEATS),
    COLUMN(nres_fd, KIND_COUNT),
};
enum { NCOLUMNS = (int)(sizeof columns / sizeof columns[0]), MAX_FIELDS = 64 };

/* Far above any run (10^15 residual evaluations), far below LONG_MAX: sums of counters in the
 * tables cannot overflow. */
static const long COUNT_MAX = 1000000000000000L;
enum { REPEATS_MAX = 1000000 };

static const char *field_text(const sweep_row *r, const column *c)
{
  return (const char *)r + c->offset;
}

static double field_real(const sweep_row *r, const column *c)
{
  double v;
  memcpy(&v, (const char *)r + c->offset, sizeof v);
  return v;
}

static long field_long(const sweep_row *r, const column *c)
{
  long v;
  memcpy(&v, (const char *)r + c->offset, sizeof v);
  return v;
}

static int field_int(const sweep_row *r, const column *c)
{
  int v;
  memcpy(&v, (const char *)r + c->offset, sizeof v);
  return v;
}

int sweep_safe_id(const char *s)
{
  if (!s || !*s) {
    return 0;
  }
  for (; *s; s++) {
    if (!isalnum((unsigned char)*s) && !strchr("_:=,.-", *s)) {
      return 0;
    }
  }
  return 1;
}

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

int sweep_csv_header(FILE *out)
{
  for (int c = 0; c < NCOLUMNS; c++) {
    fprintf(out, "%s%s", c ? "," : "", columns[c].name);
  }
  fputc('\n', out);
  return ferror(out) ? -1 : 0;
}

int sweep_csv_row(FILE *out, const sweep_row *r)
{
  for (int i = 0; i < NCOLUMNS; i++) {
    const column *c = &columns[i];
    if (i > 0) {
      fputc(',', out);
    }
    switch (c->kind) {
    case KIND_ID:
    case KIND_TEXT:
      csv_text(out, field_text(r, c));
      break;
    case KIND_STATUS:
      fputs(field_int(r, c) ? "ok" : "fail", out);
      break;
    case KIND_TOL: /* 10 digits tell the grid's tolerances apart and match the table ones */
      fprintf(out, "%.10g", field_real(r, c));
      break;
    case KIND_DIGITS:
      csv_number(out, "%.4f", field_real(r, c));
      break;
    case KIND_SECONDS:
      csv_number(out, "%.6g", field_real(r, c));
      break;
    case KIND_COUNT:
      fprintf(out, "%ld", field_long(r, c));
      break;
    case KIND_REPEATS:
      fprintf(out, "%d", field_int(r, c));
      break;
    }
  }
  fputc('\n', out);
  return ferror(out) ? -1 : 0;
}

/* Split one line into at most max fields (quotes removed, doubled quotes undone), in place;
 * returns the number of fields, or -1 for an unterminated quote or text after a closing one. */
static int csv_split(char *line, char **fields, int max)
{
  int n = 0;
  char *s = line;
  for (;;) {
    char *start = s, *dst = s;
    if (*s == '"') {
      for (s++;; s++) {
        if (*s == '\0') {
          return -1;
        }
        if (*s == '"' && s[1] != '"') {
          break;
        }
        s += *s == '"'; /* a doubled quote stands for one */
        *dst++ = *s;
      }
      s++;
      if (*s && *s != ',') {
        return -1;
      }
    }
    while (*s && *s != ',') {
      *dst++ = *s++;
    }
    char sep = *s;
    *dst = '\0';
    if (n == max) {
      return -1;
    }
    fields[n++] = start;
    if (sep != ',') {
      return n;
    }
    s++;
  }
}

/* A whole field as a number: no trailing text, no overflow. */
static int parse_real(const char *s, double *v)
{
  char *end = NULL;
  errno = 0;
  *v = strtod(s, &end);
  return end != s && *end == '\0' && errno != ERANGE && isfinite(*v) ? 0 : -1;
}

static int parse_long(const char *s, long lo, long hi, long *v)
{
  char *end = NULL;
  errno = 0;
  *v = strtol(s, &end, 10);
  return end != s && *end == '\0' && errno != ERANGE && *v >= lo && *v <= hi ? 0 : -1;
}

/* Store text s in column c of r; 0, or -1 with the reason in why. */
static int read_field(sweep_row *r, const column *c, const char *s, char *why, size_t len)
{
  char *dst = (char *)r + c->offset;
  double v = NAN;
  long n = 0;
  int bad = 0;
  switch (c->kind) {
  case KIND_ID:
  case KIND_TEXT:
    bad = strlen(s) >= c->size || (c->kind == KIND_ID && !sweep_safe_id(s));
    if (!bad) {
      memcpy(dst, s, strlen(s) + 1);
    }
    break;
  case KIND_STATUS:
    bad = strcmp(s, "ok") != 0 && strcmp(s, "fail") != 0;
    n = strcmp(s, "ok") == 0;
    memcpy(dst, &(int){(int)n}, sizeof(int));
    break;
  case KIND_TOL:
  case KIND_DIGITS:
  case KIND_SECONDS:
    bad = (*s || c->kind == KIND_TOL) && parse_real(s, &v) != 0;
    bad = bad || (c->kind == KIND_TOL && !(v > 0.0)) || (c->kind == KIND_SECONDS && v < 0.0);
    memcpy(dst, &v, sizeof v);
    break;
  case KIND_COUNT:
    bad = parse_long(s, 0, COUNT_MAX, &n) != 0;
    memcpy(dst, &n, sizeof n);
    break;
  case KIND_REPEATS:
    bad = parse_long(s, 0, REPEATS_MAX, &n) != 0;
    memcpy(dst, &(int){(int)n}, sizeof(int));
    break;
  }
  if (bad) {
    static const char *const expected[] = {"a name of [A-Za-z0-9_:=,.-]",
                                           "text",
                                           "ok or fail",
                                           "a positive finite number",
                                           "a finite number or nothing",
                                           "a number >= 0 or nothing",
                                           "a whole number >= 0",
                                           "a whole number >= 0"};
    snprintf(why, len, "column %s: '%.40s%s' is not %s", c->name, s, strlen(s) > 40 ? "..." : "",
             expected[c->kind]);
    if (c->kind == KIND_ID || c->kind == KIND_TEXT) {
      size_t used = strlen(why);
      snprintf(why + used, len - used, " under %zu characters", c->size);
    }
  }
  return bad ? -1 : 0;
}

/* A header line: every column of the table once, nothing else; where[c] is its field number. */
static int read_header(char **fields, int nf, int *where, char *why, size_t len)
{
  for (int c = 0; c < NCOLUMNS; c++) {
    where[c] = -1;
  }
  for (int k = 0; k < nf; k++) {
    int c = 0;
    while (c < NCOLUMNS && strcmp(fields[k], columns[c].name) != 0) {
      c++;
    }
    if (c == NCOLUMNS || where[c] >= 0) {
      snprintf(why, len, "%s column '%.40s' in the header", c == NCOLUMNS ? "unknown" : "repeated",
               fields[k]);
      return -1;
    }
    where[c] = k;
  }
  for (int c = 0; c < NCOLUMNS; c++) {
    if (where[c] < 0) {
      snprintf(why, len, "the header has no column '%s'", columns[c].name);
      return -1;
    }
  }
  return 0;
}

/* One data line into r; the spec must be the problem's (its id, alone or before ':'). */
static int read_row(char **fields, int nf, const int *where, sweep_row *r, char *why, size_t len)
{
  if (nf != NCOLUMNS) {
    snprintf(why, len, "%d fields, the header has %d", nf, NCOLUMNS);
    return -1;
  }
  memset(r, 0, sizeof *r);
  for (int c = 0; c < NCOLUMNS; c++) {
    if (read_field(r, &columns[c], fields[where[c]], why, len) != 0) {
      return -1;
    }
  }
  size_t n = strlen(r->problem);
  if (strncmp(r->spec, r->problem, n) != 0 || (r->spec[n] != '\0' && r->spec[n] != ':')) {
    snprintf(why, len, "spec %.60s is not a configuration of problem %.31s", r->spec, r->problem);
    return -1;
  }
  return 0;
}

static int append_row(sweep_row **rows, int *nrows, int *cap, const sweep_row *r)
{
  if (*nrows == *cap) {
    if (*cap > INT_MAX / 2) {
      return -1;
    }
    int grown_cap = *cap ? 2 * *cap : 64;
    sweep_row *grown = realloc(*rows, sizeof **rows * (size_t)grown_cap);
    if (!grown) {
      return -1;
    }
    *rows = grown;
    *cap = grown_cap;
  }
  (*rows)[(*nrows)++] = *r;
  return 0;
}

/* One line of text (len bytes, no line break) into the header (*have_header set) or a row. */
static int read_line(char *line, size_t len, int *where, int *have_header, sweep_row **rows,
                     int *nrows, int *cap, char *why, size_t whylen)
{
  char *fields[MAX_FIELDS];
  int nf = strlen(line) == len ? csv_split(line, fields, MAX_FIELDS) : -1;
  sweep_row r;
  if (nf < 0) {
    snprintf(why, whylen, "not a CSV record (a stray quote, a NUL byte, over %d fields)",
             MAX_FIELDS);
    return -1;
  }
  int named = 0; /* a header starts with a column's name (in any order); a row cannot */
  for (int c = 0; c < NCOLUMNS && !named; c++) {
    named = strcmp(fields[0], columns[c].name) == 0;
  }
  if (named) { /* the first header, or a shard's */
    *have_header = 1;
    return read_header(fields, nf, where, why, whylen);
  }
  if (!*have_header) {
    snprintf(why, whylen, "a header line (problem,spec,solver,...) must come first");
    return -1;
  }
  if (read_row(fields, nf, where, &r, why, whylen) != 0) {
    return -1;
  }
  if (append_row(rows, nrows, cap, &r) != 0) {
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  return 0;
}

int sweep_csv_parse(FILE *in, const char *name, sweep_row **rows, int *nrows, char *msg,
                    size_t msglen)
{
  *rows = NULL;
  *nrows = 0;
  int where[NCOLUMNS], have_header = 0, cap = 0, lineno = 0, rc = 0;
  char *line = NULL, why[200];
  size_t linecap = 0;
  ssize_t len;
  while (rc == 0 && (len = getline(&line, &linecap, in)) >= 0) {
    lineno++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
      line[--len] = '\0';
    }
    if (len > 0 && read_line(line, (size_t)len, where, &have_header, rows, nrows, &cap, why,
                             sizeof why) != 0) {
      snprintf(msg, msglen, "%s:%d: %s", name, lineno, why);
      rc = -1;
    }
  }
  if (rc == 0 && ferror(in)) {
    snprintf(msg, msglen, "%s: %s", name, strerror(errno));
    rc = -1;
  }
  free(line);
  if (rc != 0) {
    free(*rows);
    *rows = NULL;
    *nrows = 0;
  }
  return rc;
}

int sweep_csv_read(const char *path, sweep_row **rows, int *nrows, char *msg, size_t msglen)
{
  *rows = NULL;
  *nrows = 0;
  struct stat st;
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msglen, "cannot read %s: %s", path, strerror(errno));
    return -1;
  }
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) { /* not /dev/zero, not a pipe */
    snprintf(msg, msglen, "%s: not a regular file", path);
    fclose(f);
    return -1;
  }
  int rc = sweep_csv_parse(f, path, rows, nrows, msg, msglen);
  fclose(f);
  return rc;
}

/* ---- writing a file whole or not at all --------------------------------------------------- */

FILE *sweep_open_atomic(const char *path, char *tmp, size_t tmplen)
{
  if (snprintf(tmp, tmplen, "%s.tmp", path) >= (int)tmplen) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  return fopen(tmp, "w");
}

int sweep_close_atomic(FILE *out, const char *tmp, const char *path)
{
  errno = 0;
  int err = (fflush(out) != 0 || ferror(out)) ? (errno ? errno : EIO) : 0;
  if (fclose(out) != 0 && !err) {
    err = errno;
  }
  if (!err && rename(tmp, path) != 0) {
    err = errno;
  }
  if (err) {
    remove(tmp);
    errno = err;
    return -1;
  }
  return 0;
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void json_row(FILE *out, const sweep_row *r)
{
  for (int i = 0; i < NCOLUMNS; i++) {
    const column *c = &columns[i];
    if (i == 0) {
      fprintf(out, "  {\"%s\": ", c->name);
      json_string(out, field_text(r, c));
      continue;
    }
    switch (c->kind) {
    case KIND_ID:
    case KIND_TEXT:
      json_field_string(out, c->name, field_text(r, c));
      break;
    case KIND_STATUS:
      json_field_string(out, c->name, field_int(r, c) ? "ok" : "fail");
      break;
    case KIND_TOL:
    case KIND_DIGITS:
    case KIND_SECONDS:
      json_field_number(out, c->name, field_real(r, c));
      break;
    case KIND_COUNT:
      fprintf(out, ", \"%s\": %ld", c->name, field_long(r, c));
      break;
    case KIND_REPEATS:
      fprintf(out, ", \"%s\": %d", c->name, field_int(r, c));
      break;
    }
  }
  fputc('}', out);
}

int sweep_write_json(const char *path, const sweep_row *rows, int nrows)
{
  char tmp[4200];
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
  if (!out) {
    return -1;
  }
  fputs("[\n", out);
  for (int k = 0; k < nrows; k++) {
    json_row(out, &rows[k]);
    fputs(k + 1 < nrows ? ",\n" : "\n", out);
  }
  fputs("]\n", out);
  return sweep_close_atomic(out, tmp, path);
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
  char tmp[4200];
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
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
  return sweep_close_atomic(out, tmp, path);
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
  for (int i = 0; i < nproblems + nsolvers; i++) {
    if (!sweep_safe_id(i < nproblems ? mbdae_problem_name(problems[i]) : solvers[i - nproblems])) {
      errno = EINVAL; /* the names go into the script: nothing but an id may */
      return -1;
    }
  }
  char tmp[4200];
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
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
  return sweep_close_atomic(out, tmp, path);
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
