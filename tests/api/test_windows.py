"""The window functions against NumPy's (kdsl's are float32, its default float; NumPy's float64)."""

import numpy as np
import pytest

import kdsl as kd

LENGTHS = [-2, 0, 1, 2, 3, 8, 51, 6.5, np.int64(7)]


def _match(got, expected, atol=1e-6):
    g = got.numpy()
    assert g.shape == expected.shape and g.dtype == np.float32
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=atol)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", LENGTHS)
def test_windows(name, M):
    _match(getattr(kd, name)(M), getattr(np, name)(M))


@pytest.mark.filterwarnings("ignore:invalid value encountered in sqrt")  # a float M gives NaN ends
@pytest.mark.parametrize("M", LENGTHS)
@pytest.mark.parametrize("beta", [0.0, 0.5, 3.75, 5.0, 8.6, 14.0, 60.0, -4.0])
def test_kaiser(M, beta):
    _match(kd.kaiser(M, beta), np.kaiser(M, beta), atol=3e-7 * (1 + abs(beta)))


def test_kaiser_of_a_large_beta_does_not_overflow():
    got = kd.kaiser(65, 700.0).numpy()  # I0(700) is past float64's range: NumPy gives NaN here
    assert np.isfinite(got).all() and got[32] == pytest.approx(1.0, rel=1e-5) and got[0] < 1e-30


def test_i0e_against_the_exact_series():
    from kdsl.frontend.array.windows import _i0e
    x = np.array([0.0, 0.1, 1.0, 3.7, 3.75, 3.8, 10.0, 50.0, 300.0, -2.0])
    expected = np.exp(-np.abs(x)) * np.i0(x)
    np.testing.assert_allclose(_i0e(kd.asarray(x.astype(np.float32))).numpy(), expected, rtol=1e-6)


def test_window_products_dispatch_from_numpy():
    w = kd.hanning(16)
    signal = kd.asarray(np.arange(16, dtype=np.float32))
    np.testing.assert_allclose(np.multiply(signal, w).numpy(), np.arange(16) * np.hanning(16), atol=1e-5)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_window_of_an_array_is_refused(name):
    # a 0-d array is a length, as NumPy's np.hanning(np.asarray(5)): tests/api/test_window_zero_d_lengths.py
    with pytest.raises(TypeError):
        getattr(kd, name)(kd.asarray([5]))
    with pytest.raises(TypeError):
        getattr(kd, name)("5")
