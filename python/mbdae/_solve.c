/* mbdae._mbdae.solve, Run and Harness: a run of one solver on one problem, through the library's
 * harness and record (mbdae_record_run: the same record, counters, timing, scd, mescd and drift
 * as `mbdae run --json`), and the runs.csv writer (mbdae_record_write_csv_*).
 *
 * A built-in or plug-in solver runs with the GIL released.  A Python callable runs as a
 * mbdae_solver_type whose integrate calls back into Python with the GIL held: the type has no
 * context pointer, so the callable of the run in progress is found through a thread-local
 * variable (one run per thread at a time; nested runs keep their own).  The callable sees a
 * Harness: a residual and Jacobian that count into the run's statistics, on_accept (which feeds
 * the harness's drift measurement and the accepted-state log), and finish(), which hands back the
 * end state and the solver's own counters.  A Harness is valid only during its run. */
#include "_mbdae.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- accepted states ------------------------------------------------------------------------ */

/* What on_accept saw: the last state (y'(tend) is not in the record), and every state when the
 * caller asked for t_eval="steps".  Written with the GIL released: plain C only. */
typedef struct accept_log {
  int n;
  int keep; /* 1: store every accepted state */
  double *t, *y, *yp;
  size_t count, cap;
  double *yp_last;
  int have_last, nomem;
} accept_log;

static void log_accept(void *ctx, double t, const double *y, const double *yp)
{
  accept_log *log = ctx;
  size_t n = (size_t)log->n;
  memcpy(log->yp_last, yp, sizeof(double) * n);
  log->have_last = 1;
  if (!log->keep || log->nomem) {
    return;
  }
  if (log->count == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 64;
    double *tt = realloc(log->t, sizeof(double) * cap);
    log->t = tt ? tt : log->t;
    double *yy = tt ? realloc(log->y, sizeof(double) * cap * n) : NULL;
    log->y = yy ? yy : log->y;
    double *pp = yy ? realloc(log->yp, sizeof(double) * cap * n) : NULL;
    log->yp = pp ? pp : log->yp;
    if (!pp) {
      log->nomem = 1;
      return;
    }
    log->cap = cap;
  }
  log->t[log->count] = t;
  memcpy(log->y + log->count * n, y, sizeof(double) * n);
  memcpy(log->yp + log->count * n, yp, sizeof(double) * n);
  log->count++;
}

static void log_free(accept_log *log)
{
  free(log->t);
  free(log->y);
  free(log->yp);
  free(log->yp_last);
}

/* ---- Run: the outcome of solve() ------------------------------------------------------------ */

typedef struct mbpy_run {
  PyObject_HEAD mbdae_record rec;
  PyObject *yp;        /* y'(end) from the last accepted state, or None */
  PyObject *t_out;     /* times of the states asked for (t_eval or the accepted steps), or None */
  PyObject *y_out;     /* the states there, one row each, or None */
  PyObject *yp_out;    /* y' at the accepted steps (t_eval="steps"), or None */
  PyObject *exception; /* what a Python solver raised, or None */
  PyObject *linsys;    /* the iteration matrix's storage: what `mbdae run --json` adds */
} mbpy_run;

