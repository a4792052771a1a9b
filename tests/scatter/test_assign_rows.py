"""a[idx] = v and a[idx] += v with integer-array idx: NumPy's buffered semantics (the last occurrence wins)."""

import numpy as np
import pytest

import kdsl as kd


def _both(a_host, key, value, op="="):
    want = a_host.copy()
    a = kd.asarray(a_host)
    kkey = tuple(kd.asarray(k) if isinstance(k, np.ndarray) else k for k in key) if isinstance(key, tuple) \
        else (kd.asarray(key) if isinstance(key, np.ndarray) else key)
    kval = kd.asarray(value) if isinstance(value, np.ndarray) else value
    if op == "=":
        want[key] = value
        a[kkey] = kval
    else:
        want[key] += value
        a[kkey] += kval
    np.testing.assert_array_equal(a.numpy(), want)


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8"])
def test_last_occurrence_wins(dtype):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 100, 50).astype(dtype)
    idx = rng.integers(-50, 50, 300)
    v = np.arange(300).astype(dtype)
    _both(a, idx, v)
    _both(a, list(idx), v)
    _both(a, idx, 7)


def test_iadd_applies_repeated_indices_once():
    a = np.arange(6, dtype=np.float32)
    _both(a, np.array([1, 1, -1, 3]), np.array([10, 20, 30, 40], np.float32), op="+=")
    _both(a, [0, 0, 0], 5, op="+=")


def test_rows_of_2d_arrays():
    a = np.arange(20, dtype=np.int32).reshape(5, 4)
    _both(a, np.array([4, 0, 4, -2]), np.arange(16, dtype=np.int32).reshape(4, 4))
    _both(a, np.array([1, 3]), np.array([9, 8, 7, 6], np.int32))  # one row broadcast
    _both(a, (np.array([2, 2]), slice(None)), -1)
    _both(a, (np.array([0, 1]), Ellipsis), np.array([[1], [2]], np.int32))
    _both(a, np.array([[0, 1], [1, 4]]), 3)  # a 2-D index array
    _both(a, np.array([3, 0]), np.ones(4, np.int32), op="+=")


def test_empty_and_out_of_bounds():
    _both(np.arange(4, dtype=np.int32), np.zeros(0, np.int64), 1)
    _both(np.arange(4, dtype=np.int32), [], 1)
    a = kd.zeros(4, dtype=kd.int32)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 4"):
        a[kd.asarray([1, 9])] = 1
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 0 with size 4"):
        a[[-5]] = 1
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[[0, 1]] = kd.asarray([1, 2, 3])
    assert a.tolist() == [0, 0, 0, 0]


def test_several_index_arrays():
    rng = np.random.default_rng(8)
    a = rng.integers(0, 9, (4, 5, 3)).astype(np.float32)
    rows, cols = rng.integers(-4, 4, 40), rng.integers(-5, 5, 40)
    _both(a, (rows, cols), np.arange(120, dtype=np.float32).reshape(40, 3))
    _both(a, (rows, cols, np.array([2])), 1.5)
    _both(a, (1, cols), np.arange(3, dtype=np.float32))  # an int with an array
    _both(a, (np.arange(4)[:, None], np.array([[0, 4]])), -2.0)  # broadcast together
    _both(a, (rows, cols), 1.0, op="+=")
    b = kd.zeros((3, 3))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        b[[0, 1], [1, 3]] = 1.0
    with pytest.raises(IndexError, match="shape mismatch"):
        b[[0, 1], [1, 2, 0]] = 1.0


def test_index_arrays_with_partial_slices_assign():  # once refused; tests/frontend/test_inner_index.py has more
    a, host = kd.zeros((3, 3)), np.zeros((3, 3), np.float32)
    a[[0, 1], 1:] = 1.0
    a[:, [0, 1]] += 2.0
    host[[0, 1], 1:] = 1.0
    host[:, [0, 1]] += 2.0
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("shape, key", [((2, 3), (2, np.zeros(0, np.int64))), ((0, 3), (0, np.zeros(0, np.int64))),
                                        ((0, 3), (-1, np.zeros(0, np.int64))),
                                        ((2, 3), (np.zeros(0, np.int64), 5)),
                                        ((2, 1, 3), (np.zeros(0, np.int64), np.array(1), slice(-2, None)))])
@pytest.mark.parametrize("write", [False, True])
def test_an_integer_out_of_bounds_raises_beside_an_empty_index_array(shape, key, write):
    """NumPy checks integer indices (and 0-d ones) always, even where the integer arrays beside them broadcast to
    an empty selection (which it does not check); kdsl returned an empty result, or wrote nothing, silently."""
    host = np.zeros(shape, np.float32)
    with pytest.raises(IndexError):
        if write:
            host[key] = 1.0
        else:
            host[key]
    a = kd.asarray(host)
    with pytest.raises(IndexError, match="out of bounds"):
        if write:
            a[key] = 1.0
        else:
            a[key]
