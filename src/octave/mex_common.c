/* mex_common.c: argument checks, errors and the problem cache of the mbdae MEX gateways (see
 * mex_common.h).  The cache is the binding's only state: a handful of immutable problem
 * instances keyed by their canonical spec, so that a residual call from an ODE solver does not
 * create its problem again (which for the chain or the wheelset costs a consistent start). */
#include "mex_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(HAVE_OCTAVE)
#include <quit.h> /* octave_signal_caught, octave_handle_signal: C linkage */
#elif defined(MATLAB_MEX_FILE)
#include <stdbool.h>
extern bool utIsInterruptPending(void); /* libut, undocumented but stable since R14 */
#endif

void mx_fail(const char *what, const char *fmt, ...)
{
  char msg[1024], id[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(id, sizeof id, "mbdae:%s", what);
  mexErrMsgIdAndTxt(id, "%s", msg);
#if defined(__GNUC__)
  __builtin_unreachable();
#endif
}

/* ---- the problem cache ---------------------------------------------------------------------- */

enum { CACHE_SIZE = 8 };
typedef struct cache_entry {
  char *key; /* the spec as given (the canonical one is the instance's) */
  mbdae_problem *p;
  unsigned long used;
} cache_entry;
static cache_entry cache[CACHE_SIZE];
static unsigned long cache_clock;
static int cache_registered;

static void cache_release(void)
{
  for (int i = 0; i < CACHE_SIZE; i++) {
    mbdae_problem_destroy(cache[i].p);
    free(cache[i].key);
    cache[i] = (cache_entry){0};
  }
}

static const mbdae_problem *cache_find(const char *spec)
{
  for (int i = 0; i < CACHE_SIZE; i++) {
    if (cache[i].p && strcmp(cache[i].key, spec) == 0) {
      cache[i].used = ++cache_clock;
      return cache[i].p;
    }
  }
  return NULL;
}

static const mbdae_problem *cache_add(const char *spec)
{
  char msg[512] = "";
  mbdae_problem *p = NULL;
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  char *key = rc == 0 ? malloc(strlen(spec) + 1) : NULL;
  if (rc != 0 || !key) {
    mbdae_problem_destroy(p);
    mx_fail("spec", "'%s': %s", spec, rc != 0 ? (msg[0] ? msg : mbdae_strerror(rc)) : "no memory");
  }
  strcpy(key, spec);
  int slot = 0;
  for (int i = 1; i < CACHE_SIZE; i++) {
    if (cache[i].used < cache[slot].used) {
      slot = i;
    }
  }
  mbdae_problem_destroy(cache[slot].p);
  free(cache[slot].key);
  cache[slot] = (cache_entry){.key = key, .p = p, .used = ++cache_clock};
  if (!cache_registered) {
    mexAtExit(cache_release);
    cache_registered = 1;
  }
  return p;
}

const mbdae_problem *mx_problem(const mxArray *a, const char *what)
{
  const mxArray *s = a;
  if (mxIsStruct(a)) {
    if (mxGetNumberOfElements(a) != 1 || !(s = mxGetField(a, 0, "spec"))) {
      mx_fail("arg", "%s: a problem struct (mbdae_problem) or a spec string expected", what);
    }
  }
  if (!mxIsChar(s)) {
    mx_fail("arg", "%s: a problem struct (mbdae_problem) or a spec string expected", what);
  }
  char spec[MBDAE_RECORD_SPEC_LEN + 64];
  if (mxGetNumberOfElements(s) >= sizeof spec || mxGetString(s, spec, sizeof spec) != 0) {
    mx_fail("spec", "%s: the spec is not a short string of characters", what);
  }
  const mbdae_problem *p = cache_find(spec);
  return p ? p : cache_add(spec);
}

/* ---- arguments ------------------------------------------------------------------------------ */

void mx_arity(int nrhs, int lo, int hi, int nlhs, int outs, const char *usage)
{
  if (nrhs < lo || nrhs > hi) {
    mx_fail("arg", "%d arguments given; usage: %s", nrhs, usage);
  }
  if (nlhs > outs) {
    mx_fail("arg", "%d outputs asked for; usage: %s", nlhs, usage);
  }
}

char *mx_string(const mxArray *a, const char *what)
{
  char *s = mxIsChar(a) ? mxArrayToString(a) : NULL;
  if (!s) {
    mx_fail("arg", "%s: a string expected", what);
  }
  return s;
}

static int real_double(const mxArray *a)
{
  return mxIsDouble(a) && !mxIsComplex(a) && !mxIsSparse(a);
}

double mx_scalar(const mxArray *a, const char *what)
{
  if (!real_double(a) || mxGetNumberOfElements(a) != 1) {
    mx_fail("arg", "%s: a real double scalar expected", what);
  }
  double v = mxGetScalar(a);
  if (!isfinite(v)) {
    mx_fail("arg", "%s: %g is not finite", what, v);
  }
  return v;
}

const double *mx_vector(const mxArray *a, int n, const char *what, int *is_row)
{
  if (!real_double(a) || mxGetNumberOfDimensions(a) != 2 || (mxGetM(a) != 1 && mxGetN(a) != 1)) {
    mx_fail("arg", "%s: a real, full double vector of %d values expected", what, n);
  }
  if (mxGetNumberOfElements(a) != (size_t)n) {
    mx_fail("arg", "%s: %zu values given, %d expected", what, mxGetNumberOfElements(a), n);
  }
  const double *v = mxGetPr(a);
  for (int i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      mx_fail("arg", "%s(%d) = %g is not finite", what, i + 1, v[i]);
    }
  }
  if (is_row) {
    *is_row = mxGetM(a) == 1 && n > 1;
  }
  return v;
}

mxArray *mx_column(const double *v, int n, int row)
{
  mxArray *a =
      row ? mxCreateDoubleMatrix(1, (size_t)n, mxREAL) : mxCreateDoubleMatrix((size_t)n, 1, mxREAL);
  if (v && n > 0) {
    memcpy(mxGetPr(a), v, sizeof(double) * (size_t)n);
  }
  return a;
}

/* ---- Ctrl-C --------------------------------------------------------------------------------- */

int mx_interrupt_pending(void)
{
#if defined(HAVE_OCTAVE)
  return octave_signal_caught != 0;
#elif defined(MATLAB_MEX_FILE)
  return utIsInterruptPending();
#else
  return 0;
#endif
}

void mx_raise_interrupt(void)
{
#if defined(HAVE_OCTAVE)
  /* Octave's own handling: an interrupt unwinds to the prompt (exits a batch session); any
   * other signal it handles and returns, and the run is reported stopped. */
  OCTAVE_QUIT;
#endif
  mx_fail("interrupted", "stopped by a signal (Ctrl-C) before the end of the interval");
}
