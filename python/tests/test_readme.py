"""The README's Python example runs as written and prints the car axis table; doc/python.md's
scipy_dae example runs where scipy_dae is importable, and the API doc/python.md names exists."""
import contextlib
import io
import pathlib
import re
import warnings

import pytest

import mbdae

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PYTHON_DOC = ROOT / "doc" / "python.md"


def readme_python_section():
    text = README.read_text()
    return text[text.index("\n## Python in ten lines\n"):text.index("\n## Where to read on\n")]


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_example_prints_the_car_axis_table():
    blocks = python_blocks(readme_python_section())
    assert len(blocks) == 1
    code = blocks[0]
    assert len(code.strip().splitlines()) == 5
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    text = out.getvalue()
    assert "Car axis problem: run characteristics" in text
    assert "| radau5 | 1e-4 |" in text and "| 1e-10 |" in text


def test_scipy_dae_example():
    import importlib.util
    if importlib.util.find_spec("scipy_dae") is None:
        pytest.skip("scipy_dae is not importable: put a copy on PYTHONPATH")
    blocks = [b for b in python_blocks(PYTHON_DOC.read_text()) if "scipy_dae(" in b]
    assert len(blocks) == 1, "doc/python.md: one example runs scipy_dae"
    code = blocks[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, "doc/python.md", "exec"), {})
    text = out.getvalue()
    assert "| scipy_dae_radau | 1e-4 |" in text and "scipy_dae_bdf_fd" in text


def test_named_api_exists():
    readme = readme_python_section()
    for name in re.findall(r"`mbdae\.(\w+)", readme):
        assert hasattr(mbdae, name), name
    section = PYTHON_DOC.read_text()
    for name in re.findall(r"`mbdae\.(\w+)", section):
        assert hasattr(mbdae, name), name
    p = mbdae.Problem("pendulum")
    for name in ("n", "names", "index", "t0", "tend", "title", "spec", "tolerances", "init",
                 "residual", "jacobian", "pattern", "reference", "ref_source", "constraints",
                 "scd", "mescd", "mass", "rhs"):
        assert f"`{name}" in section and hasattr(p, name), name
    assert mbdae.__doc__ and mbdae.solve.__doc__ and mbdae.Problem.residual.__doc__
