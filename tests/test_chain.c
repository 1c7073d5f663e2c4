/* The pendulum chain (problems/chain.c):
 * - chain:n=1 is the pendulum and chain:n=2 the double pendulum: radau5 gives the pendulum's
 *   solution bit for bit (same variable order), and the double pendulum's to rounding (mapped by
 *   name; the order differs);
 * - names link by link, in every form; a banded Jacobian; tend= and the sizes per instance;
 * - the committed references: the values in problems/chain_refs.h are those of
 *   refsol/chain_n<N>.txt, n = 2's equals the double pendulum's, and radau5 reaches them;
 * - a start from angles with masses and lengths of one's own: consistent, and a run reaches the
 *   reference the quad generator computes for that configuration, in the Cartesian and the angle
 *   forms;
 * - bad keys refused; `mbdae refsol SPEC --out FILE` and `run/table --ref FILE`, and what --ref
 *   refuses (another configuration, a wrong size, a number that is not finite). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "refsol.h"
#include "support.h"

/* Integrate p with radau5 at rtol = atol, h0 = rtol (h0 > 0: h0) into y (neq values).  Up to 64
 * equations the iteration matrix is the condensed dense one whatever the problem's pattern (the
 * chain's is band, the pendulums' dense), so that equal models give equal runs bit for bit. */
static int radau5_run_h0(const mbdae_problem *p, double rtol, double h0, double *y,
                         mbdae_stats *stats)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  double *yp = malloc(sizeof(double) * n);
  mbdae_options opt;
  test_options(p, rtol, &opt);
  opt.h0 = h0 > 0.0 ? h0 : opt.h0;
  opt.linsys = n <= 64 ? MBDAE_JAC_CONDENSED : MBDAE_JAC_AUTO;
  mbdae_result r;
  int rc = mbdae_problem_init(p, y, yp);
  rc = rc == 0 ? mbdae_solve(p, "radau5", &opt, 1, y, yp, &r) : rc;
  if (stats) {
    *stats = r.stats;
  }
  free(yp);
  return rc;
}

/* The same as radau5_run_h0, with y(1) from the continuous output into at1. */
static int radau5_run_at1(const mbdae_problem *p, double rtol, double *y, double *at1)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  double *yp = malloc(sizeof(double) * n), t1 = 1.0;
  mbdae_options opt;
  test_options(p, rtol, &opt);
  opt.linsys = n <= 64 ? MBDAE_JAC_CONDENSED : MBDAE_JAC_AUTO;
  opt.tout = &t1;
  opt.ntout = 1;
  opt.yout = at1;
  mbdae_result r;
  int rc = mbdae_problem_init(p, y, yp);
  rc = rc == 0 ? mbdae_solve(p, "radau5", &opt, 1, y, yp, &r) : rc;
  free(yp);
  return rc;
}

static int radau5_run(const mbdae_problem *p, double rtol, double *y, mbdae_stats *stats)
{
  return radau5_run_h0(p, rtol, 0.0, y, stats);
}

static int index_of(const mbdae_problem *p, const char *name)
{
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    if (strcmp(mbdae_problem_component(p, i), name) == 0) {
      return i;
    }
  }
  return -1;
}

static void n1_is_the_pendulum(void)
{
  mbdae_problem *c = create_problem("chain:n=1,tend=100"), *p = create_problem("pendulum");
  double yc[5], yp[5];
  CHECK(radau5_run(c, 1e-8, yc, NULL) == 0 && radau5_run(p, 1e-8, yp, NULL) == 0, "runs");
  for (int i = 0; i < 5; i++) {
    char name[16];
    snprintf(name, sizeof name, "%s1", mbdae_problem_component(p, i));
    CHECK(strcmp(mbdae_problem_component(c, i), name) == 0, "chain name %d: %s", i,
          mbdae_problem_component(c, i));
    CHECK(yc[i] == yp[i], "chain:n=1 %s = %.17g, pendulum %.17g", name, yc[i], yp[i]);
  }
  mbdae_problem_destroy(c);
  mbdae_problem_destroy(p);
}

