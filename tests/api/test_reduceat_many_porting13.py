"""``np.add.reduceat(values, starts)`` over thousands of groups (a group-by on sorted keys): kdsl made one lazy
reduction per index, a graph as long as the indices (30 000 groups took 45 s on lavapipe, 300 000 did not end in
10 minutes). Many indices of an associative ufunc now take one segmented scan; the results are NumPy's for every
ufunc, dtype, axis and index pattern (unsorted, repeated, ``j <= i``)."""

import time

import numpy as np
import pytest

import kdsl as kd

ASSOCIATIVE = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logaddexp", "logaddexp2"]
INTEGER = ["add", "multiply", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"]
LOGICAL = ["logical_and", "logical_or", "logical_xor", "add", "maximum"]


def _indices(rng, n, kind):
    if kind == "sorted":
        return np.sort(rng.choice(n, 60, replace=False))
    if kind == "runs":  # group starts of sorted keys, as np.unique(..., return_index=True) gives
        return np.flatnonzero(np.r_[True, np.diff(np.sort(rng.integers(0, 50, n))) != 0])
    return rng.integers(0, n, 70)  # unsorted, repeated: j <= i gives a[i] alone


def _same(got, want, dtype):
    assert got.dtype == want.dtype or (want.dtype == np.int64 and got.dtype in (np.int32, np.int64))
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(got, want, rtol=3e-5 if dtype == np.float32 else 1e-12, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name,kind,dtype", [(name, kind, np.float32) for name in ASSOCIATIVE for kind in
                                             ("sorted", "unsorted")]
                         + [(name, "runs", np.float64) for name in ("add", "maximum", "logaddexp")])
def test_float_ufuncs_many_indices(name, kind, dtype):
    rng = np.random.default_rng(1360)
    h = rng.uniform(0.5, 1.5, 400).astype(dtype)
    h[rng.random(400) < 0.02] = np.nan
    idx = _indices(rng, 400, kind)
    with np.errstate(invalid="ignore"):  # NumPy's warning for the NaNs it folds
        want = getattr(np, name).reduceat(h, idx)
    _same(getattr(kd, name).reduceat(kd.asarray(h), idx).numpy(), want, dtype)


@pytest.mark.parametrize("name", INTEGER)
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64])
def test_integer_ufuncs_wrap_as_numpy(name, dtype):
    rng = np.random.default_rng(1361)
    # lcm's products that wrap around depend on the grouping (as its reduce: ufunc_folds.DOUBLING)
    h = rng.integers(1, 7 if name == "lcm" else 90, 300).astype(dtype)
    idx = _indices(rng, 300, "unsorted")
    want = getattr(np, name).reduceat(h, idx)
    _same(getattr(kd, name).reduceat(kd.asarray(h), idx).numpy(), want, dtype)


@pytest.mark.parametrize("name", LOGICAL)
def test_bool_data(name):
    rng = np.random.default_rng(1362)
    h = rng.random(200) < 0.6
    idx = _indices(rng, 200, "sorted")
    want = getattr(np, name).reduceat(h, idx)
    _same(getattr(kd, name).reduceat(kd.asarray(h), idx).numpy(), want, want.dtype)


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_axes_of_nd_data(axis):
    rng = np.random.default_rng(1363)
    h = rng.normal(size=(3, 80, 4)) if axis != 0 else rng.normal(size=(80, 3, 4))
    h = np.moveaxis(h, 1, axis) if axis not in (0, 1) else h
    n = h.shape[axis]
    idx = np.sort(rng.integers(0, n, 50))
    for name in ("add", "maximum"):
        want = getattr(np, name).reduceat(h, idx, axis=axis)
        _same(getattr(kd, name).reduceat(kd.asarray(h), idx, axis=axis).numpy(), want, np.float64)


def test_dtype_out_and_negative_zero():
    h = np.full(100, -0.0)
    idx = np.arange(0, 100, 2)
    got = kd.add.reduceat(kd.asarray(h), idx).numpy()
    assert np.array_equal(np.signbit(got), np.signbit(np.add.reduceat(h, idx)))
    i8 = np.full(100, 100, np.int8)
    _same(kd.add.reduceat(kd.asarray(i8), idx, dtype=np.int16).numpy(), np.add.reduceat(i8, idx, dtype=np.int16),
          np.int16)
    out = kd.zeros(50, dtype=kd.float64)
    r = kd.add.reduceat(kd.asarray(np.arange(100.0)), kd.asarray(idx), out=out)
    assert r is out
    np.testing.assert_array_equal(out.numpy(), np.add.reduceat(np.arange(100.0), idx))


def test_group_sums_of_many_groups_fast():
    rng = np.random.default_rng(1364)
    keys = np.sort(rng.integers(0, 40_000, 200_000))
    vals = rng.random(200_000).astype(np.float32)
    starts = np.flatnonzero(np.r_[True, np.diff(keys) != 0])
    kd.add.reduceat(kd.asarray(vals[:1000]), starts[:100]).numpy()  # compile outside the timing
    t = time.perf_counter()
    got = kd.add.reduceat(kd.asarray(vals), starts).numpy()
    assert time.perf_counter() - t < 30  # one reduction per group took minutes
    np.testing.assert_allclose(got, np.add.reduceat(vals, starts), rtol=2e-5)
