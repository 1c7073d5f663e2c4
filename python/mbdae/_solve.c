/* mbdae._mbdae.solve, Run and Harness: a run of one solver on one problem, through the library's
 * harness and record (mbdae_record_run: the same record, counters, timing, scd, mescd and drift
 * as `mbdae run --json`).
 *
 * A built-in or plug-in solver runs with the GIL released.  So that Ctrl-C stops it, the run's
 * options.stop (called after every accepted step; a nonzero return ends the run there) looks at a
 * monotonic clock and, every INTERRUPT_SECONDS, takes the GIL back for PyErr_CheckSignals: when a
 * signal handler raised (SIGINT: KeyboardInterrupt), the run ends and solve raises that exception
 * (only in the main thread, where Python runs its signal handlers; not for form=dummy, whose
 * driver refuses options.stop).  A Python callable runs as a mbdae_solver_type whose integrate
 * calls back into Python with the GIL held: the type has no context pointer, so the callable of
 * the run in progress is found through a thread-local variable (one run per thread at a time;
 * nested runs keep their own).  The callable sees a Harness: a residual and Jacobian that count
 * into the run's statistics, on_accept (which feeds the harness's drift measurement and the
 * accepted-state log), and finish(), which hands back the end state and the solver's own
 * counters, checked as the harness checks a plug-in's report.  An exception of the callable ends
 * the run as a failure, except a BaseException that is no Exception (KeyboardInterrupt,
 * SystemExit), which solve raises.  A Harness is valid only during its run. */
#include "_mbdae.h"

#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>

/* ---- accepted states ------------------------------------------------------------------------ */

/* What on_accept saw: the last state (y'(tend) is not in the record), and every state when the
 * caller asked for t_eval="steps", after the initial state (as `mbdae run --trajectory`).  Written
 * with the GIL released: plain C only. */
typedef struct accept_log {
  int n;
  int keep; /* 1: store every accepted state */
  double *t, *y, *yp;
  size_t count, cap;
  double *yp_last;
  int have_last, nomem;
  int by_time; /* 1: a time not after the last one logged starts a new run (repeats of a C solver)
                */
} accept_log;

/* Room for one more state; 0, or -1 (out of memory, log->nomem set). */
static int log_grow(accept_log *log)
{
  size_t n = (size_t)log->n;
  if (log->count < log->cap) {
    return 0;
  }
  size_t cap = log->cap ? 2 * log->cap : 64;
  double *tt = realloc(log->t, sizeof(double) * cap);
  log->t = tt ? tt : log->t;
  double *yy = tt ? realloc(log->y, sizeof(double) * cap * n) : NULL;
  log->y = yy ? yy : log->y;
  double *pp = yy ? realloc(log->yp, sizeof(double) * cap * n) : NULL;
  log->yp = pp ? pp : log->yp;
  if (!pp) {
    log->nomem = 1;
    return -1;
  }
  log->cap = cap;
  return 0;
}

static void log_state(accept_log *log, double t, const double *y, const double *yp)
{
  size_t n = (size_t)log->n;
  if (log->nomem || log_grow(log) != 0) {
    return;
  }
  log->t[log->count] = t;
  memcpy(log->y + log->count * n, y, sizeof(double) * n);
  memcpy(log->yp + log->count * n, yp, sizeof(double) * n);
  log->count++;
}

static void log_accept(void *ctx, double t, const double *y, const double *yp)
{
  accept_log *log = ctx;
  memcpy(log->yp_last, yp, sizeof(double) * (size_t)log->n);
  log->have_last = 1;
  if (!log->keep) {
    return;
  }
  if (log->by_time && log->count > 1 && !(t > log->t[log->count - 1])) {
    log->count = 1; /* the next repeat: keep the initial state only */
  }
  log_state(log, t, y, yp);
}

static void log_free(accept_log *log)
{
  free(log->t);
  free(log->y);
  free(log->yp);
  free(log->yp_last);
}

/* ---- Run: the outcome of solve() ------------------------------------------------------------ */

static int run_traverse(mbpy_run *self, visitproc visit, void *arg)
{
  Py_VISIT(self->yp);
  Py_VISIT(self->t_out);
  Py_VISIT(self->y_out);
  Py_VISIT(self->yp_out);
  Py_VISIT(self->exception);
  Py_VISIT(self->linsys);
  return 0;
}

static int run_clear(mbpy_run *self)
{
  Py_CLEAR(self->yp);
  Py_CLEAR(self->t_out);
  Py_CLEAR(self->y_out);
  Py_CLEAR(self->yp_out);
  Py_CLEAR(self->exception);
  Py_CLEAR(self->linsys);
  return 0;
}