/* The largest |a_i - b_i| over the components of a (neq_a) found by name in b. */
static double max_mapped_diff(const mbdae_problem *pa, const double *a, const mbdae_problem *pb,
                              const double *b)
{
  double worst = 0.0;
  for (int i = 0; i < mbdae_problem_neq(pa); i++) {
    int k = index_of(pb, mbdae_problem_component(pa, i));
    CHECK(k >= 0, "%s has no %s", mbdae_problem_spec(pb), mbdae_problem_component(pa, i));
    worst = k >= 0 ? fmax(worst, fabs(a[i] - b[k])) : INFINITY;
  }
  return worst;
}

/* The same equations: residuals equal bit for bit at states mapped by name (the reference and
 * perturbations of it); and the same solution: radau5's runs differ at t = 1 by what the Newton
 * iterates below the tolerance differ (the order of the variables changes the elimination's
 * roundings), and at t = 10, where the chaotic motion has amplified that, by less than three
 * times the error: two runs each about the error away from the truth (measured 8.9e-2 apart with
 * the error 3.6e-2 of the double pendulum's run; the Newton roundings alone move these figures by
 * tens of per cent). */
static void n2_is_the_double_pendulum(void)
{
  mbdae_problem *c = create_problem("chain:n=2"), *d = create_problem("dpendulum");
  double yd[10], ypd[10], yc[10], ypc[10], rd[10], rc[10], refd[10], refc[10];
  CHECK(mbdae_problem_ref(d, refd) == 0 && mbdae_problem_ref(c, refc) == 0, "references");
  CHECK(max_mapped_diff(d, refd, c, refc) <= 1e-15 * 200.0, "references differ by %.3e",
        max_mapped_diff(d, refd, c, refc));
  for (int trial = 0; trial < 4; trial++) {
    for (int i = 0; i < 10; i++) {
      yd[i] = refd[i] * (1.0 + 0.01 * trial * sin(3.0 * i + trial));
      ypd[i] = 0.1 * trial * cos(2.0 * i - trial);
      int k = index_of(c, mbdae_problem_component(d, i));
      yc[k] = yd[i];
      ypc[k] = ypd[i];
    }
    CHECK(mbdae_problem_res(d, 0.0, yd, ypd, rd) == 0 &&
              mbdae_problem_res(c, 0.0, yc, ypc, rc) == 0,
          "residuals");
    CHECK(max_mapped_diff(d, rd, c, rc) == 0.0, "trial %d: residuals differ by %.3e", trial,
          max_mapped_diff(d, rd, c, rc));
  }
  double at1d[10], at1c[10];
  CHECK(radau5_run_at1(c, 1e-8, yc, at1c) == 0 && radau5_run_at1(d, 1e-8, yd, at1d) == 0, "runs");
  double between = max_mapped_diff(d, yd, c, yc), error = 0.0;
  for (int i = 0; i < 10; i++) {
    error = fmax(error, fabs(yd[i] - refd[i]));
  }
  CHECK(between < 3.0 * error, "radau5 at 1e-8: chain and dpendulum differ by %.3e, error %.3e",
        between, error);
  /* At t = 1, before the motion's chaos amplifies them, the differences are those of the Newton
   * iterates below the tolerance. */
  double early = max_mapped_diff(d, at1d, c, at1c);
  printf("chain:n=2 and dpendulum, radau5 1e-8: differ by %.3e at t = 1, %.3e at t = 10 (error "
         "%.3e)\n",
         early, between, error);
  CHECK(early < 1e-6, "radau5 at 1e-8: chain and dpendulum differ by %.3e at t = 1", early);
  mbdae_problem_destroy(c);
  mbdae_problem_destroy(d);
}

/* The double pendulum with the keys of Thomsen (ed.) 2005, ch. 3 (m1, m2, l1, l2, theta1, theta2,
 * omega1, omega2; theta from the downward vertical, as the chain's) and chain:n=2 with the same
 * keys. */
static const char DPEND_KEYS[] =
    "dpendulum:m1=0.7,m2=2.5,l1=0.5,l2=1.5,theta1=0.3,theta2=-2,omega1=0.5,omega2=-1";
