"""``a[int_array] = value`` checks a Python float as ``a[...] = value`` does (numpy/_core/tests/test_regression.py's
test_nonarray_assignment): NaN into an int array raises ValueError, inf and out-of-range floats OverflowError;
NumPy scalars and arrays cast as NumPy's assignment casts them. kdsl stored NaN and 300.5 silently."""

import numpy as np
import pytest

import kdsl as kd

KEYS = {
    "list": [1, 2],
    "negative_repeated": [-1, 0, -1],
    "numpy": np.array([2, 0]),
    "kdsl": "kdsl",
    "rows_cols": ([0, 2], [1, 3]),
    "rows_slice": ([0, 1], slice(None, None, 2)),
    "empty": np.array([], np.intp),
}
VALUES = [np.nan, np.inf, -np.inf, 300.5, -1.5, 255.5, np.float64(300.5), np.float32(-1.5), np.int64(-1), 2,
          [1.5, 2.5], np.array([300.5, 7.0])]


def _store(lib, dtype, key, value):
    """The (4, 4) array after ``a[key] = value`` (a strided view's base for kdsl and NumPy alike), or the error."""
    base = lib.zeros((4, 8), dtype=getattr(lib, dtype))
    a = base[:, ::2]
    if isinstance(key, str):  # a kdsl index array
        key = kd.asarray([3, 1]) if lib is kd else np.array([3, 1])
    try:
        a[key] = value
    except (ValueError, OverflowError) as e:
        return type(e)
    return np.asarray(base).tolist()


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("value", VALUES, ids=repr)
@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32"])
def test_as_numpy(key, value, dtype):
    with np.errstate(invalid="ignore", over="ignore"):
        expected = _store(np, dtype, KEYS[key], value)
    assert _store(kd, dtype, KEYS[key], value) == expected


def test_float_arrays_keep_nan():
    a = kd.zeros(5, dtype=kd.float32)
    a[[0, 3]] = np.nan
    h = np.zeros(5, np.float32)
    h[[0, 3]] = np.nan
    np.testing.assert_array_equal(a.numpy(), h)
