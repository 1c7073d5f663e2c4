/* The wheelset against the test set's own Fortran (tests/testset/wheelset.txt, the printed output
 * of wheel.f's residual: how it was made is written at its head):
 * - the residual equals wheel.f's at the published start and four random states, bit for bit;
 * - the start is the published one (residual 3.5e-15), the index 1 (15 variables) and 2 (lambda);
 * - dF/dy' and dF/dy are analytic (jac_nres 0; test_wheelset_jac.c tests dF/dy further);
 * - refsol/wheelset.txt holds wheel.f's own reference [wheelsoln], all 17 components, and the
 *   reference in use agrees with it to between 5 and 6 digits (its DASSL ran at 1e-9). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

enum { NEQ = 17, NSTATES = 5 };

typedef struct fortran_data {
  double y[NSTATES][NEQ], yp[NSTATES][NEQ], delta[NSTATES][NEQ];
  int count;
} fortran_data;

static int read_fortran(fortran_data *d)
{
  FILE *in = fopen(MBDAE_REFSOL_DIR "/../tests/testset/wheelset.txt", "r");
  if (!in) {
    return -1;
  }
  char line[256];
  int s = -1;
  memset(d, 0, sizeof *d);
  while (fgets(line, sizeof line, in)) {
    int i, k;
    double a, b, c;
    if (line[0] == '#') {
      continue;
    }
    if (line[0] == '[') {
      s = sscanf(line, "[state %d]", &k) == 1 && k >= 0 && k < NSTATES ? k : -1;
      continue;
    }
    if (s >= 0 && sscanf(line, "%d %lf %lf %lf", &i, &a, &b, &c) == 4 && i >= 1 && i <= NEQ) {
      d->y[s][i - 1] = a, d->yp[s][i - 1] = b, d->delta[s][i - 1] = c;
      d->count++;
    }
  }
  fclose(in);
  return 0;
}

static void test_residual(const mbdae_problem *p, const fortran_data *d)
{
  double r[NEQ], worst = 0.0;
  int equal = 0;
  for (int s = 0; s < NSTATES; s++) {
    CHECK(mbdae_problem_res(p, 0.0, d->y[s], d->yp[s], r) == 0, "state %d", s);
    for (int i = 0; i < NEQ; i++) {
      CHECK(r[i] == d->delta[s][i], "state %d row %d: F = %.17g, wheel.f %.17g", s, i + 1, r[i],
            d->delta[s][i]);
      equal += r[i] == d->delta[s][i];
      worst = fmax(worst, fabs(r[i] - d->delta[s][i]));
    }
  }
  printf("residual: %d of %d rows equal to wheel.f bit for bit, largest difference %.3g\n", equal,
         NSTATES * NEQ, worst);
}

static void test_start(const mbdae_problem *p, const fortran_data *d)
{
  double y[NEQ], yp[NEQ];
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  for (int i = 0; i < NEQ; i++) {
    CHECK(y[i] == d->y[0][i] && yp[i] == d->yp[0][i], "start %d: %.17g %.17g", i + 1, y[i], yp[i]);
  }
  const int *index = mbdae_problem_index(p);
  for (int i = 0; i < NEQ; i++) {
    CHECK(index[i] == (i < 15 ? 1 : 2), "index of y_%d: %d", i + 1, index[i]);
  }
}

/* dF/dy against central differences of other steps (1e-6 of each variable's size) at a random
 * state: they agree to 2e-5 (the creep law's tanh, of gain ~1e3 per m/s of creepage, bends within
 * the steps, and rounding of forces of 1e4 limits smaller ones); dF/dy' against the mass
 * structure. */
