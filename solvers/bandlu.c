/* The band LU (solvers/bandlu.h): Gaussian elimination with partial pivoting restricted to the
 * band (Golub & Van Loan, Matrix Computations, 4th ed., 4.3.5, band Gaussian elimination with
 * partial pivoting: L keeps ml sub-diagonals, U grows to ml + mu super-diagonals), column by
 * column, right-looking, and the two triangular solves.
 *
 * Step k: the pivot is the first largest |a(i, k)| (|re| + |im| for complex entries), i = k..k +
 * ml; rows k and p are exchanged in columns k..last, where last, the rightmost column any pivot
 * row so far reaches (p + mu), only grows; the multipliers a(i, k) are scaled by the reciprocal of
 * the pivot; and each column j = k + 1..last whose pivot-row entry u = a(k, j) is not zero gets
 * a(i, j) -= a(i, k) u.  The solves apply the exchanges and L column by column (skipping a zero
 * entry), then U from the last row up, dividing by the diagonal (skipping a zero entry).
 *
 * Every entry thus sees the same operations in the same order as in the reference LAPACK's
 * unblocked band factorization and its solve (and the blocked one updates each entry in the same
 * order), so on x86-64 without FMA contraction the factors and solutions are its bits: the pinned
 * band runs kept theirs when dgbtrf/dgbtrs and zgbtrf/zgbtrs were replaced.  Complex products are
 * (ac - bd) + (ad + bc) i, and complex quotients Smith's algorithm (R. L. Smith, CACM 5 (1962)
 * 435) as gfortran expands Fortran's complex division.  No argument checking or BLAS calls per
 * column: the chain's band runs take 15-16% fewer instructions than through the reference
 * dgbtrf/dgbtrs and zgbtrf/zgbtrs (callgrind, radau5 and bdf, 3 and 40 links). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "bandlu.h"

/* The layout: ld and the column offset of the diagonal. */
typedef struct band {
  int n, ml, mu, kv; /* order, bandwidths, kv = ml + mu: the diagonal's row in the layout */
  size_t ld;         /* 2 ml + mu + 1 */
} band;

static band band_of(int n, int ml, int mu)
{
  return (band){n, ml, mu, ml + mu, (size_t)(2 * ml + mu + 1)};
}

/* Index of entry (i, j) in units of entries (|i - j| within the layout). */
static size_t at(const band *b, int i, int j)
{
  return (size_t)(b->kv + i - j) + (size_t)j * b->ld;
}

static int min_int(int a, int b) { return a < b ? a : b; }

/* Rows of L below row k: min(ml, n - 1 - k). */
static int below(const band *b, int k) { return min_int(b->ml, b->n - 1 - k); }

/* ---- real ------------------------------------------------------------------------------- */

/* The fill rows (entries (i, j) with j - i > mu) cleared: U's extra super-diagonals start at 0. */
static void clear_fill_real(const band *b, double *ab)
{
  for (int j = 0; j < b->n; j++) {
    memset(ab + (size_t)j * b->ld, 0, sizeof(double) * (size_t)b->ml);
  }
}

/* The offset r = 0..rows of the first largest |c[r]|. */
static int pivot_real(int rows, const double *c)
{
  int p = 0;
  double big = fabs(c[0]);
  for (int r = 1; r <= rows; r++) {
    if (fabs(c[r]) > big) {
      big = fabs(c[r]);
      p = r;
    }
  }
  return p;
}

/* Rows k and k + p exchanged in columns k..last. */
static void swap_real(const band *b, double *ab, int k, int p, int last)
{
  for (int j = k; j <= last; j++) {
    double t = ab[at(b, k, j)];
    ab[at(b, k, j)] = ab[at(b, k + p, j)];
    ab[at(b, k + p, j)] = t;
  }
}

/* The multipliers of column k (rows entries below the pivot) and the update of columns
 * k + 1..last. */
static void eliminate_real(const band *b, double *ab, int k, int rows, int last)
{
  double *l = ab + at(b, k, k);
  double r = 1.0 / l[0];
  for (int i = 1; i <= rows; i++) {
    l[i] *= r;
  }
  for (int j = k + 1; j <= last; j++) {
    double *c = ab + at(b, k, j); /* c[i] = a(k + i, j) */
    double u = c[0];
    if (u != 0.0) {
      for (int i = 1; i <= rows; i++) {
        c[i] -= l[i] * u;
      }
    }
  }
}

int mbdae_band_lu_factor(int n, int ml, int mu, double *ab, int *ipiv)
{
  band b = band_of(n, ml, mu);
  clear_fill_real(&b, ab);
  int last = 0;
  for (int k = 0; k < n; k++) {
    int rows = below(&b, k), p = pivot_real(rows, ab + at(&b, k, k));
    ipiv[k] = k + p + 1;
    if (ab[at(&b, k + p, k)] == 0.0) {
      return MBDAE_ERR_SINGULAR;
    }
    int reach = min_int(k + p + mu, n - 1);
    last = reach > last ? reach : last;
    if (p != 0) {
      swap_real(&b, ab, k, p, last);
    }
    if (rows > 0) {
      eliminate_real(&b, ab, k, rows, last);
    }
  }
  return 0;
}