static void run_dealloc(mbpy_run *self)
{
  PyObject_GC_UnTrack(self);
  run_clear(self);
  mbdae_record_free(&self->rec);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

mbpy_run *mbpy_run_new(void)
{
  mbpy_run *run = PyObject_GC_New(mbpy_run, &mbpy_run_type);
  if (run) {
    memset(&run->rec, 0, sizeof *run - offsetof(mbpy_run, rec));
    run->rec.size = sizeof run->rec;
  }
  return run;
}

PyObject *mbpy_run_finish(mbpy_run *run)
{
  PyObject **fields[] = {&run->yp,     &run->t_out,     &run->y_out,
                         &run->yp_out, &run->exception, &run->linsys};
  for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
    if (!*fields[k]) {
      *fields[k] = Py_NewRef(Py_None);
    }
  }
  PyObject_GC_Track(run);
  return (PyObject *)run;
}

/* json() -> the record as mbdae_record_write_json writes it, with "linsys" first as `mbdae run
 * --json` prints it (when known: a record read back from runs.csv has none). */
static PyObject *run_json(mbpy_run *self, PyObject *unused)
{
  (void)unused;
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  int rc = mem ? mbdae_record_write_json(mem, &self->rec) : -1;
  if (!mem || fclose(mem) != 0 || rc != 0 || len < 2 || text[0] != '{') {
    free(text);
    return PyErr_NoMemory();
  }
  PyObject *result = self->linsys && self->linsys != Py_None
                         ? PyUnicode_FromFormat("{\"linsys\": \"%U\", %s", self->linsys, text + 1)
                         : PyUnicode_FromString(text);
  free(text);
  return result;
}

static PyMethodDef run_methods[] = {
    {"json", (PyCFunction)run_json, METH_NOARGS, "the run record as `mbdae run --json` prints it"},
    {NULL, NULL, 0, NULL}};

static PyObject *run_status(mbpy_run *self, void *c)
{
  (void)c;
  return PyLong_FromLong(self->rec.status);
}

static PyObject *run_field(mbpy_run *self, void *which)
{
  PyObject *f = which == (void *)0   ? self->yp
                : which == (void *)1 ? self->t_out
                : which == (void *)2 ? self->y_out
                : which == (void *)3 ? self->yp_out
                                     : self->exception;
  return Py_NewRef(f ? f : Py_None);
}

static PyGetSetDef run_getset[] = {
    {"status", (getter)run_status, NULL, "MBDAE_OK (0) or a negative code", NULL},
    {"yp", (getter)run_field, NULL, "y' at the end (last accepted state), or None", (void *)0},
    {"t_out", (getter)run_field, NULL, "times of the output states, or None", (void *)1},
    {"y_out", (getter)run_field, NULL, "output states, one row per time, or None", (void *)2},
    {"yp_out", (getter)run_field, NULL, "y' at the accepted steps, or None", (void *)3},
    {"exception", (getter)run_field, NULL, "what a Python solver raised, or None", (void *)4},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject mbpy_run_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mbdae._mbdae.Run",
    .tp_basicsize = sizeof(mbpy_run),
    .tp_dealloc = (destructor)run_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The record of one run (mbdae_record) and its outputs; made by solve().",
    .tp_traverse = (traverseproc)run_traverse,
    .tp_clear = (inquiry)run_clear,
    .tp_methods = run_methods,
    .tp_getset = run_getset,
};

/* ---- Harness: what a Python solver sees ----------------------------------------------------- */

typedef struct mbpy_harness {
  PyObject_HEAD const mbdae_problem *p; /* NULL once the run is over */
  const mbdae_options *opt;
  double *y, *yp; /* the solver's in/out vectors */
  mbdae_result *r;
  int n;
  double t_last; /* the last accepted time (on_step's step size) */
  int finished;
} mbpy_harness;

static int harness_live(const mbpy_harness *h)
{
  if (!h->p) {
    PyErr_SetString(PyExc_RuntimeError, "this Harness belongs to a run that is over");
    return 0;
  }
  return 1;
}

/* residual(t, y, yp, out=None): F, counted in nres. */
static PyObject *harness_residual(mbpy_harness *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
  if (!harness_live(self)) {
    return NULL;
  }
  return mbpy_residual(self->p, self->n, args, nargs, kwnames, &self->r->stats.nres);
}

