/* mbdae._mbdae.Integrator: a run of a built-in solver stepped by the caller, over the library's
 * integrator object (include/mbdae/integrator.h), in the manner of SciPy's OdeSolver (step, t, y,
 * status, dense output) and SUNDIALS' IDASolve with IDA_ONE_STEP / IDA_NORMAL and IDAGetDky
 * (A. C. Hindmarsh et al., ACM TOMS 31, 2005).
 *
 * The object keeps its Problem alive (the integrator points into it) and is garbage-collected,
 * since a Problem subclass may refer back to it.  A step runs with the GIL released; the stop poll
 * of solve() (mbpy_interrupt, _solve.c) makes Ctrl-C end it with KeyboardInterrupt (the run then
 * has ended: reset() starts again).  While one thread steps, calls from others raise
 * RuntimeError.  A failed step raises mbdae.SolverError (code, name) and so does every later
 * step; a bad argument ValueError with the library's message. */
#include "_mbdae.h"

#include <math.h>
#include <string.h>

typedef struct mbpy_integrator {
  PyObject_HEAD mbdae_integrator *it; /* NULL once cleared */
  PyObject *problem;                  /* the Problem it steps */
  const mbdae_problem *p;
  int n;
  int watch;  /* 1: options.stop polls signals */
  int busy;   /* 1 while a step runs with the GIL released */
  int failed; /* the code of a failed step or reset, else 0 */
  char message[320];
  double t_old; /* where the last accepted step began, NaN when unknown */
  mbpy_interrupt ic;
} mbpy_integrator;

static int integ_traverse(mbpy_integrator *self, visitproc visit, void *arg)
{
  Py_VISIT(self->problem);
  return 0;
}

static int integ_clear(mbpy_integrator *self)
{
  mbdae_integrator_free(self->it); /* before the problem it points into */
  self->it = NULL;
  Py_CLEAR(self->problem);
  Py_CLEAR(self->ic.raised);
  return 0;
}

static void integ_dealloc(mbpy_integrator *self)
{
  PyObject_GC_UnTrack(self);
  integ_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Integrator(problem, solver, rtol, atol, h0, hmax=0, max_steps=0, linsys=0). */
static PyObject *integ_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *keywords[] = {"problem", "solver",    "rtol",   "atol", "h0",
                             "hmax",    "max_steps", "linsys", NULL};
  mbpy_problem *prob;
  const char *solver;
  mbdae_options opt;
  mbdae_options_default(&opt);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!sddd|dli:Integrator", keywords,
                                   &mbpy_problem_type, &prob, &solver, &opt.rtol, &opt.atol,
                                   &opt.h0, &opt.hmax, &opt.max_steps, &opt.linsys)) {
    return NULL;
  }
  const mbdae_solver_type *s = mbpy_solver_find(solver);
  if (!s) {
    return PyErr_Format(PyExc_ValueError, "unknown solver '%s' (mbdae.solvers() lists the solvers)",
                        solver);
  }
  mbpy_integrator *self = (mbpy_integrator *)type->tp_alloc(type, 0);
  if (!self) {
    return NULL;
  }
  self->problem = Py_NewRef((PyObject *)prob);
  self->p = prob->p;
  self->n = prob->n;
  self->t_old = NAN;
  self->watch = mbpy_interrupt_allowed(prob->p);
  if (self->watch) {
    mbpy_interrupt_watch(&self->ic, &opt);
  }
  char msg[320] = "";
  int rc = mbdae_integrator_create(prob->p, s, &opt, &self->it, msg, sizeof msg);
  if (rc != 0) {
    Py_DECREF(self);
    return rc == MBDAE_ERR_NOMEM ? PyErr_NoMemory()
                                 : PyErr_Format(PyExc_ValueError, "%s: %s", solver,
                                                msg[0] ? msg : mbdae_strerror(rc));
  }
  return (PyObject *)self;
}

/* 0 when self may be used now, else -1 with RuntimeError. */
static int integ_ready(const mbpy_integrator *self)
{
  if (!self->it) {
    PyErr_SetString(PyExc_RuntimeError, "this Integrator has been cleared");
    return -1;
  }
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "this Integrator is stepping in another thread");
    return -1;
  }
  return 0;
}

