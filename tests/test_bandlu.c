/* The band LU (solvers/bandlu.h) against LAPACK's dgbtrf/dgbtrs and zgbtrf/zgbtrs, whichever
 * LAPACK is linked: on random band systems (n = 1..70, ml and mu from 0 to 39, so LAPACK's blocked
 * code for ml >= 32 too; real and complex; some zero entries, tiny ones, and garbage in the fill
 * rows the factorization must clear) the same pivot rows and the same solutions to rounding, and a
 * small residual against the matrix itself; a singular matrix (a zero column, two equal rows)
 * refused by both; pivoting on a matrix with a zero diagonal, and the first of two equal
 * candidates taken as pivot (idamax's rule).  With the reference LAPACK the factors and solutions
 * are its bits (the pinned band runs of test_solver_pins show that end to end); here the bound is
 * rounding, so that the test holds with any conforming LAPACK. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../solvers/bandlu.h"
#include "check.h"
#include "mbdae/mbdae.h"

/* LAPACK's band LU, the reference (Fortran calling convention). */
extern void dgbtrf_(const int *m, const int *n, const int *kl, const int *ku, double *ab,
                    const int *ldab, int *ipiv, int *info);
extern void dgbtrs_(const char *trans, const int *n, const int *kl, const int *ku, const int *nrhs,
                    const double *ab, const int *ldab, const int *ipiv, double *b, const int *ldb,
                    int *info, size_t trans_len);
extern void zgbtrf_(const int *m, const int *n, const int *kl, const int *ku, double complex *ab,
                    const int *ldab, int *ipiv, int *info);
extern void zgbtrs_(const char *trans, const int *n, const int *kl, const int *ku, const int *nrhs,
                    const double complex *ab, const int *ldab, const int *ipiv, double complex *b,
                    const int *ldb, int *info, size_t trans_len);

/* Two backward-stable solutions differ by about n eps cond(A) (relative, max norm): the bound. */
static double agreement(int n, double cond) { return 64.0 * n * DBL_EPSILON * cond; }

static double uniform(unsigned *state)
{
  *state = *state * 1103515245u + 12345u;
  return ((*state >> 8) & 0xffff) / 32768.0 - 1.0;
}

/* One case: a matrix in band storage (complex entries; the real case uses the real parts). */
typedef struct bcase {
  int n, ml, mu;
  size_t ld;
  double complex *a; /* ld n entries, the matrix; the fill rows hold NaN */
} bcase;

static size_t pos(const bcase *c, int i, int j)
{
  return (size_t)(c->ml + c->mu + i - j) + (size_t)j * c->ld;
}

static int in_band(const bcase *c, int i, int j)
{
  return i >= 0 && i < c->n && i - j <= c->ml && j - i <= c->mu;
}

static void fill_case(bcase *c, int trial, unsigned *seed)
{
  int n = 1 + trial % 70, cap = n - 1 < 39 ? n - 1 : 39;
  c->n = n;
  c->ml = (trial / 7) % (cap + 1);
  c->mu = (trial / 3) % (cap + 1);
  c->ld = (size_t)(2 * c->ml + c->mu + 1);
  c->a = malloc(sizeof *c->a * c->ld * (size_t)n);
  for (size_t k = 0; k < c->ld * (size_t)n; k++) {
    c->a[k] = CMPLX(NAN, NAN); /* outside the band: must be cleared or never read */
  }
  for (int j = 0; j < n; j++) {
    for (int i = j - c->mu; i <= j + c->ml; i++) {
      if (in_band(c, i, j)) {
        double re = uniform(seed), im = trial % 3 ? uniform(seed) : 0.0;
        re = trial % 5 == 0 && uniform(seed) > 0.3 ? 0.0 : re;
        c->a[pos(c, i, j)] = trial % 11 == 0 ? CMPLX(re * 1e-300, im * 1e-300) : CMPLX(re, im);
      }
    }
  }
}

