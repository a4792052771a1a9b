"""kd.take / Array.take / kd.take_along_axis against NumPy: axis None/any/negative, negative indices, modes,
scalar and empty indices, non-contiguous data, host and device indices, out-of-bounds IndexError."""

import numpy as np
import pytest
from sort_testing import sample

import kdsl as kd

A = sample((4, 5, 3), "float32", dups=False)  # holds NaN, inf and -0.0: compared bit for bit below


def same(got, ref) -> bool:
    g = np.asarray(got)
    return g.shape == ref.shape and g.dtype == ref.dtype and g.tobytes() == ref.tobytes()


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("indices", [[0, -1, 2], [[1, 2], [-2, 0]], 2, []])
def test_take_matches_numpy(axis, indices):
    ref = np.take(A, indices, axis=axis)
    x = kd.asarray(A)
    for idx in (indices, kd.asarray(np.asarray(indices, np.int64))):
        got = kd.take(x, idx, axis=axis).numpy()
        assert same(got, ref)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_take_modes(mode):
    idx = [7, -9, 3, -1]
    x = kd.asarray(A)
    assert same(kd.take(x, idx, axis=1, mode=mode).numpy(), np.take(A, idx, axis=1, mode=mode))
    dev = kd.asarray(np.array(idx, np.int32))
    assert same(x.take(dev, axis=1, mode=mode).numpy(), np.take(A, idx, axis=1, mode=mode))


def test_take_from_views_and_int_dtypes():
    m = sample((6, 7), "int16")
    x = kd.asarray(m)
    idx = np.array([[0, 3], [5, -2]], np.int8)
    assert np.array_equal(kd.take(x.T[::2], kd.asarray(idx), axis=1).numpy(), np.take(m.T[::2], idx, axis=1))
    assert np.array_equal(kd.take(x[1:, 2:] * 2, np.array([0, 4], np.uint64)).numpy(), np.take(m[1:, 2:] * 2, [0, 4]))


@pytest.mark.parametrize("bad", [5, -6, [0, 9]])
@pytest.mark.parametrize("on_device", [False, True])
def test_out_of_bounds_raise_index_error(bad, on_device):
    x = kd.asarray(A)
    idx = kd.asarray(np.asarray(bad, np.int64)) if on_device else bad
    worst = np.max(bad) if np.max(bad) >= 5 else np.min(bad)
    with pytest.raises(IndexError, match=f"index {worst} is out of bounds for axis 1 with size 5"):
        kd.take(x, idx, axis=1)


def test_take_errors():
    x = kd.asarray(A)
    # NumPy 2.4 truncates Python floats to positions (np.take(A, [0.5]) is np.take(A, [0])) and refuses an
    # array of floats with TypeError (its same_kind cast to intp)
    np.testing.assert_array_equal(kd.take(x, [0.5]).numpy(), np.take(A, [0.5]))
    with pytest.raises(TypeError, match="same_kind"):
        kd.take(x, kd.asarray([0.5]))
    with pytest.raises(IndexError, match="empty"):
        kd.take(kd.zeros((0, 3)), [0], axis=0)
    with pytest.raises(ValueError, match="mode"):
        kd.take(x, [0], mode="nearest")
    assert kd.take(kd.zeros((0, 3)), [], axis=0).shape == (0, 3)


def test_take_along_axis_with_argsort_and_broadcasting():
    a = sample((5, 40), "float64")
    x = kd.asarray(a)
    order = kd.argsort(x, axis=1)
    assert np.array_equal(kd.take_along_axis(x, order, axis=1).numpy(), np.sort(a, axis=1), equal_nan=True)
    i = np.array([[3], [0], [-1]])
    assert np.array_equal(kd.take_along_axis(x.T, i, axis=0).numpy(), np.take_along_axis(a.T, i, axis=0),
                          equal_nan=True)
    b = np.arange(12, dtype=np.int32).reshape(3, 4)
    j = np.array([[2, 0, 1, 3]])  # one row of indices, broadcast over the rows of b
    assert np.array_equal(kd.take_along_axis(kd.asarray(b), j, axis=1).numpy(), np.take_along_axis(b, j, axis=1))
    assert np.array_equal(kd.take_along_axis(kd.asarray(b), np.array([[1], [2], [0]]), axis=1).numpy(),
                          np.take_along_axis(b, np.array([[1], [2], [0]]), axis=1))
    assert np.array_equal(kd.take_along_axis(kd.asarray(b), np.array([5, 0]), axis=None).numpy(), [5, 0])


def test_take_along_axis_errors():
    x = kd.asarray(np.zeros((3, 4), np.float32))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        kd.take_along_axis(x, kd.asarray(np.full((3, 1), 4)), axis=1)
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        kd.take_along_axis(x, np.array([[-4]]), axis=0)
    with pytest.raises(ValueError, match="same number of dimensions"):
        kd.take_along_axis(x, np.array([0]), axis=1)