static const char CHAIN_KEYS[] = "chain:n=2,m=0.7:2.5,l=0.5:1.5,theta=0.3:-2,omega=0.5:-1";

static const char *const POSITIONS[4] = {"x1", "y1", "x2", "y2"};

/* The positions of the double pendulum's state y: its x1..y2, or in form=ssf from the angles
 * phi (from the horizontal, Hafner & Poell): p1 = l1 (cos phi1, sin phi1), p2 = p1 + l2 (...). */
static void dpendulum_positions(const mbdae_problem *d, const double *y, double *pos)
{
  int ssf = index_of(d, "phi1") >= 0;
  for (int i = 0; i < 4; i++) {
    pos[i] = ssf ? 0.0 : y[index_of(d, POSITIONS[i])];
  }
  if (ssf) {
    double phi1 = y[index_of(d, "phi1")], phi2 = y[index_of(d, "phi2")];
    pos[0] = 0.5 * cos(phi1), pos[1] = 0.5 * sin(phi1); /* l1 = 0.5, l2 = 1.5 */
    pos[2] = pos[0] + 1.5 * cos(phi2), pos[3] = pos[1] + 1.5 * sin(phi2);
  }
}

/* The same system: the same start to rounding, residuals equal to rounding at states mapped by
 * name, no committed reference (ref_source says so), the canonical spec reads back, and radau5
 * reaches the same state at t = 10 from both, in the Cartesian and (positions mapped from phi)
 * the angle forms. */
static void dpendulum_keys_are_the_chain(void)
{
  mbdae_problem *d = create_problem(DPEND_KEYS), *c = create_problem(CHAIN_KEYS);
  double yd[10], ypd[10], yc[10], ypc[10], rd[10], rc[10], rabs, rrel;
  CHECK(mbdae_problem_init(d, yd, ypd) == 0 && mbdae_problem_init(c, yc, ypc) == 0, "starts");
  CHECK(max_mapped_diff(d, yd, c, yc) < 1e-14 && max_mapped_diff(d, ypd, c, ypc) < 1e-13,
        "starts differ by %.3e, %.3e", max_mapped_diff(d, yd, c, yc),
        max_mapped_diff(d, ypd, c, ypc));
  CHECK(mbdae_problem_residual_size(d, 0.0, yd, ypd, &rabs, &rrel) == 0 && rrel < 1e-14,
        "start residual %.3e", rrel);
  for (int trial = 1; trial < 4; trial++) {
    for (int i = 0; i < 10; i++) {
      yd[i] *= 1.0 + 0.01 * trial * sin(3.0 * i + trial);
      ypd[i] += 0.1 * trial * cos(2.0 * i - trial);
      int k = index_of(c, mbdae_problem_component(d, i));
      yc[k] = yd[i];
      ypc[k] = ypd[i];
    }
    CHECK(mbdae_problem_res(d, 0.0, yd, ypd, rd) == 0 &&
              mbdae_problem_res(c, 0.0, yc, ypc, rc) == 0,
          "residuals");
    CHECK(max_mapped_diff(d, rd, c, rc) < 1e-13, "trial %d: residuals differ by %.3e", trial,
          max_mapped_diff(d, rd, c, rc));
  }
  CHECK(mbdae_problem_ref(d, rd) == MBDAE_ERR_NOREF &&
            strstr(mbdae_problem_ref_source(d), "none committed"),
        "no committed reference: %s", mbdae_problem_ref_source(d));
  mbdae_problem *again = create_problem(mbdae_problem_spec(d));
  CHECK(again && strcmp(mbdae_problem_spec(again), mbdae_problem_spec(d)) == 0 &&
            strstr(mbdae_problem_spec(d), "theta1=0.3,") &&
            strstr(mbdae_problem_spec(d), "m2=2.5,"),
        "canonical spec %s", mbdae_problem_spec(d));
  mbdae_problem_destroy(again);
  CHECK(radau5_run_h0(c, 1e-10, 1e-5, yc, NULL) == 0, "chain run");
  static const char *const forms[] = {"index3", "ssf"};
  for (int f = 0; f < 2; f++) {
    char spec[200];
    snprintf(spec, sizeof spec, "%s,form=%s", DPEND_KEYS, forms[f]);
    mbdae_problem *df = create_problem(spec);
    double g[2], gv[2], ga[2]; /* the hidden constraints at the start (ssf: mapped) */
    CHECK(mbdae_problem_init(df, yd, ypd) == 0 &&
              mbdae_problem_constraints(df, 0.0, yd, ypd, g, gv, ga) == 0,
          "%s: constraints", spec);
    for (int k = 0; k < 2; k++) {
      CHECK(fabs(g[k]) < 1e-14 && fabs(gv[k]) < 1e-13 && fabs(ga[k]) < 1e-12,
            "%s: link %d at the start: g %.3e, g' %.3e, g'' %.3e", spec, k + 1, g[k], gv[k], ga[k]);
    }
    CHECK(radau5_run_h0(df, 1e-10, 1e-5, yd, NULL) == 0, "%s run", spec);
    double pos[4];
    dpendulum_positions(df, yd, pos);
    double worst = 0.0; /* measured 6.9e-5 in both forms */
    for (int i = 0; i < 4; i++) {
      worst = fmax(worst, fabs(pos[i] - yc[index_of(c, POSITIONS[i])]));
    }
    printf("%s and %s: positions at t = 10 differ by %.2e\n", spec, CHAIN_KEYS, worst);
    CHECK(worst < 5e-4, "%s: positions at t = 10 differ from the chain's by %.3e", spec, worst);
    mbdae_problem_destroy(df);
  }
  mbdae_problem_destroy(d);
  mbdae_problem_destroy(c);
}

