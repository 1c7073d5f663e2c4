/* mebdf: the in-house modified extended BDF integrator (private header shared by its files).
 *
 * Method: J. R. Cash's modified extended backward differentiation formulae (MEBDF) for
 * F(t, y, y') = 0, at BDF order k = 1..MEBDF_MAX_ORDER (the corrector has order k + 1, so the
 * orders run 2..8 as in MEBDFI).  Sources: J. R. Cash, The integration of stiff initial value
 * problems in ODEs using modified extended backward differentiation formulae, Comp. & Maths. with
 * Appls. 9 (1983) 645-657; J. R. Cash, S. Considine, An MEBDF code for stiff initial value
 * problems, ACM TOMS 18 (1992) 142-155; J. R. Cash, Efficient numerical methods for the solution
 * of stiff initial-value problems and differential algebraic equations, Proc. R. Soc. Lond. A 459
 * (2003) 797-815; E. Hairer, G. Wanner, Solving ODEs II, section V.3.
 *
 * One step from t_n with step h and the past values y_n, ..., y_{n-k+1} (at spacing h):
 *   stage 1  BDF-k at t_{n+1}:  sum_j a_j ybar_{n+1-j} = h beta ybar'_{n+1}       -> ybar_{n+1}
 *   stage 2  BDF-k at t_{n+2}, ybar_{n+1} as the newest value                    -> ybar'_{n+2}
 *   stage 3  sum_j ahat_j y_{n+1-j} = h [beta y'_{n+1} + (bhat - beta) ybar'_{n+1}
 *                                        + bhat1 ybar'_{n+2}]                    -> y_{n+1}
 * every stage solved as F(t, y, (y - psi)/(h beta)) = 0 for its own psi, all three with the one
 * iteration matrix dF/dy + dF/dy'/(h beta) (a_0 = ahat_0 = 1).  The history is kept as the
 * solution values at constant spacing h (solvers/mebdf_history.c), re-interpolated on a change of
 * h as a Nordsieck array is rescaled; formulas in mebdf_formula.c, the stages and the Newton
 * iteration in mebdf_stage.c, order and step size in mebdf_control.c, the stability-limited
 * order in mebdf_stability.c, the Jacobian's renewal by cost in mebdf_renew.c, the solver in
 * mebdf.c. */
#ifndef MBDAE_MEBDF_H
#define MBDAE_MEBDF_H

#include "jacobian.h"
#include "linsys.h"
#include "mbdae/mbdae.h"
#include "weights.h"

enum {
  MEBDF_MAX_ORDER = 7,             /* highest BDF order k (corrector order 8, as MEBDFI) */
  MEBDF_HIST = MEBDF_MAX_ORDER + 3 /* past values kept (nabla^(k+2) for the order-up test) */
};

/* The constant-step formulas of BDF order k (see mebdf_formula.c). */
typedef struct mebdf_formula {
  double a[MEBDF_MAX_ORDER + 1];    /* BDF-k: sum_{j=0..k} a_j y_{n+1-j} = h beta y'_{n+1} */
  double beta;                      /* a_0 = 1 */
  double ahat[MEBDF_MAX_ORDER + 1]; /* the extended corrector, ahat_0 = 1 */
  double bhat, bhat1;               /* its weights of y'_{n+1} and y'_{n+2} */
  double err; /* |error constant| of the corrector: its local error ~ err |nabla^(k+2) y_{n+1}| */
  double pred[MEBDF_MAX_ORDER + 1]; /* the predictor: Lagrange weights of k + 1 values at x = 1 */
} mebdf_formula;

/* f[k] for k = 1..MEBDF_MAX_ORDER from the order conditions (f[0] unused). */
void mebdf_formulas_init(mebdf_formula f[MEBDF_MAX_ORDER + 1]);

/* Lagrange weights w[0..q] of the values at x_m = -m (m = 0..q) for the polynomial at x = s. */
void mebdf_lagrange(int q, double s, double *w);

/* The past values y_{n-j} = v[j], j = 0..MEBDF_HIST-1, at spacing h. */
typedef struct mebdf_history {
  int n;
  double h;                  /* their spacing */
  double *v[MEBDF_HIST];     /* v[0] = y_n */
  double *spare[MEBDF_HIST]; /* the arrays a rescaling writes into */
} mebdf_history;

/* The straight line y0 + s h y0' at s = 0, -1, -2, ... : the start (order 1 needs only y_0). */
void mebdf_history_start(mebdf_history *hs, const double *y0, const double *yp0, double h);
/* v[0..q] become the values at spacing hnew of the polynomial of degree q through them; v[q+1..]
 * are left at the old spacing, not to be read (mebdf_history.c). */
