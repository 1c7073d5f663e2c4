/* The small-dense kernel (solvers/smalldense.h) and the linear-system layer (solvers/linsys.h)
 * against LAPACK (solvers/lapack.h): on random matrices n = 1..40 and 65, 100, 160, 256 (above the
 * condensation's 64 rows, where the layer gives dense matrices to the kernel alone), on the
 * iteration matrices of the test problems and of Fekete (n = 80, 160) (E1 = J + (gamma/h) M and
 * E2 = J + ((alpha + i beta)/h) M of Radau IIA at the initial values and at a perturbed point,
 * h = 1e-2 and 1e-5), on singular matrices, and at the layer's two bounds (condensation, LAPACK).
 * For each: the same status as LAPACK; the same pivot rows unless LAPACK's row was within
 * rounding of a tie; a normwise residual ||A x - b|| / (||A|| ||x||) below 100 eps; a growth
 * factor max |U| / max |A| within a factor 2 of LAPACK's. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "linalg_support.h"
#include "support.h"
#include "../solvers/lapack.h"
#include "../solvers/linsys.h"
#include "../solvers/smalldense.h"

enum { MAX_RANDOM_N = 40 };
static const double RESIDUAL_LIMIT = 100.0 * DBL_EPSILON;

/* ---- a deterministic generator (splitmix64) ------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static double rnd(void) { return splitmix_uniform(&rng_state); }

static void fill_random(size_t len, double *v)
{
  for (size_t k = 0; k < len; k++) {
    v[k] = rnd();
  }
}

/* ---- measures ------------------------------------------------------------------------ */

static double cabs1(double complex z) { return fabs(creal(z)) + fabs(cimag(z)); }

/* ||A x - b||_inf / (||A||_inf ||x||_inf) for the complex n x n matrix a (a real one has a zero
 * imaginary part). */
static double residual(int n, const double complex *a, const double complex *x,
                       const double complex *b)
{
  double rmax = 0.0, anorm = 0.0, xmax = 0.0;
  for (int i = 0; i < n; i++) {
    double complex r = -b[i];
    double row = 0.0;
    for (int j = 0; j < n; j++) {
      r += a[i + (size_t)j * (size_t)n] * x[j];
      row += cabs(a[i + (size_t)j * (size_t)n]);
    }
    rmax = fmax(rmax, cabs(r));
    anorm = fmax(anorm, row);
    xmax = fmax(xmax, cabs(x[i]));
  }
  return anorm * xmax > 0.0 ? rmax / (anorm * xmax) : rmax;
}

/* max |U_ij| / max |A_ij|. */
static double growth(int n, const double complex *a, const double complex *lu)
{
  double amax = 0.0, umax = 0.0;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      amax = fmax(amax, cabs(a[i + (size_t)j * (size_t)n]));
      if (i <= j) {
        umax = fmax(umax, cabs(lu[i + (size_t)j * (size_t)n]));
      }
    }
  }
  return amax > 0.0 ? umax / amax : 0.0;
}

/* Did the kernel's step k, which chose a row other than LAPACK's row q (both counted in the
 * kernel's order at step k), face a tie?  The row q ends, after the kernel's later swaps, in some
 * row r, and its entry of column k before the division was l_rk u_kk: a tie when its size (by
 * the pivoting measure |re| + |im|) equals the pivot's to rounding. */
static int near_tie(int n, const double complex *lu, const int *ipiv, int k, int q)
{
  int r = q == k ? ipiv[k] - 1 : q;
  for (int j = k + 1; j < n; j++) {
    int p = ipiv[j] - 1;
    r = r == j ? p : (r == p ? j : r);
  }
  double complex ukk = lu[k + (size_t)k * (size_t)n];
  double cand = cabs1(lu[r + (size_t)k * (size_t)n] * ukk);
  return fabs(cand - cabs1(ukk)) <= 1e-10 * cabs1(ukk);
}

/* ---- one system, kernel against LAPACK ------------------------------------------------ */

typedef struct outcome {
  int status, status_lapack; /* 0 or MBDAE_ERR_SINGULAR */
  double complex *lu, *lu_lapack, *x, *x_lapack;
  int *ipiv, *ipiv_lapack;
} outcome;

