"""A boolean mask next to ints: ``a[mask, 0] = v``, ``a[mask, 1:] = v`` (the mask first, basic indices after)
and ``a[0, mask]``, ``a[1, mask] += v`` (ints first), read and written, against NumPy."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(11)
M3 = np.array([False, True, True])
M4 = np.array([True, False, True, True])


def _key(key: tuple, as_kdsl: bool) -> tuple:
    return tuple(kd.asarray(k) if as_kdsl and isinstance(k, np.ndarray) else k for k in key)


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
@pytest.mark.parametrize("as_kdsl", [False, True])
@pytest.mark.parametrize("shape,key,value", [
    ((3, 4), (M3, 0), -1),                                  # X[y == c, 0] = v
    ((3, 4), (M3, 0), np.array([7, 8])),                    # one value per selected row
    ((3, 4), (M3, slice(1, None)), np.arange(3)),           # broadcast over the selected rows
    ((3, 4), (M3, Ellipsis, 2), 5),
    ((3, 4, 2), (M3, 1, slice(None, None, -1)), np.arange(2)),
    ((3, 4), (1, M4), 9),                                   # ints first: a[1][mask] = v
    ((2, 3, 4), (0, M3), np.arange(4)),
    ((2, 3, 4), (1, 2, M4), np.array([1, 2, 3])),
    ((2, 3, 4), (0, M3, 1), np.array([4, 5])),
    ((3, 4), (M3 & False, 0), 3),                           # nothing selected
])
def test_assign_matches_numpy(dtype, as_kdsl, shape, key, value):
    host = (RNG.standard_normal(shape) * 4).astype(dtype)
    value = value.astype(dtype) if isinstance(value, np.ndarray) else value
    want = host.copy()
    want[key] = value
    got = kd.asarray(host)
    got[_key(key, as_kdsl)] = value
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("key", [(0, M3), (1, 2, M4), (0, M3, slice(1, None)), (1, M3, 0)])
def test_read_ints_then_mask(key):
    host = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    got = kd.asarray(host)[_key(key, True)]
    assert got.shape == host[key].shape
    np.testing.assert_array_equal(got.numpy(), host[key])


def test_augmented_and_through_a_view():
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    want = host.copy()
    want[1, M3] += 10
    want.transpose(1, 0, 2)[M3, 0] *= -1
    got = kd.asarray(host)
    got[1, M3] += 10
    got.transpose(1, 0, 2)[M3, 0] *= -1
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("key", [(M4, 0), (0, M4)])
def test_mask_of_the_wrong_length_raises_index_error(key):
    with pytest.raises(IndexError):
        np.zeros((3, 3))[key] = 1
    a = kd.zeros((3, 3))
    with pytest.raises(IndexError, match="boolean index did not match"):
        a[key] = 1
