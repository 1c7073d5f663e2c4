/* The CPython extension mbdae._mbdae: what its files share.
 *
 * _mbdae.c     the module: exceptions, argument conversion, plug-ins, the library's path
 * _problem.c   mbdae._mbdae.Problem: a problem instance (mbdae_problem) and its functions
 * _solve.c     mbdae._mbdae.Run and solve(): a run of a built-in or plug-in solver, or of a Python
 *              callable through the harness (mbdae_record_run)
 * _integrator.c mbdae._mbdae.Integrator: a run stepped by the caller (mbdae_integrator)
 * _records.c   runs.csv written to bytes and read back, the run-characteristics table
 * Only the public API of include/mbdae/mbdae.h is used. */
#ifndef MBDAE_PY_MBDAE_H
#define MBDAE_PY_MBDAE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL mbdae_py_ARRAY_API
#ifndef MBDAE_PY_MODULE_FILE
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <mbdae/mbdae.h>

typedef struct mbpy_problem {
  PyObject_HEAD mbdae_problem *p;
  int n;
} mbpy_problem;

/* The record of one run and its outputs (mbdae._mbdae.Run).  Garbage-collected: exception holds
 * a traceback, whose frames may hold anything, the Run itself included. */
typedef struct mbpy_run {
  PyObject_HEAD mbdae_record rec;
  PyObject *yp;        /* y'(end) from the last accepted state, or None */
  PyObject *t_out;     /* times of the states asked for (t_eval or the accepted steps), or None */
  PyObject *y_out;     /* the states there, one row each, or None */
  PyObject *yp_out;    /* y' at the accepted steps (t_eval="steps"), or None */
  PyObject *exception; /* what a Python solver raised, or None */
  PyObject *linsys; /* the iteration matrix's storage (`mbdae run --json`), or None (read back) */
} mbpy_run;
/* A new Run with an empty record and every field NULL (tracked once its fields are set). */
mbpy_run *mbpy_run_new(void);
/* Track run with the collector and set every field still NULL to None; returns run. */
PyObject *mbpy_run_finish(mbpy_run *run);

extern PyTypeObject mbpy_problem_type;
extern PyTypeObject mbpy_run_type;
extern PyTypeObject mbpy_harness_type;
extern PyTypeObject mbpy_integrator_type;
extern PyObject *mbpy_error;        /* mbdae.Error: a failed call of the library (code, name) */
extern PyObject *mbpy_solver_error; /* mbdae.SolverError(Error): a failed run */

/* A read-only vector of n doubles taken from obj: borrowed when obj is already a C-contiguous,
 * aligned float64 array of n values, else a converted copy (safe casts only) in owned. */
typedef struct mbpy_vector {
  const double *data;
  PyObject *owned; /* NULL, or the copy to release with Py_XDECREF */
} mbpy_vector;
int mbpy_vector_in(PyObject *obj, npy_intp n, const char *what, mbpy_vector *v);
/* An output array of n doubles: a writeable, aligned, C-contiguous float64 array of exactly n
 * values, or NULL with an exception. */
double *mbpy_vector_out(PyObject *obj, npy_intp n, const char *what);
/* A new float64 array of n values (copied from data unless NULL: zeros). */
PyObject *mbpy_vector_new(npy_intp n, const double *data);
/* residual(t, y, yp, out=None) of problem p (n equations) from a vectorcall (args, nargs, kwnames):
 * F(t, y, y') in a new array or in out; a count or keyword other than these is a TypeError, a
 * failure of the residual mbdae.Error.  out may share memory with y or yp: F is then computed
 * into a buffer of its own and copied (as numpy's ufuncs treat out=).  *counted is incremented
 * when the residual is evaluated (NULL: not counted). */
PyObject *mbpy_residual(const mbdae_problem *p, int n, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames, long *counted);
/* The column pointers of a dense n x n compressed-column pattern, j * n for j = 0..n, computed in
 * 64 bits: an int32 array when n^2 fits one, else int64. */
PyObject *mbpy_dense_colptr(npy_intp n);
/* t as a double; -1 with an exception when it is no real number. */
int mbpy_double(PyObject *obj, const char *what, double *out);
/* Raise mbdae.Error (or cls) with the code's name and message; returns NULL. */
PyObject *mbpy_raise(PyObject *cls, int code, const char *message);

/* Plug-ins loaded by mbdae.load_plugin (the process keeps them: never unloaded). */
const mbdae_problem_type *mbpy_plugin_problem(const char *id);
const mbdae_solver_type *mbpy_plugin_solver(const char *id);
/* A solver by id, built-in then plug-in; NULL when there is none. */
const mbdae_solver_type *mbpy_solver_find(const char *id);

/* Ctrl-C during a C solver's work with the GIL released (_solve.c): options.stop, called after
 * every accepted step, looks at a monotonic clock and every 0.05 s takes the GIL back for
 * PyErr_CheckSignals; once a signal handler raised, it holds the exception in raised (a new
 * reference, NULL until then) and returns nonzero, which ends the run there. */
typedef struct mbpy_interrupt {
  PyThreadState *saved; /* the thread state while the GIL is released */
  double next;          /* the monotonic time of the next look */
  PyObject *raised;     /* what a signal handler raised, or NULL */
} mbpy_interrupt;
/* Whether p's driver takes options.stop (form=dummy's refuses it). */
int mbpy_interrupt_allowed(const mbdae_problem *p);
/* opt->stop polls ic (which must outlive every use of opt). */
void mbpy_interrupt_watch(mbpy_interrupt *ic, mbdae_options *opt);
/* Release the GIL for a solver's work (the first look 0.05 s on) / take it back. */
void mbpy_interrupt_release(mbpy_interrupt *ic);
void mbpy_interrupt_reacquire(mbpy_interrupt *ic);
/* Raise value (stolen; a run's Ctrl-C or SystemExit) instead of a result: 1, or 0 when NULL. */
int mbpy_raise_instead(PyObject *value);

PyObject *mbpy_solve(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *mbpy_runs_csv(PyObject *self, PyObject *args);
PyObject *mbpy_read_runs_csv(PyObject *self, PyObject *args);
PyObject *mbpy_write_table(PyObject *self, PyObject *args);
PyObject *mbpy_sweep_plan(PyObject *self, PyObject *args);

#endif
