/* The small-dense kernel: unblocked right-looking LU with partial pivoting (Golub & Van Loan,
 * Matrix Computations, 4th ed., Algorithm 3.4.1, the column-oriented "kji" form) and the two
 * triangular solves, for the dense iteration matrices of the implicit solvers (5..27 rows for the
 * multibody test problems, 160 for Fekete; up to linsys.h's MBDAE_KERNEL_MAX_N).
 *
 * Why not LAPACK for these sizes: reference dgetrf spends most of a 10..27-row factorization in
 * lsame, ilaenv and its recursive panels, and zgetrf does complex arithmetic on every entry; on
 * larger matrices with many zeros (Fekete's are 15% nonzero) the skips below save most of the
 * work, which dgetrf/zgetrf cannot (linsys.h has the measurements).  The
 * habits kept from Hairer's DEC/DECC (RADAU5's linear algebra) and SUNDIALS' dense LU: a column
 * whose pivot-row entry (its multiplier in the rank-one update) is exactly zero is skipped, and so
 * is a right-hand-side entry that is exactly zero in the solves.  The complex factorization keeps
 * the real and imaginary parts apart and picks, per column update, the arithmetic the operands
 * need: real times real (2 flops), real times complex (4) or complex times complex (8).
 * Pivots (the first largest |a|, or |re| + |im| as izamax) and storage follow dgetrf/dgetrs, so
 * the factors agree with LAPACK's (whose dgetrf2 recurses on column halves) to rounding, and the
 * pivot rows are the same where no ties occur. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "mbdae/mbdae.h"
#include "smalldense.h"

/* ---- real ------------------------------------------------------------------------------ */

/* The row p >= k of column c with the largest |c[p]|, the first one on ties (idamax). */
static int pivot_row(int n, int k, const double *c)
{
  int p = k;
  double big = fabs(c[k]);
  for (int i = k + 1; i < n; i++) {
    if (fabs(c[i]) > big) {
      big = fabs(c[i]);
      p = i;
    }
  }
  return p;
}

/* Rows k and p of the n x n matrix a exchanged. */
static void swap_rows(int n, double *a, int k, int p)
{
  for (size_t at = 0, end = (size_t)n * (size_t)n; at < end; at += (size_t)n) {
    double t = a[at + (size_t)k];
    a[at + (size_t)k] = a[at + (size_t)p];
    a[at + (size_t)p] = t;
  }
}

/* c[k+1..n) divided by the real pivot piv: by its reciprocal unless that would overflow (as
 * dgetrf2 does). */
static void scale_below(int n, int k, double piv, double *c)
{
  if (fabs(piv) >= DBL_MIN) {
    double r = 1.0 / piv;
    for (int i = k + 1; i < n; i++) {
      c[i] *= r;
    }
  } else {
    for (int i = k + 1; i < n; i++) {
      c[i] /= piv;
    }
  }
}

int mbdae_small_lu_factor(int n, double *a, int *ipiv)
{
  size_t ld = (size_t)n;
  for (int k = 0; k < n; k++) {
    double *restrict ck = a + (size_t)k * ld;
    int p = pivot_row(n, k, ck);
    ipiv[k] = p + 1;
    if (ck[p] == 0.0) {
      return MBDAE_ERR_SINGULAR;
    }
    if (p != k) {
      swap_rows(n, a, k, p);
    }
    scale_below(n, k, ck[k], ck);
    for (int j = k + 1; j < n; j++) {
      double *restrict cj = a + (size_t)j * ld;
      double t = cj[k];
      if (t == 0.0) {
        continue; /* DEC's skip: nothing to eliminate in this column */
      }
      for (int i = k + 1; i < n; i++) {
        cj[i] -= ck[i] * t;
      }
    }
  }
  return 0;
}

void mbdae_small_lu_interchange(int n, const int *ipiv, int *index)
{
  for (int k = 0; k < n; k++) {
    int p = ipiv[k] - 1;
    if (p != k) {
      int t = index[k];
      index[k] = index[p];
      index[p] = t;
    }
  }
}