/* jacobian(t, y, yp) -> (dF/dy, dF/dy') dense, counted in njac (and nres_fd where differenced). */
static PyObject *harness_jacobian(mbpy_harness *self, PyObject *args)
{
  double t;
  PyObject *oy, *oyp;
  mbpy_vector y, yp;
  if (!harness_live(self) || !PyArg_ParseTuple(args, "dOO:jacobian", &t, &oy, &oyp) ||
      mbpy_vector_in(oy, self->n, "y", &y) != 0) {
    return NULL;
  }
  if (mbpy_vector_in(oyp, self->n, "yp", &yp) != 0) {
    Py_XDECREF(y.owned);
    return NULL;
  }
  npy_intp dims[2] = {self->n, self->n};
  PyObject *a = PyArray_ZEROS(2, dims, NPY_DOUBLE, 1), *b = PyArray_ZEROS(2, dims, NPY_DOUBLE, 1);
  PyObject *result = NULL;
  if (a && b) {
    self->r->stats.njac++;
    self->r->stats.nres_fd += mbdae_problem_jac_nres(self->p);
    int rc = mbdae_problem_jac(self->p, t, y.data, yp.data, PyArray_DATA((PyArrayObject *)a),
                               PyArray_DATA((PyArrayObject *)b));
    result = rc ? mbpy_raise(mbpy_error, rc, "the Jacobian failed") : PyTuple_Pack(2, a, b);
  }
  Py_XDECREF(a);
  Py_XDECREF(b);
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  return result;
}

/* on_accept(t, y, yp): an accepted state; counts accepted steps and passes the state on (the
 * harness's drift, the run's log). */
static PyObject *harness_on_accept(mbpy_harness *self, PyObject *args)
{
  double t;
  PyObject *oy, *oyp;
  mbpy_vector y, yp;
  if (!harness_live(self) || !PyArg_ParseTuple(args, "dOO:on_accept", &t, &oy, &oyp) ||
      mbpy_vector_in(oy, self->n, "y", &y) != 0) {
    return NULL;
  }
  if (mbpy_vector_in(oyp, self->n, "yp", &yp) != 0) {
    Py_XDECREF(y.owned);
    return NULL;
  }
  self->r->stats.accepted++;
  if (self->opt->on_step) {
    self->opt->on_step(self->opt->on_step_ctx, t, t - self->t_last, 0);
  }
  if (self->opt->on_accept) {
    self->opt->on_accept(self->opt->on_accept_ctx, t, y.data, yp.data);
  }
  self->t_last = t;
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  Py_RETURN_NONE;
}

/* Copy a vector argument of n values into dst; 0, or -1 with an exception. */
static int copy_vector(PyObject *obj, int n, const char *what, double *dst)
{
  mbpy_vector v;
  if (mbpy_vector_in(obj, n, what, &v) != 0) {
    return -1;
  }
  memcpy(dst, v.data, sizeof(double) * (size_t)n);
  Py_XDECREF(v.owned);
  return 0;
}

/* The states at the output times (ntout x n) into opt->yout. */
static int copy_outputs(mbpy_harness *self, PyObject *obj)
{
  npy_intp nt = self->opt->ntout;
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 2, 2, NPY_ARRAY_IN_ARRAY);
  if (!a) {
    return -1;
  }
  if (PyArray_DIM(a, 0) != nt || PyArray_DIM(a, 1) != self->n) {
    PyErr_Format(PyExc_ValueError, "y_eval: %zd x %zd values given, %zd x %d expected",
                 (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)PyArray_DIM(a, 1), (Py_ssize_t)nt,
                 self->n);
    Py_DECREF(a);
    return -1;
  }
  memcpy(self->opt->yout, PyArray_DATA(a), sizeof(double) * (size_t)nt * (size_t)self->n);
  Py_DECREF(a);
  return 0;
}

/* What is wrong with an outcome the harness's own check (counters, a finite y at the end) does not
 * look at, into why; 0 when nothing: a status from the library's table (0 or negative), t a number
 * in [t0, tend] and tend itself on success, and on success every state at t_eval finite. */
