/* The reference trajectories (mbdae_problem_reference_trajectory, refsol/<name>_traj.txt):
 * - every file: its spec's instance gives the file's values bit for bit (the embedding), the grid
 *   is uniform with t_end last, the last row is the end reference (mbdae_problem_ref) bit for bit,
 *   and the stated agreement per component and the tscd cap are consistent with each other;
 * - every form of every problem: a trajectory whose last column is that form's end reference, bit
 *   for bit, and whose first is the form's initial values where those are the reference's start;
 * - the pendulum's equals the exact solution at every grid time to 14 digits, computed here
 *   independently (Jacobi's theta series, not the AGM of refsol/pendulum_ref.c);
 * - configurations without a reference have none (MBDAE_ERR_NOREF);
 * - the fast generators regenerate their files byte for byte;
 * - radau5 on the pendulum at rtol 1e-8, its output at the reference's times: tscd <= scd. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

typedef struct file_info {
  char spec[256];
  int ntimes, width;
  double cap;        /* the stated tscd cap, digits */
  double fewest_row; /* the stated fewest digits of a row (scd's formula); NAN: not stated */
  double *pointwise; /* stated pointwise digits per component (INFINITY: exact) */
  char **names;
  double *rows; /* ntimes x (1 + width) */
} file_info;

static double parse_digits(const char *s) { return strcmp(s, "exact") == 0 ? INFINITY : atof(s); }

static void read_header_line(file_info *fi, const char *line, int *nagree)
{
  char name[128], a[32], b[32];
  if (strncmp(line, "# spec: ", 8) == 0) {
    snprintf(fi->spec, sizeof fi->spec, "%.255s", line + 8);
    fi->spec[strcspn(fi->spec, "\n")] = '\0';
  } else if (sscanf(line, "#   agree %127s %31s %31s", name, a, b) == 3) {
    fi->pointwise = realloc(fi->pointwise, sizeof(double) * (size_t)(*nagree + 1));
    fi->pointwise[(*nagree)++] = parse_digits(a);
  } else if (sscanf(line, "# tscd cap: %31s", a) == 1) {
    fi->cap = atof(a);
  } else if (sscanf(line, "# method's scd against the row), the fewest %31s", a) == 1) {
    fi->fewest_row = atof(a);
  }
}

/* Read refsol/<name>_traj.txt; 0, or -1 when it is missing or malformed. */
static int read_file(const char *name, file_info *fi)
{
  char path[512];
  static char line[1 << 16];
  snprintf(path, sizeof path, "%s/%s_traj.txt", MBDAE_REFSOL_DIR, name);
  memset(fi, 0, sizeof *fi);
  fi->fewest_row = NAN;
  FILE *f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  int nagree = 0, k = 0;
  while (fgets(line, sizeof line, f) && line[0] == '#') {
    read_header_line(fi, line, &nagree);
  }
  if (sscanf(line, "[trajectory] %d %d", &fi->ntimes, &fi->width) != 2 || nagree != fi->width) {
    fclose(f);
    return -1;
  }
  fi->names = calloc((size_t)fi->width + 1, sizeof(char *));
  fi->rows = calloc((size_t)fi->ntimes * (fi->width + 1), sizeof(double));
  if (fgets(line, sizeof line, f)) { /* t name1 ... */
    char *tok = strtok(line, " \n");
    for (int i = 0; tok && i <= fi->width; i++, tok = strtok(NULL, " \n")) {
      fi->names[i] = strdup(tok);
    }
  }
  for (; k < fi->ntimes && fgets(line, sizeof line, f); k++) {
    char *p = line, *end;
    for (int i = 0; i <= fi->width; i++, p = end) {
      fi->rows[(size_t)k * (fi->width + 1) + i] = strtod(p, &end);
    }
  }
  fclose(f);
  return k == fi->ntimes ? 0 : -1;
}

static void free_file(file_info *fi)
{
  for (int i = 0; fi->names && i <= fi->width; i++) {
    free(fi->names[i]);
  }
  free(fi->names);
  free(fi->rows);
  free(fi->pointwise);
}

