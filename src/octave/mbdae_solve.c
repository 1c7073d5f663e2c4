/* mbdae_solve: r = mbdae_solve(p, solver, opts), a run of a built-in solver (mbdae_solver_find:
 * ida, radau5, radau, bdf, mebdf, spm, ...) on p through the library's harness and record
 * (mbdae_record_run: the counters, CPU time, scd, mescd and constraint drift of `mbdae run`).
 * opts as mx_options (mex_record.h).  r is the record (mx_record_struct): y, scd, mescd, the
 * counters, status, code and message, and its runs.csv row in r.csv for mbdae_write_runs.
 *
 * Ctrl-C: the run's stop callback (mbdae_options.stop, polled after every accepted step) ends it
 * when a signal is pending; the record is freed and the interrupt raised (mx_raise_interrupt). */
#include "mex_record.h"

#include <string.h>

static int stop_on_interrupt(void *ctx, double t, const double *y, const double *yp)
{
  (void)t;
  (void)y;
  (void)yp;
  int *stopped = ctx;
  if (mx_interrupt_pending()) {
    *stopped = 1;
  }
  return *stopped;
}

static void unknown_solver(const char *id)
{
  char list[512] = "";
  for (int i = 0; i < mbdae_solver_count(); i++) {
    size_t len = strlen(list);
    snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", mbdae_solver_id(i));
  }
  mx_fail("solver", "unknown solver '%s' (built-in: %s)", id, list);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  mx_arity(nrhs, 2, 3, nlhs, 1, "r = mbdae_solve(p, solver[, opts])");
  const mbdae_problem *p = mx_problem(prhs[0], "p");
  char *id = mx_string(prhs[1], "solver");
  const mbdae_solver_type *solver = mbdae_solver_find(id);
  if (!solver) {
    unknown_solver(id);
  }
  mbdae_options opt;
  int repeats, stopped = 0;
  mx_options(nrhs > 2 ? prhs[2] : NULL, p, &opt, &repeats);
  if (!strstr(mbdae_problem_spec(p), "form=dummy")) { /* mbdae_solve_dummy refuses stop */
    opt.stop = stop_on_interrupt;
    opt.stop_ctx = &stopped;
  }
  mbdae_record rec = MBDAE_RECORD_INIT;
  int rc = mbdae_record_run(&rec, p, solver, &opt, repeats);
  mxArray *s = NULL;
  if (!stopped && rc != MBDAE_ERR_NOMEM && rc != MBDAE_ERR_ARG) {
    s = mx_record_struct(&rec);
  }
  char message[MBDAE_RECORD_TEXT_LEN];
  snprintf(message, sizeof message, "%s", rec.message[0] ? rec.message : mbdae_strerror(rc));
  mbdae_record_free(&rec);
  if (stopped) {
    mx_raise_interrupt();
  }
  if (rc == MBDAE_ERR_ARG) {
    mx_fail("arg", "%s", message);
  }
  if (!s) {
    mx_fail("nomem", "out of memory");
  }
  plhs[0] = s;
}