static void run_dealloc(mbpy_run *self)
{
  mbdae_record_free(&self->rec);
  Py_XDECREF(self->yp);
  Py_XDECREF(self->t_out);
  Py_XDECREF(self->y_out);
  Py_XDECREF(self->yp_out);
  Py_XDECREF(self->exception);
  Py_XDECREF(self->linsys);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* json() -> the record as mbdae_record_write_json writes it, with "linsys" first as `mbdae run
 * --json` prints it. */
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
  PyObject *result = PyUnicode_FromFormat("{\"linsys\": \"%U\", %s", self->linsys, text + 1);
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
  Py_INCREF(f);
  return f;
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
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The record of one run (mbdae_record) and its outputs; made by solve().",
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
  PyObject *out = Py_None;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "out") == 0) {
    out = args[nargs];
  } else if (nkw > 0 || (nargs != 3 && nargs != 4)) {
    return PyErr_Format(PyExc_TypeError, "residual(t, y, yp, out=None) takes 3 or 4 arguments");
  }
  out = nargs == 4 ? args[3] : out;
  double t;
  mbpy_vector y, yp;
  if (mbpy_double(args[0], "t", &t) != 0 || mbpy_vector_in(args[1], self->n, "y", &y) != 0) {
    return NULL;
  }
  if (mbpy_vector_in(args[2], self->n, "yp", &yp) != 0) {
    Py_XDECREF(y.owned);
    return NULL;
  }
  PyObject *result = out == Py_None ? mbpy_vector_new(self->n, NULL) : out;
  double *res = NULL;
  if (out != Py_None) {
    Py_INCREF(out);
    res = mbpy_vector_out(out, self->n, "out");
  } else if (result) {
    res = (double *)PyArray_DATA((PyArrayObject *)result);
  }
  if (res) {
    self->r->stats.nres++;
    int rc = mbdae_problem_res(self->p, t, y.data, yp.data, res);
    if (rc != 0) {
      Py_CLEAR(result);
      mbpy_raise(mbpy_error, rc,
                 rc > 0 ? "the residual cannot be evaluated here (recoverable)"
                        : "the residual failed");
    }
  } else {
    Py_CLEAR(result);
  }
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  return result;
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

/* finish(status, t, y, yp, message, steps, nlu, nerrfail, nconvfail, y_eval): the outcome. */
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
  if (status > 0 || steps < -1 || nlu < 0 || nerrfail < 0 || nconvfail < 0) {
    return PyErr_Format(PyExc_ValueError, "finish: status must be 0 or a negative MBDAE_ code, "
                                          "counters not negative");
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
  PyObject *exception; /* what it raised, or NULL */
} python_call;

static _Thread_local python_call *current_call;

static int python_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                            mbdae_result *r)
{
  python_call *call = current_call;
  mbpy_harness *h = PyObject_New(mbpy_harness, &mbpy_harness_type);
  if (!call || !h) {
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
  PyObject *out = PyObject_CallOneArg(call->runner, (PyObject *)h);
  if (!out) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value) {
      PyException_SetTraceback(value, tb);
    }
    PyObject *text = value ? PyObject_Str(value) : NULL;
    snprintf(r->message, sizeof r->message, "the Python solver raised %s: %s",
             type ? ((PyTypeObject *)type)->tp_name : "an exception",
             text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : "");
    PyErr_Clear();
    Py_XDECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    Py_XSETREF(call->exception, value);
    r->status = MBDAE_ERR_SOLVER;
  } else if (!h->finished) {
    snprintf(r->message, sizeof r->message, "the Python solver returned without an outcome");
    r->status = MBDAE_ERR_SOLVER;
  }
  Py_XDECREF(out);
  h->p = NULL; /* calls after the run raise */
  Py_DECREF(h);
  return r->status;
}

/* ---- solve ---------------------------------------------------------------------------------- */

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
    run->yp_out = Py_NewRef(Py_None);
  } else if (log->keep) {
    npy_intp nt = (npy_intp)log->count, dims[2] = {nt, n};
    run->t_out = PyArray_SimpleNew(1, &nt, NPY_DOUBLE);
    run->y_out = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    run->yp_out = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (run->t_out && run->y_out && run->yp_out && nt > 0) {
      memcpy(PyArray_DATA((PyArrayObject *)run->t_out), log->t, sizeof(double) * (size_t)nt);
      memcpy(PyArray_DATA((PyArrayObject *)run->y_out), log->y, sizeof(double) * (size_t)(nt * n));
      memcpy(PyArray_DATA((PyArrayObject *)run->yp_out), log->yp,
             sizeof(double) * (size_t)(nt * n));
    }
  } else {
    run->t_out = Py_NewRef(Py_None);
    run->y_out = Py_NewRef(Py_None);
    run->yp_out = Py_NewRef(Py_None);
  }
  if (!run->exception) {
    run->exception = Py_NewRef(Py_None);
  }
  return run->yp && run->t_out && run->y_out && run->yp_out ? 0 : -1;
}

/* The record of the run (mbdae_record_run) with the GIL released for a C solver, held for a
 * Python one. */
