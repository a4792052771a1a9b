"""kd.unique(axis=...) against NumPy 2 on the edges NumPy's own tests name: an axis of length 0 (the values keep
the input's shape, with the axis where it was) and 1-D input with an axis (NumPy takes the flat path there, so
equal_nan merges the NaNs)."""

import numpy as np
import pytest

import kdsl as kd


def _same(got, want):
    got = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("shape", "axis"), [((2, 0), 1), ((3, 0), -1), ((2, 0), 0), ((0, 3), 0), ((0, 3), 1),
                                             ((0, 2, 0, 3), 1), ((2, 0, 4), 1), ((2, 0, 4), 2)])
@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_unique_axis_of_empty_arrays(shape, axis, dtype):
    h = np.zeros(shape, dtype)
    got = kd.unique(kd.asarray(h), axis=axis, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(h, axis=axis, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("equal_nan", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_unique_axis_of_1d_arrays_honours_equal_nan(axis, equal_nan, dtype):
    h = np.array([np.nan, 0, 2, 0, np.nan, -1], dtype)
    got = kd.unique(kd.asarray(h), axis=axis, equal_nan=equal_nan, return_index=True, return_inverse=True,
                    return_counts=True)
    want = np.unique(h, axis=axis, equal_nan=equal_nan, return_index=True, return_inverse=True,
                     return_counts=True)
    for g, w in zip(got, want, strict=True):
        _same(g, w)


def test_unique_axis_of_1d_arrays_checks_the_axis():
    with pytest.raises(np.exceptions.AxisError):
        kd.unique(kd.asarray([1.0, 2.0]), axis=1)
    with pytest.raises(TypeError):
        kd.unique(kd.asarray([1.0, 2.0]), axis=0.0)
