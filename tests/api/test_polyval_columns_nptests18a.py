"""``kd.polyval(p, x)`` with coefficients of several dimensions evaluates each column as NumPy's (Horner's step
``y * x + p[i]`` broadcasts the row ``p[i]``; kdsl raised ValueError); ``kd.polynomial``'s value functions keep
a Python number ``x`` weak as NumPy's (float32 coefficients give float32; kdsl gave float64)."""

import numpy as np
import pytest

import kdsl as kd

COEFFICIENTS = {
    "columns": np.arange(6.0).reshape(3, 2) - 2.5,
    "stacked": np.arange(24.0).reshape(4, 3, 2) / 7,
    "strided": (np.arange(12.0).reshape(4, 3) / 3)[::-1, ::2],
    "ints": np.arange(6, dtype=np.int32).reshape(3, 2),
    "size1": np.array([[2.5]]),
    "no_columns": np.ones((3, 0)),
    "no_rows": np.ones((0, 2)),
    "nonfinite": np.array([[np.nan, 1.0], [np.inf, -2.0]]),
    "float32": np.float32([[1.5, -2.0], [0.25, 3.0], [1.0, 1.0]]),
}
POINTS = [2.0, 3, np.array([[0.5], [-1.0], [2.0]]), np.array([1.5, -0.5]), np.array([1.0, 2.0, 3.0]),
          np.zeros((0, 1))]


def _value(mod, p, x):
    xs = (np.asarray if mod is np else kd.asarray)(x) if isinstance(x, np.ndarray) else x
    try:
        r = mod.polyval((np.asarray if mod is np else kd.asarray)(p), xs)
    except ValueError:
        return "ValueError"
    return np.asarray(r)


@pytest.mark.parametrize("name", COEFFICIENTS)
def test_polyval_of_coefficient_columns_matches_numpy(name):
    p = COEFFICIENTS[name]
    for x in POINTS:
        want, got = _value(np, p, x), _value(kd, p, x)
        if isinstance(want, str) or isinstance(got, str):
            assert got == want, (x, got)
            continue
        assert got.shape == want.shape, x
        if isinstance(x, np.ndarray):  # a Python number x is an int32/float32 array in kdsl (its default types)
            assert got.dtype == want.dtype, x
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_np_polyval_dispatches_columns():
    p = COEFFICIENTS["columns"]
    got = np.polyval(kd.asarray(p), kd.asarray([[1.0], [2.0]]))
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.polyval(p, np.array([[1.0], [2.0]])))


FAMILIES = [("polynomial", "polyval"), ("chebyshev", "chebval"), ("legendre", "legval"), ("hermite", "hermval"),
            ("hermite_e", "hermeval"), ("laguerre", "lagval")]


@pytest.mark.parametrize("family, fn", FAMILIES)
@pytest.mark.parametrize("x", [1.5, 2, np.float64(0.5), [0.5, 1.0, 2.0]], ids=repr)
@pytest.mark.parametrize("tensor", [True, False])
def test_series_values_keep_python_numbers_weak(family, fn, x, tensor):
    c = np.float32([[1.0, 2.0], [0.5, -1.0], [0.25, 3.0]])
    if isinstance(x, list) and not tensor:
        c = c[:, :1]  # one series, broadcast against the three points
    want = getattr(getattr(np.polynomial, family), fn)(x, c, tensor=tensor)
    got = getattr(getattr(kd.polynomial, family), fn)(x, kd.asarray(c), tensor=tensor)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


@pytest.mark.parametrize("x", [1.5, 2, np.float64(0.5)], ids=repr)
def test_values_from_roots_keep_python_numbers_weak(x):
    r = np.float32([[1.0, 2.0], [0.5, -1.0]])
    want = np.polynomial.polynomial.polyvalfromroots(x, r)
    got = kd.polynomial.polynomial.polyvalfromroots(x, kd.asarray(r))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
