/* mbdae_traj_gen: the reference trajectories refsol/<name>_traj.txt, each the solution at a grid
 * of NINTERVALS + 1 uniform output times in [t0, t_end], computed by two methods, whose agreement
 * per component the file states.  The last row is the end reference of refsol/<name>.txt (the
 * library's mbdae_problem_ref), bit for bit; the file says how far the first method lands from it.
 *
 *   pendulum          the exact solution (refsol_pendulum_trajectory), checked by a Taylor series
 *                     integration in __float128;
 *   dpendulum, chain_n<N>
 *                     Gragg-Bulirsch-Stoer extrapolation in __float128, checked by Gauss-Legendre
 *                     collocation (refsol_chain_trajectory);
 *   caraxis, andrews, crank, crank_consistent, fekete, wheelset
 *                     two of our double-precision solvers at tight tolerances, their continuous
 *                     output at the grid (TESTSET: radau, orders 5, 9, 13, checked by radau5,
 *                     RADAU5's order 5; the wheelset radau5 checked by SUNDIALS' ida, BDF), on a
 *                     form of the same motion whose variables are all of index 1 where that
 *                     converges (index2 for Andrews, whose index1 form stalls below 1e-12).
 *
 * Usage: mbdae_traj_gen NAME > refsol/NAME_traj.txt.  Not installed: a tool of the repository. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "refsol.h"

enum { NINTERVALS = 100 };
/* Significant digits of a double-precision trajectory's inner rows: the two solvers agree to
 * 11 digits at most, so 12 keep all they confirm (0.5e-12 relative) at 2/3 of the weight. */
enum { TESTSET_DIGITS = 12 };
/* The digits a run at the tightest tolerances of the test set (1e-10) can reach: rows of a
 * double-precision trajectory that agree to fewer are counted in its header. */
enum { ROW_DIGITS = 10 };

/* One trajectory and what the file says of it. */
typedef struct traj {
  const mbdae_problem *p;
  int neq, nturns;
  refsol_traj data;          /* t, y, agreement per component, turns */
  double end_scd, end_mescd; /* the first method at t_end against the end reference */
  int print_digits;          /* significant digits of rows 1..N-1; 0: the shortest exact */
  int rows_below;            /* rows whose scd agreement is below ROW_DIGITS; -1: not counted */
  int worst_row;             /* the row of the fewest digits, and those digits */
  double worst_row_digits;
  const char *title;           /* first header line */
  const char *methods;         /* header lines (each "# ...\n") naming the two methods */
  const char *end_file;        /* refsol/<end_file>.txt holds the end reference */
  int end_done;                /* 1 once the last row holds the end reference */
  double start_rel, start_abs; /* the first method at t0 against y0: relative, absolute at 0 */
} traj;

static int traj_alloc(traj *tr, const mbdae_problem *p, int nturns)
{
  size_t nt = NINTERVALS + 1, neq = (size_t)mbdae_problem_neq(p);
  tr->p = p;
  tr->neq = (int)neq;
  tr->nturns = nturns;
  tr->data.t = calloc(nt + nt * neq + 2 * neq, sizeof(double));
  tr->data.turns = calloc(nt * (size_t)(nturns > 0 ? nturns : 1), sizeof(int));
  if (!tr->data.t || !tr->data.turns) {
    return -1;
  }
  tr->data.y = tr->data.t + nt;
  tr->data.agree_rel = tr->data.y + nt * neq;
  tr->data.agree_scaled = tr->data.agree_rel + neq;
  return 0;
}

/* The shortest decimal that reads back as x (%.15g, %.16g or %.17g), and as the same double
 * when the C compiler reads it (cmake/embed_traj.cmake). */
static void shortest(double x, char *buf, size_t len)
{
  if (x == 0 && signbit(x)) { /* "-0" would be the integer 0 in the C data: +0.0 */
    snprintf(buf, len, "-0.0");
    return;
  }
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, len, "%.*g", prec, x);
    if (strtod(buf, NULL) == x) {
      return;
    }
  }
}

