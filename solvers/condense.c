/* Condensation of kinematic rows before the small dense LU (see condense.h for the elimination
 * and its source).  Complex matrices keep real and imaginary parts apart (im == NULL: a real
 * system), as the kernel does. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "condense.h"
#include "smalldense.h"

/* Threshold of the static pivots: |E_ii| >= CONDENSE_PIVOT_TOL times the largest |E_ki| over the
 * rows k still in the system (UMFPACK's default relative pivot tolerance) or times |E_ip|, the
 * other entry of its row: either bounds what a step adds to an entry, |l_k E_ip|, by max |E| /
 * CONDENSE_PIVOT_TOL (the growth factor of Wilkinson's backward error bound; Golub & Van Loan
 * 3.4.6). */
#define CONDENSE_PIVOT_TOL 0.1

size_t mbdae_condense_bytes(int n, int is_complex)
{
  size_t nn = (size_t)n * (size_t)n, nz = (size_t)n;
  size_t w = is_complex ? 2 : 1;
  size_t doubles = w * (3 * nn + 3 * nz) + nz; /* the last n: the planned structure */
  size_t ints = 5 * nn + 9 * nz + 1; /* lrow, idx, tgt, eform (2 nn + 2 n) and the vectors */
  size_t bytes = doubles * sizeof(double) + ints * sizeof(int);
  return (bytes + sizeof(double) - 1) / sizeof(double) * sizeof(double);
}

void mbdae_condense_init(mbdae_condensed *cd, int n, int is_complex, void *mem)
{
  size_t nn = (size_t)n * (size_t)n, nz = (size_t)n;
  double *d = mem;
  memset(cd, 0, sizeof *cd);
  cd->n = n;
  cd->is_complex = is_complex;
  double **parts[][2] = {{&cd->re, &cd->im}, {&cd->rre, &cd->rim}, {&cd->lre, &cd->lim}};
  for (size_t k = 0; k < 3; k++) {
    *parts[k][0] = d, d += nn;
    if (is_complex) {
      *parts[k][1] = d, d += nn;
    }
  }
  double **vecs[][2] = {{&cd->rpr, &cd->rpi}, {&cd->upr, &cd->upi}, {&cd->wre, &cd->wim}};
  for (size_t k = 0; k < 3; k++) {
    *vecs[k][0] = d, d += nz;
    if (is_complex) {
      *vecs[k][1] = d, d += nz;
    }
  }
  cd->structure = (row_set *)d, d += nz;
  int *ip = (int *)d;
  cd->lrow = ip, ip += nn;
  cd->lstart = ip, ip += nz + 1;
  cd->elim = ip, ip += nz;
  cd->partner = ip, ip += nz;
  cd->keep = ip, ip += nz;
  cd->ipiv = ip, ip += nz;
  cd->gather = ip, ip += nz;
  cd->idx = ip, ip += nn;
  cd->tgt = ip, ip += nn;
  cd->eform = ip, ip += 2 * nn + 2 * nz;
}

/* ---- the plan: structure only ----------------------------------------------------------- */

void mbdae_condense_row_sets(int n, const double *J, const double *M, row_set *rows)
{
  size_t ld = (size_t)n;
  memset(rows, 0, sizeof(row_set) * ld);
  for (size_t j = 0; j < ld; j++) {
    const double *cj = J + j * ld, *cm = M + j * ld;
    row_set bit = 1ULL << j;
    for (size_t k = 0; k < ld; k++) {
      rows[k] |= bit & -(mbdae_nonzero_bits(cj[k]) | mbdae_nonzero_bits(cm[k]));
    }
  }
}

/* Plan step t: row i with partner p; the rows k still in the system (active) with a nonzero in
 * column i become its list and gain column p (the fill of the step). */
static void plan_step(mbdae_condensed *cd, row_set *rows, row_set active, int t, int i, int p)
{
  int nl = cd->lstart[t];
  cd->elim[t] = i;
  cd->partner[t] = p;
  for (int k = 0; k < cd->n; k++) {
    if (k != i && (active >> k & 1) && (rows[k] >> i & 1)) {
      rows[k] |= 1ULL << p;
      cd->lrow[nl++] = k;
    }
  }
  cd->lstart[t + 1] = nl;
}

/* Where the factorization reads and writes: idx (the reduced matrix's entries in E), tgt (each
 * update's target: an entry of E, or -1 - its place in the reduced matrix when both its row and
 * column are kept) and eform (every entry of E the steps read or update, formed before them). */
