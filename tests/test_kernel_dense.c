/* The dense iteration matrix by order (solvers/linsys.h mbdae_itmat): the small-dense kernel with
 * condensation up to MBDAE_CONDENSE_MAX_N rows, the kernel alone up to MBDAE_KERNEL_MAX_N, LAPACK
 * above.  At each bound and between them: the factorization chosen (its ops name), real and
 * complex solves of Radau IIA's E1 = J + c M and E2 = J + s M (random J, M = I on 3/4 of the
 * diagonal as Fekete's M = diag(I, 0)) that agree with LAPACK's on the same matrix and leave a
 * residual below 100 eps, a refactorization with new values, an exactly singular matrix refused,
 * and the finiteness check of the real factors (a NaN in J seen).  Then Fekete's own store
 * (n = 160, the dense pattern radau5 asks for) through the same path. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../solvers/jacobian.h"
#include "../solvers/lapack.h"
#include "../solvers/linsys.h"
#include "check.h"
#include "linalg_support.h"
#include "mbdae/mbdae.h"
#include "support.h"

static const double RESIDUAL_LIMIT = 100.0 * DBL_EPSILON;
static const double AGREE_RTOL = 1e-10; /* with LAPACK's solution: rounding of two LU orders */

static uint64_t rng_state = 0x5851f42d4c957f2du;

static double rnd(void) { return splitmix_uniform(&rng_state); }

/* A dense store of order n over caller-owned J and M (n x n each). */
static void dense_store(mbdae_jacobian *jac, int n, double *J, double *M)
{
  memset(jac, 0, sizeof *jac);
  jac->kind = MBDAE_JAC_DENSE;
  jac->n = n;
  jac->ml = jac->mu = n - 1;
  jac->nnz = (size_t)n * (size_t)n;
  jac->dfdy = J;
  jac->dfdyp = M;
}

/* The factorization the layer picks for a dense matrix of order n. */
static const char *expected_ops(int n)
{
  if (n <= MBDAE_CONDENSE_MAX_N) {
    return "kernel";
  }
  return n <= MBDAE_KERNEL_MAX_N ? "kernel dense" : "lapack dense";
}

/* ||E x - b||_inf / (||E||_inf ||x||_inf) and the largest |x - x_lapack| / ||x_lapack||_inf for
 * E = J + (sr + i si) M, with x from the layer (xr, xi) and from zgetrf on the same E. */
static void against_lapack(const mbdae_jacobian *jac, double sr, double si, const double *br,
                           const double *bi, const double *xr, const double *xi, double *res,
                           double *diff)
{
  int n = jac->n;
  size_t nn = (size_t)n * (size_t)n;
  double complex *e = malloc((nn + (size_t)n) * sizeof *e), *x = e + nn;
  int *ipiv = malloc((size_t)n * sizeof *ipiv);
  double rmax = 0.0, enorm = 0.0, xmax = 0.0, xlmax = 0.0, dmax = 0.0;
  for (size_t k = 0; k < nn; k++) {
    e[k] = CMPLX(jac->dfdy[k] + sr * jac->dfdyp[k], si * jac->dfdyp[k]);
  }
  for (int i = 0; i < n; i++) {
    double complex r = -CMPLX(br[i], bi ? bi[i] : 0.0);
    double row = 0.0;
    for (int j = 0; j < n; j++) {
      double complex eij = e[i + (size_t)j * (size_t)n];
      r += eij * CMPLX(xr[j], xi ? xi[j] : 0.0);
      row += cabs(eij);
    }
    rmax = fmax(rmax, cabs(r));
    enorm = fmax(enorm, row);
    xmax = fmax(xmax, cabs(CMPLX(xr[i], xi ? xi[i] : 0.0)));
    x[i] = CMPLX(br[i], bi ? bi[i] : 0.0);
  }
  int rc = mbdae_zlu_factor(n, e, ipiv);
  rc = rc == 0 ? mbdae_zlu_solve(n, e, ipiv, x) : rc;
  CHECK(rc == 0, "n=%d: LAPACK %d", n, rc);
  for (int i = 0; i < n; i++) {
    dmax = fmax(dmax, cabs(x[i] - CMPLX(xr[i], xi ? xi[i] : 0.0)));
    xlmax = fmax(xlmax, cabs(x[i]));
  }
  *res = rmax / (enorm * xmax);
  *diff = dmax / xlmax;
  free(ipiv);
  free(e);
}

/* Factor (twice: other values first), solve and compare, real or complex, through the store. */
static void solve_case(const char *label, const mbdae_jacobian *jac, int is_complex, double sr,
                       double si)
{
  int n = jac->n;
  mbdae_itmat m;
  double *b = malloc(4 * (size_t)n * sizeof *b), *br = b, *bi = b + n, *xr = bi + n, *xi = xr + n;
  for (int i = 0; i < 2 * n; i++) {
    b[i] = rnd();
  }
  memcpy(xr, br, 2 * (size_t)n * sizeof *b);
  int rc = mbdae_itmat_create(&m, jac, is_complex);
  CHECK(rc == 0, "%s n=%d: create %d", label, n, rc);
  if (rc != 0) {
    free(b);
    return;
  }
  CHECK(strcmp(m.ops->name, expected_ops(n)) == 0, "%s n=%d: %s, expected %s", label, n,
        m.ops->name, expected_ops(n));
  rc = is_complex ? mbdae_itmat_factor_shift(&m, 3.0 * sr, 0.5 * si)
                  : mbdae_itmat_factor(&m, 3.0 * sr);
  rc = rc ? rc : is_complex ? mbdae_itmat_factor_shift(&m, sr, si) : mbdae_itmat_factor(&m, sr);
  rc = rc ? rc : is_complex ? mbdae_itmat_solve_shift(&m, xr, xi) : mbdae_itmat_solve(&m, xr);
  CHECK(rc == 0, "%s n=%d: factor and solve %d", label, n, rc);
  CHECK(mbdae_itmat_finite(&m), "%s n=%d: finite factors seen as non-finite", label, n);
  double res, diff;
  against_lapack(jac, sr, is_complex ? si : 0.0, br, is_complex ? bi : NULL, xr,
                 is_complex ? xi : NULL, &res, &diff);
  CHECK(res <= RESIDUAL_LIMIT && diff <= AGREE_RTOL,
        "%s n=%d %s: residual %.3g eps, %.3g from LAPACK's solution", label, n,
        is_complex ? "complex" : "real", res / DBL_EPSILON, diff);
  mbdae_itmat_free(&m);
  free(b);
}

