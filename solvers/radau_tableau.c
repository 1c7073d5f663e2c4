/* The s-stage Radau IIA tableau (s = 1, 3, 5, 7) computed from its definition, in long double,
 * for the Radau IIA integrator (solvers/radau.c: radau and radau5).  Sources: E. Hairer, G. Wanner,
 * Solving Ordinary Differential Equations II, 2nd ed. (Springer 1996), IV.5 (Radau IIA: nodes,
 * collocation, stability function) and IV.8 (transformation of the stage system, embedded error
 * estimate); E. Hairer, G. Wanner, Stiff differential equations solved by Radau methods, J. Comput.
 * Appl. Math. 111 (1999) 93-111 (the same for s = 3, 5, 7).
 *
 * Nodes: c_s = 1 and the s - 1 zeros in (0, 1) of P_s(2x - 1) - P_{s-1}(2x - 1) (shifted Legendre
 * polynomials), found by bisection between the sign changes on a grid.
 * Collocation: sum_j a_ij c_j^(k-1) = c_i^k / k, k = 1..s, i.e. A V = C with V_jk = c_j^(k-1),
 * C_ik = c_i^k / k; A^{-1} = V C^{-1}.
 * Eigenvalues of A^{-1}: the poles of the stability function, the zeros of its denominator, the
 * (s-1, s) Pade denominator Q(z) = sum_j (2s-1-j)! s! / ((2s-1)! j! (s-j)!) (-z)^j (HW IV.3-IV.5),
 * by the Durand-Kerner iteration; one is real (gamma), the others pairs alpha_k +- i beta_k.
 * Eigenvectors by inverse iteration; T = [t_0, u_1, v_1, u_2, v_2, ...] with t_0 the real
 * eigenvector (unit 2-norm, last component positive) and u_k + i v_k the eigenvector of
 * alpha_k - i beta_k scaled to last component 1 (RADAU5's and RADAU's normalization), so that
 * T^{-1} A^{-1} T = diag(gamma, [alpha_1 -beta_1; beta_1 alpha_1], ...).
 * Embedded error estimate (HW IV.8; the 1999 paper for s = 5, 7): b^_0 = gamma_0 = 1/gamma on
 * y'_n and sum_i b^_i c_i^(k-1) = 1/k - gamma_0 [k = 1], k = 1..s (order s); with b the last row
 * of A, e = A^{-T} (b^ - b) and d = e / gamma_0.  radau_tableau_radau5: the 3-stage constants
 * radau5 keeps (see there). */
#include "radau_tableau.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#include "mbdae/mbdae.h"

/* GRID: sample points of [0, 1) for the sign changes (finer than the smallest gap between nodes,
 * 0.029 at s = 7); BISECT: halvings (2^-64 of a grid cell); DK_ITER: most Durand-Kerner sweeps
 * (they converge in about 10). */
enum { S = RADAU_MAX_STAGES, GRID = 128, BISECT = 64, DK_ITER = 200 };

typedef long double real;
typedef long double complex cplx;

/* P_s(u) - P_{s-1}(u) by the three-term recurrence, u = 2x - 1. */
static real radau_poly(int s, real x)
{
  real u = 2.0L * x - 1.0L, prev = 1.0L, cur = u;
  if (s == 1) {
    return cur - prev;
  }
  for (int k = 1; k < s; k++) {
    real next = ((2 * k + 1) * u * cur - k * prev) / (k + 1);
    prev = cur;
    cur = next;
  }
  return cur - prev;
}

static int find_nodes(int s, real c[S])
{
  int found = 0;
  real a = 0.0L, fa = radau_poly(s, a);
  for (int k = 1; k < GRID && found < s - 1; k++) {
    real b = (real)k / GRID, fb = radau_poly(s, b);
    if ((fa < 0.0L) != (fb < 0.0L)) {
      real lo = a, hi = b, flo = fa;
      for (int it = 0; it < BISECT; it++) {
        real mid = 0.5L * (lo + hi), fm = radau_poly(s, mid);
        if ((fm < 0.0L) == (flo < 0.0L)) {
          lo = mid;
          flo = fm;
        } else {
          hi = mid;
        }
      }
      c[found++] = 0.5L * (lo + hi);
    }
    a = b;
    fa = fb;
  }
  c[s - 1] = 1.0L;
  return found == s - 1 ? 0 : MBDAE_ERR_INTERNAL;
}