static void names_and_sizes(void)
{
  static const struct {
    const char *spec;
    int neq;
    const char *first[7];
  } cases[] = {
      {"chain:n=3", 15, {"x1", "y1", "vx1", "vy1", "F1", "x2", "y2"}},
      {"chain:n=3,form=ggl", 18, {"x1", "y1", "vx1", "vy1", "F1", "mu1", "x2"}},
      {"chain:n=3,form=ssf", 6, {"theta1", "theta2", "theta3", "omega1", "omega2", "omega3"}},
      {"chain:n=40", 200, {"x1", "y1", "vx1", "vy1", "F1", "x2", "y2"}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mbdae_problem *p = create_problem(cases[c].spec);
    CHECK(mbdae_problem_neq(p) == cases[c].neq, "%s: neq %d", cases[c].spec, mbdae_problem_neq(p));
    for (int i = 0; i < 7 && cases[c].first[i]; i++) {
      CHECK(strcmp(mbdae_problem_component(p, i), cases[c].first[i]) == 0, "%s: name %d is %s",
            cases[c].spec, i, mbdae_problem_component(p, i));
    }
    mbdae_problem_destroy(p);
  }
  mbdae_problem *p = create_problem("chain:n=40");
  CHECK(strcmp(mbdae_problem_component(p, 199), "F40") == 0, "last name %s",
        mbdae_problem_component(p, 199));
  mbdae_problem_destroy(p);
  p = create_problem("chain:n=4,tend=2.5");
  double yref[20];
  CHECK(mbdae_problem_tend(p) == 2.5, "tend= gives %g", mbdae_problem_tend(p));
  CHECK(mbdae_problem_ref(p, yref) == MBDAE_ERR_NOREF, "no committed reference at tend = 2.5");
  mbdae_problem_destroy(p);
}

/* Link k's rows couple only to nearby links: dF/dy + dF/dy' is banded, its bandwidth below three
 * links' variables (index1 couples two links back through the accelerations). */
static void banded_jacobian(void)
{
  static const char *const specs[] = {"chain:n=6", "chain:n=6,form=index1", "chain:n=6,form=ggl"};
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
    mbdae_problem *p = create_problem(specs[s]);
    size_t n = (size_t)mbdae_problem_neq(p);
    double *y = malloc(sizeof(double) * (2 * n + 2 * n * n)), *yp = y + n, *a = yp + n;
    double *b = a + n * n;
    mbdae_problem_ref(p, y); /* a generic state */
    memset(yp, 0, sizeof(double) * n);
    CHECK(mbdae_problem_jac(p, 0.0, y, yp, a, b) == 0, "%s jac", specs[s]);
    size_t width = 0, group = n / 6;
    for (size_t j = 0; j < n; j++) {
      for (size_t i = 0; i < n; i++) {
        if (a[i + j * n] != 0.0 || b[i + j * n] != 0.0) {
          width = i > j ? (i - j > width ? i - j : width) : (j - i > width ? j - i : width);
        }
      }
    }
    CHECK(width < 3 * group, "%s: bandwidth %zu, a link has %zu variables", specs[s], width, group);
    free(y);
    mbdae_problem_destroy(p);
  }
}

