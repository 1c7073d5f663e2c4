/* mbdae._mbdae.Problem: one problem instance (mbdae_problem) and its functions, the vectors as
 * numpy arrays.  Instances are immutable (as the library's): one may be used from several threads.
 *
 * Inputs y, y' are taken as they are when they are C-contiguous float64 arrays of n values, else
 * converted with safe casts only (a complex or text argument is a TypeError, never a silent
 * truncation); an output array (out=) must already be a writeable float64 vector of n values.
 * A callback's failure raises mbdae.Error with the library's code. */
#include "_mbdae.h"

#include <math.h>

#include <stdint.h>
#include <string.h>

static PyObject *problem_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *keywords[] = {"spec", NULL};
  const char *spec;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s:Problem", keywords, &spec)) {
    return NULL;
  }
  mbdae_problem *p = NULL;
  char msg[512] = "";
  const mbdae_problem_type *plugin = mbpy_plugin_problem(spec);
  int rc = plugin ? mbdae_problem_from_type(plugin, NULL, &p, msg, sizeof msg)
                  : mbdae_problem_create(spec, &p, msg, sizeof msg);
  if (rc != 0) {
    return PyErr_Format(PyExc_ValueError, "%s", msg[0] ? msg : mbdae_strerror(rc));
  }
  mbpy_problem *self = (mbpy_problem *)type->tp_alloc(type, 0);
  if (!self) {
    mbdae_problem_destroy(p);
    return NULL;
  }
  self->p = p;
  self->n = mbdae_problem_neq(p);
  return (PyObject *)self;
}

static void problem_dealloc(mbpy_problem *self)
{
  mbdae_problem_destroy(self->p);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The four arguments of residual(t, y, yp, out=None) from a vectorcall into argv (out: Py_None
 * when not given); 0, or -1 with TypeError.  Only args[0 .. nargs + nkw - 1] exist. */
static int residual_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                         PyObject *argv[4])
{
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, k);
    if (PyUnicode_CompareWithASCIIString(key, "out") != 0) {
      PyErr_Format(PyExc_TypeError, "residual() got an unexpected keyword argument '%U'", key);
      return -1;
    }
  }
  if (nargs < 3 || nargs + nkw > 4) {
    PyErr_Format(PyExc_TypeError,
                 "residual(t, y, yp, out=None) takes 3 or 4 arguments (%zd positional, %zd "
                 "keyword given)",
                 nargs, nkw);
    return -1;
  }
  for (int k = 0; k < 3; k++) {
    argv[k] = args[k];
  }
  argv[3] = nargs + nkw == 4 ? args[3] : Py_None;
  return 0;
}

/* 1 when the n doubles at a and at b overlap. */
static int overlap(const double *a, const double *b, int n) { return a < b + n && b < a + n; }

/* F(t, y, y') into res (n values), through a buffer of its own when res overlaps y or yp;
 * the library's code. */
static int residual_into(const mbdae_problem *p, int n, double t, const double *y, const double *yp,
                         double *res)
{
  if (!overlap(res, y, n) && !overlap(res, yp, n)) {
    return mbdae_problem_res(p, t, y, yp, res);
  }
  double *own = PyMem_Malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!own) {
    return MBDAE_ERR_NOMEM;
  }
  int rc = mbdae_problem_res(p, t, y, yp, own);
  if (rc == 0) {
    memcpy(res, own, sizeof(double) * (size_t)n);
  }
  PyMem_Free(own);
  return rc;
}

/* The failure of a call of the library as mbdae.Error; NULL. */
static PyObject *call_failed(const char *what, int rc)
{
  char msg[200];
  snprintf(msg, sizeof msg, "%s returned %d: %s", what, rc, mbdae_strerror(rc));
  return mbpy_raise(mbpy_error, rc, msg);
}

