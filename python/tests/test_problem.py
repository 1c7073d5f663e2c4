"""mbdae.Problem against the C library called through ctypes: every problem's attributes,
residual, Jacobian (dense and on its pattern), initial values, reference, constraints, scd and
mescd, bit for bit; the mass-matrix view M y' = f(t, y)."""
import numpy as np
import pytest

import mbdae
from conftest import SPECS, CLib


def points(p, count=3, seed=7):
    """The library's check points and random states around y0 (deterministic)."""
    ts, ys, yps = p._check_points()
    rng = np.random.default_rng(seed)
    y0, yp0 = p.init()
    out = list(zip(ts, ys, yps))
    for _ in range(count):
        t = p.t0 + (p.tend - p.t0) * rng.random()
        out.append((t, y0 + rng.uniform(-0.1, 0.1, p.n), yp0 + rng.uniform(-0.1, 0.1, p.n)))
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_attributes(spec, clib):
    p = mbdae.Problem(spec)
    h = clib.problem(spec)
    try:
        n = clib.lib.mbdae_problem_neq(h)
        assert p.n == n and len(p.names) == n and len(set(p.names)) == n
        idx = clib.lib.mbdae_problem_index(h)
        assert list(p.index) == [idx[i] for i in range(n)]
        assert p.t0 < p.tend and p.title and p.spec.startswith(p.id)
        assert mbdae.Problem(p.spec).spec == p.spec
        assert p.tolerances.table and p.tolerances.default > 0
    finally:
        clib.lib.mbdae_problem_destroy(h)


@pytest.mark.parametrize("spec", SPECS)
def test_functions_bit_for_bit(spec, clib):
    p = mbdae.Problem(spec)
    h = clib.problem(spec)
    P = CLib.ptr
    L = clib.lib
    n = p.n
    try:
        y0, yp0 = p.init()
        cy, cyp = np.empty(n), np.empty(n)
        assert L.mbdae_problem_init(h, P(cy), P(cyp)) == 0
        assert np.array_equal(y0, cy) and np.array_equal(yp0, cyp)
        nc = L.mbdae_problem_nconstraints(h)
        for t, y, yp in points(p):
            r = np.empty(n)
            assert L.mbdae_problem_res(h, t, P(y), P(yp), P(r)) == 0
            assert np.array_equal(p.residual(t, y, yp), r)
            out = np.full(n, np.nan)
            assert p.residual(t, y, yp, out=out) is out and np.array_equal(out, r)
            a, b = np.empty((n, n), order="F"), np.empty((n, n), order="F")
            assert L.mbdae_problem_jac(h, t, P(y), P(yp), P(a), P(b)) == 0
            ja, jb = p.jacobian(t, y, yp)
            assert np.array_equal(ja, a) and np.array_equal(jb, b)
            pat = p.pattern()
            va, vb = np.empty(len(pat["indices"])), np.empty(len(pat["indices"]))
            assert L.mbdae_problem_jac_values(h, t, P(y), P(yp), P(va), P(vb)) == 0
            sa, sb = p.jacobian(t, y, yp, sparse=True)
            assert np.array_equal(sa.indptr, pat["indptr"])
            assert np.array_equal(sa.data, va) and np.array_equal(sb.data, vb)
            # The library's two Jacobian calls agree to rounding (not always bit for bit: the
            # chain's pattern values are computed apart from its dense ones).
            for s_, d_ in ((sa, a), (sb, b)):
                assert np.allclose(s_.toarray(), d_, rtol=1e-14, atol=1e-14 * np.abs(d_).max())
            g, gv = np.empty(max(nc, 1)), np.empty(max(nc, 1))
            if nc:
                assert L.mbdae_problem_constraints(h, t, P(y), P(yp), P(g), P(gv), None) == 0
            pg, pgv = p.constraints(t, y, yp)
            assert np.array_equal(pg, g[:nc]) and np.array_equal(pgv, gv[:nc])
    finally:
        L.mbdae_problem_destroy(h)


