"""mbdae: the multibody DAE test problems, their solvers, scd/mescd and run records, from Python.

The problems and solvers are those of the C library libmbdae (the C extension mbdae._mbdae calls
its public API, include/mbdae/mbdae.h); the numbers are the library's, bit for bit.

    import mbdae
    p = mbdae.Problem("caraxis")                   # any spec of `mbdae list`
    y0, yp0 = p.init()
    r = mbdae.solve(p, "radau5", rtol=1e-7)         # r.y, r.scd, r.mescd, r.stats, r.record
    mbdae.solve(p, my_solver)                      # a Python solver through the same harness

Problems: Problem(spec), problems(), load_plugin(path).  Runs: solve(), Result, SolverError,
solvers().  Records: write_runs_csv(), sweep(), table().
"""
import dataclasses
import json
import math
import os

import numpy as np

from . import _mbdae, clients, harness
from ._mbdae import Error, SolverError

__all__ = ["Problem", "Tolerances", "Result", "Error", "SolverError", "solve", "problems",
           "solvers", "load_plugin", "write_runs_csv", "table", "sweep", "LINSYS", "version"]

version = _mbdae.version
LINSYS = ("auto", "dense", "band", "sparse", "condensed")  # mbdae_jac_kind, in its order


@dataclasses.dataclass(frozen=True)
class Tolerances:
    """How the test set runs a problem: rtol = atol = 10^-(4 + m/m_div), m = 0..m_max;
    h0 = h0_factor * rtol; the published run-characteristics table uses table (rtol = atol)."""
    m_div: int
    m_max: int
    h0_factor: float
    table: tuple
    default: float

    def sweep(self):
        """The tolerances of the test set's work-precision diagrams, 10^-(4 + m/m_div)."""
        return tuple(10.0 ** -(4 + m / self.m_div) for m in range(self.m_max + 1))


class Problem(_mbdae.Problem):
    """Problem(spec): a problem of the test set ("caraxis", "crank:index=2",
    "chain:links=10,form=ssf", ...; see problems()) or of a loaded plug-in.

    Attributes: n, id, spec, title, t0, tend, names, index (per component), in_scd,
    nconstraints, ref_source, tolerances.  Functions: init(), residual(), jacobian(),
    pattern(), reference(), constraints(), scd(), mescd(), mass(), rhs().
    A bad spec raises ValueError with the library's message."""

    def __repr__(self):
        return f"mbdae.Problem({self.spec!r})  # {self.title}, n = {self.n}"

    @property
    def tolerances(self):
        """The test set's tolerance plan (Tolerances)."""
        m_div, m_max, h0_factor, table, default = self._tolerance_plan
        return Tolerances(m_div, m_max, h0_factor, table, default)

    def pattern(self):
        """The compressed-column pattern of dF/dy + c dF/dy' as a dict: kind ("dense", "band",
        "sparse"), ml, mu, and indptr/indices (int32) as scipy.sparse takes them."""
        kind, ml, mu, colptr, rowind = self._pattern()
        return {"kind": kind, "ml": ml, "mu": mu, "indptr": colptr, "indices": rowind}

    def jacobian(self, t, y, yp, sparse=False):
        """(dF/dy, dF/dy') at (t, y, y'): dense n x n arrays, or with sparse=True
        scipy.sparse.csc_array's on the problem's pattern (pattern())."""
        if not sparse:
            return self._jacobian_dense(t, y, yp)
        import scipy.sparse
        pat = self.pattern()
        a, b = self._jacobian_values(t, y, yp)
        shape = (self.n, self.n)
        return (scipy.sparse.csc_array((a, pat["indices"], pat["indptr"]), shape=shape),
                scipy.sparse.csc_array((b, pat["indices"], pat["indptr"]), shape=shape))

    def _linear_implicit(self):
        """M = dF/dy', checked constant and F linear in y' at the library's check points."""
        cached = getattr(self, "_mass_cache", None)
        if cached is not None:
            if isinstance(cached, str):
                raise ValueError(cached)
            return cached
        ts, ys, yps = self._check_points()
        mass = self._jacobian_dense(ts[0], ys[0], yps[0])[1]
        why = None
        for t, y, yp in zip(ts, ys, yps):
            m = self._jacobian_dense(t, y, yp)[1]
            lin = self.residual(t, y, yp) - self.residual(t, y, np.zeros(self.n)) - mass @ yp
            size = np.abs(self.residual(t, y, yp)) + np.abs(mass) @ np.abs(yp) + 1.0
            if not np.array_equal(m, mass):
                why = f"dF/dy' is not constant (it differs at t = {t:g})"
            elif np.max(np.abs(lin) / size) > 1e-12:
                why = f"F is not linear in y' (at t = {t:g})"
            if why:
                self._mass_cache = (f"{self.spec} is not of the form M y' = f(t, y) with a "
                                    f"constant M: {why}")
                raise ValueError(self._mass_cache)
        self._mass_cache = mass
        return mass

    def mass(self):
        """The constant mass matrix M of F = M y' - f(t, y) (M = dF/dy'), so that mass-matrix
        codes can run the problem as M y' = rhs(t, y).  Raises ValueError for a form that is not
        linearly implicit with a constant M (checked at the library's check points)."""
        return self._linear_implicit().copy()

    def rhs(self, t, y, out=None):
        """f(t, y) = M y' - F(t, y, y') = -F(t, y, 0): the right-hand side of M y' = f(t, y)."""
        self._linear_implicit()
        r = self.residual(t, y, np.zeros(self.n), out=out)
        np.negative(r, out=r)
        return r


