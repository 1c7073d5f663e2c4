/* mbdae sweep and mbdae plot, through the command: every column of runs.csv, runs.json, the
 * tables and the diagrams (PNG signature; skipped when gnuplot is absent); a forced failure is a
 * row, not a gap; shards 1/2 + 2/2 and --jobs 2 give the rows of the plain sweep (counters and
 * status compared, not CPU times); --report redoes the outputs of concatenated shards; a missing
 * gnuplot only skips the pictures; bad input exits 2 naming the valid choices; --forms gives rows,
 * a table and a curve per form.
 * Small problems at loose tolerances keep it fast under AddressSanitizer. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#endif
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

enum { MAX_ROWS = 128, MAX_FIELDS = 48, LINE = 8192, NRESUME = 100 };

/* The columns the issue requires, in order, then ours. */
static const char *const required[] = {
    "problem", "spec",        "solver",  "rtol",    "atol",     "h0",   "status",
    "message", "scd",         "mescd",   "steps",   "accepted", "nres", "njac",
    "nlu",     "cpu_seconds", "cpu_min", "cpu_max", "repeats",
};
enum { NREQUIRED = (int)(sizeof required / sizeof required[0]) };
/* The columns added with the records in the library (mbdae_record), after nres_fd. */
static const char *const added[] = {"nres_fd",
                                    "code",
                                    "t",
                                    "h",
                                    "nerrfail",
                                    "nconvfail",
                                    "hmax",
                                    "max_steps",
                                    "solver_title",
                                    "names",
                                    "y",
                                    "yref",
                                    "drift_pos_max",
                                    "drift_vel_max",
                                    "drift_pos_end",
                                    "drift_vel_end",
                                    "drift_steps",
                                    "switches",
                                    "mbdae_version",
                                    "dependencies",
                                    "machine",
                                    "cpu",
                                    "tscd",
                                    "tmescd",
                                    "tscd_rms"};
enum { NADDED = (int)(sizeof added / sizeof added[0]) };
enum {
  COL_STATUS = 6,
  COL_MESSAGE = 7,
  COL_SCD = 8,
  COL_MESCD = 9,
  COL_STEPS = 10,
  COL_CPU = 15,
  COL_CPU_MAX = 17,
  COL_REPEATS = 18
};

static char tmpdir[] = "/tmp/mbdae-test-sweep-XXXXXX";

static int cli(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int cli(char *out, size_t len, const char *fmt, ...)
{
  char args[1536];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  return run_cli(args, out, len);
}

/* Split a CSV line in place (RFC 4180 quotes); returns the number of fields. */
static int split_csv(char *line, char **fields)
{
  int n = 0;
  char *s = line;
  line[strcspn(line, "\r\n")] = '\0';
  for (;;) {
    char *start = s, *dst = s;
    if (*s == '"') {
      for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
        *dst++ = *s;
        s += (*s == '"');
      }
      s += (*s == '"');
    }
    while (*s && *s != ',') {
      *dst++ = *s++;
    }
    char sep = *s;
    *dst = '\0';
    if (n < MAX_FIELDS) {
      fields[n++] = start;
    }
    if (sep != ',') {
      return n;
    }
    s++;
  }
}

typedef struct table {
  int nrows;
  int nfields[MAX_ROWS];
  char lines[MAX_ROWS][LINE];
  char *f[MAX_ROWS][MAX_FIELDS];
  char header[LINE];
  int nheader;
  char *h[MAX_FIELDS];
  int ncomments;
} table;

/* Read dir/runs.csv; returns 0 when it exists and has a header.  The "# key: value" lines of the
 * environment are counted in t->ncomments, not read as rows. */
static int read_runs(const char *dir, table *t)
{
  char path[512];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  if (!fgets(t->header, LINE, f)) {
    fclose(f);
    return -1;
  }
  t->nheader = split_csv(t->header, t->h);
  while (t->nrows < MAX_ROWS && fgets(t->lines[t->nrows], LINE, f)) {
    if (t->lines[t->nrows][0] == '#') {
      t->ncomments++;
      continue;
    }
    t->nfields[t->nrows] = split_csv(t->lines[t->nrows], t->f[t->nrows]);
    t->nrows++;
  }
  fclose(f);
  return 0;
}

/* Space-separated items of a field. */
static int count_items(const char *s)
{
  int n = *s != '\0';
  for (; *s; s++) {
    n += *s == ' ';
  }
  return n;
}

/* The same rows, status and counters (not the CPU times, which differ from run to run). */
static void same_rows(const table *a, const table *b, const char *what)
{
  CHECK(a->nrows == b->nrows && a->nrows > 0, "%s: %d rows against %d", what, a->nrows, b->nrows);
  for (int r = 0; r < a->nrows && r < b->nrows; r++) {
    for (int c = 0; c < COL_CPU && c < a->nfields[r]; c++) {
      CHECK(strcmp(a->f[r][c], b->f[r][c]) == 0, "%s: row %d column %s: '%s' against '%s'", what,
            r + 1, required[c], a->f[r][c], b->f[r][c]);
    }
  }
}

static int file_starts_with(const char *path, const unsigned char *magic, size_t len)
{
  unsigned char buf[16];
  FILE *f = fopen(path, "rb");
  if (!f) {
    return 0;
  }
  size_t got = fread(buf, 1, len, f);
  fclose(f);
  return got == len && memcmp(buf, magic, len) == 0;
}

static int exists(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return access(path, R_OK) == 0;
}

static int count_in_file(const char *dir, const char *name, const char *needle)
{
  char path[512], line[4096];
  int n = 0;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  while (fgets(line, sizeof line, f)) {
    for (char *s = line; (s = strstr(s, needle)); s += strlen(needle)) {
      n++;
    }
  }
  fclose(f);
  return n;
}

