/* bdf: the in-house variable-order (1 to 5), variable-step BDF integrator for F(t, y, y') = 0.
 *
 * Method: fixed-leading-coefficient BDF in modified divided-difference form, the formulation of
 * DASSL (K. E. Brenan, S. L. Campbell, L. R. Petzold, Numerical Solution of Initial-Value
 * Problems in Differential-Algebraic Equations, SIAM 1996, ch. 5, sections 5.2-5.4), also used by
 * SUNDIALS IDA (Hindmarsh et al., ACM TOMS 31 (2005), IDA user guide section 2.1).  One step from
 * t_n: the coefficients and the predictor from the divided differences (solvers/bdf_formula.c),
 * the corrector solved by a simplified Newton iteration (bdf_stage.c), the error test in the
 * index-aware norm (bdf_norm.c, bdf_control.c), then on acceptance the next order and step chosen
 * for accuracy (bdf_control.c) and kept where stable (bdf_stability.c), on rejection a smaller
 * step; the first step, and the second start of an inconsistent index-1 start, in bdf_start.c.
 * This file holds the run: its state, one attempt as the shared step driver calls it
 * (solvers/driver.h), and the solver type.
 *
 * The last step lands exactly on tend; within 10 steps of tend the rest of the interval is split
 * into equal steps, because every change of h perturbs the multipliers of an index-3 system for
 * about k steps and tend is where the result is read.  A recoverable (positive) or non-finite
 * residual counts as a convergence failure: h is cut by 4.
 *
 * The code is written from the formulas in BCP ch. 5, not translated from DASSL. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bdf.h"
#include "driver.h"
#include "fail.h"
#include "lapack.h"
#include "linsys.h"
#include "session.h"
#include "solver_caps.h"
#include "solver_type.h"
#include "weights.h"

/* The end-point rule (applied by the shared driver, solvers/driver.h): no step past tend, and
 * within END_PLAN_STEPS steps of it the rest is split into equal steps (a step count within 1e-6
 * of a whole number is taken as whole), so that the last steps are taken at constant h (a
 * step-size change perturbs the multipliers of an index-3 system for about k steps); applied to
 * new steps only, not to the retries after a failure. */
static const driver_end_rule END_RULE = {1.0, END_PLAN_STEPS, 1e-6, 0};

/* One real factorization per event; no projection (the driver does not own the state: the
 * history array is bdf's; the harness refuses options.project from this record, the driver's
 * refusal stays as a second line). */
static const mbdae_solver_caps CAPS = {
    .size = sizeof(mbdae_solver_caps),
    .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_BAND) |
              MBDAE_LINSYS_BIT(MBDAE_JAC_SPARSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_CONDENSED),
    .condenses = 1,
    .projects = 0,
    .steps = 1,
    .dense_output = 1,
    .lu_real = 1,
    .lu_complex = 0,
};

/* The Jacobian store of the kind asked for, its iteration matrix and the work arrays (one
 * allocation; the eigenvalue arrays only when eig_on): 0 or a negative code with a message. */
static int allocate(bdf *s, int kind, char *msg, size_t msglen)
{
  int rc =
      mbdae_jacobian_create(&s->jac, s->p, mbdae_linsys_choose(s->p, &CAPS, kind), msg, msglen);
  if (rc != 0) {
    return rc;
  }
  s->eig_on = s->n <= EIG_MAX_N;
  size_t n = (size_t)s->n, nn = s->eig_on ? n * n : 0, nnz = s->eig_on ? s->jac.nnz : 0;
  size_t lwork = s->eig_on ? (size_t)mbdae_ggev_lwork(s->n) : 0;
  size_t ndoubles = (MAX_ORDER + 2) * n + 13 * n + 2 * nn + 2 * nnz + lwork;
  s->block = malloc(ndoubles * sizeof(double));
  s->mask = malloc(n * sizeof(int));
  if (!s->block || !s->mask || mbdae_itmat_create(&s->lu, &s->jac, 0) != 0) {
    snprintf(msg, msglen, "out of memory");
    return MBDAE_ERR_NOMEM;
  }
  double *w = s->block;
  memset(w, 0, ndoubles * sizeof(double));
  for (int j = 0; j < MAX_ORDER + 2; j++) {
    s->phi[j] = w;
    w += n;
  }
  s->y = w;
  s->yp = w + n;
  s->e = w + 2 * n;
  s->delta = w + 3 * n;
  s->wt0 = w + 4 * n;
  s->ewt = w + 5 * n;
  s->noise = w + 6 * n;
  s->unit = w + 7 * n;
  s->tsize = w + 8 * n;
  s->yp0 = w + 9 * n;
  w += 10 * n;
  s->ggev_a = w;
  s->ggev_b = w + nn;
  w += 2 * nn;
  s->eig_re = w;
  s->eig_im = w + n;
  s->ggev_beta = w + 2 * n;
  s->ggev_work = w + 3 * n;
  w += 3 * n + lwork;
  s->eig_dfdy = w;
  s->eig_dfdyp = w + nnz;
  return 0;
}

