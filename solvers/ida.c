/* SUNDIALS IDA binding: variable-order, variable-step BDF (orders 1-5) in fixed-leading-
 * coefficient form, dense direct linear solver fed by the problem's analytic Jacobian.
 *
 * IDA solves F(t, y, y') = 0 by BDF: at each step y' is replaced by the BDF formula, so the
 * corrector is a Newton iteration on G(y) = F(t, y, y'_pred + cj (y - y_pred)) with the iteration
 * matrix  J = dF/dy + cj dF/dy'  (cj = alpha_s / h), assembled here from daets_problem_jac.
 *
 * Index.  IDA assumes index <= 1.  The multibody problems of this set are index 2 and 3: BDF
 * still converges for the positions, but the local error estimates of index-k variables behave
 * like O(h^(q+2-k)) instead of O(h^(q+1)), so an error test that treats them like index-1
 * variables rejects step after step near every change of step size (see Brenan, Campbell and
 * Petzold, Numerical Solution of IVPs in DAEs, SIAM 1996, sec. 3.2; Hairer and Wanner, Solving
 * ODEs II, sec. VII.3).  The treatment is chosen below (see INDEX TREATMENT).
 *
 * id vector: component i is differential (1) when column i of dF/dy' at (t0, y0, y'0) has a
 * nonzero entry, algebraic (0) otherwise.  For the constant mass matrices of these problems this
 * is the structure itself: positions and the velocities whose derivative enters F.  It is only
 * used to mask the error test (IDASetSuppressAlg); IDACalcIC is never called, the run starts from
 * the consistent y, y' it is given.
 *
 * Output: in IDA_ONE_STEP mode with the stop time tend, so IDA never integrates past tend; each
 * requested output time is interpolated (IDAGetDky) inside the step that covers it.
 *
 * Counters: IDA's nst counts accepted steps; attempted steps = nst + error-test failures +
 * step failures of the nonlinear solver (IDAGetNumStepSolveFails).  One linear-solver setup =
 * one Jacobian evaluation + one LU factorization.
 *
 * Source: A. C. Hindmarsh et al., SUNDIALS: Suite of nonlinear and differential/algebraic
 * equation solvers, ACM TOMS 31 (2005); IDA user guide, SUNDIALS 6.4.1 (IDASolve, IDAGetDky,
 * IDAWFtolerances, IDASetSuppressAlg, IDASetId, IDASetStopTime). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef IDA_DEBUG
#include <stdio.h>
#endif
#ifdef IDA_DIAG
#include <stdio.h>
#include <stdlib.h>
#include <ida/ida_impl.h>
#endif

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "dense.h"
#include "solver_type.h"

#define DEFAULT_MAX_STEPS 1000000L
#ifndef MAX_RESTARTS_IN_ROW
#define MAX_RESTARTS_IN_ROW 3
#endif
/* IDA's own first step when none is given is at most 1e-3 |tout - t0| (IDASolve). */
#define IDA_H0_FRACTION 1e-3

/* Error-test treatment of high-index variables (experiment switches, see INDEX TREATMENT).
 * SCALE_MODE: 0 plain weights; 1 weights of index-k variables times h^(k-1); 2 only the
 * algebraic ones (id = 0).  SUPPRESS_MODE: 0 every variable in the error test; 1 algebraic
 * variables left out (IDASetSuppressAlg); 2 every variable of index >= 2 left out. */
#ifndef SCALE_MODE
#define SCALE_MODE 1
#endif
#ifndef SUPPRESS_MODE
#define SUPPRESS_MODE 1
#endif

/* Everything one run needs inside IDA's callbacks (IDA's user data). */
typedef struct run_data {
  const daets_problem *p; /* the problem, read only */
  int neq;                /* number of equations */
  const int *index;       /* differentiation index per variable */
  int *power;             /* weight of variable i is multiplied by h^power[i] */
  void *mem;              /* IDA memory: the weight function asks it for the step size */
  double rtol, atol;      /* tolerances, for the weight function */
  double h_first;         /* step size the weights assume before the first step */
  double *dfdy, *dfdyp;   /* neq x neq scratch for the problem's Jacobian */
  int fatal;              /* first negative code returned by a problem callback, 0 if none */
  int restarts;           /* restarts after a failed step */
#ifdef EWT_INPLACE
  double *ewt_data, h_w;
#endif
} run_data;

