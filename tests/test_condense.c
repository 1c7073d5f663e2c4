/* The condensation of kinematic rows (solvers/condense.h) behind the linear-system layer:
 * - the plan finds the q' - v (and v' - a) rows of every built-in dense problem and form:
 *   car axis 10 -> 6, Andrews 27 -> 13, slider crank 24 -> 9, pendulum 5 -> 1 (x' - u, y' - v,
 *   then u' + lambda x and v' + lambda y, left with two nonzeros each), ...;
 * - the solves have a normwise backward error ||E x - b|| / (||E|| ||x||) below 100 eps on the
 *   problems' E1 = J + (gamma/h) M and E2 = J + ((alpha + i beta)/h) M over h = 1e-8 .. 10, with
 *   the threshold's fallback to the plain LU where a pivot is too small (asserted to happen);
 * - on random matrices with planted kinematic rows (chains q -> v -> a, rows in any order, the
 *   fill of an elimination making a later row ineligible) against the planted structure;
 * - a plan is remade for a new structure (mbdae_linsys_new_matrices) and kept for an equal one. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "linalg_support.h"
#include "support.h"
#include "../solvers/linsys.h"

static const double RESIDUAL_LIMIT = 100.0 * DBL_EPSILON;

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static double rnd(void) { return splitmix_uniform(&rng_state); }

/* ||E x - b||_inf / (||E||_inf ||x||_inf), E = J + (sr + i si) M. */
static double backward_error(int n, const double *J, const double *M, double sr, double si,
                             const double complex *x, const double complex *b)
{
  double rmax = 0.0, enorm = 0.0, xmax = 0.0;
  for (int i = 0; i < n; i++) {
    double complex r = -b[i];
    double row = 0.0;
    for (int j = 0; j < n; j++) {
      size_t at = (size_t)i + (size_t)j * (size_t)n;
      double complex e = CMPLX(J[at] + sr * M[at], si * M[at]);
      r += e * x[j];
      row += cabs(e);
    }
    rmax = fmax(rmax, cabs(r));
    enorm = fmax(enorm, row);
    xmax = fmax(xmax, cabs(x[i]));
  }
  return rmax / (enorm * xmax);
}

typedef struct outcome {
  int ne, full;
  double error;
} outcome;

/* Factor and solve E x = b (random b) through a fresh layer of order n: the plan's size, the
 * fallback flag and the backward error. */
static outcome solve_once(int n, const double *J, const double *M, double sr, double si,
                          int is_complex)
{
  mbdae_linsys ls;
  void *mem = malloc(mbdae_linsys_bytes(n, is_complex));
  double *br = malloc(2 * sizeof(double) * (size_t)n), *bi = br + n;
  double complex *b = malloc(2 * sizeof(double complex) * (size_t)n), *x = b + n;
  mbdae_linsys_init(&ls, n, is_complex, mem);
  for (int i = 0; i < n; i++) {
    br[i] = rnd();
    bi[i] = is_complex ? rnd() : 0.0;
    b[i] = CMPLX(br[i], bi[i]);
  }
  outcome o = {-1, -1, INFINITY};
  int rc = is_complex ? mbdae_linsys_factor_shift(&ls, J, M, sr, si)
                      : mbdae_linsys_factor(&ls, J, M, sr);
  if (rc == 0) {
    rc = is_complex ? mbdae_linsys_solve_shift(&ls, br, bi) : mbdae_linsys_solve(&ls, br);
  }
  if (rc == 0) {
    for (int i = 0; i < n; i++) {
      x[i] = CMPLX(br[i], is_complex ? bi[i] : 0.0);
    }
    o = (outcome){ls.cd.ne, ls.cd.full, backward_error(n, J, M, sr, is_complex ? si : 0.0, x, b)};
  }
  free(b);
  free(br);
  free(mem);
  return o;
}

/* ---- the problems' iteration matrices ---------------------------------------------------- */

/* E1 and E2 of spec at a generic point (the start moved a little) for h = 1e-8 .. 10: every
 * solve accurate, the plan of the expected size; returns how many factorizations fell back. */
