"""Complex ``power`` with infinite or NaN parts as NumPy's: NumPy calls the C library's ``cpow``, which is
``cexp(b * clog(a))`` with C's complex multiply, and C's multiply (C99 Annex G) recovers infinities where the
textbook formula gives NaN + NaN j. kdsl multiplied textbook-style, so ``(inf + nan j) ** (1 + 1j)`` was
``nan + nan j`` (NumPy: ``inf + nan j``): 912 of 14641 special-value pairs differed in complex128, then 64 (an
infinite base to a negative whole power, where NumPy's ``(1 + 0j) * a`` gives NaN and lavapipe's compiler
folded the literal zero away), now none. Whole powers also keep NumPy's signed zeros (``(4 + 0j) ** -2`` is
``0.0625 + 0j``; it was ``- 0j``).
"""

import warnings

import numpy as np
import pytest

import kdsl as kd

VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.0, np.inf, -np.inf, np.nan]


def _numpy_power(a, b):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.power(a, b)


def _agree(got, want):
    """Same NaN positions, same infinities (with signs), finite parts close relative to the result's magnitude
    (float32 ``exp`` is the driver's, ~1e-5 relative: docs/kernels.md)."""
    size = np.where(np.isfinite(want), np.abs(want), 0)
    for part in ("real", "imag"):
        g, w = getattr(got, part), getattr(want, part)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_array_equal(np.where(np.isinf(w), g, 0), np.where(np.isinf(w), w, 0))
        fin = np.isfinite(w)
        assert np.all(np.abs(g[fin] - w[fin]) <= 2e-5 * size[fin] + 1e-30)


def _special_pairs(dtype):
    zs = np.array([complex(a, b) for a in VALUES for b in VALUES], dtype)
    a, b = np.meshgrid(zs, zs)
    return a.ravel(), b.ravel()


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_special_values(dtype):
    a, b = _special_pairs(dtype)
    _agree(kd.power(kd.asarray(a), kd.asarray(b)).numpy(), _numpy_power(a, b))


def test_known_pairs():
    a = np.array([complex(np.inf, np.nan), complex(np.nan, np.inf), complex(-np.inf, np.nan), complex(2, 1)])
    b = np.array([1 + 1j, 1 - 1j, 0.5 + 2j, 1.5 - 0.5j])
    got = kd.power(kd.asarray(a), kd.asarray(b)).numpy()
    _agree(got, _numpy_power(a, b))
    assert np.isinf(got.real[:2]).all()


def test_views_shapes_and_operator():
    a, b = _special_pairs(np.complex128)
    a2, b2 = a[: 60 * 8].reshape(60, 8), b[: 60 * 8].reshape(60, 8)
    _agree((kd.asarray(a2)[::-2].T ** kd.asarray(b2)[::-2].T).numpy(), _numpy_power(a2[::-2].T, b2[::-2].T))
    empty = np.zeros((0, 3), np.complex64)
    assert kd.power(kd.asarray(empty), kd.asarray(empty)).shape == (0, 3)
    one = np.array([[complex(np.inf, np.nan)]])
    _agree(kd.power(kd.asarray(one), 1 + 1j).numpy(), _numpy_power(one, 1 + 1j))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("exponent", [-1.0, -2, -3, -4, -7, 4, 5, 17, -99])
def test_whole_powers_keep_signed_zeros(dtype, exponent):
    z = np.array([4, 2 - 0j, -4, complex(-2, -0.0), 3 + 4j, 1e-3 - 2j, 1j, -1j, -3j, complex(-0.0, 2),
                  complex(2, -0.0), 0.5 - 0.5j, complex(np.inf, 0), complex(np.nan, 0)], dtype)
    want, got = _numpy_power(z, exponent), kd.power(kd.asarray(z), exponent).numpy()
    _agree(got, want)
    finite = np.isfinite(want)
    for part in ("real", "imag"):
        w, g = getattr(want, part)[finite], getattr(got, part)[finite]
        np.testing.assert_array_equal(np.signbit(g[w == 0]), np.signbit(w[w == 0]))
