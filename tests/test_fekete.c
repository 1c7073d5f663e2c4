/* The Fekete problem against the test set's own Fortran (tests/testset/fekete.txt, the printed
 * output of fekete.f: how it was made is written at its head):
 * - fekete (form=ggl, the published form) gives F = M y' - f bit for bit at three random states,
 *   f fekete.f's right-hand side; rows 1..120 equal deTestSet's fekres too, rows 121..160 are its
 *   negation (the test set's convention F = M y' - f, head of problems/fekete.c);
 * - the start is fekinit's bit for bit: y(0) everywhere, y'(0) in the differential rows;
 * - the layer's other forms share the published rows where they are the same equations (mu = 0);
 * - the reference is feksoln's digits (refsol/fekete.txt), the index 1 (p, q) and 2 (lambda, mu);
 * - n= sizes the problem (8n equations, consistent start, no reference) and is range-checked. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

enum { NEQ = 160, NDIFF = 120, NSTATES = 3 };

typedef struct fortran_data {
  double y0[NEQ], yp0[NEQ];
  double y[NSTATES][NEQ], yp[NSTATES][NEQ], f[NSTATES][NEQ], delta[NSTATES][NEQ];
  int count; /* values read */
} fortran_data;

/* Read the sections of tests/testset/fekete.txt; 0, or -1 when the file is missing. */
static int read_fortran(fortran_data *d)
{
  FILE *in = fopen(MBDAE_REFSOL_DIR "/../tests/testset/fekete.txt", "r");
  if (!in) {
    return -1;
  }
  char line[256];
  int section = -1; /* 0: y0, 1: yp0, 2 + s: state s */
  memset(d, 0, sizeof *d);
  while (fgets(line, sizeof line, in)) {
    int i, s;
    double a, b, c, e;
    if (line[0] == '#') {
      continue;
    }
    if (line[0] == '[') {
      section = strncmp(line, "[y0]", 4) == 0                                   ? 0
                : strncmp(line, "[yp0]", 5) == 0                                ? 1
                : sscanf(line, "[state %d]", &s) == 1 && s >= 1 && s <= NSTATES ? 1 + s
                                                                                : -1;
      continue;
    }
    if (section >= 2 && sscanf(line, "%d %lf %lf %lf %lf", &i, &a, &b, &c, &e) == 5 && i >= 1 &&
        i <= NEQ) {
      d->y[section - 2][i - 1] = a, d->yp[section - 2][i - 1] = b;
      d->f[section - 2][i - 1] = c, d->delta[section - 2][i - 1] = e;
      d->count++;
    } else if (section >= 0 && section < 2 && sscanf(line, "%d %lf", &i, &a) == 2 && i >= 1 &&
               i <= NEQ) {
      (section == 0 ? d->y0 : d->yp0)[i - 1] = a;
      d->count++;
    }
  }
  fclose(in);
  return 0;
}

static mbdae_problem *create(const char *spec)
{
  mbdae_problem *p = NULL;
  char msg[256] = "";
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0, "%s: %s", spec, msg);
  return rc == 0 ? p : NULL;
}

static void test_residual(const fortran_data *d)
{
  mbdae_problem *p = create("fekete");
  if (!p) {
    return;
  }
  double r[NEQ], worst = 0.0;
  int equal = 0;
  for (int s = 0; s < NSTATES; s++) {
    CHECK(mbdae_problem_res(p, 0.0, d->y[s], d->yp[s], r) == 0, "state %d", s + 1);
    for (int i = 0; i < NEQ; i++) {
      double expect = i < NDIFF ? d->yp[s][i] - d->f[s][i] : -d->f[s][i];
      double fekres = i < NDIFF ? d->delta[s][i] : -d->delta[s][i];
      CHECK(r[i] == expect && r[i] == fekres,
            "state %d row %d: F = %.17g, fekete.f %.17g (fekres %.17g)", s + 1, i + 1, r[i], expect,
            d->delta[s][i]);
      equal += r[i] == expect;
      worst = fabs(r[i] - expect) > worst ? fabs(r[i] - expect) : worst;
    }
  }
  printf("residual: %d of %d rows equal to fekete.f bit for bit, largest difference %.3g\n", equal,
         NSTATES * NEQ, worst);
  mbdae_problem_destroy(p);
}