/* max |r_i| / (max |a_ij| max |x_j|) for the residual r = A x - b (complex; the real parts of the
 * entries for a real case). */
static double residual(const bcase *c, const double complex *x, const double complex *b, int cplx)
{
  double rmax = 0.0, xmax = 0.0, amax = 0.0;
  for (int i = 0; i < c->n; i++) {
    double complex r = -b[i];
    for (int j = i - c->ml; j <= i + c->mu; j++) {
      if (j >= 0 && j < c->n) {
        double complex a = cplx ? c->a[pos(c, i, j)] : creal(c->a[pos(c, i, j)]);
        r += a * x[j];
        amax = fmax(amax, cabs(a));
      }
    }
    rmax = fmax(rmax, cabs(r));
    xmax = fmax(xmax, cabs(x[i]));
  }
  return amax * xmax > 0.0 ? rmax / (amax * xmax) : rmax;
}

static double max_diff(int n, const double complex *x, const double complex *y)
{
  double d = 0.0, s = 0.0;
  for (int i = 0; i < n; i++) {
    d = fmax(d, cabs(x[i] - y[i]));
    s = fmax(s, cabs(y[i]));
  }
  return s > 0.0 ? d / s : d;
}

/* ||A||_inf ||A^-1||_inf from the factors of A (ours): A^-1 column by column. */
static double condition(const bcase *c, int cplx, const double *lu, const int *ipiv)
{
  int n = c->n;
  double *e = malloc(sizeof *e * 2 * (size_t)n), *rows = calloc((size_t)n, sizeof *rows);
  double anorm = 0.0, inorm = 0.0;
  for (int j = 0; j < n; j++) {
    memset(e, 0, sizeof *e * 2 * (size_t)n);
    e[cplx ? 2 * j : j] = 1.0;
    if (cplx) {
      mbdae_band_zlu_solve(n, c->ml, c->mu, lu, ipiv, e);
    } else {
      mbdae_band_lu_solve(n, c->ml, c->mu, lu, ipiv, e);
    }
    for (int i = 0; i < n; i++) {
      rows[i] += cplx ? hypot(e[2 * i], e[2 * i + 1]) : fabs(e[i]);
    }
  }
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
    for (int j = i - c->ml; j <= i + c->mu; j++) {
      sum += j >= 0 && j < n ? (cplx ? cabs(c->a[pos(c, i, j)]) : fabs(creal(c->a[pos(c, i, j)])))
                             : 0.0;
    }
    anorm = fmax(anorm, sum);
    inorm = fmax(inorm, rows[i]);
  }
  free(e), free(rows);
  return anorm * inorm;
}

