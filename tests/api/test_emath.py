"""kd.emath (kdsl/frontend/array/emath.py) against np.emath: values and the data-dependent dtype."""

import warnings

import numpy as np
import pytest

import kdsl as kd

DOMAIN = {"sqrt": "neg", "log": "neg", "log2": "neg", "log10": "neg", "arccos": "abs", "arcsin": "abs",
          "arctanh": "abs"}
DTYPES = ["float32", "float64", "int8", "int16", "int32", "int64", "uint8"]


def _inputs(kind, dtype):
    inside = np.array([0, 1, 0, 1, 1, 0]) if kind == "abs" else np.array([1, 4, 9, 2, 0, 3])
    outside = np.array([-3, 1, 0, 2, -1, 0])
    return [inside.astype(dtype), outside.astype(dtype)]


def _check(got, want):
    assert got.dtype.np == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-6 if want.dtype in (np.complex64, np.float32) else 1e-12,
                               atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", DOMAIN)
def test_functions_match_numpy(name, dtype):
    for host in _inputs(DOMAIN[name], dtype):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(np.emath, name)(host)
        _check(getattr(kd.emath, name)(kd.asarray(host)), want)


@pytest.mark.parametrize("view", [lambda a: a[::2], lambda a: a.T, lambda a: a[:, :1]])
def test_views_and_complex_input(view):
    host = np.array([[-2.0, 0.5, 3.0], [4.0, -0.25, 1.5]])
    for name in DOMAIN:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _check(getattr(kd.emath, name)(view(kd.asarray(host))), getattr(np.emath, name)(view(host)))
    z = np.array([1 + 2j, -3 + 0j, 0.5 - 1j])
    _check(kd.emath.sqrt(kd.asarray(z)), np.emath.sqrt(z))


def test_special_values_and_empty():
    host = np.array([-np.inf, -0.0, 0.0, np.nan, np.inf])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("sqrt", "log"):
            _check(getattr(kd.emath, name)(kd.asarray(host)), getattr(np.emath, name)(host))
    _check(kd.emath.sqrt(kd.zeros(0, dtype=kd.float64)), np.emath.sqrt(np.zeros(0)))


@pytest.mark.parametrize("base", [2, -2, 10.0])
def test_logn(base):
    host = np.array([1.0, 4.0, -8.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _check(kd.emath.logn(base, kd.asarray(host)), np.emath.logn(base, host))


@pytest.mark.parametrize("exponent", [2, -1, 0.5, 1 / 3, [1, -2, 3]])
@pytest.mark.parametrize("base", [[2, 3, 4], [-2.0, 3.0, 0.5], [2.0, 3.0, 4.0], np.array([-8.0, 4.0], np.float32)])
def test_power(base, exponent):
    hb, he = np.array(base), np.array(exponent) if isinstance(exponent, list) else exponent
    if isinstance(exponent, list) and len(exponent) != hb.shape[0]:
        he = np.array(exponent[:hb.shape[0]])
    kb = kd.asarray(hb)
    ke = kd.asarray(he) if isinstance(exponent, list) else exponent
    _check(kd.emath.power(kb, ke), np.emath.power(hb, he))


def test_bad_input():
    with pytest.raises(TypeError):
        kd.emath.sqrt(object())
