/* The history of the MEBDF integrator (solvers/mebdf.h): the past solution values y_{n-j} at the
 * constant spacing h the formulas need.  A change of step size to h' = r h replaces them by the
 * values at t_n - j h' of the polynomial of degree q through y_n, ..., y_{n-q}; this is what the
 * rescaling of a Nordsieck array z_i = h^i y^(i)/i! by r^i does to the same polynomial
 * (A. Nordsieck, Math. Comp. 16 (1962); C. W. Gear, Numerical Initial Value Problems in ODEs,
 * 1971, ch. 9; as LSODE and MEBDFI rescale), here written in values so that the stages read the
 * past values y_{n+1-j} directly.  The polynomial is evaluated with Lagrange weights at
 * x_m = -m (solvers/mebdf_formula.c).  Backward differences nabla^q y_{n+1} give the error
 * estimates; combinations of the values give the predictors and the known parts of the stages. */
#include <string.h>

#include "mebdf.h"

void mebdf_history_start(mebdf_history *hs, const double *y0, const double *yp0, double h)
{
  hs->h = h;
  for (int j = 0; j < MEBDF_HIST; j++) {
    for (int i = 0; i < hs->n; i++) {
      hs->v[j][i] = y0[i] - (double)j * h * yp0[i];
    }
  }
}

/* Only v[0..q] are rescaled: the solver reads no value beyond its nreal solution values (and v[1]
 * of the start's line at order 1), and a rescaling leaves it at most q + 1 of them (mebdf.c,
 * use_step), so the values further back, at the old spacing, are pushed out before they are read.
 * Rescaling all MEBDF_HIST values as before took 3.9% more instructions on the pendulum at rtol
 * 1e-3 (callgrind, 762 rescalings in 4310 steps) with the same results bit for bit.  Each new
 * value is summed element by element, two at a time, in registers (as combine2, below), not by a
 * pass per old value into the output: pendulum -0.9% at rtol 1e-3, double pendulum -0.7% at 1e-7;
 * one element at a time cost Andrews (n = 27) 0.4%. */
void mebdf_history_rescale(mebdf_history *hs, double hnew, int q)
{
  double r = hnew / hs->h, w[MEBDF_HIST];
  for (int j = 0; j <= q; j++) {
    mebdf_lagrange(q, -(double)j * r, w);
    double *out = hs->spare[j];
    int i = 0;
    for (; i + 1 < hs->n; i += 2) { /* from 0.0, as a pass per value summed (-0.0 terms) */
      double s0 = 0.0, s1 = 0.0;
      for (int m = 0; m <= q; m++) {
        s0 += w[m] * hs->v[m][i];
        s1 += w[m] * hs->v[m][i + 1];
      }
      out[i] = s0;
      out[i + 1] = s1;
    }
    for (; i < hs->n; i++) {
      double sum = 0.0;
      for (int m = 0; m <= q; m++) {
        sum += w[m] * hs->v[m][i];
      }
      out[i] = sum;
    }
  }
  for (int j = 0; j <= q; j++) {
    double *tmp = hs->v[j];
    hs->v[j] = hs->spare[j];
    hs->spare[j] = tmp;
  }
  hs->h = hnew;
}

void mebdf_history_push(mebdf_history *hs, const double *y)
{
  double *oldest = hs->v[MEBDF_HIST - 1];
  memmove(&hs->v[1], &hs->v[0], sizeof(double *) * (MEBDF_HIST - 1));
  hs->v[0] = oldest;
  memcpy(oldest, y, sizeof(double) * (size_t)hs->n);
}

/* The values x_1, x_2, ... after x_0 of the combinations over (first, v[0], v[1], ...) or v
 * itself: x_j = rest[j - 1], no copy. */
static const double *const *rest_of(const mebdf_history *hs, const double *first)
{
  return (const double *const *)(first ? hs->v : hs->v + 1);
}

