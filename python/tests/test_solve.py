"""mbdae.solve with the built-in solvers: the record is `mbdae run --json`'s (every key and value
but the CPU times), outputs at t_eval and at the accepted steps, failures as SolverError, bad
options as ValueError, and two threads at once giving what one after the other gives."""
import json
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import mbdae
from conftest import SANITIZED

CPU_KEYS = ("cpu_seconds", "cpu_min", "cpu_max")
RUNS = [("caraxis", "radau5", 1e-7), ("andrews:form=index2", "bdf", 1e-5),
        ("crank:index=1", "ida", 1e-4), ("pendulum:form=ggl", "radau", 1e-6),
        ("chain:n=40,form=index1", "radau5", 1e-5), ("dpendulum:form=ssf", "ida", 1e-6)]


def command_json(spec, solver, rtol, *extra):
    cmd = os.environ.get("MBDAE_COMMAND")
    if not cmd:
        pytest.skip("MBDAE_COMMAND (the mbdae command) is set by ctest")
    out = subprocess.run([cmd, "run", spec, "--solver", solver, "--rtol", repr(rtol), "--json",
                          *extra], capture_output=True, text=True)
    return json.loads(out.stdout)


def without_cpu(rec):
    return {k: v for k, v in rec.items() if k not in CPU_KEYS}


@pytest.mark.parametrize("spec,solver,rtol", RUNS)
def test_record_is_the_commands(spec, solver, rtol):
    r = mbdae.solve(spec, solver, rtol=rtol)
    assert without_cpu(r.record) == without_cpu(command_json(spec, solver, rtol))
    assert r.success and r.code == "MBDAE_OK" and r.message == ""
    assert np.array_equal(r.y, np.array(r.record["y"]))
    p = mbdae.Problem(spec)
    if p.reference() is None:  # chain:n=40: no reference, scd null in the record
        assert np.isnan(r.scd) and r.record["scd"] is None and r.record["yref"] is None
    else:
        assert r.scd == r.record["scd"] == p.scd(r.y)
        assert r.mescd == r.record["mescd"] == p.mescd(r.y, rtol, rtol)
    assert r.stats.steps == r.record["steps"] and r.stats.nlu == r.record["nlu"]
    assert r.cpu_seconds > 0 and r.drift["drift_steps"] == r.record["drift_steps"]
    # y' at the end: the last accepted state's (the same in the accepted-step log).
    s = mbdae.solve(spec, solver, rtol=rtol, t_eval="steps")
    assert np.array_equal(s.yp_eval[-1], r.yp) and np.array_equal(s.y_eval[-1], r.y)
    assert s.t[-1] == p.tend and np.all(np.isfinite(r.yp))


def test_options_reach_the_run():
    kw = dict(rtol=1e-6, atol=1e-8, h0=1e-9, hmax=0.01, max_steps=100000)
    r = mbdae.solve("caraxis", "bdf", linsys="dense", **kw)
    c = command_json("caraxis", "bdf", 1e-6, "--atol", "1e-08", "--h0", "1e-09", "--hmax",
                     "0.01", "--max-steps", "100000", "--linsys", "dense")
    assert without_cpu(r.record) == without_cpu(c)
    assert r.record["linsys"] == "dense" and r.record["hmax"] == 0.01


def test_t_eval_and_steps():
    p = mbdae.Problem("pendulum")
    times = np.linspace(p.t0, p.tend, 7)
    r = mbdae.solve(p, "radau5", rtol=1e-8, t_eval=times)
    assert r.y_eval.shape == (7, p.n) and np.array_equal(r.t, times)
    assert np.array_equal(r.y_eval[-1], r.y) or np.allclose(r.y_eval[-1], r.y, atol=1e-12)
    assert np.array_equal(r.y_eval[0], p.init()[0])
    s = mbdae.solve(p, "radau5", rtol=1e-8, t_eval="steps")
    assert len(s.t) == s.stats.accepted + 1 and s.t[-1] == p.tend
    assert s.t[0] == p.t0 and np.array_equal(s.y_eval[0], p.init()[0])
    assert np.array_equal(s.yp_eval[0], p.init()[1])
    three = mbdae.solve(p, "radau5", rtol=1e-8, t_eval="steps", repeats=3)  # the last run's
    assert np.array_equal(three.t, s.t) and np.array_equal(three.y_eval, s.y_eval)
    assert np.array_equal(s.y_eval[-1], s.y) and np.array_equal(s.yp_eval[-1], s.yp)
    assert np.all(np.diff(s.t) > 0)
    with pytest.raises(ValueError, match="steps"):
        mbdae.solve(p, "radau5", t_eval="all")