/* The stated cap is the fewest pointwise digits of a component in scd, or the rounding's. */
static void check_stated(const char *name, const file_info *fi, const mbdae_problem *p)
{
  double fewest = INFINITY;
  for (int i = 0; i < fi->width; i++) {
    if (mbdae_problem_in_scd(p, i) && fi->pointwise[i] < fewest) {
      fewest = fi->pointwise[i];
    }
  }
  double rounding = -log10(0x1p-53);
  double expect = fewest > rounding ? floor(rounding * 10 + 0.5) / 10 : fewest;
  CHECK(fabs(fi->cap - expect) < 0.051, "%s: tscd cap %.1f, the stated components give %.1f", name,
        fi->cap, expect);
  CHECK(fi->cap >= 5.5, "%s: the reference is good to %.1f digits only", name, fi->cap);
  /* a double-precision file states its rows' agreement: the fewest is the cap, taken by row */
  CHECK(isnan(fi->fewest_row) ? fi->cap >= 15.9 : fabs(fi->fewest_row - fi->cap) < 0.051,
        "%s: the fewest digits of a row %.2f, the cap %.1f", name, fi->fewest_row, fi->cap);
}

/* The file of name against the library's instance of its spec. */
static void check_file(const char *name)
{
  file_info fi;
  int ok = read_file(name, &fi) == 0;
  CHECK(ok, "refsol/%s_traj.txt missing or malformed", name);
  mbdae_problem *p = NULL;
  if (!ok || mbdae_problem_create(fi.spec, &p, NULL, 0) != 0) {
    CHECK(0, "%s: spec '%s'", name, fi.spec);
    free_file(&fi);
    return;
  }
  int n = mbdae_problem_neq(p);
  CHECK(n == fi.width, "%s: %d components, the file has %d", name, n, fi.width);
  for (int i = 0; i < n && i < fi.width; i++) {
    CHECK(strcmp(fi.names[i + 1], mbdae_problem_component(p, i)) == 0, "%s: column %s", name,
          fi.names[i + 1]);
  }
  size_t nt = 0;
  const double *t = NULL;
  CHECK(mbdae_problem_reference_trajectory(p, &nt, &t, NULL) == 0 && (int)nt == fi.ntimes,
        "%s: %zu times in the library, %d in the file", name, nt, fi.ntimes);
  double *y = calloc(nt * (size_t)n + 3 * (size_t)n, sizeof(double)), *yref = y + nt * (size_t)n;
  double *y0 = yref + n;
  CHECK(nt >= 101 && mbdae_problem_reference_trajectory(p, &nt, &t, y) == 0, "%s: values", name);
  CHECK(mbdae_problem_ref(p, yref) == 0 && mbdae_problem_init(p, y0, y0 + n) == 0,
        "%s: end reference and initial values", name);
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  int bad_t = 0, bad_y = 0, bad_end = 0, bad_start = 0;
  for (size_t k = 0; nt >= 101 && k < nt; k++) {
    const double *row = fi.rows + k * (size_t)(n + 1);
    bad_t += t[k] != row[0] || t[k] != t0 + (tend - t0) * (double)k / (double)(nt - 1);
    for (int i = 0; i < n; i++) {
      bad_y += memcmp(&y[k * n + i], &row[i + 1], sizeof(double)) != 0;
    }
  }
  for (int i = 0; nt >= 101 && i < n; i++) {
    bad_end += memcmp(&y[(nt - 1) * n + i], &yref[i], sizeof(double)) != 0;
    bad_start += y[i] != y0[i]; /* 0 and -0 alike: a run's start */
  }
  CHECK(bad_start == 0, "%s: first row: %d values differ from the initial values", name, bad_start);
  CHECK(bad_t == 0 && t[nt - 1] == tend, "%s: %d times off the uniform grid", name, bad_t);
  CHECK(bad_y == 0, "%s: %d values differ from the file's (bit for bit)", name, bad_y);
  CHECK(bad_end == 0, "%s: last row: %d values differ from the end reference", name, bad_end);
  check_stated(name, &fi, p);
  free(y);
  free_file(&fi);
  mbdae_problem_destroy(p);
}

