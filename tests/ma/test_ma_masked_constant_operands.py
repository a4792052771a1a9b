"""``kd.ma.masked`` (NumPy's ``np.ma.masked``) on the left of kd.ma arrays' arithmetic against NumPy's: a fully
masked result of NumPy's shape, dtype, data and fill value. NumPy's operators ran first and failed with "kdsl
arrays have no subclasses" (kd.ma arrays now read ``__array_ufunc__ = None`` to numpy.ma's delegation check).
numpy.ma's comparisons never delegate: ``kd.ma.masked < x`` (and a NumPy masked array compared with a kd.ma one)
raised TypeError; numpy.ma's own comparison now ends in a kd.ma array (``numpy_ma_results.py``): NumPy's fully
masked result, data (``==``/``!=``: equal where both are masked) and fill value."""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest

import kdsl as kd

ARITHMETIC = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.pow,
              operator.mod]
DATA = [(np.array([1.0, 2.0, 3.0]), [0, 1, 0]), (np.array([1, 2, 3], np.int32), None),
        (np.array([[1, 2], [3, 4]], np.int16), [[0, 1], [0, 0]]), (np.array(2.5, np.float32), None),
        (np.array([], np.float32), None), (np.array([True, False]), None),
        (np.array([-0.0, np.nan, np.inf]), [1, 0, 0])]


def _pair(i):
    data, mask = DATA[i]
    host = np.ma.array(data, mask=np.ma.nomask if mask is None else mask)
    return host, kd.ma.array(kd.asarray(data), mask=kd.ma.nomask if mask is None else mask)


def _outcome(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            r = call()
        except TypeError:
            return TypeError
    if r is np.ma.masked:
        return "masked"
    if isinstance(r, kd.ma.MaskedArray):
        return str(r.dtype.np), r.shape, kd.ma.getmaskarray(r).numpy().tolist(), r.data.numpy().tolist(), \
            r.fill_value
    return str(r.dtype), r.shape, np.ma.getmaskarray(r).tolist(), r.data.tolist(), r.fill_value


def _same(expected, got):
    if not isinstance(expected, tuple):
        assert got == expected
        return
    assert got[:3] == expected[:3]
    np.testing.assert_array_equal(np.asarray(got[3]), np.asarray(expected[3]))  # data under the mask, NaN too
    assert got[4] == expected[4]


@pytest.mark.parametrize("op", ARITHMETIC)
@pytest.mark.parametrize("i", range(len(DATA)))
def test_masked_constant_on_either_side(op, i):
    host, x = _pair(i)
    _same(_outcome(lambda: op(np.ma.masked, host)), _outcome(lambda: op(kd.ma.masked, x)))
    _same(_outcome(lambda: op(host, np.ma.masked)), _outcome(lambda: op(x, kd.ma.masked)))


def test_kd_ma_arrays_still_run_numpy_ufuncs():
    host, x = _pair(0)
    got = np.add(x, x)
    assert isinstance(got, kd.ma.MaskedArray)
    np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(np.add(host, host)))
    assert type(x).__array_ufunc__ is not None  # NumPy's C dispatch reads the class's