def problems():
    """[(id, options)] of every problem: the built-in ones, then the loaded plug-ins' ones."""
    return _mbdae.problem_ids()


def solvers():
    """[(id, title, runs_on)] of every solver (runs_on None: any problem of the test set)."""
    return _mbdae.solver_ids()


def load_plugin(path):
    """Load a plug-in (a shared object, as `mbdae --plugin FILE`): its solvers become solver
    names of solve() and its problems specs of Problem().  Returns (solver ids, problem ids).
    A file that is no valid plug-in raises ValueError and loads nothing."""
    return _mbdae.load_plugin(os.fspath(path))


@dataclasses.dataclass
class Stats:
    """The counters of a run (mbdae_stats)."""
    steps: int
    accepted: int
    nres: int
    nres_fd: int
    njac: int
    nlu: int
    nerrfail: int
    nconvfail: int


@dataclasses.dataclass(repr=False)
class Result:
    """The outcome of solve(): y (and yp) at the end; t and y_eval (the states at t_eval, or at
    the accepted steps with t_eval="steps", then yp_eval too); status (0 or a negative MBDAE_
    code), code (its name), message; stats (counters); cpu_seconds; scd, mescd (NaN without a
    reference or after a failure); drift; and record, the dict of `mbdae run --json`."""
    problem: str
    solver: str
    status: int
    code: str
    message: str
    t_end: float
    y: np.ndarray
    yp: object
    t: object
    y_eval: object
    yp_eval: object
    stats: Stats
    cpu_seconds: float
    scd: float
    mescd: float
    drift: dict
    record: dict
    _run: object = None

    @property
    def success(self):
        return self.status == 0

    def __repr__(self):
        s = self.stats
        return (f"<mbdae.Result {self.solver} on {self.problem}: {self.code}, scd {self.scd:.2f}, "
                f"mescd {self.mescd:.2f}, steps {s.steps}, nres {s.nres}, njac {s.njac}, "
                f"nlu {s.nlu}, cpu {self.cpu_seconds:.3g} s>")


def _num(v):
    return math.nan if v is None else v


def _result(run, problem):
    rec = json.loads(run.json())
    y = np.asarray(rec["y"], dtype=float) if rec.get("y") is not None else None
    stats = Stats(*(int(rec[k]) for k in ("steps", "accepted", "nres", "nres_fd", "njac", "nlu",
                                           "nerrfail", "nconvfail")))
    drift = {k: _num(rec[k]) for k in ("drift_pos_max", "drift_vel_max", "drift_pos_end",
                                       "drift_vel_end")}
    drift["drift_steps"] = int(rec["drift_steps"])
    return Result(problem=problem.spec, solver=rec["solver"], status=run.status,
                  code=_mbdae.strcode(run.status)[0], message=rec["message"], t_end=_num(rec["t"]),
                  y=y, yp=run.yp, t=run.t_out, y_eval=run.y_out, yp_eval=run.yp_out, stats=stats,
                  cpu_seconds=_num(rec["cpu_seconds"]), scd=_num(rec["scd"]),
                  mescd=_num(rec["mescd"]), drift=drift, record=rec, _run=run)


def _linsys_code(linsys):
    if isinstance(linsys, str) and linsys in LINSYS:
        return LINSYS.index(linsys)
    raise ValueError(f"linsys {linsys!r}: one of {', '.join(LINSYS)}")


