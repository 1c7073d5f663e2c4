/* octave_values: the C side of the Octave interface's tests (the .m scripts beside it).
 *   octave_values specs          every built-in problem in each of its forms, one spec a line
 *   octave_values values SPEC..  per spec: y0, yp0, F at the start, and at a second point
 *                                (t1, y1, y1') F, dF/dy, dF/dy' (dense) and the constraints, each
 *                                value as the 16 hex digits of its IEEE bits (Octave's num2hex),
 *                                so that the Octave side compares bit for bit
 *   octave_values scd FILE       each record of runs.csv FILE with a final state: scd and mescd
 *                                computed again by the library (mbdae_scd, mbdae_mescd at the
 *                                record's tolerances) against the record's, bit for bit; exit 1
 *                                on a difference
 *   octave_values cost SPEC..    CPU seconds of one residual call from C (mbdae_problem_unit_costs,
 *                                mean of 20000 calls at the start), for examples/octave/overhead.m
 * The second point: t1 = t0 + (tend - t0) / 4, y1_i = 1.0625 y0_i + 0.001 i, y1'_i = 0.9375 y0'_i
 * - 0.002 i (i = 1..n), the same operations as the Octave side. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbdae/mbdae.h>

static void hex_line(const char *label, const double *v, size_t n)
{
  printf("%s", label);
  for (size_t i = 0; i < n; i++) {
    uint64_t bits;
    memcpy(&bits, &v[i], sizeof bits);
    printf(" %016" PRIx64, bits);
  }
  printf("\n");
}

static void print_specs(void)
{
  for (int i = 0; i < mbdae_problem_count(); i++) {
    const char *id = mbdae_problem_id(i), *o = strstr(mbdae_problem_options(id), "form=");
    if (!o) {
      printf("%s\n", id);
      continue;
    }
    o += 5;
    size_t len = strcspn(o, ",");
    char forms[256];
    snprintf(forms, sizeof forms, "%.*s", (int)len, o);
    for (char *f = strtok(forms, "|"); f; f = strtok(NULL, "|")) {
      printf("%s:form=%s\n", id, f);
    }
  }
}

/* The values at the second point of p (n values each in y, yp; 2 n^2 + n + 3 nc in work). */
static void second_point(const mbdae_problem *p, int n, const double *y0, const double *yp0)
{
  size_t nn = (size_t)n * (size_t)n;
  int nc = mbdae_problem_nconstraints(p);
  double *y = malloc(sizeof(double) * (2 * nn + 3 * (size_t)n + 3 * (size_t)nc + 3));
  double *yp = y + n, *f = yp + n, *a = f + n, *b = a + nn, *g = b + nn;
  double t = mbdae_problem_t0(p) + (mbdae_problem_tend(p) - mbdae_problem_t0(p)) / 4;
  for (int i = 0; i < n; i++) {
    y[i] = 1.0625 * y0[i] + 0.001 * (i + 1);
    yp[i] = 0.9375 * yp0[i] - 0.002 * (i + 1);
  }
  if (mbdae_problem_res(p, t, y, yp, f) == 0) {
    hex_line("F1", f, (size_t)n);
  } else {
    printf("F1 fail\n");
  }
  if (mbdae_problem_jac(p, t, y, yp, a, b) == 0) {
    hex_line("dFdy", a, nn);
    hex_line("dFdyp", b, nn);
  } else {
    printf("J fail\n");
  }
  if (nc > 0 && mbdae_problem_constraints(p, t, y, yp, g, g + nc, g + 2 * nc) == 0) {
    hex_line("g", g, 3 * (size_t)nc);
  }
  free(y);
}

static int print_values(const char *spec)
{
  mbdae_problem *p = NULL;
  char msg[256];
  if (mbdae_problem_create(spec, &p, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s: %s\n", spec, msg);
    return 1;
  }
  int n = mbdae_problem_neq(p);
  double *y0 = malloc(sizeof(double) * 3 * (size_t)n), *yp0 = y0 + n, *f = yp0 + n;
  int rc = mbdae_problem_init(p, y0, yp0);
  printf("spec %s\n", spec);
  if (rc == 0) {
    hex_line("y0", y0, (size_t)n);
    hex_line("yp0", yp0, (size_t)n);
    rc = mbdae_problem_res(p, mbdae_problem_t0(p), y0, yp0, f);
    hex_line("F0", f, (size_t)n);
    second_point(p, n, y0, yp0);
  }
  free(y0);
  mbdae_problem_destroy(p);
  return rc != 0;
}

static int same(double a, double b)
{
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static int check_scd(const char *path)
{
  FILE *in = fopen(path, "r");
  mbdae_record *recs = NULL;
  size_t n = 0;
  char msg[512];
  if (!in || mbdae_record_read_csv(in, path, &recs, &n, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s: %s\n", path, in ? msg : "cannot open");
    if (in) {
      fclose(in);
    }
    return 1;
  }
  fclose(in);
  int bad = 0;
  for (size_t k = 0; k < n; k++) {
    mbdae_problem *p = NULL;
    if (!recs[k].y || !recs[k].yref || mbdae_problem_create(recs[k].spec, &p, msg, sizeof msg)) {
      continue;
    }
    double scd = mbdae_scd(p, recs[k].y, recs[k].yref);
    double mescd = mbdae_mescd(p, recs[k].y, recs[k].yref, recs[k].rtol, recs[k].atol);
    int ok = same(scd, recs[k].scd) && same(mescd, recs[k].mescd);
    printf("%s %s %s scd %.17g mescd %.17g (record: %.17g %.17g)\n", ok ? "ok" : "MISMATCH",
           recs[k].solver, recs[k].spec, scd, mescd, recs[k].scd, recs[k].mescd);
    bad |= !ok;
    mbdae_problem_destroy(p);
  }
  mbdae_records_free(recs, n);
  return bad;
}

int main(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "specs") == 0) {
    print_specs();
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "scd") == 0) {
    return check_scd(argv[2]);
  }
  if (argc >= 3 && strcmp(argv[1], "cost") == 0) {
    for (int i = 2; i < argc; i++) {
      mbdae_problem *p = NULL;
      mbdae_unit_costs c = MBDAE_UNIT_COSTS_INIT;
      if (mbdae_problem_create(argv[i], &p, NULL, 0) != 0 ||
          mbdae_problem_unit_costs(p, 20000, &c) != 0) {
        return 1;
      }
      printf("%-22s n = %3d: %.3f us per residual call from C\n", mbdae_problem_spec(p),
             mbdae_problem_neq(p), 1e6 * c.res);
      mbdae_problem_destroy(p);
    }
    return 0;
  }
  if (argc < 3 || strcmp(argv[1], "values") != 0) {
    fprintf(stderr, "usage: octave_values specs | values SPEC... | scd RUNS.CSV | cost SPEC...\n");
    return 2;
  }
  int bad = 0;
  for (int i = 2; i < argc; i++) {
    bad |= print_values(argv[i]);
  }
  return bad;
}
