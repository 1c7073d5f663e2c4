"""runs.csv from Python: written whole or not at all (a new file renamed into place, never an
existing path opened for writing: a symbolic link runs.csv is replaced, its target untouched; a
file-size limit leaves the old file as it was), and read back (read_runs_csv) into the records
write_runs_csv wrote, quoted commas and side files included."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mbdae


@pytest.fixture(scope="module")
def results():
    def failing(call):
        return {"y": call.y0, "yp": call.yp0, "t": 0.5, "status": mbdae.Status.CONV,
                "message": 'stuck, at "t = 0.5", then, gave up'}  # quotes and commas

    failing.title = 'a solver, with "commas" and quotes'
    return [mbdae.solve("pendulum:form=index1", "radau5", rtol=1e-5),
            mbdae.solve("caraxis", "bdf", rtol=1e-4, max_steps=3, raise_on_failure=False),
            mbdae.solve("pendulum", failing, raise_on_failure=False, name="failing"),
            mbdae.solve("chain:n=201,form=index1", "radau5", rtol=1e-3, max_steps=2,
                        raise_on_failure=False)]  # 1005 components: a side file


def without_linsys(record):
    return {k: v for k, v in record.items() if k != "linsys"}


def test_round_trip(tmp_path, results):
    mbdae.write_runs_csv(results, tmp_path)
    back = mbdae.read_runs_csv(tmp_path / "runs.csv")
    assert [without_linsys(r.record) for r in results] == [b.record for b in back]
    for r, b in zip(results, back):
        assert (b.solver, b.status, b.code, b.message) == (r.solver, r.status, r.code, r.message)
        assert b.stats == r.stats and np.array_equal(b.y, r.y)
        assert b.problem == r.problem and b.yp is None and b.y_eval is None
    assert back[2].message == 'stuck, at "t = 0.5", then, gave up'
    assert back[2].record["solver_title"] == 'a solver, with "commas" and quotes'
    assert mbdae.table("pendulum:form=index1", back) == mbdae.table("pendulum:form=index1",
                                                                    results)
    mbdae.write_runs_csv(back, tmp_path / "again")  # what was read back writes the same rows
    assert (tmp_path / "again" / "runs.csv").read_bytes().count(b"\n") == 5
    assert [b.record for b in mbdae.read_runs_csv(tmp_path / "again" / "runs.csv")] == \
        [b.record for b in back]


def test_read_refuses_a_bad_file(tmp_path):
    bad = tmp_path / "runs.csv"
    bad.write_text("problem,solver\ncaraxis,radau5\n")
    with pytest.raises(ValueError, match="runs.csv:"):
        mbdae.read_runs_csv(bad)
    with pytest.raises(OSError):
        mbdae.read_runs_csv(tmp_path / "none.csv")


def test_append_and_truncate(tmp_path, results):
    mbdae.write_runs_csv(results[:2], tmp_path)
    mbdae.write_runs_csv(results[2:], tmp_path, append=True)
    assert [b.solver for b in mbdae.read_runs_csv(tmp_path / "runs.csv")] == \
        ["radau5", "bdf", "failing", "radau5"]
    mbdae.write_runs_csv(results[1:2], tmp_path)
    assert [b.solver for b in mbdae.read_runs_csv(tmp_path / "runs.csv")] == ["bdf"]
    leftovers = [f for f in os.listdir(tmp_path) if f.startswith(".")]
    assert leftovers == []


def test_a_link_is_replaced_not_written_through(tmp_path, results):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    d = tmp_path / "out"
    d.mkdir()
    (d / "runs.csv").symlink_to(target)
    mbdae.write_runs_csv(results[:1], d)
    assert target.read_text() == "keep me\n"
    assert not (d / "runs.csv").is_symlink() and len(mbdae.read_runs_csv(d / "runs.csv")) == 1
    (d / "runs.csv").unlink()
    (d / "runs.csv").symlink_to(target)
    with pytest.raises(ValueError, match="incomplete"):  # "keep me" read back: not a runs.csv
        target.write_text("keep me")
        mbdae.write_runs_csv(results[:1], d, append=True)
    assert target.read_text() == "keep me" and (d / "runs.csv").is_symlink()


LIMITED = textwrap.dedent("""
    import resource, signal, sys
    import mbdae
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    results = [mbdae.solve("chain:n=199,form=index1", "radau5", rtol=1e-3, max_steps=1,
                           raise_on_failure=False) for _ in range(3)]  # 27 kB a row
    limit = int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        mbdae.write_runs_csv(results, sys.argv[1], append=sys.argv[3] == "append")
    except OSError as e:
        print("refused:", e.strerror)
        sys.exit(4)
    print("written")
""")


@pytest.mark.parametrize("mode", ["append", "replace"])
def test_a_file_size_limit_leaves_the_old_file(tmp_path, results, mode):
    """Under RLIMIT_FSIZE (SIGXFSZ ignored: the write fails with EFBIG) an append left a torn
    row and a replace an emptied file; now the old runs.csv stays as it was."""
    mbdae.write_runs_csv(results[:2], tmp_path)
    old = (tmp_path / "runs.csv").read_bytes()
    limit = len(old) + 3000  # room for the old content and part of the new rows
    out = subprocess.run([sys.executable, "-c", LIMITED, str(tmp_path), str(limit), mode],
                         capture_output=True, text=True)
    assert out.returncode == 4 and "refused: File too large" in out.stdout, out.stdout + out.stderr
    assert (tmp_path / "runs.csv").read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["runs.csv"] + sorted(
        f for f in os.listdir(tmp_path) if f.endswith(".vec"))
    assert len(mbdae.read_runs_csv(tmp_path / "runs.csv")) == 2


def test_side_files_never_overwrite(tmp_path, results):
    mbdae.write_runs_csv(results[3:], tmp_path)
    mbdae.write_runs_csv(results[3:], tmp_path, append=True)
    sides = sorted(f for f in os.listdir(tmp_path) if f.endswith(".vec"))
    assert len(sides) == 2
    back = mbdae.read_runs_csv(tmp_path / "runs.csv")
    assert len(back) == 2 and all(np.array_equal(b.y, results[3].y) for b in back)
