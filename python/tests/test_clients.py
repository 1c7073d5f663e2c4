"""Real clients through the harness: SciPy's solve_ivp methods (Radau, BDF, LSODA) on the ODE
forms, and scipy_dae's Radau and BDF on every problem's index-3, -2 and -1 forms with mbdae's
analytic Jacobian as its jac and without it; scd against mbdae's references; failures are
rows of the table."""
import importlib.util
import os
import sys
import warnings

import numpy as np
import pytest

import mbdae
from conftest import SANITIZED
from mbdae.clients import scipy_dae, scipy_ivp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
import scipy_dae_table  # noqa: E402  (the example's list of problems and forms)

SSF = ("pendulum:form=ssf", "dpendulum:form=ssf", "chain:n=3,form=ssf")


@pytest.mark.parametrize("spec", SSF)
@pytest.mark.parametrize("method", ["Radau", "BDF", "LSODA"])
def test_solve_ivp_on_the_ode_forms(spec, method):
    p = mbdae.Problem(spec)
    r = mbdae.solve(p, scipy_ivp(method), rtol=1e-8, atol=1e-8)
    assert r.success and r.record["solver"] == f"scipy_{method.lower()}"
    assert r.t_end == p.tend and r.stats.accepted == r.stats.steps > 10
    assert r.scd == p.scd(r.y) and np.isfinite(r.scd)
    assert r.scd > (3 if method == "Radau" else 1)  # digits against the reference
    assert (r.stats.njac > 0) == (method != "LSODA" or r.stats.njac > 0)
    assert r.drift["drift_pos_max"] < 1e-12  # form=ssf: positions from angles, g = 0 exactly
    times = np.linspace(p.t0, p.tend, 5)
    e = mbdae.solve(p, scipy_ivp(method), rtol=1e-8, atol=1e-8, t_eval=times)
    assert np.array_equal(e.y_eval[0], p.init()[0])
    assert np.allclose(e.y_eval[-1], r.y, rtol=1e-10, atol=1e-10)


def test_solve_ivp_without_jacobian_counts_no_jacobians():
    r = mbdae.solve("pendulum:form=ssf", scipy_ivp("Radau", jac=False), rtol=1e-6)
    assert r.success and r.stats.njac == 0 and r.record["solver"] == "scipy_radau_fd"


def test_solve_ivp_refuses_a_dae_form():
    with pytest.raises(mbdae.SolverError, match="not of the form M y' = f"):
        mbdae.solve("pendulum:form=dummy", scipy_ivp("Radau"))


@pytest.mark.skipif(SANITIZED, reason="pure Python: nothing for the sanitizers, minutes under them")
@pytest.mark.skipif(importlib.util.find_spec("scipy_dae") is None,
                    reason="scipy_dae (J. Breuling, BSD-3, github.com/JonasBreuling/scipy_dae) "
                           "is not importable: put a checkout of it on PYTHONPATH")
def test_scipy_dae_on_every_problem_and_form(tmp_path):
    warnings.simplefilter("ignore")
    results = []
    for spec in scipy_dae_table.specs():
        for method in ("Radau", "BDF"):
            for jac in (True, False):
                r = mbdae.solve(spec, scipy_dae(method, jac=jac), rtol=1e-4, max_steps=20000,
                                raise_on_failure=False)
                results.append(r)
                assert r.code in ("MBDAE_OK", "MBDAE_ERR_SOLVER", "MBDAE_ERR_MAX_STEPS"), r
                assert (r.stats.njac > 0) == jac or r.stats.nres < 10
                p = mbdae.Problem(spec)
                if r.success:
                    assert r.t_end == p.tend and r.scd == p.scd(r.y)
                    assert r.drift["drift_steps"] == r.stats.accepted
                else:
                    assert r.message and np.isnan(r.scd)
    assert len(results) == 6 * 3 * 2 * 2
    ok = {(r.problem, r.solver) for r in results if r.success}
    for solver in ("scipy_dae_radau", "scipy_dae_bdf"):  # the index-1 car axis runs
        assert ("caraxis:form=index1", solver) in ok
    failed = [r for r in results if not r.success]
    assert failed  # index 3 is beyond scipy_dae (no index-scaled error test here)
    # A failure is a row: in runs.csv, and in the problem's table.
    path = mbdae.write_runs_csv(results, tmp_path)
    with open(path) as f:
        rows = [line for line in f if line[0] != "#" and not line.startswith("problem,")]
        assert len(rows) == len(results)
    bad = failed[0]
    table = mbdae.table(bad.problem, [r for r in results if r.problem == bad.problem])
    assert "failed" in table.lower() and bad.solver in table
