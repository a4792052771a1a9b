"""Found by running NumPy's own polynomial tests against kdsl: ``poly1d.coeffs`` changed in place, and a fit
whose x values are all equal (NumPy widens the degenerate domain by one on each side)."""

import numpy as np
import pytest

import kdsl as kd


def test_poly1d_coefficients_change_in_place():
    p, q = kd.poly1d([1, 2, 3]), np.poly1d([1, 2, 3])
    p.coeffs += 1
    q.coeffs += 1
    np.testing.assert_array_equal(p.coeffs.numpy(), q.coeffs)
    np.testing.assert_array_equal(p(2).numpy(), q(2))
    p.c *= 2
    q.c *= 2
    np.testing.assert_array_equal(p.coefficients.numpy(), q.coefficients)
    with pytest.raises(AttributeError, match="Cannot set attribute"):
        p.coeffs = kd.asarray([1, 2])


@pytest.mark.parametrize("kind", ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"])
@pytest.mark.parametrize("x, y", [([1.0], [2.0]), ([1.0, 1.0], [2.0, 2.1]), ([-3.0, -3.0, -3.0], [1.0, 0.0, 2.0])])
def test_fit_of_one_distinct_x(kind, x, y):
    got = getattr(kd.polynomial, kind).fit(x, y, deg=0)
    want = getattr(np.polynomial, kind).fit(x, y, deg=0)
    np.testing.assert_allclose(np.asarray(got.domain), want.domain)
    np.testing.assert_allclose(np.asarray(got.coef), want.coef, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(got(x[0])), want(x[0]), rtol=1e-6)


@pytest.mark.parametrize("power", [1.5, -1, "2", 2.0, np.int64(3), True, 0])
def test_series_powers_follow_numpy(power):
    p, q = kd.polynomial.Chebyshev([1.0, 2.0]), np.polynomial.Chebyshev([1.0, 2.0])
    try:
        want = q ** power
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            p ** power
        return
    np.testing.assert_allclose(np.asarray((p ** power).coef), want.coef)
