/* Run records between Python and files: runs.csv written into bytes (mbdae_record_write_csv_header
 * and _row_side, the rows of `mbdae sweep`), read back (mbdae_record_read_csv: RFC 4180 quoting,
 * side files) into Run objects, and the run-characteristics table (mbdae_record_write_table).
 *
 * Nothing here opens runs.csv for writing: the caller (mbdae.write_runs_csv) writes the bytes to
 * a new file and renames it into place, so that a file is replaced whole or not at all.  The side
 * files of large records go to a folder the caller names (a fresh one of its own). */
#include "_mbdae.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* The records of a list of Runs (shallow copies: the writers only read); NULL with an exception. */
static mbdae_record *records_of(PyObject *runs, Py_ssize_t *n)
{
  if (!PyList_Check(runs)) {
    PyErr_SetString(PyExc_TypeError, "runs must be a list");
    return NULL;
  }
  *n = PyList_GET_SIZE(runs);
  mbdae_record *recs = PyMem_Calloc((size_t)*n + 1, sizeof *recs);
  if (!recs) {
    PyErr_NoMemory();
    return NULL;
  }
  for (Py_ssize_t k = 0; k < *n; k++) {
    PyObject *run = PyList_GET_ITEM(runs, k);
    if (!PyObject_TypeCheck(run, &mbpy_run_type)) {
      PyMem_Free(recs);
      PyErr_Format(PyExc_TypeError, "runs[%zd] is not a run of mbdae.solve", k);
      return NULL;
    }
    recs[k] = ((mbpy_run *)run)->rec;
  }
  return recs;
}

/* runs_csv(runs, side_dir, side_prefix) -> bytes: the header line and a row per run, as a sweep
 * writes them; a record too large for its row has its vectors in side_dir/<side_prefix><k>.vec. */
PyObject *mbpy_runs_csv(PyObject *self, PyObject *args)
{
  (void)self;
  PyObject *runs, *dirobj;
  const char *prefix;
  if (!PyArg_ParseTuple(args, "OO&s:runs_csv", &runs, PyUnicode_FSConverter, &dirobj, &prefix)) {
    return NULL;
  }
  Py_ssize_t n;
  mbdae_record *recs = records_of(runs, &n);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = recs ? open_memstream(&text, &len) : NULL;
  int rc = mem ? mbdae_record_write_csv_header(mem, NULL) : -1;
  errno = 0;
  for (Py_ssize_t k = 0; rc == 0 && k < n; k++) {
    char side[200];
    snprintf(side, sizeof side, "%s%zd.vec", prefix, k + 1);
    rc = mbdae_record_write_csv_row_side(mem, &recs[k], PyBytes_AS_STRING(dirobj), side);
  }
  int err = errno;
  if (mem && fclose(mem) != 0) {
    rc = -1;
  }
  PyObject *result = NULL;
  if (recs && rc != 0) {
    errno = err ? err : EIO;
    PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, dirobj);
  } else if (recs) {
    result = PyBytes_FromStringAndSize(text, (Py_ssize_t)len);
  }
  free(text);
  PyMem_Free(recs);
  Py_DECREF(dirobj);
  return result;
}

/* read_runs_csv(path) -> [Run]: the records of runs.csv as the library's reader takes them (every
 * field checked; a bad file raises ValueError with "path:line: why"). */
PyObject *mbpy_read_runs_csv(PyObject *self, PyObject *args)
{
  (void)self;
  PyObject *pathobj;
  if (!PyArg_ParseTuple(args, "O&:read_runs_csv", PyUnicode_FSConverter, &pathobj)) {
    return NULL;
  }
  const char *path = PyBytes_AS_STRING(pathobj);
  FILE *in = fopen(path, "r");
  if (!in) {
    PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, pathobj);
    Py_DECREF(pathobj);
    return NULL;
  }
  mbdae_record *recs = NULL;
  size_t n = 0;
  char msg[600] = "";
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = mbdae_record_read_csv(in, path, &recs, &n, msg, sizeof msg);
  fclose(in);
  Py_END_ALLOW_THREADS Py_DECREF(pathobj);
  if (rc != 0) {
    return PyErr_Format(PyExc_ValueError, "%s", msg);
  }
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t k = 0; list && k < n; k++) {
    mbpy_run *run = mbpy_run_new();
    if (!run) {
      Py_CLEAR(list);
      break;
    }
    run->rec = recs[k]; /* the Run owns the record's vectors from here */
    memset(&recs[k], 0, sizeof recs[k]);
    PyList_SET_ITEM(list, (Py_ssize_t)k, mbpy_run_finish(run));
  }
  mbdae_records_free(recs, n);
  return list;
}

/* write_table(problem, runs) -> the run-characteristics table of problem in Markdown
 * (mbdae_record_write_table: the test set's layout, rows at its table tolerances, then failures).
 */
