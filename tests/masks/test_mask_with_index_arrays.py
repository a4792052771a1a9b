"""A boolean mask together with integer index arrays (``X[row[:, np.newaxis], mask]`` of the Python Data Science
Handbook, ``a[idx, mask] = v``, two masks): NumPy's ``mask.nonzero()`` indices broadcast with the others,
read and written, against NumPy (kdsl/frontend/array/mixed_mask_index.py)."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(12)
M3 = np.array([True, False, True])
M4 = np.array([True, False, True, False])
M34 = RNG.random((3, 4)) < 0.5

KEYS = {
    "rows column, mask": ((3, 4), (np.array([0, 1, 2])[:, None], M4)),
    "index, mask": ((3, 4), (np.array([2, 0]), M4)),
    "mask, list": ((3, 4), (M3, [3, 1])),
    "two masks": ((3, 4), (M3, M4)),
    "mask, index, slice": ((3, 4, 2), (M3, np.array([1, 3]), slice(None, None, -1))),
    "slice, index, mask": ((2, 3, 4), (slice(None), np.array([[2], [0]]), M4)),
    "2-d mask, index": ((3, 4, 2), (M34, np.array([1]))),
    "index broadcast with one true": ((3, 4), (np.array([0, 1, 2]), np.array([False, True, False, False]))),
    "empty mask": ((3, 4), (np.array([0]), np.zeros(4, bool))),
    "size-1 axis": ((1, 4), (np.array([0, 0]), M4)),
}


def _key(key: tuple, as_kdsl: bool) -> tuple:
    return tuple(kd.asarray(k) if as_kdsl and isinstance(k, np.ndarray) else k for k in key)


def _base(shape, dtype, view: str):
    if view == "strided":
        full = (RNG.standard_normal((2 * shape[0],) + shape[1:]) * 4).astype(dtype)
        return full, lambda a: a[::2]
    if view == "transposed":
        full = (RNG.standard_normal(shape[::-1]) * 4).astype(dtype)
        return full, lambda a: a.T
    return (RNG.standard_normal(shape) * 4).astype(dtype), lambda a: a


@pytest.mark.parametrize("view", ["contiguous", "strided", "transposed"])
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
@pytest.mark.parametrize("as_kdsl", [False, True])
@pytest.mark.parametrize("name", KEYS)
def test_read_matches_numpy(name, as_kdsl, dtype, view):
    shape, key = KEYS[name]
    host, make = _base(shape, dtype, view)
    want = make(host)[key]
    got = make(kd.asarray(host))[_key(key, as_kdsl)]
    assert got.shape == want.shape and got.dtype.name == want.dtype.name
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("as_kdsl", [False, True])
@pytest.mark.parametrize("name", KEYS)
def test_assign_matches_numpy(name, as_kdsl, dtype):
    shape, key = KEYS[name]
    host = (RNG.standard_normal(shape) * 4).astype(dtype)
    want = host.copy()
    want[key] = -7
    got = kd.asarray(host)
    got[_key(key, as_kdsl)] = -7
    np.testing.assert_array_equal(got.numpy(), want)


def test_augmented_assign_and_nan():
    host = np.array([[1.0, np.nan, 3.0, 4.0], [5.0, 6.0, np.nan, 8.0]], np.float32)
    want = host.copy()
    want[np.array([[1], [0]]), ~np.isnan(host[0])] += 1
    got = kd.asarray(host)
    got[kd.array([[1], [0]]), ~kd.isnan(got[0])] += 1
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("key", [(np.array([0, 1]), np.array([True, True, True, False])),  # 2 vs 3 indices
                                 (np.array([0, 5]), M4)])  # out of bounds
def test_bad_keys_raise_index_error(key):
    with pytest.raises(IndexError):
        np.zeros((3, 4))[key]
    with pytest.raises(IndexError):
        kd.zeros((3, 4))[_key(key, True)]