/* Ours and LAPACK's real factorization and solve of case c: 1 when both refuse it. */
static int compare_real(const bcase *c, int trial, unsigned *seed)
{
  int n = c->n, ldab = (int)c->ld, one = 1, info = 0;
  size_t count = c->ld * (size_t)n;
  double *ours = malloc(sizeof *ours * count), *ref = malloc(sizeof *ref * count);
  double *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
  double complex *xc = malloc(sizeof *xc * (size_t)n), *yc = malloc(sizeof *yc * (size_t)n);
  double complex *bc = malloc(sizeof *bc * (size_t)n);
  int *pivots = malloc(sizeof *pivots * (size_t)n), *ref_pivots = malloc(sizeof *pivots * n);
  for (size_t k = 0; k < count; k++) {
    ours[k] = ref[k] = creal(c->a[k]);
  }
  int rc = mbdae_band_lu_factor(n, c->ml, c->mu, ours, pivots);
  dgbtrf_(&n, &n, &c->ml, &c->mu, ref, &ldab, ref_pivots, &info);
  CHECK((rc == MBDAE_ERR_SINGULAR) == (info > 0) && (rc == 0 || rc == MBDAE_ERR_SINGULAR),
        "real trial %d: ours %d, dgbtrf info %d", trial, rc, info);
  int refused = rc != 0 && info > 0;
  if (rc == 0 && info == 0) {
    CHECK(memcmp(pivots, ref_pivots, sizeof *pivots * (size_t)n) == 0, "real trial %d: pivots",
          trial);
    for (int i = 0; i < n; i++) {
      x[i] = y[i] = i % 4 == 0 ? 0.0 : uniform(seed);
      bc[i] = x[i];
    }
    CHECK(mbdae_band_lu_solve(n, c->ml, c->mu, ours, pivots, x) == 0, "real trial %d", trial);
    dgbtrs_("N", &n, &c->ml, &c->mu, &one, ref, &ldab, ref_pivots, y, &n, &info, 1);
    for (int i = 0; i < n; i++) {
      xc[i] = x[i];
      yc[i] = y[i];
    }
    double d = max_diff(n, xc, yc), r = residual(c, xc, bc, 0);
    CHECK(d <= agreement(n, condition(c, 0, ours, pivots)) && r <= 1e-12,
          "real trial %d (n %d ml %d mu %d): |x - x_lapack| %g, "
          "residual %g",
          trial, n, c->ml, c->mu, d, r);
  }
  free(ours), free(ref), free(x), free(y), free(xc), free(yc), free(bc), free(pivots);
  free(ref_pivots);
  return refused;
}

/* The same for the complex factorization and solve. */
static int compare_complex(const bcase *c, int trial, unsigned *seed)
{
  int n = c->n, ldab = (int)c->ld, one = 1, info = 0;
  size_t count = c->ld * (size_t)n;
  double complex *ours = malloc(sizeof *ours * count), *ref = malloc(sizeof *ref * count);
  double complex *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
  double complex *b = malloc(sizeof *b * (size_t)n);
  int *pivots = malloc(sizeof *pivots * (size_t)n), *ref_pivots = malloc(sizeof *pivots * n);
  memcpy(ours, c->a, sizeof *ours * count);
  memcpy(ref, c->a, sizeof *ref * count);
  int rc = mbdae_band_zlu_factor(n, c->ml, c->mu, (double *)ours, pivots);
  zgbtrf_(&n, &n, &c->ml, &c->mu, ref, &ldab, ref_pivots, &info);
  CHECK((rc == MBDAE_ERR_SINGULAR) == (info > 0) && (rc == 0 || rc == MBDAE_ERR_SINGULAR),
        "complex trial %d: ours %d, zgbtrf info %d", trial, rc, info);
  int refused = rc != 0 && info > 0;
  if (rc == 0 && info == 0) {
    CHECK(memcmp(pivots, ref_pivots, sizeof *pivots * (size_t)n) == 0, "complex trial %d: pivots",
          trial);
    for (int i = 0; i < n; i++) {
      b[i] = x[i] = y[i] = i % 4 == 0 ? 0.0 : CMPLX(uniform(seed), uniform(seed));
    }
    CHECK(mbdae_band_zlu_solve(n, c->ml, c->mu, (double *)ours, pivots, (double *)x) == 0,
          "complex trial %d", trial);
    zgbtrs_("N", &n, &c->ml, &c->mu, &one, ref, &ldab, ref_pivots, y, &n, &info, 1);
    double d = max_diff(n, x, y), r = residual(c, x, b, 1);
    CHECK(d <= agreement(n, condition(c, 1, (double *)ours, pivots)) && r <= 1e-12,
          "complex trial %d (n %d ml %d mu %d): |x - x_lapack| %g, "
          "residual %g",
          trial, n, c->ml, c->mu, d, r);
  }
  free(ours), free(ref), free(x), free(y), free(b), free(pivots), free(ref_pivots);
  return refused;
}

