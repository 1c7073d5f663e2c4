#!/usr/bin/env python3
"""Work-precision comparison of two or more solvers: which one is cheaper for equal digits.

A per-tolerance CPU ratio says little when two solvers turn the same tolerance into different
accuracies.  This script runs each solver over a grid of tolerances, one process per run, and
compares the curves of digits against CPU: for every accuracy level L (scd at t_end by default;
--metric mescd, or tscd / tmescd, the least scd / mescd along the reference trajectory, issue 35)
that both solvers reach, and at least --min-level (default 0: speed is judged only where both
codes have scd >= 0, an error of at most 100% -- the rule decided for mebdf), the cost of a solver is read off its frontier (the runs
that no run beats with as many digits for less CPU), log CPU interpolated linearly in digits
between the two frontier runs around L, and the table prints both costs, the tolerances around L
and the ratio first/other.  The worst ratio per problem is the figure to quote ("at every level both reach,
ours costs at most R times the other's").

Sides (--solvers, comma-separated, the first one is compared with each other one):
  NAME         a solver of the project command:  CMD run SPEC --solver NAME --rtol T --atol T
               --h0 H --repeat R --json [RUN-ARGS]
  peer:NAME    a program with peerrun's interface (--peer PATH):  PATH PROBLEM NAME T H R
Both print one JSON object with status ("ok"), scd, mescd and cpu_seconds (the median of the
process's R runs).  The grid is run P passes over, interleaved (all sides at one tolerance, then
the next), and a point's CPU is the median over the passes; only ratios of interleaved runs
mean anything on a shared machine.  A failed run (status not "ok", no JSON) is listed and left
out of the curves.  h0 = tol, except the slider crank: h0 = tol / 100 (the test set's drivers).

Usage: workprecision.py --cmd PATH [--solvers bdf,peer:mebdfi] [--peer PATH]
                        [--problems caraxis,andrews,crank,pendulum,dpendulum]
                        [--tol-exponents=-3:-11:-0.5] [--rounds 5] [--passes 3]
                        [--metric scd|mescd|tscd|tmescd] [--min-level 0] [--step 0.25]
                        [--run-args ARGS] [--json OUT]
The tolerance exponents are negative (tol = 10^e): write them with '=' as above, or after the
option as its own word (--tol-exponents -3:-11:-0.5 is taken as the option's value too).
Exit status: 0, 2 for bad arguments or a side that cannot run at all (unknown solver, problem).
"""
import argparse
import json
import math
import shlex
import statistics
import subprocess
import sys

PROBLEMS = ["caraxis", "andrews", "crank", "pendulum", "dpendulum"]


