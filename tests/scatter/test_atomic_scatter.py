"""The atomic path of kd.add.at / subtract.at / maximum.at / minimum.at, bincount and histogram against NumPy:
which dtypes take it, duplicate-heavy indices, NaN, empty inputs, negative and out-of-range indices, views,
broadcast values, N-d indices, the forced sort-based fallback and ``deterministic=True``."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine.schedule import schedule
from kdsl.frontend.array import scatter_atomic

UFUNCS = ["add", "subtract", "maximum", "minimum"]
FLOAT_ADD = "atomic_float32_add" in kd.device().features


def _kinds(a):
    return [type(s.kernel).__name__ for s in schedule([a._node])] if not a._node.realized else []


def _tolerance(a, idx, v):
    """Per element: the rounding of a sum in any order, eps * (terms + 1) * (|a| + sum |v|), plus the sort
    path's documented float64 error, eps * (sum of all |v|) (prefix-sum differences)."""
    terms = np.zeros(a.shape, np.float64)
    np.add.at(terms, idx, 1.0)
    mags = np.abs(a.astype(np.float64))
    vs = np.abs(np.broadcast_to(v, a[idx].shape).astype(np.float64))
    vs[~np.isfinite(vs)] = 0.0  # (elements with a NaN or an infinity are compared exactly)
    np.add.at(mags, idx, vs)
    return np.finfo(a.dtype).eps * ((terms + 1) * mags + 2 * vs.sum())


def _run(name, a_host, idx, v, device_idx=True, **kw):
    a = kd.asarray(a_host)
    getattr(kd, name).at(a, kd.asarray(np.asarray(idx)) if device_idx else idx, v, **kw)
    return a


def _check(name, a_host, idx, v, device_idx=True, scatter=None, **kw):
    want = a_host.copy()
    with np.errstate(invalid="ignore", over="ignore"):
        getattr(np, name).at(want, idx, v)
    a = _run(name, a_host, idx, v, device_idx, **kw)
    if scatter is not None:
        assert ("Scatter" in _kinds(a)) == scatter
    got = a.numpy()
    assert got.dtype == want.dtype
    if want.dtype.kind == "f" and name in ("add", "subtract"):
        tol = _tolerance(a_host, idx, v)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        ok = np.isfinite(want)
        np.testing.assert_array_equal(got[~ok], want[~ok])
        assert np.all(np.abs(got[ok].astype(np.float64) - want[ok]) <= tol[ok]), (got, want)
    else:
        np.testing.assert_array_equal(got, want)


def _patterns(n, m, rng):
    return {"random": rng.integers(-n, n, m), "all same": np.full(m, 3), "distinct": rng.permutation(n)[:m],
            "two hot": rng.choice([0, n - 1], m)}


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64", "int8", "uint8", "int16", "uint16", "bool",
                                   "float16", "float32", "float64"])
@pytest.mark.parametrize("name", UFUNCS)
def test_dtypes_and_duplicate_patterns(name, dtype):
    if dtype == "bool" and name == "subtract":
        return  # NumPy refuses boolean subtract (tested in test_ufunc_at)
    rng = np.random.default_rng(3)
    n, m = 40, 300
    for pattern, idx in _patterns(n, m, rng).items():
        if pattern == "distinct":
            idx = idx[:n]
        if dtype == "bool":
            a, v = rng.random(n) < 0.3, rng.random(idx.size) < 0.5
        else:
            a = rng.integers(0, 100, n).astype(dtype)
            v = rng.integers(0, 100, idx.size).astype(dtype)
            if dtype.startswith("float"):
                a, v = a * 0.37, v * -1.3
        _check(name, a.astype(dtype), idx, v.astype(dtype))


@pytest.mark.parametrize("dtype,name,atomic", [
    ("int32", "add", True), ("uint32", "maximum", True), ("int8", "add", True), ("bool", "add", True),
    ("bool", "minimum", True), ("float32", "add", FLOAT_ADD), ("float32", "subtract", FLOAT_ADD),
    ("float32", "maximum", True), ("float32", "minimum", True), ("float16", "maximum", True),
    ("complex64", "add", FLOAT_ADD),
    ("int64", "minimum", "int64_atomics" in kd.device().features),
    ("float64", "maximum", "int64_atomics" in kd.device().features),
    ("float64", "add", "atomic_float64_add" in kd.device().features)])
def test_which_dtypes_take_atomics(dtype, name, atomic):
    a = np.zeros(6, dtype)
    _check(name, a, [1, 1, 4, -1], np.ones(4, dtype), scatter=atomic)