static int outcome_wrong(const mbpy_harness *self, int status, double t, char *why, size_t len)
{
  double t0 = mbdae_problem_t0(self->p), tend = mbdae_problem_tend(self->p);
  if (status > 0 || strcmp(mbdae_strcode(status), "unknown") == 0) {
    snprintf(why, len,
             "the Python solver returned status %d, not 0 or a negative code of "
             "mbdae.Status",
             status);
    return 1;
  }
  if (!(t >= t0 && t <= tend)) {
    snprintf(why, len, "the Python solver ended at t = %.17g, not a time in [t0, tend] = [%g, %g]",
             t, t0, tend);
    return 1;
  }
  if (status == 0 && t != tend) {
    snprintf(why, len, "the Python solver reported success at t = %.17g, not at tend = %.17g", t,
             tend);
    return 1;
  }
  size_t n = (size_t)self->n;
  for (size_t k = 0; status == 0 && k < (size_t)self->opt->ntout * n; k++) {
    if (!isfinite(self->opt->yout[k])) {
      snprintf(why, len,
               "the Python solver reported success, but y_eval[%zu, %zu] (%s at t = %g) = "
               "%g is not finite",
               k / n, k % n, mbdae_problem_component(self->p, (int)(k % n)), self->opt->tout[k / n],
               self->opt->yout[k]);
      return 1;
    }
  }
  return 0;
}

/* finish(status, t, y, yp, message, steps, nlu, nerrfail, nconvfail, h, y_eval): the outcome. */
static PyObject *harness_finish(mbpy_harness *self, PyObject *args, PyObject *kwargs)
{
  static char *keywords[] = {"status", "t",        "y",         "yp", "message", "steps",
                             "nlu",    "nerrfail", "nconvfail", "h",  "y_eval",  NULL};
  int status;
  double t, h = NAN;
  PyObject *oy, *oyp, *oeval = Py_None;
  const char *message = "";
  long steps = -1, nlu = 0, nerrfail = 0, nconvfail = 0;
  if (!harness_live(self) || !PyArg_ParseTupleAndKeywords(
                                 args, kwargs, "idOO|slllldO:finish", keywords, &status, &t, &oy,
                                 &oyp, &message, &steps, &nlu, &nerrfail, &nconvfail, &h, &oeval)) {
    return NULL;
  }
  if (steps < -1 || nlu < 0 || nerrfail < 0 || nconvfail < 0) {
    return PyErr_Format(PyExc_ValueError, "finish: counters must not be negative");
  }
  if (copy_vector(oy, self->n, "y", self->y) != 0 ||
      copy_vector(oyp, self->n, "yp", self->yp) != 0) {
    return NULL;
  }
  if (self->opt->ntout > 0 && status == 0) {
    if (oeval == Py_None) {
      status = MBDAE_ERR_UNSUPPORTED;
      message = "the Python solver gave no states at t_eval (y_eval)";
    } else if (copy_outputs(self, oeval) != 0) {
      return NULL;
    }
  }
  char why[sizeof self->r->message];
  if (outcome_wrong(self, status, t, why, sizeof why)) {
    status = MBDAE_ERR_SOLVER;
    message = why;
    for (size_t k = 0; k < (size_t)self->opt->ntout * (size_t)self->n; k++) {
      self->opt->yout[k] = NAN; /* nothing of a refused outcome is kept */
    }
  }
  mbdae_stats *st = &self->r->stats;
  st->steps = steps >= 0 ? steps : st->accepted;
  st->nlu = nlu;
  st->nerrfail = nerrfail;
  st->nconvfail = nconvfail;
  self->r->status = status;
  self->r->t = t;
  self->r->h = h;
  snprintf(self->r->message, sizeof self->r->message, "%s", message);
  self->finished = 1;
  Py_RETURN_NONE;
}

static PyObject *harness_get(mbpy_harness *self, void *which)
{
  if (!harness_live(self)) {
    return NULL;
  }
  const mbdae_options *o = self->opt;
  switch ((int)(Py_intptr_t)which) {
  case 0:
    return mbpy_vector_new(self->n, self->y);
  case 1:
    return mbpy_vector_new(self->n, self->yp);
  case 2:
    return Py_BuildValue("{s:d,s:d,s:d,s:d,s:l}", "rtol", o->rtol, "atol", o->atol, "h0", o->h0,
                         "hmax", o->hmax, "max_steps", o->max_steps);
  case 3:
    return mbpy_vector_new(o->ntout, o->tout);
  default:
    return Py_BuildValue("(dd)", mbdae_problem_t0(self->p), mbdae_problem_tend(self->p));
  }
}