void mebdf_history_rescale(mebdf_history *hs, double hnew, int q);
/* y becomes v[0] (the oldest value is dropped). */
void mebdf_history_push(mebdf_history *hs, const double *y);
/* out = sum_j w[j] x_j over x = (first, v[0], v[1], ...) (first NULL: x = v): q + 1 terms. */
void mebdf_history_combine(const mebdf_history *hs, const double *first, const double *w, int q,
                           double *out);
/* The same for two sets of weights at once, out1 of q + 1 terms and out2 of q + 2 (a BDF stage's
 * known part and predictor), one pass over the values. */
void mebdf_history_combine2(const mebdf_history *hs, const double *first, const double *w1, int q,
                            double *out1, const double *w2, double *out2);
/* combine2 over v (first NULL) with a third set of weights w3 of q + 1 terms into out3: stage 1's
 * known part and predictor and the corrector's history part in one pass. */
void mebdf_history_combine3(const mebdf_history *hs, const double *w1, int q, double *out1,
                            const double *w2, double *out2, const double *w3, double *out3);
/* out = nabla^q y_{n+1} = sum_{j=0..q} (-1)^j binom(q, j) y_{n+1-j}, y_{n+1} = ynew. */
void mebdf_history_diff(const mebdf_history *hs, const double *ynew, int q, double *out);

/* The eigenvalues of the last Jacobian pencil kept for the stability-limited order
 * (solvers/mebdf_stability.c); only up to MEBDF_EIG_MAX_N equations. */
enum { MEBDF_EIG_MAX_N = 256 }; /* Fekete's 160, chains up to 51 links */
typedef struct mebdf_eigen {
  int on;               /* 1: n <= MEBDF_EIG_MAX_N */
  int have;             /* 1 once computed (or attempted) */
  int pending;          /* 1: due for the stored Jacobian, not yet computed */
  long step;            /* accepted steps at that computation */
  int count;            /* finite eigenvalues kept: re <= 0 <= im, one of a conjugate pair */
  int last_k, last_out; /* the last order asked for at last_h and the order given (0: none) */
  double last_h;
  double *re, *im;      /* them (n each) */
  double *a, *b, *beta; /* dggev's pencil (n x n each) and denominators */
  double *work;         /* dggev's workspace */
} mebdf_eigen;

/* The cost-based Jacobian renewal's record (solvers/mebdf_renew.c). */
typedef struct mebdf_renew {
  int begun;       /* 1 once the count of this step has begun */
  int old;         /* 1: the step began with a Jacobian from an earlier step */
  long nres0;      /* residual evaluations before the step */
  long fresh_cost; /* residual evaluations of the last step begun with a new
                      Jacobian (-1: none yet) */
  int steps_left;  /* steps still to begin with a new Jacobian */
  int slow_old;    /* consecutive steps begun old that cost more than a renewal */
} mebdf_renew;

