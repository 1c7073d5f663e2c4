"""A Python solver through the harness (mbdae.solve(problem, callable)): the harness counts its
residuals, Jacobians and accepted states, measures drift, scd and mescd, and makes the record a C
solver gets; a callable that raises or returns garbage gives a failed run, never a crash; the
records go to runs.csv with the library's writers and `mbdae sweep --report` reads them."""
import json
import os
import subprocess

import numpy as np
import pytest

import mbdae
from conftest import SANITIZED
from mbdae import harness as mh

NSTEPS = 400


def implicit_euler(call):
    """Implicit Euler with a fixed step and a full Newton iteration (3 iterations)."""
    h = (call.tend - call.t0) / NSTEPS
    y, yp = call.y0.copy(), call.yp0.copy()
    for k in range(NSTEPS):
        t1 = call.t0 + (k + 1) * h
        y1 = y + h * yp
        for _ in range(3):
            yp1 = (y1 - y) / h
            a, b = call.jacobian(t1, y1, yp1)
            y1 = y1 - np.linalg.solve(a + b / h, call.residual(t1, y1, yp1))
        y, yp = y1, (y1 - y) / h
        call.on_accept(t1, y, yp)
    return {"y": y, "yp": yp, "nlu": 3 * NSTEPS, "h": h}


def euler_alone(p):
    """The same method without the harness, counting by hand."""
    y0, yp0 = p.init()
    counts = {"res": 0, "jac": 0}

    def res(t, y, yp):
        counts["res"] += 1
        return p.residual(t, y, yp)

    def jac(t, y, yp):
        counts["jac"] += 1
        return p.jacobian(t, y, yp)

    call = mh.SolverCall(p, p.t0, p.tend, y0, yp0, 1e-4, 1e-4, 0, 0, 0, np.empty(0), res, jac,
                         lambda t, y, yp: None)
    return implicit_euler(call), counts


def test_harness_counts_and_measures():
    p = mbdae.Problem("pendulum:form=index1")
    r = mbdae.solve(p, implicit_euler, rtol=1e-4)
    alone, counts = euler_alone(p)
    assert np.array_equal(r.y, alone["y"]) and np.array_equal(r.yp, alone["yp"])
    assert r.record["solver"] == "implicit_euler" and "(Python)" in r.record["solver_title"]
    s = r.stats
    assert (s.nres, s.njac, s.accepted, s.steps, s.nlu) == (counts["res"], counts["jac"], NSTEPS,
                                                            NSTEPS, 3 * NSTEPS)
    assert r.scd == p.scd(r.y) and r.mescd == p.mescd(r.y, 1e-4, 1e-4)
    assert r.drift["drift_steps"] == NSTEPS and r.drift["drift_pos_max"] > 0
    # a Python solver without continuous output: no digits along the solution, no failure
    assert np.isnan(r.tscd) and r.record["tscd"] is None
    assert r.cpu_seconds > 0 and r.record["t"] == p.tend
    assert r.record["h"] == alone["h"]


def test_accepted_steps_and_outputs():
    p = mbdae.Problem("pendulum:form=index1")
    r = mbdae.solve(p, implicit_euler, rtol=1e-4, t_eval="steps")
    assert len(r.t) == NSTEPS + 1 and np.array_equal(r.y_eval[-1], r.y)
    y0, yp0 = p.init()  # t0 first, as `mbdae run --trajectory`
    assert r.t[0] == p.t0 and np.array_equal(r.y_eval[0], y0) and np.array_equal(r.yp_eval[0], yp0)
    r2 = mbdae.solve(p, implicit_euler, rtol=1e-4, t_eval="steps", repeats=3)  # the last run's
    assert np.array_equal(r2.t, r.t) and np.array_equal(r2.y_eval, r.y_eval)
    with pytest.raises(mbdae.SolverError, match="y_eval") as e:
        mbdae.solve(p, implicit_euler, t_eval=[1.0, 2.0])
    assert e.value.name == "MBDAE_ERR_UNSUPPORTED"

    def with_outputs(call):
        out = implicit_euler(call)
        out["y_eval"] = np.tile(out["y"], (len(call.t_eval), 1))
        return out

    r = mbdae.solve(p, with_outputs, t_eval=[1.0, 2.0])
    assert r.y_eval.shape == (2, p.n) and np.array_equal(r.y_eval[1], r.y)


def raises(call):
    call.residual(call.t0, call.y0, call.yp0)
    raise RuntimeError("boom")


