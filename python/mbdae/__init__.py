"""mbdae: the multibody DAE test problems, their solvers, scd/mescd and run records, from Python.

The problems and solvers are those of the C library libmbdae (the C extension mbdae._mbdae calls
its public API, include/mbdae/mbdae.h); the numbers are the library's, bit for bit.

    import mbdae
    p = mbdae.Problem("caraxis")                   # any spec of `mbdae list`
    y0, yp0 = p.init()
    r = mbdae.solve(p, "radau5", rtol=1e-7)         # r.y, r.scd, r.mescd, r.stats, r.record
    mbdae.solve(p, my_solver)                      # a Python solver through the same harness

Problems: Problem(spec), problems(), load_plugin(path).  Runs: solve(), Result, Status,
SolverError, solvers(); Integrator (a run stepped by the caller).  Records: write_runs_csv(), read_runs_csv(), sweep(), table().

The module is built for one Python (the one CMake found, with NumPy); the build writes the
launcher build/mbdae-python (installed as bin/mbdae-python), which runs that Python with the
module on its path.
"""


def _import_failure(error):
    """The message of an import into a Python the module was not built for."""
    import sys
    try:
        from ._build import LAUNCHER, PYTHON
    except ImportError:
        return f"mbdae cannot be imported into {sys.executable}: {error}"
    return (f"mbdae cannot be imported into {sys.executable} ({error}): the module was built for "
            f"{PYTHON} (with NumPy); run that Python, or the launcher {LAUNCHER}, which runs it "
            f"with the module on its path")


try:
    import numpy as _np
    from . import _mbdae
except ImportError as _error:
    raise ImportError(_import_failure(_error)) from _error

import dataclasses as _dataclasses
import enum as _enum
import json as _json
import math as _math
import os as _os
import re as _re
import secrets as _secrets
import tempfile as _tempfile
import textwrap as _textwrap
import threading as _threading

__all__ = ["Problem", "Tolerances", "Result", "Stats", "Status", "Error", "SolverError", "solve",
           "Integrator",
           "problems", "solvers", "load_plugin", "write_runs_csv", "read_runs_csv", "table",
           "sweep", "LINSYS", "version"]

version = _mbdae.version
LINSYS = ("auto", "dense", "band", "sparse", "condensed")  # mbdae_jac_kind, in its order


def _documented(cls, names):
    """What help() shows of a class of this package: the public names that a class of this
    package defines (not int's, Exception's or dataclasses' machinery)."""
    ours = [c for c in cls.__mro__ if c.__module__.split(".")[0] == __name__]
    names = set(names).union(*(vars(c) for c in ours))
    return sorted(name for name in names
                  if not name.startswith("_") and any(name in vars(c) for c in ours))


class _Quiet(type):
    """The metaclass of the package's classes: dir(cls), and so help(), lists the package's own
    names only."""
    def __dir__(cls):
        return _documented(cls, super().__dir__())


class _QuietEnum(_enum.EnumType):
    def __dir__(cls):
        return _documented(cls, super().__dir__())


class _StatusBase(_enum.IntEnum, metaclass=_QuietEnum):
    @property
    def text(self):
        """What the code means (mbdae_strerror)."""
        return _mbdae.strcode(int(self))[1]

    @property
    def code(self):
        """The library's name of the code, MBDAE_..."""
        return _mbdae.strcode(int(self))[0]


def _status_names():
    names = []
    for name, value, _ in _mbdae.status_table():
        short = _re.sub(r"^MBDAE_(ERR_)?", "", name)
        names.append((short, value))
    return names


class Error(Exception, metaclass=_Quiet):
    """A call of the mbdae library failed: code (a Status), name (its MBDAE_ name)."""


class SolverError(Error):
    """A run failed: code, name (MBDAE_ERR_...), the message, and result (the run's Result)."""


_mbdae.use_exceptions(Error, SolverError)

Status = _StatusBase("Status", _status_names(), module=__name__, qualname="Status")
Status.__doc__ = _textwrap.fill(
    "The library's status codes, from its one error table (include/mbdae/base.h): OK (0), "
    "RECOVERABLE (1: a callback cannot evaluate at this point), and the errors, negative: "
    + ", ".join(f"{s.name} ({s.value})" for s in Status if s.value < 0)
    + ".  A Python solver returns one as its status; Result.status is one; s.code is the "
    "MBDAE_ name, s.text what it means.", 96)


from . import clients, harness  # noqa: E402 (they use Status)