static void plan_positions(mbdae_condensed *cd)
{
  int n = cd->n, m = cd->m, pos[MBDAE_CONDENSE_MAX_N], nf = 0;
  for (int j = 0; j < n; j++) {
    pos[j] = -1;
  }
  for (int r = 0; r < m; r++) {
    pos[cd->keep[r]] = r;
  }
  for (int c = 0; c < m; c++) {
    for (int r = 0; r < m; r++) {
      cd->idx[r + c * m] = cd->keep[r] + cd->keep[c] * n;
    }
  }
  for (int t = 0; t < cd->ne; t++) {
    int i = cd->elim[t], p = cd->partner[t];
    cd->eform[nf++] = i + i * n;
    cd->eform[nf++] = i + p * n;
    for (int e = cd->lstart[t]; e < cd->lstart[t + 1]; e++) {
      int k = cd->lrow[e];
      cd->eform[nf++] = k + i * n;
      cd->tgt[e] = pos[k] >= 0 && pos[p] >= 0 ? -1 - (pos[k] + pos[p] * m) : k + p * n;
      if (cd->tgt[e] >= 0) {
        cd->eform[nf++] = cd->tgt[e];
      }
    }
  }
  cd->nform = nf;
}

void mbdae_condense_plan(mbdae_condensed *cd, const row_set *structure)
{
  row_set rows[MBDAE_CONDENSE_MAX_N];
  int n = cd->n, ne = 0, m = 0;
  size_t bytes = sizeof(row_set) * (size_t)n;
  if (!structure) { /* no condensation: the plain dense LU */
    cd->ne = 0;
    cd->m = n;
    cd->planned = 1;
    memset(cd->structure, 0, bytes); /* no plan made from a structure */
    return;
  }
  if (cd->planned && memcmp(cd->structure, structure, bytes) == 0) {
    return; /* the structure of the last plan: the plan stands */
  }
  memcpy(cd->structure, structure, bytes);
  row_set active = n == MBDAE_CONDENSE_MAX_N ? ~0ULL : (1ULL << n) - 1;
  memcpy(rows, structure, bytes);
  cd->lstart[0] = 0;
  for (int i = 0; i < n; i++) {
    row_set left = rows[i] & active, diagonal = 1ULL << i;
    if ((left & diagonal) && __builtin_popcountll(left) == 2) {
      plan_step(cd, rows, active, ne++, i, __builtin_ctzll(left & ~diagonal));
      active &= ~diagonal;
    }
  }
  for (int j = 0; j < n; j++) {
    if (active >> j & 1) {
      cd->keep[m++] = j;
    }
  }
  cd->ne = ne;
  cd->m = m;
  plan_positions(cd);
  cd->planned = 1;
}

/* ---- factorization ----------------------------------------------------------------------- */

/* (ar + i ai)(br + i bi) */
static void cmul(double ar, double ai, double br, double bi, double *cr, double *ci)
{
  *cr = ar * br - ai * bi;
  *ci = ar * bi + ai * br;
}

/* 1 / (ar + i ai) by Smith's method. */
static void crecip(double ar, double ai, double *rr, double *ri)
{
  if (fabs(ar) >= fabs(ai)) {
    double s = ai / ar, d = ar + ai * s;
    *rr = 1.0 / d;
    *ri = -s / d;
  } else {
    double s = ar / ai, d = ai + ar * s;
    *rr = s / d;
    *ri = -1.0 / d;
  }
}

static void form(mbdae_condensed *cd, const double *restrict J, const double *restrict M, double sr,
                 double si)
{
  size_t nn = (size_t)cd->n * (size_t)cd->n;
  double *restrict re = cd->re, *restrict im = cd->im;
  for (size_t k = 0; k < nn; k++) {
    re[k] = J[k] + sr * M[k];
  }
  if (im) {
    for (size_t k = 0; k < nn; k++) {
      im[k] = si * M[k];
    }
  }
}

/* The reduced matrix formed in place from J and M (its entries idx), and the entries of E that
 * the planned steps read or update (eform). */
static void form_planned(mbdae_condensed *cd, const double *restrict J, const double *restrict M,
                         double sr, double si)
{
  size_t mm = (size_t)cd->m * (size_t)cd->m;
  const int *restrict idx = cd->idx, *restrict eform = cd->eform;
  for (size_t e = 0; e < mm; e++) {
    cd->rre[e] = J[idx[e]] + sr * M[idx[e]];
  }
  for (int e = 0; e < cd->nform; e++) {
    cd->re[eform[e]] = J[eform[e]] + sr * M[eform[e]];
  }
  if (cd->im) {
    for (size_t e = 0; e < mm; e++) {
      cd->rim[e] = si * M[idx[e]];
    }
    for (int e = 0; e < cd->nform; e++) {
      cd->im[eform[e]] = si * M[eform[e]];
    }
  }
}

/* |E_at| as the kernel measures it: |re| + |im|, |re| for a real E (the value |re| + 0.0 had). */
static inline double mag(const double *re, const double *im, size_t at)
{
  return im ? fabs(re[at]) + fabs(im[at]) : fabs(re[at]);
}