/* x = m^{-1} b for the n x n complex m (copied) by Gaussian elimination with partial pivoting;
 * b holds nrhs columns (column-major, leading dimension S).  A zero pivot is replaced by a tiny
 * one (inverse iteration solves with singular matrices on purpose). */
static void solve_complex(int n, cplx m[S][S], cplx *b, int nrhs)
{
  cplx a[S][S];
  memcpy(a, m, sizeof a);
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) {
      if (fabsl(creall(a[i][k])) + fabsl(cimagl(a[i][k])) >
          fabsl(creall(a[p][k])) + fabsl(cimagl(a[p][k]))) {
        p = i;
      }
    }
    for (int j = 0; j < n; j++) {
      cplx tmp = a[k][j];
      a[k][j] = a[p][j];
      a[p][j] = tmp;
    }
    for (int r = 0; r < nrhs; r++) {
      cplx tmp = b[k + r * S];
      b[k + r * S] = b[p + r * S];
      b[p + r * S] = tmp;
    }
    if (a[k][k] == 0.0L) {
      a[k][k] = 1e-30L;
    }
    for (int i = k + 1; i < n; i++) {
      cplx f = a[i][k] / a[k][k];
      for (int j = k; j < n; j++) {
        a[i][j] -= f * a[k][j];
      }
      for (int r = 0; r < nrhs; r++) {
        b[i + r * S] -= f * b[k + r * S];
      }
    }
  }
  for (int r = 0; r < nrhs; r++) {
    for (int i = n - 1; i >= 0; i--) {
      cplx sum = b[i + r * S];
      for (int j = i + 1; j < n; j++) {
        sum -= a[i][j] * b[j + r * S];
      }
      b[i + r * S] = sum / a[i][i];
    }
  }
}

/* inv = m^{-1} for a real n x n matrix, by Gauss-Jordan elimination with partial pivoting. */
static void invert(int n, real m[S][S], real inv[S][S])
{
  real a[S][2 * S];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      a[i][j] = m[i][j];
      a[i][n + j] = i == j ? 1.0L : 0.0L;
    }
  }
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) {
      if (fabsl(a[i][k]) > fabsl(a[p][k])) {
        p = i;
      }
    }
    for (int j = 0; j < 2 * n; j++) {
      real tmp = a[k][j];
      a[k][j] = a[p][j];
      a[p][j] = tmp;
    }
    real pivot = a[k][k];
    for (int j = 0; j < 2 * n; j++) {
      a[k][j] /= pivot;
    }
    for (int i = 0; i < n; i++) {
      real f = a[i][k];
      if (i != k && f != 0.0L) {
        for (int j = 0; j < 2 * n; j++) {
          a[i][j] -= f * a[k][j];
        }
      }
    }
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      inv[i][j] = a[i][n + j];
    }
  }
}

/* A^{-1} = V C^{-1} (see the header). */
static void collocation_inverse(int s, const real c[S], real ainv[S][S], real a[S][S])
{
  real vand[S][S], cmat[S][S], cinv[S][S];
  for (int i = 0; i < s; i++) {
    real pw = 1.0L;
    for (int k = 0; k < s; k++) {
      vand[i][k] = pw;
      pw *= c[i];
      cmat[i][k] = pw / (k + 1);
    }
  }
  invert(s, cmat, cinv);
  for (int i = 0; i < s; i++) {
    for (int j = 0; j < s; j++) {
      real sum = 0.0L;
      for (int k = 0; k < s; k++) {
        sum += vand[i][k] * cinv[k][j];
      }
      ainv[i][j] = sum;
    }
  }
  invert(s, ainv, a);
}

