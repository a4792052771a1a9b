"""matvec and vecmat (NumPy 2.2's gufuncs) against NumPy: broadcasting, dtypes, complex, views, errors."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd

SHAPES = [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)), ((2, 1, 3, 4), (5, 4)), ((1, 4), (4,)),
          ((0, 4), (4,)), ((3, 0), (0,)), ((2, 0, 3, 4), (1, 4))]


@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("mshape,vshape", SHAPES)
def test_matvec(xp, mshape, vshape):
    m = xp.asarray(sample(mshape, "float64", special=False))
    v = xp.asarray(sample(vshape, "float64", seed=1, special=False))
    return xp.matvec(m, v)


@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("mshape,vshape", SHAPES)
def test_vecmat(xp, mshape, vshape):
    m = xp.asarray(sample(mshape[:-2] + mshape[-2:][::-1], "float64", special=False))
    v = xp.asarray(sample(vshape, "float64", seed=1, special=False))
    return xp.vecmat(v, m)


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("dtype1,dtype2", [("float32", "float32"), ("int32", "int32"), ("int16", "float32"),
                                           ("bool", "bool"), ("float32", "float64"), ("int64", "int64")])
def test_dtypes(xp, dtype1, dtype2):
    m = xp.asarray(sample((3, 5), dtype1, special=False, low=-5, high=5))
    v = xp.asarray(sample((5,), dtype2, seed=1, special=False, low=-5, high=5))
    return xp.matvec(m, v), xp.vecmat(v, m.T)


@numpy_kdsl_allclose(rtol=1e-5)
def test_views(xp):
    m = xp.asarray(sample((6, 8), "float32", special=False))
    return xp.matvec(m.T[::2], m[::-1, 3]), xp.vecmat(m[::-1, 0], m[:, 1:5])


def test_complex_vecmat_conjugates_the_vector():
    v = np.array([1 + 2j, -1j, 0.5], np.complex64)
    m = np.arange(6).reshape(3, 2).astype(np.complex64) * (1 - 1j)
    for got, expected in [(kd.vecmat(kd.asarray(v), kd.asarray(m)), np.vecmat(v, m)),
                          (kd.matvec(kd.asarray(m.T), kd.asarray(v)), np.matvec(m.T, v))]:
        assert got.dtype == kd.complex64
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)  # real and imaginary parts


@numpy_kdsl_allclose(accept_error=(ValueError,))
@pytest.mark.parametrize("fn,s1,s2", [("matvec", (3, 4), (3,)), ("matvec", (4,), (4,)), ("vecmat", (3,), (4, 3)),
                                      ("vecmat", (3,), (3,)), ("matvec", (2, 3, 4), (3, 4))])
def test_errors(xp, fn, s1, s2):
    return getattr(xp, fn)(xp.asarray(np.ones(s1)), xp.asarray(np.ones(s2)))


def test_numpy_ufunc_dispatch():
    m, v = np.arange(6.0).reshape(2, 3), np.array([1.0, 0.0, 2.0])
    got = np.matvec(kd.asarray(m), kd.asarray(v))
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.matvec(m, v))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        kd.matvec(kd.asarray(m), kd.asarray(np.ones(2)))
