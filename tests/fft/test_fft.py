"""kd.fft against numpy.fft: lengths of every kind, batches, axes, norms, dtypes, real and Hermitian forms."""

import math

import numpy as np
import pytest
from fft_testing import signal

import kdsl as kd
from kdsl.fft import plan
from kdsl.fft.transform import c2c

RTOL = {np.complex64: 2e-6, np.complex128: 1e-13}  # relative to the largest output magnitude


def _close(got, want, dtype=np.complex64):
    got = np.asarray(got)
    assert got.shape == want.shape
    scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
    tol = RTOL[np.complex128 if got.dtype in (np.complex128, np.float64) else np.complex64]
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * scale * max(1, np.log2(max(want.size, 2))))


LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 25, 49, 60, 64, 100, 105, 128, 210, 256, 343, 1000, 1024, 4096,
           8192, 11, 13, 17, 97, 127, 1009, 2 * 4099]


@pytest.mark.parametrize("n", LENGTHS)
def test_fft_and_ifft_of_every_kind_of_length(n):
    x = signal((3, n), np.complex64, n)
    _close(kd.fft.fft(kd.asarray(x)), np.fft.fft(x))
    _close(kd.fft.ifft(kd.asarray(x)), np.fft.ifft(x))


@pytest.mark.parametrize("n", [1, 6, 64, 97, 360, 4096, 10007])
def test_complex128_is_double_precision(n):
    x = signal((2, n), np.complex128, n)
    got = kd.fft.fft(kd.asarray(x))
    assert got.dtype == kd.complex128
    _close(got, np.fft.fft(x))
    _close(kd.fft.ifft(kd.asarray(x)), np.fft.ifft(x))


@pytest.mark.parametrize("n", [4 * 64, 7 * 16 * 3, 16 ** 4, 13 * 16])
def test_four_step_and_its_recursion(monkeypatch, n):
    """With a tiny workgroup limit every path of the four-step method runs, the recursive one included."""
    monkeypatch.setattr(plan, "local_limit", lambda double: 16)
    x = signal((2, n), np.complex64, 1)
    _close(c2c(kd.asarray(x), inverse=False), np.fft.fft(x))
    _close(c2c(kd.asarray(x), inverse=True), np.fft.ifft(x) * n)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_norms(norm):
    x = signal((4, 12), np.complex64)
    _close(kd.fft.fft(kd.asarray(x), norm=norm), np.fft.fft(x, norm=norm))
    _close(kd.fft.ifft(kd.asarray(x), norm=norm), np.fft.ifft(x, norm=norm))
    r = x.real.copy()
    _close(kd.fft.rfft(kd.asarray(r), norm=norm), np.fft.rfft(r, norm=norm))
    h = np.fft.rfft(r)
    _close(kd.fft.irfft(kd.asarray(h), norm=norm), np.fft.irfft(h, norm=norm))
    _close(kd.fft.hfft(kd.asarray(h), norm=norm), np.fft.hfft(h, norm=norm))
    _close(kd.fft.ihfft(kd.asarray(r), norm=norm), np.fft.ihfft(r, norm=norm))


@pytest.mark.parametrize("n", [None, 5, 8, 20])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_axis_and_length_cut_or_pad(n, axis):
    x = signal((6, 8, 3), np.complex64)
    _close(kd.fft.fft(kd.asarray(x), n=n, axis=axis), np.fft.fft(x, n=n, axis=axis))
    r = x.real.copy()
    _close(kd.fft.rfft(kd.asarray(r), n=n, axis=axis), np.fft.rfft(r, n=n, axis=axis))
    h = np.fft.rfft(r, axis=axis)
    _close(kd.fft.irfft(kd.asarray(h), n=n, axis=axis), np.fft.irfft(h, n=n, axis=axis))


@pytest.mark.parametrize("n", [1, 2, 7, 10, 11, 64])
def test_real_transforms_round_trip(n):
    r = signal((3, n), np.float32)
    got = kd.fft.rfft(kd.asarray(r))
    assert got.dtype == kd.complex64
    _close(got, np.fft.rfft(r))
    back = kd.fft.irfft(got, n=n)
    assert back.dtype == kd.float32
    _close(back, np.fft.irfft(np.fft.rfft(r), n=n))


def test_irfft_ignores_the_imaginary_part_of_dc_and_nyquist_as_numpy():
    h = np.array([1 + 5j, 2 - 1j, 3 + 7j], np.complex64)
    _close(kd.fft.irfft(kd.asarray(h)), np.fft.irfft(h))


@pytest.mark.parametrize("s,axes", [(None, None), ((4, 6), (0, 1)), (None, (0,)), (None, (0, 2)), ((3, 5), (2, 0))])
def test_nd_transforms(s, axes):
    x = signal((4, 6, 5), np.complex64)
    _close(kd.fft.fftn(kd.asarray(x), s=s, axes=axes), np.fft.fftn(x, s=s, axes=axes))
    _close(kd.fft.ifftn(kd.asarray(x), s=s, axes=axes), np.fft.ifftn(x, s=s, axes=axes))
    r = x.real.copy()
    _close(kd.fft.rfftn(kd.asarray(r), s=s, axes=axes), np.fft.rfftn(r, s=s, axes=axes))
    h = np.fft.rfftn(r, axes=axes)
    _close(kd.fft.irfftn(kd.asarray(h), s=s, axes=axes), np.fft.irfftn(h, s=s, axes=axes))


