"""Scalar booleans inside a key are NumPy's 0-d masks (one new axis of length 1 or 0, no axis consumed), not the
ints 1 and 0: ``a[False, True, ...]`` is empty, ``a[0, True]`` is ``a[0][None]`` (scalar_bool_index.py)."""

import numpy as np
import pytest

import kdsl as kd

KEYS = [(True,), (False,), (False, True, Ellipsis), (True, True), (0, True), (Ellipsis, False),
        (True, 1, slice(None)), (np.True_,), (slice(None), True, 0), (0, slice(None), True), (None, True, -1),
        (1, np.False_, slice(1, 3)), (True, Ellipsis, 0)]


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_read(key, dtype):
    host = np.arange(24, dtype=dtype).reshape(2, 3, 4)
    got = kd.asarray(host)[key]
    want = host[key]
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_read_is_a_copy():
    a = kd.asarray(np.zeros((2, 3), np.float32))
    b = a[0, True]
    b[...] = 5
    assert float(a.sum()) == 0.0


@pytest.mark.parametrize("key, value", [((0, True), 7), ((True, 1), np.arange(4)), ((slice(None), False), 5),
                                        ((True,), 9), ((1, True, slice(None), 2), [1, 2, 3]),
                                        ((Ellipsis, True), np.ones((2, 3, 4, 1)))])
def test_write(key, value):
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    a = kd.asarray(host)
    want = host.copy()
    want[key] = value
    a[key] = value
    np.testing.assert_array_equal(a.numpy(), want)


def test_write_of_a_wrong_shape_raises():
    with pytest.raises(ValueError):
        np.zeros((2, 3))[0, True] = np.ones(4)
    a = kd.zeros((2, 3))
    with pytest.raises(ValueError):
        a[0, True] = np.ones(4)
