"""``kd.trapezoid`` / ``np.trapezoid`` of a ``kd.ma`` masked array against NumPy's of the same np.ma array: a
trapezoid with a masked end is left out (it was computed over the masked slots' data: 12 where NumPy says 6)."""

import numpy as np
import pytest

import kdsl as kd


def _both(data, mask):
    return kd.ma.array(data, mask=mask), np.ma.array(data, mask=mask)


def _same(got, want):
    if want is np.ma.masked:
        assert got is kd.ma.masked
        return
    want = np.ma.asarray(want)
    np.testing.assert_array_equal(np.ma.getmaskarray(got.to_numpy() if hasattr(got, "to_numpy") else
                                                     np.ma.asarray(np.asarray(got))), np.ma.getmaskarray(want))
    g = got.to_numpy() if hasattr(got, "to_numpy") else np.ma.asarray(np.asarray(got))
    np.testing.assert_allclose(np.ma.filled(g, 0), np.ma.filled(want, 0), rtol=1e-6)


@pytest.mark.parametrize("mask", [[0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]])
@pytest.mark.parametrize("kw", [{}, {"dx": 0.5}, {"x": [0.0, 1.0, 3.0, 4.0, 7.0]}])
def test_one_dimensional(mask, kw):
    k, n = _both(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), mask)
    _same(kd.trapezoid(k, **kw), np.trapezoid(n, **kw))
    _same(np.trapezoid(k, **kw), np.trapezoid(n, **kw))  # NumPy's function on a kd.ma array dispatches too


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_two_dimensional_with_spacing(axis):
    data = np.arange(12, dtype=np.float64).reshape(3, 4) ** 1.5
    mask = np.zeros((3, 4), bool)
    mask[0, 1] = mask[2, 3] = True
    k, n = _both(data, mask)
    x = np.linspace(0.0, 2.0, data.shape[axis]) ** 2
    _same(kd.trapezoid(k, x=x, axis=axis), np.trapezoid(n, x=x, axis=axis))
    _same(kd.trapezoid(k, axis=axis), np.trapezoid(n, axis=axis))
