/* bdf: the in-house variable-order (1 to 5), variable-step BDF integrator (private header shared
 * by its files).  The method and its sources are described at the top of solvers/bdf.c, which
 * holds the run object and the step; the files by concern: bdf_formula.c (the coefficients of the
 * fixed-leading-coefficient formula, the predictor, the divided differences, the interpolant),
 * bdf_norm.c (the index-aware error norm, tolerance proportionality, the rounding floor),
 * bdf_stage.c (the corrector's simplified Newton iteration and its matrix), bdf_control.c (error
 * test, order and step selection, accept and reject), bdf_start.c (the first step and the second
 * start), bdf_stability.c (the stability-limited order of BDF3-5). */
#ifndef MBDAE_BDF_H
#define MBDAE_BDF_H

#include <stddef.h>

#include "driver.h"
#include "jacobian.h"
#include "linsys.h"
#include "mbdae/mbdae.h"
#include "weights.h"

enum {
  MAX_ORDER = 5,          /* BDF beyond order 5 is not zero-stable enough to be useful */
  MAX_NEWTON_ITERS = 4,   /* DASSL's MAXIT */
  MAX_CONV_FAILS = 10,    /* convergence failures on one step before giving up (DASSL) */
  MAX_SINGULAR_FAILS = 3, /* singular iteration matrices on one step before giving up */
  END_PLAN_STEPS = 10,    /* within this many steps of tend, the rest is split into equal steps */
  START_STEPS = 1         /* the second start only after at most this many accepted steps */
};

/* The eigenvalue-based order limit is on up to this many equations (see the header): the test
 * problems have 5 to 27 and chains up to 12 links; at n = 64 one dggev costs about as much as 100
 * LU factorizations of that size (30 n^3 against 2/3 n^3 flops). */
enum { EIG_MAX_N = 64 };

/* Everything one integration owns; the arrays come from one allocation. */
typedef struct bdf {
  const mbdae_problem *p;
  const int *index; /* differentiation index per variable */
  int n;
  mbdae_tolerance tol; /* the user's rtol, atol; factor: local error / user tolerance, see
                        * bdf_local_tol_factor */

  /* method state (names as in BCP ch. 5) */
  int k;          /* order of the step being attempted */
  int kold;       /* order of the last accepted step (0 before the first) */
  int ns;         /* number of steps taken at constant h and k, capped at kold + 2 */
  int phase;      /* 0: initial phase (raise k and double h), 1: normal */
  double t;       /* time of the last accepted point (t_n), t_{n+1} during a step */
  double h, hold; /* step being attempted, last accepted step */
  double cj, cjold, cjlast;
  double conv_factor; /* s = rho/(1-rho) from the last iteration, RATE_START when unknown */
  int jac_current;    /* 1 when the matrix was evaluated during the current step */
  int need_jac;       /* 1 when the matrix must be re-evaluated before the next iteration */
  int need_lu;        /* 1 when the stored Jacobian must be refactored at the current cj */
  double psi[MAX_ORDER + 1], alpha[MAX_ORDER + 1], beta[MAX_ORDER + 1];
  double gamma[MAX_ORDER + 1], sigma[MAX_ORDER + 1];
  double ck; /* variable-step error constant */

  /* error estimates of the last error test */
  double est, terk, terkm1, erkm1;
  int knew;

  double *phi[MAX_ORDER + 2]; /* modified divided differences, each n */
  double *y, *yp;             /* current iterate / corrected solution at t_{n+1} */
  double *e;                  /* accumulated correction y - y_pred */
  double *delta;              /* residual, Newton correction, scratch */
  double *wt0;                /* 1 / (rtol |y_n| + atol) */
  double *ewt;                /* wt0 with the index scaling for the current h */
  double *noise;              /* rounding floor of index-1 algebraic variables, else 0 */
  int noise_binds;            /* 1: noise exceeded a tolerance when last computed */
  unsigned long noise_stamp;  /* jac.stamp of the matrix noise was computed with */
  double *unit, *tsize;       /* scratch of bdf_algebraic_noise */
  int *mask;                  /* 1: y'_j enters F (differential), from the last Jacobian */
  mbdae_jacobian jac;         /* Jacobian at the point of the last evaluation */
  mbdae_itmat lu;             /* dF/dy + cjold dF/dy' and its LU factors */

  /* stability limit (see bdf_stable_at); only when eig_on (n <= EIG_MAX_N) */
  int eig_on;              /* 1: the eigenvalue-based order limit is in use */
  double *eig_re, *eig_im; /* finite eigenvalues of the pencil, Re <= 0 <= Im */
  int neig;                /* how many */
  int eig_last_amplified;  /* the one that failed the last stability test (see bdf_stable_at) */
  int have_eig;            /* 1 once computed (or attempted) */
  int eig_pending;         /* 1: due for eig_dfdy, eig_dfdyp, not yet computed */
  long eig_step;           /* accepted steps at that computation */
  double *eig_dfdy, *eig_dfdyp; /* the Jacobian they were computed from (jac's nnz values) */
  double eig_jmax;              /* its largest entry */
  unsigned long eig_structures; /* the store's structure count when it was kept */
  double *ggev_a, *ggev_b;      /* dggev's copies of the pencil (overwritten) */
  double *ggev_beta, *ggev_work;
  double charpoly[MAX_ORDER + 1][MAX_ORDER + 1]; /* see bdf_set_char_polynomials */

  void *block; /* the single allocation */

  mbdae_stats *st;

  /* the run */
  double *yuser, *ypuser; /* the caller's y, y': the accepted solution */
  double hmin;            /* smallest step size before a failure counts as fatal */
  double h_first;         /* the first step size of the run */
  double *yp0;            /* the caller's initial y' */
  int restarted;          /* 1 after the second start (see bdf_restart_consistent) */
  int ncf, nef, nsf;      /* convergence, error-test and singular-matrix failures on this step */
} bdf;
/* Assumed rate factor rho/(1-rho) after a new matrix or cj (see bdf_carry_rate). */
static const double RATE_START = 100.0;

