"""`np.polymul` of long coefficient arrays, as NumPy's (its `np.convolve`): the distribution of the sum of 1000
dice by repeated products with `[1, 1, 1, 1, 1, 1]` reached 5000 coefficients, whose product was stored as a
skewed 5000 x 5006 outer product (200 MB of int64: TooLargeError on lavapipe, whose buffers hold 128 MB). The
products are now read from sliding windows of the longer operand inside the reduction, never stored; integers
stay exact, inf and NaN reach only the coefficients whose products hold them (tests/porting)."""

import numpy as np
import pytest

import kdsl as kd

P = np.polynomial.polynomial


@pytest.mark.parametrize("n,m", [(5000, 6), (6, 5000), (4096, 4096), (1, 7000)])
def test_long_integer_products_are_exact(n, m):
    rng = np.random.default_rng(n + m)
    a, b = rng.integers(-1000, 1000, n), rng.integers(-1000, 1000, m)
    a[0], b[0] = 7, -3  # no leading zeros to trim
    got = kd.polymul(kd.asarray(a), kd.asarray(b))
    assert got.dtype.name == "int64"
    np.testing.assert_array_equal(got.numpy(), np.polymul(a, b))


def test_sum_of_dice_by_repeated_products():
    die = np.ones(6, dtype=np.int64)
    want = np.array([1])
    for _ in range(900):  # 4501 coefficients: one more die's skewed product held 4501 x 4506 int64 (162 MB)
        want = np.polymul(want, die)
    got = kd.asarray(want)
    for _ in range(3):
        want, got = np.polymul(want, die), kd.polymul(got, kd.asarray(die))
    assert got.shape == (4516,)
    np.testing.assert_array_equal(got.numpy(), want)  # wrapped past int64 as NumPy's, exactly
    small = kd.asarray(np.array([1]))
    for _ in range(3):
        small = kd.polymul(small, die)
    assert small.numpy()[:4].tolist() == [1, 3, 6, 10]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_long_float_products_match_numpy(dtype):
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=3000).astype(dtype), rng.normal(size=2500).astype(dtype)
    got = kd.polymul(kd.asarray(a), kd.asarray(b))
    assert got.dtype.name == dtype
    np.testing.assert_allclose(got.numpy(), np.polymul(a, b), rtol=1e-3 if dtype == "float32" else 1e-9,
                               atol=1e-3 if dtype == "float32" else 1e-9)


@pytest.mark.parametrize("a,b", [([np.inf, 1.0, 2.0], [1.0, 1.0]), ([1.0, 1.0], [2.0, np.nan, 1.0]),
                                 ([1.0, 2.0, -np.inf], [3.0, 0.5, 1.0, 1.0]), ([-1.0, 2.0], [1.0, -0.0])])
def test_non_finite_coefficients_reach_only_their_products(a, b):
    a, b = np.array(a), np.array(b)
    for x, y in ((a, b), (b, a)):
        got = kd.polymul(kd.asarray(x), kd.asarray(y)).numpy()
        np.testing.assert_array_equal(got, np.polymul(x, y))


def test_bool_and_mixed_dtypes_and_power_series():
    rng = np.random.default_rng(4)
    a, b = rng.random(3000) < 0.01, rng.random(40) < 0.5
    a[0] = b[0] = True
    np.testing.assert_array_equal(kd.polymul(kd.asarray(a), kd.asarray(b)).numpy(), np.polymul(a, b))
    c, d = rng.integers(-9, 9, 2000).astype(np.int32), rng.normal(size=300)
    c[0] = 1
    got = kd.polymul(kd.asarray(c), kd.asarray(d))
    assert got.dtype.name == "float64"
    np.testing.assert_allclose(got.numpy(), np.polymul(c, d), rtol=1e-9, atol=1e-9)
    got = kd.polynomial.polynomial.polymul(kd.asarray(d[::-1]), kd.asarray(c[::-1].astype(np.float64)))
    np.testing.assert_allclose(got.numpy(), P.polymul(d[::-1], c[::-1]), rtol=1e-9, atol=1e-9)
