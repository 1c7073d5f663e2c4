/* mbdae sweep --metric scd|mescd|tscd|tmescd (issue 35): the measure of the sweep's main
 * work-precision diagram.  With --metric tscd the script workprecision.gp says metric = 'tscd'
 * and, loaded by gnuplot, draws the tscd diagram first with tscd's axis label; each run's
 * progress line gives its tscd first, the value of runs.csv's tscd column; the closing line names
 * <problem>-tscd.png, which exists.  `--report DIR --metric tmescd` writes the script again for
 * tmescd.  The default stays scd (the progress line as before), and a value that is not a metric
 * is refused with exit 2, naming the valid ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

#include "gnuplot_support.h"

static char tmpdir[] = "/tmp/mbdae-test-sweep-metric-XXXXXX";
static char out[1 << 17];

/* The count of needle in hay. */
static int count_of(const char *hay, const char *needle)
{
  int n = 0;
  for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle)) {
    n++;
  }
  return n;
}

/* The start of field `col` (0-based) of a CSV line (a quoted field may hold commas), or NULL. */
static const char *field_at(const char *line, int col)
{
  int quoted = 0;
  for (const char *c = line; *c && *c != '\n'; c++) {
    if (col == 0) {
      return c;
    }
    quoted ^= *c == '"';
    col -= !quoted && *c == ',';
  }
  return col == 0 ? line + strcspn(line, "\n") : NULL;
}

/* Field col of a line as a number (NaN when empty or absent). */
static double field_of(const char *line, int col)
{
  const char *f = field_at(line, col);
  return f && *f != ',' && *f != '\n' && *f ? strtod(f, NULL) : NAN;
}

/* The column of name in the header line of runs.csv, or -1. */
static int column_of(const char *header, const char *name)
{
  size_t len = strlen(name);
  const char *f = header;
  for (int col = 0; (f = field_at(header, col)) != NULL && *f && *f != '\n'; col++) {
    if (strncmp(f, name, len) == 0 && (f[len] == ',' || f[len] == '\n')) {
      return col;
    }
  }
  return -1;
}

/* Every row's tscd in runs.csv of dir shows in a progress line "ok, tscd X.XX, scd"; the rows
 * have tscd (the pendulum has a reference trajectory). */
static void check_progress_lines(const char *dir, const char *log)
{
  static char csv[1 << 16];
  char path[512];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  CHECK(slurp(path, csv, sizeof csv) == 0, "no %s", path);
  int col = column_of(csv, "tscd"), rows = 0;
  CHECK(col > 0, "runs.csv has no tscd column");
  for (const char *line = strchr(csv, '\n'); col > 0 && line && line[1];
       line = strchr(line, '\n')) {
    line++;
    double tscd = field_of(line, col);
    char shown[64];
    snprintf(shown, sizeof shown, "ok, tscd %.2f, scd ", tscd);
    CHECK(isfinite(tscd) && strstr(log, shown), "row %d: tscd %g, no '%s' in:\n%s", rows + 1, tscd,
          shown, log);
    rows++;
  }
  CHECK(rows == 2 && count_of(log, "ok, tscd ") == 2, "2 rows with tscd, 2 lines:\n%s", log);
}

/* gnuplot loads the script without drawing (ARG1 '': no problem) and prints what it would draw
 * first: the measure and its axis label. */
static void check_script_order(const char *dir, const char *want, const char *label)
{
  char path[512], cmd[1024];
  snprintf(path, sizeof path, "%s/probe.gp", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "cannot write %s", path);
  if (!f) {
    return;
  }
  fputs("call 'workprecision.gp' ''\n"
        "print sprintf('first: %s | %s', word(measures, 1), "
        "measure_label[measure_index(word(measures, 1))])\n"
        "print sprintf('measures: %s', measures)\n",
        f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot probe.gp 2>&1", dir);
  FILE *p = popen(cmd, "r");
  size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
  out[got] = '\0';
  int rc = p ? pclose(p) : -1;
  char first[256];
  snprintf(first, sizeof first, "first: %s | %s", want, label);
  CHECK(rc == 0 && strstr(out, first), "gnuplot on the script: want '%s', got (status %d):\n%s",
        first, rc, out);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    return 1;
  }
  static char log[1 << 17];
  char dir[300], line[700];
  snprintf(dir, sizeof dir, "%s/wp", tmpdir);
  int gnuplot = system("gnuplot --version > /dev/null 2>&1") == 0;
  int rc = run_clif(log, sizeof log,
                    "sweep pendulum --solvers radau5 --rtol 1e-4,1e-6 --repeat 1 --metric tscd "
                    "--out %s%s",
                    dir, gnuplot ? "" : " --no-plots");
  CHECK(rc == 0, "sweep --metric tscd: exit %d:\n%s", rc, log);
  char script[512];
  snprintf(script, sizeof script, "%s/workprecision.gp", dir);
  CHECK(slurp(script, out, sizeof out) == 0 && count_of(out, "\nmetric = 'tscd'") == 1,
        "workprecision.gp says metric = 'tscd':\n%.2000s", out);
  check_progress_lines(dir, log);
  if (gnuplot) {
    snprintf(line, sizeof line,
             "mbdae sweep: work-precision by tscd (--metric): %s/pendulum-tscd.png", dir);
    CHECK(strstr(log, line) != NULL, "the closing line names the main diagram '%s':\n%s", line,
          log);
    check_script_order(dir, "tscd", "tscd (least scd along the reference trajectory)");
    rc = run_clif(log, sizeof log, "sweep --report %s --metric tmescd --no-plots", dir);
    CHECK(rc == 0 && slurp(script, out, sizeof out) == 0 && strstr(out, "\nmetric = 'tmescd'"),
          "--report --metric tmescd: exit %d:\n%s", rc, log);
    check_script_order(dir, "tmescd", "tmescd (least mescd along the reference trajectory)");
    rc = run_clif(log, sizeof log, "sweep --report %s --no-plots", dir);
    check_script_order(dir, "scd", "scd (at t_{end})");
  } else {
    fputs("test_sweep_metric: gnuplot not installed; the script's order is not checked\n", stderr);
  }
  /* the default: scd, the progress line as before --metric */
  rc = run_clif(log, sizeof log,
                "sweep pendulum --solvers radau5 --rtol 1e-4 --repeat 1 "
                "--no-plots --out %s/default",
                tmpdir);
  CHECK(rc == 0 && strstr(log, "rtol 0.0001: ok, scd ") && !strstr(log, "tscd"),
        "the default sweep: exit %d:\n%s", rc, log);
  expect("sweep pendulum --metric drift --out /tmp/never-written", 2,
         "--metric: 'drift' is not a measure a sweep draws; use scd, mescd, tscd or tmescd");
  expect("sweep pendulum --metric --out /tmp/never-written", 2, "--metric");
  expect("sweep --report /tmp/never-written --metric TSCD", 2, "'TSCD' is not a measure");
  snprintf(line, sizeof line, "rm -rf '%s'", tmpdir);
  CHECK(system(line) == 0, "cannot remove %s", tmpdir);
  return check_summary("test_sweep_metric");
}
