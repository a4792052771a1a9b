"""A tuple inside an index key is an index sequence, as in NumPy: ``x[:, (0, 2)]`` is ``x[:, [0, 2]]``."""
import numpy as np
import pytest

import kdsl as kd

KEYS = [
    (slice(None), (0,)),
    ((1, 0),),
    (((0, 1),),),
    (Ellipsis, (2, 0)),
    (slice(None), (True, False, True)),
    ((-1,), slice(None, None, -1)),
    (slice(None), ()),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_read_nested_tuple(key, dtype):
    data = (np.arange(12).reshape(2, 6)[:, ::2] % 3).astype(dtype)  # a non-contiguous view
    got = kd.asarray(np.arange(12).reshape(2, 6) % 3).astype(dtype)[:, ::2][key]
    want = data[key]
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_write_nested_tuple(key):
    data = np.array([[1.0, np.nan, 3.0], [np.inf, -0.0, 6.0]])
    x = kd.asarray(data)
    want = data.copy()
    x[key] = 9.0
    want[key] = 9.0
    np.testing.assert_array_equal(np.asarray(x), want)


def test_size_one_and_empty_axes():
    for shape in [(1, 1), (1, 1, 1), (0, 3)]:
        data = np.ones(shape)
        x = kd.asarray(data)
        key = (Ellipsis, (0,))
        np.testing.assert_array_equal(np.asarray(x[key]), data[key])
        x[key] = 2.0
        data[key] = 2.0
        np.testing.assert_array_equal(np.asarray(x), data)


def test_out_of_bounds_still_raises():
    x = kd.ones((2, 3))
    with pytest.raises(IndexError):
        x[:, (3,)]
    with pytest.raises(IndexError):
        np.ones((2, 3))[:, (3,)]
