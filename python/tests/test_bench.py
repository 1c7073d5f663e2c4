"""The overhead benchmark runs (its timings are printed, never asserted)."""
import os
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(__file__), "..", "bench", "bench_overhead.py")


def test_bench_overhead_runs():
    env = dict(os.environ)
    env.pop("MBDAE_COMMAND", None)
    out = subprocess.run([sys.executable, BENCH, "50"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 9 and lines[-1].startswith("largest overhead of ours over the C call")
    assert [line.split()[1] for line in lines[1:-1]] == ["5", "10", "10", "15", "24", "27", "30"]