static PyMethodDef harness_methods[] = {
    {"residual", (PyCFunction)(void (*)(void))harness_residual, METH_FASTCALL | METH_KEYWORDS,
     "residual(t, y, yp, out=None) -> F(t, y, y'), counted in the run's nres."},
    {"jacobian", (PyCFunction)harness_jacobian, METH_VARARGS,
     "jacobian(t, y, yp) -> (dF/dy, dF/dy') dense, counted in the run's njac."},
    {"on_accept", (PyCFunction)harness_on_accept, METH_VARARGS,
     "on_accept(t, y, yp): report an accepted state (counted in accepted; drift is measured)."},
    {"finish", (PyCFunction)(void (*)(void))harness_finish, METH_VARARGS | METH_KEYWORDS,
     "finish(status, t, y, yp, message='', steps=accepted, nlu=0, nerrfail=0, nconvfail=0, h=nan, "
     "y_eval=None): the outcome of the run."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef harness_getset[] = {
    {"y0", (getter)harness_get, NULL, "consistent initial values", (void *)0},
    {"yp0", (getter)harness_get, NULL, "consistent initial derivatives", (void *)1},
    {"options", (getter)harness_get, NULL, "rtol, atol, h0, hmax, max_steps", (void *)2},
    {"t_eval", (getter)harness_get, NULL, "output times (empty: none)", (void *)3},
    {"interval", (getter)harness_get, NULL, "(t0, tend)", (void *)4},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject mbpy_harness_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mbdae._mbdae.Harness",
    .tp_basicsize = sizeof(mbpy_harness),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "What a Python solver sees of its run (valid during the run only).",
    .tp_methods = harness_methods,
    .tp_getset = harness_getset,
};

/* ---- the Python solver as a mbdae_solver_type ----------------------------------------------- */

typedef struct python_call {
  PyObject *runner;    /* runner(harness): calls the user's callable, then harness.finish */
  PyObject *exception; /* what it raised (an Exception: the run failed), or NULL */
  PyObject *fatal;     /* what it raised that is no Exception (KeyboardInterrupt): solve raises */
  accept_log *log;     /* emptied (but for the initial state) before each repeat */
} python_call;

static _Thread_local python_call *current_call;

/* The exception being raised, normalized and with its traceback attached (a new reference). */
static PyObject *fetch_exception(void)
{
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (tb && value) {
    PyException_SetTraceback(value, tb);
  }
  Py_XDECREF(type);
  Py_XDECREF(tb);
  return value;
}

/* The callable raised: a failed run that says what, or (no Exception) one to end solve with. */
static void python_raised(python_call *call, mbdae_result *r)
{
  PyObject *value = fetch_exception();
  r->status = MBDAE_ERR_SOLVER;
  if (value && !PyErr_GivenExceptionMatches(value, PyExc_Exception)) {
    snprintf(r->message, sizeof r->message, "interrupted (%s)", Py_TYPE(value)->tp_name);
    Py_XSETREF(call->fatal, value);
    return;
  }
  PyObject *text = value ? PyObject_Str(value) : NULL;
  const char *utf8 = text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : NULL;
  snprintf(r->message, sizeof r->message, "the Python solver raised %s: %s",
           value ? Py_TYPE(value)->tp_name : "an exception", utf8 ? utf8 : "");
  PyErr_Clear();
  Py_XDECREF(text);
  Py_XSETREF(call->exception, value);
}

static int python_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                            mbdae_result *r)
{
  python_call *call = current_call;
  if (!call || call->fatal) { /* a repeat after Ctrl-C does not run */
    r->status = MBDAE_ERR_SOLVER;
    snprintf(r->message, sizeof r->message, "interrupted");
    return r->status;
  }
  mbpy_harness *h = PyObject_New(mbpy_harness, &mbpy_harness_type);
  if (!h) {
    PyErr_Clear();
    r->status = MBDAE_ERR_NOMEM;
    return r->status;
  }
  *h = (mbpy_harness){.ob_base = h->ob_base,
                      .p = p,
                      .opt = opt,
                      .y = y,
                      .yp = yp,
                      .r = r,
                      .n = mbdae_problem_neq(p),
                      .t_last = mbdae_problem_t0(p)};
  r->t = mbdae_problem_t0(p);
  r->h = NAN;
  call->log->count = call->log->count > 0 ? 1 : 0;
  PyObject *out = PyObject_CallOneArg(call->runner, (PyObject *)h);
  if (!out) {
    python_raised(call, r);
  } else if (!h->finished) {
    snprintf(r->message, sizeof r->message, "the Python solver returned without an outcome");
    r->status = MBDAE_ERR_SOLVER;
  }
  Py_XDECREF(out);
  h->p = NULL; /* calls after the run raise */
  Py_DECREF(h);
  return r->status;
}

/* ---- Ctrl-C during a C solver's run --------------------------------------------------------- */

#define INTERRUPT_SECONDS 0.05 /* how often a run with the GIL released looks for a signal */

static double monotonic_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* options.stop: nonzero (end the run) once a signal handler has raised. */
static int interrupt_stop(void *ctx, double t, const double *y, const double *yp)
{
  (void)t;
  (void)y;
  (void)yp;
  mbpy_interrupt *ic = ctx;
  double now = monotonic_seconds();
  if (ic->raised || now < ic->next) {
    return ic->raised != NULL;
  }
  ic->next = now + INTERRUPT_SECONDS;
  PyEval_RestoreThread(ic->saved);
  if (PyErr_CheckSignals() != 0) {
    ic->raised = fetch_exception();
  }
  ic->saved = PyEval_SaveThread();
  return ic->raised != NULL;
}

int mbpy_interrupt_allowed(const mbdae_problem *p)
{
  return strstr(mbdae_problem_spec(p), "form=dummy") == NULL;
}

void mbpy_interrupt_watch(mbpy_interrupt *ic, mbdae_options *opt)
{
  opt->stop = interrupt_stop;
  opt->stop_ctx = ic;
}

void mbpy_interrupt_release(mbpy_interrupt *ic)
{
  ic->next = monotonic_seconds() + INTERRUPT_SECONDS;
  ic->saved = PyEval_SaveThread();
}

void mbpy_interrupt_reacquire(mbpy_interrupt *ic) { PyEval_RestoreThread(ic->saved); }

/* ---- solve ---------------------------------------------------------------------------------- */

/* A float64 array of the logged states (rows of n values when n > 0, else the times). */
static PyObject *log_array(const accept_log *log, const double *data, int rows_of_n)
{
  npy_intp nt = (npy_intp)log->count, dims[2] = {nt, log->n};
  PyObject *a = PyArray_SimpleNew(rows_of_n ? 2 : 1, dims, NPY_DOUBLE);
  if (a && nt > 0) {
    memcpy(PyArray_DATA((PyArrayObject *)a), data,
           sizeof(double) * (size_t)nt * (rows_of_n ? (size_t)log->n : 1));
  }
  return a;
}

/* The output arrays of a run into the Run object; 0, or -1 with an exception. */
static int run_outputs(mbpy_run *run, const accept_log *log, PyObject *tout, const double *yout)
{
  npy_intp n = log->n;
  run->yp = log->have_last ? mbpy_vector_new(n, log->yp_last) : Py_NewRef(Py_None);
  if (tout != Py_None) {
    npy_intp dims[2] = {PyArray_DIM((PyArrayObject *)tout, 0), n};
    run->t_out = Py_NewRef(tout);
    run->y_out = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (run->y_out) {
      memcpy(PyArray_DATA((PyArrayObject *)run->y_out), yout,
             sizeof(double) * (size_t)(dims[0] * n));
    }
  } else if (log->keep) {
    run->t_out = log_array(log, log->t, 0);
    run->y_out = log_array(log, log->y, 1);
    run->yp_out = log_array(log, log->yp, 1);
    if (!run->yp_out) {
      return -1;
    }
  }
  int arrays = (tout == Py_None && !log->keep) || (run->t_out && run->y_out);
  return run->yp && arrays ? 0 : -1;
}

/* The record of the run (mbdae_record_run) with the GIL released for a C solver (options.stop
 * looking for signals when ic is not NULL), held for a Python one. */
static int record_run(mbpy_run *run, const mbdae_problem *p, const mbdae_solver_type *type,
                      mbdae_options *opt, int repeats, python_call *call, mbpy_interrupt *ic)
{
  int rc;
  if (call) {
    python_call *outer = current_call;
    current_call = call;
    rc = mbdae_record_run(&run->rec, p, type, opt, repeats);
    current_call = outer;
    run->exception = call->exception;
    call->exception = NULL;
  } else if (ic) {
    mbpy_interrupt_watch(ic, opt);
    mbpy_interrupt_release(ic);
    rc = mbdae_record_run(&run->rec, p, type, opt, repeats);
    mbpy_interrupt_reacquire(ic);
  } else {
    PyThreadState *saved = PyEval_SaveThread();
    rc = mbdae_record_run(&run->rec, p, type, opt, repeats);
    PyEval_RestoreThread(saved);
  }
  return rc;
}

/* The log of a run of p: the initial state first when every state is kept; 0, or -1 with an
 * exception. */
static int log_start(accept_log *log, const mbdae_problem *p)
{
  log->yp_last = malloc(sizeof(double) * (size_t)log->n);
  double *y0 = malloc(sizeof(double) * 2 * (size_t)log->n);
  if (!log->yp_last || !y0) {
    free(y0);
    PyErr_NoMemory();
    return -1;
  }
  if (log->keep && mbdae_problem_init(p, y0, y0 + log->n) == 0) {
    log_state(log, mbdae_problem_t0(p), y0, y0 + log->n);
  }
  free(y0);
  return 0;
}

/* The exception a run ends with instead of its Run (Ctrl-C, SystemExit), restored; 1, or 0 when
 * there is none. */
int mbpy_raise_instead(PyObject *value)
{
  if (!value) {
    return 0;
  }
  PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(value)), value, PyException_GetTraceback(value));
  return 1;
}