static const unsigned char png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/* Every column, sensible values, the JSON, the table, the script and the pictures. */
static void check_full_sweep(int have_gnuplot)
{
  static char out[1 << 16];
  char dir[256];
  table t;
  snprintf(dir, sizeof dir, "%s/full", tmpdir);
  int rc = cli(out, sizeof out, "sweep caraxis --m 0:1 --solvers ida,bdf --out %s", dir);
  CHECK(rc == 0 || rc == 1, "sweep: exit %d:\n%s", rc, out);
  CHECK(read_runs(dir, &t) == 0, "sweep: no %s/runs.csv:\n%s", dir, out);
  CHECK(t.nheader == NREQUIRED + NADDED, "runs.csv header has %d columns", t.nheader);
  for (int c = 0; c < NREQUIRED + NADDED && c < t.nheader; c++) {
    const char *name = c < NREQUIRED ? required[c] : added[c - NREQUIRED];
    CHECK(strcmp(t.h[c], name) == 0, "column %d is '%s', expected '%s'", c + 1, t.h[c], name);
  }
  /* the environment in every row's last columns, no "#" line (machine, cpu vary: not compared) */
  CHECK(t.ncomments == 0 && count_in_file(dir, "runs.csv", "," MBDAE_VERSION ",\"SUNDIALS ") == 4,
        "runs.csv: %d '#' lines, expected none and mbdae, dependencies in every row", t.ncomments);
  CHECK(count_in_file(dir, "runs.json", "\"mbdae_version\": \"" MBDAE_VERSION "\"") == 4 &&
            count_in_file(dir, "runs.json", "\"names\": [\"x_l\", \"y_l\"") == 4,
        "runs.json: the environment or the names missing");
  CHECK(t.nrows == 4, "2 tolerances x 2 solvers: %d rows", t.nrows);
  int failed = 0;
  for (int r = 0; r < t.nrows; r++) {
    char **f = t.f[r];
    CHECK(t.nfields[r] == t.nheader, "row %d: %d fields, header %d", r + 1, t.nfields[r],
          t.nheader);
    if (t.nfields[r] < NREQUIRED) {
      continue;
    }
    CHECK(strcmp(f[0], "caraxis") == 0 && strcmp(f[1], "caraxis:form=index3") == 0,
          "row %d: problem %s spec %s", r + 1, f[0], f[1]);
    CHECK(strcmp(f[2], r < 2 ? "ida" : "bdf") == 0, "row %d: solver %s (order problem, solver, m)",
          r + 1, f[2]);
    double rtol = atof(f[3]);
    CHECK(rtol == pow(10.0, -(4.0 + (r % 2) / 4.0)), "row %d: rtol %s, expected 10^-(4+m/4)", r + 1,
          f[3]);
    CHECK(strcmp(f[3], f[4]) == 0 && strcmp(f[3], f[5]) == 0,
          "row %d: atol %s, h0 %s should be rtol %s", r + 1, f[4], f[5], f[3]);
    int ok = strcmp(f[COL_STATUS], "ok") == 0;
    CHECK(ok || strcmp(f[COL_STATUS], "fail") == 0, "row %d: status '%s'", r + 1, f[COL_STATUS]);
    failed += !ok;
    if (t.nfields[r] == NREQUIRED + NADDED) {
      char **x = f + NREQUIRED; /* the added columns */
      CHECK(strcmp(x[1], ok ? "MBDAE_OK" : "MBDAE_ERR_MAX_STEPS") != 0 || ok ||
                strncmp(x[1], "MBDAE_ERR_", 10) == 0,
            "row %d: code %s with status %s", r + 1, x[1], f[COL_STATUS]);
      CHECK(!ok || (strcmp(x[1], "MBDAE_OK") == 0 && atof(x[2]) == 3.0),
            "row %d: ok with code %s, t %s", r + 1, x[1], x[2]);
      CHECK(strcmp(x[9], "x_l y_l x_r y_r vx_l vy_l vx_r vy_r lambda1 lambda2") == 0,
            "row %d: names '%s'", r + 1, x[9]);
      CHECK(count_items(x[10]) == 10 && count_items(x[11]) == 10, "row %d: y '%s', yref '%s'",
            r + 1, x[10], x[11]);
      /* drift: every state the solver accepted, position level below the tolerance (index 3) */
      CHECK(!ok || (x[12][0] && x[13][0] && x[14][0] && x[15][0] && atof(x[14]) <= atof(x[12]) &&
                    atof(x[12]) < rtol && strcmp(x[16], f[COL_STEPS + 1]) == 0),
            "row %d: drift %s %s %s %s over %s states, accepted %s", r + 1, x[12], x[13], x[14],
            x[15], x[16], f[COL_STEPS + 1]);
      /* trajectory digits (issue 35): caraxis has a reference trajectory; tscd <= scd */
      CHECK(ok ? (x[22][0] && x[23][0] && x[24][0] && atof(x[22]) <= atof(f[COL_SCD]))
               : (!x[22][0] && !x[23][0] && !x[24][0]),
            "row %d: tscd '%s' tmescd '%s' rms '%s' (scd %s)", r + 1, x[22], x[23], x[24],
            f[COL_SCD]);
    }
    if (ok) {
      CHECK(f[COL_SCD][0] && f[COL_MESCD][0], "row %d: ok without scd/mescd", r + 1);
      CHECK(atol(f[COL_STEPS]) > 0, "row %d: steps %s", r + 1, f[COL_STEPS]);
      for (int c = COL_STEPS; c <= COL_REPEATS; c++) {
        CHECK(f[c][0] != '\0', "row %d: column %s empty", r + 1, required[c]);
      }
      CHECK(atof(f[COL_CPU]) <= atof(f[COL_CPU_MAX]), "row %d: cpu %s > cpu_max %s", r + 1,
            f[COL_CPU], f[COL_CPU_MAX]);
    } else {
      CHECK(f[COL_MESSAGE][0] != '\0', "row %d: failed without a reason", r + 1);
    }
  }
  CHECK(rc == (failed ? 1 : 0), "sweep: exit %d with %d failed runs", rc, failed);
  CHECK(count_in_file(dir, "runs.json", "\"status\":") == t.nrows, "runs.json: %d objects, %d rows",
        count_in_file(dir, "runs.json", "\"status\":"), t.nrows);
  CHECK(count_in_file(dir, "caraxis-table.md", "| solver | rtol | atol | h0 | mescd | scd |") == 1,
        "caraxis-table.md: no table header");
  CHECK(count_in_file(dir, "caraxis-table.md", "The runs of a `mbdae sweep`") == 1,
        "caraxis-table.md: does not say it holds the runs of a sweep");
  CHECK(exists(dir, "workprecision.gp"), "no workprecision.gp");
  CHECK(!exists(dir, "runs.partial.csv"), "runs.partial.csv left behind");
  if (!have_gnuplot) {
    printf("test_sweep: gnuplot not found, PNG checks skipped\n");
    return;
  }
  const char *pictures[] = {"caraxis-scd", "caraxis-mescd", "caraxis-scd-nres",
                            "caraxis-mescd-nres"};
  for (size_t i = 0; i < sizeof pictures / sizeof pictures[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.png", dir, pictures[i]);
    CHECK(file_starts_with(path, png_magic, sizeof png_magic), "%s: not a PNG file", path);
    snprintf(path, sizeof path, "%s/%s.svg", dir, pictures[i]);
    CHECK(file_starts_with(path, (const unsigned char *)"<?xml", 5), "%s: not an SVG file", path);
  }
}

/* A step limit forces a failure: the run is a row with status fail and its reason. */
static void check_failed_row(void)
{
  static char out[1 << 16];
  char dir[256];
  table t;
  snprintf(dir, sizeof dir, "%s/fail", tmpdir);
  int rc = cli(out, sizeof out,
               "sweep caraxis --m 0:0 --solvers ida --max-steps 5 --no-plots --out %s", dir);
  CHECK(rc == 1, "a failed run: exit %d, expected 1:\n%s", rc, out);
  CHECK(read_runs(dir, &t) == 0 && t.nrows == 1, "a failed run: %d rows, expected 1", t.nrows);
  if (t.nrows == 1 && t.nfields[0] >= NREQUIRED) {
    CHECK(strcmp(t.f[0][COL_STATUS], "fail") == 0, "status '%s'", t.f[0][COL_STATUS]);
    CHECK(strstr(t.f[0][COL_MESSAGE], "t = ") != NULL, "message '%s' should say where",
          t.f[0][COL_MESSAGE]);
    CHECK(t.f[0][COL_SCD][0] == '\0', "a failed run has no scd: '%s'", t.f[0][COL_SCD]);
  }
  if (t.nrows == 1 && t.nfields[0] == NREQUIRED + NADDED) {
    char **x = t.f[0] + NREQUIRED; /* code, t, h, ..., max_steps */
    CHECK(strcmp(x[1], "MBDAE_ERR_MAX_STEPS") == 0 && x[2][0] && x[3][0] && atof(x[3]) > 0.0 &&
              strcmp(x[7], "5") == 0,
          "a failed run: code '%s', t '%s', h '%s', max_steps '%s'", x[1], x[2], x[3], x[7]);
  }
  CHECK(count_in_file(dir, "caraxis-table.md", "Failed runs") == 1,
        "the table lists no failed runs");
}

/* --forms: one configuration per form, rows for each, a table per form, and in the script one
 * curve per form, labelled with it, selecting its rows (also the baumgarte spec, which has commas);
 * the drift diagrams drawn.  --report redoes the same from runs.csv. */
static void check_forms(int have_gnuplot)
{
  static char out[1 << 16];
  static const char *const forms[] = {"index3", "index2", "ggl", "index1", "baumgarte", "ssf"};
  char dir[256], name[64];
  table t;
  snprintf(dir, sizeof dir, "%s/forms", tmpdir);
  int rc = cli(out, sizeof out,
               "sweep pendulum --forms index3,index2,ggl,index1,baumgarte,ssf --solvers radau5 "
               "--rtol 1e-3,1e-4 --out %s",
               dir);
  CHECK(rc == 0, "sweep --forms: exit %d:\n%s", rc, out);
  CHECK(read_runs(dir, &t) == 0 && t.nrows == 12, "sweep --forms: %d rows, expected 6 x 2",
        t.nrows);
  for (int k = 0; k < 6; k++) {
    int rows = 0;
    for (int r = 0; r < t.nrows; r++) {
      char spec[64];
      snprintf(spec, sizeof spec, "pendulum:form=%s", forms[k]);
      rows += strncmp(t.f[r][1], spec, strlen(spec)) == 0 &&
              (t.f[r][1][strlen(spec)] == '\0' || t.f[r][1][strlen(spec)] == ',');
    }
    CHECK(rows == 2, "form %s: %d rows, expected 2", forms[k], rows);
    snprintf(name, sizeof name, "pendulum-%s-table.md", forms[k]);
    CHECK(exists(dir, name), "no %s", name);
    snprintf(name, sizeof name, "'%s'", forms[k]);
    CHECK(count_in_file(dir, "workprecision.gp", name) == 1, "workprecision.gp: no curve %s", name);
  }
  CHECK(count_in_file(dir, "workprecision.gp", "'pendulum:form=baumgarte,alpha=") == 1 &&
            count_in_file(dir, "workprecision.gp", "ncurves = 6\n") == 1,
        "workprecision.gp: six curves selected by the whole spec (with its commas)");
  rc = cli(out, sizeof out, "sweep --report %s --no-plots", dir);
  CHECK(rc == 0 && count_in_file(dir, "workprecision.gp", "ncurves = 6\n") == 1,
        "--report of a --forms sweep: exit %d:\n%s", rc, out);
  if (have_gnuplot) {
    char path[512];
    snprintf(path, sizeof path, "%s/pendulum-drift.png", dir);
    CHECK(file_starts_with(path, png_magic, sizeof png_magic), "%s: not a PNG file", path);
    /* a legend entry is drawn only for a curve with points: gnuplot found every form's rows,
     * and the drift of every form (ssf: of the Cartesian state mapped from the angles) */
    for (int k = 0; k < 6; k++) {
      snprintf(name, sizeof name, ">%s</text>", forms[k]);
      CHECK(count_in_file(dir, "pendulum-scd.svg", name) >= 1, "pendulum-scd.svg: no curve %s",
            forms[k]);
      CHECK(count_in_file(dir, "pendulum-drift.svg", name) >= 1,
            "pendulum-drift.svg: curve %s "
            "missing",
            forms[k]);
    }
  }
  /* two configurations of one problem that no form tells apart: their files would collide
   * (crank's index=N is its form: crank:index=1 and crank:index=3 are told apart) */
  char merge[1024];
  rc = cli(out, sizeof out,
           "sweep crank:index=1 --rtol 1e-3 --solvers radau5 --no-plots --out %s/c1", tmpdir);
  rc += cli(out, sizeof out,
            "sweep crank:index=1,damping=on --rtol 1e-3 --solvers radau5 --no-plots --out %s/c3",
            tmpdir);
  snprintf(merge, sizeof merge,
           "mkdir -p %s/c13 && awk 'FNR > 1 || NR == 1' %s/c1/runs.csv %s/c3/runs.csv > "
           "%s/c13/runs.csv",
           tmpdir, tmpdir, tmpdir, tmpdir);
  CHECK(rc == 0 && system(merge) == 0, "two crank sweeps and their merge: %s", out);
  rc = cli(out, sizeof out, "sweep --report %s/c13 --no-plots", tmpdir);
  CHECK(rc == 2 && strstr(out, "without a form to tell its files apart"),
        "--report of two crank configurations: exit %d:\n%s", rc, out);
  expect("sweep pendulum:form=index1 --forms index3 --out /tmp/mbdae-never", 2,
         "leave form= out of the spec");
  expect("sweep pendulum --forms index3,index3 --out /tmp/mbdae-never", 2, "names index3 twice");
  expect("sweep pendulum pendulum --forms index3 --out /tmp/mbdae-never", 2,
         "one configuration per problem");
  expect("sweep caraxis --forms ssf --out /tmp/mbdae-never", 2, "caraxis");
}

/* Shards and jobs: the same rows as the plain sweep; --report on the concatenation. */
static void check_shards_and_jobs(void)
{
  static char out[1 << 16];
  const char *plan = "caraxis pendulum --m 0:1 --solvers ida,bdf --no-plots";
  char whole[256], s1[256], s2[256], jobs[256], merged[256], cmd[1200];
  table a, b;
  snprintf(whole, sizeof whole, "%s/whole", tmpdir);
  snprintf(s1, sizeof s1, "%s/shard1", tmpdir);
  snprintf(s2, sizeof s2, "%s/shard2", tmpdir);
  snprintf(jobs, sizeof jobs, "%s/jobs", tmpdir);
  snprintf(merged, sizeof merged, "%s/merged", tmpdir);
  cli(out, sizeof out, "sweep %s --out %s", plan, whole);
  cli(out, sizeof out, "sweep %s --shard 1/2 --out %s", plan, s1);
  cli(out, sizeof out, "sweep %s --shard 2/2 --out %s", plan, s2);
  cli(out, sizeof out, "sweep %s --jobs 2 --out %s", plan, jobs);
  CHECK(read_runs(whole, &a) == 0 && a.nrows == 8, "whole sweep: %d rows, expected 8", a.nrows);
  CHECK(read_runs(jobs, &b) == 0, "--jobs 2: no runs.csv");
  same_rows(&a, &b, "--jobs 2 against --jobs 1");

  snprintf(cmd, sizeof cmd,
           "mkdir -p %s && awk 'FNR > 1 || NR == 1' %s/runs.csv %s/runs.csv > %s/runs.csv", merged,
           s1, s2, merged);
  CHECK(system(cmd) == 0, "%s failed", cmd);
  CHECK(read_runs(merged, &b) == 0, "no merged runs.csv");
  same_rows(&a, &b, "shards 1/2 + 2/2 against the whole");

  int rc = cli(out, sizeof out, "sweep --report %s --no-plots", merged);
  CHECK(rc == 0 || rc == 1, "--report: exit %d:\n%s", rc, out);
  CHECK(exists(merged, "caraxis-table.md") && exists(merged, "pendulum-table.md") &&
            exists(merged, "runs.json"),
        "--report: tables or JSON missing");
  CHECK(count_in_file(merged, "runs.json", "\"status\":") == 8,
        "--report: runs.json should hold 8 runs");
}

/* No gnuplot: CSV, JSON and tables are written, a warning says the plots were skipped. */
static void check_without_gnuplot(void)
{
  static char out[1 << 16];
  char dir[256];
  table t;
  snprintf(dir, sizeof dir, "%s/nognuplot", tmpdir);
  setenv("MBDAE_GNUPLOT", "/nonexistent/gnuplot", 1);
  int rc = cli(out, sizeof out, "sweep caraxis --m 0:0 --solvers ida --out %s", dir);
  unsetenv("MBDAE_GNUPLOT");
  CHECK(rc == 0 || rc == 1, "without gnuplot: exit %d:\n%s", rc, out);
  CHECK(strstr(out, "gnuplot not found") != NULL, "without gnuplot: no warning:\n%s", out);
  CHECK(read_runs(dir, &t) == 0 && t.nrows == 1, "without gnuplot: %d rows", t.nrows);
  CHECK(exists(dir, "runs.json") && exists(dir, "caraxis-table.md"),
        "without gnuplot: JSON or table missing");
}

static void check_plot(int have_gnuplot)
{
  static char out[1 << 16];
  char file[256];
  snprintf(file, sizeof file, "%s/plot/caraxis.png", tmpdir);
  int rc = cli(out, sizeof out, "plot caraxis --rtol 1e-5 --points 200 --out %s", file);
  if (!have_gnuplot) {
    CHECK(rc == 1 && strstr(out, "gnuplot not found"), "plot without gnuplot: exit %d:\n%s", rc,
          out);
    return;
  }
  CHECK(rc == 0, "plot: exit %d:\n%s", rc, out);
  CHECK(file_starts_with(file, png_magic, sizeof png_magic), "%s: not a PNG file", file);
  char script[256];
  snprintf(script, sizeof script, "%s/plot", tmpdir);
  CHECK(exists(script, "caraxis.gp"), "plot: no script next to the picture");
}

/* expect() for arguments longer than run_cli's command buffer: `mbdae args` exits with code and
 * mentions must_mention. */
static void expect_long(const char *args, int code, const char *must_mention)
{
  static char out[1 << 16];
  size_t len = strlen(MBDAE_CLI) + strlen(args) + 16;
  char *cmd = malloc(len);
  if (!cmd) {
    CHECK(0, "out of memory");
    return;
  }
  snprintf(cmd, len, "'%s' %s 2>&1", MBDAE_CLI, args);
  FILE *f = popen(cmd, "r");
  size_t got = f ? fread(out, 1, sizeof out - 1, f) : 0;
  out[got] = '\0';
  int status = f ? pclose(f) : -1;
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  CHECK(rc == code && strstr(out, must_mention),
        "mbdae %.60s...: exit %d, expected %d and '%s':\n%s", args, rc, code, must_mention, out);
  free(cmd);
}

/* ---- processes: a sweep in the background ------------------------------------------------ */

static void pause_ms(int ms)
{
  nanosleep(&(struct timespec){ms / 1000, ms % 1000 * 1000000L}, NULL);
}

/* Start `mbdae sweep args` in a process group of its own, stdout to /dev/null, stderr to a pipe of
 * 4096 bytes that nobody reads: after about 45 progress lines the sweep blocks on it, so it is
 * still running whenever the test looks.  Returns the pid (also the group), or -1. */
static pid_t start_sweep(const char *args)
{
  char buf[2048], *argv[512];
  int argc = 0, err[2];
  snprintf(buf, sizeof buf, "sweep %s", args);
  argv[argc++] = (char *)MBDAE_CLI;
  for (char *tok = strtok(buf, " "); tok && argc < 510; tok = strtok(NULL, " ")) {
    argv[argc++] = tok;
  }
  argv[argc] = NULL;
  if (pipe(err) != 0) {
    return -1;
  }
#ifdef F_SETPIPE_SZ
  fcntl(err[1], F_SETPIPE_SZ, 4096);
#endif
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    close(err[0]);
    execv(MBDAE_CLI, argv);
    _exit(127);
  }
  close(err[1]); /* err[0] stays open and unread until the test ends */
  if (pid > 0) {
    setpgid(pid, pid);
  }
  return pid;
}