/* The failure remembered (SolverError with the library's message); NULL. */
static PyObject *integ_raise_failed(mbpy_integrator *self)
{
  return mbpy_raise(mbpy_solver_error, self->failed, self->message);
}

/* One call of mbdae_integrator_step with the GIL released; NULL with an exception, else None. */
static PyObject *integ_advance(mbpy_integrator *self, double tout, int mode)
{
  int rc;
  double t = mbdae_integrator_t(self->it);
  mbdae_stats before, after;
  mbdae_integrator_stats(self->it, &before);
  self->busy = 1;
  if (self->watch) {
    mbpy_interrupt_release(&self->ic);
    rc = mbdae_integrator_step(self->it, tout, mode, NULL);
    mbpy_interrupt_reacquire(&self->ic);
  } else {
    PyThreadState *saved = PyEval_SaveThread();
    rc = mbdae_integrator_step(self->it, tout, mode, NULL);
    PyEval_RestoreThread(saved);
  }
  self->busy = 0;
  mbdae_integrator_stats(self->it, &after);
  if (after.accepted != before.accepted) { /* one step began at t; more: where is unknown */
    self->t_old = after.accepted == before.accepted + 1 ? t : NAN;
  }
  PyObject *raised = self->ic.raised;
  self->ic.raised = NULL;
  if (mbpy_raise_instead(raised)) {
    return NULL; /* Ctrl-C: the run has ended at the last accepted step */
  }
  if (rc == MBDAE_ERR_ARG) {
    return PyErr_Format(PyExc_ValueError, "%s", mbdae_integrator_message(self->it));
  }
  if (rc != 0) {
    self->failed = rc;
    snprintf(self->message, sizeof self->message, "%s", mbdae_integrator_message(self->it));
    return integ_raise_failed(self);
  }
  Py_RETURN_NONE;
}

static PyObject *integ_step(mbpy_integrator *self, PyObject *unused)
{
  (void)unused;
  if (integ_ready(self) != 0) {
    return NULL;
  }
  if (self->failed) {
    return integ_raise_failed(self);
  }
  double tend = mbdae_problem_tend(self->p);
  if (!(mbdae_integrator_t(self->it) < tend)) {
    return PyErr_Format(PyExc_RuntimeError,
                        "the run has finished (t = tend = %g); reset() starts again", tend);
  }
  return integ_advance(self, tend, MBDAE_ONE_STEP);
}

/* The continuous extension at t in a new array, or NULL with ValueError. */
static PyObject *integ_dense_at(mbpy_integrator *self, double t)
{
  PyObject *y = mbpy_vector_new(self->n, NULL);
  if (y && mbdae_integrator_dense(self->it, t, PyArray_DATA((PyArrayObject *)y)) != 0) {
    Py_DECREF(y);
    return PyErr_Format(PyExc_ValueError, "%s", mbdae_integrator_message(self->it));
  }
  return y;
}

static PyObject *integ_step_to(mbpy_integrator *self, PyObject *arg)
{
  double tout;
  if (integ_ready(self) != 0 || mbpy_double(arg, "tout", &tout) != 0) {
    return NULL;
  }
  if (self->failed) {
    return integ_raise_failed(self);
  }
  PyObject *none = integ_advance(self, tout, MBDAE_NORMAL);
  if (!none) {
    return NULL;
  }
  Py_DECREF(none);
  return integ_dense_at(self, tout);
}

static PyObject *integ_dense(mbpy_integrator *self, PyObject *arg)
{
  double t;
  if (integ_ready(self) != 0 || mbpy_double(arg, "t", &t) != 0) {
    return NULL;
  }
  return integ_dense_at(self, t);
}

static PyObject *integ_reset(mbpy_integrator *self, PyObject *args)
{
  double t0;
  PyObject *oy, *oyp;
  mbpy_vector y, yp;
  if (integ_ready(self) != 0 || !PyArg_ParseTuple(args, "dOO:reset", &t0, &oy, &oyp) ||
      mbpy_vector_in(oy, self->n, "y0", &y) != 0) {
    return NULL;
  }
  if (mbpy_vector_in(oyp, self->n, "yp0", &yp) != 0) {
    Py_XDECREF(y.owned);
    return NULL;
  }
  int rc = mbdae_integrator_reset(self->it, t0, y.data, yp.data);
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  self->failed = rc;
  self->t_old = NAN;
  snprintf(self->message, sizeof self->message, "%s", mbdae_integrator_message(self->it));
  if (rc != 0) {
    return rc == MBDAE_ERR_NOMEM ? PyErr_NoMemory()
                                 : PyErr_Format(PyExc_ValueError, "%s", self->message);
  }
  Py_RETURN_NONE;
}