PyObject *mbpy_residual(const mbdae_problem *p, int n, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames, long *counted)
{
  PyObject *argv[4];
  double t;
  if (residual_args(args, nargs, kwnames, argv) != 0 || mbpy_double(argv[0], "t", &t) != 0) {
    return NULL;
  }
  mbpy_vector y, yp;
  if (mbpy_vector_in(argv[1], n, "y", &y) != 0) {
    return NULL;
  }
  if (mbpy_vector_in(argv[2], n, "yp", &yp) != 0) {
    Py_XDECREF(y.owned);
    return NULL;
  }
  PyObject *out = argv[3], *result = NULL;
  double *res = NULL;
  if (out == Py_None) {
    result = mbpy_vector_new(n, NULL);
    res = result ? (double *)PyArray_DATA((PyArrayObject *)result) : NULL;
  } else if ((res = mbpy_vector_out(out, n, "out")) != NULL) {
    result = Py_NewRef(out);
  }
  if (res) {
    if (counted) {
      (*counted)++;
    }
    int rc = residual_into(p, n, t, y.data, yp.data, res);
    if (rc != 0) {
      Py_CLEAR(result);
      call_failed("the residual", rc);
    }
  }
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  return result;
}

/* residual(t, y, yp, out=None): F(t, y, y'), into out when given. */
static PyObject *problem_residual(mbpy_problem *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
  return mbpy_residual(self->p, self->n, args, nargs, kwnames, NULL);
}

/* (t, y, yp) of a method's arguments; 0, or -1 with an exception (release y, yp after success). */
static int point_args(const mbpy_problem *self, PyObject *args, const char *name, double *t,
                      mbpy_vector *y, mbpy_vector *yp)
{
  PyObject *oy, *oyp = Py_None;
  char format[64];
  snprintf(format, sizeof format, "dO|O:%s", name);
  if (!PyArg_ParseTuple(args, format, t, &oy, &oyp)) {
    return -1;
  }
  if (mbpy_vector_in(oy, self->n, "y", y) != 0) {
    return -1;
  }
  yp->owned = NULL;
  yp->data = NULL;
  if (oyp != Py_None && mbpy_vector_in(oyp, self->n, "yp", yp) != 0) {
    Py_XDECREF(y->owned);
    return -1;
  }
  return 0;
}

static PyObject *matrix_new(int n)
{
  npy_intp dims[2] = {n, n};
  return PyArray_ZEROS(2, dims, NPY_DOUBLE, 1); /* Fortran order: the library's column-major */
}

