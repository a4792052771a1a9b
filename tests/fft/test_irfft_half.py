"""``irfft`` to real rows of even length ``n`` runs one launch: its load turns the ``n / 2 + 1`` frequencies into the
spectrum of ``x[2j] + i x[2j + 1]`` and the inverse transform of length ``n / 2`` stores the rows as pairs of
reals (the inverse of ``rfft``'s half-length path); ``irfftn``/``irfft2`` do their other axes first in the same
program, ``hfft`` conjugates as it loads; past one launch (or with a Bluestein half) one elementwise pass makes
that spectrum for the multi-launch transform of ``n / 2``. Checked against NumPy: lengths with and without that
path, cut and padded spectra, the imaginary parts NumPy ignores, batches, float64, the norms, non-finite values,
axes other than the last, empty arrays, and warm calls (one replayed submission)."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.fft import plan


def _spectra(shape, dtype=np.complex64, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def _launch_names(fn):
    with kd.profile() as prof:
        kd.realize(fn())
    return [name for name, _ in prof.records]


def _close(got, want):
    got = got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 2e-5 if want.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max(initial=0))))


def _skip_without_float64(dtype):
    if dtype == np.complex128 and "float64" not in kd.device().features:
        pytest.skip("the device has no float64")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape,n", [((3,), None), ((4, 9), None), ((1, 5), 8), ((2, 17), 12), ((5, 1025), None),
                                     ((2, 7), 20), ((2, 3, 11), None), ((3, 2049), None), ((6, 161), None)])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_even_lengths_take_one_launch(shape, n, dtype, norm):
    _skip_without_float64(dtype)
    host = _spectra(shape, dtype)
    x = kd.asarray(host)
    _close(kd.fft.irfft(x, n=n, norm=norm), np.fft.irfft(host, n=n, norm=norm))
    _close(kd.fft.hfft(x, n=n, norm=norm), np.fft.hfft(host, n=n, norm=norm))
    length = 2 * (shape[-1] - 1) if n is None else n
    if length // 2 <= plan.local_limit(dtype == np.complex128):
        names = _launch_names(lambda: kd.fft.irfft(x, n=n, norm=norm))
        assert len(names) == 1 and f"to real rows of {length}" in names[0]


def test_the_imaginary_parts_of_the_zero_and_nyquist_frequencies_are_ignored():
    host = _spectra((3, 9))
    host[:, 0] += 5j
    host[:, -1] -= 3j
    _close(kd.fft.irfft(kd.asarray(host)), np.fft.irfft(host))
    _close(kd.fft.hfft(kd.asarray(host)), np.fft.hfft(host))


@pytest.mark.parametrize("n", [3, 9, 2])
def test_odd_lengths_and_length_two_take_the_full_spectrum(n):
    host = _spectra((2, n // 2 + 1))
    host[:, 0] += 1j
    _close(kd.fft.irfft(kd.asarray(host), n=n), np.fft.irfft(host, n=n))
    assert not any("to real rows" in name for name in _launch_names(lambda: kd.fft.irfft(kd.asarray(host), n=n)))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n,width", [(2 * 1031, 1032), (4 * plan.local_limit(False), None), (2 * 4099, 40),
                                     (4 * plan.local_limit(False) + 8, 3 * plan.local_limit(False))])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_long_halves_and_bluestein_halves_take_half_the_length(n, width, dtype, norm):
    """A half past one launch, or with a prime factor past 7: one elementwise pass makes the spectrum of
    ``x[2j] + i x[2j + 1]``, the inverse transform of ``n / 2`` stores the real rows; never one of length ``n``."""
    _skip_without_float64(dtype)
    host = _spectra((2, width or n // 2 + 1), dtype, seed=n)
    host[:, 0] += 2j  # ignored, as the imaginary part at n / 2 (NumPy)
    if width is None:
        host[:, -1] -= 1j
    x = kd.asarray(host)
    _close(kd.fft.irfft(x, n=n, norm=norm), np.fft.irfft(host, n=n, norm=norm))
    _close(kd.fft.hfft(x, n=n, norm=norm), np.fft.hfft(host, n=n, norm=norm))
    names = _launch_names(lambda: kd.fft.irfft(x, n=n, norm=norm))
    assert not any(f" {n}-point" in name for name in names)
    assert sum(name.startswith("Elementwise") for name in names) <= 4  # (the spectrum, its 0th entries; a pad)


def test_non_finite_values_stay_in_their_rows():
    """A NaN spreads over its row, an infinity leaves no entry of its row finite (which are NaN rather than inf
    depends on the order of operations: docs/fft.md, "Differences from NumPy"); the other rows are exact."""
    host = _spectra((4, 17))
    host[0, 4], host[1, 0], host[2, 16] = np.nan, np.inf, -np.inf + 1j
    got, want = kd.fft.irfft(kd.asarray(host)).numpy(), np.fft.irfft(host)
    assert np.isnan(got[0]).all() and np.isnan(want[0]).any()  # (NumPy leaves some finite)
    assert not np.isfinite(got[1:3]).any() and not np.isfinite(want[1:3]).any()
    np.testing.assert_allclose(got[3], want[3], rtol=2e-5, atol=2e-5 * np.abs(want[3]).max())


@pytest.mark.parametrize("shape,axis", [((8, 5), 0), ((3, 9, 4), 1)])
def test_other_axes(shape, axis):
    host = _spectra(shape)
    _close(kd.fft.irfft(kd.asarray(host), axis=axis), np.fft.irfft(host, axis=axis))
    _close(kd.fft.hfft(kd.asarray(host), axis=axis, norm="ortho"), np.fft.hfft(host, axis=axis, norm="ortho"))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape,s,axes", [((8, 5), None, (-2, -1)), ((6, 9), (6, 16), (0, 1)), ((2, 4, 7), None, None),
                                          ((4, 6, 3), None, (0, 2)), ((64, 33), None, (0, 1)),
                                          ((3, 16, 9), (16, 15), (1, 2))])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_irfftn_in_one_program(shape, s, axes, dtype, norm):
    _skip_without_float64(dtype)
    host = _spectra(shape, dtype)
    x = kd.asarray(host)
    _close(kd.fft.irfftn(x, s=s, axes=axes, norm=norm), np.fft.irfftn(host, s=s, axes=axes, norm=norm))
    last = (s or [None])[-1] or 2 * (shape[-1] - 1)
    if last % 2 == 0:
        names = _launch_names(lambda: kd.fft.irfftn(x, s=s, axes=axes, norm=norm))
        assert f"to real rows of {last}" in names[-1]
        assert not any(name.startswith("kernel") for name in names)  # no elementwise pass: FFT launches only


@pytest.mark.parametrize("shape,s,axes", [((4, 6, 3), None, (2, 0)), ((6, 9), (5, 16), (0, 1)), ((4, 4), None, (1, 1))])
def test_irfftn_other_plans(shape, s, axes):
    """The last axis not the array's last, another axis cut or padded, an axis twice: step by step, as before."""
    host = _spectra(shape)
    _close(kd.fft.irfftn(kd.asarray(host), s=s, axes=axes), np.fft.irfftn(host, s=s, axes=axes))


def test_irfft2_round_trip_and_warm_calls_replay():
    host = np.random.default_rng(3).standard_normal((32, 48)).astype(np.float32)
    spectrum = kd.fft.rfft2(kd.asarray(host))
    first = kd.fft.irfft2(spectrum, s=host.shape)
    again = kd.fft.irfft2(spectrum, s=host.shape)
    assert first is not again
    np.testing.assert_allclose(again.numpy(), host, rtol=1e-5, atol=1e-5)
    with kd.profile() as prof:
        kd.realize(kd.fft.irfft2(spectrum, s=host.shape))
    assert len(prof.records) == 2  # the inverse columns, then the real rows: one program


@pytest.mark.parametrize("shape", [(0, 5), (3, 0, 5)])
def test_empty_batches(shape):
    host = _spectra(shape)
    _close(kd.fft.irfft(kd.asarray(host)), np.fft.irfft(host))