static double digits_of(double rel) { return rel > 0 ? -log10(rel) : INFINITY; }

static void print_digits(FILE *out, double rel)
{
  if (rel > 0) {
    fprintf(out, " %9.1f", -log10(rel));
  } else {
    fprintf(out, " %9s", "exact");
  }
}

/* The end reference in the last row, and how far the first method was from it (scd, and mescd
 * with atol/rtol = 1). */
static int put_end_reference(traj *tr)
{
  if (tr->end_done) {
    return 0;
  }
  tr->end_done = 1;
  double *last = tr->data.y + (size_t)NINTERVALS * tr->neq;
  double *yref = malloc(sizeof(double) * (size_t)tr->neq);
  if (!yref || mbdae_problem_ref(tr->p, yref) != 0) {
    free(yref);
    return -1;
  }
  tr->end_scd = mbdae_scd(tr->p, last, yref);
  tr->end_mescd = mbdae_mescd(tr->p, last, yref, 1.0, 1.0);
  memcpy(last, yref, sizeof(double) * (size_t)tr->neq);
  free(yref);
  return 0;
}

/* Rows 1..N-1 rounded to `digits` significant digits, as the file prints them. */
static void round_rows(traj *tr, int digits)
{
  tr->print_digits = digits;
  for (size_t j = (size_t)tr->neq; j < (size_t)NINTERVALS * tr->neq; j++) {
    char buf[40];
    snprintf(buf, sizeof buf, "%.*g", digits, tr->data.y[j]);
    tr->data.y[j] = strtod(buf, NULL);
  }
}

/* The agreement table and the cap it sets on tscd. */
static void write_agreement(FILE *out, const traj *tr)
{
  double worst = 0;
  int at = -1;
  fprintf(out, "# Agreement of the two methods over the grid, per component, in digits:\n"
               "# pointwise -log10 max_k |y1 - y2| / |y1| (as scd takes it; y1 = 0 skipped), and\n"
               "# scaled -log10 (max_k |y1 - y2| / max_k |y1|); y1 the first method, y2 the\n"
               "# second:\n"
               "#   component        pointwise    scaled\n");
  for (int i = 0; i < tr->neq; i++) {
    fprintf(out, "#   agree %-10s", mbdae_problem_component(tr->p, i));
    print_digits(out, tr->data.agree_rel[i]);
    print_digits(out, tr->data.agree_scaled[i]);
    fputc('\n', out);
    if (mbdae_problem_in_scd(tr->p, i) && tr->data.agree_rel[i] > worst) {
      worst = tr->data.agree_rel[i];
      at = i;
    }
  }
  if (worst < 0x1p-53) { /* the rows are doubles: rounding is the finest agreement they keep */
    fprintf(out,
            "# tscd cap: %.1f digits (the rounding to double, 2^-53, exceeds the methods'\n"
            "# difference): tscd against this file is resolved to there.\n",
            digits_of(0x1p-53));
  } else {
    fprintf(out,
            "# tscd cap: %.1f digits (%s): tscd against this file is the fewest pointwise\n"
            "# digits of a component in scd; a run's tscd above it is not resolved.\n",
            digits_of(worst), mbdae_problem_component(tr->p, at));
  }
}

static void write_rows(FILE *out, const traj *tr)
{
  fprintf(out, "[trajectory] %d %d\nt", NINTERVALS + 1, tr->neq);
  for (int i = 0; i < tr->neq; i++) {
    fprintf(out, " %s", mbdae_problem_component(tr->p, i));
  }
  fputc('\n', out);
  for (int k = 0; k <= NINTERVALS; k++) {
    char buf[40];
    shortest(tr->data.t[k], buf, sizeof buf);
    fputs(buf, out);
    for (int i = 0; i < tr->neq; i++) {
      double v = tr->data.y[(size_t)k * tr->neq + i];
      if (tr->print_digits > 0 && k > 0 && k < NINTERVALS && v != 0) {
        snprintf(buf, sizeof buf, "%.*g", tr->print_digits, v);
      } else {
        shortest(v, buf, sizeof buf);
      }
      fprintf(out, " %s", buf);
    }
    fputc('\n', out);
  }
  if (tr->nturns > 0) {
    fprintf(out, "[turns] %d %d\n", NINTERVALS + 1, tr->nturns);
    for (int k = 0; k <= NINTERVALS; k++) {
      for (int j = 0; j < tr->nturns; j++) {
        fprintf(out, j ? " %d" : "%d", tr->data.turns[(size_t)k * tr->nturns + j]);
      }
      fputc('\n', out);
    }
  }
}

