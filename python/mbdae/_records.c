/* Run records between Python and files: runs.csv written into bytes (mbdae_record_write_csv_header
 * and _row_side, the rows of `mbdae sweep`), read back (mbdae_record_read_csv: RFC 4180 quoting,
 * side files) into Run objects, and the run-characteristics table (mbdae_record_write_table).
 *
 * Nothing here opens runs.csv for writing: the caller (mbdae.write_runs_csv) writes the bytes to
 * a new file and renames it into place, so that a file is replaced whole or not at all.  The side
 * files of large records go to a folder the caller names (a fresh one of its own). */
#include "_mbdae.h"

#include <errno.h>
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