/* The s zeros of Q(z) (see the header) by the Durand-Kerner iteration. */
static void stability_poles(int s, cplx z[S])
{
  real q[S + 1], fact[2 * S];
  fact[0] = 1.0L;
  for (int k = 1; k < 2 * S; k++) {
    fact[k] = fact[k - 1] * k;
  }
  for (int j = 0; j <= s; j++) {
    q[j] = (j % 2 ? -1.0L : 1.0L) * fact[2 * s - 1 - j] * fact[s] /
           (fact[2 * s - 1] * fact[j] * fact[s - j]);
  }
  real radius = powl(fabsl(q[0] / q[s]), 1.0L / s);
  for (int k = 0; k < s; k++) {
    z[k] = radius * cpowl(0.4L + 0.9L * I, k);
  }
  int polish = 2;
  for (int it = 0; it < DK_ITER; it++) {
    real largest = 0.0L;
    for (int k = 0; k < s; k++) {
      cplx num = q[s], den = q[s];
      for (int j = s - 1; j >= 0; j--) {
        num = num * z[k] + q[j];
      }
      for (int j = 0; j < s; j++) {
        if (j != k) {
          den *= z[k] - z[j];
        }
      }
      cplx step = num / den;
      z[k] -= step;
      largest = fmaxl(largest, cabsl(step) / cabsl(z[k]));
    }
    if (largest <= 1e-12L) {
      polish--; /* quadratic convergence: two more sweeps reach the roundoff level */
    }
    if (polish < 0) {
      break;
    }
  }
}

/* An eigenvector of the s x s matrix m for the eigenvalue lambda, by two steps of inverse
 * iteration. */
static void eigenvector(int s, real m[S][S], cplx lambda, cplx x[S])
{
  cplx shifted[S][S];
  for (int i = 0; i < s; i++) {
    for (int j = 0; j < s; j++) {
      shifted[i][j] = m[i][j] - (i == j ? lambda : 0.0L);
    }
    x[i] = 1.0L;
  }
  for (int it = 0; it < 2; it++) {
    solve_complex(s, shifted, x, 1);
    real norm = 0.0L;
    for (int i = 0; i < s; i++) {
      norm = fmaxl(norm, cabsl(x[i]));
    }
    for (int i = 0; i < s; i++) {
      x[i] /= norm;
    }
  }
}

/* T from the eigenvalues (gamma and the pairs in tb) of ainv. */
static void eigenvectors(int s, real ainv[S][S], radau_tableau *tb, real t[S][S])
{
  cplx x[S];
  eigenvector(s, ainv, tb->gamma, x);
  real norm = 0.0L;
  for (int i = 0; i < s; i++) {
    norm += creall(x[i]) * creall(x[i]);
  }
  norm = sqrtl(norm) * (creall(x[s - 1]) < 0.0L ? -1.0L : 1.0L);
  for (int i = 0; i < s; i++) {
    t[i][0] = creall(x[i]) / norm;
  }
  for (int k = 0; k < (s - 1) / 2; k++) {
    eigenvector(s, ainv, tb->alpha[k] - I * (real)tb->beta[k], x);
    cplx scale = x[s - 1];
    for (int i = 0; i < s; i++) {
      cplx w = x[i] / scale;
      t[i][2 * k + 1] = creall(w);
      t[i][2 * k + 2] = cimagl(w);
    }
  }
}

/* d = A^{-T} (b^ - b) / gamma_0 (see the header). */
static void error_weights(int s, const real c[S], real a[S][S], real ainv[S][S], real gamma,
                          real d[S])
{
  real vt[S][S], vtinv[S][S], rhs[S], bhat[S];
  real gamma0 = 1.0L / gamma;
  for (int k = 0; k < s; k++) {
    for (int i = 0; i < s; i++) {
      vt[k][i] = powl(c[i], k);
    }
    rhs[k] = 1.0L / (k + 1) - (k == 0 ? gamma0 : 0.0L);
  }
  invert(s, vt, vtinv);
  for (int i = 0; i < s; i++) {
    bhat[i] = 0.0L;
    for (int k = 0; k < s; k++) {
      bhat[i] += vtinv[i][k] * rhs[k];
    }
  }
  for (int j = 0; j < s; j++) {
    real e = 0.0L;
    for (int i = 0; i < s; i++) {
      e += ainv[i][j] * (bhat[i] - a[s - 1][i]);
    }
    d[j] = e / gamma0;
  }
}