static int record_run(mbpy_run *run, const mbdae_problem *p, const mbdae_solver_type *type,
                      const mbdae_options *opt, int repeats, python_call *call)
{
  int rc;
  if (call) {
    python_call *outer = current_call;
    current_call = call;
    rc = mbdae_record_run(&run->rec, p, type, opt, repeats);
    current_call = outer;
    run->exception = call->exception;
  } else {
    Py_BEGIN_ALLOW_THREADS rc = mbdae_record_run(&run->rec, p, type, opt, repeats);
    Py_END_ALLOW_THREADS
  }
  return rc;
}

/* Run type on prob at opt (tout: a float64 vector or None), keeping y' at the end, the states at
 * tout or (steps) at every accepted step; the Run, or NULL with an exception. */
static PyObject *run_collecting(mbpy_problem *prob, const mbdae_solver_type *type,
                                mbdae_options *opt, PyObject *tout, int steps, int repeats,
                                PyObject *runner)
{
  int n = prob->n;
  accept_log log = {.n = n, .keep = steps && tout == Py_None};
  log.yp_last = malloc(sizeof(double) * (size_t)n);
  double *yout = NULL;
  if (tout != Py_None) {
    opt->ntout = (int)PyArray_DIM((PyArrayObject *)tout, 0);
    opt->tout = PyArray_DATA((PyArrayObject *)tout);
    yout = malloc(sizeof(double) * ((size_t)opt->ntout * (size_t)n + 1));
    opt->yout = yout;
  }
  opt->on_accept = log_accept;
  opt->on_accept_ctx = &log;
  mbpy_run *run = PyObject_New(mbpy_run, &mbpy_run_type);
  if (run) {
    memset(&run->rec, 0, sizeof *run - offsetof(mbpy_run, rec));
  }
  PyObject *result = NULL;
  if (!run || !log.yp_last || (tout != Py_None && !yout)) {
    PyErr_NoMemory();
  } else {
    python_call call = {.runner = runner, .exception = NULL};
    int rc = record_run(run, prob->p, type, opt, repeats, runner != Py_None ? &call : NULL);
    const char *kind = mbdae_jac_kind_name(mbdae_linsys_resolve(prob->p, type->id, opt->linsys));
    run->linsys = PyUnicode_FromString(kind ? kind : "unknown");
    if (rc == MBDAE_ERR_NOMEM || log.nomem) {
      PyErr_NoMemory();
    } else if (rc == MBDAE_ERR_ARG) { /* options the harness refused before any run */
      PyErr_Format(PyExc_ValueError, "%s",
                   run->rec.message[0] ? run->rec.message : mbdae_strerror(rc));
    } else if (run->linsys && run_outputs(run, &log, tout, yout) == 0) {
      result = Py_NewRef((PyObject *)run);
    }
  }
  Py_XDECREF(run);
  free(yout);
  log_free(&log);
  return result;
}

/* solve(problem, solver, rtol, atol, h0, hmax, max_steps, linsys, tout, steps, repeats, runner,
 * title): solver is an id, or (runner given) the id of a Python solver that runner runs. */
PyObject *mbpy_solve(PyObject *self, PyObject *args, PyObject *kwargs)
{
  (void)self;
  static char *keywords[] = {"problem", "solver",    "rtol",   "atol", "h0",
                             "hmax",    "max_steps", "linsys", "tout", "steps",
                             "repeats", "runner",    "title",  NULL};
  mbpy_problem *prob;
  const char *solver, *title = NULL;
  mbdae_options opt;
  mbdae_options_default(&opt);
  PyObject *tout = Py_None, *runner = Py_None;
  int steps = 0, repeats = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!sdddd|liOpiOz:solve", keywords,
                                   &mbpy_problem_type, &prob, &solver, &opt.rtol, &opt.atol,
                                   &opt.h0, &opt.hmax, &opt.max_steps, &opt.linsys, &tout, &steps,
                                   &repeats, &runner, &title)) {
    return NULL;
  }
  mbdae_solver_type python_type = {.size = sizeof(mbdae_solver_type),
                                   .id = solver,
                                   .title = title ? title : solver,
                                   .integrate = python_integrate};
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
  PyObject *result = run_collecting(prob, type, &opt, tout, steps, repeats, runner);
  if (tout != Py_None) {
    Py_DECREF(tout);
  }
  return result;
}

