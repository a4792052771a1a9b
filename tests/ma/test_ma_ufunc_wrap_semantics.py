"""kd.ma arrays under NumPy's ufunc semantics (``%``, ``&``..., which numpy.ma leaves to ndarray's operators, and
``np.remainder``/``np.divide``/``np.power``... called on masked arrays): numpy.ma's ``__array_wrap__`` masks the
inputs' masks and the division family's domain (writing 1 there), leaves non-finite results unmasked, and keeps
a Python scalar weak (int32 data % 3 is int32). kd.ma masked NaN results of ``%``, gave int64/float64 for a
Python scalar, and ran np.ma's functions for those ufuncs."""

from __future__ import annotations

import itertools
import operator
import warnings

import numpy as np
import pytest

import kdsl as kd

FLOATS = (np.array([1.0, 2.0, 3.0, np.nan, -0.0, np.inf, -5.5, 0.0]),
          np.array([0.0, 2.0, 0.0, 1.0, 3.0, 2.0, 2.0, -0.0]))
INTS = (np.array([1, 2, 3, -7, 0, 5], np.int32), np.array([0, 2, 0, 3, 4, -2], np.int32))


def _masked(lib, data, kind):
    if np.ndim(data) == 0:
        return data
    mask = None if kind is None else np.arange(data.size) % 3 == 0
    if lib is np:
        return np.ma.array(data, mask=np.ma.nomask if mask is None else mask)
    return kd.ma.array(kd.asarray(data), mask=kd.ma.nomask if mask is None else mask)


def _check(expected, got):
    assert isinstance(got, kd.ma.MaskedArray)
    assert got.dtype.np == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(expected))
    assert (got.mask is kd.ma.nomask) == (expected.mask is np.ma.nomask)
    np.testing.assert_array_equal(got.data.numpy(), expected.data)  # data under the mask too (NaN equal)


PAIRS = [FLOATS, INTS, (FLOATS[0], 2.0), (INTS[0], 3), (FLOATS[0], FLOATS[1][::-1])]


@pytest.mark.parametrize("pair", range(len(PAIRS)))
@pytest.mark.parametrize(("ma", "mb"), list(itertools.product([None, "some"], repeat=2)))
@pytest.mark.parametrize("swap", [False, True])
def test_remainder_operator(pair, ma, mb, swap):
    a, b = PAIRS[pair]
    ha, hb, ka, kb = _masked(np, a, ma), _masked(np, b, mb), _masked(kd, a, ma), _masked(kd, b, mb)
    if swap:
        ha, hb, ka, kb = hb, ha, kb, ka
    if np.ndim(ha) == 0:  # a Python scalar first: the masked array's reflected operator, tested unswapped
        return
    with np.errstate(all="ignore"):
        _check(ha % hb, ka % kb)


@pytest.mark.parametrize("name", ["remainder", "divide", "floor_divide", "power", "fmod"])
@pytest.mark.parametrize("pair", [0, 1, 4])
def test_division_family_ufuncs(name, pair):
    a, b = PAIRS[pair]
    ha, hb, ka, kb = _masked(np, a, "some"), _masked(np, b, None), _masked(kd, a, "some"), _masked(kd, b, None)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            expected = getattr(np, name)(ha, hb)
        except ValueError as err:  # integers to negative integer powers
            for fn in (getattr(np, name), getattr(kd, name)):
                with pytest.raises(ValueError, match=str(err)):
                    fn(ka, kb)
            return
        _check(expected, getattr(np, name)(ka, kb))
        _check(expected, getattr(kd, name)(ka, kb))


@pytest.mark.parametrize("op", [operator.mod, operator.and_, operator.or_, operator.xor, operator.lshift,
                                operator.rshift])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16])
def test_python_scalar_stays_weak(op, dtype):
    data = np.array([1, 2, 3, 4], dtype)
    h, k = np.ma.array(data, mask=[0, 1, 0, 0]), kd.ma.array(kd.asarray(data), mask=[0, 1, 0, 0])
    _check(op(h, 3), op(k, 3))
    _check(op(3, h), op(3, k))


def test_numpy_array_first_is_numpy_masked_arrays_reflected_operator():
    plain = np.linspace(-1.0, 2.0, 4)
    data = np.array([0.0, 2.0, np.inf, 0.5])
    h, k = np.ma.array(data, mask=[0, 1, 0, 0]), kd.ma.array(kd.asarray(data), mask=[0, 1, 0, 0])
    with np.errstate(all="ignore"):
        for op in (operator.truediv, operator.pow, operator.mod):
            expected, got = op(plain, h), op(plain, k)
            np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(expected))
