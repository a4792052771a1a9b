"""A ``kd.polynomial`` series called at float32, float16, integer or complex64 points gives NumPy's float64
(complex128) values: NumPy maps the points through its float64 domain first, where kdsl's ``mapparms`` gave
Python floats and the values stayed float32, rounded there. ``mapparms`` (and so ``mapdomain``) now returns
NumPy scalars for array domains and Python numbers for lists, as NumPy's."""

import numpy as np
import pytest

import kdsl as kd

KINDS = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]
POINTS = {
    "float32": np.array([0.1, -0.7, 2.5, 0.0], np.float32),
    "float16": np.array([0.5, -1.25], np.float16),
    "int8": np.array([1, -2, 3], np.int8),
    "complex64": np.array([1 + 2j, -0.5j], np.complex64),
    "strided": np.linspace(-1, 1, 9, dtype=np.float32)[::-2],
    "empty": np.zeros(0, np.float32),
    "one": np.array([[0.3]], np.float32),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("points", list(POINTS))
@pytest.mark.parametrize("domain", [None, [0.0, 4.0]])
def test_series_values_at_narrow_points_are_numpys(kind, points, domain):
    coef = [1.0, -2.0, 0.5, 3.0]
    expected = getattr(np.polynomial, kind)(coef, domain=domain)(POINTS[points])
    got = getattr(kd.polynomial, kind)(coef, domain=domain)(kd.asarray(POINTS[points]))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-13, atol=1e-13)


def test_fit_of_float32_data_evaluates_in_float64():
    x = np.linspace(0.1, 2.5, 30, dtype=np.float32)
    y = (x ** 3 - x).astype(np.float32)
    expected = np.polynomial.Polynomial.fit(x, y, 3)(x)
    got = kd.polynomial.Polynomial.fit(kd.asarray(x), kd.asarray(y), 3)(kd.asarray(x))
    assert got.dtype == expected.dtype == np.float64
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("old", "new"), [([-1.0, 1.0], [0.0, 10.0]), ([0, 4], [-1, 1]),
                                          (np.array([-1.0, 1.0]), np.array([0.0, 10.0])),
                                          (np.array([0, 4], np.float32), np.array([-1, 1], np.float32)),
                                          (np.array([0, 3]), [-1.0, 1.0])], ids=repr)
def test_mapparms_types_are_numpys(old, new):
    expected = np.polynomial.polyutils.mapparms(old, new)
    got = kd.polynomial.polyutils.mapparms(old, new)
    assert [type(v) for v in got] == [type(v) for v in expected]
    assert got == expected


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16])
@pytest.mark.parametrize("ends", [([0, 1], [-1, 1]), (np.array([0.0, 1.0]), np.array([-1.0, 1.0]))], ids=["lists",
                                                                                                         "arrays"])
def test_mapdomain_dtype_is_numpys(dtype, ends):
    x = np.array([0.0, 0.25, 1.0]).astype(dtype)
    expected = np.polynomial.polyutils.mapdomain(x, *ends)
    got = kd.polynomial.polyutils.mapdomain(kd.asarray(x), *ends)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-7)
