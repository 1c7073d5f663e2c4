/* bench_lu: per-call time of "form the iteration matrix, factor, solve" through the linear-system
 * layer (solvers/linsys.h), the small-dense kernel against LAPACK, for real J + c M and complex
 * J + s M, on dense random matrices and on the test problems' J and M (at a perturbed initial
 * point, Radau IIA's shifts for h = 1e-3).  Each figure is the median over ROUNDS rounds of the
 * mean over a round's repetitions (a round lasts about 10 ms).  Not a test: timings depend on
 * the machine and its load; for repeatable figures count instructions instead:
 *   valgrind --tool=callgrind bench_lu --only crank --reps 1000 --rounds 1
 *   callgrind_annotate --inclusive=yes callgrind.out.PID
 * and divide the inclusive counts of mbdae_small_lu_factor, mbdae_lu_factor, ... by 1000.
 * Usage: bench_lu [--sweep] [--only NAME] [--reps N] [--rounds N]. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../linalg_support.h"
#include "linsys.h"
#include "mbdae/mbdae.h"

enum { ROUNDS = 7 };

typedef struct config {
  const char *name; /* "random" or a problem id */
  int n;
  double *J, *M;    /* n x n each */
  double c, sr, si; /* real shift, complex shift */
} config;

typedef struct work {
  mbdae_linsys real, cplx;
  void *mem_real, *mem_cplx;
  double *br, *bi;
} work;

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static double rnd(void) { return splitmix_uniform(&rng_state); }

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One call of each kind: the right-hand side reset, the matrix formed, factored, solved. */
static int real_call(const config *c, work *w)
{
  for (int i = 0; i < c->n; i++) {
    w->br[i] = 1.0;
  }
  int rc = mbdae_linsys_factor(&w->real, c->J, c->M, c->c);
  return rc != 0 ? rc : mbdae_linsys_solve(&w->real, w->br);
}

static int complex_call(const config *c, work *w)
{
  for (int i = 0; i < c->n; i++) {
    w->br[i] = 1.0;
    w->bi[i] = 0.5;
  }
  int rc = mbdae_linsys_factor_shift(&w->cplx, c->J, c->M, c->sr, c->si);
  return rc != 0 ? rc : mbdae_linsys_solve_shift(&w->cplx, w->br, w->bi);
}

typedef int (*call_fn)(const config *c, work *w);

/* Seconds per call over reps calls (a failed call makes the figure negative). */
static double per_call(call_fn f, const config *c, work *w, long reps)
{
  int rc = 0;
  double t0 = now();
  for (long r = 0; r < reps; r++) {
    rc |= f(c, w);
  }
  double t = (now() - t0) / (double)reps;
  return rc == 0 ? t : -t;
}

/* One round on each path; separate functions so that callgrind can count each path alone. */
__attribute__((noinline)) static double run_kernel(call_fn f, const config *c, work *w, long reps)
{
  w->real.lapack = w->cplx.lapack = 0;
  return per_call(f, c, w, reps);
}