def test_failure_raises_solver_error():
    with pytest.raises(mbdae.SolverError) as e:
        mbdae.solve("caraxis", "radau5", rtol=1e-7, max_steps=5)
    assert e.value.code == -7 and e.value.name == "MBDAE_ERR_MAX_STEPS"
    r = e.value.result
    assert r.status == -7 and r.message and np.isnan(r.scd) and r.stats.steps == 5
    r = mbdae.solve("caraxis", "radau5", rtol=1e-7, max_steps=5, raise_on_failure=False)
    assert r.status == -7 and r.code == "MBDAE_ERR_MAX_STEPS" and not r.success
    c = command_json("caraxis", "radau5", 1e-7, "--max-steps", "5")
    assert without_cpu(r.record) == without_cpu(c)


def test_bad_options_and_solvers():
    with pytest.raises(ValueError, match="unknown solver 'nosuch'"):
        mbdae.solve("caraxis", "nosuch")
    with pytest.raises(ValueError, match="rtol"):
        mbdae.solve("caraxis", "radau5", rtol=-1.0)
    with pytest.raises(ValueError, match="linsys"):
        mbdae.solve("caraxis", "radau5", linsys="lu")
    with pytest.raises(ValueError):
        mbdae.solve("caraxis", "radau5", t_eval=[5.0, 1.0])
    with pytest.raises(ValueError, match="form"):
        mbdae.solve("caraxis:form=bad", "radau5")
    with pytest.raises(ValueError):
        mbdae.solve("caraxis", 42)
    with pytest.raises(mbdae.SolverError, match="UNSUPPORTED"):
        mbdae.solve("caraxis", "spm")


def test_plugin_solver():
    from conftest import plugin_file
    try:
        mbdae.load_plugin(plugin_file("euler"))
    except ValueError as e:
        assert "already taken" in str(e)
    ids = [s[0] for s in mbdae.solvers()]
    euler = [i for i in ids if "euler" in i]
    assert euler
    r = mbdae.solve("caraxis:form=index1", euler[0], rtol=1e-3, raise_on_failure=False)
    assert r.record["solver"] == euler[0]
    with pytest.raises(ValueError, match="cannot load"):
        mbdae.load_plugin("./no-such-plugin.so")
    with pytest.raises(ValueError, match="no mbdae_plugin_solvers"):
        mbdae.load_plugin(plugin_file("no_symbol"))
    with pytest.raises(ValueError, match="ABI"):
        mbdae.load_plugin(plugin_file("old_abi"))
    with pytest.raises(ValueError, match="solver 1 of mbdae_plugin_solvers"):
        mbdae.load_plugin(plugin_file("bad_id"))