/* The spec's initial values in the first row (where every run starts: a quad start rounded to
 * double leaves 4e-35 for cos(pi/2), which a run's exact 0 would miss by 100%), and how far the
 * first method's values at t0 were from them. */
static int put_initial_values(traj *tr)
{
  double *y0 = malloc(sizeof(double) * 2 * (size_t)tr->neq);
  if (!y0 || mbdae_problem_init(tr->p, y0, y0 + tr->neq) != 0) {
    free(y0);
    return -1;
  }
  tr->start_rel = tr->start_abs = 0;
  for (int i = 0; i < tr->neq; i++) {
    double d = fabs(tr->data.y[i] - y0[i]), rel = y0[i] != 0 ? d / fabs(y0[i]) : 0;
    tr->start_rel = rel > tr->start_rel ? rel : tr->start_rel;
    tr->start_abs = y0[i] == 0 && d > tr->start_abs ? d : tr->start_abs;
    tr->data.y[i] = y0[i];
  }
  free(y0);
  return 0;
}

static int write_file(FILE *out, traj *tr, const char *name)
{
  if (put_end_reference(tr) != 0 || put_initial_values(tr) != 0) {
    return -1;
  }
  fprintf(out,
          "# %s: reference trajectory.\n"
          "# spec: %s\n"
          "# Grid: %d output times t_k = t0 + k (t_end - t0) / %d, k = 0..%d, in [%.17g, %.17g].\n",
          tr->title, mbdae_problem_spec(tr->p), NINTERVALS + 1, NINTERVALS, NINTERVALS,
          mbdae_problem_t0(tr->p), mbdae_problem_tend(tr->p));
  fputs(tr->methods, out);
  write_agreement(out, tr);
  fprintf(out,
          "# Last row: the end reference of refsol/%s.txt, bit for bit (other forms map it as\n"
          "# they map that one); the first method at t_end has scd %.2f and mescd %.2f\n"
          "# (atol/rtol = 1) against it.\n",
          tr->end_file, tr->end_scd, tr->end_mescd);
  fprintf(out,
          "# First row: the initial values of the spec (mbdae_problem_init), bit for bit; the\n"
          "# first method's values at t0 differ from them by %.1e relative (%.1e absolute\n"
          "# where y0 is 0).\n",
          tr->start_rel, tr->start_abs);
  if (tr->rows_below >= 0) {
    fprintf(out,
            "# Rows: %d of %d agree to fewer than %d digits by scd's formula (the second\n"
            "# method's scd against the row), the fewest %.2f at t = %g: a solver's tscd\n"
            "# beyond the cap is not resolved by this file.\n",
            tr->rows_below, NINTERVALS + 1, ROW_DIGITS, tr->worst_row_digits,
            tr->data.t[tr->worst_row]);
  }
  if (tr->nturns > 0) {
    fprintf(out, "# [turns]: the whole turns of each angle at t_k (form=ssf maps the Cartesian\n"
                 "# state to the principal angle and adds them).\n");
  }
  if (tr->print_digits > 0) {
    fprintf(out,
            "# Weight: %d x %d values; the first and last rows (the initial values and the end\n"
            "# reference) each the shortest decimal that reads back as the double, the others\n"
            "# to %d significant digits, finer than the agreement (measured on them).\n",
            NINTERVALS + 1, tr->neq, tr->print_digits);
  } else {
    fprintf(out,
            "# Weight: %d x %d values, each the shortest decimal that reads back as the\n"
            "# double.\n",
            NINTERVALS + 1, tr->neq);
  }
  fprintf(out, "# Generated by refsol/traj_gen.c (`mbdae_traj_gen %s`).\n", name);
  write_rows(out, tr);
  return ferror(out) ? -1 : 0;
}