static double worst_residual, worst_growth_ratio; /* over all nonsingular cases, for the log */
static int pivot_ties;

static void outcome_alloc(int n, outcome *o)
{
  size_t nn = (size_t)n * (size_t)n;
  o->lu = malloc(2 * nn * sizeof *o->lu);
  o->lu_lapack = o->lu + nn;
  o->x = malloc(2 * (size_t)n * sizeof *o->x);
  o->x_lapack = o->x + n;
  o->ipiv = malloc(2 * (size_t)n * sizeof *o->ipiv);
  o->ipiv_lapack = o->ipiv + n;
}

static void outcome_free(outcome *o)
{
  free(o->lu);
  free(o->x);
  free(o->ipiv);
}

/* The checks of the file header for A x = b (a, b complex; a real matrix has zero imaginary
 * parts), given both codes' factors and solutions. */
static void compare(const char *label, int n, const double complex *a, const double complex *b,
                    const outcome *o)
{
  CHECK(o->status == o->status_lapack, "%s n=%d: status %d, LAPACK %d", label, n, o->status,
        o->status_lapack);
  if (o->status != 0 || o->status_lapack != 0) {
    return;
  }
  for (int k = 0; k < n; k++) {
    if (o->ipiv[k] != o->ipiv_lapack[k]) {
      /* at k = 0 both see the same entries: a tie there is broken the same way (first row) */
      int tie = k > 0 && near_tie(n, o->lu, o->ipiv, k, o->ipiv_lapack[k] - 1);
      CHECK(tie, "%s n=%d: pivot %d is row %d, LAPACK's %d", label, n, k, o->ipiv[k],
            o->ipiv_lapack[k]);
      pivot_ties += tie;
      break; /* later pivots follow other rows */
    }
  }
  double res = residual(n, a, o->x, b), res_lapack = residual(n, a, o->x_lapack, b);
  CHECK(res <= RESIDUAL_LIMIT, "%s n=%d: residual %.3g eps (LAPACK %.3g eps)", label, n,
        res / DBL_EPSILON, res_lapack / DBL_EPSILON);
  double g = growth(n, a, o->lu), g_lapack = growth(n, a, o->lu_lapack);
  CHECK(g <= 2.0 * g_lapack && g_lapack <= 2.0 * g, "%s n=%d: growth %.3g, LAPACK %.3g", label, n,
        g, g_lapack);
  worst_residual = fmax(worst_residual, res);
  worst_growth_ratio = fmax(worst_growth_ratio, g / g_lapack);
}

/* The real system a x = b solved by the kernel and by LAPACK, then compared; returns the
 * kernel's status. */
static int check_real(const char *label, int n, const double *a, const double *b)
{
  size_t nn = (size_t)n * (size_t)n;
  double *w = malloc((2 * nn + 2 * (size_t)n) * sizeof *w);
  double complex *ac = malloc((nn + (size_t)n) * sizeof *ac), *bc = ac + nn;
  double *lk = w, *ll = w + nn, *xk = w + 2 * nn, *xl = xk + n;
  outcome o;
  outcome_alloc(n, &o);
  memcpy(lk, a, nn * sizeof *a);
  memcpy(ll, a, nn * sizeof *a);
  memcpy(xk, b, (size_t)n * sizeof *b);
  memcpy(xl, b, (size_t)n * sizeof *b);
  o.status = mbdae_small_lu_factor(n, lk, o.ipiv);
  o.status_lapack = mbdae_lu_factor(n, ll, o.ipiv_lapack);
  if (o.status == 0 && o.status_lapack == 0) {
    CHECK(mbdae_small_lu_solve(n, lk, o.ipiv, xk) == 0, "%s: solve", label);
    CHECK(mbdae_lu_solve(n, ll, o.ipiv_lapack, xl) == 0, "%s: LAPACK solve", label);
  }
  for (size_t k = 0; k < nn; k++) {
    ac[k] = a[k];
    o.lu[k] = lk[k];
    o.lu_lapack[k] = ll[k];
  }
  for (int i = 0; i < n; i++) {
    bc[i] = b[i];
    o.x[i] = xk[i];
    o.x_lapack[i] = xl[i];
  }
  compare(label, n, ac, bc, &o);
  int status = o.status;
  outcome_free(&o);
  free(ac);
  free(w);
  return status;
}