/* The threshold test of step t's pivot E_ii against E_pi (its partner) and the column's other
 * entries below: 1 when it passes.  E's arrays are read into locals so that the test of im is
 * made once, not per entry (callgrind, mebdf at rtol 1e-3: pendulum -0.2%). */
static int pivot_acceptable(const mbdae_condensed *cd, int t)
{
  const double *re = cd->re, *im = cd->im;
  size_t n = (size_t)cd->n, i = (size_t)cd->elim[t], col_i = i * n;
  double pivot = mag(re, im, col_i + i), column = 0.0;
  for (int e = cd->lstart[t]; e < cd->lstart[t + 1]; e++) {
    double v = mag(re, im, col_i + (size_t)cd->lrow[e]);
    column = v > column ? v : column;
  }
  double partner = mag(re, im, (size_t)cd->partner[t] * n + i);
  double bound = CONDENSE_PIVOT_TOL * (partner < column ? partner : column);
  return pivot > 0.0 && pivot >= bound;
}

/* Elimination step t on a real E (the complex step below with zero imaginary parts, without
 * the products by zero; the same values up to the sign of a zero): 0, or -1 as eliminate. */
static int eliminate_real(mbdae_condensed *cd, int t)
{
  if (!pivot_acceptable(cd, t)) {
    return -1;
  }
  size_t n = (size_t)cd->n, i = (size_t)cd->elim[t], col_i = i * n;
  double epr = cd->re[(size_t)cd->partner[t] * n + i], rr = 1.0 / cd->re[col_i + i];
  cd->rpr[t] = rr;
  cd->upr[t] = epr * rr;
  for (int e = cd->lstart[t]; e < cd->lstart[t + 1]; e++) {
    double lr = cd->re[col_i + (size_t)cd->lrow[e]] * rr;
    int at = cd->tgt[e];
    *(at >= 0 ? cd->re + at : cd->rre + (-1 - at)) -= lr * epr;
    cd->lre[e] = lr;
  }
  return 0;
}

/* Elimination step t of the plan on E's values: 0, or -1 when its pivot fails the threshold. */
static int eliminate(mbdae_condensed *cd, int t)
{
  if (!cd->im) {
    return eliminate_real(cd, t);
  }
  if (!pivot_acceptable(cd, t)) {
    return -1;
  }
  size_t n = (size_t)cd->n, i = (size_t)cd->elim[t], col_i = i * n;
  size_t col_p = (size_t)cd->partner[t] * n;
  double rr, ri, ur, ui, epi = cd->im[col_p + i];
  crecip(cd->re[col_i + i], cd->im[col_i + i], &rr, &ri);
  cmul(cd->re[col_p + i], epi, rr, ri, &ur, &ui);
  cd->rpr[t] = rr;
  cd->upr[t] = ur;
  for (int e = cd->lstart[t]; e < cd->lstart[t + 1]; e++) {
    size_t k = (size_t)cd->lrow[e];
    double lr, li, dr, di;
    cmul(cd->re[col_i + k], cd->im[col_i + k], rr, ri, &lr, &li);
    cmul(lr, li, cd->re[col_p + i], epi, &dr, &di);
    int at = cd->tgt[e];
    *(at >= 0 ? cd->re + at : cd->rre + (-1 - at)) -= dr;
    *(at >= 0 ? cd->im + at : cd->rim + (-1 - at)) -= di;
    cd->lre[e] = lr;
    cd->lim[e] = li;
  }
  cd->rpi[t] = ri;
  cd->upi[t] = ui;
  return 0;
}

/* keep in the reduced LU's row order: the real solve gathers the reduced right-hand side already
 * interchanged, the interchanges made once per factorization instead of once per solve
 * (callgrind, mebdf at rtol 1e-7: car axis -1.2%, double pendulum -0.9%, Andrews -0.6%). */
static void plan_gather(mbdae_condensed *cd)
{
  memcpy(cd->gather, cd->keep, sizeof(int) * (size_t)cd->m);
  mbdae_small_lu_interchange(cd->m, cd->ipiv, cd->gather);
}

static int kernel_factor(int n, double *re, double *im, int *ipiv)
{
  return im ? mbdae_small_zlu_factor(n, re, im, ipiv) : mbdae_small_lu_factor(n, re, ipiv);
}

int mbdae_condense_factor(mbdae_condensed *cd, const double *J, const double *M, double sr,
                          double si)
{
  if (!cd->planned) {
    row_set rows[MBDAE_CONDENSE_MAX_N];
    mbdae_condense_row_sets(cd->n, J, M, rows);
    mbdae_condense_plan(cd, rows);
  }
  int ok = cd->ne > 0;
  if (ok) {
    form_planned(cd, J, M, sr, si);
  }
  for (int t = 0; ok && t < cd->ne; t++) {
    ok = eliminate(cd, t) == 0;
  }
  cd->full = !ok;
  if (ok) {
    int rc = kernel_factor(cd->m, cd->rre, cd->rim, cd->ipiv);
    if (!cd->im) {
      plan_gather(cd);
    }
    return rc;
  }
  form(cd, J, M, sr, si); /* the plain LU of all of E */
  return kernel_factor(cd->n, cd->re, cd->im, cd->ipiv);
}

