/* mbdae: the public API of the DAE test set library.
 *
 * A problem is F(t, y, y') = 0 on [t0, tend] with consistent initial values, an analytic
 * Jacobian (dF/dy, dF/dy'), a differentiation index per variable and a reference solution at
 * tend.  Problems are created from a spec string, "id" or "id:key=value,key=value", and are
 * immutable after creation: one instance may be used from several threads at once.
 *
 * Matrices are dense and column-major: A[i + j*neq] is row i, column j.
 * Return codes: 0 success, negative an error (mbdae_strerror names it), positive a recoverable
 * failure of a callback (the residual cannot be evaluated at this point: retry with a smaller
 * step).
 *
 * The declarations are in topic headers, each self-contained, all included here: base.h
 * (version, export macro, error codes), problem.h, check.h, solve.h, project.h, records.h,
 * plugin.h and integrator.h.  A program includes this one.
 *
 * Source of the problems: F. Mazzia, C. Magherini, Test Set for IVP Solvers, release 2.4 (Bari,
 * 2008); pendulum and double pendulum: Hafner & Poell, Comparison of regularisation methods
 * referring to a multi-pendulum case study, eqs. (1) and (6). */
#ifndef MBDAE_MBDAE_H
#define MBDAE_MBDAE_H

#include "base.h"
#include "problem.h"
#include "check.h"
#include "solve.h"
#include "project.h"
#include "records.h"
#include "plugin.h"
#include "integrator.h"

#endif /* MBDAE_MBDAE_H */