@pytest.mark.parametrize("spec", SPECS)
def test_reference_scd_mescd_bit_for_bit(spec, clib):
    p = mbdae.Problem(spec)
    h = clib.problem(spec)
    P = CLib.ptr
    try:
        cref = np.empty(p.n)
        rc = clib.lib.mbdae_problem_ref(h, P(cref))
        ref = p.reference()
        assert p.ref_source
        if rc != 0:
            assert ref is None
            with pytest.raises(ValueError, match="no reference"):
                p.scd(np.zeros(p.n))
            assert np.isfinite(p.scd(np.ones(p.n), yref=2 * np.ones(p.n)))
            return
        assert np.array_equal(ref, cref)
        y = ref * (1 + 1e-6 * np.sin(np.arange(p.n))) + 1e-9
        assert p.scd(y) == clib.lib.mbdae_scd(h, P(y), P(cref))
        for rtol, atol in ((1e-6, 1e-6), (1e-4, 1e-8)):
            assert p.mescd(y, rtol, atol) == clib.lib.mbdae_mescd(h, P(y), P(cref), rtol, atol)
    finally:
        clib.lib.mbdae_problem_destroy(h)


@pytest.mark.parametrize("spec", SPECS)
def test_pattern_covers_the_jacobian(spec):
    p = mbdae.Problem(spec)
    pat = p.pattern()
    assert pat["kind"] in ("dense", "band", "sparse")
    assert len(pat["indptr"]) == p.n + 1 and pat["indptr"][-1] == len(pat["indices"])
    mask = np.zeros((p.n, p.n), bool)
    for j in range(p.n):
        mask[pat["indices"][pat["indptr"][j]:pat["indptr"][j + 1]], j] = True
    for t, y, yp in points(p, count=1):
        a, b = p.jacobian(t, y, yp)
        assert not np.any(a[~mask]) and not np.any(b[~mask])


def test_large_chain_is_not_dense():
    p = mbdae.Problem("chain:n=200,form=index1")
    assert p.pattern()["kind"] in ("band", "sparse")
    a, _ = p.jacobian(p.t0, *p.init(), sparse=True)
    assert a.format == "csc" and a.nnz < p.n * p.n / 10


@pytest.mark.parametrize("spec", [s for s in SPECS if "dummy" not in s])
def test_mass_matrix_view(spec):
    p = mbdae.Problem(spec)
    m = p.mass()
    for t, y, yp in points(p, count=2):
        f = p.rhs(t, y)
        r = p.residual(t, y, yp)
        scale = np.abs(r) + np.abs(m) @ np.abs(yp) + np.abs(f) + 1
        assert np.all(np.abs(m @ yp - f - r) <= 1e-13 * scale)


class NotLinearInYp(mbdae.Problem):
    """A residual with y'^2 in it: not of the form M y' = f(t, y)."""

    def residual(self, t, y, yp, out=None):
        return super().residual(t, y, yp) + np.asarray(yp) ** 2


@pytest.mark.parametrize("spec", ["pendulum:form=dummy", "dpendulum:form=dummy"])
def test_mass_refused_for_dummy_derivatives(spec):
    # Dummy derivatives: the selected derivatives are states, dF/dy' depends on y.
    with pytest.raises(ValueError, match="dF/dy' is not constant"):
        mbdae.Problem(spec).mass()


def test_mass_refused_where_not_linearly_implicit():
    p = NotLinearInYp("pendulum")
    with pytest.raises(ValueError, match="not of the form M y' = f"):
        p.mass()
    with pytest.raises(ValueError, match="not linear in y'"):
        p.rhs(0.0, p.init()[0])


def test_ssf_mass_is_identity():
    for spec in ("pendulum:form=ssf", "chain:n=3,form=ssf"):
        assert np.array_equal(mbdae.Problem(spec).mass(), np.eye(mbdae.Problem(spec).n))


def test_plugin_problem():
    from conftest import plugin_file
    solvers, problems = mbdae.load_plugin(plugin_file("decay"))
    assert "decay" in problems and ("decay", "") in mbdae.problems()
    p = mbdae.Problem("decay")
    assert p.n == 2 and np.allclose(p.reference(), np.exp(-1.0))
    with pytest.raises(ValueError, match="already taken"):
        mbdae.load_plugin(plugin_file("decay"))
