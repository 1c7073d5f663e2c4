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

void mebdf_history_rescale(mebdf_history *hs, double hnew, int q)
{
  double r = hnew / hs->h, w[MEBDF_HIST];
  for (int j = 0; j < MEBDF_HIST; j++) {
    mebdf_lagrange(q, -(double)j * r, w);
    double *out = hs->spare[j];
    for (int i = 0; i < hs->n; i++) {
      out[i] = 0.0;
    }
    for (int m = 0; m <= q; m++) {
      const double *v = hs->v[m];
      for (int i = 0; i < hs->n; i++) {
        out[i] += w[m] * v[i];
      }
    }
  }
  for (int j = 0; j < MEBDF_HIST; j++) {
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

void mebdf_history_combine(const mebdf_history *hs, const double *first, const double *w, int q,
                           double *out)
{
  int shift = first ? 1 : 0;
  const double *x0 = first ? first : hs->v[0];
  for (int i = 0; i < hs->n; i++) {
    out[i] = w[0] * x0[i];
  }
  for (int j = 1; j <= q; j++) {
    const double *v = hs->v[j - shift];
    double c = w[j];
    for (int i = 0; i < hs->n; i++) {
      out[i] += c * v[i];
    }
  }
}

void mebdf_history_combine2(const mebdf_history *hs, const double *first, const double *w1, int q1,
                            double *out1, const double *w2, int q2, double *out2)
{
  int shift = first ? 1 : 0;
  const double *x0 = first ? first : hs->v[0];
  for (int i = 0; i < hs->n; i++) {
    out1[i] = w1[0] * x0[i];
    out2[i] = w2[0] * x0[i];
  }
  for (int j = 1; j <= q2; j++) {
    const double *v = hs->v[j - shift];
    double c2 = w2[j];
    if (j <= q1) {
      double c1 = w1[j];
      for (int i = 0; i < hs->n; i++) {
        out1[i] += c1 * v[i];
        out2[i] += c2 * v[i];
      }
    } else {
      for (int i = 0; i < hs->n; i++) {
        out2[i] += c2 * v[i];
      }
    }
  }
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