static void release(bdf *s)
{
  mbdae_itmat_free(&s->lu);
  mbdae_jacobian_free(&s->jac);
  free(s->block);
  free(s->mask);
}

/* One attempt of the step [t, tnew] of size h at order s->k: predict, correct, test. */
static void attempt(void *m, double t, double h, double tnew, driver_report *rep)
{
  bdf *s = m;
  s->h = h;
  bdf_set_coefficients(s);
  bdf_matrix_due(s);
  s->t = tnew;
  bdf_set_scaled_weights(s);
  int rc = bdf_correct(s);
  if (rc < 0) {
    bdf_restore(s, t);
    rep->outcome = DRIVER_FAILED;
    mbdae_driver_give_up(rep, rc, "%s", mbdae_strerror(rc));
    return;
  }
  if (rc != BDF_CONVERGED || bdf_error_test(s) > 1.0) {
    bdf_reject(s, t, rc, rep);
    return;
  }
  int kused = s->k;
  bdf_accept_step(s);
  memcpy(s->yuser, s->y, sizeof(double) * (size_t)s->n);
  memcpy(s->ypuser, s->yp, sizeof(double) * (size_t)s->n);
  bdf_set_base_weights(s, s->yuser);
  s->ncf = s->nef = s->nsf = 0;
  bdf_carry_rate(s);
  rep->outcome = DRIVER_ACCEPTED;
  rep->order = kused;
  rep->hnew = s->h;
}

static const driver_method BDF_METHOD = {NULL, attempt, NULL, bdf_interpolate, NULL};

/* The session's release of a run's state. */
static void release_run(void *m)
{
  release(m);
  free(m);
}

/* The state of a run from (t0, y, y'), or NULL with the failure in r. */
static bdf *run_state(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                      mbdae_result *r)
{
  bdf *s = calloc(1, sizeof *s);
  if (!s) {
    mbdae_fail(r, MBDAE_ERR_NOMEM, t0, 0.0, "out of memory");
    return NULL;
  }
  s->p = p;
  s->n = mbdae_problem_neq(p);
  s->index = mbdae_problem_index(p);
  s->tol.rtol = opt->rtol;
  s->tol.atol = opt->atol;
  s->tol.factor = bdf_local_tol_factor(opt->rtol);
  s->st = &r->stats;
  bdf_set_char_polynomials(s->charpoly);
  memset(&r->stats, 0, sizeof r->stats);
  char msg[160];
  int rc = allocate(s, opt->linsys, msg, sizeof msg);
  if (rc != 0) {
    release_run(s);
    mbdae_fail(r, rc, t0, 0.0, "%s", msg);
    return NULL;
  }
  s->yuser = y;
  bdf_set_base_weights(s, y);
  return s;
}

static int open_run(const mbdae_problem *p, const mbdae_options *opt, double t0, double *y,
                    double *yp, mbdae_result *r, void **session)
{
  bdf *s = run_state(p, opt, t0, y, r);
  driver_session *ds =
      mbdae_session_open(&BDF_METHOD, s, release_run, p, opt, t0, &END_RULE, y, yp, r);
  if (!ds) {
    return r->status;
  }
  double tend = mbdae_problem_tend(p);
  s->ypuser = yp;
  s->hmin = 4.0 * DBL_EPSILON * fmax(fabs(t0), fabs(tend));
  double h = mbdae_driver_first_step(
      &ds->d, opt->h0 > 0.0 ? opt->h0 : mbdae_dassl_first_step(s->n, s->wt0, yp, tend - t0));
  s->h_first = h;
  memcpy(s->yp0, yp, sizeof(double) * (size_t)s->n);
  bdf_start(s, t0, h, y, yp);
  return mbdae_session_begin(ds, h, session);
}

const mbdae_stepper mbdae_stepper_bdf = MBDAE_SESSION_STEPPER(open_run);

MBDAE_STEPPER_INTEGRATE(integrate, mbdae_stepper_bdf)

const mbdae_solver_type mbdae_solver_bdf = {
    sizeof(mbdae_solver_type),
    "bdf",
    "variable-order (1-5) fixed-leading-coefficient BDF, index-scaled error test",
    integrate,
    NULL,
    &CAPS};
