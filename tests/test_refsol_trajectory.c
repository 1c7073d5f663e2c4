/* mbdae refsol SPEC --trajectory --out FILE.csv (issue 35, item 3): the reference trajectory of
 * SPEC's configuration as CSV, header t,<component names>, one row per output time, the values
 * those of mbdae_problem_reference_trajectory bit for bit (%.17g); its last row is the end
 * reference.  Refused: no --out, a configuration without a reference trajectory. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

static char out[1 << 16];

/* Read path's rows into t and y (PEND_N values a row), after checking the header; rows read. */
static size_t read_rows(const char *path, double *t, double *y, size_t max)
{
  FILE *f = fopen(path, "r");
  char line[4096];
  size_t rows = 0;
  if (!f) {
    return 0;
  }
  CHECK(fgets(line, sizeof line, f) && strcmp(line, "t,x,y,vx,vy,F\n") == 0, "header t,<names>: %s",
        line);
  while (rows < max && fgets(line, sizeof line, f)) {
    char *s = line;
    t[rows] = strtod(s, &s);
    for (int i = 0; i < PEND_N; i++) {
      CHECK(*s == ',', "row %zu: a comma before value %d", rows + 1, i + 1);
      y[rows * PEND_N + (size_t)i] = strtod(s + 1, &s);
    }
    rows++;
  }
  fclose(f);
  return rows;
}

int main(void)
{
  char dir[] = "/tmp/mbdae-test-refsol-traj-XXXXXX", path[128];
  if (!mkdtemp(dir)) {
    return 1;
  }
  snprintf(path, sizeof path, "%s/pendulum.csv", dir);
  int rc = run_clif(out, sizeof out, "refsol pendulum --trajectory --out %s", path);
  CHECK(rc == 0, "refsol pendulum --trajectory: exit %d\n%s", rc, out);

  mbdae_problem *p = create_problem("pendulum");
  size_t nt = 0;
  const double *tref = NULL;
  static double yref[200 * PEND_N], t[200], y[200 * PEND_N];
  CHECK(mbdae_problem_reference_trajectory(p, &nt, &tref, NULL) == 0 && nt <= 200 &&
            mbdae_problem_reference_trajectory(p, &nt, &tref, yref) == 0,
        "the pendulum's reference trajectory");
  size_t rows = read_rows(path, t, y, 200);
  CHECK(rows == nt && memcmp(t, tref, sizeof(double) * nt) == 0 &&
            memcmp(y, yref, sizeof(double) * nt * PEND_N) == 0,
        "%zu rows (expected %zu), equal bit for bit to the library's", rows, nt);
  double end[PEND_N];
  CHECK(mbdae_problem_ref(p, end) == 0 && memcmp(end, y + (rows - 1) * PEND_N, sizeof end) == 0,
        "the last row is the end reference");
  mbdae_problem_destroy(p);

  expect("refsol pendulum --trajectory", 2, "--out");
  expect("refsol chain:n=40 --trajectory --out /tmp/mbdae-never.csv", 2, "no reference trajectory");
  CHECK(access("/tmp/mbdae-never.csv", F_OK) != 0, "a refused trajectory writes no file");
  unlink(path);
  rmdir(dir);
  return check_summary("test_refsol_trajectory");
}