/* Up to max children of pid that are not zombies; returns how many. */
static int children_of(pid_t pid, pid_t *kids, int max)
{
  int n = 0;
  DIR *proc = opendir("/proc");
  for (struct dirent *e; proc && (e = readdir(proc)) && n < max;) {
    char path[300], buf[512], state = 0;
    int ppid = 0;
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? fopen(path, "r") : NULL;
    if (!f) {
      continue;
    }
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = '\0';
    char *paren = strrchr(buf, ')');
    if (paren && sscanf(paren + 1, " %c %d", &state, &ppid) == 2 && ppid == (int)pid &&
        state != 'Z') {
      kids[n++] = (pid_t)atoi(e->d_name);
    }
  }
  if (proc) {
    closedir(proc);
  }
  return n;
}

/* 1 when process pid has ended (gone, or a zombie nobody reaped). */
static int ended(pid_t pid)
{
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) {
    return 1;
  }
  size_t got = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[got] = '\0';
  char *paren = strrchr(buf, ')');
  return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/* Data lines (complete, after the header; not the "#" lines of the environment) in dir/name. */
static int complete_rows(const char *dir, const char *name)
{
  return count_in_file(dir, name, "\n") - 1 - count_in_file(dir, name, "# "); /* no "# " in rows */
}

/* SIGTERM to the sweep: its workers, in the middle of long runs (1000 repeats of a tight run),
 * end with it. */