/* ---- the two methods per problem ----------------------------------------------------------- */

static int gen_pendulum(traj *tr)
{
  tr->title = "Pendulum (Hafner & Poell, eq. (1)), n = 5, t in [0, 100]";
  tr->end_file = "pendulum";
  tr->methods =
      "# First method: the exact solution in Jacobi elliptic functions (sin(theta/2) =\n"
      "# k cd(sqrt(g) t, k), k = sin(pi/4)), evaluated in __float128 and rounded to double\n"
      "# (refsol/pendulum_ref.c, refsol_pendulum_state).\n"
      "# Second method: theta'' = -g sin theta integrated in __float128 by a Taylor series\n"
      "# method of order 40, 32 steps of 1/32 per grid interval, F from the constraints.\n"
      "# The angle stays in (-pi/2, pi/2): form=ssf's angle needs no whole turns.\n";
  refsol_pendulum_trajectory(NINTERVALS, &tr->data);
  return 0;
}

static void show_progress(void *ctx, double share)
{
  fprintf(stderr, "\r%s: %3.0f%%", (const char *)ctx, 100.0 * share);
}

/* The angles' whole turns come with the chain's integration (n links: n angles). */
static int gen_chain(traj *tr, const char *name, int links)
{
  static char title[128];
  char msg[256] = "";
  int neq = tr->neq;
  const char **names = malloc(sizeof(char *) * (size_t)neq);
  if (!names) {
    return -1;
  }
  for (int i = 0; i < neq; i++) {
    names[i] = mbdae_problem_component(tr->p, i);
  }
  if (strcmp(name, "dpendulum") == 0) {
    tr->title = "Double pendulum (Hafner & Poell, eq. (6)), n = 10, t in [0, 10]";
  } else {
    snprintf(title, sizeof title, "Pendulum chain (Thomsen 2005, 3.4), n = %d links, t in [0, 10]",
             links);
    tr->title = title;
  }
  tr->methods =
      "# First method: the angle formulation (Lagrange's equations, refsol/chain_ref.c)\n"
      "# integrated in __float128 by Gragg-Bulirsch-Stoer extrapolation (order 20, 80 macro\n"
      "# steps per grid interval), the Cartesian state from the angles, rounded to double.\n"
      "# Second method: Gauss-Legendre collocation in __float128 (12 stages, order 24, 40\n"
      "# steps per grid interval).  The rows are the first method rounded to double.\n";
  int rc = refsol_chain_trajectory(mbdae_problem_spec(tr->p), neq, names, NINTERVALS, &tr->data,
                                   msg, sizeof msg, show_progress, (void *)name);
  fputc('\n', stderr);
  if (rc != 0) {
    fprintf(stderr, "mbdae_traj_gen: %s\n", msg);
  }
  free(names);
  return rc;
}

/* How a test-set trajectory is computed: the configuration (a form of the same motion whose
 * variables are all of index 1 where that converges), the tolerances, h0, and the two solvers. */
typedef struct recipe {
  const char *name, *spec, *title, *end_file;
  const char *compute; /* the configuration integrated */
  double rtol, h0;     /* rtol = atol */
  const char *first, *second;
} recipe;

/* solver on the recipe's configuration, its continuous output at t_1..t_N and y0 at t_0, each
 * component of p (the file's configuration) taken from the one of the same name (0 where there
 * is none: the GGL multipliers mu, 0 on the solution). */