static int problem_sweep(const char *spec, int expect_ne)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return 0;
  }
  int n = mbdae_problem_neq(p), fallbacks = 0;
  size_t nn = (size_t)n * (size_t)n;
  double *y = malloc((2 * (size_t)n + 2 * nn) * sizeof *y), *yp = y + n, *J = yp + n, *M = J + nn;
  CHECK(mbdae_problem_init(p, y, yp) == 0, "%s: init", spec);
  for (int i = 0; i < n; i++) {
    y[i] += 0.05 * rnd() * (1.0 + fabs(y[i]));
    yp[i] += 0.05 * rnd() * (1.0 + fabs(yp[i]));
  }
  CHECK(mbdae_problem_jac(p, mbdae_problem_t0(p), y, yp, J, M) == 0, "%s: jac", spec);
  double gamma, alpha, beta, worst = 0.0;
  radau_shifts(&gamma, &alpha, &beta);
  for (int e = -8; e <= 1; e++) {
    double h = pow(10.0, e);
    outcome real = solve_once(n, J, M, gamma / h, 0.0, 0);
    outcome cplx = solve_once(n, J, M, alpha / h, beta / h, 1);
    CHECK(real.ne == expect_ne && cplx.ne == expect_ne, "%s h=%g: %d and %d rows planned, not %d",
          spec, h, real.ne, cplx.ne, expect_ne);
    CHECK(real.error <= RESIDUAL_LIMIT && cplx.error <= RESIDUAL_LIMIT,
          "%s h=%g: backward errors %.2g, %.2g eps", spec, h, real.error / DBL_EPSILON,
          cplx.error / DBL_EPSILON);
    worst = fmax(worst, fmax(real.error, cplx.error));
    fallbacks += real.full + cplx.full;
  }
  printf("%-28s n=%2d: %2d rows condensed, %2d of 20 factorizations fell back, worst backward "
         "error %.2f eps\n",
         spec, n, expect_ne, fallbacks, worst / DBL_EPSILON); /* ne asserted above */
  free(y);
  mbdae_problem_destroy(p);
  return fallbacks;
}

static void problem_cases(void)
{
  static const struct {
    const char *spec;
    int ne;
  } cases[] = {
      {"caraxis", 4},   {"caraxis:form=index1", 4},
      {"andrews", 14},  {"andrews:form=ggl", 7},
      {"crank", 15},    {"pendulum", 4},
      {"dpendulum", 4}, {"pendulum:form=index2", 4},
      {"chain:n=3", 6},
  };
  int fallbacks = 0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    fallbacks += problem_sweep(cases[c].spec, cases[c].ne);
  }
  CHECK(fallbacks > 0, "the sweeps reached no pivot below the threshold (h = 10 should)");
}

/* ---- planted structure --------------------------------------------------------------------- */

/* A random dense n x n J, M with nk kinematic rows planted: row r[k] of J has one entry, -1 at
 * column partner[k], and row r[k] of M is e_r[k]; nothing else in those rows.  The partners form
 * chains (a kinematic row's partner may be another's variable).  Other columns of the planted
 * rows' variables stay dense. */
static void plant(int n, int nk, const int *r, const int *partner, double *J, double *M)
{
  for (size_t k = 0; k < (size_t)n * (size_t)n; k++) {
    J[k] = rnd();
    M[k] = fabs(rnd()) < 0.3 ? rnd() : 0.0;
  }
  for (int k = 0; k < nk; k++) {
    for (int j = 0; j < n; j++) {
      J[r[k] + (size_t)j * (size_t)n] = 0.0;
      M[r[k] + (size_t)j * (size_t)n] = 0.0;
    }
    J[r[k] + (size_t)partner[k] * (size_t)n] = -1.0;
    M[r[k] + (size_t)r[k] * (size_t)n] = 1.0;
  }
}

static void planted_cases(void)
{
  enum { N = 12 };
  double J[N * N], M[N * N];
  /* q rows 0..3 -> v 4..7 -> a 8..11 (v rows kinematic too): 8 rows condensed */
  const int chain_rows[] = {0, 1, 2, 3, 4, 5, 6, 7}, chain_partner[] = {4, 5, 6, 7, 8, 9, 10, 11};
  /* the same chains listed v first: a v row is eliminated before its q row, whose partner then
   * becomes a (fill), and the q row, still with two nonzeros, follows */
  const int rev_rows[] = {7, 6, 5, 4, 3, 2, 1, 0}, rev_partner[] = {11, 10, 9, 8, 7, 6, 5, 4};
  for (int trial = 0; trial < 20; trial++) {
    plant(N, 8, chain_rows, chain_partner, J, M);
    outcome a = solve_once(N, J, M, 5.0 + 100.0 * fabs(rnd()), 0.0, 0);
    outcome b = solve_once(N, J, M, 3.0 + 50.0 * fabs(rnd()), 2.0 + 40.0 * fabs(rnd()), 1);
    CHECK(a.ne == 8 && b.ne == 8 && a.error <= RESIDUAL_LIMIT && b.error <= RESIDUAL_LIMIT,
          "chains trial %d: %d/%d rows, backward errors %.2g, %.2g eps", trial, a.ne, b.ne,
          a.error / DBL_EPSILON, b.error / DBL_EPSILON);
    plant(N, 8, rev_rows, rev_partner, J, M);
    a = solve_once(N, J, M, 5.0 + 100.0 * fabs(rnd()), 0.0, 0);
    CHECK(a.ne == 8 && a.error <= RESIDUAL_LIMIT, "reversed chains trial %d: %d rows, %.2g eps",
          trial, a.ne, a.error / DBL_EPSILON);
  }
  /* Fill: row 0 kinematic (partner 1) and row 2 kinematic (partner 3), but row 2 also has a
   * nonzero in column 0: eliminating row 0 fills row 2 at column 1, so row 2 has three nonzeros
   * left and must stay in the dense part. */
  const int fill_rows[] = {0, 2}, fill_partner[] = {1, 3};
  plant(N, 2, fill_rows, fill_partner, J, M);
  J[2] = 0.7; /* (2, 0) */
  outcome f = solve_once(N, J, M, 40.0, 0.0, 0);
  CHECK(f.ne == 1 && f.error <= RESIDUAL_LIMIT, "fill: %d rows condensed (1), %.2g eps", f.ne,
        f.error / DBL_EPSILON);
  /* A pivot below the threshold: c = 1e-6 against the partner's -1 and a column of O(1) entries:
   * the factorization falls back to the plain LU. */
  plant(N, 8, chain_rows, chain_partner, J, M);
  outcome small = solve_once(N, J, M, 1e-6, 0.0, 0);
  CHECK(small.full == 1 && small.error <= RESIDUAL_LIMIT, "tiny pivot: full %d, %.2g eps",
        small.full, small.error / DBL_EPSILON);
}