static void check_sigterm(void)
{
  char args[512];
  pid_t kids[8];
  int nkids = 0;
  snprintf(args, sizeof args,
           "pendulum --rtol 1e-12,1.1e-12 --solvers ida --repeat 1000 --jobs 2 --no-plots --out "
           "%s/term",
           tmpdir);
  pid_t pid = start_sweep(args);
  CHECK(pid > 0, "cannot start the sweep");
  if (pid <= 0) {
    return;
  }
  for (int i = 0; i < 3000 && (nkids = children_of(pid, kids, 8)) < 2; i++) {
    pause_ms(10);
  }
  CHECK(nkids == 2, "--jobs 2: %d worker processes", nkids);
  kill(pid, SIGTERM);
  waitpid(pid, NULL, 0);
  for (int k = 0; k < nkids; k++) {
    for (int i = 0; i < 1000 && !ended(kids[k]); i++) {
      pause_ms(10);
    }
    CHECK(ended(kids[k]), "worker %d still runs 10 s after SIGTERM to the sweep", (int)kids[k]);
  }
  kill(-pid, SIGKILL);
}

/* kill -9 halfway, then --resume: only the missing runs are run, and runs.csv has them all. */
static void check_resume(void)
{
  static char out[1 << 16];
  char list[NRESUME * 12], args[sizeof list + 600], dir[256];
  table t;
  size_t used = 0;
  for (int k = 0; k < NRESUME; k++) {
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%.4g", k ? "," : "",
                             1e-3 * (1.0 - 0.005 * k));
  }
  snprintf(dir, sizeof dir, "%s/resume", tmpdir);
  snprintf(args, sizeof args, "caraxis --rtol %s --solvers ida --no-plots --out %s", list, dir);
  pid_t pid = start_sweep(args);
  CHECK(pid > 0, "cannot start the sweep");
  if (pid <= 0) {
    return;
  }
  for (int i = 0; i < 3000 && complete_rows(dir, "runs.partial.csv") < 3; i++) {
    pause_ms(10);
  }
  kill(-pid, SIGKILL);
  waitpid(pid, NULL, 0);
  int before = complete_rows(dir, "runs.partial.csv");
  CHECK(before >= 3 && before < NRESUME && !exists(dir, "runs.csv"),
        "killed sweep: %d rows in runs.partial.csv", before);
  int rc = cli(out, sizeof out, "sweep %s", args);
  CHECK(rc == 2 && strstr(out, "--resume") && complete_rows(dir, "runs.partial.csv") == before,
        "a rerun without --resume: exit %d, runs.partial.csv %d rows, expected %d:\n%.2000s", rc,
        complete_rows(dir, "runs.partial.csv"), before, out);
  rc = cli(out, sizeof out, "sweep %s --resume", args);
  int ran = 0;
  for (char *s = out; (s = strstr(s, "mbdae sweep: [")); s++) {
    ran++;
  }
  char resumed[64];
  snprintf(resumed, sizeof resumed, "resuming: %d of %d runs", before, NRESUME);
  CHECK(rc == 0 && strstr(out, resumed) && ran == NRESUME - before,
        "--resume after %d runs: exit %d, %d runs done again:\n%.3000s", before, rc, ran, out);
  CHECK(read_runs(dir, &t) == 0 && t.nrows == NRESUME, "--resume: %d rows in runs.csv", t.nrows);
  char *item = strtok(list, ",");
  for (int r = 0; r < t.nrows && item; r++, item = strtok(NULL, ",")) {
    CHECK(t.nfields[r] > COL_STEPS && atof(t.f[r][3]) == atof(item) &&
              strcmp(t.f[r][COL_STATUS], "ok") == 0 && atol(t.f[r][COL_STEPS]) > 0,
          "--resume: row %d: rtol %s (expected %s), status %s", r + 1, t.f[r][3], item,
          t.f[r][COL_STATUS]);
  }
  CHECK(!exists(dir, "runs.partial.csv"), "--resume: runs.partial.csv left behind");
}