int mbdae_small_lu_solve(int n, const double *restrict lu, const int *ipiv, double *restrict b)
{
  for (int k = 0; k < n; k++) {
    int p = ipiv[k] - 1;
    if (p != k) {
      double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
  return mbdae_small_lu_solve_permuted(n, lu, b);
}

int mbdae_small_lu_solve_permuted(int n, const double *restrict lu, double *restrict b)
{
  size_t ld = (size_t)n;
  if (n == 1) { /* the loops below for one division, the condensed pendulum's (callgrind, mebdf:
                   pendulum -1.8% at rtol 1e-3, -2.0% at 1e-7; others +0.1%) */
    if (b[0] != 0.0) {
      b[0] /= lu[0];
    }
    return 0;
  }
  for (int k = 0; k < n; k++) { /* L y = P b, unit diagonal */
    const double *ck = lu + (size_t)k * ld;
    double t = b[k];
    if (t != 0.0) {
      for (int i = k + 1; i < n; i++) {
        b[i] -= ck[i] * t;
      }
    }
  }
  for (int k = n - 1; k >= 0; k--) { /* U x = y */
    const double *ck = lu + (size_t)k * ld;
    if (b[k] != 0.0) {
      b[k] /= ck[k];
      double t = b[k];
      for (int i = 0; i < k; i++) {
        b[i] -= ck[i] * t;
      }
    }
  }
  return 0;
}

/* ---- complex, real and imaginary parts apart --------------------------------------------- */

/* (xr + i xi) / (yr + i yi) by Smith's method (no overflow in |y|^2). */
static void cdiv(double xr, double xi, double yr, double yi, double *qr, double *qi)
{
  if (fabs(yr) >= fabs(yi)) {
    double s = yi / yr, d = yr + yi * s;
    *qr = (xr + xi * s) / d;
    *qi = (xi - xr * s) / d;
  } else {
    double s = yr / yi, d = yi + yr * s;
    *qr = (xr * s + xi) / d;
    *qi = (xi * s - xr) / d;
  }
}

/* The row p >= k with the largest |re| + |im| in column k, the first on ties (izamax). */
static int zpivot_row(int n, int k, const double *cr, const double *ci)
{
  int p = k;
  double big = fabs(cr[k]) + fabs(ci[k]);
  for (int i = k + 1; i < n; i++) {
    double v = fabs(cr[i]) + fabs(ci[i]);
    if (v > big) {
      big = v;
      p = i;
    }
  }
  return p;
}

/* 1 when the imaginary parts ci[k+1..n) are all zero. */
static int real_below(int n, int k, const double *ci)
{
  for (int i = k + 1; i < n; i++) {
    if (ci[i] != 0.0) {
      return 0;
    }
  }
  return 1;
}

/* Column k below the diagonal divided by the pivot; returns 1 when the multipliers are real. */
static int zscale_below(int n, int k, double *restrict cr, double *restrict ci)
{
  int real = real_below(n, k, ci);
  if (ci[k] == 0.0) {
    scale_below(n, k, cr[k], cr);
    if (!real) {
      scale_below(n, k, cr[k], ci);
    }
    return real;
  }
  double rr, ri;
  cdiv(1.0, 0.0, cr[k], ci[k], &rr, &ri);
  for (int i = k + 1; i < n; i++) {
    double xr = cr[i], xi = ci[i];
    cr[i] = xr * rr - xi * ri;
    ci[i] = xr * ri + xi * rr;
  }
  return 0;
}

/* Column j (cr, ci) minus the multipliers of column k (lr, li) times its pivot-row entry t,
 * with the arithmetic that t and the multipliers need (lreal: li is all zero). */
static void zupdate(int n, int k, const double *restrict lr, const double *restrict li, int lreal,
                    double *restrict cr, double *restrict ci)
{
  double tr = cr[k], ti = ci[k];
  if (ti == 0.0) {
    if (tr == 0.0) {
      return; /* DECC's skip */
    }
    for (int i = k + 1; i < n; i++) {
      cr[i] -= lr[i] * tr;
    }
    if (!lreal) {
      for (int i = k + 1; i < n; i++) {
        ci[i] -= li[i] * tr;
      }
    }
  } else if (lreal) {
    for (int i = k + 1; i < n; i++) {
      cr[i] -= lr[i] * tr;
      ci[i] -= lr[i] * ti;
    }
  } else {
    for (int i = k + 1; i < n; i++) {
      cr[i] -= lr[i] * tr - li[i] * ti;
      ci[i] -= lr[i] * ti + li[i] * tr;
    }
  }
}

int mbdae_small_zlu_factor(int n, double *re, double *im, int *ipiv)
{
  size_t ld = (size_t)n;
  for (int k = 0; k < n; k++) {
    double *kr = re + (size_t)k * ld, *ki = im + (size_t)k * ld;
    int p = zpivot_row(n, k, kr, ki);
    ipiv[k] = p + 1;
    if (kr[p] == 0.0 && ki[p] == 0.0) {
      return MBDAE_ERR_SINGULAR;
    }
    if (p != k) {
      swap_rows(n, re, k, p);
      swap_rows(n, im, k, p);
    }
    int lreal = zscale_below(n, k, kr, ki);
    for (int j = k + 1; j < n; j++) {
      zupdate(n, k, kr, ki, lreal, re + (size_t)j * ld, im + (size_t)j * ld);
    }
  }
  return 0;
}

/* b[from..to) -= c[from..to) t for complex b, c, t (parts apart). */
static void zaxpy_minus(int from, int to, const double *restrict cr, const double *restrict ci,
                        double tr, double ti, double *restrict br, double *restrict bi)
{
  for (int i = from; i < to; i++) {
    br[i] -= cr[i] * tr - ci[i] * ti;
    bi[i] -= cr[i] * ti + ci[i] * tr;
  }
}

int mbdae_small_zlu_solve(int n, const double *re, const double *im, const int *ipiv, double *br,
                          double *bi)
{
  size_t ld = (size_t)n;
  for (int k = 0; k < n; k++) {
    int p = ipiv[k] - 1;
    if (p != k) {
      double tr = br[k], ti = bi[k];
      br[k] = br[p], bi[k] = bi[p];
      br[p] = tr, bi[p] = ti;
    }
  }
  for (int k = 0; k < n; k++) { /* L y = P b, unit diagonal */
    if (br[k] != 0.0 || bi[k] != 0.0) {
      const double *kr = re + (size_t)k * ld, *ki = im + (size_t)k * ld;
      zaxpy_minus(k + 1, n, kr, ki, br[k], bi[k], br, bi);
    }
  }
  for (int k = n - 1; k >= 0; k--) { /* U x = y */
    if (br[k] != 0.0 || bi[k] != 0.0) {
      const double *kr = re + (size_t)k * ld, *ki = im + (size_t)k * ld;
      cdiv(br[k], bi[k], kr[k], ki[k], &br[k], &bi[k]);
      zaxpy_minus(0, k, kr, ki, br[k], bi[k], br, bi);
    }
  }
  return 0;
}
