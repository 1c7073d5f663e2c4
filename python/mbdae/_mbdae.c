/* The module mbdae._mbdae: exceptions, the conversion of Python arguments to the library's
 * vectors, plug-ins (mbdae.load_plugin) and the list functions.  mbdae/__init__.py wraps it.
 *
 * Plug-ins are loaded and checked by the library's loader, as the mbdae command loads them
 * (mbdae_plugin_load, include/mbdae/plugin.h); a file is named by a path, never by a name the
 * linker searches for.  A plug-in need not be linked with libmbdae, as in the command (whose
 * libmbdae is in the global scope): Python loads this extension, and with it libmbdae,
 * RTLD_LOCAL, so before the first plug-in the library (or this extension, when libmbdae is linked
 * in statically) is opened again with RTLD_NOLOAD | RTLD_GLOBAL, which makes its symbols available
 * to the objects loaded after it.  The loaded set lives as long as the process (a run may still
 * use a type), guarded by the GIL. */
#define MBDAE_PY_MODULE_FILE
#include "_mbdae.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

PyObject *mbpy_error;
PyObject *mbpy_solver_error;

enum { MAX_PLUGINS = 64 };
static mbdae_plugin *plugins[MAX_PLUGINS];
static int nplugins;

int mbpy_vector_in(PyObject *obj, npy_intp n, const char *what, mbpy_vector *v)
{
  v->owned = NULL;
  if (PyArray_CheckExact(obj)) {
    PyArrayObject *a = (PyArrayObject *)obj;
    if (PyArray_TYPE(a) == NPY_DOUBLE && PyArray_NDIM(a) == 1 && PyArray_DIM(a, 0) == n &&
        PyArray_ISCARRAY_RO(a) && PyArray_ISNOTSWAPPED(a)) {
      v->data = (const double *)PyArray_DATA(a);
      return 0;
    }
  }
  /* The natural type first: only booleans, integers and real floats become doubles (an object,
   * complex or text array is refused, not cast: None would become NaN, 1+2j would lose 2j). */
  PyArrayObject *natural = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
  if (!natural) {
    return -1;
  }
  int type = PyArray_TYPE(natural);
  if (!PyTypeNum_ISBOOL(type) && !PyTypeNum_ISINTEGER(type) && !PyTypeNum_ISFLOAT(type)) {
    PyErr_Format(PyExc_TypeError, "%s: an array of %S given, a real vector of %zd values expected",
                 what, (PyObject *)PyArray_DESCR(natural), (Py_ssize_t)n);
    Py_DECREF(natural);
    return -1;
  }
  PyArrayObject *a = (PyArrayObject *)PyArray_FromArray(natural, PyArray_DescrFromType(NPY_DOUBLE),
                                                        NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
  Py_DECREF(natural);
  if (!a) {
    return -1;
  }
  if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != n) {
    PyErr_Format(PyExc_ValueError,
                 "%s: %zd values in %d dimension(s) given, a vector of %zd expected", what,
                 (Py_ssize_t)PyArray_SIZE(a), PyArray_NDIM(a), (Py_ssize_t)n);
    Py_DECREF(a);
    return -1;
  }
  v->data = (const double *)PyArray_DATA(a);
  v->owned = (PyObject *)a;
  return 0;
}

double *mbpy_vector_out(PyObject *obj, npy_intp n, const char *what)
{
  if (!PyArray_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be a numpy array of float64, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  PyArrayObject *a = (PyArrayObject *)obj;
  if (PyArray_TYPE(a) != NPY_DOUBLE || !PyArray_ISNOTSWAPPED(a)) {
    PyErr_Format(PyExc_TypeError, "%s must be a float64 array (native byte order)", what);
    return NULL;
  }
  if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != n) {
    PyErr_Format(PyExc_ValueError, "%s must be a vector of %zd values", what, (Py_ssize_t)n);
    return NULL;
  }
  if (!PyArray_ISCARRAY(a)) {
    PyErr_Format(PyExc_ValueError, "%s must be a writeable, aligned, contiguous array", what);
    return NULL;
  }
  return (double *)PyArray_DATA(a);
}

PyObject *mbpy_vector_new(npy_intp n, const double *data)
{
  PyObject *a = PyArray_ZEROS(1, &n, NPY_DOUBLE, 0);
  if (a && data && n > 0) {
    memcpy(PyArray_DATA((PyArrayObject *)a), data, sizeof(double) * (size_t)n);
  }
  return a;
}

