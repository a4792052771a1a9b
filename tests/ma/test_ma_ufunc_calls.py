"""NumPy's ufuncs on kd.ma arrays against numpy.ma (``np.sqrt(x)``, ``kd.sqrt(x)``, ``-x``, ``np.add(x, 1.0)``...):
the ufunc on the whole data, wrapped by numpy.ma's ``__array_wrap__``: the data under the mask is the function's
value (kdsl kept the input's there, as numpy.ma's own functions do), a unary domain (``sqrt`` of x < 0, ``log``
of x <= 0) is masked and filled with numpy.ma's fill for the function, also at masked entries, non-finite
results stay unmasked (kdsl masked them), a Python scalar is weak (``np.arctan2(float32, 0.0)`` is float32; kdsl
gave float64), and ``divide``/``remainder`` mask an infinite dividend over 0 (kdsl's float32 tolerance flushed to 0).
numpy.ma's own functions (``np.ma.sqrt``, ``kd.ma.sqrt``) keep their own rules: both are compared here."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd

DATA = [np.array([4.0, -1.0, 0.0, np.nan, np.inf, -0.0, 9.0, -np.inf, 1.0, 0.5], np.float32),
        np.array([4.0, -1.0, 0.0, np.nan, np.inf, -0.0, 9.0, 1.0, 1 - 2.0 ** -53, -1 + 2.0 ** -52]),
        np.array([4, -1, 0, 9, 1, 2], np.int32), np.array([[0.25, -4.0], [16.0, 2.0]], np.float32).T,
        np.array([], np.float32), np.array([2.0], np.float32), np.array(-2.0), np.array(3.0, np.float32)]
MASKS = ["some", "nomask", "all"]
UNARY = ["sqrt", "log", "log2", "log10", "arcsin", "arccos", "arccosh", "arctanh", "exp", "reciprocal",
         "negative", "absolute", "sin", "floor", "isnan", "log1p", "square"]


def _pair(i, kind):
    data = DATA[i]
    if kind == "nomask":
        mask = np.ma.nomask
    elif kind == "all":
        mask = np.ones(data.shape, bool)
    else:
        mask = (np.arange(data.size) % 3 == 2).reshape(data.shape)
    return np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=mask if mask is np.ma.nomask
                                                      else kd.asarray(mask))


def _same(expected, got, rtol=2e-6):
    if expected is np.ma.masked:
        assert got is kd.ma.masked
        return
    if not isinstance(expected, np.ma.MaskedArray):  # numpy.ma's functions give a 0-d result's value: kdsl's 0-d
        assert isinstance(got, kd.Array) and got.shape == () and got.dtype.np == np.asarray(expected).dtype
        np.testing.assert_allclose(got.numpy(), expected, rtol=rtol, equal_nan=True)
        return
    assert isinstance(got, kd.ma.MaskedArray), type(got)
    assert got.dtype.np == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(expected))
    # the data under the mask too (NaN equal to NaN); float results to rounding (GPU math vs NumPy's)
    np.testing.assert_allclose(got.data.numpy(), expected.data, rtol=rtol, atol=0, equal_nan=True)
    assert got.fill_value == expected.fill_value


def _run(f, a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(a)


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("i", range(len(DATA)))
@pytest.mark.parametrize("name", UNARY)
def test_numpy_ufunc_on_a_masked_array(name, i, kind):
    host, x = _pair(i, kind)
    expected = _run(getattr(np, name), host)
    _same(expected, _run(getattr(np, name), x))
    _same(expected, _run(getattr(kd, name), x))


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("i", range(len(DATA)))
@pytest.mark.parametrize("name", [n for n in UNARY if hasattr(np.ma, n)])
def test_numpy_ma_function(name, i, kind):
    host, x = _pair(i, kind)
    _same(_run(getattr(np.ma, name), host), _run(getattr(kd.ma, name), x))


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("i", [0, 2, 3, 5])
def test_operators_compute_under_the_mask(i, kind):
    host, x = _pair(i, kind)
    _same(-host, -x)
    _same(abs(host), abs(x))
    if host.dtype.kind in "iu":
        _same(~host, ~x)


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("i", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("name", ["add", "arctan2", "divide", "floor_divide", "remainder", "fmod", "power",
                                  "less", "equal", "hypot", "maximum"])
@pytest.mark.parametrize("other", [0, 2, "self"])
def test_numpy_binary_ufunc_on_a_masked_array(name, i, kind, other):
    host, x = _pair(i, kind)
    if host.dtype.kind == "f" and not isinstance(other, str):
        other = float(other)  # (a Python float next to int data is float32 in kdsl: docs/numpy-api.md)
    o_np, o_kd = (host[::-1], x[::-1]) if isinstance(other, str) else (other, other)
    if name == "power" and host.dtype.kind == "i" and isinstance(other, str):  # negative integer exponents
        for f in (lambda: np.power(host, o_np), lambda: np.power(x, o_kd), lambda: kd.power(x, o_kd)):
            with pytest.raises(ValueError, match="negative integer powers"):
                f()
        return
    expected = _run(lambda a: getattr(np, name)(a, o_np), host)
    _same(expected, _run(lambda a: getattr(np, name)(a, o_kd), x))
    _same(expected, _run(lambda a: getattr(kd, name)(a, o_kd), x))


@pytest.mark.parametrize("name", ["divide", "floor_divide", "remainder", "fmod"])
def test_numpy_ma_division_masks_an_infinite_dividend(name):
    host = np.ma.array(np.array([np.inf, -np.inf, 1.0, np.nan], np.float32), mask=[0, 0, 0, 1])
    x = kd.ma.array(kd.asarray(host.data), mask=[0, 0, 0, 1])
    for divisor in (0.0, 0, np.array([0.0, 0.0, 2.0, 0.0], np.float32)):
        d_kd = kd.asarray(divisor) if isinstance(divisor, np.ndarray) else divisor
        _same(_run(lambda a, d=divisor: getattr(np, name)(a, d), host),
              _run(lambda a, d=d_kd: getattr(np, name)(a, d), x))
        _same(_run(lambda a, d=divisor: getattr(np.ma, name)(a, d), host),
              _run(lambda a, d=d_kd: getattr(kd.ma, name)(a, d), x))
    h2, x2 = host.copy(), kd.ma.array(kd.asarray(host.data), mask=[0, 0, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        h2 /= 0.0
    x2 /= 0.0
    _same(h2, x2)


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("i", [0, 1, 3, 5, 6])
@pytest.mark.parametrize("decimals", [0, 1, -1])
def test_round_rounds_the_data_under_the_mask(i, kind, decimals):
    host, x = _pair(i, kind)
    host, x = host * 2.75, x * 2.75  # halves and quarters: rounding changes them
    for f_np, f_kd in ((lambda a: a.round(decimals), lambda a: a.round(decimals)),
                       (lambda a: np.round(a, decimals), lambda a: np.round(a, decimals)),
                       (lambda a: np.ma.round(a, decimals), lambda a: kd.ma.round(a, decimals))):
        expected, got = _run(f_np, host), _run(f_kd, x)
        if isinstance(expected, np.generic):  # a 0-d unmasked result: NumPy's scalar, kdsl's 0-d array
            expected = np.ma.array(expected)
            got = kd.ma.array(got)
        _same(expected, got)
