"""Ctrl-C: SIGINT during a built-in solver's run (the GIL released, the run in C) stops it within
about a second and solve raises KeyboardInterrupt, in a sweep and an Integrator's step too; a run in another thread, where
Python runs no signal handlers, is not disturbed.  (A Python solver's KeyboardInterrupt and
SystemExit: test_python_solver.py, test_interrupts_propagate.)"""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import mbdae

LONG = "fekete:n=100"  # bdf at rtol 1e-10: 15 s alone, minutes on a loaded machine

CHILD = textwrap.dedent("""
    import sys, time
    import mbdae
    print("ready", flush=True)
    start = time.monotonic()
    try:
        if sys.argv[1] == "solve":
            mbdae.solve(sys.argv[2], "bdf", rtol=1e-10)
        elif sys.argv[1] == "integrator":
            p = mbdae.Problem(sys.argv[2])
            mbdae.Integrator(p, "bdf", rtol=1e-10).step_to(p.tend)
        else:
            mbdae.sweep([sys.argv[2]], ["bdf", "radau5"], [1e-10, 1e-11])
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
        sys.exit(3)
    print("finished", flush=True)
""")


@pytest.mark.parametrize("how", ["solve", "sweep", "integrator"])
def test_sigint_stops_a_built_in_run(how):
    child = subprocess.Popen([sys.executable, "-c", CHILD, how, LONG], stdout=subprocess.PIPE,
                             text=True, env=os.environ)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # inside the run by now
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=20)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out.strip() == "KeyboardInterrupt" and child.returncode == 3, out
    assert waited < 2.0, f"the run went on {waited:.1f} s after SIGINT"


def test_runs_outside_the_main_thread_are_not_stopped():
    import threading
    got = []
    worker = threading.Thread(target=lambda: got.append(mbdae.solve("caraxis", "radau5",
                                                                     rtol=1e-8)))
    worker.start()
    worker.join()
    alone = mbdae.solve("caraxis", "radau5", rtol=1e-8)
    assert got[0].success and got[0].stats == alone.stats and (got[0].y == alone.y).all()
