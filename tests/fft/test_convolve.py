"""kd.convolve / kd.correlate against NumPy: both paths (direct, FFT), every mode, dtypes, swapped lengths."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.fft import convolve as conv_module

SHAPES = [(1, 1), (5, 3), (3, 5), (10, 10), (40, 33), (33, 40), (100, 7), (300, 64)]


@pytest.mark.parametrize("n,m", SHAPES)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_float_matches_numpy(n, m, mode, fn):
    rng = np.random.default_rng(n * 1000 + m)
    a, v = rng.standard_normal(n).astype(np.float32), rng.standard_normal(m).astype(np.float32)
    want = getattr(np, fn)(a, v, mode)
    got = getattr(kd, fn)(kd.asarray(a), kd.asarray(v), mode)
    assert got.dtype == kd.float32
    np.testing.assert_allclose(got.numpy(), want, atol=1e-4 * max(1, np.abs(want).max()))


@pytest.mark.parametrize("n,m", [(6, 4), (50, 40)])
def test_integers_are_exact_on_both_paths(n, m):
    rng = np.random.default_rng(0)
    a, v = rng.integers(-100, 100, n).astype(np.int32), rng.integers(-100, 100, m).astype(np.int32)
    for fn in ("convolve", "correlate"):
        got = getattr(kd, fn)(kd.asarray(a), kd.asarray(v), "full")
        assert got.dtype == kd.int32
        assert np.array_equal(got.numpy(), getattr(np, fn)(a, v, "full"))


@pytest.mark.parametrize("dtype, scale, n, m", [(np.int64, 255, 4096, 4096), (np.int64, 1000, 2000, 2000),
                                                (np.int32, 2**28, 100, 40), (np.uint8, 7, 70, 33),
                                                (np.int16, 3000, 33, 300)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_long_integer_convolutions_are_exact(dtype, scale, n, m, mode):
    """Past DIRECT_LIMIT integers were convolved through float64 FFTs, whose rounding grows with the values:
    276 outputs of arange(4096) * 255 with itself were one off, where NumPy's direct sum is exact (and wraps:
    the int32 and uint8 rows overflow as NumPy's do)."""
    a = (np.arange(n) * scale).astype(dtype)
    v = (np.arange(m)[::-1] * scale + 1).astype(dtype)
    for fn in ("convolve", "correlate"):
        got = getattr(kd, fn)(kd.asarray(a), kd.asarray(v), mode)
        want = getattr(np, fn)(a, v, mode)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


def test_long_bool_convolution_is_numpys():
    rng = np.random.default_rng(3)
    a, v = rng.integers(0, 2, 300).astype(bool), rng.integers(0, 2, 50).astype(bool)
    for mode in ("full", "same", "valid"):
        np.testing.assert_array_equal(kd.convolve(kd.asarray(a), kd.asarray(v), mode).numpy(),
                                      np.convolve(a, v, mode))


def test_int8_wraps_as_numpy():
    a, v = np.array([1, 2], np.int8), np.array([100, 100], np.int8)
    assert np.array_equal(kd.convolve(kd.asarray(a), kd.asarray(v)).numpy(), np.convolve(a, v))


def test_complex_correlation_conjugates_v():
    a = np.array([1 + 1j, 2, 3 - 1j], np.complex64)
    v = np.array([1j, 2, 0.5], np.complex64)
    for mode in ("full", "same", "valid"):
        np.testing.assert_allclose(kd.correlate(kd.asarray(a), kd.asarray(v), mode).numpy(),
                                   np.correlate(a, v, mode), atol=1e-5)
        np.testing.assert_allclose(kd.convolve(kd.asarray(a), kd.asarray(v), mode).numpy(),
                                   np.convolve(a, v, mode), atol=1e-5)


def test_long_complex_goes_through_fft(monkeypatch):
    monkeypatch.setattr(conv_module, "DIRECT_LIMIT", 2)
    rng = np.random.default_rng(1)
    a = (rng.standard_normal(20) + 1j * rng.standard_normal(20)).astype(np.complex64)
    v = (rng.standard_normal(7) + 1j * rng.standard_normal(7)).astype(np.complex64)
    np.testing.assert_allclose(kd.convolve(kd.asarray(a), kd.asarray(v)).numpy(), np.convolve(a, v), atol=1e-4)


def test_views_and_numpy_dispatch():
    a = np.arange(20, dtype=np.float32)
    got = np.convolve(kd.asarray(a)[::2], kd.asarray([1.0, -1.0]))
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.convolve(a[::2], [1.0, -1.0]))


@pytest.mark.parametrize("args,match", [(([], [1.0]), "a cannot be empty"), (([1.0], []), "v cannot be empty"),
                                        (([[1.0]], [1.0]), "1-D"), (([1.0], [1.0], "middle"), "mode")])
def test_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        kd.convolve(*[kd.asarray(np.asarray(x, np.float32)) if isinstance(x, list) else x for x in args])


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", [0, 1, 2, np.int64(1)])
def test_numpys_legacy_integer_modes(fn, mode):
    a, v = np.array([1.0, 2.0, 3.0, 5.0]), np.array([0.0, 1.0, 0.5])
    np.testing.assert_allclose(getattr(kd, fn)(kd.asarray(a), kd.asarray(v), mode).numpy(),
                               getattr(np, fn)(a, v, mode), atol=1e-6)


@pytest.mark.parametrize("mode, error", [(3, ValueError), (-1, ValueError), (None, TypeError), (True, TypeError),
                                         (1.0, TypeError), ("FULL", ValueError)])
def test_bad_modes_raise_numpys_exception(mode, error):
    with pytest.raises(error):
        np.convolve([1.0, 2.0], [1.0], mode)
    with pytest.raises(error, match="mode"):
        kd.convolve(kd.asarray([1.0, 2.0]), kd.asarray([1.0]), mode)