def test_two_threads_give_what_one_after_the_other_gives():
    jobs = [("caraxis", "radau5", 1e-8), ("crank:index=2", "bdf", 1e-6),
            ("chain:n=40,form=index1", "ida", 1e-6), ("andrews", "radau", 1e-7)]
    alone = [without_cpu(mbdae.solve(*j[:2], rtol=j[2]).record) for j in jobs]
    for _ in range(2):
        got = [None] * len(jobs)

        def work(k):
            got[k] = without_cpu(mbdae.solve(*jobs[k][:2], rtol=jobs[k][2]).record)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(len(jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert got == alone


@pytest.mark.skipif(SANITIZED, reason="ASan's quarantine grows the resident set")
def test_memory_flat_over_repeated_solves():
    def rss_kib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4

    p = mbdae.Problem("pendulum")
    for _ in range(20):
        mbdae.solve(p, "radau5", rtol=1e-4, t_eval="steps")
    before = rss_kib()
    for _ in range(400):
        mbdae.solve(p, "radau5", rtol=1e-4, t_eval="steps")
        mbdae.solve(p, "radau5", rtol=1e-4, max_steps=2, raise_on_failure=False)
    assert rss_kib() - before < 2048


def test_large_records_go_to_side_files(tmp_path):
    cmd = os.environ.get("MBDAE_COMMAND")
    if not cmd:
        pytest.skip("MBDAE_COMMAND (the mbdae command) is set by ctest")
    p = mbdae.Problem("chain:n=201,form=index1")  # 1005 components: more than a row holds
    assert p.n > 1000
    first = [mbdae.solve(p, "radau5", rtol=1e-3, max_steps=k, raise_on_failure=False)
             for k in (2, 3)]
    second = [mbdae.solve(p, "bdf", rtol=1e-3, max_steps=4, raise_on_failure=False)]
    mbdae.write_runs_csv(first, tmp_path)
    mbdae.write_runs_csv(second, tmp_path, append=True)  # side files of both calls kept apart
    assert len(list(tmp_path.glob("*.vec"))) == 3
    out = subprocess.run([cmd, "sweep", "--report", str(tmp_path), "--no-plots"],
                         capture_output=True, text=True)
    assert "3 runs (3 failed)" in out.stderr
    rows = json.loads((tmp_path / "runs.json").read_text())
    rows = rows["runs"] if isinstance(rows, dict) else rows
    for row, r in zip(rows, first + second):
        assert row["solver"] == r.solver and row["steps"] == r.stats.steps
        assert np.array_equal(np.array(row["y"], dtype=float), r.y)


def test_the_gil_is_released_during_a_built_in_run():
    # With a switch interval of 1000 s, this thread gets the GIL from the worker only where the
    # worker lets it go: in the C run.  It then takes turns (sleep(0) hands the GIL back) until
    # the worker is done.  With the GIL held through the run it would get no turn before the end.
    p = mbdae.Problem("chain:n=40,form=index1")
    done = []
    worker = threading.Thread(target=lambda: done.append(mbdae.solve(p, "radau5", rtol=1e-6)))
    turns = 0
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        worker.start()
        while worker.is_alive():
            turns += 1
            time.sleep(0)
    finally:
        sys.setswitchinterval(interval)
    worker.join()
    assert done and done[0].success
    assert turns > 100, turns


@pytest.mark.parametrize("solver", ["radau5", "radau", "bdf", "mebdf", "ida", "spm"])
def test_y_eval_of_a_failed_run_is_nan_where_not_reached(solver):
    """The states at output times a failed run never reached were uninitialised memory
    (6.9e-310); they are NaN, in the Result and in SolverError.result alike."""
    spec = "caraxis:form=index1"
    times = [0.0, 1e-3, 1.0, 2.0, 3.0]
    r = mbdae.solve(spec, solver, rtol=1e-7, max_steps=5, t_eval=times, raise_on_failure=False)
    assert not r.success
    reached = [k for k, t in enumerate(times) if t <= r.t_end]
    assert reached == [0] or solver == "spm"
    assert np.array_equal(r.y_eval[0], mbdae.Problem(spec).init()[0]) or solver == "spm"
    assert np.isnan(r.y_eval[len(reached):]).all() and np.isfinite(r.y_eval[:len(reached)]).all()
    with pytest.raises(mbdae.SolverError) as e:
        mbdae.solve(spec, solver, rtol=1e-7, max_steps=5, t_eval=times)
    assert np.array_equal(e.value.result.y_eval, r.y_eval, equal_nan=True)


def test_rtol_below_one():
    for rtol in (1.0, 2.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="rtol must be below 1"):
            mbdae.solve("caraxis", "radau5", rtol=rtol)
    with pytest.raises(ValueError, match="rtol must be below 1"):
        mbdae.sweep(["caraxis"], ["radau5"], [1e-4, 1.5])
    assert mbdae.solve("pendulum", "radau5", rtol=0.5, raise_on_failure=False).record["rtol"] == 0.5


def test_trajectory_digits_and_reference_trajectory():
    """Issue 35: Result.tscd, tmescd, tscd_rms (the command's, bit for bit) and
    Problem.reference_trajectory() -> (t, Y), Y[k] the state at t[k], Y[-1] the end reference."""
    p = mbdae.Problem("pendulum")
    t, Y = p.reference_trajectory()
    assert t.shape == (101,) and Y.shape == (101, 5) and t[0] == p.t0 and t[-1] == p.tend
    assert np.array_equal(Y[-1], p.reference())
    r = mbdae.solve(p, "radau5", rtol=1e-8)
    assert np.isfinite(r.tscd) and r.tscd <= r.scd and r.tscd_rms >= r.tscd
    assert r.tscd == r.record["tscd"] and r.tmescd == r.record["tmescd"]
    c = command_json("pendulum", "radau5", 1e-8)
    assert (c["tscd"], c["tmescd"], c["tscd_rms"]) == (r.tscd, r.tmescd, r.tscd_rms)
    assert mbdae.Problem("chain:n=40,form=index1").reference_trajectory() is None
    e = mbdae.solve(p, "radau5", rtol=1e-8, t_eval=[0.5, 1.0])  # the caller's output times
    assert np.isnan(e.tscd) and e.record["tscd"] is None and np.array_equal(e.y, r.y)