__attribute__((noinline)) static double run_lapack(call_fn f, const config *c, work *w, long reps)
{
  w->real.lapack = w->cplx.lapack = 1;
  return per_call(f, c, w, reps);
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median per-call seconds of the kernel and LAPACK over rounds interleaved rounds. */
static void measure(call_fn f, const config *c, work *w, long reps, int rounds, double *kernel,
                    double *lapack)
{
  double tk[64], tl[64];
  for (int r = 0; r < rounds; r++) {
    tk[r] = run_kernel(f, c, w, reps);
    tl[r] = run_lapack(f, c, w, reps);
  }
  qsort(tk, (size_t)rounds, sizeof tk[0], cmp_double);
  qsort(tl, (size_t)rounds, sizeof tl[0], cmp_double);
  *kernel = tk[rounds / 2];
  *lapack = tl[rounds / 2];
}

/* Repetitions for a round of about 10 ms on the slower path. */
static long calibrate(call_fn f, const config *c, work *w)
{
  double t = fmax(fabs(run_lapack(f, c, w, 20)), fabs(run_kernel(f, c, w, 20)));
  long reps = (long)(0.01 / fmax(t, 1e-9));
  return reps < 10 ? 10 : reps;
}

static void work_init(work *w, int n)
{
  w->mem_real = malloc(mbdae_linsys_bytes(n, 0));
  w->mem_cplx = malloc(mbdae_linsys_bytes(n, 1));
  w->br = malloc(2 * (size_t)n * sizeof *w->br);
  w->bi = w->br + n;
  mbdae_linsys_init(&w->real, n, 0, w->mem_real);
  mbdae_linsys_init(&w->cplx, n, 1, w->mem_cplx);
}

static void work_free(work *w)
{
  free(w->mem_real);
  free(w->mem_cplx);
  free(w->br);
}

/* One row of the table: real and complex, kernel and LAPACK, microseconds per call. */
static void bench_row(const config *c, long reps, int rounds)
{
  work w;
  work_init(&w, c->n);
  double rk, rl, ck, cl;
  measure(real_call, c, &w, reps > 0 ? reps : calibrate(real_call, c, &w), rounds, &rk, &rl);
  measure(complex_call, c, &w, reps > 0 ? reps : calibrate(complex_call, c, &w), rounds, &ck, &cl);
  printf("%-10s %3d | %8.3f %8.3f %6.2f | %8.3f %8.3f %6.2f%s\n", c->name, c->n, 1e6 * rk, 1e6 * rl,
         rl / rk, 1e6 * ck, 1e6 * cl, cl / ck,
         rk < 0 || rl < 0 || ck < 0 || cl < 0 ? "  (a call failed)" : "");
  fflush(stdout);
  work_free(&w);
}

/* Radau IIA's shifts for step h: gamma/h, (alpha + i beta)/h (RADAU5's constants). */
static void shifts_for_step(double h, config *c)
{
  double gamma, alpha, beta;
  radau_shifts(&gamma, &alpha, &beta);
  c->c = gamma / h;
  c->sr = alpha / h;
  c->si = beta / h;
}

static void random_config(int n, config *c)
{
  size_t nn = (size_t)n * (size_t)n;
  c->name = "random";
  c->n = n;
  c->J = malloc(2 * nn * sizeof *c->J);
  c->M = c->J + nn;
  for (size_t k = 0; k < 2 * nn; k++) {
    c->J[k] = rnd();
  }
  shifts_for_step(1.0, c);
}

/* J and M of problem id at its initial values moved by a few percent (no zero angles). */
static int problem_config(const char *id, config *c)
{
  mbdae_problem *p = NULL;
  char msg[256];
  if (mbdae_problem_create(id, &p, msg, sizeof msg) != 0) {
    fprintf(stderr, "bench_lu: %s\n", msg);
    return -1;
  }
  int n = mbdae_problem_neq(p);
  size_t nn = (size_t)n * (size_t)n;
  double *y = malloc(2 * (size_t)n * sizeof *y), *yp = y + n;
  c->name = id;
  c->n = n;
  c->J = malloc(2 * nn * sizeof *c->J);
  c->M = c->J + nn;
  int rc = mbdae_problem_init(p, y, yp);
  for (int i = 0; i < n; i++) {
    y[i] += 0.05 * rnd() * (1.0 + fabs(y[i]));
    yp[i] += 0.05 * rnd() * (1.0 + fabs(yp[i]));
  }
  rc |= mbdae_problem_jac(p, mbdae_problem_t0(p), y, yp, c->J, c->M);
  shifts_for_step(1e-3, c);
  free(y);
  mbdae_problem_destroy(p);
  return rc;
}

static void header(void)
{
  printf("microseconds per call (form + factor + solve), median of the rounds; ratio = LAPACK / "
         "kernel\n");
  printf("%-10s %3s | %8s %8s %6s | %8s %8s %6s\n", "matrix", "n", "real", "LAPACK", "ratio",
         "complex", "LAPACK", "ratio");
}

int main(int argc, char **argv)
{
  int sweep = 0, rounds = ROUNDS;
  long reps = 0;
  const char *only = NULL;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--sweep") == 0) {
      sweep = 1;
    } else if (strcmp(argv[a], "--only") == 0 && a + 1 < argc) {
      only = argv[++a];
    } else if (strcmp(argv[a], "--reps") == 0 && a + 1 < argc) {
      reps = atol(argv[++a]);
    } else if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc) {
      rounds = atoi(argv[++a]);
    } else {
      fprintf(stderr, "usage: bench_lu [--sweep] [--only NAME] [--reps N] [--rounds N]\n");
      return 2;
    }
  }
  if (rounds < 1 || rounds > 64 || reps < 0) {
    fprintf(stderr, "bench_lu: --rounds must be 1..64, --reps positive\n");
    return 2;
  }
  header();
  static const int random_n[] = {5, 10, 24, 27};
  static const int sweep_n[] = {5, 10, 16, 24, 32, 40, 48, 64, 80, 96, 128, 160, 200, 256, 320};
  const int *ns = sweep ? sweep_n : random_n;
  size_t count = sweep ? sizeof sweep_n / sizeof sweep_n[0] : sizeof random_n / sizeof random_n[0];
  for (size_t k = 0; k < count && (!only || strcmp(only, "random") == 0); k++) {
    config c = {0};
    random_config(ns[k], &c);
    bench_row(&c, reps, rounds);
    free(c.J);
  }
  static const char *ids[] = {"pendulum", "caraxis", "dpendulum", "crank", "andrews"};
  for (size_t k = 0; k < sizeof ids / sizeof ids[0] && !sweep; k++) {
    config c = {0};
    if (only && strcmp(only, ids[k]) != 0) {
      continue;
    }
    if (problem_config(ids[k], &c) == 0) {
      bench_row(&c, reps, rounds);
    }
    free(c.J);
  }
  return 0;
}