/* One layer factoring two structures in turn: the plan follows mbdae_linsys_new_matrices. */
static void replanning(void)
{
  enum { N = 10 };
  double J1[N * N], M1[N * N], J2[N * N], M2[N * N];
  const int rows1[] = {0, 1, 2}, partner1[] = {5, 6, 7};
  const int rows2[] = {3, 4}, partner2[] = {8, 9};
  plant(N, 3, rows1, partner1, J1, M1);
  plant(N, 2, rows2, partner2, J2, M2);
  mbdae_linsys ls;
  void *mem = malloc(mbdae_linsys_bytes(N, 0));
  mbdae_linsys_init(&ls, N, 0, mem);
  const double *Js[] = {J1, J2, J2, J1}, *Ms[] = {M1, M2, M2, M1};
  const int expect[] = {3, 2, 2, 3};
  for (int k = 0; k < 4; k++) {
    mbdae_linsys_new_matrices(&ls);
    double b[N], x[N];
    for (int i = 0; i < N; i++) {
      b[i] = x[i] = rnd();
    }
    int rc = mbdae_linsys_factor(&ls, Js[k], Ms[k], 20.0);
    rc = rc == 0 ? mbdae_linsys_solve(&ls, x) : rc;
    double complex xc[N], bc[N];
    for (int i = 0; i < N; i++) {
      xc[i] = x[i];
      bc[i] = b[i];
    }
    double err = backward_error(N, Js[k], Ms[k], 20.0, 0.0, xc, bc);
    CHECK(rc == 0 && ls.cd.ne == expect[k] && err <= RESIDUAL_LIMIT,
          "structure %d: rc %d, %d rows (%d), %.2g eps", k, rc, ls.cd.ne, expect[k],
          err / DBL_EPSILON);
  }
  free(mem);
}

/* A NaN anywhere in J shows in the factors' finiteness check (mbdae_condense_finite), whether it
 * sits in the reduced part, in an eliminated column or in an eliminated row. */
static void nan_entries(void)
{
  enum { N = 12 };
  double J[N * N], M[N * N];
  const int rows[] = {0, 1, 2, 3}, partner[] = {4, 5, 6, 7};
  const int at[][2] = {{9, 10}, {8, 1}, {2, 6}, {-1, -1}}; /* reduced, column 1, row 2, none */
  for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
    plant(N, 4, rows, partner, J, M);
    if (at[k][0] >= 0) {
      J[at[k][0] + at[k][1] * N] = NAN;
    }
    mbdae_linsys ls;
    void *mem = malloc(mbdae_linsys_bytes(N, 0));
    mbdae_linsys_init(&ls, N, 0, mem);
    int rc = mbdae_linsys_factor(&ls, J, M, 30.0);
    int finite = mbdae_condense_finite(&ls.cd);
    CHECK(rc != 0 || finite == (at[k][0] < 0), "NaN at (%d, %d): finite %d, rc %d", at[k][0],
          at[k][1], finite, rc);
    CHECK(ls.cd.ne == 4 && !ls.cd.full, "NaN at (%d, %d): %d rows condensed, full %d", at[k][0],
          at[k][1], ls.cd.ne, ls.cd.full);
    free(mem);
  }
}

int main(void)
{
  nan_entries();
  problem_cases();
  planted_cases();
  replanning();
  return check_summary("test_condense");
}
