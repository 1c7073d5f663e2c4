/* bench_dense_lu: per-call time of one LU factorization, the small-dense kernel
 * (solvers/smalldense.h: mbdae_small_lu_factor, mbdae_small_zlu_factor) against LAPACK's
 * dgetrf/zgetrf (solvers/lapack.h), at n = 16..256, on dense random matrices and on Fekete's
 * iteration matrices (problems/fekete.c: 8 K rows for K = 10, 20, 32, 50 particles).
 * The complex matrices are E2 = J + s M with Radau IIA's shift for h = 1e-3 (random: M = I on
 * the first 3/4 of the diagonal, zero on the rest, as Fekete's M = diag(I, 0)), so that the
 * kernel's split real/imaginary arithmetic sees the structure the solvers give it.  Each call
 * copies the formed matrix into the work array and factors it.  Each figure is the median over
 * ROUNDS interleaved rounds of the mean over a round's repetitions (about 10 ms).  Not a test:
 * timings depend on the machine and its load; quote the ratios (LAPACK / kernel).
 * Usage: bench_dense_lu [--rounds N] [--only random|fekete] [N ...]. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../linalg_support.h"
#include "lapack.h"
#include "linsys.h" /* CMPLX for clang */
#include "mbdae/mbdae.h"
#include "smalldense.h"

enum { ROUNDS = 7, MAX_ROUNDS = 64 };

typedef struct matrices {
  int n;
  double *a;         /* J + c M (n x n) */
  double *re, *im;   /* J + s M, parts apart */
  double complex *z; /* the same, interleaved */
} matrices;

typedef struct work {
  double *a, *re, *im;
  double complex *z;
  int *ipiv;
} work;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the four calls: copy, factor ------------------------------------------------------------ */

static int kernel_real(const matrices *m, work *w)
{
  memcpy(w->a, m->a, (size_t)m->n * (size_t)m->n * sizeof *w->a);
  return mbdae_small_lu_factor(m->n, w->a, w->ipiv);
}

static int lapack_real(const matrices *m, work *w)
{
  memcpy(w->a, m->a, (size_t)m->n * (size_t)m->n * sizeof *w->a);
  return mbdae_lu_factor(m->n, w->a, w->ipiv);
}

static int kernel_complex(const matrices *m, work *w)
{
  size_t nn = (size_t)m->n * (size_t)m->n;
  memcpy(w->re, m->re, nn * sizeof *w->re);
  memcpy(w->im, m->im, nn * sizeof *w->im);
  return mbdae_small_zlu_factor(m->n, w->re, w->im, w->ipiv);
}

static int lapack_complex(const matrices *m, work *w)
{
  memcpy(w->z, m->z, (size_t)m->n * (size_t)m->n * sizeof *w->z);
  return mbdae_zlu_factor(m->n, w->z, w->ipiv);
}

typedef int (*call_fn)(const matrices *m, work *w);

