"""The README's Python section runs as written: its example prints the car axis table, and the
API it names exists."""
import contextlib
import io
import pathlib
import re
import warnings

import pytest

import mbdae

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def python_section():
    text = README.read_text()
    return text[text.index("\n## Python\n"):text.index("\n## Layout\n")]


def test_example_prints_the_car_axis_table():
    code = re.findall(r"```python\n(.*?)```", python_section(), re.S)[0]
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
    code = re.findall(r"```python\n(.*?)```", python_section(), re.S)[1]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, "README.md", "exec"), {})
    text = out.getvalue()
    assert "| scipy_dae_radau | 1e-4 |" in text and "scipy_dae_bdf_fd" in text


def test_named_api_exists():
    section = python_section()
    for name in re.findall(r"`mbdae\.(\w+)", section):
        assert hasattr(mbdae, name), name
    p = mbdae.Problem("pendulum")
    for name in ("n", "names", "index", "t0", "tend", "title", "spec", "tolerances", "init",
                 "residual", "jacobian", "pattern", "reference", "ref_source", "constraints",
                 "scd", "mescd", "mass", "rhs"):
        assert f"`{name}" in section and hasattr(p, name), name
    assert mbdae.__doc__ and mbdae.solve.__doc__ and mbdae.Problem.residual.__doc__