/* A zero column: the real and the complex factorization report MBDAE_ERR_SINGULAR; a NaN in J:
 * the real factors are seen as non-finite. */
static void singular_and_nan(const mbdae_jacobian *jac, double *J, double *M)
{
  int n = jac->n, j = n / 3;
  mbdae_itmat m;
  double *saved = malloc(2 * (size_t)n * sizeof *saved);
  memcpy(saved, J + (size_t)j * (size_t)n, (size_t)n * sizeof *J);
  memcpy(saved + n, M + (size_t)j * (size_t)n, (size_t)n * sizeof *M);
  memset(J + (size_t)j * (size_t)n, 0, (size_t)n * sizeof *J);
  memset(M + (size_t)j * (size_t)n, 0, (size_t)n * sizeof *M);
  for (int is_complex = 0; is_complex <= 1; is_complex++) {
    int rc = mbdae_itmat_create(&m, jac, is_complex);
    rc = rc           ? rc
         : is_complex ? mbdae_itmat_factor_shift(&m, 2.0, 1.0)
                      : mbdae_itmat_factor(&m, 2.0);
    CHECK(rc == MBDAE_ERR_SINGULAR, "n=%d zero column %d (complex %d): status %d", n, j, is_complex,
          rc);
    mbdae_itmat_free(&m);
  }
  memcpy(J + (size_t)j * (size_t)n, saved, (size_t)n * sizeof *J);
  memcpy(M + (size_t)j * (size_t)n, saved + n, (size_t)n * sizeof *M);
  double keep = J[(size_t)n * (size_t)n - 1];
  J[(size_t)n * (size_t)n - 1] = NAN;
  int rc = mbdae_itmat_create(&m, jac, 0);
  rc = rc ? rc : mbdae_itmat_factor(&m, 2.0);
  CHECK(rc == 0 && !mbdae_itmat_finite(&m), "n=%d: a NaN in J: status %d, finite %d", n, rc,
        rc == 0 && mbdae_itmat_finite(&m));
  mbdae_itmat_free(&m);
  J[(size_t)n * (size_t)n - 1] = keep;
  free(saved);
}

static void random_orders(void)
{
  static const int orders[] = {MBDAE_CONDENSE_MAX_N, MBDAE_CONDENSE_MAX_N + 1, 100, 160,
                               MBDAE_KERNEL_MAX_N,   MBDAE_KERNEL_MAX_N + 1};
  double gamma, alpha, beta;
  radau_shifts(&gamma, &alpha, &beta);
  for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
    int n = orders[o];
    size_t nn = (size_t)n * (size_t)n;
    double *J = malloc(2 * nn * sizeof *J), *M = J + nn;
    mbdae_jacobian jac;
    for (size_t k = 0; k < nn; k++) {
      J[k] = rnd();
      M[k] = 0.0;
    }
    for (int i = 0; i < 3 * n / 4; i++) {
      M[i + (size_t)i * (size_t)n] = 1.0;
    }
    dense_store(&jac, n, J, M);
    solve_case("random", &jac, 0, gamma, 0.0);
    solve_case("random", &jac, 1, alpha, beta);
    singular_and_nan(&jac, J, M);
    free(J);
  }
}

/* Fekete's store as radau5 makes it (linsys AUTO: dense, 160 rows), at a perturbed start. */
static void fekete_store(void)
{
  mbdae_problem *p = create_problem("fekete");
  if (!p) {
    return;
  }
  int n = mbdae_problem_neq(p);
  double *y = malloc(2 * (size_t)n * sizeof *y), *yp = y + n;
  mbdae_jacobian jac;
  char msg[256] = "";
  int rc = mbdae_jacobian_create(&jac, p, MBDAE_JAC_AUTO, msg, sizeof msg);
  CHECK(rc == 0 && jac.kind == MBDAE_JAC_DENSE && n == 160, "fekete: store %d (%s), kind %d, n %d",
        rc, msg, jac.kind, n);
  rc = rc ? rc : mbdae_problem_init(p, y, yp);
  for (int i = 0; i < n; i++) {
    y[i] += 0.05 * rnd() * (1.0 + fabs(y[i]));
    yp[i] += 0.05 * rnd() * (1.0 + fabs(yp[i]));
  }
  rc = rc ? rc : mbdae_jacobian_eval(&jac, p, mbdae_problem_t0(p), y, yp);
  CHECK(rc == 0, "fekete: Jacobian %d", rc);
  if (rc == 0) {
    double gamma, alpha, beta;
    radau_shifts(&gamma, &alpha, &beta);
    for (double h = 1e-1; h >= 1e-5; h *= 1e-2) {
      solve_case("fekete", &jac, 0, gamma / h, 0.0);
      solve_case("fekete", &jac, 1, alpha / h, beta / h);
    }
    mbdae_jacobian_free(&jac);
  }
  free(y);
  mbdae_problem_destroy(p);
}

int main(void)
{
  random_orders();
  fekete_store();
  return check_summary("test_kernel_dense");
}
