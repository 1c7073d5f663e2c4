/* mex_common.h: what the mbdae MEX gateways share (src/octave/mbdae_*.c): the problem behind a
 * problem struct or spec string, checked arguments, and errors that name the function.
 *
 * Written to the C MEX API (mex.h), which Octave's `mkoctfile --mex` and MATLAB's `mex` build.
 * Every check raises through mexErrMsgIdAndTxt, which does not return (Octave throws, MATLAB
 * longjmps): a gateway frees what it allocated with malloc (the library's objects) before it
 * calls anything that may raise.  Memory from mxMalloc and mxArrays are released by the
 * interpreter either way. */
#ifndef MBDAE_MEX_COMMON_H
#define MBDAE_MEX_COMMON_H

#include <stddef.h>

#include "mex.h"
#include <mbdae/mbdae.h>

/* Raise the error "mbdae:<what>" with the message (Octave and MATLAB put the function's name
 * before it).  Does not return. */
void mx_fail(const char *what, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;

/* The problem named by a, a problem struct (its field spec) or a spec string.  Instances are
 * created once per spec and kept for the life of the MEX file (a few, the least recently used
 * replaced; immutable, released at exit).  Raises on a bad spec. */
const mbdae_problem *mx_problem(const mxArray *a, const char *what);
/* A string argument (mxMalloc'd: the interpreter frees it). */
char *mx_string(const mxArray *a, const char *what);
/* A real finite scalar. */
double mx_scalar(const mxArray *a, const char *what);
/* A real, full, double vector (row or column) of n finite values; *is_row tells its shape
 * (NULL: not asked). */
const double *mx_vector(const mxArray *a, int n, const char *what, int *is_row);
/* A vector of n values as a column (row: as a row). */
mxArray *mx_column(const double *v, int n, int row);
/* The check of nrhs / nlhs against the usage line. */
void mx_arity(int nrhs, int lo, int hi, int nlhs, int outs, const char *usage);

/* 1 when the user has pressed Ctrl-C (Octave: a signal is caught; MATLAB: utIsInterruptPending),
 * polled between steps; raise it with mx_raise_interrupt once the C objects are freed. */
int mx_interrupt_pending(void);
void mx_raise_interrupt(void);

#endif /* MBDAE_MEX_COMMON_H */