/* Everything one integration owns; the arrays come from one allocation. */
typedef struct mebdf {
  const mbdae_problem *p;
  const int *index; /* differentiation index per variable */
  int n;
  mbdae_tolerance tol;
  mebdf_formula f[MEBDF_MAX_ORDER + 1];
  mebdf_history hist;

  int k;              /* BDF order of the step being attempted */
  int kint;           /* BDF order of the last accepted step (its interpolant) */
  int idoub;          /* accepted steps left before the next order/step decision */
  int nreal;          /* history values that are solution values (not the start's line) */
  double rmax;        /* the largest step increase at the next decision */
  double t;           /* t_n; during an attempt still t_n */
  double h;           /* step of the attempt */
  double c;           /* 1/(h beta_k): the iteration matrix dF/dy + c dF/dy' */
  double c_lu;        /* c of the factored matrix */
  double conv_factor; /* rho/(1-rho) of the last iteration; RATE_START when unknown */
  int jac_current;    /* 1 when the Jacobian was evaluated in this step */
  int need_jac;       /* 1 when the Jacobian must be re-evaluated before the next stage */
  mebdf_renew renew;  /* when to renew the Jacobian by cost */
  double est;         /* error estimate of the last attempt (<= 1: accepted) */
  double newton_tol;  /* the Newton tolerance for this run's rtol (mebdf_newton_tol) */

  double *y, *yp;    /* stage 3: the solution at t_{n+1} */
  double *y1, *yp1;  /* stage 1 */
  double *y2, *yp2;  /* stage 2 */
  double *psi;       /* the known part of the stage being solved */
  double *psi3;      /* stage 3's history part, formed with stage 1's (mebdf_history_combine3) */
  double *delta;     /* residual, Newton correction, scratch */
  double *diff;      /* nabla^(k+1) y_{n+1} of the last attempt, (k+1)/beta_k (y - y1) */
  double *wt0;       /* 1 / (f (atol + rtol |y_n|)) */
  double *ewt;       /* wt0 with the index scaling for h */
  int *differential; /* 1 where y'_i enters F (from the last Jacobian's dF/dy'), else 0 */
  mbdae_jacobian jac;
  mbdae_itmat lu; /* dF/dy + c_lu dF/dy' and its factors */
  mebdf_eigen eig;
  void *block;

  mbdae_stats *st;
  double *yuser, *ypuser; /* the caller's arrays: the accepted solution */
  double hmin;
  int ncf, nef, nsf; /* convergence, error-test and singular-matrix failures on this step */

  double *noise;                   /* rounding floor of index-1 algebraic variables, else 0 */
  double *noise_unit, *noise_size; /* scratch of mebdf_noise_update */
  int noise_binds;                 /* 1: noise exceeded a tolerance when last computed */
  unsigned long noise_stamp;       /* jac.stamp of the matrix noise was computed with */
  int scale_rows;                  /* 1 after a singular matrix: algebraic rows scaled by c */
  double *row_scale;               /* the factor of each row of the stored Jacobian (scale_rows) */

  double start_h, start_est; /* the last failed first step (mebdf_start.c): h, estimate; 0: none */
} mebdf;

/* Jacobian renewal by cost (solvers/mebdf_renew.c): init at the start, attempt before each
 * attempt's stages, rejected (rc: mebdf_stages' outcome) after a rejected attempt, accepted
 * after an accepted step (may set need_jac). */
void mebdf_renew_init(mebdf_renew *r);
void mebdf_renew_attempt(mebdf *s);
void mebdf_renew_accepted(mebdf *s);
void mebdf_renew_rejected(mebdf *s, int rc);

/* Outcome of the three stages; failures are retried with a smaller step. */
enum { MEBDF_CONVERGED = 0, MEBDF_FAIL_NEWTON, MEBDF_FAIL_SINGULAR, MEBDF_FAIL_RESIDUAL };

/* The Newton tolerance, a fraction of the weighted tolerance, for the caller's rtol
 * (solvers/mebdf_stage.c). */
double mebdf_newton_tol(double rtol);
/* Weighted RMS norm with s->ewt. */
double mebdf_wnorm(const mebdf *s, const double *v);
/* The three stages of the step [t_n, t_n + h] at order s->k (tnew: t_{n+1}): y, yp hold the
 * solution; MEBDF_CONVERGED, a failure above, or a negative fatal code. */
int mebdf_stages(mebdf *s, double tnew);

/* 1 when MEBDF of BDF order k amplifies the mode exp(lambda t), z = h lambda, by more than
 * radius per step. */
int mebdf_amplifies(const mebdf_formula *f, int k, double _Complex z, double radius);
/* After a new Jacobian: its pencil's eigenvalues become due (computed when needed). */
void mebdf_eigen_update(mebdf *s);
/* The highest order <= k whose step h amplifies no kept mode (orders up to 3 are A-stable). */
int mebdf_stable_order(mebdf *s, int k, double h);

/* The rounding floor of index-1 algebraic variables (solvers/mebdf_noise.c): s->noise from the
 * stored Jacobian at (y, yp) and the factored matrix, s->noise_binds; 0 or a fatal code. */
enum { MEBDF_NOISE_MAX_N = 64 };
int mebdf_noise_update(mebdf *s, const double *y, const double *yp);

/* 1 when a first step whose estimate s->est exceeds 1 is accepted all the same: the part of the
 * estimate that does not fall with h (initial values inconsistent at the tolerance's scale) is
 * within the caller's tolerance and the part that does within the local one
 * (solvers/mebdf_start.c).  Records the attempt for the next one. */
int mebdf_start_accepts(mebdf *s);

/* After an accepted step with error estimate s->est: the next order s->k and step size. */
double mebdf_next_step(mebdf *s);
/* After a rejected attempt (rc a stage outcome, or MEBDF_CONVERGED for an error-test failure):
 * the step size of the retry and perhaps a lower order. */
double mebdf_retry_step(mebdf *s, int rc);

#endif /* MBDAE_MEBDF_H */