static void test_jacobian(const mbdae_problem *p, const fortran_data *d)
{
  static double dfdy[NEQ * NEQ], dfdyp[NEQ * NEQ];
  const double *y0 = d->y[1], *yp = d->yp[1];
  CHECK(mbdae_problem_jac(p, 0.0, y0, yp, dfdy, dfdyp) == 0, "jac");
  CHECK(mbdae_problem_jac_nres(p) == 0, "jac_nres %d", mbdae_problem_jac_nres(p));
  double y[NEQ], rp[NEQ], rm[NEQ], worst = 0.0;
  for (int j = 0; j < NEQ; j++) {
    memcpy(y, y0, sizeof y);
    double h = 1e-6 * fmax(fabs(y0[j]), 1e-3);
    y[j] = y0[j] + h;
    CHECK(mbdae_problem_res(p, 0.0, y, yp, rp) == 0, "res +");
    y[j] = y0[j] - h;
    CHECK(mbdae_problem_res(p, 0.0, y, yp, rm) == 0, "res -");
    for (int i = 0; i < NEQ; i++) {
      double fd = (rp[i] - rm[i]) / (2.0 * h), j_ij = dfdy[i + NEQ * j];
      double err = fabs(j_ij - fd) / (1.0 + fabs(fd));
      worst = fmax(worst, err);
      CHECK(err < 1e-4, "dF/dy(%d,%d) = %.6e, central %.6e", i + 1, j + 1, j_ij, fd);
    }
  }
  printf("dF/dy: largest difference from central differences %.3g\n", worst);
  CHECK(dfdyp[0] == 1.0 && dfdyp[5 + NEQ * 5] == 16.08, "dF/dy' diagonal");
  CHECK(dfdyp[10 + NEQ * 8] == 0.0605 * sin(y0[4]), "dF/dy'(11,9) = I_1 sin(phi)");
  CHECK(dfdyp[8 + NEQ * 8] == 0.366 * cos(y0[4]), "dF/dy'(9,9) = I_2 cos(phi)");
}

/* Section `name` of refsol/wheelset.txt into v; the number of components read. */
static int read_refsol(const char *name, double v[NEQ])
{
  FILE *in = fopen(MBDAE_REFSOL_DIR "/wheelset.txt", "r");
  if (!in) {
    return -1;
  }
  char line[256];
  int inside = 0, count = 0, i;
  double x;
  while (fgets(line, sizeof line, in)) {
    if (line[0] == '[') {
      inside = strncmp(line, name, strlen(name)) == 0 && line[strlen(name)] == '\n';
    } else if (inside && sscanf(line, "%d %lf", &i, &x) == 2 && i >= 1 && i <= NEQ) {
      v[i - 1] = x;
      count++;
    }
  }
  fclose(in);
  return count;
}

/* The reference in use against wheel.f's: the least number of agreeing digits over the
 * components lies in [5, 6) (5.3, in y). */
static void test_reference(const mbdae_problem *p)
{
  double published[NEQ], yref[NEQ], ref[NEQ], digits = 99.0;
  CHECK(read_refsol("[wheelsoln]", published) == NEQ, "refsol/wheelset.txt [wheelsoln]");
  CHECK(read_refsol("[yref]", yref) == NEQ, "refsol/wheelset.txt [yref]");
  CHECK(mbdae_problem_ref(p, ref) == 0, "reference");
  for (int i = 0; i < NEQ; i++) {
    CHECK(ref[i] == yref[i], "yref_%d", i + 1);
    digits = fmin(digits, -log10(fabs(ref[i] - published[i]) / fabs(ref[i])));
  }
  CHECK(digits >= 5.0 && digits < 6.0, "reference vs wheelsoln: %.2f digits", digits);
  printf("reference: agrees with wheel.f's wheelsoln to %.2f digits\n", digits);
}

int main(void)
{
  static fortran_data d;
  CHECK(read_fortran(&d) == 0, "tests/testset/wheelset.txt");
  CHECK(d.count == NSTATES * NEQ, "wheelset.txt: %d values", d.count);
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create("wheelset", &p, NULL, 0) == 0, "wheelset");
  if (p) {
    test_residual(p, &d);
    test_start(p, &d);
    test_jacobian(p, &d);
    test_reference(p);
  }
  mbdae_problem_destroy(p);
  return check_summary("test_wheelset");
}
