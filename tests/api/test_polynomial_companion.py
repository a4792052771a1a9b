"""The scaled companion matrices of every orthogonal basis (chebcompanion, legcompanion, hermcompanion,
hermecompanion, lagcompanion) and chebinterpolate, against NumPy's: degrees 1 to 8, integer and float32
coefficients, trailing zeros, eigenvalues as the roots, and NumPy's errors."""

import numpy as np
import pytest

import kdsl as kd

BASES = [("chebyshev", "cheb"), ("legendre", "leg"), ("hermite", "herm"), ("hermite_e", "herme"),
         ("laguerre", "lag")]
RNG = np.random.default_rng(580)


def companion(module, family, prefix):
    return getattr(getattr(module.polynomial, family), prefix + "companion")


@pytest.mark.parametrize("family,prefix", BASES)
@pytest.mark.parametrize("n", [2, 3, 4, 6, 9])
def test_companion_matches_numpy(family, prefix, n):
    c = RNG.normal(size=n)
    got = companion(kd, family, prefix)(kd.asarray(c))
    want = companion(np, family, prefix)(c)
    assert got.shape == want.shape and got.dtype == kd.float64
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("family,prefix", BASES)
@pytest.mark.parametrize("c", [[1, 2, 3], [2.0, -1.0, 0.5, 0.0], np.float32([1.5, -2.0, 3.0]), (4, 1)],
                         ids=["ints", "trailing-zero", "float32", "tuple"])
def test_companion_of_host_coefficients(family, prefix, c):
    got = companion(kd, family, prefix)(c)
    want = companion(np, family, prefix)(c)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("family,prefix", BASES)
def test_companion_eigenvalues_are_the_roots(family, prefix):
    roots = np.array([-0.7, 0.1, 0.4, 0.9])
    c = getattr(getattr(np.polynomial, family), prefix + "fromroots")(roots)
    found = np.sort(kd.linalg.eigvals(companion(kd, family, prefix)(kd.asarray(c))).numpy().real)
    np.testing.assert_allclose(found, roots, atol=1e-8)


@pytest.mark.parametrize("family,prefix", BASES)
@pytest.mark.parametrize("c", [[1.0], [], [3.0, 0.0]], ids=["constant", "empty", "trimmed"])
def test_companion_needs_degree_one(family, prefix, c):
    with pytest.raises(ValueError):
        companion(np, family, prefix)(c)
    with pytest.raises(ValueError, match="degree of at least 1|Coefficient array is empty"):
        companion(kd, family, prefix)(c)


@pytest.mark.parametrize("deg", [0, 1, 2, 5, 12])
@pytest.mark.parametrize("name", ["cos", "exp", "abs"])
def test_chebinterpolate_matches_numpy(deg, name):
    got = kd.polynomial.chebyshev.chebinterpolate(getattr(kd, name), deg)
    want = np.polynomial.chebyshev.chebinterpolate(getattr(np, name), deg)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)


def test_chebinterpolate_args_and_vector_values():
    got = kd.polynomial.chebyshev.chebinterpolate(lambda x, a, b: a * x**3 + b, 4, (2.0, -1.0))
    want = np.polynomial.chebyshev.chebinterpolate(lambda x, a, b: a * x**3 + b, 4, (2.0, -1.0))
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)
    got = kd.polynomial.chebyshev.chebinterpolate(lambda x: kd.stack([kd.sin(x), x * x], axis=-1), 6)
    want = np.polynomial.chebyshev.chebinterpolate(lambda x: np.stack([np.sin(x), x * x], axis=-1), 6)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)
    x = np.linspace(-1, 1, 7)
    np.testing.assert_allclose(kd.polynomial.chebyshev.chebval(kd.asarray(x), got[:, 0]).numpy(), np.sin(x),
                               atol=1e-4)


@pytest.mark.parametrize("deg,error", [(1.5, TypeError), ("3", TypeError), (-1, ValueError)])
def test_chebinterpolate_errors(deg, error):
    with pytest.raises(error):
        np.polynomial.chebyshev.chebinterpolate(np.cos, deg)
    with pytest.raises(error):
        kd.polynomial.chebyshev.chebinterpolate(kd.cos, deg)