static int solve_grid(const mbdae_problem *p, const recipe *r_, const char *solver, const double *t,
                      double *y)
{
  mbdae_problem *c = NULL;
  char msg[256];
  if (mbdae_problem_create(r_->compute, &c, msg, sizeof msg) != 0) {
    fprintf(stderr, "mbdae_traj_gen: %s\n", msg);
    return -1;
  }
  size_t nc = (size_t)mbdae_problem_neq(c), nt = NINTERVALS + 1;
  double *yc = malloc(sizeof(double) * (nt + 2) * nc), *yend = yc + nt * nc;
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = r_->rtol;
  opt.h0 = r_->h0;
  opt.tout = t + 1;
  opt.ntout = NINTERVALS;
  opt.yout = yc + nc;
  mbdae_result r = {0};
  int rc = yc ? mbdae_problem_init(c, yc, yend + nc) : MBDAE_ERR_NOMEM;
  if (rc == 0) {
    memcpy(yend, yc, sizeof(double) * nc);
    rc = mbdae_solve(c, solver, &opt, 1, yend, yend + nc, &r);
  }
  fprintf(stderr, "%s on %s: %s (%ld steps)\n", solver, mbdae_problem_spec(c),
          rc == 0 ? "ok" : r.message, r.stats.accepted);
  for (int i = 0; rc == 0 && i < mbdae_problem_neq(p); i++) {
    size_t j = 0;
    while (j < nc && strcmp(mbdae_problem_component(c, (int)j), mbdae_problem_component(p, i))) {
      j++;
    }
    for (size_t k = 0; k < nt; k++) {
      y[k * (size_t)mbdae_problem_neq(p) + i] = j < nc ? yc[k * nc + j] : 0.0;
    }
  }
  free(yc);
  mbdae_problem_destroy(c);
  return rc;
}

/* Agreement of the file's rows (y1) with the second method's (y2), per component. */
static void agreement(traj *tr, const double *y2)
{
  int neq = tr->neq;
  for (int i = 0; i < neq; i++) {
    double rel = 0, diff = 0, big = 0;
    for (int k = 0; k <= NINTERVALS; k++) {
      double a = tr->data.y[(size_t)k * neq + i], d = fabs(a - y2[(size_t)k * neq + i]);
      rel = a != 0 && d / fabs(a) > rel ? d / fabs(a) : rel;
      diff = d > diff ? d : diff;
      big = fabs(a) > big ? fabs(a) : big;
    }
    tr->data.agree_rel[i] = rel;
    tr->data.agree_scaled[i] = big > 0 ? diff / big : 0;
  }
  tr->rows_below = 0;
  tr->worst_row_digits = INFINITY;
  for (int k = 0; k <= NINTERVALS; k++) { /* the scd of the second method against the rows */
    double digits = mbdae_scd(tr->p, y2 + (size_t)k * neq, tr->data.y + (size_t)k * neq);
    tr->rows_below += digits < ROW_DIGITS;
    if (digits < tr->worst_row_digits) {
      tr->worst_row_digits = digits;
      tr->worst_row = k;
    }
  }
}

static int gen_testset(traj *tr, const recipe *r)
{
  static char methods[1024];
  tr->title = r->title;
  tr->end_file = r->end_file;
  snprintf(methods, sizeof methods,
           "# First method: our %s on %s at rtol = atol = %.0e (h0 = %.0e),\n"
           "# its continuous output at the grid (the same motion as the spec's: the same\n"
           "# components, mu = 0 where this form has none).\n"
           "# Second method: our %s, the same configuration and tolerances.  Both are double\n"
           "# precision: the agreement below, not 16 digits, is what the rows are good for.\n",
           r->first, r->compute, r->rtol, r->h0, r->second);
  tr->methods = methods;
  double t0 = mbdae_problem_t0(tr->p), tend = mbdae_problem_tend(tr->p);
  for (int k = 0; k <= NINTERVALS; k++) {
    tr->data.t[k] = t0 + (tend - t0) * k / NINTERVALS;
  }
  double *y2 = malloc(sizeof(double) * (NINTERVALS + 1) * (size_t)tr->neq);
  int rc = y2 ? solve_grid(tr->p, r, r->first, tr->data.t, tr->data.y) : -1;
  rc = rc == 0 ? solve_grid(tr->p, r, r->second, tr->data.t, y2) : rc;
  rc = rc == 0 ? put_end_reference(tr) : rc;
  if (rc == 0) {
    round_rows(tr, TESTSET_DIGITS);
    agreement(tr, y2);
  }
  free(y2);
  return rc;
}