@_dataclasses.dataclass(frozen=True)
class Tolerances(metaclass=_Quiet):
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


class Problem(_mbdae.Problem, metaclass=_Quiet):
    """Problem(spec): a problem of the test set or of a loaded plug-in, by its spec: an id with
    options, as `mbdae list` shows them ("caraxis", "crank:index=2", "chain:n=10,form=ssf", ...;
    see problems()).

    >>> p = Problem("chain:n=10,form=ssf")
    >>> p.n, p.spec.startswith("chain:n=10")
    (20, True)
    >>> y0, yp0 = p.init()
    >>> float(abs(p.residual(p.t0, y0, yp0)).max()) < 1e-10
    True

    Attributes: n, id, spec, title, t0, tend, names, index (per component), in_scd,
    nconstraints, ref_source, tolerances.  Functions: init(), residual(), jacobian(),
    pattern(), reference(), reference_trajectory(), constraints(), scd(), mescd(), mass(), rhs().
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
        "sparse"), ml, mu, and indptr/indices as scipy.sparse takes them (int32; indptr int64 for
        a dense pattern of more than 2^31 - 1 entries)."""
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
            lin = self.residual(t, y, yp) - self.residual(t, y, _np.zeros(self.n)) - mass @ yp
            size = _np.abs(self.residual(t, y, yp)) + _np.abs(mass) @ _np.abs(yp) + 1.0
            if not _np.array_equal(m, mass):
                why = f"dF/dy' is not constant (it differs at t = {t:g})"
            elif _np.max(_np.abs(lin) / size) > 1e-12:
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
        r = self.residual(t, y, _np.zeros(self.n), out=out)
        _np.negative(r, out=r)
        return r


def problems():
    """[(id, options)] of every problem: the built-in ones, then the loaded plug-ins' ones."""
    return _mbdae.problem_ids()


def solvers():
    """[(id, title, runs_on)] of every solver (runs_on None: any problem of the test set)."""
    return _mbdae.solver_ids()


def load_plugin(path):
    """Load a plug-in (a shared object, as `mbdae --plugin FILE`; it need not be linked with
    -lmbdae): its solvers become solver names of solve() and its problems specs of Problem().
    Returns (solver ids, problem ids).  A file that is no valid plug-in (or offers an id twice,
    or one already taken) raises ValueError and loads nothing."""
    return _mbdae.load_plugin(_os.fspath(path))


@_dataclasses.dataclass
class Stats(metaclass=_Quiet):
    """The counters of a run (mbdae_stats)."""
    steps: int
    accepted: int
    nres: int
    nres_fd: int
    njac: int
    nlu: int
    nerrfail: int
    nconvfail: int


@_dataclasses.dataclass(repr=False)
class Result(metaclass=_Quiet):
    """The outcome of solve(): y (and yp) at the end; t and y_eval (the states at t_eval, NaN
    where a failed run did not reach; or with t_eval="steps" at t0 and every accepted step, then
    yp_eval too); status (a Status: OK or a negative code), code (its MBDAE_ name), message;
    stats (counters); cpu_seconds; scd, mescd (NaN without a reference or after a failure);
    tscd, tmescd, tscd_rms: the digits along the reference trajectory (the least scd and mescd
    over its output times, and -log10 of the root mean square error there; NaN for none: no
    reference trajectory, a failure, or a solver without output times); drift; and record, the dict of `mbdae run --json`.  read_runs_csv() gives Results without
    yp, t, y_eval and yp_eval (None)."""
    problem: str
    solver: str
    status: int
    code: str
    message: str
    t_end: float
    y: _np.ndarray
    yp: object
    t: object
    y_eval: object
    yp_eval: object
    stats: Stats
    cpu_seconds: float
    scd: float
    mescd: float
    tscd: float
    tmescd: float
    tscd_rms: float
    drift: dict
    record: dict
    _run: object = None

    @property
    def success(self):
        """Whether the run reached tend (status OK)."""
        return self.status == 0

    def __repr__(self):
        s = self.stats
        return (f"<mbdae.Result {self.solver} on {self.problem}: {self.code}, scd {self.scd:.2f}, "
                f"mescd {self.mescd:.2f}, steps {s.steps}, nres {s.nres}, njac {s.njac}, "
                f"nlu {s.nlu}, cpu {self.cpu_seconds:.3g} s>")


def _num(v):
    return _math.nan if v is None else v


def _status(code):
    try:
        return Status(code)
    except ValueError:
        return code


