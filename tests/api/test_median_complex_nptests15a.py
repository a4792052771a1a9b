"""kd.median of complex data as NumPy's: the middle of NumPy's lexicographic order (real part, then imaginary
part), the mean of the two middle values for even lengths, a line's NaN element where it holds one (NumPy copies
the last sorted element: ``nan+0j`` or ``1+nanj``), ``nan+nanj`` for empty lines. kdsl raised TypeError ("complex
numbers have no order") although kd.sort has NumPy's order. nanmedian likewise, leaving out values with a NaN part.
quantile/percentile and their nan versions still refuse complex, as NumPy."""

import warnings

import numpy as np
import pytest

import kdsl as kd

NAN = float("nan")
DATA = [
    np.array([1 + 1j, 3, 2 - 1j]),
    np.array([3 + 0j, 1 - 2j, 1 + 2j, 0]),
    np.array([1 + 1j, complex(NAN, 0), 3]),
    np.array([1 + 1j, complex(1, NAN), 3, 4j]),
    np.array([2 - 1j]),
    np.array([1 + 1j, 1 - 1j, 1 + 0j, -1j, 1j, 0]),
]


def _np_median(a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.median(a, **kw)


def _same(got, want):
    got = got.numpy()
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_lines(data, dtype):
    a = data.astype(dtype)
    _same(kd.median(kd.asarray(a)), _np_median(a))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_axes_and_views(axis, keepdims):
    a = np.array([[1 + 1j, 2, 5j, -1], [3, 5j, complex(NAN, 1), 0], [0.5j, 0.5, 2 - 2j, 1 + 1j]])
    _same(kd.median(kd.asarray(a), axis=axis, keepdims=keepdims), _np_median(a, axis=axis, keepdims=keepdims))
    _same(kd.median(kd.asarray(a)[:, ::2], axis=axis), _np_median(a[:, ::2], axis=axis))
    _same(kd.median(kd.asarray(a).T, axis=axis), _np_median(a.T, axis=axis))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0)])
def test_empty(shape):
    a = np.zeros(shape, np.complex64)
    _same(kd.median(kd.asarray(a), axis=0), _np_median(a, axis=0))


def test_real_medians_unchanged():
    a = np.array([[1.0, NAN, 3.0], [4.0, -0.0, 2.0]])
    for data in (a, a.astype(np.float32), np.array([[3, 1, 2], [7, 7, 0]], np.int16)):
        _same(kd.median(kd.asarray(data), axis=1), _np_median(data, axis=1))


@pytest.mark.parametrize("fn", ["quantile", "percentile"])
def test_quantiles_still_refuse_complex(fn):
    with pytest.raises(TypeError, match="real numbers"):
        getattr(np, fn)(DATA[0], 0.5)
    with pytest.raises(TypeError, match="real numbers"):
        getattr(kd, fn)(kd.asarray(DATA[0]), 0.5)


NAN_LINES = np.array([[1 + 1j, complex(NAN, 0), 3, 4], [2 + 1j, complex(1, NAN), 1 - 1j, 0.5j],
                      [NAN, NAN, NAN, NAN], [1 + 1j, complex(NAN, 2), 2j, 5]])


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("axis", [1, -1, 0])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nanmedian(dtype, axis, keepdims):
    """nanmedian of complex lines: NumPy's order, values with a NaN part left out (kdsl raised TypeError)."""
    a = NAN_LINES.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.nanmedian(a, axis=axis, keepdims=keepdims)
    _same(kd.nanmedian(kd.asarray(a), axis=axis, keepdims=keepdims), want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.nanmedian(a[::2, ::-1], axis=axis)
    _same(kd.nanmedian(kd.asarray(a)[::2, ::-1], axis=axis), want)


def test_nanmedian_whole_and_empty():
    _same(kd.nanmedian(kd.asarray(NAN_LINES)), np.nanmedian(NAN_LINES))
    _same(kd.nanmedian(kd.asarray(NAN_LINES[1])), np.nanmedian(NAN_LINES[1]))
    empty = np.zeros((0, 2), np.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _same(kd.nanmedian(kd.asarray(empty), axis=0), np.nanmedian(empty, axis=0))


def test_nanquantile_still_refuses_complex():
    with pytest.raises(TypeError, match="real numbers"):
        np.nanquantile(NAN_LINES, 0.5)
    with pytest.raises(TypeError, match="real numbers"):
        kd.nanquantile(kd.asarray(NAN_LINES), 0.5)