/* The digits along the solution (tscd, tmescd, tscd_rms) of a C solver's run without t_eval: its
 * on_accept log makes the run the caller's (the harness measures them only in a run of its own),
 * so the reference trajectory's times go in as output times here, into yout of its own, and the
 * digits into the record, as the command's record has them (the built-in solvers interpolate
 * without changing a step).  A solver refusing output times is run again without them. */
typedef struct traj_out {
  size_t nt;
  double *yout, *yref; /* nt * n each */
} traj_out;

/* opt given p's reference trajectory times, or tr->nt 0 (none, or no memory: no digits). */
static void traj_prepare(const mbdae_problem *p, mbdae_options *opt, traj_out *tr)
{
  const double *t = NULL;
  size_t n = (size_t)mbdae_problem_neq(p);
  memset(tr, 0, sizeof *tr);
  if (mbdae_problem_reference_trajectory(p, &tr->nt, &t, NULL) != 0 || tr->nt == 0 ||
      tr->nt > INT_MAX || !(tr->yout = malloc(sizeof(double) * 2 * tr->nt * n))) {
    tr->nt = 0;
    return;
  }
  tr->yref = tr->yout + tr->nt * n;
  for (size_t k = 0; k < tr->nt * n; k++) {
    tr->yout[k] = NAN;
  }
  mbdae_problem_reference_trajectory(p, &tr->nt, &t, tr->yref);
  opt->tout = t;
  opt->ntout = (int)tr->nt;
  opt->yout = tr->yout;
}