void mebdf_history_combine(const mebdf_history *hs, const double *first, const double *w, int q,
                           double *out)
{
  const double *x0 = first ? first : hs->v[0];
  const double *const *rest = rest_of(hs, first);
  for (int i = 0; i < hs->n; i++) {
    out[i] = w[0] * x0[i];
  }
  for (int j = 1; j <= q; j++) {
    const double *v = rest[j - 1];
    double c = w[j];
    for (int i = 0; i < hs->n; i++) {
      out[i] += c * v[i];
    }
  }
}

/* Element by element, two at a time, the sums in registers: each element's terms are added in
 * the order of j as a pass per value would add them (the same bits), without storing and
 * reloading the two outputs once per value; the pair lets the compiler use both lanes of an SSE2
 * register.  Instructions (callgrind, rtol 1e-7) against a pass per value: pendulum -2.7%,
 * car axis -2.0%, double pendulum -1.7%, crank -0.6%, Andrews +0.1% (n = 5, 10, 10, 24, 27).
 * The predictor's one term more added after the loop, not in a loop of its own, and the values
 * read in place (rest_of), not gathered into an array by a call of memcpy: pendulum -1.9% at rtol
 * 1e-3, -1.7% at 1e-7 (car axis -0.2%, double pendulum -0.1%, Andrews +0.1%).  A third output
 * (w3 not NULL: combine3) rides along in the same pass; the wrappers pass w3 as a constant, so
 * each inlined copy has its own loop without a test in it. */
static inline void combine_pass(const mebdf_history *hs, const double *first, const double *w1,
                                int q, double *out1, const double *w2, double *out2,
                                const double *w3, double *out3)
{
  const double *x0 = first ? first : hs->v[0];
  const double *const *rest = rest_of(hs, first);
  const double *last = rest[q]; /* x_{q+1}: the predictor's last term */
  int i = 0;
  for (; i + 1 < hs->n; i += 2) {
    double a0 = w1[0] * x0[i], a1 = w1[0] * x0[i + 1];
    double b0 = w2[0] * x0[i], b1 = w2[0] * x0[i + 1];
    double c0 = w3 ? w3[0] * x0[i] : 0.0, c1 = w3 ? w3[0] * x0[i + 1] : 0.0;
    for (int j = 1; j <= q; j++) {
      const double *x = rest[j - 1];
      a0 += w1[j] * x[i];
      a1 += w1[j] * x[i + 1];
      b0 += w2[j] * x[i];
      b1 += w2[j] * x[i + 1];
      if (w3) {
        c0 += w3[j] * x[i];
        c1 += w3[j] * x[i + 1];
      }
    }
    out1[i] = a0;
    out1[i + 1] = a1;
    out2[i] = b0 + w2[q + 1] * last[i];
    out2[i + 1] = b1 + w2[q + 1] * last[i + 1];
    if (w3) {
      out3[i] = c0;
      out3[i + 1] = c1;
    }
  }
  for (; i < hs->n; i++) {
    double a = w1[0] * x0[i], b = w2[0] * x0[i], c = w3 ? w3[0] * x0[i] : 0.0;
    for (int j = 1; j <= q; j++) {
      const double *x = rest[j - 1];
      a += w1[j] * x[i];
      b += w2[j] * x[i];
      if (w3) {
        c += w3[j] * x[i];
      }
    }
    out1[i] = a;
    out2[i] = b + w2[q + 1] * last[i];
    if (w3) {
      out3[i] = c;
    }
  }
}

void mebdf_history_combine2(const mebdf_history *hs, const double *first, const double *w1, int q,
                            double *out1, const double *w2, double *out2)
{
  combine_pass(hs, first, w1, q, out1, w2, out2, NULL, NULL);
}

void mebdf_history_combine3(const mebdf_history *hs, const double *w1, int q, double *out1,
                            const double *w2, double *out2, const double *w3, double *out3)
{
  combine_pass(hs, NULL, w1, q, out1, w2, out2, w3, out3);
}

void mebdf_history_diff(const mebdf_history *hs, const double *ynew, int q, double *out)
{
  double w[MEBDF_HIST + 1], binom = 1.0;
  for (int j = 0; j <= q; j++) {
    w[j] = (j % 2) ? -binom : binom;
    binom = binom * (double)(q - j) / (double)(j + 1);
  }
  mebdf_history_combine(hs, ynew, w, q, out);
}
