"""`np.polynomial.chebyshev.chebmul`, `chebpow` and the `Chebyshev` class's `*` and `**` of long series, as
NumPy's: they went through the power basis, whose coefficients grow as 2**degree, so `chebmul` of two
20-coefficient series was off by 4e-4 relative to its largest coefficient, of two 30-coefficient ones by 5e3
(silently), and `p ** 2` of a 40-coefficient series by 5e11. They are NumPy's z-series products now, a
convolution by `kd.polymul` (tests/porting)."""

import numpy as np
import pytest

import kdsl as kd

C, kC = np.polynomial.chebyshev, kd.polynomial.chebyshev


def _close(got, want):
    got = got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize("n,m", [(1, 1), (1, 7), (10, 3), (20, 20), (30, 30), (60, 40), (200, 200)])
def test_chebmul_of_long_series(n, m):
    rng = np.random.default_rng(n * 1000 + m)
    a, b = rng.normal(size=n), rng.normal(size=m)
    _close(kC.chebmul(kd.asarray(a), kd.asarray(b)), C.chebmul(a, b))
    _close(kC.chebmul(kd.asarray(b), a.tolist()), C.chebmul(b, a))


@pytest.mark.parametrize("n,power", [(40, 2), (25, 3), (8, 16), (3, 0), (3, 1)])
def test_chebpow_and_the_class(n, power):
    c = np.random.default_rng(n + power).normal(size=n)
    _close(kC.chebpow(kd.asarray(c), power), C.chebpow(c, power))
    p, kp = C.Chebyshev(c), kd.polynomial.Chebyshev(kd.asarray(c))
    _close((kp ** power).coef, (p ** power).coef)
    _close((kp * kp).coef, (p * p).coef)


@pytest.mark.parametrize("a,b", [([0.0], [1.0, 2.0]), ([1.0, 2.0, 0.0], [3.0]), ([1, 2], [3, 4]),
                                 ([np.inf, 1.0], [1.0, 1.0]), ([1.0 + 2.0j, 0.5], [2.0, -1.0j])])
def test_chebmul_edges_as_numpy(a, b):
    want = C.chebmul(a, b)
    got = kC.chebmul(a, b).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("power,maxpower", [(-1, 16), (1.5, 16), (17, 16), (20, None)])
def test_chebpow_errors_and_maxpower_as_numpy(power, maxpower):
    c = np.array([0.5, 0.25])
    try:
        want = C.chebpow(c, power, maxpower)
    except ValueError:
        with pytest.raises(ValueError):
            kC.chebpow(kd.asarray(c), power, maxpower)
    else:
        _close(kC.chebpow(kd.asarray(c), power, maxpower), want)
