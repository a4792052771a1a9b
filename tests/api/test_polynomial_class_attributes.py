"""NumPy's class-level ``domain`` and ``window`` of the series classes (``Polynomial.domain``,
``Laguerre.window``), which instances shadow with their own, and their use as fit arguments; the
``Chebyshev.interpolate`` class method."""

import numpy as np
import pytest

import kdsl as kd

CLASSES = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]


@pytest.mark.parametrize("name", CLASSES)
def test_class_domain_and_window_match_numpy(name):
    k, n = getattr(kd.polynomial, name), getattr(np.polynomial, name)
    np.testing.assert_array_equal(k.domain, n.domain)
    np.testing.assert_array_equal(k.window, n.window)
    inst = k([1.0, 2.0], domain=[0.0, 3.0])
    np.testing.assert_array_equal(inst.domain, [0.0, 3.0])
    np.testing.assert_array_equal(k.domain, n.domain)  # the instance's own domain does not change the class's
    np.testing.assert_array_equal(k([1.0]).window, n([1.0]).window)


@pytest.mark.parametrize("name", CLASSES)
def test_class_domain_as_fit_argument(name):
    x = np.linspace(0.0, 1.0, 9)
    y = 2.0 * x * x - x
    want = getattr(np.polynomial, name).fit(x, y, 2, domain=getattr(np.polynomial, name).domain)
    cls = getattr(kd.polynomial, name)
    got = cls.fit(kd.asarray(x), kd.asarray(y), 2, domain=cls.domain)
    np.testing.assert_allclose(got.coef.numpy(), want.coef, atol=1e-9)
    np.testing.assert_array_equal(got.domain, want.domain)


@pytest.mark.parametrize(("deg", "domain", "args"), [(6, None, ()), (5, [0.0, 3.0], (0.5,)), (0, [-2.0, 1.0], (1.0,))])
def test_chebyshev_interpolate_classmethod(deg, domain, args):
    def func(xp):
        return (lambda x: xp.cos(x)) if not args else (lambda x, a: xp.exp(a * x))

    want = np.polynomial.Chebyshev.interpolate(func(np), deg, domain=domain, args=args)
    got = kd.polynomial.Chebyshev.interpolate(func(kd), deg, domain=domain, args=args)
    assert type(got) is kd.polynomial.Chebyshev
    np.testing.assert_allclose(got.coef.numpy(), want.coef, atol=1e-12)
    np.testing.assert_array_equal(got.domain, want.domain)
    np.testing.assert_allclose(float(got(0.7)), want(0.7), rtol=1e-12)
