"""kd.take_along_axis refuses non-integer indices with NumPy's IndexError: a bool array there is a mask someone
meant (take() would read it as positions 0 and 1 and answer silently wrong); integer dtypes of every width work."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", ["bool", "float32", "float64"])
@pytest.mark.parametrize("device_indices", [True, False])
def test_take_along_axis_refuses_non_integer_indices(dtype, device_indices):
    a = np.arange(12.0).reshape(3, 4)
    ind = np.array([[1, 0], [0, 1], [1, 1]]).astype(dtype)
    with pytest.raises(IndexError):
        np.take_along_axis(a, ind, axis=1)
    with pytest.raises(IndexError, match="integer array"):
        kd.take_along_axis(kd.asarray(a), kd.asarray(ind) if device_indices else ind, axis=1)


_INDICES = {0: [[2, 0, 1, 2], [1, 1, 0, 0]], 1: [[3, 0], [1, 1], [0, 2]], -1: [[3, 0], [1, 1], [0, 2]],
            None: [5, 0, 11, 5]}


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_along_axis_integer_indices(dtype, axis):
    a = np.arange(12.0).reshape(3, 4)
    ind = np.array(_INDICES[axis], dtype)
    got = kd.take_along_axis(kd.asarray(a), kd.asarray(ind), axis=axis)
    np.testing.assert_array_equal(got.numpy(), np.take_along_axis(a, ind, axis=axis))
