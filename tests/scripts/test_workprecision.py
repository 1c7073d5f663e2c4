#!/usr/bin/env python3
"""scripts/workprecision.py: the tolerance grid, the frontier and the cost read off it at a level
(synthetic points with known answers), --help on the negative exponents and both ways to write
them, and the command end to end with two of our solvers (a
table, exit 0) and with an unknown solver (exit 2, the valid names).
Usage: test_workprecision.py SCRIPT MBDAE"""
import importlib.util
import math
import subprocess
import sys

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print(f"FAILED: {what}")


def load(path):
    spec = importlib.util.spec_from_file_location("workprecision", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def point(tol, digits, cpu):
    return {"tol": tol, "digits": digits, "cpu": cpu}


def unit(wp):
    grid = wp.tolerance_grid("-3:-5:-0.5")
    check(grid == ["0.001", "0.000316228", "0.0001", "3.16228e-05", "1e-05"], f"grid {grid}")
    check(wp.initial_step("crank", "1e-06") == "1e-08" and wp.initial_step("caraxis", "1e-06") == "1e-06",
          "h0: tol / 100 for the crank only")
    # 1e-5 is beaten by 1e-6 (more digits for less CPU) and a failed run is no point at all
    pts = [point("1e-4", 1.0, 1.0), point("1e-5", 2.0, 5.0), point("1e-6", 3.0, 4.0),
           point("1e-7", 4.0, 16.0), {"tol": "1e-8", "failed": "error: step size too small"}]
    front = wp.frontier(pts)
    check([p["tol"] for p in front] == ["1e-4", "1e-6", "1e-7"], f"frontier {front}")
    at = wp.cost_at(pts, 3.5)  # halfway from (3, 4) to (4, 16) in log CPU: 8
    check(at and abs(at["cpu"] - 8.0) < 1e-12 and at["tol"] == "1e-06..1e-07", f"cost at 3.5: {at}")
    check(abs(wp.cost_at(pts, 3.0)["cpu"] - 4.0) < 1e-12, "cost at a run: its CPU")
    check(wp.cost_at(pts, 4.5) is None, "no cost beyond the most accurate run")
    other = [point("1e-4", 1.6, 2.0), point("1e-6", 3.3, 3.0)]
    levels = wp.levels_both_reach(pts, other, 0.25)
    check(levels == [1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25], f"levels {levels}")
    low = [point("1e-2", -1.0, 0.5), point("1e-4", 1.0, 2.0)]
    levels = wp.levels_both_reach(low, low, 0.5)
    check(levels == [0.0, 0.5, 1.0], f"default min level 0 (no level below scd 0): {levels}")
    levels = wp.levels_both_reach(low, low, 0.5, -1.0)
    check(levels[0] == -1.0, f"--min-level -1: {levels}")
    check(wp.levels_both_reach(pts, other, 0.25, 3.0) == [3.0, 3.25], "--min-level 3")
    rows = wp.compare(pts, other, 0.25)
    r3 = next(r for r in rows if r["level"] == 3.0)
    want = 4.0 / math.exp(math.log(2.0) + (3.0 - 1.6) / (3.3 - 1.6) * math.log(3.0 / 2.0))
    check(abs(r3["ratio"] - want) < 1e-12, f"ratio at 3.0: {r3['ratio']} (want {want})")


def help_and_exponents(wp, script):
    """--help says the exponents are negative and how to write them; both spellings parse."""
    p = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True)
    check(p.returncode == 0 and "negative" in p.stdout and "--tol-exponents=-4:-10:-1" in p.stdout,
          f"--help on the exponents:\n{p.stdout}")
    check(wp.joined_values(["--tol-exponents", "-4:-6:-1", "--rounds", "1"]) ==
          ["--tol-exponents=-4:-6:-1", "--rounds", "1"], "--tol-exponents VALUE joined")
    check(wp.joined_values(["--tol-exponents=-4:-6:-1"]) == ["--tol-exponents=-4:-6:-1"],
          "--tol-exponents=VALUE kept")


def end_to_end(script, mbdae):
    base = [sys.executable, script, "--cmd", mbdae, "--problems", "caraxis", "--tol-exponents", "-4:-5:-1",
            "--rounds", "1", "--passes", "1"]
    p = subprocess.run(base + ["--solvers", "radau5,bdf"], capture_output=True, text=True)
    check(p.returncode == 0, f"radau5,bdf: exit {p.returncode}: {p.stderr[-300:]}")
    check("### caraxis: radau5 vs bdf (scd)" in p.stdout and "Worst ratio radau5/bdf per problem" in p.stdout,
          f"radau5,bdf: no table:\n{p.stdout}")
    p = subprocess.run(base + ["--solvers", "radau5,bdf", "--metric", "tscd", "--min-level", "1"],
                       capture_output=True, text=True)
    check(p.returncode == 0 and "### caraxis: radau5 vs bdf (tscd)" in p.stdout
          and "tscd >= 1" in p.stdout, f"--metric tscd --min-level 1: exit {p.returncode}:\n{p.stdout}")
    p = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True)
    check("default 0" in p.stdout and "tmescd" in p.stdout, f"--help states the default:\n{p.stdout}")
    p = subprocess.run(base + ["--solvers", "radau5,nosuch"], capture_output=True, text=True)
    check(p.returncode == 2 and "valid solvers" in p.stderr, f"unknown solver: exit {p.returncode}, {p.stderr}")
    p = subprocess.run(base + ["--solvers", "radau5,peer:mebdfi"], capture_output=True, text=True)
    check(p.returncode == 2 and "--peer" in p.stderr, f"peer side without --peer: exit {p.returncode}")


def main():
    script, mbdae = sys.argv[1], sys.argv[2]
    wp = load(script)
    unit(wp)
    help_and_exponents(wp, script)
    end_to_end(script, mbdae)
    print(f"test_workprecision: {'ok' if failures == 0 else f'{failures} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
