"""kd.array of nested lists that hold kdsl arrays next to host data, with ``dtype=``, against NumPy's np.array of
the same lists (NumPy arrays in place of the kdsl ones): the host items meet the dtype's checks as NumPy's do
(Python ints out of range: OverflowError, NaN or inf into an integer: ValueError / OverflowError), arrays are
cast as ``astype`` does, and ragged or too deep data raise NumPy's ValueError."""

import numpy as np
import pytest

import kdsl as kd


def _kd(items):
    """``items`` with every NumPy array replaced by a kdsl copy (a 0-d one too)."""
    if isinstance(items, np.ndarray):
        return kd.asarray(items)
    if isinstance(items, (list, tuple)):
        return type(items)(_kd(v) for v in items)
    return items


def _outcome(make):
    try:
        out = make()
    except (ValueError, OverflowError, TypeError) as exc:
        return type(exc).__name__
    host = out.numpy() if isinstance(out, kd.Array) else out
    return str(host.dtype), host.shape, repr(host.tolist())  # repr: NaN equals NaN, -0.0 differs from 0.0


CASES = {
    "overflowing_int": ([np.zeros(2, np.int8), [300, 1]], np.int8),
    "negative_into_unsigned": ([np.zeros(2, np.uint8), [-1, 1]], np.uint8),
    "fitting_ints": ([np.zeros(2, np.int8), [127, -128]], np.int8),
    "nan_into_int": ([np.zeros(2, np.float32), [np.nan, 1.0]], np.int32),
    "inf_into_int": ([np.zeros(2, np.float32), [np.inf, 1.0]], np.int64),
    "nan_into_uint": ([np.zeros(2, np.float32), [1.0, np.nan]], np.uint16),
    "float_into_int_truncates": ([np.zeros(2, np.float32), [2.7, -2.7]], np.int16),
    "complex_into_float": ([np.zeros(2, np.float32), [1j, 1.0]], np.float32),
    "bool_items": ([np.ones(2, bool), [True, False]], np.float32),
    "huge_float_into_float16": ([np.zeros(2, np.float16), [1e6, -1e6]], np.float16),
    "deeper_list": ([np.zeros((1, 2), np.int32), [[300, 5]]], np.uint8),
    "scalar_overflow": ([np.array(1, np.int16), 40000], np.int16),
    "scalar_fits": ([np.array(1, np.int16), -32768], np.int16),
    "tuple_items": ((np.zeros(2, np.int32), (7, 70000)), np.int32),
    "array_cast_wraps": ([np.zeros(2, np.int8), np.array([300, -1])], np.int8),
    "array_nan_cast": ([np.zeros(2, np.float64), np.array([np.nan, 2.5])], np.float32),
    "empty_items": ([np.zeros(0, np.int8), []], np.uint8),
    "nested_arrays": ([[np.zeros(2, np.int8)], [[3, 400]]], np.int16),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_host_items_next_to_kdsl_arrays_follow_numpy(case):
    data, dtype = CASES[case]
    with np.errstate(all="ignore"):
        want = _outcome(lambda: np.array(data, dtype=dtype))
        got = _outcome(lambda: kd.array(_kd(data), dtype=dtype))
    assert got == want


RAGGED = {
    "lengths": [np.zeros(2), [1.0, 2.0, 3.0]],
    "depths": [np.zeros(2), [[1.0, 2.0]]],
    "scalar_and_array": [np.zeros(2), 5.0],
    "array_shapes": [np.zeros((3, 2)), np.zeros((3, 3))],
    "first_axis": [np.zeros((3, 2)), np.zeros((1, 2))],
}


@pytest.mark.parametrize("case", sorted(RAGGED))
@pytest.mark.parametrize("dtype", [None, np.float32, np.int64])
def test_ragged_lists_with_kdsl_arrays_raise_value_error(case, dtype):
    data = RAGGED[case]
    with pytest.raises(ValueError, match="inhomogeneous"):
        np.array(data, dtype=dtype)
    with pytest.raises(ValueError, match="inhomogeneous"):
        kd.array(_kd(data), dtype=dtype)


@pytest.mark.parametrize("dtype", [None, np.float64, np.int8, np.complex64, np.bool_])
def test_discovered_and_requested_dtypes(dtype):
    lists = [
        [np.arange(3, dtype=np.int8), np.arange(3, dtype=np.int16)],
        [np.array(1.5, np.float32), np.array(2, np.int8)],
        [np.zeros((2, 0)), np.zeros((2, 0))],
        [np.arange(4.0)[::-2], np.arange(4.0)[1::2]],  # strided views
        ([np.array([np.inf, -0.0])], [np.array([np.nan, 1.0])]),
        [np.arange(6).reshape(2, 3).T, np.ones((3, 2), np.int64)],  # a transpose
    ]
    for data in lists:
        with np.errstate(all="ignore"):
            want = _outcome(lambda: np.array(data, dtype=dtype))  # noqa: B023 - called at once
            got = _outcome(lambda: kd.array(_kd(data), dtype=dtype))  # noqa: B023
        assert got == want, data


@pytest.mark.parametrize("make", [lambda: (i * 0.5 for i in range(4)), lambda: iter([1, 2, 3]),
                                  lambda: map(int, "123")])
def test_iterators_name_fromiter(make):
    assert np.array(make()).dtype == object  # NumPy: one object, a 0-d object array (kdsl has no object dtype)
    for convert in (kd.asarray, kd.array):
        with pytest.raises(TypeError, match=r"kd\.fromiter"):
            convert(make())
    np.testing.assert_array_equal(kd.fromiter(make(), dtype=kd.float64).numpy(), np.fromiter(make(), np.float64))
