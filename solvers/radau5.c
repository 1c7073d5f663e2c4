/* radau5: the 3-stage Radau IIA method (order 5, stage order 3) with RADAU5's controls, for fully
 * implicit DAEs F(t, y, y') = 0: the integrator of solvers/radau.c with the stage count fixed at
 * s = 3 (no order selection) and RADAU5's tolerance transformation.  Sources: E. Hairer,
 * G. Wanner, Solving Ordinary Differential Equations II, 2nd ed. (Springer 1996), Sections IV.5,
 * IV.8 and VII.4; E. Hairer, C. Lubich, M. Roche, LNM 1409 (1989); the documentation of the
 * RADAU5 code (tolerances, index scaling, defaults).
 *
 * For s = 3 RADAU's controls are RADAU5's: at most 7 Newton iterations, fnewt = max(10 uround /
 * rtol', min(0.03, rtol'^(1/2))), the rate watch, Jacobian reuse while theta <= 0.001,
 * factorization reuse while 1 <= h_new/h <= 1.2, quot = clamp(err^(1/4) / fac, 1/8, 5) and
 * Gustafsson's predictive controller, rtol' = f rtol^(2/3) (the estimate is O(h^4), the global
 * error O(h^5)).  For F = M y' - f this is RADAU5 applied to M y' = f, so the test set's RADAU5
 * figures are the yardstick.  Departures from RADAU5, shared with radau and described in
 * solvers/radau.c: the error estimate from the last stage derivative instead of an evaluation of
 * f(t_n, y_n), the Newton budget of the differential components over long runs, the cap on the
 * predicted Newton contraction, Taylor starting values on the first step and the end-point rule
 * applied after rejections too.
 *
 * f = 0.08 instead of RADAU5's 0.1: the implicit form saves RADAU5's evaluation of f(t_n, y_n)
 * after every accepted step (y'_n is the last stage derivative), and 0.08 spends about half of
 * that saving on accuracy: +0.1 scd for +6% residual evaluations on the test set rows. */
#include "radau.h"

/* s = 3: one real and one complex factorization per event; the shared driver projects
 * (options.project). */
static const mbdae_solver_caps CAPS = {
    .size = sizeof(mbdae_solver_caps),
    .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_BAND) |
              MBDAE_LINSYS_BIT(MBDAE_JAC_SPARSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_CONDENSED),
    .condenses = 1,
    .projects = 1,
    .steps = 1,
    .dense_output = 1,
    .lu_real = 1,
    .lu_complex = 1,
};

/* s = 3 only (order set 0), rtol' = 0.08 rtol^(2/3) (see the header). */
static const radau_controls RADAU5_CONTROLS = {&CAPS, 0, 0.08, 1};

static int open_radau5(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                       double *yp, mbdae_result *r, void **session)
{
  return radau_open(&RADAU5_CONTROLS, p, opt, t0, y, yp, r, session);
}

const mbdae_stepper mbdae_stepper_radau5 = MBDAE_SESSION_STEPPER(open_radau5);

MBDAE_STEPPER_INTEGRATE(integrate, mbdae_stepper_radau5)

const mbdae_solver_type mbdae_solver_radau5 = {
    sizeof(mbdae_solver_type),
    "radau5",
    "Radau IIA, 3 stages, order 5 (RADAU5 control) for F(t, y, y') = 0",
    integrate,
    NULL,
    &CAPS};
