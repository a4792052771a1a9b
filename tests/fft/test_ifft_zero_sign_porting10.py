"""``ifft``'s exact-zero imaginary parts are +0 as NumPy's (its backward transform computes them directly): kdsl
conjugates a forward transform on store, which turned them into -0, so ``print(np.fft.ifft([4., 0, 0, 0]))``
showed ``[1.+0.j 1.-0.j 1.-0.j 1.-0.j]`` (kdsl/fft/stockham.py, the ``CONJ_OUT`` store)."""

import numpy as np
import pytest

import kdsl as kd


def _inputs(n: int, rng):
    return [np.ones(n), np.eye(1, n).ravel(), rng.integers(-2, 3, n).astype(float),
            rng.integers(-2, 3, n) + 1j * rng.integers(-2, 3, n)]


def _assert_zero_signs(got, expected):
    for g, e in ((got.real, expected.real), (got.imag, expected.imag)):
        zero = (g == 0) & (e == 0)
        np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(e[zero]))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=lambda d: d.__name__)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 8, 12, 64, 97, 1000])
def test_ifft_zeros_are_numpys(n, dtype):
    rng = np.random.default_rng(n)
    for x in _inputs(n, rng):
        x = x.astype(dtype)
        got, expected = kd.fft.ifft(kd.asarray(x)).numpy(), np.fft.ifft(x)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
        _assert_zero_signs(got, expected)


def test_printed_as_numpy_prints_it():
    x = np.array([4.0, 0.0, 0.0, 0.0])
    assert str(kd.fft.ifft(kd.asarray(x))) == str(np.fft.ifft(x))


def test_views_empty_axes_and_more_dimensions():
    x = np.arange(24.0).reshape(4, 6) % 3
    view = kd.asarray(x)[:, ::2]  # non-contiguous rows
    _assert_zero_signs(kd.fft.ifft(view, axis=0).numpy(), np.fft.ifft(x[:, ::2], axis=0))
    _assert_zero_signs(kd.fft.ifft2(kd.asarray(x)).numpy(), np.fft.ifft2(x))
    cube = np.ones((4, 4, 4))
    _assert_zero_signs(kd.fft.ifftn(kd.asarray(cube)).numpy(), np.fft.ifftn(cube))
    assert kd.fft.ifft(kd.zeros((0, 4), dtype=kd.complex64)).shape == (0, 4)


def test_nan_and_inf_go_through():
    x = np.array([1.0, np.nan, 0.0, 0.0])
    np.testing.assert_array_equal(np.isnan(kd.fft.ifft(kd.asarray(x)).numpy()), np.isnan(np.fft.ifft(x)))