/* The complex system (ar + i ai) x = br + i bi solved by the kernel and by LAPACK, compared;
 * returns the kernel's status. */
static int check_complex(const char *label, int n, const double *ar, const double *ai,
                         const double *br, const double *bi)
{
  size_t nn = (size_t)n * (size_t)n;
  double *w = malloc((2 * nn + 2 * (size_t)n) * sizeof *w);
  double *re = w, *im = w + nn, *xr = w + 2 * nn, *xi = xr + n;
  double complex *ac = malloc((2 * nn + 2 * (size_t)n) * sizeof *ac);
  double complex *ll = ac + nn, *bc = ll + nn, *xl = bc + n;
  outcome o;
  outcome_alloc(n, &o);
  memcpy(re, ar, nn * sizeof *ar);
  memcpy(im, ai, nn * sizeof *ai);
  memcpy(xr, br, (size_t)n * sizeof *br);
  memcpy(xi, bi, (size_t)n * sizeof *bi);
  for (size_t k = 0; k < nn; k++) {
    ac[k] = ll[k] = CMPLX(ar[k], ai[k]);
  }
  for (int i = 0; i < n; i++) {
    bc[i] = xl[i] = CMPLX(br[i], bi[i]);
  }
  o.status = mbdae_small_zlu_factor(n, re, im, o.ipiv);
  o.status_lapack = mbdae_zlu_factor(n, ll, o.ipiv_lapack);
  if (o.status == 0 && o.status_lapack == 0) {
    CHECK(mbdae_small_zlu_solve(n, re, im, o.ipiv, xr, xi) == 0, "%s: solve", label);
    CHECK(mbdae_zlu_solve(n, ll, o.ipiv_lapack, xl) == 0, "%s: LAPACK solve", label);
  }
  for (size_t k = 0; k < nn; k++) {
    o.lu[k] = CMPLX(re[k], im[k]);
    o.lu_lapack[k] = ll[k];
  }
  for (int i = 0; i < n; i++) {
    o.x[i] = CMPLX(xr[i], xi[i]);
    o.x_lapack[i] = xl[i];
  }
  compare(label, n, ac, bc, &o);
  int status = o.status;
  outcome_free(&o);
  free(ac);
  free(w);
  return status;
}

/* ---- the cases -------------------------------------------------------------------------- */

/* A dense random matrix, and random J + s M with M zero in about two thirds of its entries (so
 * that the complex kernel meets real multipliers, real pivot-row entries and both mixed). */
static void random_case(int n)
{
  size_t nn = (size_t)n * (size_t)n;
  double *a = malloc((3 * nn + 2 * (size_t)n) * sizeof *a);
  double *m = a + nn, *im = m + nn, *br = im + nn, *bi = br + n;
  fill_random(nn, a);
  fill_random((size_t)n, br);
  fill_random((size_t)n, bi);
  check_real("random", n, a, br);
  for (size_t k = 0; k < nn; k++) {
    im[k] = rnd();
  }
  check_complex("random complex", n, a, im, br, bi);
  const double sr = 2.0, si = 3.0;
  for (size_t k = 0; k < nn; k++) {
    m[k] = rnd() < -1.0 / 3.0 ? rnd() : 0.0;
    im[k] = si * m[k];
    a[k] += sr * m[k];
  }
  check_complex("random J + s M", n, a, im, br, bi);
  for (size_t k = 0; k < nn; k++) { /* small integers: exact ties among the pivot candidates */
    a[k] = floor(2.5 * rnd());
    im[k] = k % 3 == 0 ? floor(2.5 * rnd()) : 0.0;
  }
  check_real("ties", n, a, br);
  check_complex("ties complex", n, a, im, br, bi);
  free(a);
}

/* Every order up to MAX_RANDOM_N, and larger ones the layer factors by the kernel alone. */
static void random_cases(void)
{
  static const int large[] = {65, 100, 160, 256};
  for (int n = 1; n <= MAX_RANDOM_N; n++) {
    random_case(n);
  }
  for (size_t k = 0; k < sizeof large / sizeof large[0]; k++) {
    random_case(large[k]);
  }
}