def test_2d_transforms():
    x = signal((3, 8, 10), np.complex64)
    r = x.real.copy()
    _close(kd.fft.fft2(kd.asarray(x)), np.fft.fft2(x))
    _close(kd.fft.ifft2(kd.asarray(x)), np.fft.ifft2(x))
    _close(kd.fft.rfft2(kd.asarray(r)), np.fft.rfft2(r))
    _close(kd.fft.irfft2(kd.fft.rfft2(kd.asarray(r)), s=(8, 10)), np.fft.irfft2(np.fft.rfft2(r), s=(8, 10)))


def test_dtypes_follow_numpy_2_with_kdsl_default_for_integers():
    assert kd.fft.fft(kd.asarray(np.ones(4, np.float32))).dtype == kd.complex64
    assert kd.fft.fft(kd.asarray(np.ones(4, np.float64))).dtype == kd.complex128
    assert kd.fft.rfft(kd.asarray(np.ones(4, np.float64))).dtype == kd.complex128
    assert kd.fft.fft(kd.asarray(np.arange(4, dtype=np.int32))).dtype == kd.complex64  # NumPy: complex128
    _close(kd.fft.fft(np.arange(4)), np.fft.fft(np.arange(4)).astype(np.complex64))  # NumPy input is accepted


@pytest.mark.parametrize("name,shape", [("irfft", (6,)), ("hfft", (2, 5)), ("irfftn", (6,)), ("irfftn", (2, 6)),
                                        ("irfft2", (3, 4)), ("fft", (6,)), ("rfft", (6,))])
def test_float16_input_gives_numpys_dtypes(name, shape):
    """NumPy's irfft/hfft of float16 reals are float16 (its output dtype is result_type(a.real.dtype, 1.0)); an
    irfftn over several axes, whose first steps are complex, and the forward transforms are not."""
    host = np.arange(math.prod(shape), dtype=np.float16).reshape(shape) - 2
    want, got = getattr(np.fft, name)(host), getattr(kd.fft, name)(kd.asarray(host)).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.astype(np.complex128), want.astype(np.complex128), rtol=2e-3, atol=2e-2)


def test_non_contiguous_views_and_size_1_axes():
    x = signal((8, 12), np.complex64)
    view = kd.asarray(x)[::2, 1::2]
    _close(kd.fft.fft(view), np.fft.fft(x[::2, 1::2]))
    _close(kd.fft.fft(kd.asarray(x).T, axis=0), np.fft.fft(x.T, axis=0))
    one = signal((1, 5, 1), np.complex64)
    _close(kd.fft.fftn(kd.asarray(one)), np.fft.fftn(one))


def test_empty_batches_and_invalid_lengths():
    empty = np.zeros((0, 8), np.complex64)
    assert kd.fft.fft(kd.asarray(empty)).shape == (0, 8)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        kd.fft.fft(kd.asarray(np.zeros(4, np.complex64)), n=0)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        kd.fft.fft(kd.asarray(np.zeros((2, 0), np.complex64)))
    with pytest.raises(ValueError, match="at least one dimension"):
        kd.fft.fft(kd.asarray(np.complex64(1)))
    with pytest.raises(ValueError, match="out of bounds"):
        kd.fft.fft(kd.asarray(np.zeros(4, np.complex64)), axis=1)
    with pytest.raises(ValueError, match="norm must be"):
        kd.fft.fft(kd.asarray(np.zeros(4, np.complex64)), norm="sideways")
    with pytest.raises(TypeError, match="takes real input"):
        kd.fft.rfft(kd.asarray(np.zeros(4, np.complex64)))
    out = kd.zeros(4, dtype=kd.complex64)  # NumPy's out=: filled and returned
    assert kd.fft.fft(kd.zeros(4), out=out) is out


def test_nan_and_inf_spread_as_in_numpy():
    x = np.zeros(8, np.complex64)
    x[3] = np.nan
    got = np.asarray(kd.fft.fft(kd.asarray(x)))
    assert np.isnan(got).all() and np.isnan(np.fft.fft(x)).all()
    y = np.zeros(8, np.complex64)
    y[0] = np.inf
    got = np.asarray(kd.fft.fft(kd.asarray(y)))
    assert np.array_equal(np.isinf(got.real), np.isinf(np.fft.fft(y).real))


def test_frequencies_and_shifts():
    for n, d in [(1, 1.0), (4, 1.0), (5, 0.1), (8, 2.0)]:
        np.testing.assert_allclose(kd.fft.fftfreq(n, d).numpy(), np.fft.fftfreq(n, d), rtol=1e-6)
        np.testing.assert_allclose(kd.fft.rfftfreq(n, d).numpy(), np.fft.rfftfreq(n, d), rtol=1e-6)
    assert kd.fft.fftfreq(4, dtype=kd.float64).dtype == kd.float64
    x = np.arange(30).reshape(5, 6)
    for axes in (None, 0, 1, (0, 1)):
        assert np.array_equal(kd.fft.fftshift(kd.asarray(x), axes).numpy(), np.fft.fftshift(x, axes))
        assert np.array_equal(kd.fft.ifftshift(kd.asarray(x), axes).numpy(), np.fft.ifftshift(x, axes))
    with pytest.raises(ValueError, match="positive int"):
        kd.fft.fftfreq(0)


def test_numpy_fft_on_kdsl_arrays_stays_on_the_device():
    x = kd.asarray(np.arange(4, dtype=np.complex64))
    got = np.fft.fft(x)
    assert isinstance(got, kd.Array)
    _close(got, np.fft.fft(np.arange(4, dtype=np.complex64)))
    assert isinstance(np.fft.rfft(kd.asarray(np.ones(4, np.float32))), kd.Array)