/* The [yref] values of a reference file, in order; returns how many (at most max). */
static int file_values(const char *path, double *v, int max)
{
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "open %s", path);
  char line[512];
  int n = 0, in_block = 0;
  while (f && fgets(line, sizeof line, f)) {
    int index;
    double x;
    if (in_block && n < max && sscanf(line, "%d %lf", &index, &x) == 2) {
      v[n++] = x;
    }
    in_block |= strncmp(line, "[yref]", 6) == 0;
  }
  if (f) {
    fclose(f);
  }
  return n;
}

/* problems/chain_refs.h = refsol/chain_n<N>.txt, and radau5 at rtol 1e-8 reaches them. */
static void committed_references(void)
{
  for (int n = 1; n <= 8; n++) {
    char spec[32], path[512];
    snprintf(spec, sizeof spec, "chain:n=%d", n);
    snprintf(path, sizeof path, "%s/chain_n%d.txt", MBDAE_REFSOL_DIR, n);
    mbdae_problem *p = create_problem(spec);
    double file[40], yref[40];
    CHECK(file_values(path, file, 40) == 5 * n, "%s: %d values", path, 5 * n);
    CHECK(mbdae_problem_ref(p, yref) == 0, "%s has a reference", spec);
    for (int i = 0; i < 5 * n; i++) {
      CHECK(yref[i] == file[i], "%s %s: code %.17g, file %.17g", spec,
            mbdae_problem_component(p, i), yref[i], file[i]);
    }
    mbdae_problem_destroy(p);
  }
  /* the angles of form=ssf: the whole turns of the file on the principal values (n = 5: theta5
   * has wound once backwards by t = 10) */
  mbdae_problem *p = create_problem("chain:n=5,form=ssf");
  double y[10], yref[10];
  CHECK(radau5_run(p, 1e-10, y, NULL) == 0 && mbdae_problem_ref(p, yref) == 0, "ssf run");
  double scd = mbdae_scd(p, y, yref);
  CHECK(scd > 3.5, "chain:n=5,form=ssf radau5 1e-10: scd %.2f", scd); /* 3.91; a turn off: < 0 */
  mbdae_problem_destroy(p);
}

/* Masses, lengths, angles and angular velocities of one's own: a consistent start, and runs of
 * the Cartesian and the angle form reach the generator's reference of that configuration. */
