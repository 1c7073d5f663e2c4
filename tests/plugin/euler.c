/* An external solver for mbdae, written against the installed public header only: the implicit
 * (backward) Euler method with a fixed step on F(t, y, y') = 0,
 *
 *   F(t_{n+1}, y_{n+1}, (y_{n+1} - y_n) / h) = 0,
 *
 * solved by Newton's method with the iteration matrix dF/dy + (1/h) dF/dy' (Hairer & Wanner,
 * Solving ODEs II, VI.1 and VII.3: the method converges for index-1 problems and, on the positions,
 * for the index-3 mechanical problems).  The step is (tend - t0) / N with N = ceil(10 /
 * sqrt(rtol)), no larger than hmax; output at requested times is linear interpolation.  This is an
 * example of the solver interface, not a solver to compare with: it is first order.  After every
 * step it calls on_step, then on_accept with the state (the contract of mbdae_solver_type in
 * mbdae/solve.h: the harness measures the constraint drift there), then stop.
 *
 * Built as a plug-in (mbdae_plugin_solvers below) it runs in `mbdae run/table/sweep/plot/bench
 * --plugin ./libeuler.so --solver euler`; linked into a program it runs with mbdae_solve_with. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbdae/mbdae.h>

#define AT(a, n, i, j) (a)[(size_t)(i) + (size_t)(j) * (size_t)(n)]

/* LU with partial pivoting in place; 0, or 1 when a pivot is zero. */
static int lu_factor(int n, double *a, int *piv)
{
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) {
      if (fabs(AT(a, n, i, k)) > fabs(AT(a, n, p, k))) {
        p = i;
      }
    }
    piv[k] = p;
    if (AT(a, n, p, k) == 0.0) {
      return 1;
    }
    for (int j = 0; j < n; j++) {
      double t = AT(a, n, k, j);
      AT(a, n, k, j) = AT(a, n, p, j);
      AT(a, n, p, j) = t;
    }
    for (int i = k + 1; i < n; i++) {
      AT(a, n, i, k) /= AT(a, n, k, k);
      for (int j = k + 1; j < n; j++) {
        AT(a, n, i, j) -= AT(a, n, i, k) * AT(a, n, k, j);
      }
    }
  }
  return 0;
}

