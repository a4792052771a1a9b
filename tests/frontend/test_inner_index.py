"""Integer index arrays after slices or ints (kdsl/frontend/array/inner_index.py) against NumPy: reading,
assigning (scalars, broadcast rows, full values), in-place operators, views, errors."""

import numpy as np
import pytest

import kdsl as kd

I1 = np.array([0, 2, -1])
I2 = np.array([[1, 0], [3, 4]])
I3 = np.array([5, 0, 5])
KEYS = {
    "cols list": (slice(None), [0, 2]),
    "cols": (slice(None), I1),
    "slice arr step": (slice(1, None), I1, slice(None, None, 2)),
    "arr then slice": (I1, slice(1, 4)),
    "int slice arr": (0, slice(None), I3),
    "2-d index": (slice(None), I2),
    "2-d index int": (slice(None), I2, 1),
    "int arr adjacent": (slice(None), 1, I1),
    "separated arrays": (I1, slice(None), I3),
    "ellipsis": (Ellipsis, I3),
    "newaxis": (None, slice(None), I1),
    "newaxis between": (slice(None), None, I1, 2),
    "broadcast apart": (I1[:, None], slice(None), I3),
    "reversed": (slice(None, None, -1), I1, I3),
    "repeats": (slice(None), [1, 1, 2], [0, 0, 5]),
    "empty": (slice(None), np.array([], np.int64)),
}


def _key(key, xp):
    return tuple(xp.asarray(k) if isinstance(k, np.ndarray) and xp is kd else k for k in key)


@pytest.mark.parametrize("name", KEYS)
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8"])
def test_read_matches_numpy(name, dtype):
    host = np.arange(4 * 5 * 6).reshape(4, 5, 6).astype(dtype)
    key = KEYS[name]
    got = kd.asarray(host)[_key(key, kd)]
    expected = host[key]
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("name", KEYS)
@pytest.mark.parametrize("value", ["scalar", "full", "last axis"])
def test_assign_matches_numpy(name, value):
    host = np.arange(4 * 5 * 6, dtype=np.float32).reshape(4, 5, 6)
    key = KEYS[name]
    shape = host[key].shape
    v = {"scalar": -7.0, "full": -np.arange(np.prod(shape), dtype=np.float32).reshape(shape) - 1,
         "last axis": -np.arange(shape[-1], dtype=np.float32) - 1}[value]
    a = kd.asarray(host)
    a[_key(key, kd)] = v
    host[key] = v
    np.testing.assert_array_equal(a.numpy(), host)


def test_repeats_last_value_wins():
    a, host = kd.zeros((2, 4)), np.zeros((2, 4), np.float32)
    a[:, [1, 3, 1]] = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    host[:, [1, 3, 1]] = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    np.testing.assert_array_equal(a.numpy(), host)


def test_inplace_operator_and_view_write_through():
    host = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    a = kd.asarray(host)
    a[:, [0, 2]] += 100
    row = a[1]
    row[:, [3]] = 0
    host[:, [0, 2]] += 100
    host[1][:, [3]] = 0
    np.testing.assert_array_equal(a.numpy(), host)


def test_non_contiguous_source_and_device_index():
    host = np.arange(48.0, dtype=np.float32).reshape(6, 8)
    a = kd.asarray(host)
    idx = kd.asarray(np.array([5, 0, -2]))
    np.testing.assert_array_equal(a.T[::2, idx].numpy(), host.T[::2, [5, 0, -2]])
    np.testing.assert_array_equal(a[::-2, idx].numpy(), host[::-2, [5, 0, -2]])


@pytest.mark.parametrize("key,error,match", [
    ((slice(None), [9]), IndexError, "index 9 is out of bounds for axis 1 with size 3"),
    ((0, slice(None), [-3]), IndexError, "index -3 is out of bounds for axis 2 with size 2"),
    ((slice(None), [0, 1], [0, 1, 1]), IndexError, "shape mismatch"),
    ((slice(None), [0], [0], [0]), IndexError, "too many indices"),
    ((slice(None), [0.5]), IndexError, "integer"),
])
def test_errors(key, error, match):
    with pytest.raises(error, match=match):
        kd.zeros((4, 3, 2))[key]
    with pytest.raises(error, match=match):
        kd.zeros((4, 3, 2))[key] = 1.0


def test_assigned_value_must_broadcast():
    with pytest.raises(ValueError, match="broadcast"):
        kd.zeros((4, 3))[:, [0, 1]] = np.ones(3, np.float32)
