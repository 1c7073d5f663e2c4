#!/usr/bin/env python3
"""What a call from Python costs on top of the C call: Problem.residual(t, y, yp, out=r) against
a ctypes call of the same library function (mbdae_problem_res, argument pointers made once) and
against the C call alone (the library's own timing, mbdae_problem_unit_costs), for problems of
n = 5 to 30.  The target: ours within 1 us of the C call.  A benchmark, not a test (timings).

    PYTHONPATH=build/python python3 python/bench/bench_overhead.py [CALLS]

With MBDAE_COMMAND=build/mbdae it also compares the CPU time of mbdae.solve and `mbdae run`.
"""
import ctypes
import json
import os
import subprocess
import sys
import timeit

import numpy as np

import mbdae
from mbdae import _mbdae

SPECS = ("pendulum", "dpendulum", "caraxis", "chain:n=3", "crank:index=1", "andrews",
         "chain:n=6")


def best_per_call(stmt, calls, repeat=7):
    return min(timeit.repeat(stmt, number=calls, repeat=repeat)) / calls


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    lib = ctypes.CDLL(_mbdae.library_path())
    D = ctypes.POINTER(ctypes.c_double)
    lib.mbdae_problem_create.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                         ctypes.c_char_p, ctypes.c_size_t]
    lib.mbdae_problem_res.argtypes = [ctypes.c_void_p, ctypes.c_double, D, D, D]
    print(f"{'problem':16s} {'n':>3s} {'C':>8s} {'ours':>8s} {'ctypes':>8s} {'ours-C':>8s} "
          f"{'ctypes-C':>8s}  (us per call, best of 7 x {calls})")
    worst = 0.0
    for spec in SPECS:
        p = mbdae.Problem(spec)
        y, yp = p.init()
        r = np.empty(p.n)
        h = ctypes.c_void_p()
        assert lib.mbdae_problem_create(spec.encode(), ctypes.byref(h), None, 0) == 0
        py, pyp, pr = (a.ctypes.data_as(D) for a in (y, yp, r))
        res = p.residual
        c_res = lib.mbdae_problem_res
        c = p.unit_costs(calls)["res"]
        ours = best_per_call(lambda: res(0.5, y, yp, out=r), calls)
        via_ctypes = best_per_call(lambda: c_res(h, 0.5, py, pyp, pr), calls)
        worst = max(worst, ours - c)
        print(f"{spec:16s} {p.n:3d} {c * 1e6:8.3f} {ours * 1e6:8.3f} {via_ctypes * 1e6:8.3f} "
              f"{(ours - c) * 1e6:8.3f} {(via_ctypes - c) * 1e6:8.3f}")
    print(f"largest overhead of ours over the C call: {worst * 1e6:.3f} us "
          f"({'within' if worst <= 1e-6 else 'NOT within'} 1 us)")
    command = os.environ.get("MBDAE_COMMAND")
    if command:
        solve_against_run(command)


def solve_against_run(command, repeats=21):
    """The CPU time of a run by mbdae.solve and by `mbdae run` (median of repeats each): the same
    C code, timed by the same harness."""
    for spec in ("caraxis", "crank:index=1", "chain:n=40,form=index1"):
        r = mbdae.solve(spec, "radau5", rtol=1e-6, repeats=repeats)
        out = subprocess.run([command, "run", spec, "--solver", "radau5", "--rtol", "1e-6",
                              "--repeat", str(repeats), "--json"], capture_output=True, text=True)
        c = json.loads(out.stdout)
        print(f"{spec}: mbdae.solve {r.cpu_seconds * 1e3:.3f} ms, mbdae run "
              f"{c['cpu_seconds'] * 1e3:.3f} ms (radau5, rtol 1e-6, median of {repeats})")


if __name__ == "__main__":
    main()