PyObject *mbpy_write_table(PyObject *self, PyObject *args)
{
  (void)self;
  mbpy_problem *prob;
  PyObject *runs;
  if (!PyArg_ParseTuple(args, "O!O:write_table", &mbpy_problem_type, &prob, &runs)) {
    return NULL;
  }
  Py_ssize_t n;
  mbdae_record *recs = records_of(runs, &n);
  if (!recs) {
    return NULL;
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

/* The problems' library instances, checked to be Problems; a new array (PyMem_Free), or NULL with
 * an exception. */
static const mbdae_problem **problems_of(PyObject *seq, Py_ssize_t n)
{
  const mbdae_problem **p = PyMem_Calloc((size_t)n + 1, sizeof *p);
  for (Py_ssize_t i = 0; p && i < n; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyObject_TypeCheck(item, &mbpy_problem_type)) {
      PyErr_Format(PyExc_TypeError, "sweep_plan: problem %zd is not a Problem", i + 1);
      PyMem_Free(p);
      return NULL;
    }
    p[i] = ((mbpy_problem *)item)->p;
  }
  return p ? p : (const mbdae_problem **)PyErr_NoMemory();
}

/* The runs of plan as a list of (problem index, solver index, rtol, atol, h0). */
static PyObject *plan_runs(const mbdae_sweep_plan *plan)
{
  PyObject *list = PyList_New(0);
  for (int k = 0; list && k < mbdae_sweep_plan_count(plan); k++) {
    int i, s;
    mbdae_options opt;
    mbdae_options_default(&opt);
    mbdae_sweep_plan_run(plan, k, &i, &s, &opt);
    PyObject *item = Py_BuildValue("(iiddd)", i, s, opt.rtol, opt.atol, opt.h0);
    if (!item || PyList_Append(list, item) != 0) {
      Py_CLEAR(list);
    }
    Py_XDECREF(item);
  }
  return list;
}

/* sweep_plan(problems, solvers, rtols or None, atol, h0, max_steps, linsys, repeats): the runs of
 * the library's mbdae_sweep_plan, the command's sweep order and options. */
PyObject *mbpy_sweep_plan(PyObject *self, PyObject *args)
{
  (void)self;
  PyObject *pobj, *sobj, *robj;
  mbdae_sweep_settings set;
  mbdae_sweep_settings_default(&set);
  if (!PyArg_ParseTuple(args, "OOOddlii:sweep_plan", &pobj, &sobj, &robj, &set.atol, &set.h0,
                        &set.max_steps, &set.linsys, &set.repeats)) {
    return NULL;
  }
  PyObject *pseq = PySequence_Fast(pobj, "problems: a sequence");
  PyObject *sseq = pseq ? PySequence_Fast(sobj, "solvers: a sequence") : NULL;
  PyObject *rseq = sseq && robj != Py_None ? PySequence_Fast(robj, "tolerances: a sequence") : NULL;
  Py_ssize_t np = pseq ? PySequence_Fast_GET_SIZE(pseq) : 0;
  Py_ssize_t ns = sseq ? PySequence_Fast_GET_SIZE(sseq) : 0;
  Py_ssize_t nr = rseq ? PySequence_Fast_GET_SIZE(rseq) : 0;
  const mbdae_problem **problems = sseq && (robj == Py_None || rseq) ? problems_of(pseq, np) : NULL;
  const char **solvers = problems ? PyMem_Calloc((size_t)ns + 1, sizeof *solvers) : NULL;
  double *rtols = solvers ? PyMem_Calloc((size_t)nr + 1, sizeof *rtols) : NULL;
  int ok = rtols != NULL;
  for (Py_ssize_t s = 0; ok && s < ns; s++) {
    ok = (solvers[s] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(sseq, s))) != NULL;
  }
  for (Py_ssize_t t = 0; ok && t < nr; t++) {
    rtols[t] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(rseq, t));
    ok = !(rtols[t] == -1.0 && PyErr_Occurred());
  }
  PyObject *result = NULL;
  if (ok && np <= INT_MAX && ns <= INT_MAX && nr <= INT_MAX) {
    set.rtols = rtols;
    set.nrtols = (int)nr;
    char msg[256] = "";
    mbdae_sweep_plan *plan = NULL;
    if (mbdae_sweep_plan_create(problems, (int)np, solvers, (int)ns, &set, &plan, msg,
                                sizeof msg) != 0) {
      PyErr_SetString(PyExc_ValueError, msg);
    } else {
      result = plan_runs(plan);
    }
    mbdae_sweep_plan_free(plan);
  } else if (ok) {
    PyErr_SetString(PyExc_ValueError, "sweep_plan: too many problems, solvers or tolerances");
  } else if (!PyErr_Occurred()) {
    PyErr_NoMemory();
  }
  PyMem_Free(rtols);
  PyMem_Free(solvers);
  PyMem_Free(problems);
  Py_XDECREF(rseq);
  Py_XDECREF(sseq);
  Py_XDECREF(pseq);
  return result;
}
