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
    assert r.cpu_seconds > 0 and r.record["t"] == p.tend
    assert r.record["h"] == alone["h"]


def test_accepted_steps_and_outputs():
    p = mbdae.Problem("pendulum:form=index1")
    r = mbdae.solve(p, implicit_euler, rtol=1e-4, t_eval="steps")
    assert len(r.t) == NSTEPS and np.array_equal(r.y_eval[-1], r.y)
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
