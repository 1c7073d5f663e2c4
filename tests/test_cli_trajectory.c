/* mbdae run --trajectory FILE: a CSV with the header t,<component names> and one row per state
 * in %.17g; from the accepted steps it starts at the initial values, t increases, and the last row
 * is bit for bit the y(tend) the run reports (--json "y"); with --samples N it has N rows at
 * equidistant times from the continuous output, the last at tend equal to y(tend) to rounding.
 * A failed run writes the rows it reached; a folder or an unwritable place is refused before the
 * run (exit 2); an existing file is replaced whole, no FILE.tmp stays. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

enum { MAX_ROWS = 20000, MAX_N = 32 };

typedef struct csv {
  char header[1024];
  int nrows, ncols;
  double *v; /* nrows * ncols */
} csv;

/* Read path into c; -1 when it cannot be read or a row is not ncols numbers. */
static int read_csv(const char *path, csv *c)
{
  FILE *f = fopen(path, "r");
  static char line[1 << 14];
  c->nrows = c->ncols = 0;
  if (!f || !fgets(c->header, sizeof c->header, f)) {
    if (f) {
      fclose(f);
    }
    return -1;
  }
  c->ncols = 1;
  for (const char *at = c->header; *at; at++) {
    c->ncols += *at == ',';
  }
  while (fgets(line, sizeof line, f) && c->nrows < MAX_ROWS) {
    char *at = line, *end = NULL;
    for (int j = 0; j < c->ncols; j++, at = end + 1) {
      c->v[(size_t)c->nrows * (size_t)c->ncols + (size_t)j] = strtod(at, &end);
      if (end == at || *end != (j + 1 < c->ncols ? ',' : '\n')) {
        fclose(f);
        return -1;
      }
    }
    c->nrows++;
  }
  fclose(f);
  return 0;
}

/* The "y" array of a --json run in out (n values), or -1. */
static int json_y(const char *out, double *y, int n)
{
  const char *at = strstr(out, "\"y\": [");
  if (!at) {
    return -1;
  }
  at += 6;
  for (int i = 0; i < n; i++) {
    char *end = NULL;
    y[i] = strtod(at, &end);
    if (end == at) {
      return -1;
    }
    at = end + strspn(end, ", ");
  }
  return 0;
}

/* "t,x_l,y_l,...": the header the problem's component names give. */
static void expected_header(const mbdae_problem *p, char *buf, size_t len)
{
  snprintf(buf, len, "t");
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, ",%s", mbdae_problem_component(p, i));
  }
  strncat(buf, "\n", len - strlen(buf) - 1);
}

/* run spec with args and --trajectory path --json; the CSV in c checked against the run's y. */
static void check_run(const char *spec, const char *args, const char *path, int samples, csv *c)
{
  static char out[1 << 17];
  char cmd[1024], header[1024];
  snprintf(cmd, sizeof cmd, "run %s %s --trajectory %s --json", spec, args, path);
  mbdae_problem *p = create_problem(spec);
  int rc = run_cli(cmd, out, sizeof out), n = p ? mbdae_problem_neq(p) : 0;
  double y[MAX_N], y0[2 * MAX_N];
  CHECK(rc == 0 && json_y(out, y, n) == 0, "mbdae %s: exit %d\n%s", cmd, rc, out);
  CHECK(read_csv(path, c) == 0 && c->ncols == n + 1 && c->nrows >= 2, "%s: %d rows of %d columns",
        cmd, c->nrows, c->ncols);
  if (!p || rc != 0 || c->nrows < 2 || c->ncols != n + 1) {
    mbdae_problem_destroy(p);
    return;
  }
  expected_header(p, header, sizeof header);
  CHECK(strcmp(c->header, header) == 0, "%s: header %s", cmd, c->header);
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  mbdae_problem_init(p, y0, y0 + n);
  int increasing = 1, first = 1;
  for (int k = 1; k < c->nrows; k++) {
    increasing &= c->v[(size_t)k * (size_t)c->ncols] > c->v[(size_t)(k - 1) * (size_t)c->ncols];
  }
  for (int i = 0; i < n; i++) {
    first &= c->v[i + 1] == y0[i];
  }
  CHECK(increasing && c->v[0] == t0 && first,
        "%s: rows from t0 and the initial values, t increasing", cmd);
  const double *last = c->v + (size_t)(c->nrows - 1) * (size_t)c->ncols;
  CHECK(last[0] == tend, "%s: the last row at tend (%.17g)", cmd, last[0]);
  for (int i = 0; i < n; i++) {
    double tol = samples ? 1e-12 * (1.0 + fabs(y[i])) : 0.0; /* continuous output: rounding */
    CHECK(fabs(last[i + 1] - y[i]) <= tol, "%s: y_%d %.17g in the file, %.17g printed", cmd, i + 1,
          last[i + 1], y[i]);
  }
  if (samples) {
    CHECK(c->nrows == samples, "%s: %d rows", cmd, c->nrows);
    for (int k = 0; k < c->nrows; k++) {
      double t = c->v[(size_t)k * (size_t)c->ncols];
      CHECK(fabs(t - (t0 + (tend - t0) * k / (samples - 1))) <= 1e-14 * fabs(tend),
            "%s: row %d at t = %.17g", cmd, k, t);
    }
  }
  mbdae_problem_destroy(p);
}

