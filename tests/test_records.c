/* Run records through the public API only, as a user's own program would make them: caraxis with
 * radau5 into an mbdae_record, its JSON, runs.csv header and row read back field by field
 * (doubles bit for bit, the drift figures with them), the markdown table row; a failed run's code,
 * t, h and drift; the reader refuses
 * a wrong column count, a non-numeric counter and an id with a quote, naming file:line; and
 * mbdae_strcode names every code of the error table. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

/* Same double, bit for bit (NaN equals NaN). */
static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* What a writer put into a memory stream, NUL-terminated (free it). */
typedef struct text {
  char *s;
  size_t len;
  FILE *f;
} text;

static void text_open(text *t) { t->f = open_memstream(&t->s, &t->len); }

static void text_close(text *t) { fclose(t->f); }

static int same_list(const double *a, const double *b, int n)
{
  if (!a || !b) {
    return a == b;
  }
  for (int i = 0; i < n; i++) {
    if (!same_bits(a[i], b[i])) {
      return 0;
    }
  }
  return 1;
}

/* Every field of b is that of a. */
static void compare(const mbdae_record *a, const mbdae_record *b, const char *what)
{
  CHECK(strcmp(a->problem, b->problem) == 0 && strcmp(a->spec, b->spec) == 0 &&
            strcmp(a->solver, b->solver) == 0 && strcmp(a->solver_title, b->solver_title) == 0 &&
            strcmp(a->message, b->message) == 0,
        "%s: ids or texts differ ('%s' against '%s')", what, a->message, b->message);
  CHECK(same_bits(a->rtol, b->rtol) && same_bits(a->atol, b->atol) && same_bits(a->h0, b->h0) &&
            same_bits(a->hmax, b->hmax) && a->max_steps == b->max_steps,
        "%s: options differ", what);
  CHECK(a->status == b->status && same_bits(a->t, b->t) && same_bits(a->h, b->h),
        "%s: status %d t %.17g h %.17g against %d %.17g %.17g", what, a->status, a->t, a->h,
        b->status, b->t, b->h);
  CHECK(memcmp(&a->stats, &b->stats, sizeof a->stats) == 0, "%s: counters differ", what);
  CHECK(same_bits(a->cpu_seconds, b->cpu_seconds) && same_bits(a->cpu_min, b->cpu_min) &&
            same_bits(a->cpu_max, b->cpu_max) && a->repeats == b->repeats,
        "%s: timing differs", what);
  CHECK(same_bits(a->scd, b->scd) && same_bits(a->mescd, b->mescd),
        "%s: scd %.17g mescd %.17g against %.17g %.17g", what, a->scd, a->mescd, b->scd, b->mescd);
  CHECK(same_bits(a->drift_pos_max, b->drift_pos_max) &&
            same_bits(a->drift_vel_max, b->drift_vel_max) &&
            same_bits(a->drift_pos_end, b->drift_pos_end) &&
            same_bits(a->drift_vel_end, b->drift_vel_end) && a->drift_steps == b->drift_steps,
        "%s: drift %.17g %.17g %.17g %.17g (%ld states) against %.17g %.17g %.17g %.17g (%ld)",
        what, a->drift_pos_max, a->drift_vel_max, a->drift_pos_end, a->drift_vel_end,
        a->drift_steps, b->drift_pos_max, b->drift_vel_max, b->drift_pos_end, b->drift_vel_end,
        b->drift_steps);
  CHECK(same_bits(a->tscd, b->tscd) && same_bits(a->tmescd, b->tmescd) &&
            same_bits(a->tscd_rms, b->tscd_rms),
        "%s: tscd %.17g tmescd %.17g tscd_rms %.17g against %.17g %.17g %.17g", what, a->tscd,
        a->tmescd, a->tscd_rms, b->tscd, b->tmescd, b->tscd_rms);
  CHECK(a->neq == b->neq && same_list(a->y, b->y, a->neq) && same_list(a->yref, b->yref, a->neq),
        "%s: neq %d against %d, or y, yref differ", what, a->neq, b->neq);
  int names = (a->names == NULL) == (b->names == NULL);
  for (int i = 0; names && a->names && i < a->neq; i++) {
    names = strcmp(a->names[i], b->names[i]) == 0;
  }
  CHECK(names, "%s: names differ", what);
  CHECK(strcmp(a->env.mbdae, b->env.mbdae) == 0 &&
            strcmp(a->env.dependencies, b->env.dependencies) == 0 &&
            strcmp(a->env.machine, b->env.machine) == 0 && strcmp(a->env.cpu, b->env.cpu) == 0,
        "%s: environment differs", what);
}

