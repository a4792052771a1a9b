"""``clip`` of a Python scalar by array bounds against NumPy 2: NumPy makes the scalar an array first (int64 for
an int, float64 for a float, bool, complex128), so the result dtype and values are NumPy's promotion of that
array with the bounds, for one bound, both, broadcasting, empty and strided bounds."""

import numpy as np
import pytest

import kdsl as kd

SCALARS = [3, -2, 3.0, -0.0, float("nan"), float("inf"), True, 2**40, 2**63, 1 + 2j]
BOUND_DTYPES = [np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64, np.bool_]


def _same(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(np.asarray(got), want)
    if want.dtype.kind == "f":  # -0.0 kept where NumPy keeps it
        assert np.signbit(np.asarray(got)).tolist() == np.signbit(want).tolist()


def _kd(bound):
    return None if bound is None else kd.asarray(bound)


@pytest.mark.parametrize("a", SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", BOUND_DTYPES)
@pytest.mark.parametrize("which", ["lo", "hi", "both"])
def test_scalar_clipped_by_array_bounds(a, dtype, which):
    lo = np.array([1, 2, 5, 0]).astype(dtype)
    hi = np.array([4, 2, 7, 1]).astype(dtype)
    bounds = {"lo": (lo, None), "hi": (None, hi), "both": (lo, hi)}[which]
    want = np.clip(a, *bounds)
    _same(kd.clip(a, *map(_kd, bounds)), want)
    _same(np.clip(a, *map(_kd, bounds)), want)  # NumPy's clip hands kdsl bounds to kdsl


@pytest.mark.parametrize("a", [3, 3.0, True])
def test_empty_strided_and_broadcast_bounds(a):
    lo = np.arange(12, dtype=np.float16).reshape(3, 4)
    for bound in (lo[:, ::2], lo.T, lo[:0], lo[1:2, :1]):
        _same(kd.clip(a, kd.asarray(bound), None), np.clip(a, bound, None))
    col = np.array([[1], [5]], np.int8)
    row = np.array([2, 3, 9], np.int8)
    _same(kd.clip(a, kd.asarray(col), kd.asarray(row)), np.clip(a, col, row))


def test_numpy_array_bounds_and_min_max_keywords():
    lo = np.array([1.5, 4.0], np.float32)
    _same(kd.clip(3, lo, None), np.clip(3, lo, None))  # a NumPy array bound
    _same(kd.clip(3, min=kd.asarray(lo)), np.clip(3, min=lo))


def test_scalar_bounds_keep_kdsl_defaults():
    # only Python scalars: kdsl's default int (docs/numpy-api.md, "Default types"), NumPy's values
    got = kd.clip(3, 1, 2)
    assert got.dtype == kd.int32 and got.tolist() == 2


def test_int_beyond_uint64_is_a_clear_error():
    with pytest.raises(OverflowError, match="object array"):
        kd.clip(2**70, kd.asarray([1, 2], dtype=kd.int8), None)