static int residual(realtype t, N_Vector yv, N_Vector ypv, N_Vector rv, void *user_data)
{
  run_data *d = user_data;
  double *res = N_VGetArrayPointer(rv);
#ifdef EWT_INPLACE
  if (d->ewt_data) {
    double h = 0.0;
    IDAGetCurrentStep(d->mem, &h);
    h = fabs(h);
    if (h > 0.0 && h != d->h_w) {
      for (int i = 0; i < d->neq; i++) {
        for (int k = 0; k < d->power[i]; k++) {
          d->ewt_data[i] *= h / d->h_w;
        }
      }
      d->h_w = h;
    }
  }
#endif
  int rc = daets_problem_res(d->p, t, N_VGetArrayPointer(yv), N_VGetArrayPointer(ypv), res);
  if (rc < 0) {
    if (!d->fatal) {
      d->fatal = rc;
    }
    return -1;
  }
  if (rc > 0) {
    return rc;
  }
  /* A non-finite residual (the Newton iterate left the domain) is a reason to retry with a
   * smaller step, not to feed NaN into the error norms. */
  for (int i = 0; i < d->neq; i++) {
    if (!isfinite(res[i])) {
      return 1;
    }
  }
  return 0;
}

static int jacobian(realtype t, realtype cj, N_Vector yv, N_Vector ypv, N_Vector rv, SUNMatrix J,
                    void *user_data, N_Vector tmp1, N_Vector tmp2, N_Vector tmp3)
{
  (void)rv;
  (void)tmp1;
  (void)tmp2;
  (void)tmp3;
  run_data *d = user_data;
  int n = d->neq;
  int rc = daets_problem_jac(d->p, t, N_VGetArrayPointer(yv), N_VGetArrayPointer(ypv), d->dfdy,
                             d->dfdyp);
  if (rc < 0) {
    if (!d->fatal) {
      d->fatal = rc;
    }
    return -1;
  }
  if (rc > 0) {
    return rc;
  }
  double *a = SUNDenseMatrix_Data(J);
  long ld = SUNDenseMatrix_Rows(J);
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      DAETS_AT(a, ld, i, j) = DAETS_AT(d->dfdy, n, i, j) + cj * DAETS_AT(d->dfdyp, n, i, j);
    }
  }
  return 0;
}

/* Error weights 1/(rtol |y_i| + atol), times h^(k-1) for a variable of index k >= 2: the local
 * error estimate of an index-k variable is O(h^(q+2-k)), so measuring it against h^(k-1) times
 * the tolerance puts it on the footing of an index-1 variable (RADAU5 scales its index-2 and
 * index-3 components the same way).  IDA calls this at the start of every step, when
 * IDAGetCurrentStep is the step about to be tried; before the first step it is 0, so the step
 * IDA will start with is assumed. */
static int error_weights(N_Vector yv, N_Vector ewt, void *user_data)
{
  run_data *d = user_data;
  const double *y = N_VGetArrayPointer(yv);
  double *w = N_VGetArrayPointer(ewt);
  double h = 0.0;
  long nst = 0;
  IDAGetNumSteps(d->mem, &nst);
  IDAGetCurrentStep(d->mem, &h);
  h = fabs(h);
  if (nst == 0 || !(h > 0.0)) {
    h = d->h_first;
  }
  for (int i = 0; i < d->neq; i++) {
    double scale = 1.0;
    for (int k = 0; k < d->power[i]; k++) {
      scale *= h;
    }
    w[i] = scale / (d->rtol * fabs(y[i]) + d->atol);
  }
#ifdef EWT_INPLACE
  d->ewt_data = w;
  d->h_w = h;
#endif
  return 0;
}