static void test_start(const fortran_data *d)
{
  mbdae_problem *p = create("fekete");
  if (!p) {
    return;
  }
  double y[NEQ], yp[NEQ];
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  for (int i = 0; i < NEQ; i++) {
    CHECK(y[i] == d->y0[i], "y0_%d = %.17g, fekinit %.17g", i + 1, y[i], d->y0[i]);
    /* fekinit stores f's algebraic rows (g, 2 p.q: rounding noise) in y'(0) of lambda and mu */
    double expect = i < NDIFF ? d->yp0[i] : 0.0;
    CHECK(yp[i] == expect, "yp0_%d = %.17g, expected %.17g", i + 1, yp[i], expect);
  }
  const int *index = mbdae_problem_index(p);
  for (int i = 0; i < NEQ; i++) {
    CHECK(index[i] == (i < NDIFF ? 1 : 2), "index of y_%d: %d", i + 1, index[i]);
  }
  mbdae_problem_destroy(p);
}

/* At mu = 0 the published rows p, q, lambda and mu are those of index2 (p' - q, R, -g') and
 * index3 (its lambda rows -g), term by term in the same order: equal bit for bit. */
static void test_forms(const fortran_data *d)
{
  mbdae_problem *ggl = create("fekete"), *i2 = create("fekete:form=index2"),
                *i3 = create("fekete:form=index3");
  if (!ggl || !i2 || !i3) {
    mbdae_problem_destroy(ggl), mbdae_problem_destroy(i2), mbdae_problem_destroy(i3);
    return;
  }
  CHECK(mbdae_problem_neq(i2) == 140 && mbdae_problem_neq(i3) == 140, "index2/3: 140 equations");
  double y[NEQ], r[NEQ], r2[NEQ], r3[NEQ];
  memcpy(y, d->y[0], sizeof y);
  memset(y + 140, 0, sizeof(double) * 20); /* mu = 0 */
  CHECK(mbdae_problem_res(ggl, 0.0, y, d->yp[0], r) == 0, "ggl");
  CHECK(mbdae_problem_res(i2, 0.0, y, d->yp[0], r2) == 0, "index2");
  CHECK(mbdae_problem_res(i3, 0.0, y, d->yp[0], r3) == 0, "index3");
  for (int i = 0; i < 140; i++) {
    CHECK(r2[i] == (i < NDIFF ? r[i] : r[i + 20]), "index2 row %d: %.17g", i + 1, r2[i]);
    CHECK(r3[i] == r[i], "index3 row %d: %.17g vs %.17g", i + 1, r3[i], r[i]);
  }
  mbdae_problem_destroy(ggl), mbdae_problem_destroy(i2), mbdae_problem_destroy(i3);
}

static void test_sizes(void)
{
  mbdae_problem *p = create("fekete:n=5,form=index1");
  if (p) {
    CHECK(mbdae_problem_neq(p) == 35, "n=5 index1: 35 equations, not %d", mbdae_problem_neq(p));
    double y[40], yp[40], r[40], yref[40];
    CHECK(mbdae_problem_init(p, y, yp) == 0 && mbdae_problem_res(p, 0.0, y, yp, r) == 0, "n=5");
    for (int i = 0; i < 35; i++) {
      CHECK(fabs(r[i]) < 1e-13, "n=5: consistent start, row %d = %.3g", i + 1, r[i]);
    }
    CHECK(mbdae_problem_ref(p, yref) == MBDAE_ERR_NOREF, "n=5 has no reference");
    mbdae_problem_destroy(p);
  }
  p = create("fekete:form=ggl,n=20");
  CHECK(p && strcmp(mbdae_problem_spec(p), "fekete:n=20,form=ggl") == 0, "canonical spec %s",
        p ? mbdae_problem_spec(p) : "");
  mbdae_problem_destroy(p);
  static const char *const bad[] = {"fekete:n=1", "fekete:n=101",    "fekete:n=2x",
                                    "fekete:n=",  "fekete:form=ssf", "fekete:form=dummy"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char msg[256] = "";
    p = NULL;
    CHECK(mbdae_problem_create(bad[k], &p, msg, sizeof msg) == MBDAE_ERR_SPEC && !p && msg[0],
          "%s must be refused with a message", bad[k]);
    mbdae_problem_destroy(p);
  }
}

int main(void)
{
  static fortran_data d;
  CHECK(read_fortran(&d) == 0, "tests/testset/fekete.txt");
  CHECK(d.count == 2 * NEQ + NSTATES * NEQ, "fekete.txt: %d values", d.count);
  test_residual(&d);
  test_start(&d);
  test_forms(&d);
  test_sizes();
  return check_summary("test_fekete");
}