static void lu_solve(int n, const double *a, const int *piv, double *b)
{
  for (int k = 0; k < n; k++) {
    double t = b[k];
    b[k] = b[piv[k]];
    b[piv[k]] = t;
    for (int i = k + 1; i < n; i++) {
      b[i] -= AT(a, n, i, k) * b[k];
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    b[k] /= AT(a, n, k, k);
    for (int i = 0; i < k; i++) {
      b[i] -= AT(a, n, i, k) * b[k];
    }
  }
}

typedef struct work {
  int n;
  double *ynew, *ypnew, *res, *dfdy, *dfdyp, *lu;
  int *piv;
} work;

/* Newton for y_{n+1} from y at t + h: 0 when converged, else a negative code. */
static int implicit_step(const mbdae_problem *p, const mbdae_options *opt, double t, double h,
                         const double *y, work *w, mbdae_stats *st)
{
  int n = w->n;
  memcpy(w->ynew, y, sizeof(double) * (size_t)n);
  for (int it = 0; it < 7; it++) {
    for (int i = 0; i < n; i++) {
      w->ypnew[i] = (w->ynew[i] - y[i]) / h;
    }
    st->nres++;
    if (mbdae_problem_res(p, t + h, w->ynew, w->ypnew, w->res) != 0) {
      return MBDAE_ERR_RES;
    }
    if (it == 0) {
      st->njac++;
      st->nres_fd += mbdae_problem_jac_nres(p);
      if (mbdae_problem_jac(p, t + h, w->ynew, w->ypnew, w->dfdy, w->dfdyp) != 0) {
        return MBDAE_ERR_RES;
      }
      for (size_t k = 0; k < (size_t)n * (size_t)n; k++) {
        w->lu[k] = w->dfdy[k] + w->dfdyp[k] / h;
      }
      st->nlu++;
      if (lu_factor(n, w->lu, w->piv) != 0) {
        return MBDAE_ERR_SINGULAR;
      }
    }
    lu_solve(n, w->lu, w->piv, w->res);
    /* index-aware scaling: a variable of index k >= 2 is measured in units of h^(k-1) */
    const int *index = mbdae_problem_index(p);
    double norm = 0.0;
    for (int i = 0; i < n; i++) {
      w->ynew[i] -= w->res[i];
      double scale = (opt->atol + opt->rtol * fabs(w->ynew[i])) / pow(h, fmax(index[i] - 1, 0));
      norm = fmax(norm, fabs(w->res[i]) / scale);
    }
    if (norm < 1e-2) {
      return 0;
    }
  }
  st->nconvfail++;
  return MBDAE_ERR_CONV;
}

/* y_out(tau) on the segment from (t, y) to (t + h, ynew), linear. */
static void interpolate(const mbdae_options *opt, int n, double t, double h, const double *y,
                        const double *ynew, int *next)
{
  while (*next < opt->ntout && opt->tout[*next] <= t + h) {
    double s = (opt->tout[*next] - t) / h;
    for (int i = 0; i < n; i++) {
      opt->yout[(size_t)*next * (size_t)n + (size_t)i] = (1.0 - s) * y[i] + s * ynew[i];
    }
    (*next)++;
  }
}

static int euler_loop(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                      work *w, mbdae_result *r)
{
  int n = w->n;
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  double steps = ceil(10.0 / sqrt(opt->rtol));
  if (opt->hmax > 0.0) {
    steps = fmax(steps, ceil((tend - t0) / opt->hmax));
  }
  long max_steps = opt->max_steps > 0 ? opt->max_steps : 1000000;
  double h = (tend - t0) / steps, t = t0;
  int next = 0;
  interpolate(opt, n, t0 - 1.0, 1.0, y, y, &next); /* output times at t0 */
  for (long k = 0; k < (long)steps; k++) {
    if (r->stats.steps >= max_steps) {
      r->t = t, r->h = h;
      snprintf(r->message, sizeof r->message, "t = %g, h = %g: %ld steps", t, h, max_steps);
      return r->status = MBDAE_ERR_MAX_STEPS;
    }
    r->stats.steps++;
    int rc = implicit_step(p, opt, t, h, y, w, &r->stats);
    if (rc != 0) {
      r->t = t, r->h = h;
      snprintf(r->message, sizeof r->message, "t = %g, h = %g: %s", t, h, mbdae_strerror(rc));
      return r->status = rc;
    }
    interpolate(opt, n, t, h, y, w->ynew, &next);
    memcpy(y, w->ynew, sizeof(double) * (size_t)n);
    memcpy(yp, w->ypnew, sizeof(double) * (size_t)n);
    t = (k + 1 == (long)steps) ? tend : t0 + (double)(k + 1) * h;
    r->stats.accepted++;
    if (opt->on_step) {
      opt->on_step(opt->on_step_ctx, t, h, 1);
    }
    if (opt->on_accept) { /* the state after the step: the harness measures the drift here */
      opt->on_accept(opt->on_accept_ctx, t, y, yp);
    }
    if (opt->stop && opt->stop(opt->stop_ctx, t, y, yp)) {
      r->t = t, r->h = h;
      return r->status = MBDAE_OK; /* stopped by the caller, successfully, at t */
    }
  }
  r->t = tend, r->h = h;
  return r->status = MBDAE_OK;
}

static int euler_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                           mbdae_result *r)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  work w = {.n = (int)n};
  double *block = malloc(sizeof(double) * (3 * n + 3 * n * n));
  w.piv = malloc(sizeof(int) * n);
  if (!block || !w.piv) {
    free(block);
    free(w.piv);
    snprintf(r->message, sizeof r->message, "out of memory");
    return r->status = MBDAE_ERR_NOMEM;
  }
  w.ynew = block, w.ypnew = block + n, w.res = block + 2 * n;
  w.dfdy = block + 3 * n, w.dfdyp = w.dfdy + n * n, w.lu = w.dfdyp + n * n;
  int rc = euler_loop(p, opt, y, yp, &w, r);
  free(block);
  free(w.piv);
  return rc;
}

const mbdae_solver_type euler_solver = {
    .size = sizeof(mbdae_solver_type),
    .id = "euler",
    .title = "implicit Euler, fixed step (example plug-in)",
    .integrate = euler_integrate,
};

static const mbdae_solver_type *const solvers[] = {&euler_solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return 1;
}
