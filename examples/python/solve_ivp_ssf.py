#!/usr/bin/env python3
"""SciPy's solve_ivp methods (Radau, BDF, LSODA) on the ODE forms of mbdae's pendulums and
chains (form=ssf: M y' = f(t, y) with M = I), through mbdae's harness: scd against mbdae's
references, counters and CPU in the same record as mbdae's own solvers.

    PYTHONPATH=build/python python3 examples/python/solve_ivp_ssf.py [RTOL]
"""
import sys

import mbdae
from mbdae.clients import scipy_ivp

rtol = float(sys.argv[1]) if len(sys.argv) > 1 else 1e-8
print(f"{'problem':22s} {'solver':14s} {'scd':>6s} {'mescd':>6s} {'steps':>6s} {'nres':>7s} "
      f"{'njac':>5s} {'nlu':>5s} {'cpu':>8s}")
for spec in ("pendulum:form=ssf", "dpendulum:form=ssf", "chain:n=3,form=ssf"):
    for solver in (scipy_ivp("Radau"), scipy_ivp("BDF"), scipy_ivp("LSODA"), "radau5"):
        r = mbdae.solve(spec, solver, rtol=rtol, atol=rtol, raise_on_failure=False)
        print(f"{spec:22s} {r.solver:14s} {r.scd:6.2f} {r.mescd:6.2f} {r.stats.steps:6d} "
              f"{r.stats.nres:7d} {r.stats.njac:5d} {r.stats.nlu:5d} {r.cpu_seconds:8.4f}")