/* _jacobian_dense(t, y, yp) -> (dF/dy, dF/dy') as n x n arrays. */
static PyObject *problem_jacobian_dense(mbpy_problem *self, PyObject *args)
{
  double t;
  mbpy_vector y, yp;
  if (point_args(self, args, "jacobian", &t, &y, &yp) != 0) {
    return NULL;
  }
  PyObject *result = NULL;
  if (!yp.data) {
    PyErr_SetString(PyExc_TypeError, "jacobian(t, y, yp) takes 3 arguments");
  } else {
    PyObject *a = matrix_new(self->n), *b = matrix_new(self->n);
    if (a && b) {
      int rc =
          mbdae_problem_jac(self->p, t, y.data, yp.data, (double *)PyArray_DATA((PyArrayObject *)a),
                            (double *)PyArray_DATA((PyArrayObject *)b));
      result = rc ? call_failed("the Jacobian", rc) : PyTuple_Pack(2, a, b);
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
  }
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  return result;
}

/* _jacobian_values(t, y, yp) -> (dF/dy, dF/dy') at the pattern's entries, in its order. */
static PyObject *problem_jacobian_values(mbpy_problem *self, PyObject *args)
{
  double t;
  mbpy_vector y, yp;
  if (point_args(self, args, "jacobian", &t, &y, &yp) != 0) {
    return NULL;
  }
  PyObject *result = NULL;
  if (!yp.data) {
    PyErr_SetString(PyExc_TypeError, "jacobian(t, y, yp) takes 3 arguments");
  } else {
    mbdae_jac_pattern pat;
    mbdae_problem_jac_pattern(self->p, &pat);
    PyObject *a = mbpy_vector_new((npy_intp)pat.nnz, NULL),
             *b = mbpy_vector_new((npy_intp)pat.nnz, NULL);
    if (a && b) {
      int rc = mbdae_problem_jac_values(self->p, t, y.data, yp.data,
                                        (double *)PyArray_DATA((PyArrayObject *)a),
                                        (double *)PyArray_DATA((PyArrayObject *)b));
      result = rc ? call_failed("the Jacobian", rc) : PyTuple_Pack(2, a, b);
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
  }
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  return result;
}

static PyObject *int_vector(npy_intp n, const int *data)
{
  PyObject *a = PyArray_ZEROS(1, &n, NPY_INT32, 0);
  if (a && n > 0) {
    int *dst = (int *)PyArray_DATA((PyArrayObject *)a);
    memcpy(dst, data, sizeof(int) * (size_t)n);
  }
  return a;
}

PyObject *mbpy_dense_colptr(npy_intp n)
{
  npy_intp n1 = n + 1;
  int wide = n > 0 && n > INT32_MAX / n; /* n * n does not fit an int32 */
  PyObject *a = PyArray_ZEROS(1, &n1, wide ? NPY_INT64 : NPY_INT32, 0);
  if (!a) {
    return NULL;
  }
  void *data = PyArray_DATA((PyArrayObject *)a);
  for (npy_intp j = 0; j <= n; j++) {
    int64_t v = (int64_t)j * (int64_t)n;
    if (wide) {
      ((int64_t *)data)[j] = v;
    } else {
      ((int32_t *)data)[j] = (int32_t)v;
    }
  }
  return a;
}

/* The row indices of a dense n x n pattern, column after column. */
static PyObject *dense_rowind(npy_intp n)
{
  npy_intp nnz = n * n;
  PyObject *a = PyArray_ZEROS(1, &nnz, NPY_INT32, 0);
  if (a) {
    int32_t *ri = (int32_t *)PyArray_DATA((PyArrayObject *)a);
    for (npy_intp j = 0; j < n; j++) {
      for (npy_intp i = 0; i < n; i++) {
        ri[j * n + i] = (int32_t)i;
      }
    }
  }
  return a;
}

/* _pattern() -> (kind name, ml, mu, colptr, rowind): the compressed-column pattern of
 * dF/dy + c dF/dy' (written out in full for a dense problem: colptr in int64 when n^2 does not
 * fit an int32). */
static PyObject *problem_pattern(mbpy_problem *self, PyObject *unused)
{
  (void)unused;
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(self->p, &pat);
  PyObject *colptr, *rowind;
  if (pat.colptr) {
    colptr = int_vector(pat.neq + 1, pat.colptr);
    rowind = int_vector((npy_intp)pat.nnz, pat.rowind);
  } else {
    colptr = mbpy_dense_colptr(pat.neq);
    rowind = colptr ? dense_rowind(pat.neq) : NULL;
  }
  PyObject *result = colptr && rowind ? Py_BuildValue("(siiOO)", mbdae_jac_kind_name(pat.kind),
                                                      pat.ml, pat.mu, colptr, rowind)
                                      : NULL;
  Py_XDECREF(colptr);
  Py_XDECREF(rowind);
  return result;
}

static PyObject *problem_init(mbpy_problem *self, PyObject *unused)
{
  (void)unused;
  PyObject *y = mbpy_vector_new(self->n, NULL), *yp = mbpy_vector_new(self->n, NULL);
  PyObject *result = NULL;
  if (y && yp) {
    int rc = mbdae_problem_init(self->p, (double *)PyArray_DATA((PyArrayObject *)y),
                                (double *)PyArray_DATA((PyArrayObject *)yp));
    result = rc ? call_failed("init", rc) : PyTuple_Pack(2, y, yp);
  }
  Py_XDECREF(y);
  Py_XDECREF(yp);
  return result;
}

/* reference() -> y(tend), or None where the problem has none. */
static PyObject *problem_reference(mbpy_problem *self, PyObject *unused)
{
  (void)unused;
  PyObject *y = mbpy_vector_new(self->n, NULL);
  if (!y) {
    return NULL;
  }
  int rc = mbdae_problem_ref(self->p, (double *)PyArray_DATA((PyArrayObject *)y));
  if (rc == MBDAE_ERR_NOREF) {
    Py_DECREF(y);
    Py_RETURN_NONE;
  }
  if (rc != 0) {
    Py_DECREF(y);
    return call_failed("reference", rc);
  }
  return y;
}

/* reference_trajectory() -> (t, Y): the reference trajectory's output times (ntimes) and the
 * solution there, Y[k, i] = y_i(t_k) (ntimes x neq, the library's y[i + k*neq]); None where the
 * problem has none. */
static PyObject *problem_reference_trajectory(mbpy_problem *self, PyObject *unused)
{
  (void)unused;
  size_t nt = 0;
  const double *t = NULL;
  int rc = mbdae_problem_reference_trajectory(self->p, &nt, &t, NULL);
  if (rc == MBDAE_ERR_NOREF) {
    Py_RETURN_NONE;
  }
  if (rc != 0) {
    return call_failed("reference_trajectory", rc);
  }
  npy_intp tdims[1] = {(npy_intp)nt}, ydims[2] = {(npy_intp)nt, (npy_intp)self->n};
  PyObject *ta = PyArray_ZEROS(1, tdims, NPY_DOUBLE, 0);
  PyObject *ya = ta ? PyArray_ZEROS(2, ydims, NPY_DOUBLE, 0) : NULL;
  if (!ya) {
    Py_XDECREF(ta);
    return NULL;
  }
  memcpy(PyArray_DATA((PyArrayObject *)ta), t, sizeof(double) * nt);
  rc = mbdae_problem_reference_trajectory(self->p, &nt, &t,
                                          (double *)PyArray_DATA((PyArrayObject *)ya));
  PyObject *result = rc ? call_failed("reference_trajectory", rc) : PyTuple_Pack(2, ta, ya);
  Py_DECREF(ta);
  Py_DECREF(ya);
  return result;
}

/* constraints(t, y, yp=None) -> (g, g'): positions and velocities (g' does not depend on y'). */
static PyObject *problem_constraints(mbpy_problem *self, PyObject *args)
{
  double t;
  mbpy_vector y, yp;
  if (point_args(self, args, "constraints", &t, &y, &yp) != 0) {
    return NULL;
  }
  int nc = mbdae_problem_nconstraints(self->p);
  PyObject *g = mbpy_vector_new(nc, NULL), *gv = mbpy_vector_new(nc, NULL);
  double *zeros = yp.data ? NULL : PyMem_Calloc((size_t)self->n, sizeof(double));
  PyObject *result = NULL;
  if (g && gv && (yp.data || zeros)) {
    int rc = nc == 0 ? 0
                     : mbdae_problem_constraints(self->p, t, y.data, yp.data ? yp.data : zeros,
                                                 (double *)PyArray_DATA((PyArrayObject *)g),
                                                 (double *)PyArray_DATA((PyArrayObject *)gv), NULL);
    result = rc ? call_failed("constraints", rc) : PyTuple_Pack(2, g, gv);
  } else if (!PyErr_Occurred()) {
    PyErr_NoMemory();
  }
  PyMem_Free(zeros);
  Py_XDECREF(g);
  Py_XDECREF(gv);
  Py_XDECREF(y.owned);
  Py_XDECREF(yp.owned);
  return result;
}

/* The reference vector of scd and mescd: yref when given, else the problem's; 0, or -1 with
 * ValueError when there is none. */
static int reference_for(const mbpy_problem *self, PyObject *oref, mbpy_vector *ref, double *buf)
{
  ref->owned = NULL;
  if (oref && oref != Py_None) {
    return mbpy_vector_in(oref, self->n, "yref", ref);
  }
  if (mbdae_problem_ref(self->p, buf) != 0) {
    PyErr_Format(PyExc_ValueError,
                 "%s has no reference solution (%s): pass yref=", mbdae_problem_spec(self->p),
                 mbdae_problem_ref_source(self->p));
    return -1;
  }
  ref->data = buf;
  return 0;
}

/* scd(y, yref=None) and mescd(y, rtol, atol, yref=None) as the library computes them. */
static PyObject *accuracy(mbpy_problem *self, PyObject *args, PyObject *kwargs, int mixed)
{
  static char *kw_scd[] = {"y", "yref", NULL};
  static char *kw_mescd[] = {"y", "rtol", "atol", "yref", NULL};
  PyObject *oy, *oref = NULL;
  double rtol = 0.0, atol = 0.0;
  int ok = mixed ? PyArg_ParseTupleAndKeywords(args, kwargs, "Odd|O:mescd", kw_mescd, &oy, &rtol,
                                               &atol, &oref)
                 : PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:scd", kw_scd, &oy, &oref);
  mbpy_vector y, ref;
  if (!ok || mbpy_vector_in(oy, self->n, "y", &y) != 0) {
    return NULL;
  }
  double *buf = PyMem_Malloc(sizeof(double) * (size_t)self->n);
  PyObject *result = NULL;
  if (!buf) {
    PyErr_NoMemory();
  } else if (reference_for(self, oref, &ref, buf) == 0) {
    result = PyFloat_FromDouble(mixed ? mbdae_mescd(self->p, y.data, ref.data, rtol, atol)
                                      : mbdae_scd(self->p, y.data, ref.data));
    Py_XDECREF(ref.owned);
  }
  PyMem_Free(buf);
  Py_XDECREF(y.owned);
  return result;
}

static PyObject *problem_scd(mbpy_problem *self, PyObject *args, PyObject *kwargs)
{
  return accuracy(self, args, kwargs, 0);
}

static PyObject *problem_mescd(mbpy_problem *self, PyObject *args, PyObject *kwargs)
{
  return accuracy(self, args, kwargs, 1);
}

/* _check_points() -> (t, y, yp): the library's check points (mbdae_problem_check_points), rows
 * of y and yp one point each. */
static PyObject *problem_check_points(mbpy_problem *self, PyObject *unused)
{
  (void)unused;
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  int rc = mbdae_problem_check_points(self->p, &pts);
  if (rc != 0) {
    mbdae_check_points_free(&pts);
    return call_failed("check points", rc);
  }
  npy_intp np = pts.npoints, dims[2] = {pts.npoints, self->n};
  PyObject *t = PyArray_SimpleNew(1, &np, NPY_DOUBLE), *y = PyArray_SimpleNew(2, dims, NPY_DOUBLE),
           *yp = PyArray_SimpleNew(2, dims, NPY_DOUBLE), *result = NULL;
  if (t && y && yp) {
    size_t bytes = sizeof(double) * (size_t)pts.npoints * (size_t)self->n;
    memcpy(PyArray_DATA((PyArrayObject *)t), pts.t, sizeof(double) * (size_t)pts.npoints);
    memcpy(PyArray_DATA((PyArrayObject *)y), pts.y, bytes);
    memcpy(PyArray_DATA((PyArrayObject *)yp), pts.yp, bytes);
    result = PyTuple_Pack(3, t, y, yp);
  }
  Py_XDECREF(t);
  Py_XDECREF(y);
  Py_XDECREF(yp);
  mbdae_check_points_free(&pts);
  return result;
}

/* _linsys_resolve(solver, kind) -> the name of the iteration matrix's storage that the built-in
 * or plug-in solver of id solver takes for this problem when asked for kind: what its type's
 * capabilities say (mbdae_linsys_resolve); ValueError for an id that is neither (a Python
 * solver's storage is in its Result's record). */
static PyObject *problem_linsys_resolve(mbpy_problem *self, PyObject *args)
{
  const char *solver;
  int kind;
  if (!PyArg_ParseTuple(args, "si:_linsys_resolve", &solver, &kind)) {
    return NULL;
  }
  const mbdae_solver_type *type = mbpy_solver_find(solver);
  if (!type) {
    return PyErr_Format(PyExc_ValueError, "unknown solver '%s' (mbdae.solvers() lists them)",
                        solver);
  }
  const char *name = mbdae_jac_kind_name(mbdae_linsys_resolve(self->p, type, kind));
  return PyUnicode_FromString(name ? name : "unknown");
}

/* unit_costs(reps=1000) -> dict: CPU seconds of one residual, Jacobian and factorization as the
 * library measures them (mbdae_problem_unit_costs), for comparisons with calls from Python. */
static PyObject *problem_unit_costs(mbpy_problem *self, PyObject *args)
{
  int reps = 1000;
  if (!PyArg_ParseTuple(args, "|i:unit_costs", &reps)) {
    return NULL;
  }
  if (reps < 1) {
    return PyErr_Format(PyExc_ValueError, "reps must be at least 1");
  }
  mbdae_unit_costs c = MBDAE_UNIT_COSTS_INIT;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = mbdae_problem_unit_costs(self->p, reps, &c);
  Py_END_ALLOW_THREADS if (rc != 0) { return call_failed("unit_costs", rc); }
  return Py_BuildValue("{s:d,s:d,s:d,s:d}", "res", c.res, "jac", c.jac, "lu_real", c.lu_real,
                       "lu_complex", c.lu_complex);
}

/* _test_set(rtol) -> (rtol, atol, h0) of a run at rtol as the test set runs it, from the library's
 * mbdae_options_test_set (rtol None: the problem's run tolerance); ValueError for a refused rtol.
 */
static PyObject *problem_test_set(mbpy_problem *self, PyObject *arg)
{
  double rtol = 0.0; /* the library's "the run tolerance" */
  if (arg != Py_None && mbpy_double(arg, "rtol", &rtol) != 0) {
    return NULL;
  }
  mbdae_options opt;
  mbdae_options_default(&opt);
  if (arg != Py_None && rtol == 0.0) {
    rtol = NAN; /* a given 0 is no rtol, not a request for the default */
  }
  if (mbdae_options_test_set(self->p, rtol, &opt) != 0) {
    return PyErr_Format(PyExc_ValueError,
                        (rtol < 1.0 ? "rtol must be a positive finite number, got %R"
                                    : "rtol must be below 1 (a relative error of 100%%), got %R"),
                        arg);
  }
  return Py_BuildValue("(ddd)", opt.rtol, opt.atol, opt.h0);
}

static PyMethodDef problem_methods[] = {
    {"_test_set", (PyCFunction)problem_test_set, METH_O, NULL},
    {"unit_costs", (PyCFunction)problem_unit_costs, METH_VARARGS,
     "unit_costs(reps=1000) -> {res, jac, lu_real, lu_complex}: CPU seconds of one call each, "
     "measured in C by the library (mbdae_problem_unit_costs)."},
    {"init", (PyCFunction)problem_init, METH_NOARGS,
     "init() -> (y0, yp0): the consistent initial values at t0."},
    {"residual", (PyCFunction)(void (*)(void))problem_residual, METH_FASTCALL | METH_KEYWORDS,
     "residual(t, y, yp, out=None) -> F(t, y, y'), written into out (a float64 vector) when "
     "given."},
    {"_jacobian_dense", (PyCFunction)problem_jacobian_dense, METH_VARARGS, NULL},
    {"_jacobian_values", (PyCFunction)problem_jacobian_values, METH_VARARGS, NULL},
    {"_pattern", (PyCFunction)problem_pattern, METH_NOARGS, NULL},
    {"_check_points", (PyCFunction)problem_check_points, METH_NOARGS, NULL},
    {"_linsys_resolve", (PyCFunction)problem_linsys_resolve, METH_VARARGS, NULL},
    {"reference", (PyCFunction)problem_reference, METH_NOARGS,
     "reference() -> y(tend), or None where the problem has none (see ref_source)."},
    {"reference_trajectory", (PyCFunction)problem_reference_trajectory, METH_NOARGS,
     "reference_trajectory() -> (t, Y): the reference trajectory, its output times t (uniform in "
     "[t0, tend]) and Y[k, i] = y_i(t[k]); None where the problem has none (refsol/"
     "<problem>_traj.txt)."},
    {"constraints", (PyCFunction)problem_constraints, METH_VARARGS,
     "constraints(t, y, yp=None) -> (g, g'): the hidden constraints at position and velocity "
     "level (empty arrays for a problem without constraints)."},
    {"scd", (PyCFunction)(void (*)(void))problem_scd, METH_VARARGS | METH_KEYWORDS,
     "scd(y, yref=None) -> -log10 of the largest relative error of the scd components "
     "(mbdae_scd), against the problem's reference unless yref is given."},
    {"mescd", (PyCFunction)(void (*)(void))problem_mescd, METH_VARARGS | METH_KEYWORDS,
     "mescd(y, rtol, atol, yref=None) -> the mixed-error scd (mbdae_mescd)."},
    {NULL, NULL, 0, NULL}};

static PyObject *get_n(mbpy_problem *self, void *c)
{
  (void)c;
  return PyLong_FromLong(self->n);
}

/* String attributes: which one is the closure's number. */
static PyObject *get_text(mbpy_problem *self, void *which)
{
  switch ((int)(Py_intptr_t)which) {
  case 0:
    return PyUnicode_FromString(mbdae_problem_name(self->p));
  case 1:
    return PyUnicode_FromString(mbdae_problem_title(self->p));
  case 2:
    return PyUnicode_FromString(mbdae_problem_spec(self->p));
  default:
    return PyUnicode_FromString(mbdae_problem_ref_source(self->p));
  }
}

static PyObject *get_time(mbpy_problem *self, void *end)
{
  return PyFloat_FromDouble(end ? mbdae_problem_tend(self->p) : mbdae_problem_t0(self->p));
}

static PyObject *get_names(mbpy_problem *self, void *c)
{
  (void)c;
  PyObject *t = PyTuple_New(self->n);
  for (int i = 0; t && i < self->n; i++) {
    PyObject *s = PyUnicode_FromString(mbdae_problem_component(self->p, i));
    if (!s) {
      Py_CLEAR(t);
    } else {
      PyTuple_SET_ITEM(t, i, s);
    }
  }
  return t;
}

static PyObject *get_index(mbpy_problem *self, void *c)
{
  (void)c;
  return int_vector(self->n, mbdae_problem_index(self->p));
}

static PyObject *get_in_scd(mbpy_problem *self, void *c)
{
  (void)c;
  npy_intp n = self->n;
  PyObject *a = PyArray_ZEROS(1, &n, NPY_BOOL, 0);
  for (int i = 0; a && i < self->n; i++) {
    ((npy_bool *)PyArray_DATA((PyArrayObject *)a))[i] = (npy_bool)mbdae_problem_in_scd(self->p, i);
  }
  return a;
}

static PyObject *get_nconstraints(mbpy_problem *self, void *c)
{
  (void)c;
  return PyLong_FromLong(mbdae_problem_nconstraints(self->p));
}

static PyObject *get_jac_nres(mbpy_problem *self, void *c)
{
  (void)c;
  return PyLong_FromLong(mbdae_problem_jac_nres(self->p));
}

/* _tolerance_plan: (m_div, m_max, h0_factor, table rtols, default_rtol). */
static PyObject *get_plan(mbpy_problem *self, void *c)
{
  (void)c;
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(self->p, &plan);
  PyObject *table = PyTuple_New(plan.ntable);
  for (int k = 0; table && k < plan.ntable; k++) {
    PyObject *v = PyFloat_FromDouble(plan.table_rtol[k]);
    if (!v) {
      Py_CLEAR(table);
    } else {
      PyTuple_SET_ITEM(table, k, v);
    }
  }
  PyObject *r = table ? Py_BuildValue("(iidOd)", plan.m_div, plan.m_max, plan.h0_factor, table,
                                      plan.default_rtol)
                      : NULL;
  Py_XDECREF(table);
  return r;
}

static PyGetSetDef problem_getset[] = {
    {"n", (getter)get_n, NULL, "number of equations and variables", NULL},
    {"id", (getter)get_text, NULL, "the problem id: caraxis, pendulum, ...", (void *)0},
    {"title", (getter)get_text, NULL, "one line: Car axis problem, ...", (void *)1},
    {"spec", (getter)get_text, NULL, "canonical spec, all keys spelled out", (void *)2},
    {"ref_source", (getter)get_text, NULL, "where the reference comes from", (void *)3},
    {"t0", (getter)get_time, NULL, "start of the interval", NULL},
    {"tend", (getter)get_time, NULL, "end of the interval", (void *)1},
    {"names", (getter)get_names, NULL, "component names", NULL},
    {"index", (getter)get_index, NULL, "differentiation index per component (int32 array)", NULL},
    {"in_scd", (getter)get_in_scd, NULL, "components that enter scd (bool array)", NULL},
    {"nconstraints", (getter)get_nconstraints, NULL, "hidden constraints per level", NULL},
    {"jac_nres", (getter)get_jac_nres, NULL, "residuals one Jacobian costs (0: analytic)", NULL},
    {"_tolerance_plan", (getter)get_plan, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject mbpy_problem_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mbdae._mbdae.Problem",
    .tp_basicsize = sizeof(mbpy_problem),
    .tp_dealloc = (destructor)problem_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Problem(spec): a problem of the test set (mbdae_problem_create) or of a plug-in.",
    .tp_methods = problem_methods,
    .tp_getset = problem_getset,
    .tp_new = problem_new,
};
