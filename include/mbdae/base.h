/* mbdae/base.h: the version, the export macro and the error codes every other header uses.
 * Return codes: 0 success, negative an error (mbdae_strerror names it), positive a recoverable
 * failure of a callback (the residual cannot be evaluated at this point: retry with a smaller
 * step). */
#ifndef MBDAE_BASE_H
#define MBDAE_BASE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MBDAE_VERSION_MAJOR 0
#define MBDAE_VERSION_MINOR 4
#define MBDAE_VERSION_PATCH 0
#define MBDAE_VERSION "0.4.0"

/* What the shared library exports: the declarations marked MBDAE_API, nothing else (it is
 * built with hidden visibility). */
#if defined(__GNUC__)
#define MBDAE_API __attribute__((visibility("default")))
#else
#define MBDAE_API
#endif

/* The version of the library linked at run time ("0.4.0"), and the versions of the libraries it
 * uses, read from them at run time: "SUNDIALS 6.4.1, LAPACK 3.11.0" (for the records of a run). */
MBDAE_API const char *mbdae_version(void);
MBDAE_API void mbdae_dependency_versions(char *buf, size_t len);

/* ---- error codes: one table generates the enum and mbdae_strerror ------------------------ */

#define MBDAE_ERROR_TABLE(X)                                                                       \
  X(MBDAE_OK, 0, "success")                                                                        \
  X(MBDAE_RECOVERABLE, 1, "recoverable failure: the residual cannot be evaluated here")            \
  X(MBDAE_ERR_ARG, -1, "invalid argument")                                                         \
  X(MBDAE_ERR_SPEC, -2, "invalid problem spec (unknown id or key, or bad value)")                  \
  X(MBDAE_ERR_NOREF, -3, "no reference solution is known for this configuration")                  \
  X(MBDAE_ERR_NOMEM, -4, "out of memory")                                                          \
  X(MBDAE_ERR_SINGULAR, -5, "singular matrix")                                                     \
  X(MBDAE_ERR_INTERNAL, -6, "internal error (bad argument to LAPACK or the solver library)")       \
  X(MBDAE_ERR_MAX_STEPS, -7, "maximum number of steps reached")                                    \
  X(MBDAE_ERR_STEP_TOO_SMALL, -8, "step size too small")                                           \
  X(MBDAE_ERR_CONV, -9, "repeated convergence failures of the nonlinear iteration")                \
  X(MBDAE_ERR_ERRTEST, -10, "repeated error-test failures")                                        \
  X(MBDAE_ERR_RES, -11, "the residual function failed")                                            \
  X(MBDAE_ERR_SOLVER, -12, "the solver failed")                                                    \
  X(MBDAE_ERR_UNSUPPORTED, -13, "not supported by this problem or solver")                         \
  X(MBDAE_ERR_UNKNOWN_SOLVER, -14, "unknown solver")                                               \
  X(MBDAE_ERR_TIMEOUT, -15, "no result within the time limit (mbdae sweep --timeout)")

enum mbdae_status {
#define MBDAE_ENUM_ENTRY(name, value, text) name = value,
  MBDAE_ERROR_TABLE(MBDAE_ENUM_ENTRY)
#undef MBDAE_ENUM_ENTRY
};

/* A static string for any code; "unknown error code" for codes not in the table. */
MBDAE_API const char *mbdae_strerror(int code);
/* The MBDAE_ name of a code ("MBDAE_ERR_MAX_STEPS"); "unknown" for codes not in the table. */
MBDAE_API const char *mbdae_strcode(int code);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_BASE_H */