/* recs written as runs.csv (header with a's environment) and read back: 0 and *back, *n. */
static int round_trip(const mbdae_record *recs, size_t n, mbdae_record **back, size_t *nback)
{
  text t;
  char msg[300] = "";
  text_open(&t);
  CHECK(mbdae_record_write_csv_header(t.f, &recs[0].env) == 0, "header: a stream error");
  for (size_t k = 0; k < n; k++) {
    CHECK(mbdae_record_write_csv_row(t.f, &recs[k]) == 0, "row: a stream error");
  }
  text_close(&t);
  FILE *in = fmemopen(t.s, t.len, "r");
  int rc = mbdae_record_read_csv(in, "mine.csv", back, nback, msg, sizeof msg);
  fclose(in);
  CHECK(rc == 0 && *nback == n, "read back: %zu records, %s\n%s", *nback, msg, t.s);
  free(t.s);
  return rc;
}

/* A runs.csv written before the trajectory digits (rec's row without its last three columns,
 * tscd, tmescd, tscd_rms) reads as no trajectory digits (NaN), every other field as written. */
static void check_old_file(const mbdae_record *rec)
{
  text t;
  text_open(&t);
  mbdae_record_write_csv_header(t.f, &rec->env);
  mbdae_record_write_csv_row(t.f, rec);
  text_close(&t);
  char *line = t.s, *out = t.s;
  while (*line) { /* each line up to its third comma from the end */
    char *end = strchr(line, '\n'), *cut = end;
    for (int k = 0; k < 3; k++) {
      do {
        cut--;
      } while (*cut != ',');
    }
    memmove(out, line, (size_t)(cut - line));
    out += cut - line;
    *out++ = '\n';
    line = end + 1;
  }
  *out = '\0';
  CHECK(strstr(t.s, "tscd") == NULL, "the old file has no trajectory columns:\n%s", t.s);
  mbdae_record *back = NULL;
  size_t n = 0;
  char msg[300] = "";
  FILE *in = fmemopen(t.s, strlen(t.s), "r");
  int rc = mbdae_record_read_csv(in, "old.csv", &back, &n, msg, sizeof msg);
  fclose(in);
  CHECK(rc == 0 && n == 1, "an old runs.csv without tscd: %s\n%s", msg, t.s);
  if (rc == 0 && n == 1) {
    mbdae_record expected = *rec;
    expected.tscd = expected.tmescd = expected.tscd_rms = NAN;
    compare(&expected, &back[0], "old file");
  }
  mbdae_records_free(back, n);
  free(t.s);
}