/* A folder that takes no file stops the sweep before its first run; a write error on
 * runs.partial.csv (a file size limit) is reported when it happens, and runs.csv is not left
 * truncated. */
static void check_write_failures(void)
{
  static char out[1 << 16];
  int rc = cli(out, sizeof out,
               "sweep caraxis --m 0:3 --solvers ida --no-plots --force --out /proc/self");
  CHECK(rc == 2 && strstr(out, "cannot write /proc/self/sweep.conf") &&
            !strstr(out, "mbdae sweep: ["),
        "--out /proc/self: exit %d:\n%s", rc, out);

  char dir[256], cmd[1024];
  snprintf(dir, sizeof dir, "%s/fsize", tmpdir);
  snprintf(cmd, sizeof cmd,
           "sh -c \"trap '' XFSZ; ulimit -f 2; exec '%s' sweep caraxis --m 0:24 --solvers ida "
           "--no-plots --out %s\" 2>&1",
           MBDAE_CLI, dir);
  FILE *f = popen(cmd, "r");
  size_t got = f ? fread(out, 1, sizeof out - 1, f) : 0;
  out[got] = '\0';
  int status = f ? pclose(f) : -1;
  rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  CHECK(rc == 2 && strstr(out, "cannot write ") && strstr(out, "runs.partial.csv: File too large"),
        "a file size limit: exit %d, expected 2 and the write error:\n%.3000s", rc, out);
  CHECK(!exists(dir, "runs.csv") && !exists(dir, "runs.csv.tmp"),
        "a file size limit: a truncated runs.csv or runs.csv.tmp left behind");
}