static unsigned long side_files; /* side files written by this process (under the GIL) */

/* write_runs_csv(path, dir, runs, append): runs.csv as a sweep writes it (header with the
 * environment, a row per run, large final vectors in side files dir/<stem>-<k>.vec). */
PyObject *mbpy_write_runs_csv(PyObject *self, PyObject *args)
{
  (void)self;
  PyObject *pathobj, *dirobj, *runs;
  int append;
  if (!PyArg_ParseTuple(args, "O&O&O!p:write_runs_csv", PyUnicode_FSConverter, &pathobj,
                        PyUnicode_FSConverter, &dirobj, &PyList_Type, &runs, &append)) {
    return NULL;
  }
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE(runs); k++) {
    if (!PyObject_TypeCheck(PyList_GET_ITEM(runs, k), &mbpy_run_type)) {
      Py_DECREF(pathobj);
      Py_DECREF(dirobj);
      return PyErr_Format(PyExc_TypeError, "runs[%zd] is not a run of mbdae.solve", k);
    }
  }
  FILE *out = fopen(PyBytes_AS_STRING(pathobj), append ? "a" : "w");
  int rc = out ? 0 : -1, err = out ? 0 : errno;
  mbdae_environment env;
  mbdae_environment_get(&env);
  if (out && mbdae_record_write_csv_header(out, &env) != 0) {
    rc = -1;
  }
  for (Py_ssize_t k = 0; out && rc == 0 && k < PyList_GET_SIZE(runs); k++) {
    char side[64]; /* unique over the process's calls (append=True adds to the same folder) */
    snprintf(side, sizeof side, "python-%ld-%lu.vec", (long)getpid(), ++side_files);
    rc = mbdae_record_write_csv_row_side(out, &((mbpy_run *)PyList_GET_ITEM(runs, k))->rec,
                                         PyBytes_AS_STRING(dirobj), side);
  }
  if (out && fclose(out) != 0) {
    rc = -1;
  }
  err = err ? err : errno;
  PyObject *result = NULL;
  if (rc != 0) {
    errno = err ? err : EIO;
    PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, pathobj);
  } else {
    result = Py_NewRef(Py_None);
  }
  Py_DECREF(pathobj);
  Py_DECREF(dirobj);
  return result;
}

/* write_table(problem, runs) -> the run-characteristics table of problem in Markdown
 * (mbdae_record_write_table: the test set's layout, rows at its table tolerances, then failures).
 */
PyObject *mbpy_write_table(PyObject *self, PyObject *args)
{
  (void)self;
  mbpy_problem *prob;
  PyObject *runs;
  if (!PyArg_ParseTuple(args, "O!O!:write_table", &mbpy_problem_type, &prob, &PyList_Type, &runs)) {
    return NULL;
  }
  Py_ssize_t n = PyList_GET_SIZE(runs);
  mbdae_record *recs = PyMem_Calloc((size_t)n + 1, sizeof *recs);
  if (!recs) {
    return PyErr_NoMemory();
  }
  for (Py_ssize_t k = 0; k < n; k++) {
    PyObject *run = PyList_GET_ITEM(runs, k);
    if (!PyObject_TypeCheck(run, &mbpy_run_type)) {
      PyMem_Free(recs);
      return PyErr_Format(PyExc_TypeError, "runs[%zd] is not a run of mbdae.solve", k);
    }
    recs[k] = ((mbpy_run *)run)->rec; /* a shallow copy: the writer only reads */
  }
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  int rc = mem ? mbdae_record_write_table(mem, prob->p, recs, (size_t)n) : -1;
  PyMem_Free(recs);
  if (!mem || fclose(mem) != 0 || rc != 0) {
    free(text);
    return PyErr_NoMemory();
  }
  PyObject *result = PyUnicode_FromStringAndSize(text, (Py_ssize_t)len);
  free(text);
  return result;
}
