"""``kd.ma.where(cond, kd.ma.masked, x)`` (and ``kd.where``/``np.where`` of kd.ma arrays, ``kd.ma.maximum``/
``minimum`` with ``masked``) against numpy.ma: NumPy's masked constant stands for a 0 of the other operand's
dtype (its own dtype is float64), so int32, uint8 and bool data keep their dtype; kdsl made the result float64
(or float32 for bool). With both operands masked the result is masked's float64."""

import numpy as np
import pytest

import kdsl as kd

DATA = [np.array([1, 2, 3, 4], np.int32), np.array([True, False, True, True]),
        np.array([1.5, -2.0, np.nan, 4.0], np.float32), np.array([7, 0, 255, 1], np.uint8),
        np.array([1.0, 2.0, 3.0, 4.0])]
COND = np.array([True, False, False, True])


def _same(expected, got):
    assert isinstance(got, kd.ma.MaskedArray)
    assert got.dtype.np == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(expected))
    keep = ~np.ma.getmaskarray(expected)
    np.testing.assert_array_equal(got.data.numpy()[keep], expected.data[keep])


@pytest.mark.parametrize("masked_first", [True, False])
@pytest.mark.parametrize("mask", [[0, 1, 0, 0], None])
@pytest.mark.parametrize("i", range(len(DATA)))
def test_where_with_the_masked_constant(i, mask, masked_first):
    data = DATA[i]
    host = np.ma.array(data, mask=np.ma.nomask if mask is None else mask)
    x = kd.ma.array(kd.asarray(data), mask=kd.ma.nomask if mask is None else mask)
    c, kc = (COND, kd.asarray(COND))
    if masked_first:
        expected = np.ma.where(c, np.ma.masked, host)
        for got in (kd.ma.where(kc, kd.ma.masked, x), kd.where(kc, kd.ma.masked, x),
                    kd.ma.where(kc[::-1][::-1], kd.ma.masked, x)):
            _same(expected, got)
        _same(np.ma.where(c, np.ma.masked, data), kd.ma.where(kc, kd.ma.masked, kd.asarray(data)))
    else:
        expected = np.ma.where(c, host, np.ma.masked)
        _same(expected, kd.ma.where(kc, x, kd.ma.masked))
        _same(expected, kd.where(kc, x, kd.ma.masked))
    _same(np.ma.maximum(host, np.ma.masked), kd.ma.maximum(x, kd.ma.masked))
    _same(np.ma.minimum(np.ma.masked, host), kd.ma.minimum(kd.ma.masked, x))


def test_both_masked_is_float64():
    _same(np.ma.where(COND, np.ma.masked, np.ma.masked), kd.ma.where(kd.asarray(COND), kd.ma.masked, kd.ma.masked))