def keeps_the_call(call):
    keeps_the_call.kept = call
    return call.y0, call.yp0


@pytest.mark.parametrize("garbage", [42, None, (1, 2, 3), {"y": 1}, {"y": [1.0], "yp": [1.0]},
                                     {"y": "abc", "yp": "abc"}, {"status": 1, "y": 0, "yp": 0},
                                     {"y": np.zeros(6), "yp": np.zeros(6), "bogus": 1},
                                     (np.zeros(6, complex), np.zeros(6))])
def test_garbage_is_a_failed_run(garbage):
    r = mbdae.solve("pendulum", lambda call: garbage, raise_on_failure=False, name="garbage")
    assert r.status == -12 and r.code == "MBDAE_ERR_SOLVER" and r.message
    assert np.isnan(r.scd)


def test_exceptions_and_late_calls():
    with pytest.raises(mbdae.SolverError, match="raised RuntimeError: boom") as e:
        mbdae.solve("pendulum", raises)
    assert isinstance(e.value.__cause__, RuntimeError) and e.value.code == -12
    assert e.value.result.stats.nres == 1
    r = mbdae.solve("pendulum", keeps_the_call)
    assert r.success
    with pytest.raises(RuntimeError, match="run that is over"):
        keeps_the_call.kept.residual(0.0, np.zeros(6), np.zeros(6))
    with pytest.raises(RuntimeError, match="run that is over"):
        keeps_the_call.kept.on_accept(0.0, np.zeros(6), np.zeros(6))

    def bad_args(call):
        call.residual(call.t0, call.y0[:3], call.yp0)

    with pytest.raises(mbdae.SolverError) as e:
        mbdae.solve("pendulum", bad_args)
    assert isinstance(e.value.__cause__, ValueError)
    with pytest.raises(ValueError, match="solver 'my solver'"):
        mbdae.solve("pendulum", keeps_the_call, name="my solver")