/* IDA's flag as a daets status and a plain explanation. */
static int map_flag(int flag, const char **why)
{
  switch (flag) {
  case IDA_TOO_MUCH_WORK:
    *why = "too many steps";
    return DAETS_ERR_MAX_STEPS;
  case IDA_TOO_MUCH_ACC:
    *why = "the tolerances are too small for the machine precision";
    return DAETS_ERR_STEP_TOO_SMALL;
  case IDA_ERR_FAIL:
    *why = "the local error test failed repeatedly or with the minimum step size";
    return DAETS_ERR_ERRTEST;
  case IDA_CONV_FAIL:
    *why = "the Newton iteration failed to converge repeatedly or with the minimum step size";
    return DAETS_ERR_CONV;
  case IDA_LSETUP_FAIL:
    *why = "the Jacobian evaluation or LU factorization failed unrecoverably";
    return DAETS_ERR_SOLVER;
  case IDA_LSOLVE_FAIL:
    *why = "the linear solve failed unrecoverably";
    return DAETS_ERR_SOLVER;
  case IDA_RES_FAIL:
  case IDA_FIRST_RES_FAIL:
    *why = "the residual function failed unrecoverably";
    return DAETS_ERR_RES;
  case IDA_REP_RES_ERR:
    *why = "the residual could not be evaluated, repeatedly, even with smaller steps";
    return DAETS_ERR_RES;
  case IDA_MEM_FAIL:
    *why = "out of memory";
    return DAETS_ERR_NOMEM;
  case IDA_ILL_INPUT:
    *why = "illegal input to IDA (or the error weights became invalid)";
    return DAETS_ERR_INTERNAL;
  default:
    *why = "IDA failed";
    return DAETS_ERR_SOLVER;
  }
}

/* Record IDA's failure flag in r with the t and h where IDA stopped. */
static int fail_flag(daets_result *r, void *mem, const run_data *d, int flag)
{
  const char *why = NULL;
  int status = map_flag(flag, &why);
  double t = 0.0, h = 0.0;
  IDAGetCurrentTime(mem, &t);
  IDAGetCurrentStep(mem, &h);
  char *name = IDAGetReturnFlagName(flag);
  if (d->fatal) {
    /* The problem itself refused: its own code says more than IDA's. */
    daets_fail(r, status, t, h, "%s: %s (%s)", name ? name : "IDA", why,
               daets_strerror(d->fatal));
  } else {
    daets_fail(r, status, t, h, "%s: %s", name ? name : "IDA", why);
  }
  free(name);
  return status;
}

static void collect_stats(void *mem, const daets_stats *base, daets_stats *s)
{
  long nst = 0, netf = 0, ncfn = 0, nre = 0, nreLS = 0, nje = 0, nsetups = 0;
  IDAGetNumSteps(mem, &nst);
  IDAGetNumErrTestFails(mem, &netf);
  IDAGetNumStepSolveFails(mem, &ncfn);
  IDAGetNumResEvals(mem, &nre);
  IDAGetNumLinResEvals(mem, &nreLS);
  IDAGetNumJacEvals(mem, &nje);
  IDAGetNumLinSolvSetups(mem, &nsetups);
  s->accepted = base->accepted + nst;
  s->nerrfail = base->nerrfail + netf;
  s->nconvfail = base->nconvfail + ncfn;
  s->steps = base->steps + nst + netf + ncfn;
  s->nres = base->nres + nre;
  s->nres_fd = base->nres_fd + nreLS;
  s->njac = base->njac + nje;
  s->nlu = base->nlu + nsetups;
}

/* id_i = 1 when y_i' enters F (a nonzero in column i of dF/dy'), 0 otherwise. */
static int set_id(run_data *d, double t0, const double *y, const double *yp, N_Vector idv)
{
  int n = d->neq;
  int rc = daets_problem_jac(d->p, t0, y, yp, d->dfdy, d->dfdyp);
  if (rc != 0) {
    return rc;
  }
  double *id = N_VGetArrayPointer(idv);
  for (int j = 0; j < n; j++) {
    int differential = 0;
    for (int i = 0; i < n; i++) {
      if (DAETS_AT(d->dfdyp, n, i, j) != 0.0) {
        differential = 1;
      }
    }
    int high = d->index[j] >= 2;
    d->power[j] = (SCALE_MODE == 1 || (SCALE_MODE == 2 && !differential)) && high
                      ? d->index[j] - 1 : 0;
    if (SUPPRESS_MODE == 2 && high) {
      differential = 0;
    }
    id[j] = differential ? 1.0 : 0.0;
  }
  return 0;
}

