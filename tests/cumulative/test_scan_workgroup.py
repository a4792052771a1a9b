"""The workgroup scan (kdsl.codegen.scan_workgroup) against NumPy: lengths around the tile (256 invocations x
1..8 elements) and subgroup boundaries, both the subgroup-arithmetic path and the shared-memory fallback,
several tiles per workgroup, multi-axis and non-contiguous input, empty arrays, integer wrapping, NaN and inf."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen.scan import render
from kdsl.engine.explain import plan

RNG = np.random.default_rng(90)
LENGTHS = [1, 7, 33, 255, 256, 257, 1023, 1024, 1025, 2048, 2049, 65537]



def _scans(x):
    return [s.kernel for s in plan(x) if type(s.kernel).__name__ == "Scan"]


def test_path_is_the_one_asked_for(scan_path):
    x = kd.cumsum(kd.asarray(np.ones(5000, np.float32)))
    kernels = _scans(x)
    assert kernels and all(k.per > 0 for k in kernels[:1])
    assert [k.subgroups for k in kernels if k.per] == [scan_path == "subgroups"] * len([k for k in kernels if k.per])
    text = render(kernels[0])
    assert ("subgroupAdd" in text) == (scan_path == "subgroups")
    np.testing.assert_allclose(x.numpy(), np.arange(1, 5001), rtol=1e-6)


@pytest.mark.parametrize("n", LENGTHS)
def test_int_lengths(scan_path, n):
    a = RNG.integers(-50, 50, n).astype(np.int32)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(a)).numpy(), np.cumsum(a))


def test_long_lines(scan_path):
    a = RNG.integers(-9, 10, 2**20 + 3).astype(np.int64)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(a)).numpy(), np.cumsum(a))
    f = RNG.random(2**20 + 3).astype(np.float32)
    np.testing.assert_allclose(kd.cumsum(kd.asarray(f)).numpy(), np.cumsum(f.astype(np.float64)), rtol=2e-4)


@pytest.mark.parametrize("n", [257, 3000])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint32", "uint8", "int16", "bool",
                                   "float16", "complex64", "complex128"])
def test_dtypes_sum(scan_path, n, dtype):
    a = _data(n, dtype)
    want = np.cumsum(a)
    got = kd.cumsum(kd.asarray(a)).numpy()
    assert got.dtype == want.dtype
    if want.dtype.kind in "fc":
        if dtype == "float16":
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "complex64"])
def test_prod(scan_path, dtype):
    n = 3000
    if np.dtype(dtype).kind in "fc":
        a = RNG.uniform(0.995, 1.005, n).astype(dtype)
        if dtype == "complex64":
            a = (a * np.exp(1j * RNG.uniform(-0.01, 0.01, n))).astype(dtype)
    else:  # ones with a few -1 and 3: the product wraps (int32: 3**~35 > 2**31), as NumPy's
        a = np.where(RNG.random(n) < 0.98, 1, RNG.choice([-1, 3], n)).astype(dtype)
    want, got = np.cumprod(a), kd.cumprod(kd.asarray(a)).numpy()
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=1e-4)
    else:
        np.testing.assert_array_equal(got, want)


def test_integers_wrap(scan_path):
    a = np.full(5000, 2**30 + 7, np.int32)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(a), dtype=kd.int32).numpy(), np.cumsum(a, dtype=np.int32))
    b = RNG.integers(0, 128, 3000).astype(np.int8)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(b), dtype=kd.int8).numpy(), np.cumsum(b, dtype=np.int8))
    u = np.full(3000, 2**63 + 5, np.uint64)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(u)).numpy(), np.cumsum(u))


def test_nan_and_inf(scan_path):
    a = RNG.standard_normal(5000).astype(np.float32)
    a[1500], a[3000], a[3001] = np.nan, np.inf, -np.inf
    got, want = kd.cumsum(kd.asarray(a)).numpy(), np.cumsum(a)
    assert np.isnan(got[1500:]).all() and not np.isnan(got[:1500]).any()
    np.testing.assert_allclose(got[:1500], want[:1500], rtol=1e-4, atol=1e-4)
    b = np.ones(3000, np.float32)
    b[2100] = np.inf
    got = kd.cumprod(kd.asarray(b)).numpy()
    assert (got[:2100] == 1).all() and np.isposinf(got[2100:]).all()
    b[2500] = 0  # inf * 0 = nan from there on
    got = kd.cumprod(kd.asarray(b)).numpy()
    assert np.isposinf(got[2100:2500]).all() and np.isnan(got[2500:]).all()


@pytest.mark.parametrize("shape,axis", [((5, 3000), 1), ((3000, 5), 0), ((4, 300, 3), 1), ((2, 3, 700), -1),
                                        ((3, 2, 40), 2), ((40, 33), 0), ((33, 40), None)])
def test_multi_axis(scan_path, shape, axis):
    a = RNG.integers(-9, 10, shape).astype(np.int32)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(a), axis=axis).numpy(), np.cumsum(a, axis=axis))


def test_non_contiguous_and_expressions(scan_path):
    a = RNG.integers(-9, 10, (6, 5000)).astype(np.int32)
    x = kd.asarray(a)
    np.testing.assert_array_equal(kd.cumsum(x[::2, ::-3], axis=1).numpy(), np.cumsum(a[::2, ::-3], axis=1))
    np.testing.assert_array_equal(kd.cumsum(x.T[1000:3000], axis=0).numpy(), np.cumsum(a.T[1000:3000], axis=0))
    np.testing.assert_array_equal(kd.cumprod(kd.where(x > 0, 1, -1)[1], axis=0).numpy(),
                                  np.cumprod(np.where(a > 0, 1, -1)[1], axis=0))


def test_empty(scan_path):
    for shape, axis in [((0,), 0), ((0, 3000), 1), ((3000, 0), 0)]:
        a = np.zeros(shape, np.float32)
        assert kd.cumsum(kd.asarray(a), axis=axis).numpy().shape == shape


def test_many_tiles_per_workgroup(scan_path, monkeypatch):
    """A small loop budget and few workgroups: each workgroup grid-strides over several tiles."""
    dev = kd.device()
    monkeypatch.setattr(dev, "loop_budget", 2000)
    monkeypatch.setattr(dev, "max_groups", 4)
    a = RNG.integers(-9, 10, 65537).astype(np.int32)
    x = kd.cumsum(kd.asarray(a))
    kernels = _scans(x)
    assert any(k.per and k.groups * k.per * 256 < 65537 for k in kernels)
    np.testing.assert_array_equal(x.numpy(), np.cumsum(a))


def _data(n, dtype):
    d = np.dtype(dtype)
    if d.kind == "b":
        return RNG.random(n) < 0.5
    if d.kind == "c":
        return (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(d)
    if d == np.float16:  # small whole numbers: every partial sum is exact in float16, so any order of the
        # additions gives NumPy's bits (random normals' sums round differently in each order: 2.5 apart at 90)
        return RNG.integers(-4, 5, n).astype(d)
    if d.kind == "f":
        return RNG.standard_normal(n).astype(d)
    return RNG.integers(0 if d.kind == "u" else -20, 20, n).astype(d)


@pytest.mark.parametrize("shape,axis", [((100, 9), 1), ((100, 33), 1), ((300, 256), 1), ((77, 255), -1),
                                        ((3, 50, 100), 2), ((300, 40, 3), 1), ((5, 100, 7, 2), 1)])
def test_many_short_lines(shape, axis):
    """Lines of 9..256 elements: whole lines per tile, each scanned by one invocation in shared memory."""
    a = RNG.integers(-9, 10, shape).astype(np.int32)
    x = kd.cumsum(kd.asarray(a), axis=axis)
    assert [k.phase for k in _scans(x)] == ["lines"]
    np.testing.assert_array_equal(x.numpy(), np.cumsum(a, axis=axis))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "float16", "complex64"])
def test_many_short_lines_dtypes_and_views(dtype, monkeypatch):
    a = _data(200 * 130, dtype).reshape(200, 130)
    view = a[::-2, 5:]
    for op in ("sum", "prod"):
        kind = np.dtype(dtype).kind
        b = view if op == "sum" or kind == "b" else view / np.abs(view) if kind == "c" else \
            (np.abs(view) % 0.02 + 0.99).astype(dtype) if kind == "f" else (np.abs(view) % 2 + 0.5).astype(dtype)
        got = getattr(kd, f"cum{op}")(kd.asarray(a)[::-2, 5:] if b is view else kd.asarray(b), axis=1).numpy()
        # float16 accumulates in float32 (rounded once, at the store), NumPy rounds every step
        wide = b.astype(np.float32) if dtype == "float16" else b
        want = getattr(np, f"cum{op}")(wide, axis=1)
        want = want.astype(np.float16) if dtype == "float16" else want
        assert got.dtype == want.dtype
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=2e-2 if dtype == "float16" else 1e-4, atol=1e-3)
        else:
            np.testing.assert_array_equal(got, want)
    monkeypatch.setattr(kd.device(), "max_groups", 2)  # several tiles per workgroup
    monkeypatch.setattr(kd.device(), "loop_budget", 3000)
    want = np.cumsum(view.astype(np.float32) if dtype == "float16" else view, axis=1)
    got = kd.cumsum(kd.asarray(a)[::-2, 5:], axis=1).numpy()
    np.testing.assert_allclose(got, want, rtol=2e-2 if dtype == "float16" else 1e-4, atol=1e-3)