/* Split the poles into the real one and the pairs (by increasing imaginary part). */
static int sort_poles(int s, const cplx z[S], radau_tableau *tb)
{
  int nreal = 0, npair = 0;
  real scale = cabsl(z[0]);
  for (int k = 0; k < s; k++) {
    if (fabsl(cimagl(z[k])) <= 1e-12L * scale) {
      tb->gamma = (double)creall(z[k]);
      nreal++;
    } else if (cimagl(z[k]) > 0.0L) {
      int pos = npair++;
      for (; pos > 0 && tb->beta[pos - 1] > (double)cimagl(z[k]); pos--) {
        tb->alpha[pos] = tb->alpha[pos - 1];
        tb->beta[pos] = tb->beta[pos - 1];
      }
      tb->alpha[pos] = (double)creall(z[k]);
      tb->beta[pos] = (double)cimagl(z[k]);
    }
  }
  return nreal == 1 && 2 * npair == s - 1 ? 0 : MBDAE_ERR_INTERNAL;
}

int radau_tableau_init(radau_tableau *tb, int s)
{
  memset(tb, 0, sizeof *tb);
  if (s < 1 || s > S || s % 2 == 0) {
    return MBDAE_ERR_INTERNAL;
  }
  tb->s = s;
  real c[S], ainv[S][S], a[S][S], t[S][S], tinv[S][S], d[S];
  cplx poles[S];
  int rc = find_nodes(s, c);
  stability_poles(s, poles);
  if (rc == 0) {
    rc = sort_poles(s, poles, tb);
  }
  if (rc != 0) {
    return rc;
  }
  collocation_inverse(s, c, ainv, a);
  eigenvectors(s, ainv, tb, t);
  invert(s, t, tinv);
  error_weights(s, c, a, ainv, tb->gamma, d);
  for (int i = 0; i < s; i++) {
    tb->c[i] = (double)c[i];
    tb->d[i] = (double)d[i];
    for (int j = 0; j < s; j++) {
      tb->ainv[i][j] = (double)ainv[i][j];
      tb->t[i][j] = (double)t[i][j];
      tb->tinv[i][j] = (double)tinv[i][j];
    }
  }
  return 0;
}

/* RADAU5's 3-stage tableau as radau5 computed it in double precision from the closed forms of
 * HW IV.5 and IV.8 (c from sqrt 6, the eigenvalues by Cardano's formula, A^{-1} and T^{-1} by the
 * adjugate, the eigenvectors as cross products).  Every constant agrees with
 * radau_tableau_init(tb, 3) to within 3 units in the 14th digit (test_radau_tableau); the last
 * bits differ, and radau5's runs of the pendulum, double pendulum and chain amplify them into
 * other step sequences (7 of its 17 published rows and 11 of 30 sweep rows at rtol 1e-4..1e-5
 * change their counts), so radau5 keeps these. */
void radau_tableau_radau5(radau_tableau *tb)
{
  static const radau_tableau RADAU5 = {
      .s = 3,
      .c = {0x1.3d8b64657caeap-3, 0x1.4a36c0803a6dfp-1, 0x1p+0},
      .ainv = {{0x1.9cc470a049096p+1, 0x1.2af7915ab4028p+0, -0x1.034624ce046cfp-2},
               {-0x1.c8aefbe08d34cp+1, 0x1.8cee3d7edbda8p-1, 0x1.0d9e56004de84p+0},
               {0x1.620bd700c2c2fp+2, -0x1.e20bd700c2c44p+2, 0x1.4000000000008p+2}},
      .gamma = 0x1.d1a48d83e731dp+1,
      .alpha = {0x1.572db93e0c672p+1},
      .beta = {0x1.86747f2c3fcb4p+1},
      .t = {{0x1.75b01984e65edp-4, -0x1.214a74c403bfdp-3, -0x1.ebff91a6d67cfp-6},
            {0x1.ef09cfbeab87fp-3, 0x1.a20e91e20b56fp-3, 0x1.8821fa2a36df1p-2},
            {0x1.ee9dde0d62559p-1, 0x1p+0, 0x0p+0}},
      .tinv = {{0x1.14d64d09039e5p+2, 0x1.5b570c758193ap-2, 0x1.1562f2bdebf52p-1},
               {-0x1.0b70201a79c48p+2, -0x1.4f8c15da84e02p-2, 0x1.e810014c551fdp-2},
               {-0x1.017885a24a7d2p-1, 0x1.4934e6fcaa598p+1, -0x1.312c0cf7bdfep-1}},
      .d = {-0x1.418fd8baffe05p+3, 0x1.61d41b2d5458cp+0, -0x1.555555555553cp-2},
  };
  *tb = RADAU5;
}