/* Everything allocated for one run; release() frees whatever exists. */
typedef struct resources {
  SUNContext ctx;
  N_Vector yv, ypv, idv, dky;
  SUNMatrix A;
  SUNLinearSolver LS;
  void *mem;
  double *scratch;
  int *power;
} resources;

static void release(resources *s)
{
  if (s->mem) {
    IDAFree(&s->mem);
  }
  if (s->LS) {
    SUNLinSolFree(s->LS);
  }
  if (s->A) {
    SUNMatDestroy(s->A);
  }
  N_Vector *vecs[] = {&s->yv, &s->ypv, &s->idv, &s->dky};
  for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; k++) {
    if (*vecs[k]) {
      N_VDestroy(*vecs[k]);
    }
  }
  free(s->scratch);
  free(s->power);
  if (s->ctx) {
    SUNContext_Free(&s->ctx);
  }
}

/* Set up IDA for the run: returns 0, or a daets status already recorded in r. */
static int setup(const daets_problem *p, const daets_options *opt, const double *y,
                 const double *yp, run_data *d, resources *s, daets_result *r)
{
  int n = d->neq;
  double t0 = daets_problem_t0(p), tend = daets_problem_tend(p);
  if (SUNContext_Create(NULL, &s->ctx) != 0) {
    return daets_fail(r, DAETS_ERR_NOMEM, t0, 0.0, "SUNContext_Create failed");
  }
  s->scratch = malloc(sizeof(double) * 2 * (size_t)n * (size_t)n);
  s->power = malloc(sizeof(int) * (size_t)n);
  s->yv = N_VNew_Serial(n, s->ctx);
  s->ypv = N_VNew_Serial(n, s->ctx);
  s->idv = N_VNew_Serial(n, s->ctx);
  s->dky = N_VNew_Serial(n, s->ctx);
  s->A = SUNDenseMatrix(n, n, s->ctx);
  s->mem = IDACreate(s->ctx);
  if (!s->scratch || !s->power || !s->yv || !s->ypv || !s->idv || !s->dky || !s->A || !s->mem) {
    return daets_fail(r, DAETS_ERR_NOMEM, t0, 0.0, "out of memory setting up IDA");
  }
  s->LS = SUNLinSol_Dense(s->yv, s->A, s->ctx);
  if (!s->LS) {
    return daets_fail(r, DAETS_ERR_NOMEM, t0, 0.0, "out of memory setting up IDA");
  }
  d->dfdy = s->scratch;
  d->dfdyp = s->scratch + (size_t)n * (size_t)n;
  d->mem = s->mem;
  d->power = s->power;
  memcpy(N_VGetArrayPointer(s->yv), y, sizeof(double) * (size_t)n);
  memcpy(N_VGetArrayPointer(s->ypv), yp, sizeof(double) * (size_t)n);

  int rc = set_id(d, t0, y, yp, s->idv);
  if (rc != 0) {
    return daets_fail(r, rc < 0 ? rc : DAETS_ERR_SOLVER, t0, 0.0,
                      "the Jacobian at the initial point failed: %s", daets_strerror(rc));
  }

  int scale = SCALE_MODE != 0;
  int suppress = SUPPRESS_MODE != 0;
  long max_steps = opt->max_steps > 0 ? opt->max_steps : DEFAULT_MAX_STEPS;
  int flag = IDASetErrFile(s->mem, NULL); /* the library never prints */
  if (flag == IDA_SUCCESS) {
    flag = IDAInit(s->mem, residual, t0, s->yv, s->ypv);
  }
  if (flag == IDA_SUCCESS) {
    flag = IDASetUserData(s->mem, d);
  }
  if (flag == IDA_SUCCESS) {
    flag = scale ? IDAWFtolerances(s->mem, error_weights)
                 : IDASStolerances(s->mem, opt->rtol, opt->atol);
  }
  if (flag == IDA_SUCCESS) {
    flag = IDASetLinearSolver(s->mem, s->LS, s->A);
  }
  if (flag == IDA_SUCCESS) {
    flag = IDASetJacFn(s->mem, jacobian);
  }
  if (flag == IDA_SUCCESS) {
    flag = IDASetId(s->mem, s->idv);
  }
  if (flag == IDA_SUCCESS && suppress) {
    flag = IDASetSuppressAlg(s->mem, SUNTRUE);
  }
  if (flag == IDA_SUCCESS) {
    flag = IDASetMaxNumSteps(s->mem, max_steps);
  }
  if (flag == IDA_SUCCESS) {
    flag = IDASetStopTime(s->mem, tend);
  }
#ifdef NLS_COEF
  if (flag == IDA_SUCCESS) {
    flag = IDASetNonlinConvCoef(s->mem, NLS_COEF);
  }
#endif
#ifdef DCJ
  if (flag == IDA_SUCCESS) {
    flag = IDASetDeltaCjLSetup(s->mem, DCJ);
  }
#endif
#ifdef MAX_ORD
  if (flag == IDA_SUCCESS) {
    flag = IDASetMaxOrd(s->mem, MAX_ORD);
  }
#endif
  if (flag == IDA_SUCCESS && opt->h0 > 0.0) {
    flag = IDASetInitStep(s->mem, opt->h0);
  }
  if (flag == IDA_SUCCESS && opt->hmax > 0.0) {
    flag = IDASetMaxStep(s->mem, opt->hmax);
  }
  if (flag != IDA_SUCCESS) {
    return fail_flag(r, s->mem, d, flag);
  }
  return 0;
}