def test_records_in_runs_csv_and_sweep_report(tmp_path):
    cmd = os.environ.get("MBDAE_COMMAND")
    if not cmd:
        pytest.skip("MBDAE_COMMAND (the mbdae command) is set by ctest")
    d = tmp_path / "wp"
    subprocess.run([cmd, "sweep", "pendulum:form=index1", "--solvers", "radau5", "--rtol",
                    "1e-4,1e-7", "--out", str(d), "--no-plots"], check=True, capture_output=True)
    ours = mbdae.sweep(["pendulum:form=index1"], [implicit_euler], [1e-4, 1e-7], directory=d,
                       append=True)
    assert len(ours) == 2
    out = subprocess.run([cmd, "sweep", "--report", str(d), "--no-plots"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    rows = json.loads((d / "runs.json").read_text())
    rows = rows["runs"] if isinstance(rows, dict) else rows
    solvers = sorted({row["solver"] for row in rows})
    assert solvers == ["implicit_euler", "radau5"]
    ours_rows = [row for row in rows if row["solver"] == "implicit_euler"]
    assert [row["nres"] for row in ours_rows] == [r.stats.nres for r in ours]
    table = next(d.glob("pendulum*-table.md")).read_text()
    assert "implicit_euler" in table and "radau5" in table
    back = mbdae.read_runs_csv(d / "runs.csv")  # the command's rows and ours
    assert [b.solver for b in back] == ["radau5", "radau5", "implicit_euler", "implicit_euler"]
    assert [b.record for b in back[2:]] == [
        {k: v for k, v in r.record.items() if k != "linsys"} for r in ours]


def test_python_and_c_solvers_in_threads():
    import threading
    jobs = [("pendulum:form=index1", implicit_euler), ("caraxis", "radau5"),
            ("andrews:form=index1", implicit_euler), ("crank:index=2", "bdf")]

    def record(job):
        rec = dict(mbdae.solve(job[0], job[1], rtol=1e-5).record)
        for key in ("cpu_seconds", "cpu_min", "cpu_max"):
            rec.pop(key)
        return rec

    alone = [record(j) for j in jobs]
    got = [None] * len(jobs)
    threads = [threading.Thread(target=lambda k=k: got.__setitem__(k, record(jobs[k])))
               for k in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == alone


def test_residual_argument_counts():
    """call.residual with out= and fewer than three positional arguments read past its argument
    array (a crash); call.residual(t, y, out=r) took r for yp.  Both are TypeErrors, as in
    Problem.residual, and so is out given twice."""
    seen = []

    def solver(call):
        y, yp, r = call.y0, call.yp0, np.empty(call.y0.size)
        bad = [lambda: call.residual(out=r), lambda: call.residual(out=1.0),
               lambda: call.residual(0.0, out=r), lambda: call.residual(0.0, y, out=r),
               lambda: call.residual(0.0, y, yp, r, out=r), lambda: call.residual(),
               lambda: call.residual(0.0, y, yp, bogus=r),
               lambda: call.residual(0.0, y, yp, r, r)]
        for _ in range(200):
            for f in bad:
                with pytest.raises(TypeError):
                    f()
        seen.append(call.residual(0.0, y, yp, out=r) is r)
        seen.append(call.residual(0.0, y, yp, r) is r)
        return y, yp

    r = mbdae.solve("pendulum", solver)
    assert seen == [True, True] and r.stats.nres == 2
    p = mbdae.Problem("pendulum")
    y, yp = p.init()
    for args, kw in [((), {"out": np.empty(6)}), ((0.0,), {"out": np.empty(6)}),
                     ((0.0, y), {"out": np.empty(6)}), ((0.0, y, yp, np.empty(6)),
                                                        {"out": np.empty(6)})]:
        with pytest.raises(TypeError, match="3 or 4 arguments"):
            p.residual(*args, **kw)


def test_harness_residual_bad_arrays():
    """Wrong lengths, dtypes and read-only outputs in a Python solver's residual: exceptions."""
    errors = []

    def solver(call):
        y, yp = call.y0, call.yp0
        ro = np.zeros(y.size)
        ro.flags.writeable = False
        for args, kw, exc in [((0.0, y[:3], yp), {}, ValueError),
                              ((0.0, y, np.zeros(6, complex)), {}, TypeError),
                              ((0.0, y, yp), {"out": ro}, ValueError),
                              ((0.0, y, yp), {"out": np.zeros(6, np.float32)}, TypeError),
                              ((0.0, y, yp), {"out": np.zeros(7)}, ValueError),
                              (("t", y, yp), {}, TypeError)]:
            try:
                call.residual(*args, **kw)
            except exc:
                errors.append(exc)
        return y, yp

    assert mbdae.solve("pendulum", solver).success and len(errors) == 6


def big_and_raises(call):
    call.kept = np.ones(100_000)  # 800 kB, reachable from the traceback's frames
    raise RuntimeError("boom")


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


@pytest.mark.skipif(SANITIZED, reason="ASan's quarantine grows the resident set")
def test_failed_runs_do_not_leak():
    """A failed Python run held its exception (traceback, frames, an array) in a cycle through
    its Run, which the collector did not see: with 8 MB arrays 100 runs grew RSS by 760 MB.  Here
    1000 runs of 800 kB would grow it by 800 MB; the cycles pending collection hold a few."""
    import gc
    for _ in range(20):
        mbdae.solve("pendulum", big_and_raises, raise_on_failure=False)
        with pytest.raises(mbdae.SolverError):
            mbdae.solve("pendulum", big_and_raises)
    gc.collect()
    before = rss_kib()
    for _ in range(500):
        r = mbdae.solve("pendulum", big_and_raises, raise_on_failure=False)
        assert isinstance(r._run.exception, RuntimeError)
        try:
            mbdae.solve("pendulum", big_and_raises)
        except mbdae.SolverError:
            pass
    gc.collect()
    grown = rss_kib() - before
    assert grown < 80 * 1024, f"RSS grew by {grown} KiB over 1000 failed runs (800 kB each)"


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit])
def test_interrupts_propagate(exc):
    """KeyboardInterrupt and SystemExit in a Python solver are raised by solve (and end a sweep),
    never a failed run, also with raise_on_failure=False."""
    calls = []

    def solver(call):
        calls.append(1)
        call.residual(call.t0, call.y0, call.yp0)
        raise exc()

    with pytest.raises(exc):
        mbdae.solve("pendulum", solver)
    with pytest.raises(exc):
        mbdae.solve("pendulum", solver, raise_on_failure=False, repeats=3)
    calls.clear()
    with pytest.raises(exc):
        mbdae.sweep(["pendulum", "caraxis"], [solver, "radau5"], [1e-4, 1e-5])
    assert calls == [1]


def finishing(**fields):
    def solver(call):
        out = {"y": call.y0.copy(), "yp": call.yp0.copy()}
        out.update(fields)
        if "y_eval" in out and out["y_eval"] == "tile":
            out["y_eval"] = np.tile(call.y0, (len(call.t_eval), 1))
        return out
    return solver


@pytest.mark.parametrize("fields,why", [
    ({"t": np.nan}, "ended at t = nan"),
    ({"t": 1.0}, "reported success at t = 1, not at tend = 100"),
    ({"t": 101.0, "status": mbdae.Status.CONV}, "ended at t = 101"),
    ({"status": -999}, "status -999"),
    ({"status": 1}, "status 1"),
    ({"y": np.full(5, np.nan)}, "y_1 (x) = nan at the end is not finite"),
    ({"nlu": -1}, "counters"),
])
def test_outcome_checked_as_a_plugins(fields, why):
    r = mbdae.solve("pendulum", finishing(**fields), raise_on_failure=False, name="liar")
    assert r.status == mbdae.Status.SOLVER and r.code == "MBDAE_ERR_SOLVER"
    assert why in r.message and np.isnan(r.scd)


def test_outcome_y_eval_checked():
    def nan_eval(call):
        y_eval = np.tile(call.y0, (len(call.t_eval), 1))
        y_eval[1, 2] = np.inf
        return {"y": call.y0.copy(), "yp": call.yp0.copy(), "y_eval": y_eval}

    r = mbdae.solve("pendulum", nan_eval, t_eval=[0.0, 1.0, 3.0], raise_on_failure=False)
    assert r.status == mbdae.Status.SOLVER and "y_eval[1, 2]" in r.message
    assert "inf is not finite" in r.message and np.isnan(r.y_eval).all()
    ok = mbdae.solve("pendulum", finishing(y_eval="tile"), t_eval=[0.0, 1.0, 3.0])
    assert ok.success and np.isfinite(ok.y_eval).all()


def test_status_names_a_python_solver_returns():
    r = mbdae.solve("pendulum", finishing(status=mbdae.Status.CONV, t=1.5, message="stuck"),
                    raise_on_failure=False, name="stuck")
    assert r.status == mbdae.Status.CONV == -9 and r.code == "MBDAE_ERR_CONV"
    assert r.message == "stuck" and r.t_end == 1.5 and isinstance(r.status, mbdae.Status)
    assert mbdae.Status.CONV.code == "MBDAE_ERR_CONV" and "convergence" in mbdae.Status.CONV.text
    table = {code: name for name, code, _ in mbdae._mbdae.status_table()}
    assert {s.value: s.code for s in mbdae.Status} == table
    assert table[0] == "MBDAE_OK" and table[-15] == "MBDAE_ERR_TIMEOUT"


def test_solver_ids_of_callables():
    import functools
    assert mbdae.solve("pendulum", lambda call: (call.y0, call.yp0)).solver == "python"
    partial = functools.partial(keeps_the_call)
    assert mbdae.solve("pendulum", partial).solver == "python"
    assert mbdae.solve("pendulum", keeps_the_call).solver == "keeps_the_call"
    assert mbdae.solve("pendulum", keeps_the_call, name="mine").solver == "mine"
    with pytest.raises(ValueError, match="solver 'my solver'"):
        mbdae.solve("pendulum", keeps_the_call, name="my solver")


def test_capabilities_are_the_python_solvers_own():
    """A Python solver named "radau5" is not radau5: the storage in its record and the kinds the
    harness lets it run with come from its own capabilities (attributes linsys, dense_output;
    by default dense only), never from the built-in solver of that name (condensed here)."""
    p = mbdae.Problem("pendulum:form=index1")
    assert mbdae.solve(p, "radau5", rtol=1e-4).record["linsys"] == "condensed"
    r = mbdae.solve(p, implicit_euler, rtol=1e-4, name="radau5")
    assert r.record["solver"] == "radau5" and r.record["linsys"] == "dense"
    with pytest.raises(mbdae.SolverError, match="'radau5' does not take linsys condensed"):
        mbdae.solve(p, implicit_euler, rtol=1e-4, name="radau5", linsys="condensed")

    def banded(call):
        return implicit_euler(call)

    banded.linsys = ("dense", "band")
    assert mbdae.solve(p, banded, rtol=1e-4, linsys="band").record["linsys"] == "band"
    banded.dense_output = False
    with pytest.raises(mbdae.SolverError, match="dense_output = 0"):
        mbdae.solve(p, banded, rtol=1e-4, t_eval=[0.5])
    banded.linsys = ("auto",)
    with pytest.raises(ValueError, match="linsys 'auto'"):
        mbdae.solve(p, banded, rtol=1e-4)
