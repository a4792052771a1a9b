"""fmod, fmax, fmin, gcd and lcm of bool arrays with a Python int beyond int32 against NumPy 2 (NEP 50: the weak
int meets bool as int64, as the operators ``+`` and ``%`` already give): values, dtype, both operand orders,
empty / size-1 / strided / broadcast arrays, and NumPy's OverflowError for small int dtypes and ints beyond
int64."""

import numpy as np
import pytest

import kdsl as kd

FUNCTIONS = ["fmod", "fmax", "fmin", "gcd", "lcm"]
LONG = [2**40, -(2**40), 2**63 - 1, -(2**31) - 1]
BOOLS = [
    np.array([True, False]),
    np.zeros(0, bool),
    np.array([True]),
    np.array([[True, False, True], [False, False, True]]),
]


def _same(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("fn", FUNCTIONS)
@pytest.mark.parametrize("value", LONG)
@pytest.mark.parametrize("data", BOOLS, ids=["pair", "empty", "one", "2d"])
def test_bool_array_with_long_int(fn, value, data):
    want = getattr(np, fn)(data, value)
    assert want.dtype == np.int64  # the case under test: NumPy 2 gives int64
    _same(getattr(kd, fn)(kd.asarray(data), value), want)
    with np.errstate(divide="ignore"):  # fmod(2**40, False): NumPy's warning, not the point here
        reverse = getattr(np, fn)(value, data)
    _same(getattr(kd, fn)(value, kd.asarray(data)), reverse)


@pytest.mark.parametrize("fn", FUNCTIONS)
def test_numpy_dispatch_and_strided_bools(fn):
    data = np.array([True, False, False, True, True, False, True])
    a = kd.asarray(data)[::2]
    _same(getattr(np, fn)(a, 2**40), getattr(np, fn)(data[::2], 2**40))  # np.fmax on a kdsl array
    col = kd.asarray(data[:6].reshape(2, 3)).T
    _same(getattr(kd, fn)(col, -(2**40)), getattr(np, fn)(data[:6].reshape(2, 3).T, -(2**40)))


@pytest.mark.parametrize("fn", FUNCTIONS)
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8])
@pytest.mark.parametrize("value", [2**40, -(2**40)])
def test_small_int_arrays_overflow_as_numpy(fn, dtype, value):
    data = np.array([1, 0], dtype)
    with pytest.raises(OverflowError):
        getattr(np, fn)(data, value)
    with pytest.raises(OverflowError, match="out of bounds"):
        getattr(kd, fn)(kd.asarray(data), value)


@pytest.mark.parametrize("fn", FUNCTIONS)
def test_bool_array_with_int_beyond_int64_overflows(fn):
    with pytest.raises(OverflowError):
        getattr(np, fn)(np.array([True]), 2**70)
    with pytest.raises(OverflowError):
        getattr(kd, fn)(kd.asarray([True]), 2**70)


@pytest.mark.parametrize("fn", FUNCTIONS)
def test_small_ints_keep_kdsl_default(fn):
    # a Python int that fits int32 stays kdsl's default int with bools (docs/numpy-api.md), values as NumPy's
    got = getattr(kd, fn)(kd.asarray([True, False]), 3)
    assert got.dtype == kd.int32
    np.testing.assert_array_equal(np.asarray(got), getattr(np, fn)(np.array([True, False]), 3))