def _python_runner(fn, problem):
    """The runner of a Python solver: calls fn(call) with a SolverCall, then finishes the run
    from what fn returned."""
    from .harness import run_python_solver
    return lambda harness: run_python_solver(fn, problem, harness)


def solve(problem, solver="radau5", rtol=None, atol=None, h0=None, hmax=0.0, max_steps=0,
          linsys="auto", t_eval=None, repeats=1, raise_on_failure=True, name=None, title=None):
    """Integrate problem (a Problem or a spec) over [t0, tend] from its consistent initial
    values with solver, through the library's harness (as `mbdae run`): a built-in or plug-in
    solver id (see solvers()), or a Python callable (see mbdae.harness.SolverCall).

    rtol defaults to the problem's run tolerance, atol to rtol, h0 to the test set's
    h0_factor * rtol (as `mbdae run`); hmax 0 and max_steps 0 are the solver's defaults; linsys
    one of LINSYS.  t_eval: output times (the solver's continuous output) or "steps" (the
    accepted steps).  A built-in solver runs with the GIL released.  A failed run raises
    SolverError (code, name, message, result) unless raise_on_failure=False; bad options and an
    unknown solver raise ValueError."""
    if not isinstance(problem, _mbdae.Problem):
        problem = Problem(problem)
    tol = problem.tolerances
    rtol = tol.default if rtol is None else float(rtol)
    atol = rtol if atol is None else float(atol)
    h0 = tol.h0_factor * rtol if h0 is None else float(h0)
    steps = isinstance(t_eval, str)
    if steps and t_eval != "steps":
        raise ValueError(f"t_eval {t_eval!r}: output times or \"steps\"")
    tout = None if t_eval is None or steps else np.asarray(t_eval, dtype=float)
    runner = None
    if callable(solver):
        runner = _python_runner(solver, problem)
        ident = name or getattr(solver, "name", None) or getattr(solver, "__name__", "python")
        title = title or getattr(solver, "title", None) or f"{ident} (Python)"
        solver_id = str(ident)
    elif isinstance(solver, str):
        solver_id = solver
    else:
        raise ValueError(f"solver {solver!r}: a solver id (mbdae.solvers()) or a callable")
    run = _mbdae.solve(problem, solver_id, rtol, atol, h0, float(hmax), int(max_steps),
                       _linsys_code(linsys), tout, steps, int(repeats), runner, title)
    result = _result(run, problem)
    if result.status != 0 and raise_on_failure:
        err = SolverError(f"{result.solver} failed on {problem.spec}: {result.message} "
                          f"({result.code})")
        err.code, err.name, err.result = result.status, result.code, result
        raise err from run.exception
    return result


def write_runs_csv(results, directory, append=False):
    """Write the records of results (solve()'s Results) to directory/runs.csv with the library's
    writers (the rows of `mbdae sweep`; large final vectors in side files beside it), so that
    `mbdae sweep --report DIR` draws them.  append=True adds them to an existing runs.csv (e.g.
    a sweep of the built-in solvers).  Returns the path."""
    directory = os.fspath(directory)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "runs.csv")
    runs = [r._run for r in results]
    _mbdae.write_runs_csv(path, directory, runs, bool(append))
    return path


def table(problem, results):
    """The run-characteristics table of problem in Markdown, in the layout of the test set's
    tables (the library's mbdae_record_write_table, as `mbdae sweep` writes <problem>-table.md):
    the results at the problem's table tolerances, then the failed ones."""
    if not isinstance(problem, _mbdae.Problem):
        problem = Problem(problem)
    return _mbdae.write_table(problem, [r._run for r in results])


def sweep(problems, solvers, tolerances=None, directory=None, append=False, **options):
    """Run every solver on every problem at every tolerance (rtol = atol; None: the problem's
    test-set sweep, Tolerances.sweep()), failures kept as rows; write runs.csv to directory when
    given (then `mbdae sweep --report DIR` draws the work-precision diagrams).  Returns the
    Results."""
    results = []
    for spec in problems:
        p = spec if isinstance(spec, _mbdae.Problem) else Problem(spec)
        tols = p.tolerances.sweep() if tolerances is None else tolerances
        for s in solvers:
            for tol in tols:
                results.append(solve(p, s, rtol=tol, atol=tol, raise_on_failure=False, **options))
    if directory is not None:
        write_runs_csv(results, directory, append=append)
    return results
