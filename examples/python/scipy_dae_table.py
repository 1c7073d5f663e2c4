#!/usr/bin/env python3
"""scipy_dae (solve_dae's Radau and BDF) on every multibody problem of mbdae in its index-3,
index-2 and index-1 forms, with mbdae's analytic Jacobian passed as its jac and without it (then
scipy_dae differences F), beside mbdae's radau5 and bdf: one row per run, failures included, in the
layout of the test set's run-characteristics tables (mbdae.table), and the records in
DIR/runs.csv for `mbdae sweep --report DIR`.

    PYTHONPATH=build/python:/path/to/scipy_dae python3 examples/python/scipy_dae_table.py [RTOL] [DIR]

scipy_dae is not part of mbdae (https://github.com/JonasBreuling/scipy_dae, BSD-3); put a copy
on PYTHONPATH.  max_steps bounds each run (a run that needs more is a failed row).
"""
import sys
import warnings

import mbdae
from mbdae.clients import scipy_dae

FORMS = {"caraxis": "form", "andrews": "form", "crank": "index", "pendulum": "form",
         "dpendulum": "form", "chain:n=3": "form"}


def specs():
    for pid, key in FORMS.items():
        for index in (3, 2, 1):
            value = index if key == "index" else f"index{index}"
            yield f"{pid}{',' if ':' in pid else ':'}{key}={value}"


def main():
    rtol = float(sys.argv[1]) if len(sys.argv) > 1 else 1e-4
    directory = sys.argv[2] if len(sys.argv) > 2 else None
    solvers = [scipy_dae("Radau"), scipy_dae("Radau", jac=False), scipy_dae("BDF"),
               scipy_dae("BDF", jac=False), "radau5", "bdf"]
    warnings.simplefilter("ignore")  # scipy_dae's own warnings; failures are rows
    results = []
    print(f"{'problem':38s} {'solver':22s} {'code':24s} {'scd':>6s} {'mescd':>6s} {'steps':>6s} "
          f"{'nres':>7s} "
          f"{'njac':>5s} {'nlu':>6s} {'cpu':>9s}")
    for spec in specs():
        for s in solvers:
            r = mbdae.solve(spec, s, rtol=rtol, max_steps=20000, raise_on_failure=False)
            results.append(r)
            print(f"{r.problem[:38]:38s} {r.solver:22s} {r.code:24s} {r.scd:6.2f} {r.mescd:6.2f} "
                  f"{r.stats.steps:6d} {r.stats.nres:7d} {r.stats.njac:5d} {r.stats.nlu:6d} "
                  f"{r.cpu_seconds:9.2e}", flush=True)
    failed = sum(not r.success for r in results)
    print(f"{len(results)} runs, {failed} failed")
    if directory:
        print("records:", mbdae.write_runs_csv(results, directory))


if __name__ == "__main__":
    main()
