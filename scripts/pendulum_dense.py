#!/usr/bin/env python3
"""The pendulum's error at a run's accepted steps against its error from continuous output.

A measurement for doc/benchmarks.md (issue 35 item 5: does a solver's continuous extension read
low between steps?).  The exact solution of `pendulum` (Hafner & Poell 2015, eq. (1); x = sin
theta, y = cos theta, sin(theta/2) = k cd(sqrt(g) t, k), k = sin(pi/4), F = theta'^2 + g cos
theta) is evaluated with SciPy's Jacobi elliptic functions (scipy.special.ellipj, double
precision: at t = 100 within 1e-12 of refsol/pendulum.txt, far below the errors measured).  One run with `--trajectory` gives the accepted steps (every
k-th of them, about 2000), one with `--trajectory --samples 2001` the continuous output at 2001
equidistant times; for each component the largest error over those times, scaled by the
component's largest |y| (so that zero crossings do not decide), is printed in digits.
Usage: pendulum_dense.py MBDAE SOLVER RTOL     (needs python3-scipy)"""
import csv
import subprocess
import sys
import tempfile

import math

from scipy.special import ellipj

G = 9.81
K = math.sin(math.pi / 4)


def exact(t):
    """(x, y, vx, vy, F) at t."""
    u, m = math.sqrt(G) * t, K * K
    sn, cn, dn, _ = ellipj(u, m)
    th = 2 * math.asin(K * cn / dn)
    thp = 2 * K * math.sqrt(G) * (-(1 - m) * sn / dn**2) / math.cos(th / 2)
    return [math.sin(th), math.cos(th), math.cos(th) * thp, -math.sin(th) * thp,
            thp**2 + G * math.cos(th)]


def trajectory(cmd, solver, tol, extra):
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/run.csv"
        subprocess.run([cmd, "run", "pendulum", "--solver", solver, "--rtol", tol,
                        "--trajectory", path] + extra, check=True, capture_output=True)
        with open(path) as f:
            rows = list(csv.reader(f))
    return rows[0][1:], [[float(v) for v in r] for r in rows[1:]]


def digits(rows):
    ex = [exact(r[0]) for r in rows]
    out = []
    for i in range(5):
        amp = max(abs(e[i]) for e in ex)
        err = max(abs(r[1 + i] - float(e[i])) for r, e in zip(rows, ex)) / float(amp)
        out.append(-math.log10(err) if err > 0 else 16.0)
    return " ".join(f"{d:.2f}" for d in out)


def main():
    cmd, solver, tol = sys.argv[1:4]
    names, steps = trajectory(cmd, solver, tol, [])
    _, dense = trajectory(cmd, solver, tol, ["--samples", "2001"])
    stride = max(1, len(steps) // 2000)
    print(f"{solver} {tol}: {len(steps) - 1} steps; digits of {' '.join(names)} (scaled)")
    print(f"  at the steps ({len(steps[::stride])}): {digits(steps[::stride])}")
    print(f"  continuous output (2001): {digits(dense)}")


if __name__ == "__main__":
    main()