int mbdae_band_lu_solve(int n, int ml, int mu, const double *ab, const int *ipiv, double *x)
{
  band b = band_of(n, ml, mu);
  for (int k = 0; k + 1 < n; k++) {
    int p = ipiv[k] - 1, rows = below(&b, k);
    double t = x[p];
    x[p] = x[k];
    x[k] = t;
    if (t != 0.0) {
      const double *l = ab + at(&b, k, k);
      for (int i = 1; i <= rows; i++) {
        x[k + i] -= l[i] * t;
      }
    }
  }
  for (int j = n - 1; j >= 0; j--) {
    if (x[j] != 0.0) {
      const double *u = ab + at(&b, j, j); /* u[-r] = a(j - r, j) */
      x[j] /= u[0];
      double t = x[j];
      for (int r = 1, top = min_int(j, b.kv); r <= top; r++) {
        x[j - r] -= t * u[-r];
      }
    }
  }
  return 0;
}

/* ---- complex: entries as pairs of doubles ----------------------------------------------- */

static double abs1(const double *z) { return fabs(z[0]) + fabs(z[1]); }

/* q = a / b by Smith's algorithm, the branch on |b_re| < |b_im| as gfortran expands it. */
static void divide(const double *a, const double *b, double *q)
{
  double re, im, d;
  if (fabs(b[0]) < fabs(b[1])) {
    double ratio = b[0] / b[1];
    d = b[0] * ratio + b[1];
    re = a[0] * ratio + a[1];
    im = a[1] * ratio - a[0];
  } else {
    double ratio = b[1] / b[0];
    d = b[1] * ratio + b[0];
    re = a[1] * ratio + a[0];
    im = a[1] - a[0] * ratio;
  }
  q[0] = re / d;
  q[1] = im / d;
}

/* c -= a t (complex). */
static void sub_product(double *c, const double *a, const double *t)
{
  double re = a[0] * t[0] - a[1] * t[1], im = a[0] * t[1] + a[1] * t[0];
  c[0] -= re;
  c[1] -= im;
}

static void clear_fill_complex(const band *b, double *ab)
{
  for (int j = 0; j < b->n; j++) {
    memset(ab + 2 * (size_t)j * b->ld, 0, sizeof(double) * 2 * (size_t)b->ml);
  }
}

static int pivot_complex(int rows, const double *c)
{
  int p = 0;
  double big = abs1(c);
  for (int r = 1; r <= rows; r++) {
    if (abs1(c + 2 * r) > big) {
      big = abs1(c + 2 * r);
      p = r;
    }
  }
  return p;
}

static void swap_complex(const band *b, double *ab, int k, int p, int last)
{
  for (int j = k; j <= last; j++) {
    double *x = ab + 2 * at(b, k, j), *y = ab + 2 * at(b, k + p, j);
    for (int part = 0; part < 2; part++) {
      double t = x[part];
      x[part] = y[part];
      y[part] = t;
    }
  }
}

static void eliminate_complex(const band *b, double *ab, int k, int rows, int last)
{
  static const double one[2] = {1.0, 0.0};
  double *l = ab + 2 * at(b, k, k), r[2];
  divide(one, l, r);
  for (int i = 1; i <= rows; i++) {
    double *z = l + 2 * i, re = r[0] * z[0] - r[1] * z[1], im = r[0] * z[1] + r[1] * z[0];
    z[0] = re;
    z[1] = im;
  }
  for (int j = k + 1; j <= last; j++) {
    double *c = ab + 2 * at(b, k, j);
    if (c[0] != 0.0 || c[1] != 0.0) {
      for (int i = 1; i <= rows; i++) {
        sub_product(c + 2 * i, l + 2 * i, c);
      }
    }
  }
}

int mbdae_band_zlu_factor(int n, int ml, int mu, double *ab, int *ipiv)
{
  band b = band_of(n, ml, mu);
  clear_fill_complex(&b, ab);
  int last = 0;
  for (int k = 0; k < n; k++) {
    int rows = below(&b, k), p = pivot_complex(rows, ab + 2 * at(&b, k, k));
    const double *piv = ab + 2 * at(&b, k + p, k);
    ipiv[k] = k + p + 1;
    if (piv[0] == 0.0 && piv[1] == 0.0) {
      return MBDAE_ERR_SINGULAR;
    }
    int reach = min_int(k + p + mu, n - 1);
    last = reach > last ? reach : last;
    if (p != 0) {
      swap_complex(&b, ab, k, p, last);
    }
    if (rows > 0) {
      eliminate_complex(&b, ab, k, rows, last);
    }
  }
  return 0;
}

/* The exchanges and L, column by column. */
static void forward_complex(const band *b, const double *ab, const int *ipiv, double *x)
{
  for (int k = 0; k + 1 < b->n; k++) {
    int p = ipiv[k] - 1, rows = below(b, k);
    double t[2] = {x[2 * p], x[2 * p + 1]};
    x[2 * p] = x[2 * k];
    x[2 * p + 1] = x[2 * k + 1];
    x[2 * k] = t[0];
    x[2 * k + 1] = t[1];
    if (t[0] != 0.0 || t[1] != 0.0) {
      const double *l = ab + 2 * at(b, k, k);
      for (int i = 1; i <= rows; i++) {
        sub_product(x + 2 * (k + i), l + 2 * i, t);
      }
    }
  }
}

int mbdae_band_zlu_solve(int n, int ml, int mu, const double *ab, const int *ipiv, double *x)
{
  band b = band_of(n, ml, mu);
  forward_complex(&b, ab, ipiv, x);
  for (int j = n - 1; j >= 0; j--) {
    double *xj = x + 2 * j;
    if (xj[0] != 0.0 || xj[1] != 0.0) {
      const double *u = ab + 2 * at(&b, j, j);
      double t[2];
      divide(xj, u, t);
      xj[0] = t[0];
      xj[1] = t[1];
      for (int r = 1, top = min_int(j, b.kv); r <= top; r++) {
        sub_product(x + 2 * (j - r), u - 2 * r, t);
      }
    }
  }
  return 0;
}