/* A system through the linear-system layer: factor J + c M (si == 0 and real) or J + s M
 * (complex), solve, residual against the matrix formed here. */
static void check_linsys(const char *label, int n, const double *J, const double *M, double sr,
                         double si, int is_complex)
{
  size_t nn = (size_t)n * (size_t)n;
  mbdae_linsys ls;
  void *mem = malloc(mbdae_linsys_bytes(n, is_complex));
  double complex *a = malloc((nn + 2 * (size_t)n) * sizeof *a), *b = a + nn, *x = b + n;
  double *br = malloc(2 * (size_t)n * sizeof *br), *bi = br + n;
  mbdae_linsys_init(&ls, n, is_complex, mem);
  CHECK(ls.lapack == (n > MBDAE_KERNEL_MAX_N), "%s n=%d: LAPACK %d", label, n, ls.lapack);
  CHECK(ls.condensed == (n <= MBDAE_CONDENSE_MAX_N), "%s n=%d: condensed %d", label, n,
        ls.condensed);
  for (size_t k = 0; k < nn; k++) {
    a[k] = CMPLX(J[k] + sr * M[k], is_complex ? si * M[k] : 0.0);
  }
  fill_random(2 * (size_t)n, br);
  for (int i = 0; i < n; i++) {
    b[i] = CMPLX(br[i], is_complex ? bi[i] : 0.0);
  }
  int rc = is_complex ? mbdae_linsys_factor_shift(&ls, J, M, sr, si)
                      : mbdae_linsys_factor(&ls, J, M, sr);
  CHECK(rc == 0, "%s n=%d: factor %d", label, n, rc);
  if (rc == 0) {
    rc = is_complex ? mbdae_linsys_solve_shift(&ls, br, bi) : mbdae_linsys_solve(&ls, br);
    for (int i = 0; i < n; i++) {
      x[i] = CMPLX(br[i], is_complex ? bi[i] : 0.0);
    }
    double res = residual(n, a, x, b);
    CHECK(rc == 0 && res <= RESIDUAL_LIMIT, "%s n=%d: solve %d, residual %.3g eps", label, n, rc,
          res / DBL_EPSILON);
  }
  free(br);
  free(a);
  free(mem);
}

static size_t nonzeros(size_t len, const double *v)
{
  size_t count = 0;
  for (size_t k = 0; k < len; k++) {
    count += v[k] != 0.0;
  }
  return count;
}

/* Radau IIA's E1 and E2 from J = dF/dy and M = dF/dy' at one point of problem id, for two step
 * sizes, through the kernel and through the linear-system layer. */
static void problem_point(const char *id, const char *where, int n, const double *J,
                          const double *M)
{
  double gamma, alpha, beta;
  radau_shifts(&gamma, &alpha, &beta);
  const double steps[] = {1e-2, 1e-5};
  size_t nn = (size_t)n * (size_t)n;
  double *re = malloc((2 * nn + 2 * (size_t)n) * sizeof *re), *im = re + nn;
  double *br = im + nn, *bi = br + n;
  for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
    double h = steps[s];
    char label[128];
    fill_random(2 * (size_t)n, br);
    for (size_t k = 0; k < nn; k++) {
      re[k] = J[k] + (gamma / h) * M[k];
    }
    snprintf(label, sizeof label, "%s %s E1 h=%g", id, where, h);
    check_real(label, n, re, br);
    check_linsys(label, n, J, M, gamma / h, 0.0, 0);
    printf("%-10s %-9s h=%g: E1 %zu nonzeros of %zu", id, where, h, nonzeros(nn, re), nn);
    for (size_t k = 0; k < nn; k++) {
      re[k] = J[k] + (alpha / h) * M[k];
      im[k] = (beta / h) * M[k];
    }
    snprintf(label, sizeof label, "%s %s E2 h=%g", id, where, h);
    check_complex(label, n, re, im, br, bi);
    check_linsys(label, n, J, M, alpha / h, beta / h, 1);
    printf(", E2 %zu complex entries\n", nonzeros(nn, im));
  }
  free(re);
}

