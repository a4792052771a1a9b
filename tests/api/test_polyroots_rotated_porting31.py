"""`np.polynomial.polynomial.polyroots` (and `Polynomial.roots`) from the rotated companion matrix, as NumPy's:
widely scaled roots keep their digits and their real dtype (unrotated, kdsl's Schur form without LAPACK's
balancing gave complex roots 8x off for roots spread over six decades, and the root 5.6e-13 of a titration's charge
balance as -4.1e-14; tests/porting)."""

import numpy as np
import pytest

import kdsl as kd

P = np.polynomial.polynomial


def _roots_case(seed, deg):
    rng = np.random.default_rng(seed)
    return np.sort(rng.uniform(-2, 2, deg)) * (10.0 ** rng.integers(-3, 3, deg))


@pytest.mark.parametrize("deg", [2, 3, 5, 8, 11])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_polyroots_of_spread_roots_match_numpy(deg, seed):
    c = P.polyfromroots(_roots_case(seed, deg))
    want = P.polyroots(c)
    got = kd.polynomial.polynomial.polyroots(kd.asarray(c))
    assert got.dtype.name == want.dtype.name
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-7, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_charge_balance_root_and_polynomial_class(dtype):
    c = np.array([-1.7999999e-19, 3.2250205e-07, 5.8976393e-02, 1.0], dtype)
    want = P.polyroots(c)
    got = kd.polynomial.polynomial.polyroots(kd.asarray(c))
    assert got.dtype.name == want.dtype.name
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    assert float(got[-1]) > 0
    cls = kd.polynomial.Polynomial(kd.asarray(c)).roots()
    np.testing.assert_allclose(cls.numpy(), np.polynomial.Polynomial(c).roots(), rtol=1e-6)


def test_complex_pairs_short_series_and_view():
    c = np.array([5.0, 0.0, 0.0, 1.0, 0.0, 1.0])  # x^5 + x^3 + 5: complex pairs and one real root
    want = P.polyroots(c)
    got = kd.polynomial.polynomial.polyroots(kd.asarray(c)).numpy()
    np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(want), rtol=1e-10, atol=1e-12)
    for short in ([3.0], [2.0, -4.0]):
        assert kd.polynomial.polynomial.polyroots(kd.asarray(np.array(short))).numpy().tolist() == P.polyroots(
            np.array(short)).tolist()
    for lib, arr in ((kd.polynomial.polynomial, kd.asarray(np.array([]))), (P, np.array([]))):
        with pytest.raises(ValueError, match="Coefficient array is empty"):
            lib.polyroots(arr)
    big = np.zeros(8)
    big[::2] = [6.0, -5.0, 1.0, 0.0]
    got = kd.polynomial.polynomial.polyroots(kd.asarray(big)[::2])
    np.testing.assert_allclose(got.numpy(), P.polyroots(big[::2]), rtol=1e-12)
