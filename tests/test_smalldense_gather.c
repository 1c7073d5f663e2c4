/* The small-dense kernel's solve split in two (solvers/smalldense.h): a right-hand side gathered
 * through an index array that carries the factors' interchanges (mbdae_small_lu_interchange), then
 * solved without them (mbdae_small_lu_solve_permuted), gives the solution of mbdae_small_lu_solve
 * bit for bit, on random matrices n = 1..24 whose partial pivoting interchanges rows, with
 * right-hand sides that hold zeros of both signs (the solves skip a zero entry: the same entries
 * must be skipped).  The condensed solve gathers its reduced right-hand side this way
 * (solvers/condense.c); test_condense checks its residuals. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "linalg_support.h"
#include "../solvers/smalldense.h"

enum { MAX_N = 24, RHS_PER_MATRIX = 4 };

static uint64_t rng_state = 0x5851f42d4c957f2du;

static double rnd(void) { return splitmix_uniform(&rng_state); }

/* A right-hand side with a zero of either sign in about one entry in four. */
static void fill_rhs(int n, double *b)
{
  for (int i = 0; i < n; i++) {
    double u = rnd();
    b[i] = u < -0.5 ? 0.0 : u < -0.25 ? -0.0 : rnd();
  }
}

/* Solves of one factored matrix both ways; returns the interchanges its pivots make. */
static int compare_solves(int n, const double *lu, const int *ipiv, const char *label)
{
  double b[MAX_N], x[MAX_N], y[MAX_N];
  int index[MAX_N], swaps = 0;
  for (int k = 0; k < n; k++) {
    swaps += ipiv[k] - 1 != k;
    index[k] = k;
  }
  mbdae_small_lu_interchange(n, ipiv, index);
  for (int r = 0; r < RHS_PER_MATRIX; r++) {
    fill_rhs(n, b);
    memcpy(x, b, sizeof(double) * (size_t)n);
    CHECK(mbdae_small_lu_solve(n, lu, ipiv, x) == 0, "%s n=%d: solve", label, n);
    for (int i = 0; i < n; i++) {
      y[i] = b[index[i]];
    }
    CHECK(mbdae_small_lu_solve_permuted(n, lu, y) == 0, "%s n=%d: permuted solve", label, n);
    CHECK(memcmp(x, y, sizeof(double) * (size_t)n) == 0,
          "%s n=%d rhs %d: gathered solve differs from mbdae_small_lu_solve", label, n, r);
  }
  return swaps;
}

int main(void)
{
  double a[MAX_N * MAX_N];
  int ipiv[MAX_N], swaps = 0;
  for (int n = 1; n <= MAX_N; n++) {
    for (int rep = 0; rep < 5; rep++) {
      for (int k = 0; k < n * n; k++) {
        a[k] = rnd();
      }
      CHECK(mbdae_small_lu_factor(n, a, ipiv) == 0, "random n=%d: factor", n);
      swaps += compare_solves(n, a, ipiv, "random");
    }
  }
  CHECK(swaps > MAX_N * 5, "only %d interchanges: the comparison needs pivoting", swaps);
  return check_summary("test_smalldense_gather");
}