def _result(run):
    rec = _json.loads(run.json())
    y = _np.asarray(rec["y"], dtype=float) if rec.get("y") is not None else None
    stats = Stats(*(int(rec[k]) for k in ("steps", "accepted", "nres", "nres_fd", "njac", "nlu",
                                           "nerrfail", "nconvfail")))
    drift = {k: _num(rec[k]) for k in ("drift_pos_max", "drift_vel_max", "drift_pos_end",
                                       "drift_vel_end")}
    drift["drift_steps"] = int(rec["drift_steps"])
    return Result(problem=rec["spec"], solver=rec["solver"], status=_status(run.status),
                  code=_mbdae.strcode(run.status)[0], message=rec["message"],
                  t_end=_num(rec["t"]), y=y, yp=run.yp, t=run.t_out, y_eval=run.y_out,
                  yp_eval=run.yp_out, stats=stats, cpu_seconds=_num(rec["cpu_seconds"]),
                  scd=_num(rec["scd"]), mescd=_num(rec["mescd"]), tscd=_num(rec.get("tscd")),
                  tmescd=_num(rec.get("tmescd")), tscd_rms=_num(rec.get("tscd_rms")),
                  drift=drift, record=rec,
                  _run=run)


def _linsys_code(linsys):
    if isinstance(linsys, str) and linsys in LINSYS:
        return LINSYS.index(linsys)
    raise ValueError(f"linsys {linsys!r}: one of {', '.join(LINSYS)}")


_SOLVER_ID = _re.compile(r"[A-Za-z0-9_-]{1,63}")


def _python_solver_id(solver, name):
    """The id of a Python solver: name when given, else its name or __name__ when that is a
    valid id ([A-Za-z0-9_-], as a lambda's "<lambda>" is not), else "python"."""
    if name is not None:
        return str(name)
    for ident in (getattr(solver, "name", None), getattr(solver, "__name__", None)):
        if isinstance(ident, str) and _SOLVER_ID.fullmatch(ident):
            return ident
    return "python"


def _python_caps(fn):
    """The capabilities a Python solver declares by attributes (doc/python.md), as the harness
    reads a C solver's record (mbdae_solver_caps), never those of a built-in solver of the same
    name: linsys, the kinds of linsys it takes (default ("dense",): its Jacobians are dense
    arrays), projects (default False) and dense_output (it fills y_eval at t_eval; default
    True).  A run asking for a kind it does not take fails with the harness's message."""
    kinds = getattr(fn, "linsys", ("dense",))
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    bits = 0
    for kind in kinds:
        if kind not in LINSYS or kind == "auto":
            raise ValueError(f"Python solver's linsys {kind!r}: kinds from "
                             f"{', '.join(LINSYS[1:])}")
        bits |= 1 << LINSYS.index(kind)
    if bits == 0:
        raise ValueError("Python solver's linsys: at least one kind (e.g. (\"dense\",))")
    return bits, bool(getattr(fn, "projects", False)), bool(getattr(fn, "dense_output", True))


def _python_runner(fn, problem):
    """The runner of a Python solver: calls fn(call) with a SolverCall, then finishes the run
    from what fn returned."""
    return lambda h: harness.run_python_solver(fn, problem, h)


def _run_tolerances(problem, rtol, atol, h0):
    """(rtol, atol, h0) as `mbdae run` takes them, from the library's run policy
    (mbdae_options_test_set): rtol None is the problem's run tolerance, atol None rtol, h0 None
    the test set's h0_factor * rtol; rtol must be below 1."""
    rtol, test_set_atol, test_set_h0 = problem._test_set(rtol)
    atol = test_set_atol if atol is None else float(atol)
    h0 = test_set_h0 if h0 is None else float(h0)
    return rtol, atol, h0