/* ---- main ---------------------------------------------------------------------------------- */

static const recipe TESTSET[] = {
    {"caraxis", "caraxis", "Car axis (test set release 2.4, caraxis.f), n = 10, t in [0, 3]",
     "caraxis", "caraxis:form=index1", 1e-13, 1e-13, "radau", "radau5"},
    {"andrews", "andrews",
     "Andrews' squeezer (test set release 2.4, andrews.f), n = 27, t in [0, 0.03]", "andrews",
     "andrews:form=index2", 1e-13, 1e-13, "radau", "radau5"},
    {"crank", "crank", "Slider crank (test set release 2.4, crank.f), n = 24, t in [0, 0.1]",
     "crank", "crank:index=1", 1e-13, 1e-15, "radau", "radau5"},
    {"crank_consistent", "crank:init=consistent",
     "Slider crank (test set release 2.4, crank.f) from init=consistent, n = 24, t in [0, 0.1]",
     "crank", "crank:index=1,init=consistent", 1e-13, 1e-15, "radau", "radau5"},
    {"fekete", "fekete", "Fekete (test set release 2.4, fekete.f), n = 160, t in [0, 1000]",
     "fekete", "fekete:form=index1", 1e-16, 1e-10, "radau", "radau5"},
    {"wheelset", "wheelset", "Wheelset (test set release 2.4, wheel.f), n = 17, t in [0, 10]",
     "wheelset", "wheelset", 1e-16, 1e-10, "radau5", "ida"},
};

static int generate(const char *name, mbdae_problem *p, traj *tr)
{
  for (size_t i = 0; i < sizeof TESTSET / sizeof TESTSET[0]; i++) {
    if (strcmp(name, TESTSET[i].name) == 0) {
      return traj_alloc(tr, p, 0) == 0 ? gen_testset(tr, &TESTSET[i]) : -1;
    }
  }
  if (strcmp(name, "pendulum") == 0) {
    tr->end_file = "pendulum";
    return traj_alloc(tr, p, 0) == 0 ? gen_pendulum(tr) : -1;
  }
  int links = strcmp(name, "dpendulum") == 0 ? 2 : atoi(name + 7);
  tr->end_file = name;
  return traj_alloc(tr, p, links) == 0 ? gen_chain(tr, name, links) : -1;
}

/* The spec of a name: a test-set problem's, pendulum, dpendulum or chain_n<N>. */
static const char *spec_of(const char *name, char *buf, size_t len)
{
  for (size_t i = 0; i < sizeof TESTSET / sizeof TESTSET[0]; i++) {
    if (strcmp(name, TESTSET[i].name) == 0) {
      return TESTSET[i].spec;
    }
  }
  if (strcmp(name, "pendulum") == 0 || strcmp(name, "dpendulum") == 0) {
    return name;
  }
  int n = 0;
  if (sscanf(name, "chain_n%d", &n) == 1 && n >= 1 && n <= 8) {
    snprintf(buf, len, "chain:n=%d", n);
    return buf;
  }
  return NULL;
}

int main(int argc, char **argv)
{
  char buf[64], msg[256];
  const char *spec = argc == 2 ? spec_of(argv[1], buf, sizeof buf) : NULL;
  if (!spec) {
    fprintf(stderr, "usage: mbdae_traj_gen pendulum|dpendulum|chain_n1..chain_n8|caraxis|andrews|"
                    "crank|crank_consistent|fekete|wheelset\n");
    return 2;
  }
  mbdae_problem *p = NULL;
  if (mbdae_problem_create(spec, &p, msg, sizeof msg) != 0) {
    fprintf(stderr, "mbdae_traj_gen: %s\n", msg);
    return 2;
  }
  traj tr = {.p = p, .rows_below = -1};
  int rc = generate(argv[1], p, &tr);
  rc = rc == 0 ? write_file(stdout, &tr, argv[1]) : rc;
  free(tr.data.t);
  free(tr.data.turns);
  mbdae_problem_destroy(p);
  return rc == 0 ? 0 : 1;
}