/* Outcome of one corrector solve; the failures are retried with a smaller step. */
enum { BDF_CONVERGED = 0, BDF_FAIL_NEWTON = 1, BDF_FAIL_SINGULAR = 2, BDF_FAIL_RESIDUAL = 3 };

/* The formula (bdf_formula.c). */
/* Coefficients of the step from s->t with s->h and order s->k, the leading coefficient cj, the
 * error constant ck, and phi -> phi*.  Advances s->t. */
void bdf_set_coefficients(bdf *s);
/* Undo bdf_set_coefficients after a failed attempt from told: t, phi* -> phi, psi. */
void bdf_restore(bdf *s, double told);
/* y, y' predicted at s->t from phi*. */
void bdf_predict(bdf *s);
/* The divided differences of the accepted step of order k, its correction e added. */
void bdf_update_differences(bdf *s, int k);
/* y at tout from the interpolating polynomial of the last step (m: a bdf). */
void bdf_interpolate(const void *m, double tout, double *yout);

/* The error norm (bdf_norm.c). */
/* The factor f of the error weights at the user's rtol (tolerance proportionality). */
double bdf_local_tol_factor(double rtol);
/* Weighted RMS norm (the error weights are stored inverted). */
double bdf_wnorm(const bdf *s, const double *v);
/* wt0 at y, floored by the rounding noise of index-1 algebraic variables. */
void bdf_set_base_weights(bdf *s, const double *y);
/* ewt: wt0 with the error of index-2 components scaled by h and of index-3 ones by h^2. */
void bdf_set_scaled_weights(bdf *s);
/* noise from the Jacobian at (y, y') and the LU made from it, and noise_binds at the accepted
 * state: 0 or the solver's code. */
int bdf_algebraic_noise(bdf *s, const double *y, const double *yp);

/* The corrector (bdf_stage.c). */
/* After bdf_set_coefficients: a new matrix or factorization due when cj has moved too far. */
void bdf_matrix_due(bdf *s);
/* Solve the corrector equation from the prediction: an outcome above or a negative fatal code. */
int bdf_correct(bdf *s);
/* After an accepted step: whether the observed rate is carried into the next step. */
void bdf_carry_rate(bdf *s);

/* Error test, order and step size (bdf_control.c). */
/* The local error estimate of the step (pass when <= 1); sets knew and est. */
double bdf_error_test(bdf *s);
/* Bookkeeping of an accepted step: next order and step size, then the divided differences. */
void bdf_accept_step(bdf *s);
/* After a failed attempt from told (outcome rc of bdf_correct, or BDF_CONVERGED with a failed
 * error test): back to t_n, a smaller h and maybe a lower order, or the end of the run. */
void bdf_reject(bdf *s, double told, int rc, driver_report *rep);

/* The start (bdf_start.c). */
/* The history for the first step of size h from (t0, y, y'). */
void bdf_start(bdf *s, double t0, double h, const double *y, const double *yp);
/* The second start of a run that would fail within its start: 1 when made, else 0. */
int bdf_restart_consistent(bdf *s);

/* The stability-limited order (bdf_stability.c). */
/* Coefficients c[k][m] of the BDF-k characteristic polynomials at z = 0. */
void bdf_set_char_polynomials(double c[MAX_ORDER + 1][MAX_ORDER + 1]);
/* 1 when BDF-k at constant step h amplifies no kept mode by more than the growth allowed. */
int bdf_stable_at(bdf *s, int k, double h);
/* The largest step h' <= h at which order k is stable, if it is above hbeat (else 0). */
double bdf_stable_step(bdf *s, int k, double h, double hbeat);
/* The finite eigenvalues of the kept pencil (solvers/pencil_modes.h) into eig_re, eig_im. */
void bdf_compute_eigenvalues(bdf *s);
/* After a new Jacobian: its pencil's eigenvalues are due unless it is close to the kept one. */
void bdf_mark_eigenvalues(bdf *s);
/* The eigenvalues computed when due and order k at step h would rise above the step just taken
 * (order kused, size s->h). */
void bdf_refresh_before_rise(bdf *s, int k, int kused, double h);

#endif /* MBDAE_BDF_H */
