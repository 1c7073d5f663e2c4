"""Python solvers through the mbdae harness: what mbdae.solve(problem, solver=callable) calls.

The callable receives one SolverCall and returns the end state:

    def my_solver(call):
        t, y, yp = call.t0, call.y0.copy(), call.yp0.copy()
        ...                                  # call.residual(t, y, yp) (counted),
        call.on_accept(t, y, yp)             # call.jacobian(t, y, yp) (counted)
        return y, yp                         # or a dict (below)

A dict may carry y, yp, t (where it ended: tend on success), status (mbdae.Status.OK or a
negative code: Status.CONV, Status.MAX_STEPS, ...), message, the solver's own counters steps
(attempted), nlu, nerrfail, nconvfail, h (the last step size) and y_eval (the states at
call.t_eval, one row each; required when t_eval was given).  The harness counts residuals,
Jacobians and accepted states (on_accept) itself, times the call, measures scd, mescd and the
constraint drift, and makes the same record as for a C solver.  It checks the outcome as it
checks a plug-in's: a status not in mbdae.Status, a t that is not tend on success (or NaN, or
outside the interval), a non-finite y at the end or in y_eval on success, a negative counter
make the run a failure (Status.SOLVER) whose message says which.  An exception in the callable
ends the run as Status.SOLVER (solve() raises SolverError from it), and so does a return value it
cannot read; KeyboardInterrupt and SystemExit (no Exception) are raised by solve() instead.
"""
import dataclasses

import numpy as np


@dataclasses.dataclass
class SolverCall:
    """What a Python solver gets: problem (mbdae.Problem: names, index, mass(), ...), the
    interval t0, tend, the consistent start y0, yp0, the options rtol, atol, h0, hmax,
    max_steps, the output times t_eval (empty: none), and the counting functions residual(t,
    y, yp, out=None) and jacobian(t, y, yp) -> (dF/dy, dF/dy'), and on_accept(t, y, yp)."""
    problem: object
    t0: float
    tend: float
    y0: np.ndarray
    yp0: np.ndarray
    rtol: float
    atol: float
    h0: float
    hmax: float
    max_steps: int
    t_eval: np.ndarray
    residual: object
    jacobian: object
    on_accept: object


_KEYS = ("status", "message", "steps", "nlu", "nerrfail", "nconvfail", "h", "y_eval")


def run_python_solver(fn, problem, harness):
    """Call fn with a SolverCall on harness, then harness.finish with its outcome."""
    t0, tend = harness.interval
    o = harness.options
    call = SolverCall(problem=problem, t0=t0, tend=tend, y0=harness.y0, yp0=harness.yp0,
                      rtol=o["rtol"], atol=o["atol"], h0=o["h0"], hmax=o["hmax"],
                      max_steps=o["max_steps"], t_eval=harness.t_eval,
                      residual=harness.residual, jacobian=harness.jacobian,
                      on_accept=harness.on_accept)
    out = fn(call)
    if isinstance(out, dict):
        unknown = set(out) - set(_KEYS) - {"y", "yp", "t"}
        if unknown or "y" not in out or "yp" not in out:
            raise TypeError(f"the solver returned a dict with keys {sorted(out)}: y and yp are "
                            f"required, and only {', '.join(('t',) + _KEYS)} besides")
        extra = {k: out[k] for k in _KEYS if k in out and out[k] is not None}
        harness.finish(int(extra.pop("status", 0)), float(out.get("t", tend)), out["y"],
                       out["yp"], **extra)
    elif isinstance(out, tuple) and len(out) == 2:
        harness.finish(0, tend, out[0], out[1])
    else:
        raise TypeError(f"the solver returned {type(out).__name__}: (y, yp) or a dict expected")