/* Seconds per call over reps calls (negative when a call failed). */
__attribute__((noinline)) static double per_call(call_fn f, const matrices *m, work *w, long reps)
{
  int rc = 0;
  double t0 = now();
  for (long r = 0; r < reps; r++) {
    rc |= f(m, w);
  }
  double t = (now() - t0) / (double)reps;
  return rc == 0 ? t : -t;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median per-call seconds of kernel and lapack over interleaved rounds. */
static void measure(call_fn kernel, call_fn lapack, const matrices *m, work *w, int rounds,
                    double *tk, double *tl)
{
  double t = fmax(fabs(per_call(kernel, m, w, 5)), fabs(per_call(lapack, m, w, 5)));
  long reps = (long)(0.01 / fmax(t, 1e-9));
  reps = reps < 5 ? 5 : reps;
  double k[MAX_ROUNDS], l[MAX_ROUNDS];
  for (int r = 0; r < rounds; r++) {
    k[r] = per_call(kernel, m, w, reps);
    l[r] = per_call(lapack, m, w, reps);
  }
  qsort(k, (size_t)rounds, sizeof k[0], cmp_double);
  qsort(l, (size_t)rounds, sizeof l[0], cmp_double);
  *tk = k[rounds / 2];
  *tl = l[rounds / 2];
}

/* ---- the matrices ---------------------------------------------------------------------------- */

/* E1 = J + c M and E2 = J + (sr + i si) M from J and M (n x n each). */
static void form(int n, const double *J, const double *M, double h, matrices *m)
{
  size_t nn = (size_t)n * (size_t)n;
  double gamma, alpha, beta;
  radau_shifts(&gamma, &alpha, &beta);
  m->n = n;
  m->a = malloc(3 * nn * sizeof *m->a);
  m->re = m->a + nn;
  m->im = m->re + nn;
  m->z = malloc(nn * sizeof *m->z);
  for (size_t k = 0; k < nn; k++) {
    m->a[k] = J[k] + gamma / h * M[k];
    m->re[k] = J[k] + alpha / h * M[k];
    m->im[k] = beta / h * M[k];
    m->z[k] = CMPLX(m->re[k], m->im[k]);
  }
}

static void random_matrices(int n, uint64_t *rng, matrices *m)
{
  size_t nn = (size_t)n * (size_t)n;
  double *J = malloc(2 * nn * sizeof *J), *M = J + nn;
  for (size_t k = 0; k < nn; k++) {
    J[k] = splitmix_uniform(rng);
    M[k] = 0.0;
  }
  for (int i = 0; i < 3 * n / 4; i++) {
    M[i + (size_t)i * (size_t)n] = 1.0;
  }
  form(n, J, M, 1.0, m);
  free(J);
}

/* Fekete's J and M at its initial values moved by a few percent. */
static int problem_matrices(const char *spec, uint64_t *rng, matrices *m)
{
  mbdae_problem *p = NULL;
  char msg[256];
  if (mbdae_problem_create(spec, &p, msg, sizeof msg) != 0) {
    fprintf(stderr, "bench_dense_lu: %s\n", msg);
    return -1;
  }
  int n = mbdae_problem_neq(p);
  size_t nn = (size_t)n * (size_t)n;
  double *y = malloc(2 * (size_t)n * sizeof *y), *yp = y + n;
  double *J = malloc(2 * nn * sizeof *J), *M = J + nn;
  int rc = mbdae_problem_init(p, y, yp);
  for (int i = 0; i < n; i++) {
    y[i] += 0.05 * splitmix_uniform(rng) * (1.0 + fabs(y[i]));
    yp[i] += 0.05 * splitmix_uniform(rng) * (1.0 + fabs(yp[i]));
  }
  rc |= mbdae_problem_jac(p, mbdae_problem_t0(p), y, yp, J, M);
  if (rc == 0) {
    form(n, J, M, 1e-3, m);
  }
  free(y);
  free(J);
  mbdae_problem_destroy(p);
  return rc;
}

static void row(const char *name, const matrices *m, int rounds)
{
  size_t nn = (size_t)m->n * (size_t)m->n;
  work w;
  w.a = malloc(3 * nn * sizeof *w.a);
  w.re = w.a + nn;
  w.im = w.re + nn;
  w.z = malloc(nn * sizeof *w.z);
  w.ipiv = malloc((size_t)m->n * sizeof *w.ipiv);
  double rk, rl, ck, cl;
  measure(kernel_real, lapack_real, m, &w, rounds, &rk, &rl);
  measure(kernel_complex, lapack_complex, m, &w, rounds, &ck, &cl);
  printf("%-14s %3d | %9.2f %9.2f %6.2f | %9.2f %9.2f %6.2f%s\n", name, m->n, 1e6 * rk, 1e6 * rl,
         rl / rk, 1e6 * ck, 1e6 * cl, cl / ck,
         rk < 0 || rl < 0 || ck < 0 || cl < 0 ? "  (a call failed)" : "");
  fflush(stdout);
  free(w.a);
  free(w.z);
  free(w.ipiv);
}

static void matrices_free(matrices *m)
{
  free(m->a);
  free(m->z);
}

int main(int argc, char **argv)
{
  int rounds = ROUNDS, ns[64], count = 0;
  const char *only = NULL;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc) {
      rounds = atoi(argv[++a]);
    } else if (strcmp(argv[a], "--only") == 0 && a + 1 < argc) {
      only = argv[++a];
    } else if (atoi(argv[a]) >= 1 && atoi(argv[a]) <= 1000 && count < 64) {
      ns[count++] = atoi(argv[a]);
    } else {
      fprintf(stderr, "usage: bench_dense_lu [--rounds N] [--only random|fekete] [N ...]\n");
      return 2;
    }
  }
  if (rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "bench_dense_lu: --rounds must be 1..%d\n", MAX_ROUNDS);
    return 2;
  }
  static const int default_n[] = {16, 32, 48, 64, 80, 96, 128, 160, 200, 256};
  if (count == 0) {
    count = (int)(sizeof default_n / sizeof default_n[0]);
    memcpy(ns, default_n, sizeof default_n);
  }
  printf("microseconds per call (copy + factor), median of %d rounds; ratio = LAPACK / kernel\n",
         rounds);
  printf("%-14s %3s | %9s %9s %6s | %9s %9s %6s\n", "matrix", "n", "dkernel", "dgetrf", "ratio",
         "zkernel", "zgetrf", "ratio");
  uint64_t rng = 0x2545f4914f6cdd1du;
  for (int k = 0; k < count && (!only || strcmp(only, "random") == 0); k++) {
    matrices m;
    random_matrices(ns[k], &rng, &m);
    row("random", &m, rounds);
    matrices_free(&m);
  }
  static const char *fekete[] = {"fekete:n=10", "fekete", "fekete:n=32", "fekete:n=50"};
  for (size_t k = 0; k < sizeof fekete / sizeof fekete[0] && (!only || strcmp(only, "fekete") == 0);
       k++) {
    matrices m;
    if (problem_matrices(fekete[k], &rng, &m) == 0) {
      row(fekete[k], &m, rounds);
      matrices_free(&m);
    }
  }
  return 0;
}
