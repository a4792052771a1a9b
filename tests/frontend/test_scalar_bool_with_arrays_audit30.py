"""Scalar booleans beside index arrays or masks: ``a[True, [0, 1]]``, ``a[np.True_, idx]``, ``a[idx, False]``.
NumPy reads each as a 0-d mask, an index of a new length-1 axis that broadcasts with the other advanced indices
(True: length 1, False: length 0) and stands where they stand; kdsl raised "a boolean mask together with
integer arrays is not supported" (scalar_bool_index.with_arrays)."""

import numpy as np
import pytest

import kdsl as kd

KEYS = [(True, [0, 1]), (np.True_, [0, 1]), (False, [0]), ([0, 1], True), (True, [0, 2], [1, 3]),
        (True, np.array([[0], [1]])), (Ellipsis, True, [1, 2]), (True, slice(None), [1, 2]),
        (slice(None), True, [1, 2]), (np.True_, True, [0]), (True, 1, [0, 1]), ([0, 1], slice(None), True),
        (True, [[0]], slice(None)), (0, True, [1, 2]), (np.array(True), [0, 1]), (True, np.array([True, False, True])),
        (True, [0], [True, False, True, True]), (None, True, [2, -1]), (np.False_, np.array([], np.int64)),
        (True, np.array([1, 0], np.uint8), None)]


def _host_key(key):
    return tuple(np.asarray(k) if isinstance(k, kd.Array) else k for k in key)


@pytest.mark.parametrize("view", ["plain", "transposed", "strided"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_read_matches_numpy(key, dtype, view):
    shape, pick = {"plain": ((3, 4), lambda x: x), "transposed": ((4, 3), lambda x: x.T),
                   "strided": ((3, 8), lambda x: x[::-1, ::-2])}[view]  # each a (3, 4) view
    host = np.arange(np.prod(shape), dtype=dtype).reshape(shape)
    host, a = pick(host), pick(kd.asarray(host))
    want = host[key]
    got = a[key]
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_kdsl_0d_masks_and_empty_and_size_one():
    host = np.array([[np.nan, -0.0, np.inf]], np.float32)
    a = kd.asarray(host)
    for key in [(kd.asarray(True), slice(None), [2, 0]), (kd.asarray(False), [0]), (True, [0], [1]), (True, [])]:
        want = host[_host_key(key)]
        got = a[key]
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
    empty = np.zeros((0, 3), np.float32)
    np.testing.assert_array_equal(kd.asarray(empty)[True, :, [1]].numpy(), empty[True, :, [1]])


@pytest.mark.parametrize("key", [(False, [0, 1]), ([0, 1], False, [1]), (False, [0], [True, False, True, True])],
                         ids=repr)
def test_shape_errors_as_numpys(key):
    host = np.arange(12.0).reshape(3, 4)
    with pytest.raises(IndexError, match="shape mismatch"):
        host[key]
    with pytest.raises(IndexError, match="shape mismatch"):
        kd.asarray(host)[key]


@pytest.mark.parametrize("key", [(True, [5]), (True, [0], [9]), (slice(None), True, [7]), (Ellipsis, True, [4]),
                                 ([0], True, slice(None), [-5]), (True, 0, True, [1], [6])], ids=repr)
def test_out_of_bounds_names_numpys_axis(key):
    host = np.arange(24.0).reshape(2, 3, 4)
    with pytest.raises(IndexError) as numpys:
        host[key]
    with pytest.raises(IndexError) as ours:
        kd.asarray(host)[key]
    assert str(ours.value) == str(numpys.value)
    with pytest.raises(IndexError) as ours:
        kd.asarray(host)[key] = 1.0
    assert str(ours.value) == str(numpys.value)


@pytest.mark.parametrize("key, value", [((True, [0, 1]), -1.0), ((True, [0, 1]), np.full((2, 4), -2.0)),
                                        ((False, [0]), -5.0), ((slice(None), True, [1, 2]), [[-1.0, -2.0]]),
                                        ((np.True_, [[0], [2]], [1, 3]), -7.0), (([2, 0], True), np.arange(4.0)),
                                        ((True, [1, 1]), 8.0)], ids=repr)
def test_write_matches_numpy(key, value):
    host = np.arange(12.0).reshape(3, 4)
    a = kd.asarray(host)
    host[key] = value
    a[key] = value
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("key, value", [((True, [0, 1]), np.zeros((3, 4))), ((False, [0]), np.zeros((3, 4)))],
                         ids=repr)
def test_write_of_a_wrong_shape_raises_as_numpy(key, value):
    host = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ValueError):
        host[key] = value
    a = kd.asarray(host)
    with pytest.raises(ValueError):
        a[key] = value


def test_write_through_a_view_reaches_its_base():
    host = np.arange(12.0).reshape(3, 4)
    a = kd.asarray(host)
    a[1:][True, [0]] = 100.0
    host[1:][True, [0]] = 100.0
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "power", "negative"])
@pytest.mark.parametrize("key, value", [((True, [0, 0]), 1.0), ((True, [0, 0], [1, 1]), [2.0, 3.0]),
                                        ((slice(None), False, [1]), 5.0), ((np.True_, [2, 0, 2]), np.ones((3, 4))),
                                        (([1, 1], True, slice(1, 3)), 2.0)], ids=repr)
def test_ufunc_at_matches_numpy(name, key, value):
    host = np.arange(12.0).reshape(3, 4) - 5
    a = kd.asarray(host)
    args = () if name == "negative" else (value,)
    getattr(np, name).at(host, key, *args)
    getattr(kd, name).at(a, key, *args)
    np.testing.assert_array_equal(a.numpy(), host)


def test_ufunc_at_out_of_bounds_names_numpys_axis():
    host = np.arange(12.0).reshape(3, 4)
    with pytest.raises(IndexError) as numpys:
        np.add.at(host, (True, [7]), 1)
    with pytest.raises(IndexError) as ours:
        kd.add.at(kd.asarray(host), (True, [7]), 1)
    assert str(ours.value) == str(numpys.value)