/* A configuration's trajectory: its last column is its end reference, bit for bit, its first
 * the initial values (to rounding: a form maps the reference's start as it maps its end). */
static void check_form(const char *spec)
{
  mbdae_problem *p = NULL;
  if (mbdae_problem_create(spec, &p, NULL, 0) != 0) {
    CHECK(0, "%s", spec);
    return;
  }
  size_t n = (size_t)mbdae_problem_neq(p), nt = 0;
  const double *t = NULL;
  int rc = mbdae_problem_reference_trajectory(p, &nt, &t, NULL);
  CHECK(rc == 0 && nt >= 101, "%s: a trajectory (%d)", spec, rc);
  double *y = calloc((nt + 3) * n, sizeof(double)), *yref = y + nt * n, *y0 = yref + n;
  rc = rc == 0 ? mbdae_problem_reference_trajectory(p, &nt, &t, y) : rc;
  CHECK(rc == 0 && mbdae_problem_ref(p, yref) == 0 && mbdae_problem_init(p, y0, y0 + n) == 0,
        "%s: values", spec);
  int bad_end = 0;
  double worst0 = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    bad_end += memcmp(&y[(nt - 1) * n + i], &yref[i], sizeof(double)) != 0;
    double d = fabs(y[i] - y0[i]) / (1.0 + fabs(y0[i]));
    worst0 = d > worst0 ? d : worst0;
  }
  CHECK(bad_end == 0, "%s: %d values of the last row differ from the end reference", spec, bad_end);
  /* form=ssf: the angles (the first half of y) move by less than pi from one time to the next
   * (at most 1.53 on the committed grids), so a whole turn missing from a row shows as a jump */
  size_t jumps = 0;
  for (size_t k = 0; rc == 0 && strstr(spec, "form=ssf") && k + 1 < nt; k++) {
    for (size_t i = 0; i < n / 2; i++) {
      jumps += fabs(y[(k + 1) * n + i] - y[k * n + i]) >= 3.14159;
    }
  }
  CHECK(jumps == 0, "%s: %zu jumps of the angles between two output times", spec, jumps);
  /* the slider crank's init1 is published to ~10 digits (refsol/crank.txt) */
  CHECK(worst0 <= (strstr(spec, "crank") ? 1e-6 : 1e-13), "%s: first row %.1e from y0", spec,
        worst0);
  free(y);
  mbdae_problem_destroy(p);
}

static void expect_none(const char *spec)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create(spec, &p, NULL, 0) == 0, "%s", spec);
  size_t nt = 7;
  const double *t = (const double *)&nt;
  double y[1];
  CHECK(mbdae_problem_reference_trajectory(p, &nt, &t, y) == MBDAE_ERR_NOREF && nt == 0 && !t,
        "%s: no trajectory", spec);
  CHECK(mbdae_problem_reference_trajectory(p, NULL, &t, NULL) == MBDAE_ERR_ARG, "%s: NULL", spec);
  mbdae_problem_destroy(p);
}

/* ---- the pendulum's exact solution, independently: Jacobi's theta functions ---------------- */

typedef long double ld;
static const ld PI_L = 3.141592653589793238462643383279502884L;

/* theta_1..4(z) with nome q (Abramowitz & Stegun 16.27; Whittaker & Watson 21.11). */
static void theta_series(ld z, ld q, ld th[4])
{
  th[0] = th[1] = 0;
  th[2] = th[3] = 1;
  for (int n = 0; n < 12; n++) {
    ld half = powl(q, (n + 0.5L) * (n + 0.5L)), full = powl(q, (ld)(n + 1) * (n + 1));
    ld sign = n % 2 ? -1 : 1;
    th[0] += 2 * sign * half * sinl((2 * n + 1) * z);
    th[1] += 2 * half * cosl((2 * n + 1) * z);
    th[2] += 2 * full * cosl(2 * (n + 1) * z);
    th[3] += 2 * -sign * full * cosl(2 * (n + 1) * z);
  }
}

