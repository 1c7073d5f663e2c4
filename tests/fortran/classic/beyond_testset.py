"""The classic codes on the problems and forms the test set lacks, beside mbdae's own solvers: a
markdown table for doc/fortran.md (run by hand, not a test).

  run_classic.sh FC MODDIR LIBDIR_TESTSET LIBDIR_MBDAE --keep DIR    (builds DIR/tsdriver_*)
  PYTHONPATH=build/python python3 beyond_testset.py DIR build/mbdae [TOL ...]

For every spec below and tolerance (rtol = atol = h0 = TOL, default 1e-4 1e-7): RADAU5, RADAU and
MEBDFI through the test-set interface (tsdriver_*, MBDAE_TESTSET_SPEC), and the command's radau5,
radau and mebdf (mbdae run --json); scd as mbdae computes it (mbdae.Problem.scd) and the steps,
or why the run failed (the classic codes' IDID).
"""
import json
import os
import subprocess
import sys

import mbdae

drivers, cli = sys.argv[1], sys.argv[2]
tols = sys.argv[3:] or ["1e-4", "1e-7"]
SPECS = [p + (":form=" + f if f else "") for p in ("pendulum", "dpendulum", "chain")
         for f in ("", "index2", "ggl", "index1", "baumgarte")]
CLASSIC = ("radau5", "radau", "mebdfi")
OURS = ("radau5", "radau", "mebdf")


def classic(spec, solver, tol):
    env = dict(os.environ, MBDAE_TESTSET_SPEC=spec)
    try:
        out = subprocess.run([os.path.join(drivers, "tsdriver_" + solver), tol, tol], env=env,
                             capture_output=True, text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        return "timeout"
    if out.returncode != 0:
        return "refused" if out.returncode == 3 else "exit %d" % out.returncode
    lines = out.stdout.split("\n")
    first = next(i for i, line in enumerate(lines)  # after the solver's own messages
                 if len(line.split()) == 6 and all(v.lstrip("-").isdigit() for v in line.split()))
    steps, _, nf, _, _, idid = (int(v) for v in lines[first].split())
    lines = lines[first:]
    ok = idid == 1 if solver != "mebdfi" else idid == 0
    if not ok:
        return "IDID %d" % idid
    y = [float(v) for v in lines[1:] if v.strip()]
    p = mbdae.Problem(spec)
    # The interface lists the variables ordered by index (stable); back to the problem's order.
    order = sorted(range(len(y)), key=lambda i: max(int(p.index[i]), 1))
    yp = [0.0] * len(y)
    for k, i in enumerate(order):
        yp[i] = y[k]
    return "%.2f / %d / %d" % (p.scd(yp), steps, nf)


def ours(spec, solver, tol):
    out = subprocess.run([cli, "run", spec, "--solver", solver, "--rtol", tol, "--atol", tol,
                          "--h0", tol, "--json"], capture_output=True, text=True, timeout=300,
                         check=False)
    try:
        d = json.loads(out.stdout)
    except ValueError:
        return "exit %d" % out.returncode
    if d["status"] != "ok":
        return "fail"
    return "%.2f / %d / %d" % (d["scd"], d["steps"], d["nres"])


print("| spec | tol | " + " | ".join(s.upper() for s in CLASSIC) + " | "
      + " | ".join(OURS) + " |")
print("|---|---|" + "---|" * (len(CLASSIC) + len(OURS)))
for spec in SPECS:
    for tol in tols:
        cells = [classic(spec, s, tol) for s in CLASSIC] + [ours(spec, s, tol) for s in OURS]
        print("| %s | %s | %s |" % (spec, tol, " | ".join(cells)), flush=True)