def solve(problem, solver="radau5", rtol=None, atol=None, h0=None, hmax=0.0, max_steps=0,
          linsys="auto", t_eval=None, repeats=1, raise_on_failure=True, name=None, title=None):
    """Integrate problem (a Problem or a spec) over [t0, tend] from its consistent initial
    values with solver, through the library's harness (as `mbdae run`): a built-in or plug-in
    solver id (see solvers()), or a Python callable (see mbdae.harness.SolverCall; its id is
    name, else its name or __name__ when that is an id, else "python").

    rtol defaults to the problem's run tolerance, atol to rtol, h0 to the test set's
    h0_factor * rtol (as `mbdae run`); rtol must be below 1; hmax 0 and max_steps 0 are the
    solver's defaults; linsys one of LINSYS.  t_eval: output times (the solver's continuous
    output) or "steps" (t0 and the accepted steps, as `mbdae run --trajectory`).  A built-in
    solver runs with the GIL released; Ctrl-C stops it within about 0.1 s (KeyboardInterrupt).
    A failed run raises SolverError (code, name, message, result) unless
    raise_on_failure=False; bad options and an unknown solver raise ValueError; KeyboardInterrupt
    and SystemExit in a Python solver are raised, never a failed run."""
    if not isinstance(problem, _mbdae.Problem):
        problem = Problem(problem)
    rtol, atol, h0 = _run_tolerances(problem, rtol, atol, h0)
    steps = isinstance(t_eval, str)
    if steps and t_eval != "steps":
        raise ValueError(f"t_eval {t_eval!r}: output times or \"steps\"")
    tout = None if t_eval is None or steps else _np.asarray(t_eval, dtype=float)
    runner, caps = None, (0, False, False)
    if callable(solver):
        caps = _python_caps(solver)
        runner = _python_runner(solver, problem)
        solver_id = _python_solver_id(solver, name)
        title = title or getattr(solver, "title", None) or f"{solver_id} (Python)"
    elif isinstance(solver, str):
        solver_id = solver
    else:
        raise ValueError(f"solver {solver!r}: a solver id (mbdae.solvers()) or a callable")
    main = _threading.current_thread() is _threading.main_thread()
    run = _mbdae.solve(problem, solver_id, rtol, atol, h0, float(hmax), int(max_steps),
                       _linsys_code(linsys), tout, steps, int(repeats), runner, title, main,
                       caps)
    result = _result(run)
    if result.status != 0 and raise_on_failure:
        err = SolverError(f"{result.solver} failed on {problem.spec}: {result.message} "
                          f"({result.code})")
        err.code, err.name, err.result = result.status, result.code, result
        raise err from run.exception
    return result


class Integrator(_mbdae.Integrator, metaclass=_Quiet):
    """A run of a solver that steps (built-in or plug-in) on problem (a Problem or a spec), from
    its consistent initial values over [t0, tend], stepped by the caller as SciPy's OdeSolver is
    (the library's mbdae_integrator); the options and defaults are solve()'s.  Stepping to tend
    gives solve()'s y bit for bit.  A failed step raises SolverError; an unknown solver, or one
    that gives only whole runs, ValueError.  Steps release the GIL; Ctrl-C ends one with
    KeyboardInterrupt (the run has then ended: reset())."""

    def __new__(cls, problem, solver="radau5", rtol=None, atol=None, h0=None, hmax=0.0,
                max_steps=0, linsys="auto"):
        if not isinstance(problem, _mbdae.Problem):
            problem = Problem(problem)
        if not isinstance(solver, str):
            raise ValueError(f"solver {solver!r}: the id of a solver that steps (mbdae.solvers())")
        rtol, atol, h0 = _run_tolerances(problem, rtol, atol, h0)
        self = super().__new__(cls, problem, solver, rtol, atol, h0, float(hmax),
                               int(max_steps), _linsys_code(linsys))
        return self

    def __init__(self, *args, **kwargs):
        pass

    @property
    def stats(self):
        """The counters since the start or the last reset (Stats, as Result.stats)."""
        return Stats(*self._stats)

    def __repr__(self):
        return f"<mbdae.Integrator at t = {self.t!r}: {self.status}>"


def _write_new(directory, name, data):
    """data into a new file of directory (O_EXCL | O_NOFOLLOW: never an existing path, never
    through a link); its path.  A failed write removes it."""
    while True:
        path = _os.path.join(directory, f".{name}.{_secrets.token_hex(8)}.tmp")
        try:
            fd = _os.open(path, _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL | _os.O_NOFOLLOW |
                          getattr(_os, "O_CLOEXEC", 0), 0o666)
            break
        except FileExistsError:
            continue
    try:
        with open(fd, "wb", closefd=True) as f:
            f.write(data)
            f.flush()
            _os.fsync(f.fileno())
    except BaseException:
        _os.unlink(path)
        raise
    return path