static int integrate(const daets_problem *p, const daets_options *opt, double *y, double *yp,
                     daets_result *r)
{
  int n = daets_problem_neq(p);
  double t0 = daets_problem_t0(p), tend = daets_problem_tend(p);
  long max_steps = opt->max_steps > 0 ? opt->max_steps : DEFAULT_MAX_STEPS;
  run_data d = {
      .p = p,
      .neq = n,
      .index = daets_problem_index(p),
      .rtol = opt->rtol,
      .atol = opt->atol,
      .h_first = opt->h0 > 0.0 ? opt->h0 : IDA_H0_FRACTION * fabs(tend - t0),
  };
  if (opt->hmax > 0.0 && d.h_first > opt->hmax) {
    d.h_first = opt->hmax;
  }
  resources s = {0};
  r->status = DAETS_OK;
  r->t = t0;
  r->h = 0.0;
  r->message[0] = '\0';
  memset(&r->stats, 0, sizeof r->stats);

  int status = setup(p, opt, y, yp, &d, &s, r);
  int next_out = 0;
  double t = t0;
  daets_stats base = {0}; /* counters of the runs before the last restart */
  int restarts_in_row = 0;
  while (status == 0) {
    int flag = IDASolve(s.mem, tend, &t, s.yv, s.ypv, IDA_ONE_STEP);
    collect_stats(s.mem, &base, &r->stats);
#ifdef IDA_DIAG
    if (flag < 0) {
      IDAMem im = (IDAMem)s.mem;
      double *ee = N_VGetArrayPointer(im->ida_ee), *w = N_VGetArrayPointer(im->ida_ewt);
      double *yy = N_VGetArrayPointer(s.yv);
      fprintf(stderr, "flag %d t=%.10g hh=%.3e hused=%.3e kk=%d kused=%d\n", flag, im->ida_tn, im->ida_hh, im->ida_hused, im->ida_kk, im->ida_kused);
      for (int i = 0; i < n; i++) {
        fprintf(stderr, "  %d ee=% .3e w=% .3e ee*w=% .3e y=% .6e\n", i, ee[i], w[i], ee[i] * w[i], yy[i]);
      }
    }
#endif
    if ((flag == IDA_ERR_FAIL || flag == IDA_CONV_FAIL) && restarts_in_row < MAX_RESTARTS_IN_ROW &&
        r->stats.steps < max_steps) {
      double h = 0.0;
      IDAGetCurrentStep(s.mem, &h);
      base = r->stats;
      d.h_first = fabs(h);
      restarts_in_row++;
      d.restarts++;
      flag = IDAReInit(s.mem, t, s.yv, s.ypv);
      if (flag == IDA_SUCCESS) {
        flag = IDASetInitStep(s.mem, h);
      }
      if (flag == IDA_SUCCESS) {
        continue;
      }
    }
    if (flag < 0) {
      status = fail_flag(r, s.mem, &d, flag);
      break;
    }
    restarts_in_row = 0;
#ifdef IDA_DIAG
    {
      double g[8];
      daets_problem_constraints(p, t, N_VGetArrayPointer(s.yv), N_VGetArrayPointer(s.ypv), g, NULL, NULL);
      long nni = 0, nsu = 0;
      double hu = 0, cj = 0;
      int ku = 0;
      IDAGetNumNonlinSolvIters(s.mem, &nni);
      IDAGetNumLinSolvSetups(s.mem, &nsu);
      IDAGetLastStep(s.mem, &hu);
      IDAGetLastOrder(s.mem, &ku);
      IDAGetCurrentCj(s.mem, &cj);
      if (getenv("DIAG_T") && t > atof(getenv("DIAG_T"))) {
        fprintf(stderr, "t=%.8f h=%.3e k=%d g=% .2e nni=%ld nsetups=%ld cj=%.3e\n", t, hu, ku, g[0], nni, nsu, cj);
      }
    }
#endif
    /* Interpolate inside the step just taken, [t - h, t]. */
    for (; next_out < opt->ntout && opt->tout[next_out] <= t; next_out++) {
      int dflag = IDAGetDky(s.mem, opt->tout[next_out], 0, s.dky);
      if (dflag != IDA_SUCCESS) {
        status = fail_flag(r, s.mem, &d, dflag);
        break;
      }
      memcpy(opt->yout + (size_t)next_out * (size_t)n, N_VGetArrayPointer(s.dky),
             sizeof(double) * (size_t)n);
    }
    if (status != 0) {
      break;
    }
    double hlast = 0.0;
    IDAGetLastStep(s.mem, &hlast);
    r->h = hlast;
    if (opt->on_step) {
      int order = 0;
      IDAGetLastOrder(s.mem, &order);
      opt->on_step(opt->on_step_ctx, t, hlast, order);
    }
    if (flag == IDA_TSTOP_RETURN || t >= tend) {
      break;
    }
    if (r->stats.steps >= max_steps) {
      double h = 0.0;
      IDAGetCurrentStep(s.mem, &h);
      status = daets_fail(r, DAETS_ERR_MAX_STEPS, t, h,
                          "IDA: %ld attempted steps reached the limit before tend = %g",
                          r->stats.steps, tend);
    }
  }
  if (status == 0) {
    memcpy(y, N_VGetArrayPointer(s.yv), sizeof(double) * (size_t)n);
    memcpy(yp, N_VGetArrayPointer(s.ypv), sizeof(double) * (size_t)n);
    r->t = t;
  } else if (s.yv && r->stats.accepted > 0) {
    /* Leave the last accepted state, where the run stopped. */
    memcpy(y, N_VGetArrayPointer(s.yv), sizeof(double) * (size_t)n);
    memcpy(yp, N_VGetArrayPointer(s.ypv), sizeof(double) * (size_t)n);
  }
#ifdef IDA_DEBUG
  fprintf(stderr, "restarts %d\n", d.restarts);
#endif
  release(&s);
  return status;
}

const solver_type daets_solver_ida = {
    "ida", "SUNDIALS IDA 6.4.1 (variable-order BDF), dense direct linear solver, analytic Jacobian",
    integrate};