static void own_configuration(void)
{
  static const char *const forms[] = {"index3", "ssf"};
  for (int f = 0; f < 2; f++) {
    char spec[160];
    snprintf(spec, sizeof spec,
             "chain:n=3,m=1:2:0.5,l=0.5:1:1.5,theta=0.3:1:-2,omega=0.5:0:-1,tend=1,form=%s",
             forms[f]);
    mbdae_problem *p = create_problem(spec);
    int neq = mbdae_problem_neq(p);
    double y[15], yp[15], yref[15], rabs, rrel;
    CHECK(mbdae_problem_ref(p, yref) == MBDAE_ERR_NOREF, "%s: no committed reference", spec);
    CHECK(mbdae_problem_init(p, y, yp) == 0 &&
              mbdae_problem_residual_size(p, 0.0, y, yp, &rabs, &rrel) == 0 && rrel < 1e-14,
          "%s: start residual %.3e", spec, rrel);
    const char *names[15];
    for (int i = 0; i < neq; i++) {
      names[i] = mbdae_problem_component(p, i);
    }
    FILE *out = tmpfile();
    char msg[256] = "";
    CHECK(refsol_chain_write(out, mbdae_problem_spec(p), neq, names, msg, sizeof msg) == 0, "%s",
          msg);
    rewind(out);
    char line[512];
    int k = 0, in_block = 0;
    while (fgets(line, sizeof line, out)) {
      int index;
      if (in_block && k < neq && sscanf(line, "%d %lf", &index, &yref[k]) == 2) {
        k++;
      }
      in_block |= strncmp(line, "[yref]", 6) == 0;
    }
    fclose(out);
    CHECK(k == neq, "%s: %d reference values", spec, k);
    /* h0 = 1e-5: from a start consistent to rounding only (not exactly, as the default one),
     * the index-3 Newton iteration at h = rtol meets that rounding divided by h^2 */
    CHECK(radau5_run_h0(p, 1e-10, 1e-5, y, NULL) == 0, "%s run", spec);
    double scd = mbdae_scd(p, y, yref), floor = f == 0 ? 4.5 : 8.5; /* 4.97, 9.44 */
    printf("%s: radau5 at 1e-10, scd %.2f against the generator\n", spec, scd);
    CHECK(scd > floor, "%s: radau5 at 1e-10 against the generator: scd %.2f", spec, scd);
    mbdae_problem_destroy(p);
  }
}

/* A start from angles of six links (the Lagrange matrix then needs row interchanges in its
 * elimination) is consistent: residual and acceleration-level constraint at rounding. */
static void consistent_start_of_six_links(void)
{
  mbdae_problem *p = create_problem(
      "chain:n=6,m=.1:.1:.2:1:1:1,l=.2:.5:1:2:3:4,theta=-2:1:.3:3:-1:2,omega=1:-3:2:0:4:-2");
  double y[30], yp[30], g[6], gv[6], ga[6], rabs, rrel;
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  CHECK(mbdae_problem_residual_size(p, 0.0, y, yp, &rabs, &rrel) == 0 && rrel < 1e-14,
        "six links: start residual %.3e", rrel);
  CHECK(mbdae_problem_constraints(p, 0.0, y, yp, g, gv, ga) == 0, "constraints");
  for (int k = 0; k < 6; k++) {
    CHECK(fabs(g[k]) < 1e-14 && fabs(gv[k]) < 1e-13 && fabs(ga[k]) < 1e-11,
          "link %d: g %.3e, g' %.3e, g'' %.3e", k + 1, g[k], gv[k], ga[k]);
  }
  mbdae_problem_destroy(p);
}

static void bad_keys(void)
{
  static const char *const bad[] = {
      "chain:n=0",
      "chain:n=-2",
      "chain:n=2.5",
      "chain:n=abc",
      "chain:n=100001",
      "chain:m=0",
      "chain:m=-1",
      "chain:l=1:2",
      "chain:n=3,m=1:2",
      "chain:theta=nan",
      "chain:omega=1e999",
      "chain:tend=0",
      "chain:tend=-1",
      "chain:l=1::2",
      "chain:l=1:",
      "chain:m=1:2:3:4,n=3",
      "chain:bogus=1",
      "chain:alpha=2",
      "chain:form=pantelides",
      "dpendulum:m1=0",
      "dpendulum:l2=-1",
      "dpendulum:theta1=nan",
      "dpendulum:omega2=abc",
      "dpendulum:m2=1e999",
      "dpendulum:m3=1",
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    mbdae_problem *p = NULL;
    char msg[256] = "";
    CHECK(mbdae_problem_create(bad[k], &p, msg, sizeof msg) == MBDAE_ERR_SPEC && !p && msg[0],
          "%s accepted", bad[k]);
    mbdae_problem_destroy(p);
  }
  char spec[300] = "chain:n=40,m=";
  for (int k = 0; k < 40; k++) {
    strcat(spec, k ? ":1.25" : "1.25");
  }
  mbdae_problem *p = NULL;
  char msg[256] = "";
  CHECK(mbdae_problem_create(spec, &p, msg, sizeof msg) == MBDAE_ERR_SPEC &&
            strstr(msg, "canonical"),
        "a configuration whose canonical spec does not fit: %s", msg);
  mbdae_problem_destroy(p);
}

