"""test_fortran_example: the Fortran example solver (examples/fortran/bdf1.f90) through the
plug-in (mbdae run --plugin libbdf1_plugin.so --solver fbdf1) and through the test-set interface
(bdf1_testset, MBDAE_TESTSET_SPEC) gives the same counters and the same y bit for bit where the
test-set interface's residual is the C one (caraxis:form=index2); on the published car axis, whose
f is the test set's arithmetic, the same counters; the plug-in reports its drift over every
accepted step; and the module's example program (chain_mebdf) prints the scd the command prints
for the same run.

usage: test_fortran_example.py MBDAE_CLI PLUGIN BDF1_TESTSET CHAIN_MEBDF
"""
import json
import os
import subprocess
import sys

cli, plugin, bdf1_testset, chain_mebdf = sys.argv[1:5]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def plugin_run(spec, tol):
    out = subprocess.run([cli, "run", spec, "--plugin", plugin, "--solver", "fbdf1", "--rtol", tol,
                          "--atol", tol, "--json"], capture_output=True, text=True, check=False)
    return json.loads(out.stdout)


def testset_run(spec, tol):
    env = dict(os.environ, MBDAE_TESTSET_SPEC=spec)
    out = subprocess.run([bdf1_testset, tol], capture_output=True, text=True, env=env,
                         check=False).stdout.split("\n")
    steps, accepted, nres, njac, nlu, status = (int(v) for v in out[0].split())
    y = [float(v) for v in out[1:] if v.strip()]
    return dict(steps=steps, accepted=accepted, nres=nres, njac=njac, nlu=nlu, status=status, y=y)


COUNTERS = ("steps", "accepted", "nres", "njac", "nlu")

a = plugin_run("caraxis:form=index2", "1e-4")
b = testset_run("caraxis:form=index2", "1e-4")
check(a["status"] == "ok" and b["status"] == 0, "caraxis:form=index2 runs: %s" % a["message"])
for k in COUNTERS:
    check(a[k] == b[k], "caraxis:form=index2 %s: plug-in %d, test-set driver %d" % (k, a[k], b[k]))
check(a["y"] == b["y"], "caraxis:form=index2: y bit for bit")
check(a["drift_steps"] == a["accepted"], "the plug-in reports every accepted state (drift)")
print("caraxis:form=index2 1e-4: %d steps, %d f, y equal: %s" % (a["steps"], a["nres"],
                                                                 a["y"] == b["y"]))

a = plugin_run("caraxis", "1e-4")
b = testset_run("caraxis", "1e-4")
for k in COUNTERS:
    check(a[k] == b[k], "caraxis %s: plug-in %d, test-set driver %d" % (k, a[k], b[k]))
check(max(abs(u - v) for u, v in zip(a["y"], b["y"])) < 1e-10, "caraxis: y to 1e-10")

out = subprocess.run([chain_mebdf], capture_output=True, text=True, check=False).stdout
ref = subprocess.run([cli, "run", "chain", "--solver", "mebdf", "--rtol", "1e-6", "--atol", "1e-6",
                      "--json"], capture_output=True, text=True, check=False)
d = json.loads(ref.stdout)
want = "scd %6.2f" % d["scd"]
check(want in out, "chain_mebdf prints the command's '%s':\n%s" % (want, out))
check("steps %d," % d["steps"] in out, "chain_mebdf: the command's steps %d" % d["steps"])

if failures:
    print("test_fortran_example: %d failures" % len(failures))
    sys.exit(1)
print("test_fortran_example: ok")