static void check_run_record(const mbdae_problem *p)
{
  const mbdae_solver_type *radau5 = mbdae_solver_find("radau5");
  mbdae_options opt;
  mbdae_record rec[3] = {MBDAE_RECORD_INIT, MBDAE_RECORD_INIT, MBDAE_RECORD_INIT};
  test_options(p, 1e-4, &opt);
  CHECK(mbdae_record_run(&rec[0], p, radau5, &opt, 1) == 0, "radau5 on caraxis: %s",
        rec[0].message);
  CHECK(rec[0].neq == 10 && rec[0].y && rec[0].yref && strcmp(rec[0].names[0], "x_l") == 0 &&
            strcmp(rec[0].names[9], "lambda2") == 0 && isfinite(rec[0].scd) && rec[0].t == 3.0,
        "the record of the run: neq %d, scd %g, t %g", rec[0].neq, rec[0].scd, rec[0].t);
  CHECK(strcmp(rec[0].env.mbdae, mbdae_version()) == 0 && rec[0].env.machine[0],
        "environment: mbdae '%s', machine '%s'", rec[0].env.mbdae, rec[0].env.machine);
  opt.max_steps = 5; /* a failure: its code, t and h */
  opt.hmax = 0.25;
  CHECK(mbdae_record_run(&rec[1], p, radau5, &opt, 1) == MBDAE_ERR_MAX_STEPS && rec[1].t > 0.0 &&
            rec[1].t < 3.0 && rec[1].h > 0.0 && isnan(rec[1].scd) && rec[1].max_steps == 5 &&
            rec[1].hmax == 0.25,
        "max_steps 5: status %d, t %g, h %g", rec[1].status, rec[1].t, rec[1].h);
  CHECK(mbdae_record_init(&rec[2], p, radau5, &opt) == 0 && !rec[2].y && isnan(rec[2].t) &&
            isnan(rec[2].drift_pos_max) && rec[2].drift_steps == 0,
        "a record without a run has no y, no t and no drift");
  CHECK(rec[0].drift_pos_max > 0.0 && rec[0].drift_steps == rec[0].stats.accepted &&
            rec[1].drift_steps == rec[1].stats.accepted && isfinite(rec[1].drift_vel_end),
        "drift in the records: %g over %ld states (%ld accepted); failed run %ld (%ld)",
        rec[0].drift_pos_max, rec[0].drift_steps, rec[0].stats.accepted, rec[1].drift_steps,
        rec[1].stats.accepted);

  CHECK(isfinite(rec[0].tscd) && rec[0].tscd <= rec[0].scd && isfinite(rec[0].tmescd) &&
            rec[0].tscd_rms >= rec[0].tscd && isnan(rec[1].tscd) && isnan(rec[1].tscd_rms) &&
            isnan(rec[2].tscd) && isnan(rec[2].tmescd),
        "trajectory digits: ok run tscd %g (scd %g) rms %g; failed run %g; no run %g", rec[0].tscd,
        rec[0].scd, rec[0].tscd_rms, rec[1].tscd, rec[2].tscd);
  check_old_file(&rec[0]);

  mbdae_record *back = NULL;
  size_t n = 0;
  rec[0].y[1] = -1.25e-320; /* a subnormal reads back (strtod says ERANGE for it: fuzz_side) */
  if (round_trip(rec, 3, &back, &n) == 0 && n == 3) {
    compare(&rec[0], &back[0], "ok run");
    compare(&rec[1], &back[1], "failed run");
    compare(&rec[2], &back[2], "no run");
  }
  mbdae_records_free(back, n);

  text t;
  text_open(&t);
  CHECK(mbdae_record_write_json(t.f, &rec[1]) == 0, "json: a stream error");
  text_close(&t);
  static const char *const keys[] = {
      "{\"problem\": \"caraxis\", \"spec\": \"caraxis:form=index3\", \"solver\": \"radau5\"",
      "\"status\": \"fail\"",
      "\"code\": \"MBDAE_ERR_MAX_STEPS\"",
      "\"scd\": null",
      "\"nerrfail\": ",
      "\"nconvfail\": ",
      "\"hmax\": 0.25",
      "\"max_steps\": 5",
      "\"drift_pos_max\": ",
      "\"drift_vel_end\": ",
      "\"tscd\": null, \"tmescd\": null, \"tscd_rms\": null",
      "\"names\": [\"x_l\", \"y_l\", \"x_r\"",
      "\"y\": [",
      "\"yref\": [",
      "\"mbdae_version\": \"" MBDAE_VERSION "\"",
      "\"dependencies\": \"SUNDIALS ",
      "\"machine\": "};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    CHECK(strstr(t.s, keys[k]) != NULL, "json: no %s in\n%s", keys[k], t.s);
  }
  CHECK(t.s[t.len - 1] == '}', "json: one object, nothing after it");
  free(t.s);

  text_open(&t);
  mbdae_record_write_table_row(t.f, &rec[0], 1);
  mbdae_record_write_table(t.f, p, rec, 3);
  text_close(&t);
  char row[128];
  snprintf(row, sizeof row, "| radau5 | 1e-4 | 1e-4 | 1e-4 | %.2f | %.2f | %.2f | %ld | %ld | ",
           rec[0].mescd, rec[0].scd, rec[0].tscd, rec[0].stats.steps, rec[0].stats.accepted);
  CHECK(strncmp(t.s, row, strlen(row)) == 0, "table row: expected %s..., got\n%s", row, t.s);
  snprintf(row, sizeof row, " | %.2e |\n", rec[0].drift_pos_max);
  CHECK(strstr(t.s, row) && strstr(t.s, "| CPU | drift |"),
        "table: the drift column, %s, expected in\n%s", row, t.s);
  CHECK(strstr(t.s + 1, row) && strstr(t.s, "| radau5 | 1e-4 | ") &&
            strstr(t.s, "| MBDAE_ERR_MAX_STEPS |"),
        "the table of caraxis: its row, its failed runs with their code:\n%s", t.s);
  /* records made by a program (the Python module's, this test's) are no sweep's (issue 33) */
  CHECK(!strstr(t.s, "sweep"), "a table of records made without a sweep names one:\n%s", t.s);
  free(t.s);
  for (int k = 0; k < 3; k++) {
    mbdae_record_free(&rec[k]);
  }
}