/* mbdae refsol SPEC --out FILE, and run/table --ref FILE with what it refuses. */
static void refsol_and_ref_commands(void)
{
  char dir[] = "/tmp/test_chain_XXXXXX", path[128], bad[128], args[512];
  CHECK(mkdtemp(dir) != NULL, "temporary directory");
  snprintf(path, sizeof path, "%s/ref.txt", dir);
  snprintf(bad, sizeof bad, "%s/bad.txt", dir);
  const char *spec = "chain:n=2,m=1:3,tend=0.5";
  snprintf(args, sizeof args, "refsol %s --out %s", spec, path);
  expect(args, 0, "");
  snprintf(args, sizeof args, "run %s --solver radau5 --rtol 1e-9 --ref %s --json", spec, path);
  expect(args, 0, "\"scd\": ");
  static char out[1 << 16];
  run_cli(args, out, sizeof out);
  const char *scd = strstr(out, "\"scd\": ");
  CHECK(scd && atof(scd + 7) > 4.0, "run --ref: %s", out); /* index 3: F to 2e-5 */
  snprintf(args, sizeof args, "table %s --solver radau5 --ref %s", spec, path);
  expect(args, 0, "radau5");
  snprintf(args, sizeof args, "run chain:n=2,m=1:2,tend=0.5 --ref %s", path);
  expect(args, 2, "the reference is for");
  snprintf(args, sizeof args, "run chain:n=3 --ref %s", path);
  expect(args, 2, "the reference is for");
  snprintf(args, sizeof args, "run %s --ref %s/missing.txt", spec, dir);
  expect(args, 2, "cannot read");
  /* a value short, and one not a number (tests/test_ref_file.c: more of what is refused) */
  snprintf(args, sizeof args, "sh -c \"head -n -1 %s > %s\"", path, bad);
  CHECK(system(args + 0) == 0, "%s", args);
  snprintf(args, sizeof args, "run %s --ref %s", spec, bad);
  expect(args, 2, "9 reference values, but");
  snprintf(args, sizeof args, "sh -c \"sed 's/^  4 .*/  4  nan/' %s > %s\"", path, bad);
  CHECK(system(args) == 0, "%s", args);
  snprintf(args, sizeof args, "run %s --ref %s", spec, bad);
  expect(args, 2, "component 4 is not a finite number");
  /* the double pendulum's own configuration: the chain generator on two links (t = 10: 10 s);
   * form=index1, whose F radau5 resolves best in this chaotic motion (index3: scd 1.56) */
  snprintf(args, sizeof args, "refsol %s,form=index1 --out %s", DPEND_KEYS, path);
  expect(args, 0, "");
  snprintf(args, sizeof args, "run %s,form=index1 --solver radau5 --rtol 1e-10 --ref %s --json",
           DPEND_KEYS, path);
  run_cli(args, out, sizeof out);
  scd = strstr(out, "\"scd\": ");
  CHECK(scd && atof(scd + 7) > 3.5, "dpendulum run --ref: %.300s", out); /* 4.00 */
  snprintf(args, sizeof args, "run dpendulum:m1=0.75,form=index1 --ref %s", path);
  expect(args, 2, "the reference is for");
  snprintf(args, sizeof args, "refsol caraxis --out %s", bad);
  expect(args, 2, "no reference generator");
  snprintf(args, sizeof args, "refsol chain:n=0 --out %s", bad);
  expect(args, 2, "n=");
  snprintf(args, sizeof args, "rm -rf %s", dir);
  CHECK(system(args) == 0, "%s", args);
}

int main(void)
{
  n1_is_the_pendulum();
  n2_is_the_double_pendulum();
  dpendulum_keys_are_the_chain();
  names_and_sizes();
  banded_jacobian();
  committed_references();
  own_configuration();
  consistent_start_of_six_links();
  bad_keys();
  refsol_and_ref_commands();
  return check_summary("test_chain");
}