def test_nan_and_inf_values():
    a = np.zeros(6, np.float32)
    idx = np.array([0, 1, 1, 2, 3, 3, 4, 5, 5])
    v = np.array([np.nan, np.inf, 1.0, -np.inf, np.inf, -np.inf, 2.0, np.nan, 7.0], np.float32)
    for name in UFUNCS:
        _check(name, a, idx, v, device_idx=False)
        _check(name, a, idx, v)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sums_add_both_parts(dtype):
    """Two float scatters (atomic where float atomics exist); kd's sort path once dropped imaginary parts."""
    rng = np.random.default_rng(10)
    a = (rng.standard_normal(9) + 1j * rng.standard_normal(9)).astype(dtype)
    v = (rng.standard_normal(60) - 2j * rng.standard_normal(60)).astype(dtype)
    v[5] = complex(np.nan, 1.0)
    idx = rng.integers(-9, 9, 60)
    for name in ("add", "subtract"):
        want = a.copy()
        getattr(np, name).at(want, idx, v)
        got = _run(name, a, idx, v).numpy()
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_all_indices_the_same_many_times():
    """Heavy contention on one element: exact for integers, float rounding bounded by the count."""
    m = 1 << 16
    _check("add", np.zeros(3, np.int32), np.ones(m, np.int64), np.arange(m, dtype=np.int32) % 7)
    _check("maximum", np.zeros(3, np.int32), np.full(m, -1), np.arange(m, dtype=np.int32) - 5)
    _check("add", np.zeros(3, np.float32), np.full(m, 2), np.full(m, 0.1, np.float32))


def test_empty_inputs():
    _check("add", np.arange(4, dtype=np.float32), np.zeros(0, np.int64), np.zeros(0, np.float32))
    _check("add", np.arange(4, dtype=np.int32), [], 1, device_idx=False)
    a = kd.zeros(0, dtype=kd.float32)
    kd.add.at(a, kd.zeros(0, dtype=kd.int32), 1.0)
    assert a.shape == (0,)


def test_out_of_range_raises_and_writes_nothing():
    for idx in ([0, 5], [-6, 1]):
        for device_idx in (True, False):
            a = kd.asarray(np.arange(5, dtype=np.float32))
            with pytest.raises(IndexError, match="out of bounds for axis 0 with size 5"):
                kd.add.at(a, kd.asarray(idx) if device_idx else idx, 1.0)
            assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_views_broadcasting_and_lazy_indices():
    rng = np.random.default_rng(4)
    base = rng.standard_normal(30).astype(np.float32)
    v = rng.standard_normal(20).astype(np.float32)
    idx = rng.integers(-15, 15, 10)
    # non-contiguous values, a scalar, a length-1 array
    _check("add", base[:15].copy(), idx, v[::2])
    _check("add", base[:15].copy(), idx, np.float32(2.5))
    _check("add", np.arange(15, dtype=np.int32), idx, np.array([3], np.int32))
    # a strided view as the target writes through to its base
    want = base.copy()
    np.add.at(want[::2], idx, v[:10])
    a = kd.asarray(base)
    kd.add.at(a[::2], kd.asarray(idx), kd.asarray(v)[:10])
    np.testing.assert_allclose(a.numpy(), want, rtol=1e-6, atol=1e-6)
    # indices that are a lazy expression: computed once for the check and the scatter
    a = kd.zeros(8, dtype=kd.int32)
    kd.add.at(a, kd.arange(12) % 8 - 4, 1)
    want = np.zeros(8, np.int32)
    np.add.at(want, np.arange(12) % 8 - 4, 1)
    np.testing.assert_array_equal(a.numpy(), want)


def test_nd_indices():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 9, (4, 5, 3)).astype(np.int32)
    rows, cols = rng.integers(-4, 4, 50), rng.integers(0, 5, 50)
    _check("add", a, (rows, cols), rng.integers(0, 9, (50, 3)).astype(np.int32), device_idx=False)
    _check("add", a, rows, np.int32(2), device_idx=False)
    _check("maximum", a, (rows, cols, 1), rng.integers(0, 20, 50).astype(np.int32), device_idx=False)
    f = rng.standard_normal((6, 7)).astype(np.float32)
    _check("add", f, (rng.integers(0, 6, 40), rng.integers(-7, 7, 40)), rng.standard_normal(40).astype(np.float32),
           device_idx=False)


