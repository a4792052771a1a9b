"""kd.fromiter with Python's float/int/complex gives kdsl's default dtypes, as kd.array(list, dtype=float) and
kd.dtype(float) do (docs/numpy-api.md, "Default types"); NumPy dtypes and dtype names keep NumPy's meaning."""

import math

import numpy as np
import pytest

import kdsl as kd

VALUES = [[], [1.5], [0.1, -2.25, math.inf, -math.inf, math.nan, -0.0, 1e30], list(range(7))]


@pytest.mark.parametrize("values", VALUES)
@pytest.mark.parametrize("py_type", [float, int, complex, bool])
def test_python_types_agree_with_array(values, py_type):
    if py_type in (int, bool):  # NaN/inf and 1e30 have no int32 value: the others
        values = [v for v in values if math.isfinite(v) and abs(v) < 2**31]
    got = kd.fromiter(iter(values), py_type)
    made = kd.array(values, dtype=py_type)
    assert got.dtype == made.dtype == kd.dtype(py_type)
    assert got.shape == (len(values),)
    expected = np.fromiter(iter(values), made.dtype.np)  # NumPy's values, in kdsl's dtype
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("dtype", [np.float64, "float", "f8", np.int64, "complex", kd.float16, np.uint8])
def test_numpy_dtypes_keep_their_meaning(dtype):
    got = kd.fromiter((i / 2 if np.dtype(dtype).kind in "fc" else i for i in range(5)), dtype, count=4)
    expected = np.fromiter((i / 2 if np.dtype(dtype).kind in "fc" else i for i in range(5)), dtype, count=4)
    assert got.dtype.np == expected.dtype
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_count_and_errors_as_numpy():
    assert kd.fromiter(range(10), float, count=3).tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError):
        kd.fromiter(range(2), float, count=3)  # fewer items than count, as NumPy
