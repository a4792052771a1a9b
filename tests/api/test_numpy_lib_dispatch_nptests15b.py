"""NumPy's np.lib.stride_tricks.sliding_window_view and np.emath (np.lib.scimath) functions on kdsl arrays run
kd.lib's namesakes, lazily, as np.sqrt(a) runs kd.sqrt (they raised 'kdsl has no numpy.lib...')."""

import numpy as np
import pytest

import kdsl as kd

DATA = [
    np.array([-4.0, 0.25, 9.0, np.inf, np.nan], np.float64),
    np.array([[1.0, -2.0, 3.0], [-0.0, 5.0, -6.0]], np.float32),
    np.arange(12, dtype=np.float64).reshape(3, 4)[::2, 1:] - 5,   # a strided view
    np.zeros((0, 3), np.float32),
    np.array([[2.0]], np.float32),                                # size-1 axes
]
EMATH = ["sqrt", "log", "log2", "log10", "arcsin", "arccos", "arctanh"]


@pytest.mark.parametrize("name", EMATH)
@pytest.mark.parametrize("i", range(len(DATA)))
def test_emath_dispatches(name, i):
    host = DATA[i]
    got = getattr(np.emath, name)(kd.asarray(host))
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), getattr(np.emath, name)(host), rtol=2e-6, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("window,axis", [(2, -1), (1, 0), ((1, 2), (0, 1)), (3, 0)])
@pytest.mark.parametrize("i", range(1, len(DATA)))
def test_sliding_window_view_dispatches(i, window, axis):
    host = DATA[i]
    try:
        expected = np.lib.stride_tricks.sliding_window_view(host, window, axis)
    except ValueError:  # a window longer than its axis: the same error from kdsl's
        with pytest.raises(ValueError):
            np.lib.stride_tricks.sliding_window_view(kd.asarray(host), window, axis)
        return
    got = np.lib.stride_tricks.sliding_window_view(kd.asarray(host), window, axis)
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), expected)


def test_logn_and_power_take_kdsl_arrays():
    x = np.array([-8.0, 4.0, 0.5])
    np.testing.assert_allclose(np.emath.logn(2, kd.asarray(x)).numpy(), np.emath.logn(2, x), rtol=1e-6)
    np.testing.assert_allclose(np.emath.power(kd.asarray(x), 0.5).numpy(), np.emath.power(x, 0.5), rtol=1e-6)