def test_forced_fallback_matches(monkeypatch):
    rng = np.random.default_rng(6)
    a = rng.integers(0, 9, 50).astype(np.int32)
    idx, v = rng.integers(-50, 50, 400), rng.integers(-9, 9, 400).astype(np.int32)
    atomic = _run("add", a, idx, v)
    assert "Scatter" in _kinds(atomic)
    monkeypatch.setattr(scatter_atomic, "FORCE_SORTED", True)
    for name in UFUNCS:
        _check(name, a, idx, v, scatter=False)
    np.testing.assert_array_equal(_run("add", a, idx, v).numpy(), atomic.numpy())
    x = kd.asarray(rng.integers(0, 20, 100))
    assert "Scatter" not in _kinds(kd.bincount(x))
    np.testing.assert_array_equal(kd.bincount(x).numpy(), np.bincount(x.numpy()))


def test_deterministic_option_takes_the_sorted_path():
    rng = np.random.default_rng(7)
    a = np.zeros(10, np.float32)
    idx, v = rng.integers(0, 10, 500), rng.standard_normal(500).astype(np.float32)
    first = _run("add", a, idx, v, deterministic=True)
    assert "Scatter" not in _kinds(first)
    np.testing.assert_array_equal(_run("add", a, idx, v, deterministic=True).numpy(), first.numpy())
    _check("add", a, idx, v, deterministic=True)
    _check("add", np.zeros(10, np.int32), idx, np.ones(500, np.int32), deterministic=True, scatter=True)
    _check("maximum", a, idx, v, deterministic=True, scatter=True)  # exact in any order


def test_float_extremes_through_ordered_keys():
    """maximum.at / minimum.at on floats: integer atomics on order-preserving keys; NaN wins, infinities,
    huge and tiny magnitudes, signed zeros compare as NumPy's (up to the sign of a zero result)."""
    v = np.array([3.0, -7.0, -1.0, np.nan, -3.0, np.inf, -np.inf, 2.0, -1e30, -0.0, 1e-40, -1e-40], np.float32)
    idx = np.array([0, 0, 1, 1, 2, 3, 3, 4, 5, 5, 6, 7])
    a = np.array([1.0, -2.0, 0.0, 5.0, -0.0, 3.0, 0.0, 0.0], np.float32)
    for name in ("maximum", "minimum"):
        for dtype in ("float32", "float64", "float16"):
            with np.errstate(over="ignore"):  # -1e30 is -inf in float16
                vd = v.astype(dtype)
            _check(name, a.astype(dtype), idx, vd)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64"])
def test_bincount_counts_with_atomics(dtype):
    rng = np.random.default_rng(8)
    x = rng.integers(0, 30, 1000).astype(dtype)
    got = kd.bincount(kd.asarray(x), minlength=40)
    assert "Scatter" in _kinds(got)
    np.testing.assert_array_equal(got.numpy(), np.bincount(x, minlength=40))
    w = rng.standard_normal(1000)
    want = np.bincount(x, weights=w)
    got = kd.bincount(kd.asarray(x), weights=kd.asarray(w))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-9, atol=1e-9)
    same = kd.bincount(kd.asarray(x), weights=kd.asarray(w), deterministic=True)
    np.testing.assert_allclose(same.numpy(), want, rtol=1e-9, atol=1e-9)
    assert kd.bincount(kd.asarray(np.zeros(0, dtype)), minlength=3).tolist() == [0, 0, 0]


def test_weighted_sums_through_scatter_add():
    """The weighted form of bincount on devices with float atomics of its dtype: float32 here."""
    if not FLOAT_ADD:
        pytest.skip("the device has no float32 atomic add")
    x = np.array([0, 3, 3, 3, 1])
    w = np.array([0.5, 1.0, 2.0, np.nan, 4.0], np.float32)
    got = scatter_atomic.scatter_add(kd.zeros(4), kd.asarray(x), kd.asarray(w))
    assert "Scatter" in _kinds(got)
    np.testing.assert_array_equal(got.numpy(), np.bincount(x, weights=w).astype(np.float32))


def test_histogram_with_atomics():
    rng = np.random.default_rng(9)
    data = np.concatenate([rng.standard_normal(3000), [np.nan, 10.0, -10.0]]).astype(np.float32)
    for kw in ({"bins": 7, "range": (-2.0, 2.0)}, {"bins": 5, "range": (-1.0, 3.0), "weights": np.ones(3003)}):
        weights = kw.pop("weights", None)
        hist, edges = kd.histogram(kd.asarray(data), weights=None if weights is None else kd.asarray(weights), **kw)
        want, want_edges = np.histogram(data, weights=weights, **kw)
        np.testing.assert_allclose(hist.numpy(), want)
        np.testing.assert_allclose(edges.numpy(), want_edges, rtol=1e-6)
    hist, _ = kd.histogram(kd.asarray(data[:3000]), bins=4)
    np.testing.assert_array_equal(hist.numpy(), np.histogram(data[:3000], bins=4)[0])