/* gnuplot that exits 0 without writing its pictures whole (as on a full disk): a PNG cut after its
 * signature for each literal `set output 'FILE'`, nothing for the computed names of the sweep's
 * script.  Both commands must say so and exit 1. */
static void check_truncated_pictures(void)
{
  static char out[1 << 16];
  char fake[256], cmd[600];
  snprintf(fake, sizeof fake, "%s/fake-gnuplot", tmpdir);
  FILE *f = fopen(fake, "w");
  if (!f) {
    CHECK(0, "cannot write %s", fake);
    return;
  }
  fputs(
      "#!/bin/sh\nsed -n \"s/^set output '\\\\(.*\\\\)'\\$/\\\\1/p\" \"$1\" | while read -r f; do\n"
      "  printf '\\211PNG\\r\\n\\032\\n' > \"$f\"\ndone\nexit 0\n",
      f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "chmod +x '%s'", fake);
  CHECK(system(cmd) == 0, "%s failed", cmd);
  setenv("MBDAE_GNUPLOT", fake, 1);
  int rc =
      cli(out, sizeof out, "plot caraxis --rtol 1e-4 --points 50 --out %s/cut/caraxis.png", tmpdir);
  CHECK(rc == 1 && strstr(out, "caraxis.png is incomplete"),
        "plot with a truncated picture: exit %d, expected 1:\n%s", rc, out);
  rc = cli(out, sizeof out, "sweep caraxis --m 0:0 --solvers ida --out %s/cut-sweep", tmpdir);
  CHECK(rc == 1 && strstr(out, "caraxis-scd.png was not written"),
        "sweep without its pictures: exit %d, expected 1:\n%s", rc, out);
  unsetenv("MBDAE_GNUPLOT");
}

/* A runs.csv of one header line and one row whose field `field` (0-based) is value. */
#define CARAXIS_NAMES "x_l y_l x_r y_r vx_l vy_l vx_r vy_r lambda1 lambda2"
#define CARAXIS_Y "0.5 0.25 1 0.5 0 0 0 0 0 0"