def _place_side_files(side_dir, directory):
    """Move the side files of side_dir into directory, none over an existing path; the paths."""
    placed = []
    try:
        for name in sorted(_os.listdir(side_dir)):
            src, dst = _os.path.join(side_dir, name), _os.path.join(directory, name)
            try:
                _os.link(src, dst)  # fails where dst exists, a link included
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links
                if _os.path.lexists(dst):
                    raise FileExistsError(dst) from None
                _os.rename(src, dst)
            placed.append(dst)
    except BaseException:
        for path in placed:
            _os.unlink(path)
        raise
    return placed


def write_runs_csv(results, directory, append=False):
    """Write the records of results (solve()'s Results) to directory/runs.csv with the library's
    writers (the rows of `mbdae sweep`; large final vectors in side files beside it), so that
    `mbdae sweep --report DIR` draws them.  append=True adds them to an existing runs.csv (e.g.
    a sweep of the built-in solvers).  Returns the path.

    The file is replaced whole or left untouched: the rows (after the old file's content when
    appending) go to a new file in directory, which is then renamed over runs.csv; an existing
    path is never opened for writing, so a symbolic link runs.csv is replaced, never written
    through."""
    directory = _os.fspath(directory)
    _os.makedirs(directory, exist_ok=True)
    path = _os.path.join(directory, "runs.csv")
    runs = [r._run for r in results]
    old = b""
    if append:
        try:
            with open(path, "rb") as f:
                old = f.read()
        except FileNotFoundError:
            pass
        if old and not old.endswith(b"\n"):
            raise ValueError(f"{path}: its last line is incomplete; not appended to")
    with _tempfile.TemporaryDirectory(dir=directory, prefix=".runs-") as side_dir:
        prefix = f"python-{_secrets.token_hex(6)}-"
        data = _mbdae.runs_csv(runs, side_dir, prefix)
        placed = _place_side_files(side_dir, directory)
        try:
            new = _write_new(directory, "runs.csv", old + data)
            try:
                _os.replace(new, path)
            except BaseException:
                _os.unlink(new)
                raise
        except BaseException:
            for p in placed:
                _os.unlink(p)
            raise
    return path


def read_runs_csv(path):
    """The runs of a runs.csv (what write_runs_csv and `mbdae sweep` write) as Results, read by
    the library's reader (RFC 4180 quoting, side files, every field checked: a bad file raises
    ValueError naming the line).  Their record is what solve()'s was but for "linsys"."""
    return [_result(run) for run in _mbdae.read_runs_csv(_os.fspath(path))]


def table(problem, results):
    """The run-characteristics table of problem in Markdown, in the layout of the test set's
    tables (the library's mbdae_record_write_table, as `mbdae sweep` writes <problem>-table.md):
    the results at the problem's table tolerances, then the failed ones."""
    if not isinstance(problem, _mbdae.Problem):
        problem = Problem(problem)
    return _mbdae.write_table(problem, [r._run for r in results])


def sweep(problems, solvers, tolerances=None, directory=None, append=False, **options):
    """Run every solver on every problem at every tolerance, failures kept as rows; write runs.csv
    to directory when given (then `mbdae sweep --report DIR` draws the work-precision diagrams).
    Returns the Results.  Ctrl-C (KeyboardInterrupt) stops it, writing nothing.

    The runs are the library's sweep plan (mbdae_sweep_plan), the command's: in the order
    problem, solver, tolerance; tolerances None is each problem's test-set grid
    (Tolerances.sweep()), else the list for every problem (each above 0, below 1); rtol = atol,
    h0 = h0_factor * rtol, unless options give atol or h0 (as `mbdae sweep --atol, --h0`); the
    other options are solve()'s.  append=True adds the rows to an existing runs.csv.  The
    command's --resume is not taken: an interrupted mbdae.sweep writes no runs.partial.csv, so
    there is nothing to resume."""
    probs = [p if isinstance(p, _mbdae.Problem) else Problem(p) for p in problems]
    ids = [_python_solver_id(s, options.get("name")) if callable(s) else s for s in solvers]
    atol, h0 = options.pop("atol", None), options.pop("h0", None)
    plan = _mbdae.sweep_plan(probs, ids, None if tolerances is None else list(tolerances),
                             0.0 if atol is None else float(atol), 0.0 if h0 is None else float(h0),
                             int(options.get("max_steps", 0)),
                             _linsys_code(options.get("linsys", "auto")),
                             int(options.get("repeats", 1)))
    results = [solve(probs[i], solvers[s], rtol=rtol, atol=atol, h0=h0, raise_on_failure=False,
                     **options) for i, s, rtol, atol, h0 in plan]
    if directory is not None:
        write_runs_csv(results, directory, append=append)
    return results