def test_gradient_through_atomic_add():
    if not FLOAT_ADD:
        pytest.skip("the device has no float32 atomic add")
    idx = kd.asarray([0, 2, 2, -1])

    def f(x, v):
        a = x * 1.0
        kd.add.at(a, idx, v)
        return (a * a).sum()

    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    v = np.array([0.5, 1.0, -2.0, 3.0], np.float32)
    gx, gv = kd.grad(f, argnums=(0, 1))(kd.asarray(x), kd.asarray(v))
    a = x.copy()
    np.add.at(a, [0, 2, 2, -1], v)
    np.testing.assert_allclose(gx.numpy(), 2 * a, rtol=1e-6)
    np.testing.assert_allclose(gv.numpy(), 2 * a[[0, 2, 2, -1]], rtol=1e-6)


def test_backward_of_indexing_uses_atomics(monkeypatch):
    """The cotangent of x[idx] and take_along_axis beyond the dense limits: an atomic scatter-add (float32)."""
    if not FLOAT_ADD:
        pytest.skip("the device has no float32 atomic add")
    from kdsl.autodiff import indexing
    monkeypatch.setattr(indexing, "DENSE_LIMIT", 0)
    monkeypatch.setattr(indexing, "DENSE_AXIS", 0)
    rng = np.random.default_rng(11)
    x = rng.standard_normal((6, 3)).astype(np.float32)
    idx = np.array([5, 0, 5, 1, -1, 2])
    g = kd.grad(lambda x: (x[kd.asarray(idx)] ** 2).sum())(kd.asarray(x))
    want = np.zeros_like(x)
    np.add.at(want, idx, 2 * x[idx])
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-5, atol=1e-6)
    cols = np.array([[0, 0], [2, 1], [1, 1], [0, 2], [2, 2], [1, 0]])
    g = kd.grad(lambda x: kd.take_along_axis(x, kd.asarray(cols), 1).sum())(kd.asarray(x))
    want = np.zeros_like(x)
    np.add.at(want, (np.arange(6)[:, None], cols), 1.0)
    np.testing.assert_array_equal(g.numpy(), want)
    vjp = kd.vjp(lambda x: x[kd.asarray(idx)], kd.asarray(x))[1]
    assert "Scatter" in _kinds(vjp(kd.ones((6, 3)))[0])


def test_jit_and_plan_cache_replay_the_scatter():
    def f(a, v):
        b = a * 1
        kd.add.at(b, [0, 1, 1], v)
        return b

    g = kd.jit(f)
    for k in range(3):
        a = np.arange(4, dtype=np.float32) + k
        v = np.array([1, 2, 3], np.float32) * k
        want = a.copy()
        np.add.at(want, [0, 1, 1], v)
        np.testing.assert_array_equal(g(kd.asarray(a), kd.asarray(v)).numpy(), want)
    for k in range(3):  # one plan, the scalar in a push constant
        a = kd.zeros(3, dtype=kd.int32)
        kd.add.at(a, kd.asarray([0, 2, 2]), k)
        assert a.tolist() == [k, 0, 2 * k]
    assert "Scatter" in kd.explain(kd.bincount(kd.asarray([1, 1, 2])))


@pytest.mark.parametrize("n,m,dtype,op", [(2**32 - 5, 2**31 - 7, "float32", "add"), (2**31 + 1, 5, "uint32", "min"),
                                          (10, 2**31 - 1, "int64", "max")])
def test_large_sizes_render_with_64_bit_positions(n, m, dtype, op):
    """Past 2**31 elements (too big to run on CI): positions in int64, the buffer indexed as a uint; compiles."""
    from kdsl import dtype as dt
    from kdsl.codegen.atomic import render
    from kdsl.ir import expr as ir
    from kdsl.ir.kernels import Scatter
    from kdsl.ir.view import View
    from kdsl.runtime.compiler import compile_source

    d = dt.as_dtype(dtype)
    idx = ir.load(1, dt.int32, View.contiguous((m,)))
    src = render(Scatter(op, d, n, m, idx, dt.int32, ir.load(2, d, View.contiguous((m,))), 0, 4096))
    assert ("int64_t g" in src) == (n > 2**31 - 1) and "b0.d[uint(g)]" in src
    compile_source(src)
