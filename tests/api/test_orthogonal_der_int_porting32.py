"""`chebder`, `chebint` (and `legder`/`legint`, `hermder`..., `Chebyshev.deriv`/`integ`) of long series, as
NumPy's: they went through the power basis, whose coefficients of a degree-200 Chebyshev series are about 2**199,
so `chebder(c, 3)` of 200 random coefficients came out 1e65 where NumPy's largest is 9e10 and `chebint(c, 2)`
5e54 where NumPy's is 0.39, silently. Derivatives and integrals are now the linear maps of NumPy's own
recurrences, applied on the device as one matrix product (tests/porting)."""

import numpy as np
import pytest

import kdsl as kd

MODULES = [("chebyshev", "cheb", 200), ("legendre", "leg", 200), ("hermite", "herm", 60), ("hermite_e", "herme", 60),
           ("laguerre", "lag", 60)]


def _functions(module, prefix):
    np_module, kd_module = getattr(np.polynomial, module), getattr(kd.polynomial, module)
    return (getattr(np_module, prefix + "der"), getattr(kd_module, prefix + "der"),
            getattr(np_module, prefix + "int"), getattr(kd_module, prefix + "int"))


def _close(got, want):
    got = got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = np.abs(want).max() if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12 * scale)


@pytest.mark.parametrize("module,prefix,n", MODULES)
@pytest.mark.parametrize("m", [1, 3])
def test_derivatives_of_long_series(module, prefix, n, m):
    c = np.random.default_rng(n + m).normal(size=n)
    np_der, kd_der, _, _ = _functions(module, prefix)
    _close(kd_der(kd.asarray(c), m), np_der(c, m))
    _close(kd_der(kd.asarray(c), m, scl=0.5), np_der(c, m, scl=0.5))


@pytest.mark.parametrize("module,prefix,n", MODULES)
@pytest.mark.parametrize("kwargs", [{}, {"m": 2}, {"m": 2, "k": [1.0, -2.0], "lbnd": 0.5, "scl": 3.0}])
def test_integrals_of_long_series(module, prefix, n, kwargs):
    c = np.random.default_rng(n).normal(size=n)
    _, _, np_int, kd_int = _functions(module, prefix)
    _close(kd_int(kd.asarray(c), **kwargs), np_int(c, **kwargs))


def test_axes_dtypes_and_the_series_class():
    rng = np.random.default_rng(7)
    C, kC = np.polynomial.chebyshev, kd.polynomial.chebyshev
    c2 = rng.normal(size=(3, 120))
    _close(kC.chebder(kd.asarray(c2), 2, axis=1), C.chebder(c2, 2, axis=1))
    _close(kC.chebint(kd.asarray(c2), 1, k=2.0, axis=1), C.chebint(c2, 1, k=2.0, axis=1))
    ints = rng.integers(-5, 5, 80)
    _close(kC.chebder(kd.asarray(ints)), C.chebder(ints))  # integers give float64, as NumPy's
    c32 = rng.normal(size=70).astype(np.float32)
    got = kC.chebder(kd.asarray(c32)).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, C.chebder(c32), rtol=1e-4, atol=1e-3)
    x = np.linspace(-1, 1, 401)
    y = np.exp(np.sin(3 * x))
    p, kp = C.Chebyshev.fit(x, y, 80), kd.polynomial.Chebyshev.fit(kd.asarray(x), kd.asarray(y), 80)
    np.testing.assert_allclose(kp.deriv(2)(kd.asarray(x)).numpy(), p.deriv(2)(x), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(kp.integ(lbnd=-1)(kd.asarray(x)).numpy(), p.integ(lbnd=-1)(x), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("call", [lambda M, c: M.chebder(c, -1), lambda M, c: M.chebder(c, 1.5),
                                  lambda M, c: M.chebint(c, 1, k=[1, 2]), lambda M, c: M.chebint(c, -1),
                                  lambda M, c: M.chebint(c, 1, lbnd=[0.0, 1.0])])
def test_errors_are_numpy_s(call):
    c = np.arange(5.0)
    with pytest.raises(Exception) as want:
        call(np.polynomial.chebyshev, c)
    with pytest.raises(type(want.value)):
        call(kd.polynomial.chebyshev, kd.asarray(c))