int mbdae_condense_finite(const mbdae_condensed *cd)
{
  size_t count = cd->full ? (size_t)cd->n * (size_t)cd->n : (size_t)cd->m * (size_t)cd->m;
  double probe = 0.0; /* x - x: 0 for a finite x, NaN otherwise (as mbdae_all_finite) */
  const double *values = cd->full ? cd->re : cd->rre;
  for (size_t k = 0; k < count; k++) {
    probe += values[k] - values[k];
  }
  for (int e = 0; !cd->full && e < cd->nform; e++) {
    probe += cd->re[cd->eform[e]] - cd->re[cd->eform[e]];
  }
  return probe == 0.0;
}

/* ---- solves ------------------------------------------------------------------------------ */

/* b_k -= l_k b_i over each elimination step, in order (real).  The plan's arrays in locals: read
 * through cd they were loaded again at each step (callgrind, mebdf at rtol 1e-7: pendulum -1.0%,
 * car axis, double pendulum, Andrews -0.5%). */
static void forward_real(const mbdae_condensed *cd, double *b)
{
  const int *elim = cd->elim, *lstart = cd->lstart, *lrow = cd->lrow;
  const double *lre = cd->lre;
  for (int t = 0; t < cd->ne; t++) {
    double bi = b[elim[t]];
    if (bi != 0.0) {
      for (int e = lstart[t]; e < lstart[t + 1]; e++) {
        b[lrow[e]] -= lre[e] * bi;
      }
    }
  }
}

/* x_i = b_i / E_ii - (E_ip / E_ii) x_p, last step first (real). */
static void back_real(const mbdae_condensed *cd, double *b)
{
  const int *elim = cd->elim, *partner = cd->partner;
  const double *rpr = cd->rpr, *upr = cd->upr;
  for (int t = cd->ne - 1; t >= 0; t--) {
    int i = elim[t];
    b[i] = b[i] * rpr[t] - upr[t] * b[partner[t]];
  }
}

static void forward_complex(const mbdae_condensed *cd, double *br, double *bi)
{
  for (int t = 0; t < cd->ne; t++) {
    double xr = br[cd->elim[t]], xi = bi[cd->elim[t]];
    if (xr == 0.0 && xi == 0.0) {
      continue;
    }
    for (int e = cd->lstart[t]; e < cd->lstart[t + 1]; e++) {
      int k = cd->lrow[e];
      br[k] -= cd->lre[e] * xr - cd->lim[e] * xi;
      bi[k] -= cd->lre[e] * xi + cd->lim[e] * xr;
    }
  }
}

static void back_complex(const mbdae_condensed *cd, double *br, double *bi)
{
  for (int t = cd->ne - 1; t >= 0; t--) {
    int i = cd->elim[t], p = cd->partner[t];
    double xr, xi, ur, ui;
    cmul(br[i], bi[i], cd->rpr[t], cd->rpi[t], &xr, &xi);
    cmul(cd->upr[t], cd->upi[t], br[p], bi[p], &ur, &ui);
    br[i] = xr - ur;
    bi[i] = xi - ui;
  }
}

int mbdae_condense_solve(const mbdae_condensed *cd, double *br, double *bi)
{
  int m = cd->m;
  const int *keep = cd->keep;
  if (cd->full) {
    return cd->im ? mbdae_small_zlu_solve(cd->n, cd->re, cd->im, cd->ipiv, br, bi)
                  : mbdae_small_lu_solve(cd->n, cd->re, cd->ipiv, br);
  }
  if (!cd->im) {
    forward_real(cd, br);
    for (int r = 0; r < m; r++) {
      cd->wre[r] = br[cd->gather[r]];
    }
    int rc = mbdae_small_lu_solve_permuted(m, cd->rre, cd->wre);
    for (int r = 0; r < m; r++) {
      br[keep[r]] = cd->wre[r];
    }
    back_real(cd, br);
    return rc;
  }
  forward_complex(cd, br, bi);
  for (int r = 0; r < m; r++) {
    cd->wre[r] = br[keep[r]];
    cd->wim[r] = bi[keep[r]];
  }
  int rc = mbdae_small_zlu_solve(m, cd->rre, cd->rim, cd->ipiv, cd->wre, cd->wim);
  for (int r = 0; r < m; r++) {
    br[keep[r]] = cd->wre[r];
    bi[keep[r]] = cd->wim[r];
  }
  back_complex(cd, br, bi);
  return rc;
}
