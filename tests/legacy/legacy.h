/* The hand-written residuals and Jacobians that the mechanical layer replaced (tests/legacy/,
 * each a copy of its problem file before the port): test_forms.c compares the generated forms
 * with them bit for bit.  Each evaluates F(t, y, y') into r, then dF/dy and dF/dy'; cfg holds the
 * problem's configuration (legacy_andrews: jac=approx; legacy_crank: index, nonlinear beam,
 * damping, init); the return value is the hand-written code's. */
#ifndef MBDAE_TEST_LEGACY_H
#define MBDAE_TEST_LEGACY_H

int legacy_caraxis(const int *cfg, double t, const double *y, const double *yp, double *r,
                   double *dfdy, double *dfdyp);
int legacy_andrews(const int *cfg, double t, const double *y, const double *yp, double *r,
                   double *dfdy, double *dfdyp);
int legacy_crank(const int *cfg, double t, const double *y, const double *yp, double *r,
                 double *dfdy, double *dfdyp);

#endif /* MBDAE_TEST_LEGACY_H */