/* y = (x, y, vx, vy, F) at t: sin(theta/2) = k cd(sqrt(g) t, k), k = k' = sqrt(1/2), whose nome is
 * q = exp(-pi K'/K) = exp(-pi); sn, cn, dn as quotients of theta functions (A&S 16.36). */
static void pendulum_exact(double t, ld y[5])
{
  ld q = expl(-PI_L), g = 9.81L, k = sqrtl(0.5L), kc = k, zero[4], th[4];
  theta_series(0, q, zero);
  ld big_k = PI_L / 2 * zero[2] * zero[2];
  ld u = sqrtl(g) * t;
  u -= 4 * big_k * roundl(u / (4 * big_k));
  theta_series(PI_L * u / (2 * big_k), q, th);
  ld sn = zero[2] / zero[1] * th[0] / th[3], cn = zero[3] / zero[1] * th[1] / th[3];
  ld dn = zero[3] / zero[2] * th[2] / th[3], thetap = -2 * k * kc * sqrtl(g) * sn / dn;
  y[0] = 2 * k * kc * cn / (dn * dn);
  y[1] = (kc * kc - k * k * cn * cn) / (dn * dn);
  y[2] = thetap * y[1];
  y[3] = -thetap * y[0];
  y[4] = 3 * g * y[1];
}

static void check_pendulum_exact(void)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create("pendulum", &p, NULL, 0) == 0, "pendulum");
  size_t nt = 0;
  const double *t = NULL;
  double *y = NULL;
  if (mbdae_problem_reference_trajectory(p, &nt, &t, NULL) == 0) {
    y = calloc(5 * nt, sizeof(double));
    mbdae_problem_reference_trajectory(p, &nt, &t, y);
  }
  double fewest = INFINITY;
  for (size_t k = 0; y && k < nt; k++) {
    ld exact[5];
    pendulum_exact(t[k], exact);
    for (int i = 0; i < 5; i++) {
      /* relative as scd takes it; a value at zero (the start) to the same size absolutely */
      ld err = fabsl(y[5 * k + i] - exact[i]) / (exact[i] != 0 ? fabsl(exact[i]) : 1);
      double digits = err > 0 ? (double)-log10l(err) : INFINITY;
      fewest = digits < fewest ? digits : fewest;
      CHECK(digits >= 14.0, "pendulum at t = %g: %s = %.17g, exact %.17Lg (%.1f digits)", t[k],
            mbdae_problem_component(p, i), y[5 * k + i], exact[i], digits);
    }
  }
  CHECK(nt >= 101, "pendulum: %zu times", nt);
  printf("pendulum: the reference trajectory equals the exact solution to %.1f digits or more\n",
         fewest);
  free(y);
  mbdae_problem_destroy(p);
}

/* ---- the generator and a run ----------------------------------------------------------------- */

/* mbdae_traj_gen name prints the committed file byte for byte. */
static void regenerate(const char *name)
{
  char cmd[1024], path[512];
  snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", MBDAE_TRAJ_GEN, name);
  snprintf(path, sizeof path, "%s/%s_traj.txt", MBDAE_REFSOL_DIR, name);
  FILE *gen = popen(cmd, "r"), *file = fopen(path, "r");
  long offset = 0;
  int a = 0, b = 0;
  while (gen && file && (a = fgetc(gen)) == (b = fgetc(file)) && a != EOF) {
    offset++;
  }
  CHECK(gen && file && a == EOF && b == EOF,
        "%s: the generator's output differs from "
        "refsol/%s_traj.txt at byte %ld",
        name, name, offset);
  while (gen && a != EOF && (a = fgetc(gen)) != EOF) { /* the rest, so that it ends well */
  }
  if (gen) {
    CHECK(pclose(gen) == 0, "%s: the generator failed", name);
  }
  if (file) {
    fclose(file);
  }
}