static void random_systems(void)
{
  unsigned seed = 20261129u;
  int refused = 0, blocked = 0;
  for (int trial = 0; trial < 1500; trial++) {
    bcase c;
    fill_case(&c, trial, &seed);
    refused += compare_real(&c, trial, &seed);
    refused += compare_complex(&c, trial, &seed);
    blocked += c.ml >= 32;
    free(c.a);
  }
  /* the cases exercise what they claim: some singular matrices, LAPACK's blocked code */
  CHECK(refused > 10 && blocked > 50, "refused %d, blocked %d", refused, blocked);
}

/* A tridiagonal matrix (ml = mu = 1) in band storage from its three diagonals. */
static void tridiagonal(int n, const double *sub, const double *diag, const double *super,
                        double *ab)
{
  size_t ld = 4;
  memset(ab, 0, sizeof *ab * ld * (size_t)n);
  for (int j = 0; j < n; j++) {
    ab[2 + (size_t)j * ld] = diag[j];
    if (j + 1 < n) {
      ab[3 + (size_t)j * ld] = sub[j];         /* (j + 1, j) */
      ab[1 + (size_t)(j + 1) * ld] = super[j]; /* (j, j + 1) */
    }
  }
}

/* Pivoting and singularity on small matrices whose answers are known. */
static void known_matrices(void)
{
  enum { N = 4 };
  double ab[4 * N], x[N];
  int ipiv[N];
  /* zero diagonal: [0 1 0 0; 2 0 1 0; 0 3 0 1; 0 0 4 0], x = (1, 2, 3, 4) gives b = A x */
  const double sub[] = {2, 3, 4}, zero[N] = {0}, super[] = {1, 1, 1};
  tridiagonal(N, sub, zero, super, ab);
  double b[N] = {2, 5, 10, 12};
  CHECK(mbdae_band_lu_factor(N, 1, 1, ab, ipiv) == 0, "zero diagonal");
  CHECK(ipiv[0] == 2 && ipiv[1] == 3 && ipiv[2] == 4 && ipiv[3] == 4, "pivots %d %d %d %d", ipiv[0],
        ipiv[1], ipiv[2], ipiv[3]);
  memcpy(x, b, sizeof x);
  mbdae_band_lu_solve(N, 1, 1, ab, ipiv, x);
  for (int i = 0; i < N; i++) {
    CHECK(fabs(x[i] - (i + 1)) <= 1e-15 * N, "x[%d] = %.17g", i, x[i]);
  }
  /* ties: |a(1,0)| = |a(0,0)|: the first (row 0) is the pivot, as idamax takes it */
  const double diag[] = {-2, 5, 5, 5}, sub2[] = {2, 1, 1};
  tridiagonal(N, sub2, diag, super, ab);
  CHECK(mbdae_band_lu_factor(N, 1, 1, ab, ipiv) == 0 && ipiv[0] == 1, "tie: pivot %d", ipiv[0]);
  /* singular: a zero column; two equal rows after elimination */
  const double sub3[] = {0, 1, 1}, diag3[] = {0, 1, 1, 1};
  tridiagonal(N, sub3, diag3, super, ab);
  CHECK(mbdae_band_lu_factor(N, 1, 1, ab, ipiv) == MBDAE_ERR_SINGULAR, "zero column");
  const double ones[] = {1, 1, 1}, diag4[] = {1, 1, 1, 1}, sup4[] = {1, 0, 1};
  tridiagonal(N, ones, diag4, sup4, ab); /* rows 0 and 1 are (1 1 0 0) */
  CHECK(mbdae_band_lu_factor(N, 1, 1, ab, ipiv) == MBDAE_ERR_SINGULAR, "equal rows");
  double zab[8 * N] = {0};
  CHECK(mbdae_band_zlu_factor(N, 1, 1, zab, ipiv) == MBDAE_ERR_SINGULAR, "complex zero");
}

int main(void)
{
  random_systems();
  known_matrices();
  return check_summary("test_bandlu");
}