int main(void)
{
  char dir[] = "/tmp/mbdae_trajectory_XXXXXX", path[256], tmp[300], cmd[512];
  CHECK(mkdtemp(dir) != NULL, "a scratch folder");
  snprintf(path, sizeof path, "%s/sol.csv", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  csv c = {.v = malloc(sizeof(double) * MAX_ROWS * (MAX_N + 1))};
  static const char *const solvers[] = {"ida", "radau5", "radau", "bdf"};
  for (int s = 0; s < 4; s++) {
    snprintf(cmd, sizeof cmd, "--solver %s --rtol 1e-4", solvers[s]);
    check_run("caraxis", cmd, path, 0, &c);
    printf("caraxis %s: %d rows\n", solvers[s], c.nrows);
    snprintf(cmd, sizeof cmd, "--solver=%s --rtol=1e-5 --samples=7", solvers[s]);
    check_run("pendulum:form=index1", cmd, path, 7, &c);
  }
  check_run("pendulum:form=index1", "--solver spm --rtol 1e-5", path, 0, &c);
  /* a solver that calls no on_accept: the initial values and the end, and a note */
  check_run("caraxis", "--plugin " PLUGIN_FILE_SILENT " --solver silent --rtol 1e-2", path, 0, &c);
  CHECK(c.nrows == 2, "silent: %d rows", c.nrows);
  snprintf(cmd, sizeof cmd, "run caraxis --plugin %s --solver silent --rtol 1e-2 --trajectory %s",
           PLUGIN_FILE_SILENT, path);
  expect(cmd, 0, "reports no accepted states");
  /* the example plug-in calls on_accept as the contract asks: its 100 steps at rtol 1e-2
   * (N = ceil(10 / sqrt(rtol))) and the initial values */
  check_run("caraxis", "--plugin " PLUGIN_FILE_EULER " --solver euler --rtol 1e-2", path, 0, &c);
  CHECK(c.nrows == 101, "euler: %d rows, expected 101", c.nrows);
  check_run("caraxis", "--rtol 1e-3 --repeat 3", path, 0, &c); /* one run's rows, not three */
  int rows_once = c.nrows;
  check_run("caraxis", "--rtol 1e-3", path, 0, &c);
  CHECK(c.nrows == rows_once, "--repeat 3: %d rows, one run: %d", rows_once, c.nrows);
  CHECK(access(tmp, F_OK) != 0, "no %s left", tmp);

  /* a failed run: the rows it reached (at 20 steps, only t0 of 5 samples) */
  snprintf(cmd, sizeof cmd, "run caraxis --max-steps 20 --trajectory %s --samples 5", path);
  expect(cmd, 1, "maximum number of steps");
  CHECK(read_csv(path, &c) == 0 && c.nrows == 1 && c.v[0] == 0.0, "failed run: %d rows", c.nrows);
  /* refused before the run */
  snprintf(cmd, sizeof cmd, "run caraxis --trajectory %s", dir);
  expect(cmd, 2, "is a folder");
  snprintf(cmd, sizeof cmd, "run caraxis --trajectory %s/no/such/sol.csv", dir);
  expect(cmd, 2, "cannot write");
  expect("run caraxis --samples 5", 2, "--samples N goes with --trajectory");
  snprintf(cmd, sizeof cmd, "run caraxis --trajectory %s --samples 1", path);
  expect(cmd, 2, "--samples expects an integer from 2");
  snprintf(cmd, sizeof cmd, "table caraxis --trajectory %s", path);
  expect(cmd, 2, "unknown option '--trajectory' of table");

  free(c.v);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0, "%s", cmd);
  return check_summary("test_cli_trajectory");
}
