"""Bad input to mbdae raises a Python exception and never crashes: wrong lengths, wrong dtypes,
non-contiguous and read-only arrays, NaN, an out of the wrong size, bad specs; memory stays flat
over 10^5 calls."""
import numpy as np
import pytest

import mbdae
from conftest import SANITIZED, SPECS


@pytest.fixture
def car():
    return mbdae.Problem("caraxis")


def test_bad_specs():
    with pytest.raises(ValueError, match="caraxis"):  # the message names the valid ids
        mbdae.Problem("nosuch")
    with pytest.raises(ValueError, match="form"):
        mbdae.Problem("caraxis:form=index7")
    with pytest.raises(ValueError):
        mbdae.Problem("chain:n=0")
    with pytest.raises(TypeError):
        mbdae.Problem(3)


@pytest.mark.parametrize("bad", [np.zeros(9), np.zeros(11), np.zeros((2, 10)), np.zeros(0), [],
                                 np.float64(1.0)])
def test_wrong_lengths(car, bad):
    y, yp = car.init()
    with pytest.raises(ValueError, match="vector of 10"):
        car.residual(0.0, bad, yp)
    with pytest.raises(ValueError, match="vector of 10"):
        car.residual(0.0, y, bad)
    with pytest.raises(ValueError):
        car.jacobian(0.0, bad, yp)
    with pytest.raises(ValueError):
        car.scd(bad)
    with pytest.raises(ValueError):
        car.constraints(0.0, bad)


@pytest.mark.parametrize("bad", [np.zeros(10, complex), np.array(["a"] * 10), [None] * 10,
                                 "abcdefghij", object()])
def test_wrong_dtypes(car, bad):
    y, yp = car.init()
    with pytest.raises(TypeError):
        car.residual(0.0, bad, yp)
    with pytest.raises(TypeError):
        car.mescd(bad, 1e-6, 1e-6)


def test_safe_conversions_give_the_same_numbers(car):
    y, yp = car.init()
    r = car.residual(0.0, y, yp)
    wide = np.zeros(20)
    wide[::2] = y
    assert np.array_equal(car.residual(0.0, wide[::2], yp), r)       # non-contiguous: copied
    ro = y.copy()
    ro.flags.writeable = False
    assert np.array_equal(car.residual(0, ro, list(yp)), r)          # read-only input, a list
    assert np.array_equal(car.residual(0.0, y.astype(np.float32).astype(float), yp),
                          car.residual(0.0, y.astype(np.float32), yp))
    assert np.array_equal(car.residual(0.0, y.byteswap().view(y.dtype.newbyteorder()), yp), r)


def test_bad_out(car):
    y, yp = car.init()
    with pytest.raises(ValueError, match="vector of 10"):
        car.residual(0.0, y, yp, out=np.zeros(9))
    with pytest.raises(TypeError, match="float64"):
        car.residual(0.0, y, yp, out=np.zeros(10, np.float32))
    with pytest.raises(TypeError):
        car.residual(0.0, y, yp, out=[0.0] * 10)
    ro = np.zeros(10)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        car.residual(0.0, y, yp, out=ro)
    with pytest.raises(ValueError, match="contiguous"):
        car.residual(0.0, y, yp, out=np.zeros(20)[::2])
    with pytest.raises(TypeError):
        car.residual(0.0, y, yp, bogus=np.zeros(10))
    with pytest.raises(TypeError):
        car.residual(0.0, y)
    with pytest.raises(TypeError):
        car.residual("t", y, yp)


def test_nan_does_not_crash(car):
    y, yp = car.init()
    y[0] = np.nan
    try:
        r = car.residual(np.nan, y, yp)
        assert np.isnan(r).any()
    except mbdae.Error as e:
        assert e.code == 1 and e.name == "MBDAE_RECOVERABLE"
    with pytest.raises(mbdae.Error, match="recoverable"):
        car.jacobian(0.0, y, yp)
    assert np.isnan(car.scd(y)) or car.scd(y) < 1


@pytest.mark.skipif(SANITIZED, reason="ASan's quarantine grows the resident set")
def test_memory_flat_over_1e5_calls(car):
    def rss_kib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4

    y, yp = car.init()
    out = np.empty(10)
    bad = np.zeros(3)
    for _ in range(1000):  # warm up the allocators
        car.residual(0.0, y, yp)
    before = rss_kib()
    ro = y.copy()
    ro.flags.writeable = False
    alias = y.copy()
    wrong = (((0.0, bad, yp), {}), ((0.0, y), {"out": out}),
             ((0.0, y, np.zeros(10, complex)), {}), ((0.0, y, yp), {"out": ro}))
    for k in range(100000):
        car.residual(0.0, y, yp)
        car.residual(0.0, list(y), yp, out=out)
        alias[:] = y
        car.residual(0.0, alias, yp, out=alias)  # through a buffer of its own
        args, kw = wrong[k % 4]  # each wrong call 25000 times
        try:
            car.residual(*args, **kw)
        except (ValueError, TypeError):
            pass
    for _ in range(10000):
        car.jacobian(0.0, y, yp)
        car.constraints(0.0, y)
        car.init()
        car.scd(y)
    grown = rss_kib() - before
    assert grown < 4096, f"resident set grew by {grown} KiB over 10^5 calls"


@pytest.mark.skipif(SANITIZED, reason="ASan's quarantine grows the resident set")
def test_memory_flat_over_1e5_calls_in_a_python_solver():
    def rss_kib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4

    def solver(call):
        y, yp, out = call.y0, call.yp0, np.empty(call.y0.size)
        for k in range(100000):
            call.residual(call.t0, y, yp, out=out)
            call.residual(call.t0, y, yp)
            try:
                call.residual(call.t0, y, out=out)
            except TypeError:
                pass
            if k == 1000:
                solver.before = rss_kib()
        solver.after = rss_kib()
        return y, yp

    r = mbdae.solve("caraxis", solver)
    assert r.stats.nres == 200000
    assert solver.after - solver.before < 4096, solver.after - solver.before


@pytest.mark.parametrize("spec", SPECS + ["fekete", "wheelset"])
def test_out_may_alias_an_input(spec):
    """out= sharing memory with y or yp gives F as without out= (it gave another F on six
    problems: the residual read y after writing F into it)."""
    p = mbdae.Problem(spec)
    y0, yp0 = p.init()
    rng = np.random.default_rng(7)
    y, yp = y0 + 0.1 * rng.standard_normal(p.n), yp0 + 0.1 * rng.standard_normal(p.n)
    want = p.residual(p.t0, y, yp)
    a, b = y.copy(), yp.copy()
    assert np.array_equal(p.residual(p.t0, a, yp, out=a), want)
    assert np.array_equal(p.residual(p.t0, y, b, out=b), want)
    c = y.copy()
    assert np.array_equal(p.residual(p.t0, c, c, out=c), p.residual(p.t0, y, y))
    if p.n > 1:  # a partial overlap: out one value into y
        buf = np.concatenate([y, [0.0]])
        assert np.array_equal(p.residual(p.t0, buf[:-1], yp, out=buf[1:]), want)
