"""Setting up and finding one's way: the launcher the build writes (build/mbdae-python) runs the
Python the module was built for; an import into another Python names that one; plug-ins load
without -lmbdae and are refused when they offer an id twice; help(mbdae) shows the package's own
API, its namespace holds no np, os or json; the Problem docstring's example runs; the dense
pattern's index arithmetic holds beyond n = 46340."""
import doctest
import os
import pydoc
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mbdae
from mbdae import _build


def launcher():
    path = os.environ.get("MBDAE_PYTHON_LAUNCHER")
    if not path:
        pytest.skip("MBDAE_PYTHON_LAUNCHER (build/mbdae-python) is set by ctest")
    return path


def test_launcher_runs_the_python_of_the_module(tmp_path):
    """build/mbdae-python: the interpreter CMake found, the build's module on its path, even with
    a python3 without NumPy first on PATH and no PYTHONPATH."""
    shim = tmp_path / "python3"
    shim.write_text("#!/bin/sh\necho 'no numpy here' >&2\nexit 1\n")
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = f"{tmp_path}:{env.get('PATH', '')}"
    code = "import sys, mbdae, numpy; print(sys.executable); print(mbdae.__file__)"
    out = subprocess.run([launcher(), "-c", code], capture_output=True, text=True, env=env,
                         cwd=tmp_path)  # not the build folder: python -c looks in the cwd first
    assert out.returncode == 0, out.stderr
    exe, module = out.stdout.split()
    assert os.path.realpath(exe) == os.path.realpath(_build.PYTHON)
    assert os.path.dirname(module) == os.path.dirname(mbdae.__file__)
    assert os.path.samefile(_build.LAUNCHER, launcher())


@pytest.mark.parametrize("missing", ["numpy", "mbdae._mbdae"])
def test_import_into_another_python_names_the_right_one(missing):
    """Where NumPy is missing or the extension does not load (another Python's ABI), the
    ImportError names the Python the module was built for and the launcher."""
    code = f"import sys; sys.modules[{missing!r}] = None; import mbdae"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: mbdae cannot be imported into"), last
    assert f"built for {_build.PYTHON}" in last and _build.LAUNCHER in last


def test_another_python_on_the_machine():
    """A python3 on PATH other than the module's (a pyenv shim, say), where there is one."""
    for d in os.environ.get("PATH", "").split(os.pathsep):
        other = os.path.join(d, "python3")
        if os.path.exists(other) and os.path.realpath(other) != os.path.realpath(_build.PYTHON):
            break
    else:
        pytest.skip("no other python3 on PATH")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(mbdae.__file__)))
    out = subprocess.run([other, "-c", "import mbdae"], capture_output=True, text=True, env=env)
    if out.returncode == 0:
        pytest.skip(f"{other} imports the module (the same ABI, with NumPy)")
    assert f"built for {_build.PYTHON}" in out.stderr, out.stderr


def py_plugin(name):
    d = os.environ.get("MBDAE_PY_PLUGIN_DIR")
    path = d and os.path.join(d, f"plugin_{name}.so")
    if not path or not os.path.exists(path):
        pytest.skip("MBDAE_PY_PLUGIN_DIR has no test plug-ins (run through ctest)")
    return path


def test_plugin_without_libmbdae():
    """tests/plugin/euler.c built without -lmbdae (its mbdae_ functions undefined in it) loads,
    as `mbdae --plugin` takes it, and runs (in a process of its own: the id euler may be taken
    by test_solve's plug-in)."""
    path = py_plugin("euler_unlinked")
    code = textwrap.dedent(f"""
        import mbdae
        print(mbdae.load_plugin({path!r}))
        r = mbdae.solve("caraxis:form=index1", "euler", rtol=1e-3, raise_on_failure=False)
        print(r.solver, r.stats.steps > 0)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["(('euler',), ())", "euler True"]
    nm = subprocess.run(["nm", "-D", "--undefined-only", path], capture_output=True, text=True)
    if nm.returncode == 0:
        assert "mbdae_problem_res" in nm.stdout  # resolved at load time, from the module's
    ldd = subprocess.run(["ldd", path], capture_output=True, text=True)
    if ldd.returncode == 0:
        assert "libmbdae" not in ldd.stdout


@pytest.mark.parametrize("name,what", [("twice_solver", "solver id 'twice'"),
                                       ("twice_problem", "problem id 'twice_problem'")])
def test_an_id_twice_in_one_plugin(name, what):
    with pytest.raises(ValueError, match=f"{what} is already taken by plug-in"):
        mbdae.load_plugin(py_plugin(name))
    assert "twice" not in [s[0] for s in mbdae.solvers()]  # taken whole or not at all
    assert "twice_problem" not in [p[0] for p in mbdae.problems()]


def test_help_shows_the_package_api():
    text = pydoc.render_doc(mbdae, renderer=pydoc.plaintext)
    for boilerplate in ("inherited from builtins", "__dataclass_fields__", "__match_args__",
                        "__weakref__", "with_traceback", "__getnewargs__", "from_bytes"):
        assert boilerplate not in text, boilerplate
    for name in ("solve(", "read_runs_csv(", "class Status", "CONV = <Status.CONV: -9>",
                 "residual(...)", "sweep(self)", "success"):
        assert name in text, name
    # A page a reader scrolls: the package's own classes and functions, about 10 lines each
    # (the boilerplate of the builtins' inherited methods, which the checks above exclude, took
    # the page past 1000 lines).
    assert len(text.splitlines()) < 600
    public = {n for n in dir(mbdae) if not n.startswith("_")}
    assert public == set(mbdae.__all__) | {"clients", "harness"}
    for name in ("np", "os", "json", "math", "dataclasses", "re", "enum"):
        assert not hasattr(mbdae, name), name


def test_docstring_examples_run():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in finder.find(mbdae, "mbdae", globs=vars(mbdae)) if t.examples]
    assert any(t.name == "mbdae.Problem" for t in tests)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0 and runner.tries >= 4


def test_dense_pattern_in_64_bits():
    """The column pointers of a dense pattern, j * n, overflowed an int for n > 46340."""
    for n in (46340, 46341, 100000):
        c = mbdae._mbdae._dense_colptr(n)
        assert c[-1] == n * n and np.all(np.diff(c) == n) and c.dtype.itemsize * 8 >= 32
        assert c.dtype == (np.int32 if n * n < 2**31 else np.int64)
    p = mbdae.Problem("caraxis")
    pat = p.pattern()
    assert pat["kind"] == "dense" and pat["indptr"][-1] == 100 and len(pat["indices"]) == 100
    assert list(pat["indices"][:10]) == list(range(10)) and pat["indptr"].dtype == np.int32
