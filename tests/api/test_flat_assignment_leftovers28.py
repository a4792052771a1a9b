"""``a.flat[key] = values`` and ``a.flat = values`` against NumPy's flatiter: the values are flattened, then
repeated cyclically or cut to the selection's length (NumPy's rule; kdsl raised a broadcast ValueError), and
Python floats keep float64 precision in a float64 array (``a.flat = [0.1]`` stored float32-rounded values)."""

import numpy as np
import pytest

import kdsl as kd

KEYS = {
    "all": slice(None),
    "slice": slice(1, 5),
    "step": slice(None, None, 2),
    "reverse": slice(None, None, -1),
    "ints": [0, 1, 2, 4, 5],
    "repeated": [1, 1, 2],
    "mask": np.array([True, False, True, True, False, True]),
    "ellipsis": Ellipsis,
    "empty": slice(4, 1),
}
VALUES = {
    "fewer": [7, 8],
    "more": [10, 20, 30, 40, 50, 60, 70],
    "two_d": np.array([[1, 2], [3, 4]]),
    "one": [9],
    "scalar": 5,
    "empty": [],
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
@pytest.mark.parametrize("key", list(KEYS))
@pytest.mark.parametrize("values", list(VALUES))
def test_flat_setitem_repeats_values_as_numpy(dtype, key, values):
    host = np.arange(6).reshape(2, 3).astype(dtype)
    a = kd.asarray(host)
    k, v = KEYS[key], VALUES[values]
    host.flat[k] = v
    a.flat[k] = v
    assert a.dtype == host.dtype
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("key", ["slice", "ints", "all"])
def test_flat_setitem_of_a_transpose_writes_its_c_order(key):
    host = np.arange(12.0).reshape(3, 4)
    a = kd.asarray(host)
    host.T.flat[KEYS[key]] = [-1.5, -2.5, -3.5]
    a.T.flat[KEYS[key]] = [-1.5, -2.5, -3.5]
    np.testing.assert_array_equal(a.numpy(), host)


def test_flat_setitem_with_a_kdsl_mask_and_kdsl_values():
    host = np.arange(8.0)
    a = kd.asarray(host)
    host.flat[host > 2] = np.array([100.0, 200.0])
    a.flat[a > 2] = kd.asarray(np.array([100.0, 200.0]))
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("values", [[0.1, 0.2], [1e-300], [np.pi, -0.0, np.inf, np.nan]])
def test_flat_assignment_keeps_float64_precision(values):
    host, a = np.zeros((2, 3)), kd.zeros((2, 3), dtype=kd.float64)
    host.flat = values
    a.flat = values
    np.testing.assert_array_equal(a.numpy(), host)
    host.flat[1:4] = values
    a.flat[1:4] = values
    np.testing.assert_array_equal(a.numpy(), host)


def test_flat_assignment_casts_floats_into_ints_as_numpy():
    host, a = np.zeros(5, np.int32), kd.zeros(5, dtype=kd.int32)
    host.flat = [1.7, -2.5]
    a.flat = [1.7, -2.5]
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("stmt", ["a.flat = [300, -1]", "a.flat[1:] = [300]"])
def test_flat_assignment_of_out_of_range_ints_raises_numpy_overflow(stmt):
    for a in (np.zeros(3, np.uint8), kd.zeros(3, dtype=kd.uint8)):
        with pytest.raises(OverflowError, match="out of bounds for uint8"):
            exec(stmt, {"a": a})


@pytest.mark.parametrize("value", [[4.0], (4.0,), [5.0, 6.0], np.array([4.0])])
def test_flat_single_item_refuses_a_sequence_as_numpy(value):
    for a in (np.zeros(3), kd.zeros(3)):
        with pytest.raises(ValueError, match="Error setting single item of array"):
            a.flat[1] = value


@pytest.mark.parametrize("value", [4.0, np.float32(4.0), np.array(4.0)])
def test_flat_single_item_takes_a_scalar(value):
    host, a = np.zeros(3), kd.zeros(3, dtype=kd.float64)
    host.flat[1] = value
    a.flat[1] = value
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (1,), ()])
def test_flat_assignment_of_empty_and_size_one_arrays(shape):
    host = np.zeros(shape)
    a = kd.zeros(shape, dtype=kd.float64)
    host.flat[:] = [1.5, 2.5]
    a.flat[:] = [1.5, 2.5]
    np.testing.assert_array_equal(a.numpy(), host)