static void write_runs(const char *dir, int field, const char *value)
{
  static const char *const good[] = {
      /* names, y and yref: CARAXIS_NAMES, CARAXIS_Y */
      "caraxis", "caraxis", "ida",      "0.0001", "0.0001", "0.0001", "ok",    "",      "3.5",
      "4.5",     "50",      "45",       "200",    "10",     "20",     "0.01",  "0.009", "0.012",
      "1",       "0",       "MBDAE_OK", "3",      "0.01",   "0",      "0",     "0",     "0",
      "IDA",     "",        "",         "",       "1e-9",   "2e-8",   "1e-10", "3e-9",  "45",
      "0",       "0.2.0",   "SUNDIALS", "Linux",  "",       "",       "",      ""};
  char path[512];
  snprintf(path, sizeof path, "mkdir -p '%s'", dir);
  CHECK(system(path) == 0, "%s failed", path);
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    CHECK(0, "cannot write %s", path);
    return;
  }
  for (int c = 0; c < NREQUIRED + NADDED; c++) {
    fprintf(f, "%s%s", c ? "," : "", c < NREQUIRED ? required[c] : added[c - NREQUIRED]);
  }
  fputc('\n', f);
  for (int c = 0; c < NREQUIRED + NADDED; c++) {
    const char *v = c == 28 ? CARAXIS_NAMES : (c == 29 || c == 30) ? CARAXIS_Y : good[c];
    fprintf(f, "%s%s", c ? "," : "", c == field ? value : v);
  }
  fputc('\n', f);
  fclose(f);
}

/* --report on a runs.csv with a hostile or corrupted field: refused with file:line, exit 2, and
 * nothing of the field reaches the gnuplot script (which would run it). */
static void check_hostile_csv(void)
{
  static char out[1 << 16];
  static const struct {
    int field;
    const char *value;
  } bad[] = {
      {2, "\"x\"\";system(\"\"touch pwned\"\");#\""}, /* x";system("touch pwned");# quoted */
      {2, "ida bdf"},
      {0, "car\\axis"},
      {1, "crank"},
      {3, "abc"},
      {3, "0"},
      {3, "-1"},
      {3, "inf"},
      {4, "nan"},
      {5, "1e999"},
      {6, "maybe"},
      {8, "3.5x"},
      {10, "9223372036854775807"},
      {12, "-5"},
      {13, "99999999999999999999"},
      {15, "-1"},
      {18, "2147483648"},
      {19, ""},
      {20, "MBDAE_ERR_NOSUCH"},
      {20, "MBDAE_ERR_MAX_STEPS"}, /* with status ok */
      {20, "MBDAE_RECOVERABLE"},
      {21, "x"},
      {23, "-1"},
      {25, "-1"},
      {25, ""},
      {26, "1.5"},
      {28, "x_l y;l"},
      {28, "x_l  y_l"},
      {29, "0.5 x"},
      {29, "0.5"},        /* one value for ten names */
      {30, "0.5 0.25 1"}, /* three */
      {29, "0.5 1e999"},
      {31, "-1e-9"}, /* drift is a size */
      {32, "x"},
      {34, "inf"},
      {35, ""},
      {35, "-1"},
      {43, "x"}, /* tscd, tmescd, tscd_rms (41-43): a number or nothing */
      {41, "1.5x"},
  };
  char dir[256], pwned[300];
  snprintf(dir, sizeof dir, "%s/hostile", tmpdir);
  snprintf(pwned, sizeof pwned, "%s/pwned", dir);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    write_runs(dir, bad[i].field, bad[i].value);
    int rc = cli(out, sizeof out, "sweep --report %s", dir);
    CHECK(rc == 2 && strstr(out, "runs.csv:2: "),
          "--report with field %d = %s: exit %d, expected 2 naming runs.csv:2:\n%s", bad[i].field,
          bad[i].value, rc, out);
    CHECK(access(pwned, F_OK) != 0, "a solver name in runs.csv ran a command");
  }
  write_runs(dir, -1, "");
  int rc = cli(out, sizeof out, "sweep --report %s --no-plots", dir);
  CHECK(rc == 0, "--report on a good row: exit %d:\n%s", rc, out);
  snprintf(pwned, sizeof pwned, "%s/runs.csv", dir); /* a header with a column too many */
  FILE *f = fopen(pwned, "w");
  if (f) {
    fputs("problem,spec,solver,rtol,atol,h0,status,message,scd,mescd,steps,accepted,nres,njac,nlu,"
          "cpu_seconds,cpu_min,cpu_max,repeats,nres_fd,code,t,h,nerrfail,nconvfail,hmax,max_steps,"
          "solver_title,names,y,yref,evil\n",
          f);
    fclose(f);
  }
  rc = cli(out, sizeof out, "sweep --report %s --no-plots", dir);
  CHECK(rc == 2 && strstr(out, "runs.csv:1: unknown column 'evil'"),
        "--report with an unknown column: exit %d:\n%s", rc, out);
  f = fopen(pwned, "w"); /* columns are found by name, in any order */
  if (f) {
    fputs("yref,y,names,solver_title,max_steps,hmax,nconvfail,nerrfail,h,t,code,"
          "nres_fd,repeats,cpu_max,cpu_min,cpu_seconds,nlu,njac,nres,accepted,steps,mescd,scd,"
          "message,status,h0,atol,rtol,solver,spec,problem\n"
          ",,,,0,0,0,0,,,MBDAE_OK,"
          "0,1,0.1,0.1,0.1,1,1,1,1,1,,,,ok,1e-3,1e-3,1e-3,ida,dpendulum,dpendulum\n",
          f);
    fclose(f);
  }
  rc = cli(out, sizeof out, "sweep --report %s --no-plots", dir);
  CHECK(rc == 0 && count_in_file(dir, "runs.json", "\"solver\": \"ida\"") == 1,
        "--report with the columns in another order: exit %d:\n%s", rc, out);
}

/* The column called name in t's header, or -1. */
static int column_of(const table *t, const char *name)
{
  for (int i = 0; i < t->nheader; i++) {
    if (strcmp(t->h[i], name) == 0) {
      return i;
    }
  }
  return -1;
}

/* --ref FILE: a sweep of a chain configuration without a committed reference takes yref, scd and
 * mescd from the file of `mbdae refsol SPEC --out FILE`, in every row (two jobs: the parent sets
 * them) and says so in its table; without --ref scd stays empty.  Refused for several
 * configurations (naming why), with --report, and for a file of another configuration. */