int mbpy_double(PyObject *obj, const char *what, double *out)
{
  if (!PyFloat_Check(obj) && !PyLong_Check(obj) && !PyNumber_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be a real number, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  *out = PyFloat_AsDouble(obj);
  return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

PyObject *mbpy_raise(PyObject *cls, int code, const char *message)
{
  PyObject *exc =
      PyObject_CallFunction(cls, "s", message && message[0] ? message : mbdae_strerror(code));
  if (exc) {
    PyObject *pycode = PyLong_FromLong(code);
    if (pycode) {
      PyObject_SetAttrString(exc, "code", pycode);
      Py_DECREF(pycode);
    }
    PyObject *name = PyUnicode_FromString(mbdae_strcode(code));
    if (name) {
      PyObject_SetAttrString(exc, "name", name);
      Py_DECREF(name);
    }
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
  }
  return NULL;
}

const mbdae_problem_type *mbpy_plugin_problem(const char *id)
{
  for (int k = 0; k < nplugins; k++) {
    for (int i = 0; i < mbdae_plugin_problem_count(plugins[k]); i++) {
      if (strcmp(mbdae_plugin_problem_type(plugins[k], i)->id, id) == 0) {
        return mbdae_plugin_problem_type(plugins[k], i);
      }
    }
  }
  return NULL;
}

const mbdae_solver_type *mbpy_plugin_solver(const char *id)
{
  for (int k = 0; k < nplugins; k++) {
    for (int i = 0; i < mbdae_plugin_solver_count(plugins[k]); i++) {
      if (strcmp(mbdae_plugin_solver_type(plugins[k], i)->id, id) == 0) {
        return mbdae_plugin_solver_type(plugins[k], i);
      }
    }
  }
  return NULL;
}

const mbdae_solver_type *mbpy_solver_find(const char *id)
{
  const mbdae_solver_type *s = mbdae_solver_find(id);
  return s ? s : mbpy_plugin_solver(id);
}

/* The file libmbdae's code is in (libmbdae.so, or this extension when it is linked in), or NULL. */
static const char *library_file(void)
{
  Dl_info info;
  void *fn;
  const char *(*version)(void) = mbdae_version;
  memcpy(&fn, &version, sizeof fn);
  return dladdr(fn, &info) && info.dli_fname ? info.dli_fname : NULL;
}

/* libmbdae's symbols in the global scope, for plug-ins built without -lmbdae; 0, or -1 with
 * ValueError.  The handle is kept: the library stays loaded with the extension anyway. */
static int library_global(void)
{
  static void *handle; /* guarded by the GIL */
  const char *file = handle ? NULL : library_file();
  if (!handle && file) {
    handle = dlopen(file, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
  }
  if (!handle) {
    const char *why = dlerror();
    PyErr_Format(PyExc_ValueError, "cannot make libmbdae's symbols available to plug-ins: %s",
                 why ? why : "its file is unknown");
    return -1;
  }
  return 0;
}

/* The ids of the types of plug-in pl (kind 1: problems) as a tuple. */
static PyObject *ids_tuple(const mbdae_plugin *pl, int kind)
{
  int n = kind ? mbdae_plugin_problem_count(pl) : mbdae_plugin_solver_count(pl);
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *s = PyUnicode_FromString(kind ? mbdae_plugin_problem_type(pl, i)->id
                                            : mbdae_plugin_solver_type(pl, i)->id);
    if (!s) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, s);
  }
  return t;
}

/* pl loaded by the library's loader, after the plug-ins loaded before; 0, or -1 with ValueError. */
static int load_file(const char *file, mbdae_plugin **pl)
{
  char msg[1024] = "";
  if (nplugins == MAX_PLUGINS) {
    PyErr_Format(PyExc_ValueError, "plug-in %s: at most %d plug-ins", file, MAX_PLUGINS);
    return -1;
  }
  if (mbdae_plugin_load(file, (const mbdae_plugin *const *)plugins, nplugins, pl, msg,
                        sizeof msg) != 0) {
    PyErr_Format(PyExc_ValueError, "plug-in %s: %s", file, msg);
    return -1;
  }
  return 0;
}

static PyObject *load_plugin(PyObject *self, PyObject *args)
{
  (void)self;
  PyObject *pathobj;
  if (!PyArg_ParseTuple(args, "O&:load_plugin", PyUnicode_FSConverter, &pathobj)) {
    return NULL;
  }
  const char *file = PyBytes_AS_STRING(pathobj);
  mbdae_plugin *pl = NULL;
  if (!strchr(file, '/')) {
    PyErr_Format(PyExc_ValueError,
                 "plug-in %s: give a path (./%s), never a name the linker searches for", file,
                 file);
  } else if (library_global() == 0 && load_file(file, &pl) == 0) {
    plugins[nplugins++] = pl;
  }
  Py_DECREF(pathobj);
  if (!pl) {
    return NULL;
  }
  PyObject *sids = ids_tuple(pl, 0), *pids = ids_tuple(pl, 1);
  PyObject *result = sids && pids ? PyTuple_Pack(2, sids, pids) : NULL;
  Py_XDECREF(sids);
  Py_XDECREF(pids);
  return result;
}

/* item appended to *list (a new reference, taken); *list cleared when either fails. */
static void append_item(PyObject **list, PyObject *item)
{
  if (*list && (!item || PyList_Append(*list, item) != 0)) {
    Py_CLEAR(*list);
  }
  Py_XDECREF(item);
}

/* (id, options) of every built-in problem, then (id, "") of every plug-in problem. */
static PyObject *problem_ids(PyObject *self, PyObject *unused)
{
  (void)self;
  (void)unused;
  PyObject *list = PyList_New(0);
  for (int i = 0; list && i < mbdae_problem_count(); i++) {
    const char *id = mbdae_problem_id(i);
    append_item(&list, Py_BuildValue("(ss)", id, mbdae_problem_options(id)));
  }
  for (int k = 0; list && k < nplugins; k++) {
    for (int i = 0; list && i < mbdae_plugin_problem_count(plugins[k]); i++) {
      append_item(&list, Py_BuildValue("(ss)", mbdae_plugin_problem_type(plugins[k], i)->id, ""));
    }
  }
  return list;
}

static PyObject *solver_item(const mbdae_solver_type *s)
{
  return Py_BuildValue("(ssz)", s->id, s->title, s->runs_on);
}

/* (id, title, runs_on or None) of every built-in solver, then of every plug-in solver. */
static PyObject *solver_ids(PyObject *self, PyObject *unused)
{
  (void)self;
  (void)unused;
  PyObject *list = PyList_New(0);
  for (int i = 0; list && i < mbdae_solver_count(); i++) {
    append_item(&list, solver_item(mbdae_solver_get(i)));
  }
  for (int k = 0; list && k < nplugins; k++) {
    for (int i = 0; list && i < mbdae_plugin_solver_count(plugins[k]); i++) {
      append_item(&list, solver_item(mbdae_plugin_solver_type(plugins[k], i)));
    }
  }
  return list;
}

/* The path of the libmbdae this module runs with (for ctypes comparisons). */
static PyObject *library_path(PyObject *self, PyObject *unused)
{
  (void)self;
  (void)unused;
  const char *file = library_file();
  if (!file) {
    Py_RETURN_NONE;
  }
  return PyUnicode_DecodeFSDefault(file);
}

/* ((name, code, message), ...) of every status code, from the library's one error table. */
static PyObject *status_table(PyObject *self, PyObject *unused)
{
  (void)self;
  (void)unused;
#define MBPY_STATUS_ENTRY(name, value, text) {#name, value, text},
  static const struct {
    const char *name;
    int value;
    const char *text;
  } table[] = {MBDAE_ERROR_TABLE(MBPY_STATUS_ENTRY)};
#undef MBPY_STATUS_ENTRY
  size_t count = sizeof table / sizeof table[0];
  PyObject *t = PyTuple_New((Py_ssize_t)count);
  for (size_t k = 0; t && k < count; k++) {
    PyObject *item = Py_BuildValue("(sis)", table[k].name, table[k].value, table[k].text);
    if (!item) {
      Py_CLEAR(t);
    } else {
      PyTuple_SET_ITEM(t, (Py_ssize_t)k, item);
    }
  }
  return t;
}

/* _dense_colptr(n) -> the column pointers of a dense n x n pattern (what pattern() gives). */
static PyObject *dense_colptr(PyObject *self, PyObject *args)
{
  (void)self;
  Py_ssize_t n;
  if (!PyArg_ParseTuple(args, "n:_dense_colptr", &n)) {
    return NULL;
  }
  if (n < 0 || n > INT32_MAX) {
    return PyErr_Format(PyExc_ValueError, "n must be from 0 to 2^31 - 1");
  }
  return mbpy_dense_colptr(n);
}

static PyObject *strcode(PyObject *self, PyObject *args)
{
  (void)self;
  int code;
  if (!PyArg_ParseTuple(args, "i:strcode", &code)) {
    return NULL;
  }
  return Py_BuildValue("(ss)", mbdae_strcode(code), mbdae_strerror(code));
}

static PyObject *environment(PyObject *self, PyObject *unused)
{
  (void)self;
  (void)unused;
  mbdae_environment env;
  mbdae_environment_get(&env);
  return Py_BuildValue("{s:s,s:s,s:s,s:s}", "mbdae", env.mbdae, "dependencies", env.dependencies,
                       "machine", env.machine, "cpu", env.cpu);
}

/* use_exceptions(Error, SolverError): the classes the module raises, the package's own (defined
 * in Python, where help() shows them without the Exception machinery). */
static PyObject *use_exceptions(PyObject *self, PyObject *args)
{
  PyObject *error, *solver_error;
  if (!PyArg_ParseTuple(args, "O!O!:use_exceptions", &PyType_Type, &error, &PyType_Type,
                        &solver_error)) {
    return NULL;
  }
  if (!PyType_IsSubtype((PyTypeObject *)error, (PyTypeObject *)PyExc_Exception) ||
      !PyType_IsSubtype((PyTypeObject *)solver_error, (PyTypeObject *)error)) {
    return PyErr_Format(PyExc_TypeError, "use_exceptions: an Exception and a subclass of it");
  }
  if (PyModule_AddObjectRef(self, "Error", error) < 0 ||
      PyModule_AddObjectRef(self, "SolverError", solver_error) < 0) {
    return NULL;
  }
  Py_XSETREF(mbpy_error, Py_NewRef(error));
  Py_XSETREF(mbpy_solver_error, Py_NewRef(solver_error));
  Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"load_plugin", load_plugin, METH_VARARGS, "load_plugin(path) -> (solver ids, problem ids)"},
    {"problem_ids", problem_ids, METH_NOARGS, "[(id, options)] of every problem"},
    {"solver_ids", solver_ids, METH_NOARGS, "[(id, title, runs_on)] of every solver"},
    {"library_path", library_path, METH_NOARGS, "the path of the libmbdae in use"},
    {"strcode", strcode, METH_VARARGS, "strcode(code) -> (MBDAE_ name, message)"},
    {"use_exceptions", use_exceptions, METH_VARARGS, "use_exceptions(Error, SolverError)"},
    {"status_table", status_table, METH_NOARGS, "((MBDAE_ name, code, message), ...)"},
    {"_dense_colptr", dense_colptr, METH_VARARGS, "the column pointers of a dense pattern"},
    {"environment", environment, METH_NOARGS, "mbdae_environment_get as a dict"},
    {"solve", (PyCFunction)(void (*)(void))mbpy_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(problem, solver, rtol, atol, h0, hmax, max_steps, linsys, tout, steps, repeats)"},
    {"write_table", mbpy_write_table, METH_VARARGS, "write_table(problem, runs) -> Markdown"},
    {"runs_csv", mbpy_runs_csv, METH_VARARGS,
     "runs_csv(runs, side_dir, side_prefix) -> bytes of runs.csv (header and rows)"},
    {"read_runs_csv", mbpy_read_runs_csv, METH_VARARGS, "read_runs_csv(path) -> [Run]"},
    {"sweep_plan", mbpy_sweep_plan, METH_VARARGS,
     "sweep_plan(problems, solvers, rtols, atol, h0, max_steps, linsys, repeats) -> "
     "[(problem, solver, rtol, atol, h0)]"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "_mbdae",
                                        "The C part of mbdae (see the package mbdae).",
                                        -1,
                                        module_methods,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

static int add_type(PyObject *m, PyTypeObject *type, const char *name)
{
  if (PyType_Ready(type) < 0) {
    return -1;
  }
  Py_INCREF(type);
  if (PyModule_AddObject(m, name, (PyObject *)type) < 0) {
    Py_DECREF(type);
    return -1;
  }
  return 0;
}

PyMODINIT_FUNC PyInit__mbdae(void)
{
  import_array();
  PyObject *m = PyModule_Create(&module_def);
  if (!m) {
    return NULL;
  }
  mbpy_error = PyErr_NewExceptionWithDoc(
      "mbdae.Error", "A call of the mbdae library failed: code (negative), name (MBDAE_...).", NULL,
      NULL);
  mbpy_solver_error = PyErr_NewExceptionWithDoc(
      "mbdae.SolverError",
      "A run failed: code, name (MBDAE_ERR_...), the message, and result (the run's Result).",
      mbpy_error, NULL);
  if (!mbpy_error || !mbpy_solver_error || PyModule_AddObjectRef(m, "Error", mbpy_error) < 0 ||
      PyModule_AddObjectRef(m, "SolverError", mbpy_solver_error) < 0 ||
      add_type(m, &mbpy_problem_type, "Problem") < 0 || add_type(m, &mbpy_run_type, "Run") < 0 ||
      add_type(m, &mbpy_harness_type, "Harness") < 0 ||
      add_type(m, &mbpy_integrator_type, "Integrator") < 0 ||
      PyModule_AddStringConstant(m, "version", mbdae_version()) < 0 ||
      PyModule_AddStringConstant(m, "header_version", MBDAE_VERSION) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