static void problem_cases(void)
{
  const char *ids[] = {"caraxis",   "andrews",     "crank", "pendulum",
                       "dpendulum", "fekete:n=10", "fekete"};
  for (size_t c = 0; c < sizeof ids / sizeof ids[0]; c++) {
    mbdae_problem *p = create_problem(ids[c]);
    if (!p) {
      continue;
    }
    int n = mbdae_problem_neq(p);
    size_t nn = (size_t)n * (size_t)n;
    double *y = malloc((2 * (size_t)n + 2 * nn) * sizeof *y), *yp = y + n;
    double *J = yp + n, *M = J + nn;
    double t0 = mbdae_problem_t0(p);
    CHECK(mbdae_problem_init(p, y, yp) == 0, "%s: init", ids[c]);
    CHECK(mbdae_problem_jac(p, t0, y, yp, J, M) == 0, "%s: jac", ids[c]);
    problem_point(ids[c], "initial", n, J, M);
    for (int i = 0; i < n; i++) { /* a generic point: no zero angles or velocities */
      y[i] += 0.05 * rnd() * (1.0 + fabs(y[i]));
      yp[i] += 0.05 * rnd() * (1.0 + fabs(yp[i]));
    }
    CHECK(mbdae_problem_jac(p, t0, y, yp, J, M) == 0, "%s: jac", ids[c]);
    problem_point(ids[c], "perturbed", n, J, M);
    free(y);
    mbdae_problem_destroy(p);
  }
}

/* Exactly singular matrices, real and complex: a zero column (the zero pivot at its step), a
 * zero row (at some later step) and the zero matrix; both codes must say so.  (Two equal rows
 * are not enough: the multiplier x * (1/x) need not be exactly 1, and neither code then meets an
 * exact zero.) */
static void singular_cases(void)
{
  for (int n = 1; n <= 12; n++) {
    size_t nn = (size_t)n * (size_t)n;
    double *a = malloc((2 * nn + 2 * (size_t)n) * sizeof *a), *im = a + nn;
    double *br = im + nn, *bi = br + n;
    int j = (int)((rnd() + 1.0) * 0.5 * n);
    for (int kind = 0; kind < 3; kind++) {
      fill_random(nn, a);
      fill_random(nn, im);
      fill_random(2 * (size_t)n, br);
      for (int i = 0; i < n; i++) {
        for (int c = 0; c < n; c++) {
          if (kind == 2 || (kind == 0 && c == j) || (kind == 1 && i == j)) {
            a[(size_t)i + (size_t)c * (size_t)n] = im[(size_t)i + (size_t)c * (size_t)n] = 0.0;
          }
        }
      }
      int rc = check_real("singular", n, a, br);
      CHECK(rc == MBDAE_ERR_SINGULAR, "singular kind %d n=%d: status %d", kind, n, rc);
      rc = check_complex("singular complex", n, a, im, br, bi);
      CHECK(rc == MBDAE_ERR_SINGULAR, "singular complex kind %d n=%d: status %d", kind, n, rc);
    }
    free(a);
  }
}

/* The layer on both sides of its bounds: the kernel with condensation at MBDAE_CONDENSE_MAX_N,
 * alone above it and at MBDAE_KERNEL_MAX_N, LAPACK above that. */
static void crossover_cases(void)
{
  static const int orders[] = {MBDAE_CONDENSE_MAX_N, MBDAE_CONDENSE_MAX_N + 1, MBDAE_KERNEL_MAX_N,
                               MBDAE_KERNEL_MAX_N + 1};
  for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
    int n = orders[o];
    size_t nn = (size_t)n * (size_t)n;
    double *J = malloc(2 * nn * sizeof *J), *M = J + nn;
    fill_random(nn, J);
    for (size_t k = 0; k < nn; k++) {
      M[k] = rnd() < 0.0 ? rnd() : 0.0;
    }
    check_linsys("crossover", n, J, M, 3.6, 0.0, 0);
    check_linsys("crossover", n, J, M, 2.7, 3.1, 1);
    free(J);
  }
}

int main(void)
{
  random_cases();
  problem_cases();
  singular_cases();
  crossover_cases();
  printf("worst residual %.3g eps, worst growth ratio to LAPACK %.3g, %d pivot ties\n",
         worst_residual / DBL_EPSILON, worst_growth_ratio, pivot_ties);
  return check_summary("test_smalldense");
}
