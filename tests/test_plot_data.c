/* mbdae plot --data FILE.csv (src/cli/cmd_plot.c, series_csv.c): the plotted numbers as a CSV
 * that any reader takes without options: one header line, then one line per output point the
 * solver reached, every line with as many fields as the header, no comment or blank line; the
 * columns are t, the components the panels use, their values modulo 2 pi where the panels wrap
 * them, and max |g| of the constraints; the numbers are those of the script gnuplot draws. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

#include "gnuplot_support.h"

static char tmpdir[] = "/tmp/mbdae-test-plot-data-XXXXXX";

enum { MAX_ROWS = 64, MAX_COLS = 32 };

typedef struct table {
  char header[1024];
  int nrows, ncols;
  double v[MAX_ROWS][MAX_COLS];
} table;

/* Read a CSV of numbers (empty field: NaN); -1 when a line is not header-shaped. */
static int read_table(const char *path, table *t)
{
  static char text[1 << 16];
  memset(t, 0, sizeof *t);
  if (slurp(path, text, sizeof text) != 0) {
    return -1;
  }
  char *save = NULL, *line = strtok_r(text, "\n", &save);
  if (!line || strlen(line) >= sizeof t->header) {
    return -1;
  }
  strcpy(t->header, line);
  t->ncols = 1;
  for (const char *c = line; *c; c++) {
    t->ncols += *c == ',';
  }
  while ((line = strtok_r(NULL, "\n", &save)) && t->nrows < MAX_ROWS) {
    int n = 0;
    for (char *f = line; n < MAX_COLS; n++) {
      char *end = f;
      t->v[t->nrows][n] = (*f == ',' || *f == '\0') ? NAN : strtod(f, &end);
      if (end == f && *f != ',' && *f != '\0') {
        return -1; /* not a number: a comment or text line */
      }
      f = strchr(end, ',');
      if (!f) {
        break;
      }
      f++;
    }
    if (n + 1 != t->ncols) {
      return -1;
    }
    t->nrows++;
  }
  return 0;
}

static void check_pendulum(void)
{
  static char out[1 << 14];
  char file[300], log[300];
  table t;
  snprintf(file, sizeof file, "%s/sub/pendulum.csv", tmpdir);
  snprintf(log, sizeof log, "%s/pendulum.out", tmpdir);
  const char *argv[] = {"plot", "pendulum", "--points", "11", "--data", file, NULL};
  int rc = run_cli_argv(argv, log, out, sizeof out);
  CHECK(rc == 0, "plot --data alone: exit %d:\n%s", rc, out);
  CHECK(read_table(file, &t) == 0, "%s is not a CSV of numbers", file);
  CHECK(strcmp(t.header, "t,x,y,max_abs_g_position,max_abs_g_velocity") == 0, "header %s",
        t.header);
  CHECK(t.nrows == 11, "%d rows, expected 11", t.nrows);
  CHECK(t.v[0][0] == 0.0 && t.v[10][0] == 100.0 && t.v[0][1] == 1.0 && t.v[0][2] == 0.0,
        "first and last rows: t %g .. %g, (x, y)(0) = (%g, %g)", t.v[0][0], t.v[10][0], t.v[0][1],
        t.v[0][2]);
  for (int r = 0; r < t.nrows; r++) {
    double x = t.v[r][1], y = t.v[r][2], g = t.v[r][3];
    CHECK(fabs(x * x + y * y - 1.0) < 1e-4 && g >= 0.0 && g < 1e-4,
          "row %d: x^2 + y^2 = %.9f, max |g| = %g", r, x * x + y * y, g);
  }
}

/* Andrews' default panels wrap the angles: each angle and its value modulo 2 pi. */
static void check_andrews_wrapped(void)
{
  static char out[1 << 14];
  char file[300], log[300];
  table t;
  snprintf(file, sizeof file, "%s/andrews.csv", tmpdir);
  snprintf(log, sizeof log, "%s/andrews.out", tmpdir);
  const char *argv[] = {"plot", "andrews", "--points", "9", "--data", file, NULL};
  int rc = run_cli_argv(argv, log, out, sizeof out);
  CHECK(rc == 0 && read_table(file, &t) == 0 && t.nrows == 9, "plot andrews --data: exit %d:\n%s",
        rc, out);
  CHECK(strncmp(t.header, "t,beta,beta_mod_2pi,Theta,Theta_mod_2pi,", 40) == 0, "header %s",
        t.header);
  int wrapped_any = 0;
  for (int r = 0; r < t.nrows; r++) {
    double beta = t.v[r][1], mod = t.v[r][2];
    CHECK(fabs(mod - remainder(beta, 2.0 * 3.14159265358979323846)) < 1e-12 && fabs(mod) <= 3.15,
          "row %d: beta %g, beta_mod_2pi %g", r, beta, mod);
    wrapped_any = wrapped_any || mod != beta;
  }
  CHECK(wrapped_any, "beta never left (-pi, pi]: the wrapped column is not tested");
}

/* With --out as well: the CSV's numbers are the script's (its first data block, x and y). */
static void check_same_as_script(void)
{
  static char out[1 << 14], script[1 << 16];
  char file[300], png[300], gp[300], log[300];
  table t;
  snprintf(file, sizeof file, "%s/both.csv", tmpdir);
  snprintf(png, sizeof png, "%s/both.png", tmpdir);
  snprintf(gp, sizeof gp, "%s/both.gp", tmpdir);
  snprintf(log, sizeof log, "%s/both.out", tmpdir);
  setenv("MBDAE_GNUPLOT", "/nonexistent/gnuplot", 1); /* the script is written all the same */
  const char *argv[] = {"plot", "pendulum", "--points", "7", "--data", file, "--out", png, NULL};
  int rc = run_cli_argv(argv, log, out, sizeof out);
  unsetenv("MBDAE_GNUPLOT");
  CHECK(rc == 1 && strstr(out, "gnuplot not found"), "plot without gnuplot: exit %d:\n%s", rc, out);
  CHECK(read_table(file, &t) == 0 && t.nrows == 7, "%s: %d rows", file, t.nrows);
  CHECK(slurp(gp, script, sizeof script) == 0, "no %s", gp);
  const char *block = strstr(script, "$panel1 << EOD\n");
  int r = 0;
  for (const char *line = block ? strchr(block, '\n') + 1 : NULL; line && r < t.nrows; r++) {
    double x = 0.0, y = 0.0;
    if (sscanf(line, "%lf %lf", &x, &y) != 2) {
      break;
    }
    CHECK(fabs(x - t.v[r][1]) < 1e-9 && fabs(y - t.v[r][2]) < 1e-9,
          "point %d: script (%.10g, %.10g), CSV (%.17g, %.17g)", r, x, y, t.v[r][1], t.v[r][2]);
    line = strchr(line, '\n');
    line = line ? line + 1 : NULL;
  }
  CHECK(r == 7, "the script's first block has %d points, the CSV 7", r);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  check_pendulum();
  check_andrews_wrapped();
  check_same_as_script();
  expect("plot caraxis", 2, "--out FILE.png|svg or --data FILE.csv");
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (check_failed == 0 && system(cmd) != 0) {
    fprintf(stderr, "cannot remove %s\n", tmpdir);
  }
  return check_summary("test_plot_data");
}
