"""``np.polyval(P, x)`` with an n-d coefficient array evaluates one polynomial per column (powers along axis 0),
broadcast against ``x``, as NumPy's Horner loop does: ``P = np.polyfit(x, Y, deg)`` for a 2-d ``Y`` (one fit per
column) then ``np.polyval(P, x[:, None])`` raised "p must be 1-D coefficients"
(kdsl/frontend/array/polynomials.polyval)."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(11)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize(("p_shape", "x_shape"), [((3, 4), (5, 1)), ((3, 4), (4,)), ((2, 3), ()), ((1, 1), (6, 1)),
                                                  ((4, 2, 3), (3,)), ((3, 1), (2, 5))])
def test_columns_against_numpy(p_shape, x_shape, dtype):
    p = RNG.integers(-3, 4, p_shape).astype(dtype)
    x = RNG.integers(-3, 4, x_shape).astype(dtype)
    expected = np.polyval(p, x)
    got = kd.polyval(kd.asarray(p), kd.asarray(x))
    assert got.shape == expected.shape
    assert got.dtype == kd.dtype(expected.dtype)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(np.polyval(kd.asarray(p), kd.asarray(x)).numpy(), expected, rtol=1e-6)


def test_after_polyfit_of_columns():
    x = np.linspace(0, 2, 9)
    Y = np.stack([1 + 2 * x, x ** 2 - x, 3 - x ** 2], axis=1)
    P = np.polyfit(x, Y, 2)
    Pk = kd.polyfit(kd.asarray(x), kd.asarray(Y), 2)
    fitted = kd.polyval(Pk, kd.asarray(x)[:, None])
    np.testing.assert_allclose(fitted.numpy(), np.polyval(P, x[:, None]), atol=1e-9)
    np.testing.assert_allclose(fitted.numpy(), Y, atol=1e-9)


def test_views_empty_and_non_finite():
    p = RNG.normal(size=(4, 6))
    x = RNG.normal(size=(6, 3))
    expected = np.polyval(p[::-1, ::2], x[::2, :1])  # non-contiguous views of both
    np.testing.assert_allclose(kd.polyval(kd.asarray(p)[::-1, ::2], kd.asarray(x)[::2, :1]).numpy(), expected,
                               rtol=1e-12)
    empty = np.zeros((0, 3))  # no coefficients: zeros of x's shape, as NumPy's
    np.testing.assert_array_equal(kd.polyval(kd.asarray(empty), kd.asarray(x)).numpy(), np.polyval(empty, x))
    cols = np.zeros((3, 0))
    assert kd.polyval(kd.asarray(cols), kd.asarray(2.0)).shape == np.polyval(cols, 2.0).shape
    q = np.array([[1.0, np.nan], [np.inf, 2.0]])
    with np.errstate(invalid="ignore"):
        want = np.polyval(q, np.array([[0.0], [1.0]]))
    np.testing.assert_array_equal(kd.polyval(kd.asarray(q), kd.asarray(np.array([[0.0], [1.0]]))).numpy(), want)


def test_mismatched_columns_raise_numpys_error():
    with pytest.raises(ValueError):
        np.polyval(np.ones((3, 4)), np.ones(5))
    with pytest.raises(ValueError):
        kd.polyval(kd.ones((3, 4)), kd.ones(5))