/* The digits of a successful run into rec (NaN otherwise, as the record has them). */
static void traj_finish(const mbdae_problem *p, const traj_out *tr, mbdae_record *rec)
{
  if (tr->nt > 0 && rec->status == 0) {
    rec->tscd = mbdae_tscd(p, tr->nt, tr->yout, tr->yref);
    rec->tmescd = mbdae_tmescd(p, tr->nt, tr->yout, tr->yref, rec->rtol, rec->atol);
    rec->tscd_rms = mbdae_tscd_rms(p, tr->nt, tr->yout, tr->yref);
  }
}

/* Run type on prob at opt (tout: a float64 vector or None), keeping y' at the end, the states at
 * tout or (steps) at every accepted step; the Run, or NULL with an exception. */
static PyObject *run_collecting(mbpy_problem *prob, const mbdae_solver_type *type,
                                mbdae_options *opt, PyObject *tout, int steps, int repeats,
                                PyObject *runner, int interruptible)
{
  int n = prob->n;
  accept_log log = {.n = n, .keep = steps && tout == Py_None, .by_time = runner == Py_None};
  double *yout = NULL;
  if (tout != Py_None) {
    opt->ntout = (int)PyArray_DIM((PyArrayObject *)tout, 0);
    opt->tout = PyArray_DATA((PyArrayObject *)tout);
    size_t count = (size_t)opt->ntout * (size_t)n;
    yout = malloc(sizeof(double) * (count + 1));
    for (size_t k = 0; yout && k < count; k++) {
      yout[k] = NAN; /* what the run does not reach stays NaN */
    }
    opt->yout = yout;
  }
  opt->on_accept = log_accept;
  opt->on_accept_ctx = &log;
  mbpy_run *run = NULL;
  if (log_start(&log, prob->p) != 0 || (tout != Py_None && !yout) || !(run = mbpy_run_new())) {
    free(yout);
    log_free(&log);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  }
  python_call call = {.runner = runner, .log = &log};
  mbpy_interrupt ic = {0};
  int watch = runner == Py_None && interruptible && mbpy_interrupt_allowed(prob->p);
  traj_out tr = {0, NULL, NULL};
  if (tout == Py_None && runner == Py_None) {
    traj_prepare(prob->p, opt, &tr);
  }
  int rc = record_run(run, prob->p, type, opt, repeats, runner != Py_None ? &call : NULL,
                      watch ? &ic : NULL);
  if (tr.nt > 0 && rc == MBDAE_ERR_UNSUPPORTED) { /* no output times: the run again without */
    opt->tout = NULL;
    opt->ntout = 0;
    opt->yout = NULL;
    tr.nt = 0;
    mbdae_record_free(&run->rec); /* the log starts again by time (by_time) */
    rc = record_run(run, prob->p, type, opt, repeats, NULL, watch ? &ic : NULL);
  }
  traj_finish(prob->p, &tr, &run->rec);
  free(tr.yout);
  const char *kind = mbdae_jac_kind_name(mbdae_linsys_resolve(prob->p, type, opt->linsys));
  run->linsys = PyUnicode_FromString(kind ? kind : "unknown");
  PyObject *result = NULL;
  if (mbpy_raise_instead(call.fatal) || mbpy_raise_instead(ic.raised)) {
    /* Ctrl-C or SystemExit: solve raises it */
  } else if (rc == MBDAE_ERR_NOMEM || log.nomem) {
    PyErr_NoMemory();
  } else if (rc == MBDAE_ERR_ARG) { /* options the harness refused before any run */
    PyErr_Format(PyExc_ValueError, "%s",
                 run->rec.message[0] ? run->rec.message : mbdae_strerror(rc));
  } else if (run->linsys && run_outputs(run, &log, tout, yout) == 0) {
    result = Py_NewRef(mbpy_run_finish(run));
  }
  if (!result) {
    mbpy_run_finish(run); /* tracked, so that its dealloc may untrack it */
  }
  Py_DECREF(run);
  free(yout);
  log_free(&log);
  return result;
}

