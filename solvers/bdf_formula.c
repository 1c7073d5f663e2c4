/* The formula of the bdf integrator (solvers/bdf.h): fixed-leading-coefficient BDF in modified
 * divided-difference form, the formulation of DASSL (K. E. Brenan, S. L. Campbell, L. R. Petzold,
 * Numerical Solution of Initial-Value Problems in Differential-Algebraic Equations, SIAM 1996,
 * ch. 5, sections 5.2-5.4; "BCP" below), also used by SUNDIALS IDA (Hindmarsh et al., ACM TOMS 31
 * (2005), IDA user guide section 2.1).
 *
 * History.  With psi_i = t_{n+1} - t_{n+1-i} (i = 1..k+1, index psi[i-1] here) the modified divided
 * differences phi_j (j = 0..k+1) of the accepted solution define the predictor
 *     y_pred = sum_{j=0..k} phi*_j,   y'_pred = sum_{j=1..k} gamma_j phi*_j,
 * phi*_j = beta_j phi_j, beta_j = prod_{i<j} psi_i(t_{n+1}) / psi_i(t_n) (BCP ch. 5).
 * The fixed-leading-coefficient corrector is y' = y'_pred + cj (y - y_pred) with
 *     cj = -alpha_s / h,   alpha_s = -sum_{j=1..k} 1/j,
 * so the iteration matrix dF/dy + cj dF/dy' depends on h and k only through cj.  The local error
 * estimate uses the variable-step coefficient C_k = max(|alpha_k+1 + alpha_s - alpha_0|, alpha_k+1)
 * (BCP ch. 5; solvers/bdf_control.c).
 *
 * Continuous output evaluates the interpolating polynomial of the last step through the last
 * k+1 points (BCP ch. 5). */
#include <math.h>
#include <string.h>

#include "bdf.h"

/* Coefficients of the step from s->t with s->h and order s->k (BCP ch. 5), the leading
 * coefficient cj, the error constant ck, and phi -> phi*.  Advances s->t. */
void bdf_set_coefficients(bdf *s)
{
  int k = s->k;
  if (s->h != s->hold || k != s->kold) {
    s->ns = 0;
  }
  s->ns = s->ns + 1 < s->kold + 2 ? s->ns + 1 : s->kold + 2;
  if (k + 1 >= s->ns) {
    double h = s->h, temp1 = h;
    s->beta[0] = 1.0;
    s->alpha[0] = 1.0;
    s->gamma[0] = 0.0;
    s->sigma[0] = 1.0;
    for (int j = 1; j <= k; j++) {
      double temp2 = s->psi[j - 1];
      s->psi[j - 1] = temp1;
      s->beta[j] = s->beta[j - 1] * s->psi[j - 1] / temp2;
      temp1 = temp2 + h;
      s->alpha[j] = h / temp1;
      s->sigma[j] = (double)j * s->sigma[j - 1] * s->alpha[j];
      s->gamma[j] = s->gamma[j - 1] + s->alpha[j - 1] / h;
    }
    s->psi[k] = temp1;
  }
  double alphas = 0.0, alpha0 = 0.0;
  for (int j = 1; j <= k; j++) {
    alphas -= 1.0 / (double)j;
    alpha0 -= s->alpha[j - 1];
  }
  s->cjlast = s->cj;
  s->cj = -alphas / s->h;
  s->ck = fabs(s->alpha[k] + alphas - alpha0);
  if (s->ck < s->alpha[k]) {
    s->ck = s->alpha[k];
  }
  for (int j = s->ns; j <= k; j++) {
    for (int i = 0; i < s->n; i++) {
      s->phi[j][i] *= s->beta[j];
    }
  }
  s->t += s->h;
}

/* Undo bdf_set_coefficients after a failed attempt: t, phi* -> phi, psi. */
void bdf_restore(bdf *s, double told)
{
  int k = s->k;
  s->t = told;
  for (int j = s->ns; j <= k; j++) {
    for (int i = 0; i < s->n; i++) {
      s->phi[j][i] /= s->beta[j];
    }
  }
  for (int j = 1; j <= k; j++) {
    s->psi[j - 1] = s->psi[j] - s->h;
  }
}

/* y_pred = sum_{j=0..k} phi*_j, y'_pred = sum_{j=1..k} gamma_j phi*_j. */
void bdf_predict(bdf *s)
{
  for (int i = 0; i < s->n; i++) {
    s->y[i] = s->phi[0][i];
    s->yp[i] = 0.0;
  }
  for (int j = 1; j <= s->k; j++) {
    for (int i = 0; i < s->n; i++) {
      s->y[i] += s->phi[j][i];
      s->yp[i] += s->gamma[j] * s->phi[j][i];
    }
  }
}

/* After an accepted step of order k with correction e (y - y_pred): phi_{k+1} = e, phi_k += e,
 * then phi_j += phi_{j+1} down to phi_0 = y (BCP ch. 5). */
void bdf_update_differences(bdf *s, int k)
{
  if (k != MAX_ORDER) {
    memcpy(s->phi[k + 1], s->e, sizeof(double) * (size_t)s->n);
  }
  for (int i = 0; i < s->n; i++) {
    s->phi[k][i] += s->e[i];
  }
  for (int j = k - 1; j >= 0; j--) {
    for (int i = 0; i < s->n; i++) {
      s->phi[j][i] += s->phi[j + 1][i];
    }
  }
}

/* y at tout from the interpolating polynomial of the last step (BCP ch. 5). */
void bdf_interpolate(const void *m, double tout, double *yout)
{
  const bdf *s = m;
  double dt = tout - s->t, c = 1.0, g = dt / s->psi[0];
  for (int i = 0; i < s->n; i++) {
    yout[i] = s->phi[0][i];
  }
  for (int j = 1; j <= s->kold; j++) {
    c *= g;
    g = (dt + s->psi[j - 1]) / s->psi[j];
    for (int i = 0; i < s->n; i++) {
      yout[i] += c * s->phi[j][i];
    }
  }
}
