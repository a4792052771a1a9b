"""trim_zeros against NumPy: trim='f'/'b'/'fb' (any case), axis (NumPy >= 2.2), n-d bounding boxes, views,
all-zero and empty arrays, -0.0 and NaN, dtypes, bad input."""

import numpy as np
import pytest

import kdsl as kd

B = np.array([[0, 0, 2, 3, 0, 0], [0, 1, 0, 3, 0, 0], [0, 0, 0, 0, 0, 0]])
ARRAYS = {
    "1d": np.array([0, 0, 3, 0, 2, 0, 0]),
    "2d": B,
    "2d.T": B.T,
    "strided": B[:, ::2],
    "3d": np.pad(np.ones((1, 2, 1)), ((1, 2), (0, 3), (2, 0))),
    "all-zero": np.zeros((3, 2)),
    "neg-zero-nan": np.array([-0.0, 0.0, np.nan, 1.5, 0.0, -0.0], np.float32),
    "empty": np.zeros((0, 3), np.int32),
    "bool": np.array([False, True, False, True, False]),
    "no-zeros": np.array([1, 2, 3], np.uint8),
    "size-one": np.array([[0]]),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0,)])
def test_trim_zeros_matches_numpy(name, trim, axis):
    data = ARRAYS[name]
    x = kd.asarray(data)
    if name == "strided":
        x = kd.asarray(B)[:, ::2]
    if name == "2d.T":
        x = kd.asarray(B).T
    expected = np.trim_zeros(data, trim, axis)
    got = kd.trim_zeros(x, trim, axis)
    assert isinstance(got, kd.Array)
    assert got.shape == expected.shape and got.numpy().dtype == expected.dtype
    assert np.array_equal(got.numpy(), expected, equal_nan=True)


def test_trim_zeros_of_host_lists_and_0d():
    assert kd.trim_zeros([0, 1, 2, 0]).tolist() == np.trim_zeros([0, 1, 2, 0])
    assert kd.trim_zeros(kd.asarray(0.0)).shape == np.trim_zeros(np.array(0.0)).shape


def test_trim_zeros_dispatches_from_numpy():
    got = np.trim_zeros(kd.asarray(B), "f", axis=1)
    assert isinstance(got, kd.Array) and np.array_equal(got.numpy(), np.trim_zeros(B, "f", axis=1))


@pytest.mark.parametrize("kwargs,error,match", [
    ({"trim": "x"}, ValueError, "unexpected character"),
    ({"trim": "fbf"}, ValueError, "unexpected character"),
    ({"trim": 1}, TypeError, "trim"),
    ({"axis": 2}, np.exceptions.AxisError, "axis"),
])
def test_trim_zeros_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        kd.trim_zeros(kd.asarray(B), **kwargs)
