"""kd.polyval with long coefficient arrays: Horner's rule by blocks (kdsl.frontend.array.horner_blocks) gives
NumPy's results to rounding (integers and booleans exactly), NumPy's NaN/inf behaviour, and a few lazy steps."""

import warnings

import numpy as np
import pytest

import kdsl as kd

N = 5000  # past horner_blocks.LONG: two levels of blocks
RNG = np.random.default_rng(14)


def _check(p, x, rtol=1e-9):
    with np.errstate(all="ignore"):
        ref = np.polyval(p, x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = kd.polyval(kd.asarray(p), kd.asarray(x)).numpy()
    assert got.dtype == ref.dtype and got.shape == ref.shape
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=0, equal_nan=True)


CASES = {
    "float64": (RNG.standard_normal(N), RNG.uniform(-1, 1, 50), 1e-9),
    "float32": (RNG.standard_normal(N).astype(np.float32), RNG.uniform(-1, 1, 50).astype(np.float32), 1e-3),
    "int64 (wraps)": (RNG.integers(-5, 5, N), RNG.integers(-3, 4, 20), 0),
    "int8 (wraps)": (RNG.integers(-5, 5, N).astype(np.int8), RNG.integers(-3, 4, 20).astype(np.int8), 0),
    "uint16 p, int32 x": (RNG.integers(0, 50, N).astype(np.uint16), RNG.integers(-3, 4, 20).astype(np.int32), 0),
    "bool": (RNG.integers(0, 2, N).astype(bool), np.array([True, False]), 0),
    "complex": (RNG.standard_normal(N) + 1j * RNG.standard_normal(N), 0.9 * np.exp(1j * RNG.uniform(0, 6, 20)),
                1e-9),
    "matrix x": (RNG.standard_normal(N), RNG.uniform(-1, 1, (7, 5)), 1e-9),
    "2-d p (columns)": (RNG.standard_normal((N, 3)), RNG.uniform(-1, 1, (4, 1)), 1e-9),
    "2-d p, scalar x": (RNG.standard_normal((N, 3)), np.float64(0.7), 1e-9),
    "float32 p, float64 x": (RNG.standard_normal(N).astype(np.float32), RNG.uniform(-1, 1, 9), 1e-9),
    "int p, float x": (RNG.integers(-3, 3, N), RNG.uniform(-1, 1, 9), 1e-9),
    "x = +-1": (np.ones(N), np.array([1.0, -1.0]), 1e-12),
    "odd length": (RNG.standard_normal(N + 37), RNG.uniform(-1, 1, 5), 1e-9),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_long_polynomials_match_numpy(name):
    p, x, rtol = CASES[name]
    _check(p, x, rtol)


EDGES = {
    # leading zero coefficients where x**64 overflows: Horner keeps 0, a single product would give 0 * inf
    "leading zeros, float32 |x| > 1": (np.r_[np.zeros(N, np.float32), np.float32([1, 2, 3])],
                                       np.float32([1.5, -1.5, 0, 2]), 1e-6),
    "leading zeros, float64 huge x": (np.r_[np.zeros(N), [1, 2, 3.0]], np.array([100.0, -1e10, 0.0]), 1e-12),
    # an infinite coefficient where x**64 underflows: Horner keeps inf, a single product would give inf * 0
    "inf coefficient, |x| < 1": (np.r_[[np.inf], np.ones(N)], np.array([0.5, -0.5, 0.0, 2.0, np.nan]), 1e-12),
    "x inf and nan (NaN, as NumPy's 0 * x)": (RNG.standard_normal(N), np.array([np.inf, -np.inf, np.nan, 1.0]),
                                              1e-9),
    "overflow to -inf and inf": (np.ones(N), np.array([-10.0, 10.0, 1.0]), 1e-12),
    "nan coefficient": (np.r_[RNG.standard_normal(N), [np.nan], [1.0]], np.array([0.3, 0.0]), 1e-9),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_long_polynomials_keep_numpys_nan_and_inf(name):
    p, x, rtol = EDGES[name]
    _check(p, x, rtol)


def test_poly1d_coefficients():
    p = RNG.standard_normal(N)
    x = RNG.uniform(-1, 1, 8)
    got = kd.polyval(kd.poly1d(kd.asarray(p)), kd.asarray(x)).numpy()
    np.testing.assert_allclose(got, np.polyval(np.poly1d(p), x), rtol=1e-9)


def test_long_polynomial_is_lazy_and_short():
    """70 000 coefficients: nothing runs until asked, and the plan is a few dozen kernels, not one per
    coefficient."""
    p = kd.asarray(RNG.standard_normal(70_000))
    x = kd.asarray(RNG.uniform(-1, 1, 100))
    kd.realize(p, x)
    kd.stats(reset=True)
    y = kd.polyval(p, x)
    assert kd.stats()["kernels"] == 0
    assert len(kd.explain(y).splitlines()) < 100
    np.testing.assert_allclose(y.numpy(), np.polyval(p.numpy(), x.numpy()), rtol=1e-8)


@pytest.mark.parametrize("n", [5, 200, N])
@pytest.mark.parametrize("x", [0.3, -1.7, 0.3 + 0.1j])
def test_python_number_x_at_the_coefficients_precision(n, x):
    """A Python float next to float64 coefficients is NumPy's float64 (kdsl's float32 default rounded 0.3
    first: results 3e-8 off)."""
    p = RNG.standard_normal(n) * 0.5 ** np.arange(n)[::-1]  # the x**k term ~0.5**k: finite at |x| = 1.7
    got = kd.polyval(kd.asarray(p), x)
    want = np.polyval(p, x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