static void check_ref(void)
{
  static char out[1 << 16];
  char dir[256], ref[256];
  const char *spec = "chain:n=2,m=1:3,tend=0.5";
  snprintf(ref, sizeof ref, "%s/chain-ref.txt", tmpdir);
  CHECK(cli(out, sizeof out, "refsol %s --out %s", spec, ref) == 0, "refsol: %.2000s", out);
  for (int with = 0; with < 2; with++) {
    table t;
    snprintf(dir, sizeof dir, "%s/ref%d", tmpdir, with);
    int rc = cli(out, sizeof out,
                 "sweep %s --solvers radau5,bdf --m 0:2 --jobs 2 --no-plots --out %s%s%s", spec,
                 dir, with ? " --ref " : "", with ? ref : "");
    CHECK(rc == 0 && read_runs(dir, &t) == 0 && t.nrows == 6,
          "sweep --ref %d: exit %d, %d rows:\n%.2000s", with, rc, t.nrows, out);
    CHECK(!with || (strstr(out, "ok, scd") && !strstr(out, "no reference")),
          "--ref: the progress lines give scd:\n%.2000s", out);
    int yref = column_of(&t, "yref");
    CHECK(yref > 0, "runs.csv has a yref column");
    for (int r = 0; r < t.nrows && yref > 0 && t.nfields[r] > yref; r++) {
      const char *scd = t.f[r][COL_SCD], *mescd = t.f[r][COL_MESCD];
      if (with) {
        CHECK(scd[0] && isfinite(atof(scd)) && atof(scd) > 1.0 && mescd[0] &&
                  count_items(t.f[r][yref]) == 10,
              "--ref row %d: scd '%s', mescd '%s', yref of %d values", r + 1, scd, mescd,
              count_items(t.f[r][yref]));
      } else {
        CHECK(!scd[0] && !mescd[0] && !t.f[r][yref][0], "row %d without --ref: scd '%s', yref '%s'",
              r + 1, scd, t.f[r][yref]);
      }
    }
    CHECK(count_in_file(dir, "chain-table.md", "sweep --ref FILE") == with,
          "the table %s the file's reference", with ? "names" : "does not name");
  }
  static const struct {
    const char *args, *why;
  } refused[] = {
      {"all", "'all' is every problem"},
      {"caraxis pendulum", "several problem specs"},
      {"pendulum --forms index3,ssf", "several --forms"},
      {"chain:n=2,m=1:2,tend=0.5", "the reference is for"},
  };
  for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
    int rc = cli(out, sizeof out, "sweep %s --ref %s --out %s/never", refused[k].args, ref, tmpdir);
    CHECK(rc == 2 && strstr(out, refused[k].why), "sweep %s --ref: exit %d:\n%.2000s",
          refused[k].args, rc, out);
  }
  int rc = cli(out, sizeof out, "sweep --report %s/ref1 --ref %s", tmpdir, ref);
  CHECK(rc == 2 && strstr(out, "no --ref"), "--report with --ref: exit %d:\n%.2000s", rc, out);
  CHECK(!exists(tmpdir, "never"), "a refused --ref must not create the output folder");
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  int have_gnuplot = system("gnuplot --version >/dev/null 2>&1") == 0;

  const char *problems = "caraxis, andrews, crank, pendulum, dpendulum";
  expect("sweep", 2, "problem spec or 'all' is required");
  expect("sweep caraxis", 2, "--out DIR is required");
  expect("sweep nosuch --out /tmp/mbdae-never", 2, problems);
  expect("sweep caraxis --solvers ida,euler --out /tmp/mbdae-never", 2, "ida, radau5, radau, bdf");
  expect("sweep caraxis --m 5:2 --out /tmp/mbdae-never", 2, "A <= B");
  expect("sweep caraxis --m x --out /tmp/mbdae-never", 2, "--m expects an integer");
  expect("sweep caraxis --jobs 0 --out /tmp/mbdae-never", 2, "--jobs expects an integer from 1");
  expect("sweep caraxis --shard 3/2 --out /tmp/mbdae-never", 2, "from 1 to 2");
  expect("sweep caraxis --shard 1 --out /tmp/mbdae-never", 2, "i/N");
  expect("sweep caraxis crank crank:index=3 --out /tmp/mbdae-never", 2,
         "one configuration per problem");
  expect("sweep caraxis --frob --out /tmp/mbdae-never", 2, "valid options");
  expect("plot caraxis --out x.pdf", 2, ".png or .svg");
  expect("plot nosuch --out x.png", 2, problems);
  expect("plot caraxis --components 11 --out x.png", 2, "from 1 to 10");
  /* option values longer than their buffers are refused, never cut short */
  expect("sweep caraxis --m 00000000000000000000000000000000000000:1 --out /tmp/mbdae-never", 2,
         "--m: the value is too long");
  static char longer[6000];
  snprintf(longer, sizeof longer, "sweep caraxis --out /tmp/mbdae-never --rtol 1e-4");
  for (size_t n = strlen(longer); n + 8 < 4700;) {
    n += (size_t)snprintf(longer + n, sizeof longer - n, ",1e-4");
  }
  expect_long(longer, 2, "--rtol: the value is too long");
  snprintf(longer, sizeof longer, "sweep caraxis --out /tmp/mbdae-never/%04000d", 0);
  expect_long(longer, 2, "--out: the folder name is too long");
  snprintf(longer, sizeof longer, "plot caraxis --out x.png --components 1%0600d", 0);
  expect_long(longer, 2, "--components: the value is too long");
  CHECK(access("/tmp/mbdae-never", F_OK) != 0, "bad input must not create the output folder");

  check_full_sweep(have_gnuplot);
  check_failed_row();
  check_ref();
  check_forms(have_gnuplot);
  check_shards_and_jobs();
  check_without_gnuplot();
  check_plot(have_gnuplot);
  check_hostile_csv();
  check_sigterm();
  check_resume();
  check_write_failures();
  check_truncated_pictures();

  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (check_failed == 0 && system(cmd) != 0) {
    fprintf(stderr, "could not remove %s\n", tmpdir);
  }
  return check_summary("test_sweep");
}