static PyMethodDef integ_methods[] = {
    {"step", (PyCFunction)integ_step, METH_NOARGS,
     "step(): one accepted step towards tend (MBDAE_ONE_STEP); None, or SolverError when the "
     "solver fails (and at every step after), RuntimeError once the run has finished."},
    {"step_to", (PyCFunction)integ_step_to, METH_O,
     "step_to(tout) -> y(tout): steps until the solver's t reaches tout <= tend (MBDAE_NORMAL) "
     "and returns the continuous extension there; ValueError for a tout before the last step or "
     "beyond tend."},
    {"dense", (PyCFunction)integ_dense, METH_O,
     "dense(t) -> y(t) from the solver's continuous extension in the last step [t_old, t]; "
     "ValueError outside it."},
    {"reset", (PyCFunction)integ_reset, METH_VARARGS,
     "reset(t0, y0, yp0): start again at t0 from the consistent y0, yp0 (n values each), the "
     "counters at 0; ValueError when refused."},
    {NULL, NULL, 0, NULL}};

static PyObject *integ_get(mbpy_integrator *self, void *which)
{
  if (integ_ready(self) != 0) {
    return NULL;
  }
  int k = (int)(Py_intptr_t)which;
  if (k == 0) {
    return PyFloat_FromDouble(mbdae_integrator_t(self->it));
  }
  if (k == 1 || k == 2) {
    PyObject *v = mbpy_vector_new(self->n, NULL);
    double *d = v ? PyArray_DATA((PyArrayObject *)v) : NULL;
    if (d) {
      mbdae_integrator_state(self->it, k == 1 ? d : NULL, k == 2 ? d : NULL);
    }
    return v;
  }
  if (k == 3) {
    mbdae_stats s;
    mbdae_integrator_stats(self->it, &s);
    return Py_BuildValue("(llllllll)", s.steps, s.accepted, s.nres, s.nres_fd, s.njac, s.nlu,
                         s.nerrfail, s.nconvfail);
  }
  if (k == 4) {
    int done = !(mbdae_integrator_t(self->it) < mbdae_problem_tend(self->p));
    return PyUnicode_FromString(self->failed ? "failed" : done ? "finished" : "running");
  }
  if (k == 5) {
    return PyUnicode_FromString(self->failed ? self->message : "");
  }
  return isnan(self->t_old) ? Py_NewRef(Py_None) : PyFloat_FromDouble(self->t_old);
}

static PyGetSetDef integ_getset[] = {
    {"t", (getter)integ_get, NULL, "the solver's time: the end of its last accepted step",
     (void *)0},
    {"y", (getter)integ_get, NULL, "y at t (a copy)", (void *)1},
    {"yp", (getter)integ_get, NULL, "y' at t (a copy)", (void *)2},
    {"_stats", (getter)integ_get, NULL,
     "the counters (steps, accepted, nres, nres_fd, njac, nlu, "
     "nerrfail, nconvfail)",
     (void *)3},
    {"status", (getter)integ_get, NULL, "\"running\", \"finished\" (t = tend) or \"failed\"",
     (void *)4},
    {"message", (getter)integ_get, NULL, "why the run failed, or \"\"", (void *)5},
    {"t_old", (getter)integ_get, NULL,
     "where the last accepted step began (dense() covers [t_old, t]), or None: before the first "
     "step, after a reset, after a step_to() that made several steps",
     (void *)6},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject mbpy_integrator_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mbdae._mbdae.Integrator",
    .tp_basicsize = sizeof(mbpy_integrator),
    .tp_dealloc = (destructor)integ_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A run stepped by the caller (mbdae_integrator); see mbdae.Integrator.",
    .tp_traverse = (traverseproc)integ_traverse,
    .tp_clear = (inquiry)integ_clear,
    .tp_methods = integ_methods,
    .tp_getset = integ_getset,
    .tp_new = integ_new,
};
