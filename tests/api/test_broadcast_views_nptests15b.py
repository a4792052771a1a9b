"""broadcast_to, broadcast_arrays and sliding_window_view are views in NumPy (numpy/lib/tests/
test_stride_tricks.py): a write into their input shows in them. kdsl's follow it the same way; a kdsl broadcast
stays writeable (documented), and a write into it leaves it with its own values."""

import numpy as np
import pytest

import kdsl as kd

SWV = kd.lib.stride_tricks.sliding_window_view
CASES = [  # (input, broadcast shape, index written into the input, value)
    (np.array([1, 2, 3], np.int32), (2, 3), (0,), 5),
    (np.array([[1.5], [np.nan]], np.float32), (2, 4), (1, 0), np.inf),
    (np.arange(6, dtype=np.float64).reshape(2, 3)[:, ::2], (3, 2, 2), (0, 1), -0.0),  # a strided view
    (np.ones((1, 1), np.uint8), (4, 1, 3), (0, 0), 7),
    (np.array(2, np.int16), (2, 2), (), -3),                                          # 0-d
    (np.array([1 + 1j, 2], np.complex64), (3, 2), (1,), 1j),
    (np.zeros((0, 2), np.float32), (3, 0, 2), (slice(None),), 1.0),                   # empty
]


def _written(host, index, value):
    host = host.copy()
    host[index] = value
    return host


@pytest.mark.parametrize("i", range(len(CASES)))
def test_broadcast_to_follows_writes_into_its_input(i):
    host, shape, index, value = CASES[i]
    a = kd.asarray(host)
    b = kd.broadcast_to(a, shape)
    np.testing.assert_array_equal(b.numpy(), np.broadcast_to(host, shape))
    a[index] = value
    np.testing.assert_array_equal(b.numpy(), np.broadcast_to(_written(host, index, value), shape))


@pytest.mark.parametrize("i", range(len(CASES)))
def test_broadcast_arrays_follow_writes_into_their_inputs(i):
    host, shape, index, value = CASES[i]
    a, other = kd.asarray(host), kd.zeros(shape, kd.float32)
    b, o = kd.broadcast_arrays(a, other)
    a[index] = value
    other += 1  # an in-place operator is a write too
    expected, ones = np.broadcast_arrays(_written(host, index, value), np.ones(shape, np.float32))
    np.testing.assert_array_equal(b.numpy(), expected)
    np.testing.assert_array_equal(o.numpy(), ones)


def test_numpys_functions_dispatch_to_the_following_views():
    a = kd.asarray([1, 2, 3])
    b = np.broadcast_to(a, (2, 3))
    c, _ = np.broadcast_arrays(a, kd.ones((2, 1)))
    a[1] = 9
    assert b.tolist() == c.tolist() == [[1, 9, 3], [1, 9, 3]]


def test_a_write_into_the_broadcast_keeps_its_own_values():
    a = kd.asarray([1, 2, 3])
    b = kd.broadcast_to(a, (2, 3))
    b[1, 1] = 7  # kdsl's broadcast is writeable (NumPy's raises): the write changes b only
    a[0] = 5
    assert a.tolist() == [5, 2, 3] and b.tolist() == [[1, 2, 3], [1, 7, 3]]
    b2 = kd.broadcast_to(a, (2, 3))
    b2 += 1
    a[2] = 0
    assert b2.tolist() == [[6, 3, 4], [6, 3, 4]]


def test_functions_built_on_broadcasts_return_copies():
    a = kd.asarray([[1, 2], [3, 4]])
    tiled, repeated = kd.tile(a, (2, 1)), kd.broadcast_to(a.copy(), (2, 2, 2))
    a[0, 0] = 99
    assert tiled.tolist() == np.tile([[1, 2], [3, 4]], (2, 1)).tolist()
    assert repeated[1].tolist() == [[1, 2], [3, 4]]


@pytest.mark.parametrize("window,axis", [(2, None), (3, 1), ((2, 2), None), ((1, 2), (0, 1)), (2, 0)])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_sliding_windows_follow_writes_into_their_input(window, axis, dtype):
    host = np.arange(12, dtype=dtype).reshape(3, 4)
    if axis is None and np.ndim(window) == 0:
        host = host[0]  # one window length for a 1-d input
    a = kd.asarray(host)
    w = SWV(a, window, axis)
    a[(0,) * host.ndim] = np.nan if dtype != np.int32 else -1
    host[(0,) * host.ndim] = np.nan if dtype != np.int32 else -1
    np.testing.assert_array_equal(w.numpy(), np.lib.stride_tricks.sliding_window_view(host, window, axis))
    assert not w.flags.writeable


def test_sliding_windows_of_a_view_follow_its_base():
    base = kd.arange(10, dtype=kd.float32)
    view = base[::2]
    w = SWV(view, 3)
    base[4] = np.inf
    host = np.arange(10, dtype=np.float32)
    host[4] = np.inf
    np.testing.assert_array_equal(w.numpy(), np.lib.stride_tricks.sliding_window_view(host[::2], 3))


AS_STRIDED = kd.lib.stride_tricks.as_strided


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.int8])
@pytest.mark.parametrize("view", ["whole", "strided", "transposed"])
def test_as_strided_follows_writes_into_its_input(dtype, view):
    host = np.arange(24, dtype=dtype).reshape(4, 6)
    a = kd.asarray(host)
    pick = {"whole": lambda x: x, "strided": lambda x: x[1:, ::2], "transposed": lambda x: x.T}[view]
    src_np, src_kd = pick(host), pick(a)
    shape, strides = (2, 3), (src_np.strides[0], src_np.strides[-1])
    w = AS_STRIDED(src_kd, shape, (src_kd.strides[0], src_kd.strides[-1]))
    a[1, 2] = -7
    host[1, 2] = -7
    np.testing.assert_array_equal(w.numpy(), np.lib.stride_tricks.as_strided(src_np, shape, strides))


def test_a_write_into_as_strided_reaches_its_input():
    a = kd.arange(6, dtype=kd.float32)
    w = AS_STRIDED(a, (3, 2), (8, 4))
    w[0, 0] = np.nan  # non-overlapping elements of a C-contiguous a: NumPy's write-through (since porting11)
    a[1] = np.inf
    host = np.arange(6, dtype=np.float32)
    hw = np.lib.stride_tricks.as_strided(host, (3, 2), (8, 4))
    hw[0, 0] = np.nan
    host[1] = np.inf
    np.testing.assert_array_equal(w.numpy(), hw)
    np.testing.assert_array_equal(a.numpy(), host)


def test_a_write_into_an_overlapping_as_strided_keeps_its_own_values():
    a = kd.arange(6, dtype=kd.float32)
    w = AS_STRIDED(a, (3, 2), (4, 4))  # windows sharing elements: not written back (NumPy's order-dependent)
    w[0, 0] = np.nan
    a[1] = np.inf
    np.testing.assert_array_equal(w.numpy(), [[np.nan, 1], [1, 2], [2, 3]])
    assert a.tolist()[:2] == [0.0, np.inf]