COMPARISONS = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("i", range(len(DATA)))
def test_masked_constant_compared_on_either_side(op, i):
    host, x = _pair(i)
    _same(_outcome(lambda: op(host, np.ma.masked)), _outcome(lambda: op(x, kd.ma.masked)))
    if host.ndim == 0:  # NumPy's masked; kdsl wraps numpy.ma's result: a 0-d masked array (docs/numpy-api.md)
        assert _outcome(lambda: op(np.ma.masked, host)) == "masked"
        assert _outcome(lambda: op(kd.ma.masked, x))[:3] == ("bool", (), True)
        _reads_as_masked(op(kd.ma.masked, x))
        return
    _same(_outcome(lambda: op(np.ma.masked, host)), _outcome(lambda: op(kd.ma.masked, x)))


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("fill", [None, 5.0])
def test_numpy_masked_array_compared_with_a_kd_ma_array(op, fill):
    # numpy.ma's comparison runs first (it never defers): its result is a kd.ma array of NumPy's values
    left = np.ma.array([1.0, 2.0, np.nan, 4.0, -0.0], mask=[1, 0, 0, 0, 0], fill_value=fill)
    right = np.ma.array([1.0, 3.0, np.nan, 4.0, 0.0], mask=[1, 1, 0, 0, 0])
    x = kd.ma.array(kd.asarray(right.data), mask=right.mask)
    got = op(left, x)
    assert isinstance(got, kd.ma.MaskedArray)
    _same(_outcome(lambda: op(left, right)), _outcome(lambda: got))
    got_nomask = op(np.ma.array([1.0, 2.0]), kd.ma.array([2.0, 2.0]))
    _same(_outcome(lambda: op(np.ma.array([1.0, 2.0]), np.ma.array([2.0, 2.0]))), _outcome(lambda: got_nomask))


def _reads_as_masked(got):
    """A 0-d fully masked kd.ma result where numpy.ma gives ``masked``: it prints, tests and fills as ``masked``."""
    assert str(got) == str(np.ma.masked) and bool(got) is bool(np.ma.masked) is False
    assert got.data.item() == np.ma.masked.data.item() == 0
    assert got.filled(True).item() is True and got.count() == np.ma.masked.count() == 0


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("left_mask, right_mask", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("values", [(1, 2), (2.0, 1.0), (np.nan, 0.0), (-0.0, 0.0)])
def test_zero_d_numpy_masked_compared_with_kd_ma(op, left_mask, right_mask, values):
    # numpy.ma's own comparison (a host masked array on the left) gives masked for a masked 0-d pair: kdsl's wrapped
    # result has masked's data (0), so bool() is False as NumPy's, not the comparison's data
    left = np.ma.array(values[0], mask=left_mask)
    assert op(left, np.ma.array(values[1], mask=right_mask)) is np.ma.masked
    _reads_as_masked(op(left, kd.ma.array(values[1], mask=right_mask)))


def test_zero_d_unmasked_comparison_keeps_its_value():
    got = np.ma.array(1) < kd.ma.array(2)
    assert bool(got) is bool(np.ma.array(1) < np.ma.array(2)) is True
    got = np.ma.array([1, 3], mask=[1, 0]) < kd.ma.array(2)  # n-d: NumPy's data under the mask, not zeroed
    assert got.data.tolist() == (np.ma.array([1, 3], mask=[1, 0]) < np.ma.array(2)).data.tolist() == [True, False]


GUFUNCS = [np.matmul, np.vecdot, np.matvec, np.vecmat, operator.matmul]


def _error(call):
    try:
        call()
    except (TypeError, ValueError) as e:
        return type(e), str(e)
    raise AssertionError("no error")


@pytest.mark.parametrize("fn", GUFUNCS)
@pytest.mark.parametrize("shape", [(2,), (2, 2), (0,), (1, 3, 3)])
def test_masked_constant_in_a_matrix_product(fn, shape):
    # np.ma.masked is 0-d: NumPy's gufunc refuses it (ValueError naming the operand); kd.ma's "no masked matmul"
    # TypeError came first before
    host = np.ma.array(np.ones(shape), mask=np.zeros(shape, bool))
    x = kd.ma.array(kd.ones(shape, dtype=kd.float64), mask=np.zeros(shape, bool))
    assert _error(lambda: fn(kd.ma.masked, x)) == _error(lambda: fn(np.ma.masked, host))
    assert _error(lambda: fn(x, kd.ma.masked)) == _error(lambda: fn(host, np.ma.masked))
    if fn is not operator.matmul:
        assert _error(lambda: getattr(kd, fn.__name__)(kd.ma.masked, x)) == _error(lambda: fn(np.ma.masked, host))
