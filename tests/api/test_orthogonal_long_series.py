"""Products, quotients, powers, roots and series from roots of Legendre, Hermite, HermiteE, Laguerre (and
Chebyshev's quotients, roots and series from roots) agree with NumPy's at any length. Through the power basis
they lost digits as the series grew: a product of two 30-coefficient Legendre series was off by 1e3 relative,
silently; past ``EXACT_LENGTH`` coefficients NumPy's own function of the basis now runs on the host."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd
from kdsl.polynomial.orthogonal import EXACT_LENGTH

BASES = [("legendre", "leg"), ("hermite", "herm"), ("hermite_e", "herme"), ("laguerre", "lag"),
         ("chebyshev", "cheb")]


def _cases(n: int, rng: np.random.Generator) -> list[tuple[str, tuple]]:
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    return [("mul", (a, b)), ("mulx", (a,)), ("div", (a, b[:n // 2 + 1])), ("pow", (a[:n // 3 + 1], 3)),
            ("fromroots", (np.linspace(-0.9, 0.9, n),)), ("roots", (a,))]


def _close(got: kd.Array, want: np.ndarray, name: str) -> None:
    g = np.asarray(got.numpy())
    if name == "roots":
        g, want = np.sort_complex(g.astype(complex)), np.sort_complex(want.astype(complex))
    assert g.shape == want.shape
    np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize("module, prefix", BASES)
@pytest.mark.parametrize("n", [EXACT_LENGTH - 2, EXACT_LENGTH + 1, 30, 60])
def test_long_series_functions_match_numpy(module, prefix, n):
    rng = np.random.default_rng(n)
    for name, args in _cases(n, rng):
        want = getattr(getattr(np.polynomial, module), prefix + name)(*args)
        got = getattr(getattr(kd.polynomial, module), prefix + name)(
            *(kd.asarray(x) if isinstance(x, np.ndarray) else x for x in args))
        if isinstance(want, tuple):
            for g, w in zip(got, want, strict=True):
                _close(g, w, name)
        else:
            _close(got, want, name)


def test_a_long_legendre_product_through_the_class():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(30), rng.standard_normal(30)
    want = (np.polynomial.Legendre(a) * np.polynomial.Legendre(b)).coef
    got = (kd.polynomial.Legendre(kd.asarray(a)) * kd.polynomial.Legendre(kd.asarray(b))).coef
    np.testing.assert_allclose(np.asarray(got.numpy() if isinstance(got, kd.Array) else got), want, rtol=1e-12,
                               atol=1e-12 * np.abs(want).max())