/* text, read as runs.csv "bad.csv", is refused with a message that starts with where. */
static void expect_refused(const char *csv, const char *where, const char *why)
{
  mbdae_record *recs = NULL;
  size_t n = 0;
  char msg[300] = "";
  FILE *in = fmemopen((void *)csv, strlen(csv), "r");
  int rc = mbdae_record_read_csv(in, "bad.csv", &recs, &n, msg, sizeof msg);
  fclose(in);
  CHECK(rc == -1 && !recs && n == 0 && strncmp(msg, where, strlen(where)) == 0 && strstr(msg, why),
        "expected '%s ... %s', got %d '%s'", where, why, rc, msg);
  mbdae_records_free(recs, n);
}

/* A good runs.csv of one failed run, then the same with one field replaced. */
static void check_reader_refuses(const mbdae_problem *p)
{
  mbdae_options opt;
  mbdae_record rec = MBDAE_RECORD_INIT;
  test_options(p, 1e-4, &opt);
  mbdae_record_init(&rec, p, mbdae_solver_find("ida"), &opt);
  text t;
  text_open(&t);
  mbdae_record_write_csv_header(t.f, &rec.env);
  mbdae_record_write_csv_row(t.f, &rec);
  text_close(&t);
  mbdae_record_free(&rec);
  char *row = strstr(t.s, "\ncaraxis,") + 1; /* line 2: after the header */
  size_t head = (size_t)(row - t.s);
  char bad[8192];

  snprintf(bad, sizeof bad, "%.*s%.*s\n", (int)head, t.s, (int)(strrchr(row, ',') - row), row);
  expect_refused(bad, "bad.csv:2: ", "fields, the header has");
  snprintf(bad, sizeof bad, "%.*s%s", (int)head, t.s, row);
  char *steps = strstr(bad + head, ",fail,,,,0,"); /* status, message, scd, mescd, steps */
  CHECK(steps != NULL, "the row's layout: %s", row);
  if (steps) {
    steps[9] = 'x';
    expect_refused(bad, "bad.csv:2: ", "column steps: 'x' is not a whole number");
  }
  snprintf(bad, sizeof bad, "%.*scaraxis,caraxis,\"i\"\"da\"%s", (int)head, t.s,
           strstr(row, ",ida,") + 4);
  expect_refused(bad, "bad.csv:2: ", "column solver: 'i\"da' is not a name");
  expect_refused("caraxis,caraxis,ida\n", "bad.csv:1: ", "header line");
  free(t.s);
}

static void check_strcode(void)
{
#define CODE_ENTRY(name, value, text)                                                              \
  CHECK(strcmp(mbdae_strcode(value), #name) == 0, "mbdae_strcode(%d) = %s", value,                 \
        mbdae_strcode(value));
  MBDAE_ERROR_TABLE(CODE_ENTRY)
#undef CODE_ENTRY
  CHECK(strcmp(mbdae_strcode(42), "unknown") == 0 && strcmp(mbdae_strcode(-99), "unknown") == 0,
        "codes outside the table: %s, %s", mbdae_strcode(42), mbdae_strcode(-99));
}

/* The JSON pieces: escaping of quotes, backslashes and control characters; null for NaN. */
static void check_json_pieces(void)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out) {
    return;
  }
  mbdae_json_write_string(out, "a\"b\\c\n");
  fputc(' ', out);
  mbdae_json_write_number(out, 0.1);
  fputc(' ', out);
  mbdae_json_write_number(out, NAN);
  fclose(out);
  CHECK(text && strcmp(text, "\"a\\\"b\\\\c\\u000a\" 0.10000000000000001 null") == 0,
        "json pieces: %s", text ? text : "(none)");
  free(text);
}

int main(void)
{
  check_json_pieces();
  mbdae_problem *p = create_problem("caraxis");
  if (p) {
    check_run_record(p);
    check_reader_refuses(p);
    mbdae_problem_destroy(p);
  }
  check_strcode();
  return check_summary("test_records");
}
