"""``kd.lib.stride_tricks.sliding_window_view`` (kdsl/frontend/array/sliding_window.py) against NumPy's."""

import numpy as np
import pytest
from kdsl.lib.stride_tricks import sliding_window_view
from numpy.lib.stride_tricks import sliding_window_view as np_windows

import kdsl as kd

VIEWS = {"contiguous": lambda a: a, "strided": lambda a: a[:, ::2], "transposed": lambda a: a.T,
         "reversed": lambda a: a[::-1, 1:]}


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("window,axis", [((2, 2), None), (3, 1), (2, 0), (1, -1), ((2, 1), (1, 0)), ((2, 2), (0, 0)),
                                         (0, 1)])
@pytest.mark.parametrize("dtype", ["float32", "int16"])
def test_matches_numpy(view, window, axis, dtype):
    host = np.arange(5 * 7).reshape(5, 7).astype(dtype)
    a = VIEWS[view](kd.asarray(host))
    ref = VIEWS[view](host)
    expected = np_windows(ref, window, axis)
    got = sliding_window_view(a, window, axis)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


def test_moving_average_fuses_and_writes_stay():
    host = np.random.default_rng(0).normal(size=50).astype(np.float32)
    x = kd.asarray(host)
    w = kd.lib.stride_tricks.sliding_window_view(x, 5)
    np.testing.assert_allclose(w.mean(axis=-1).numpy(), np_windows(host, 5).mean(axis=-1), rtol=1e-5, atol=1e-6)
    assert not w.flags.writeable and not np_windows(host, 5).flags.writeable
    with pytest.raises(ValueError, match="read-only"):  # NumPy's windows are read-only too
        w[0, 0] = 100.0
    np.testing.assert_array_equal(x.numpy(), host)


@pytest.mark.parametrize("window,axis,match", [(-1, 0, "negative"), (9, 0, "larger"), ((2, 2), 0, "matching length"),
                                               ((2,), None, "all dimensions")])
def test_errors(window, axis, match):
    with pytest.raises(ValueError, match=match):
        sliding_window_view(kd.zeros((3, 4)), window, axis)
    with pytest.raises(ValueError, match=match):
        np_windows(np.zeros((3, 4)), window, axis)


def test_writeable_refused():
    with pytest.raises(ValueError, match="read-only"):
        sliding_window_view(kd.zeros(4), 2, writeable=True)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("dtype", ["float32", "int16", "float64"])
def test_strides_match_numpy(view, dtype):
    host = np.arange(5 * 7).reshape(5, 7).astype(dtype)
    assert VIEWS[view](kd.asarray(host)).strides == VIEWS[view](host).strides
    # a size-1 axis never steps: kdsl gives it a C-contiguous array's step (NumPy keeps its source's)
    got, expected = kd.asarray(host)[2:3, None, 1:].strides, host[2:3, None, 1:].strides
    assert got[2] == expected[2] and got[:2] == (6 * host.itemsize, 6 * host.itemsize)


@pytest.mark.parametrize("view", VIEWS)
def test_as_strided_windows_and_repeats(view):
    host = np.arange(5 * 7, dtype=np.float32).reshape(5, 7)
    a, ref = VIEWS[view](kd.asarray(host)), VIEWS[view](host)
    s0, s1 = a.strides
    for shape, strides in [((2, 2, 2), (s0, s1, s1)), ((3, 2), (0, s1)), ((2,), (s0 + s1,))]:
        got = kd.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)
        np.testing.assert_array_equal(got.numpy(), np.lib.stride_tricks.as_strided(ref, shape, strides))
    np.testing.assert_array_equal(kd.lib.stride_tricks.as_strided(a).numpy(), ref)


def test_as_strided_stays_inside_the_data():
    a = kd.arange(5, dtype=kd.int32)
    with pytest.raises(ValueError, match="reaches outside"):
        kd.lib.stride_tricks.as_strided(a, shape=(4, 3), strides=(4, 4))
    with pytest.raises(ValueError, match="multiple of the itemsize"):
        kd.lib.stride_tricks.as_strided(a, shape=(2,), strides=(3,))
