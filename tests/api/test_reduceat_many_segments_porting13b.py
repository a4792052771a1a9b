"""`np.add.reduceat(values[order], starts)` with many groups (a group-by after `argsort`): one lazy reduction per
group made a graph of thousands of kernels (100 groups took 10 s on lavapipe, 66 000 never finished); many
increasing indices of an associative ufunc are now one segmented scan (`kdsl/frontend/array/ufunc_reduceat.py`).
Compared with NumPy over ufuncs, dtypes, axes and index patterns."""

import time

import numpy as np
import pytest

import kdsl as kd


def _starts(rng, n, count):
    starts = np.sort(rng.choice(np.arange(1, n), count - 1, replace=False))
    return np.concatenate([[0], starts])


def _same(got, expected):
    got = got.numpy()
    assert got.shape == expected.shape
    assert got.dtype.kind == expected.dtype.kind or {got.dtype.kind, expected.dtype.kind} <= {"i", "u"}
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "fmax", "fmin"])
def test_float_folds_over_many_groups(name):
    rng = np.random.default_rng(1360)
    x = rng.normal(size=400) if name != "multiply" else rng.uniform(0.9, 1.1, 400)
    x[[5, 77]] = np.nan
    starts = _starts(rng, 400, 60)
    _same(getattr(kd, name).reduceat(kd.asarray(x), starts), getattr(np, name).reduceat(x, starts))


@pytest.mark.parametrize(("name", "dtype"), [("add", np.int8), ("add", np.bool_), ("multiply", np.int16),
                                             ("bitwise_or", np.uint8), ("bitwise_xor", np.int32),
                                             ("logical_and", np.bool_), ("logical_or", np.int32),
                                             ("maximum", np.uint8)])
def test_integer_and_bool_folds(name, dtype):
    rng = np.random.default_rng(1361)
    x = rng.integers(0, 4 if dtype == np.bool_ else 100, 300).astype(dtype)
    starts = _starts(rng, 300, 40)
    _same(getattr(kd, name).reduceat(kd.asarray(x), starts), getattr(np, name).reduceat(x, starts))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_along_an_axis_of_a_2d_array(axis):
    rng = np.random.default_rng(1362)
    x = rng.normal(size=(70, 90))
    starts = np.arange(3, x.shape[axis], 3)  # the elements before the first index are left out, as NumPy's
    _same(kd.add.reduceat(kd.asarray(x), starts, axis=axis), np.add.reduceat(x, starts, axis=axis))
    _same(kd.maximum.reduceat(kd.asarray(x).T, starts, axis=axis - 1),
          np.maximum.reduceat(x.T, starts, axis=axis - 1))


def test_signed_zeros_dtype_and_not_increasing_indices():
    x = np.array([-0.0] * 40 + [1.0, 2.0] * 10)
    starts = np.arange(0, 60, 2)
    got = kd.add.reduceat(kd.asarray(x), starts).numpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(np.add.reduceat(x, starts)))
    _same(kd.add.reduceat(kd.asarray(x), starts, dtype=kd.float32), np.add.reduceat(x, starts, dtype=np.float32))
    back = np.array([0, 5, 3, 10] * 6)  # an index not above the one before: that element alone (the slice path)
    _same(kd.add.reduceat(kd.asarray(x), back), np.add.reduceat(x, back))


def test_tens_of_thousands_of_groups_in_seconds():
    rng = np.random.default_rng(1363)
    x = rng.normal(size=200_000)
    starts = np.arange(0, 200_000, 3)
    t = time.perf_counter()
    got = kd.add.reduceat(kd.asarray(x), starts)
    _same(got, np.add.reduceat(x, starts))
    assert time.perf_counter() - t < 60
