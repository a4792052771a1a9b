"""``kd.ma.median(x, axis=None, keepdims=True)`` against NumPy's: NumPy reshapes its scalar median, so the result
is a plain array of ones in every axis (a fully masked masked array where every entry is masked); kdsl gave a
masked array with nothing masked."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

DATA = np.array([[1.0, 2.0, 9.0], [3.0, 4.0, -0.5]])


@pytest.mark.parametrize("mask", [None, [[0, 0, 0], [0, 0, 0]], [[1, 0, 0], [0, 1, 0]], [[1, 1, 1], [1, 1, 1]]])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_flat_median_keepdims(mask, dtype):
    data = DATA.astype(dtype)
    h = np.ma.array(data, mask=np.ma.nomask if mask is None else mask)
    x = kd.ma.array(kd.asarray(data), mask=kd.ma.nomask if mask is None else mask)
    expected, got = np.ma.median(h, axis=None, keepdims=True), kd.ma.median(x, axis=None, keepdims=True)
    assert isinstance(got, kd.ma.MaskedArray) == isinstance(expected, np.ma.MaskedArray)
    assert got.shape == expected.shape and got.dtype.np == expected.dtype
    if isinstance(expected, np.ma.MaskedArray):
        np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(expected))
    else:
        np.testing.assert_allclose(got.numpy(), expected)


def test_other_axes_keep_their_masked_result():  # (0, 1) is every axis: a plain array, as axis=None
    h = np.ma.array(DATA, mask=[[1, 0, 0], [0, 1, 0]])
    x = kd.ma.array(kd.asarray(DATA), mask=[[1, 0, 0], [0, 1, 0]])
    for axis in (0, 1, (0, 1)):
        expected, got = np.ma.median(h, axis=axis, keepdims=True), kd.ma.median(x, axis=axis, keepdims=True)
        assert isinstance(got, kd.ma.MaskedArray) == isinstance(expected, np.ma.MaskedArray), axis
        got_values = got.filled(0).numpy() if isinstance(got, kd.ma.MaskedArray) else got.numpy()
        np.testing.assert_allclose(got_values, np.ma.filled(expected, 0))