def tolerance_grid(text):
    """'-3:-11:-0.5' -> ['1e-3', '1e-3.5' as 3.16e-4, ...]: decimal strings of 10^e."""
    try:
        first, last, step = (float(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not FIRST:LAST:STEP (exponents of 10)")
    if step == 0 or (last - first) * step < 0:
        raise argparse.ArgumentTypeError(f"'{text}': STEP must lead from FIRST to LAST")
    count = int(round((last - first) / step)) + 1
    return [f"{10.0 ** (first + k * step):.6g}" for k in range(count)]


def joined_values(argv, options=("--tol-exponents",)):
    """argv with `OPTION VALUE` written `OPTION=VALUE` for the options whose values start with '-'
    (argparse reads -3:-11:-0.5 as an option, not as the value of the one before it)."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] in options and i + 1 < len(argv):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def short(tol):
    return f"{float(tol):.3g}"


def initial_step(problem, tol):
    return f"{float(tol) / 100:.6g}" if problem.split(":")[0] == "crank" else tol


def parse_json(stdout):
    for line in reversed(stdout.strip().splitlines() or [""]):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return None


def run_side(args, side, problem, tol):
    """One process: the parsed JSON (or None), the exit status and the end of stderr."""
    h0 = initial_step(problem, tol)
    if side.startswith("peer:"):
        argv = [args.peer, problem, side[5:], tol, h0, str(args.rounds)]
    else:
        argv = [args.cmd, "run", problem, "--solver", side, "--rtol", tol, "--atol", tol, "--h0", h0,
                "--repeat", str(args.rounds), "--json"] + shlex.split(args.run_args)
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=args.timeout)
        return parse_json(p.stdout), p.returncode, p.stderr.strip()[-300:]
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, None, str(e)


def measure(args, sides, problems, tols):
    """points[(problem, side)] = list of {tol, digits, cpu} or {tol, failed}, tolerance order."""
    samples = {}
    for ps in range(args.passes):
        for problem in problems:
            for tol in tols:
                for side in sides:
                    res, rc, err = run_side(args, side, problem, tol)
                    if rc == 2 and ps == 0 and tol == tols[0]:
                        print(f"workprecision.py: {side} cannot run {problem}: {err}", file=sys.stderr)
                        sys.exit(2)
                    samples.setdefault((problem, side, tol), []).append((res, rc, err))
            print(f"pass {ps + 1}/{args.passes}: {problem} done", file=sys.stderr, flush=True)
    points = {}
    for (problem, side, tol), runs in samples.items():
        bad = [r for r in runs if not r[0] or r[0].get("status") != "ok"]
        if bad:
            res, rc, err = bad[0]
            why = (res or {}).get("message") or err or f"exit {rc}"
            point = {"tol": tol, "failed": f"{(res or {}).get('status', 'no JSON')}: {why}"}
        else:
            point = {"tol": tol, "digits": runs[0][0].get(args.metric),
                     "cpu": statistics.median(r[0]["cpu_seconds"] for r in runs)}
        points.setdefault((problem, side), []).append(point)
    return points


def frontier(points):
    """The runs no other run beats (as many digits or more for less CPU), by increasing digits."""
    good = sorted((p for p in points if "cpu" in p and p["digits"] is not None),
                  key=lambda p: (p["digits"], p["cpu"]))
    front = []
    for p in good:
        if not any(q["digits"] >= p["digits"] and q["cpu"] < p["cpu"] for q in good):
            front.append(p)
    return front


def cost_at(points, level):
    """The CPU to reach level digits: log CPU interpolated linearly in digits between the two
    frontier runs around level (exact at a run), with the tolerances of those runs."""
    front = frontier(points)
    for lo, hi in zip(front, front[1:]):
        if lo["digits"] <= level <= hi["digits"]:
            w = (level - lo["digits"]) / (hi["digits"] - lo["digits"]) if hi["digits"] > lo["digits"] else 1
            cpu = math.exp((1 - w) * math.log(lo["cpu"]) + w * math.log(hi["cpu"]))
            tols = short(lo["tol"]) if w == 0 else short(hi["tol"]) if w == 1 else \
                f"{short(lo['tol'])}..{short(hi['tol'])}"
            return {"cpu": cpu, "tol": tols}
    at = [p for p in front if p["digits"] >= level]
    return {"cpu": at[0]["cpu"], "tol": short(at[0]["tol"])} if at else None


def levels_both_reach(a, b, step, min_level=0.0):
    """The levels k * step from min_level up that both curves reach."""
    da = [p["digits"] for p in a if "cpu" in p and p["digits"] is not None]
    db = [p["digits"] for p in b if "cpu" in p and p["digits"] is not None]
    if not da or not db:
        return []
    lo, hi = max(min(da), min(db), min_level), min(max(da), max(db))
    first, last = math.ceil(lo / step), math.floor(hi / step)
    return [k * step for k in range(first, last + 1)]


def compare(points_a, points_b, step, min_level=0.0):
    rows = []
    for level in levels_both_reach(points_a, points_b, step, min_level):
        pa, pb = cost_at(points_a, level), cost_at(points_b, level)
        rows.append({"level": level, "a": pa, "b": pb, "ratio": pa["cpu"] / pb["cpu"]})
    return rows


def print_table(problem, first, other, rows, points, metric):
    print(f"\n### {problem}: {first} vs {other} ({metric})\n")
    for side in (first, other):
        for p in points[(problem, side)]:
            if "failed" in p:
                print(f"- {side} at tol {short(p['tol'])} failed ({p['failed']}); left out")
    if not rows:
        print("No accuracy level reached by both.")
        return None
    print(f"| {metric} >= | {first} CPU ms | tol | {other} CPU ms | tol | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['level']:.2f} | {1e3 * r['a']['cpu']:.3f} | {r['a']['tol']} | "
              f"{1e3 * r['b']['cpu']:.3f} | {r['b']['tol']} | {r['ratio']:.2f} |")
    worst = max(rows, key=lambda r: r["ratio"])
    print(f"\nWorst ratio {first}/{other}: **{worst['ratio']:.2f}** at {metric} >= {worst['level']:.2f}; "
          f"best {min(r['ratio'] for r in rows):.2f}; over {len(rows)} levels.")
    return worst["ratio"]


def main():
    ap = argparse.ArgumentParser(
        description="Work-precision comparison (see the module docstring).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="The tolerance exponents are negative: write them with '=',\n"
               "  --tol-exponents=-4:-10:-1   (tol = 1e-4, 1e-5, ..., 1e-10)\n"
               "or as the next word, --tol-exponents -4:-10:-1 (taken as the value too).")
    ap.add_argument("--cmd", required=True, help="the project command (mbdae)")
    ap.add_argument("--solvers", default="bdf,peer:mebdfi", help="sides; the first is compared with the others")
    ap.add_argument("--peer", help="program with peerrun's interface, for peer:NAME sides")
    ap.add_argument("--problems", default=",".join(PROBLEMS), help="problem specs, comma-separated")
    ap.add_argument("--tol-exponents", type=tolerance_grid, default=tolerance_grid("-3:-11:-0.5"),
                    dest="tols", metavar="FIRST:LAST:STEP",
                    help="exponents e of tol = 10^e, negative, from FIRST to LAST by STEP "
                         "(default -3:-11:-0.5; how to write them: below)")
    ap.add_argument("--rounds", type=int, default=5, help="runs per process (--repeat)")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--metric", choices=["scd", "mescd", "tscd", "tmescd"], default="scd",
                    help="digits compared: scd, mescd at t_end, or tscd, tmescd along the reference "
                    "trajectory (default scd)")
    ap.add_argument("--min-level", type=float, default=0.0, metavar="DIGITS",
                    help="compare CPU only at levels both codes reach with at least DIGITS digits "
                    "(default 0: scd >= 0, an error of at most 100%%, the rule decided for mebdf)")
    ap.add_argument("--step", type=float, default=0.25, help="spacing of the accuracy levels")
    ap.add_argument("--run-args", default="", help="more arguments for every `CMD run` (shell-quoted)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per process")
    ap.add_argument("--json", metavar="OUT", help="save every point and table")
    args = ap.parse_args(joined_values(sys.argv[1:]))
    sides = [s for s in args.solvers.split(",") if s]
    if len(sides) < 2 or len(set(sides)) != len(sides):
        ap.error("--solvers needs two or more different sides")
    if any(s.startswith("peer:") for s in sides) and not args.peer:
        ap.error("a peer:NAME side needs --peer PATH")
    if args.rounds < 1 or args.passes < 1 or args.step <= 0:
        ap.error("--rounds, --passes and --step must be positive")
    problems = [p for p in args.problems.split(",") if p]
    points = measure(args, sides, problems, args.tols)
    print(f"## Work-precision: {args.metric} against CPU, tolerances {args.tols[0]} .. {args.tols[-1]}"
          f" ({len(args.tols)}), {args.rounds} runs per process, {args.passes} passes;"
          f" levels from {args.metric} >= {args.min_level:g}")
    report = {"tolerances": args.tols, "metric": args.metric, "min_level": args.min_level,
              "points": [], "tables": []}
    for (problem, side), pts in points.items():
        report["points"].append({"problem": problem, "side": side, "points": pts})
    for other in sides[1:]:
        worst = {}
        for problem in problems:
            rows = compare(points[(problem, sides[0])], points[(problem, other)], args.step,
                           args.min_level)
            worst[problem] = print_table(problem, sides[0], other, rows, points, args.metric)
            report["tables"].append({"problem": problem, "first": sides[0], "other": other, "rows": rows})
        print(f"\nWorst ratio {sides[0]}/{other} per problem: "
              + ", ".join(f"{p} {'-' if w is None else format(w, '.2f')}" for p, w in worst.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