/* solve(problem, solver, rtol, atol, h0, hmax, max_steps, linsys, tout, steps, repeats, runner,
 * title, interruptible, caps): solver is an id, or (runner given) the id of a Python solver that
 * runner runs, with the capabilities caps = (MBDAE_LINSYS_BIT of each linsys kind it takes,
 * projects, dense_output) (mbdae_solver_caps; never those of a built-in solver of the same id);
 * interruptible: look for signals during a C solver's run (the caller is the main thread). */
PyObject *mbpy_solve(PyObject *self, PyObject *args, PyObject *kwargs)
{
  (void)self;
  static char *keywords[] = {"problem",   "solver",        "rtol", "atol",  "h0",      "hmax",
                             "max_steps", "linsys",        "tout", "steps", "repeats", "runner",
                             "title",     "interruptible", "caps", NULL};
  mbpy_problem *prob;
  const char *solver, *title = NULL;
  mbdae_options opt;
  mbdae_options_default(&opt);
  PyObject *tout = Py_None, *runner = Py_None;
  int steps = 0, repeats = 1, interruptible = 0;
  mbdae_solver_caps caps = {.size = sizeof caps,
                            .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE),
                            .dense_output = 1,
                            .lu_real = 1};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!sdddd|liOpiOzp(Ipp):solve", keywords,
                                   &mbpy_problem_type, &prob, &solver, &opt.rtol, &opt.atol,
                                   &opt.h0, &opt.hmax, &opt.max_steps, &opt.linsys, &tout, &steps,
                                   &repeats, &runner, &title, &interruptible, &caps.linsys,
                                   &caps.projects, &caps.dense_output)) {
    return NULL;
  }
  mbdae_solver_type python_type = {.size = sizeof(mbdae_solver_type),
                                   .id = solver,
                                   .title = title ? title : solver,
                                   .integrate = python_integrate,
                                   .caps = &caps};
  const mbdae_solver_type *type = runner != Py_None ? &python_type : mbpy_solver_find(solver);
  const char *invalid = type ? mbdae_solver_type_invalid(type) : NULL;
  if (!type || invalid) {
    return PyErr_Format(PyExc_ValueError, "%s '%s'%s%s (mbdae.solvers() lists the solvers)",
                        type ? "solver" : "unknown solver", solver, invalid ? ": " : "",
                        invalid ? invalid : "");
  }
  if (tout != Py_None && !(tout = PyArray_FROMANY(tout, NPY_DOUBLE, 1, 1, NPY_ARRAY_CARRAY))) {
    return NULL;
  }
  PyObject *result = NULL;
  if (tout != Py_None && PyArray_DIM((PyArrayObject *)tout, 0) > INT_MAX / (prob->n + 1)) {
    PyErr_SetString(PyExc_ValueError, "t_eval: too many output times");
  } else {
    result = run_collecting(prob, type, &opt, tout, steps, repeats, runner, interruptible);
  }
  if (tout != Py_None) {
    Py_DECREF(tout);
  }
  return result;
}