/* radau5 on the pendulum at rtol 1e-8, its output at the reference's times: tscd <= scd. */
static void check_run(void)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create("pendulum", &p, NULL, 0) == 0, "pendulum");
  size_t nt = 0;
  const double *t = NULL;
  mbdae_problem_reference_trajectory(p, &nt, &t, NULL);
  double *ytraj = calloc(2 * 5 * nt + 15, sizeof(double)), *yout = ytraj + 5 * nt;
  double *y = yout + 5 * nt, *yp = y + 5, *yref = yp + 5;
  CHECK(mbdae_problem_reference_trajectory(p, &nt, &t, ytraj) == 0, "trajectory");
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = 1e-8;
  opt.h0 = 1e-8;
  opt.tout = t;
  opt.ntout = (int)nt;
  opt.yout = yout;
  mbdae_result r;
  mbdae_problem_init(p, y, yp);
  CHECK(mbdae_solve(p, "radau5", &opt, 1, y, yp, &r) == 0, "radau5: %s", r.message);
  mbdae_problem_ref(p, yref);
  double scd = mbdae_scd(p, y, yref), tscd = mbdae_tscd(p, nt, yout, ytraj);
  double rms = mbdae_tscd_rms(p, nt, yout, ytraj);
  printf("radau5 on the pendulum at rtol 1e-8: scd %.2f, tscd %.2f, tscd_rms %.2f\n", scd, tscd,
         rms);
  CHECK(tscd <= scd && rms >= tscd, "tscd %.3f, scd %.3f, rms %.3f", tscd, scd, rms);
  CHECK(tscd < scd - 0.5,
        "the pendulum's error along the solution exceeds its error at the end "
        "(tscd %.2f, scd %.2f)",
        tscd, scd);
  free(ytraj);
  mbdae_problem_destroy(p);
}

static const char *const FILES[] = {"pendulum", "dpendulum", "chain_n1",         "chain_n2",
                                    "chain_n3", "chain_n4",  "chain_n5",         "chain_n6",
                                    "chain_n7", "chain_n8",  "caraxis",          "andrews",
                                    "crank",    "fekete",    "crank_consistent", "wheelset"};

static const char *const FORMS[] = {"index3", "index2", "ggl", "index1", "baumgarte"};

static void check_forms(void)
{
  char spec[128];
  static const char *const mech[] = {"caraxis", "andrews", "fekete", "pendulum", "dpendulum"};
  for (size_t f = 0; f < sizeof FORMS / sizeof FORMS[0]; f++) {
    for (size_t m = 0; m < sizeof mech / sizeof mech[0]; m++) {
      snprintf(spec, sizeof spec, "%s:form=%s", mech[m], FORMS[f]);
      check_form(spec);
    }
    for (int n = 1; n <= 8; n++) {
      snprintf(spec, sizeof spec, "chain:n=%d,form=%s", n, FORMS[f]);
      check_form(spec);
    }
    snprintf(spec, sizeof spec, "crank:form=%s", FORMS[f]);
    check_form(spec);
    snprintf(spec, sizeof spec, "crank:form=%s,init=consistent", FORMS[f]);
    check_form(spec);
  }
  static const char *const more[] = {
      "pendulum:form=ssf",  "pendulum:form=dummy",  "pendulum:form=dummy,select=y",
      "dpendulum:form=ssf", "dpendulum:form=dummy", "wheelset"};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
    check_form(more[i]);
  }
  for (int n = 1; n <= 8; n++) {
    snprintf(spec, sizeof spec, "chain:n=%d,form=ssf", n);
    check_form(spec);
  }
}

int main(int argc, char **argv)
{
  for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
    check_file(FILES[i]);
  }
  check_forms();
  static const char *const none[] = {"chain:n=9",    "chain:n=3,tend=5", "crank:beam=nonlinear",
                                     "crank:init=2", "fekete:n=5",       "dpendulum:m1=2"};
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
    expect_none(none[i]);
  }
  check_pendulum_exact();
  check_run();
  /* the fast generators (a second each); `test_ref_traj all` regenerates every file (an hour) */
  int all = argc > 1 && strcmp(argv[1], "all") == 0;
  for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
    if (all || i == 0 || strcmp(FILES[i], "caraxis") == 0 || strcmp(FILES[i], "andrews") == 0) {
      regenerate(FILES[i]);
    }
  }
  return check_summary("test_ref_traj");
}
