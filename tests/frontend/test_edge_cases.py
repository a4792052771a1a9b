"""Regression tests for edge cases where kdsl disagreed with NumPy (empty reductions, axis errors, rounding,
float remainder by inf, integer powers, scalar conversion)."""

import numpy as np
import pytest
from kd_testing import assert_match, numpy_kdsl_allclose

import kdsl as kd

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

EMPTY_SHAPES = [(0,), (0, 3), (3, 0)]


@pytest.mark.parametrize("shape", EMPTY_SHAPES)
@pytest.mark.parametrize("name", ["mean", "var", "std"])
@pytest.mark.parametrize("axis", [None, 0, -1])
@numpy_kdsl_allclose()
def test_empty_mean_var_std_are_nan(xp, shape, name, axis):
    return getattr(xp.asarray(np.zeros(shape, np.float32)), name)(axis=axis)


@pytest.mark.parametrize("ddof", [3, 4, 6])
@pytest.mark.parametrize("name", ["var", "std"])
@numpy_kdsl_allclose()
def test_var_ddof_at_least_n(xp, ddof, name):
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    a[:, 1] = 5.0  # a constant column: 0 / 0 is NaN, the others inf
    return getattr(xp.asarray(a), name)(axis=0, ddof=ddof)


@pytest.mark.parametrize("shape,axis", [((0, 3), 1), ((3, 0), 0), ((0, 3), 0), ((0,), None)])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
@numpy_kdsl_allclose(accept_error=(ValueError,))
def test_arg_reductions_of_empty(xp, shape, axis, name):
    return getattr(xp.asarray(np.zeros(shape, np.float32)), name)(axis=axis)


@pytest.mark.parametrize("call", [
    lambda xp, a: a.sum(axis=2), lambda xp, a: a.max(axis=-3), lambda xp, a: a.argmax(axis=2),
    lambda xp, a: a.cumsum(axis=2), lambda xp, a: a.transpose(0, 2), lambda xp, a: xp.swapaxes(a, 0, 3),
    lambda xp, a: xp.moveaxis(a, 0, 3), lambda xp, a: xp.expand_dims(a, 4), lambda xp, a: xp.squeeze(a, 5),
    lambda xp, a: xp.flip(a, 2), lambda xp, a: xp.stack([a, a], axis=3),
    lambda xp, a: xp.concatenate([a, a], axis=2),
])
def test_bad_axis_raises_axis_error(call):
    a = np.ones((2, 3), np.float32)
    with pytest.raises(np.exceptions.AxisError):
        call(np, a)
    with pytest.raises(np.exceptions.AxisError):
        call(kd, kd.asarray(a))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@numpy_kdsl_allclose(rtol=0)
def test_round_half_to_even(xp, dtype):
    r = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 3.5, -0.2, 7.0, np.nan, np.inf, -np.inf],
                 np.float32).astype(dtype)
    a = xp.asarray(r)
    return xp.round(a), xp.rint(a), a.round()


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint16"])
@pytest.mark.parametrize("decimals", [-1, -2])
@numpy_kdsl_allclose()
def test_round_ints_negative_decimals(xp, dtype, decimals):
    x = np.array([15, 25, 35, 45, 55, 65, 127, 0, 5, 149, 150, 250], np.int64).astype(dtype)
    if np.dtype(dtype).kind == "i":
        x[-3:] = [-15, -25, -128]
    return xp.round(xp.asarray(x), decimals)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@numpy_kdsl_allclose()
def test_float_remainder_and_floordiv_by_inf(xp, dtype):
    a = xp.asarray(np.array([-7.5, -3, 0, -0.0, 3, 7, np.inf, np.nan], dtype))
    return a % np.inf, a % -np.inf, a // np.inf, a // -np.inf


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("divisor", [0.3, -0.3, 0.1, 1e-3, 1.7, -2.5, 7.0])
def test_floordiv_and_mod_by_inexact_decimals_are_numpys(dtype, divisor):
    # a - b * trunc(a / b) exactly (C's fmod) for quotients below 2**24 (float32) / 2**53: -18.0 // 0.3 is -61.0
    # and -18.0 % 0.3 is 0.2999999999999993 in NumPy; a rounded product b * t gave -60.0 and 0.0
    x = np.concatenate([np.arange(-1000, 1000, 7) / 7, [-18.0, 18.0, 5.0, -5.0, 0.0, -0.0, 1e3, -1e-3]]).astype(dtype)
    b = np.array(divisor, dtype)[()]
    got = kd.asarray(x)
    np.testing.assert_array_equal((got // b).numpy(), x // b)
    np.testing.assert_array_equal((got % b).numpy(), x % b)
    q, r = kd.divmod(got[::-1], b)
    np.testing.assert_array_equal(q.numpy(), (x // b)[::-1])
    np.testing.assert_array_equal(np.signbit(r.numpy()), np.signbit((x % b)[::-1]))


@numpy_kdsl_allclose()
def test_pow_of_negative_zero(xp):
    a = xp.asarray(np.array([-0.0, 0.0, -0.0, 0.0, -0.0], np.float32))
    b = xp.asarray(np.array([-1.0, -1.0, -2.0, 3.0, 3.0], np.float32))
    return a ** b, a ** -1


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_int_pow_negative_scalar_exponent_raises(dtype):
    a = np.array([1, 2, 3], dtype)
    with pytest.raises(ValueError):
        np.asarray(a) ** -1
    with pytest.raises(ValueError, match="negative integer powers"):
        kd.asarray(a) ** -1
    assert_match(kd.asarray(a) ** 2, a ** 2)  # non-negative exponents still work
    assert_match(kd.asarray(a).astype(kd.float32) ** -1, a.astype(np.float32) ** -1)


def test_float_int_of_multi_element_array_is_type_error():
    a = kd.asarray(np.arange(4, dtype=np.float32))
    with pytest.raises(TypeError):
        float(a)
    with pytest.raises(TypeError):
        int(a)
    assert float(kd.asarray(np.float32(2.5))) == 2.5


def test_setitem_empty_region_still_checks_value_shape():
    a = kd.asarray(np.ones((4, 3), np.float32))
    with pytest.raises(ValueError):
        a[2:2] = kd.asarray(np.ones((5, 7), np.float32))
    a[2:2] = kd.asarray(np.ones(3, np.float32))  # broadcastable: a no-op
    a[2:2] = 5
    assert_match(a, np.ones((4, 3), np.float32))


def test_negative_zero_constant_keeps_its_sign():
    """The constant cache once keyed -0.0 and 0.0 alike, so a * -0.0 gave +0.0."""
    plus = (kd.ones(3) * 0.0).numpy()
    minus = (kd.ones(3) * -0.0).numpy()
    assert not np.signbit(plus).any() and np.signbit(minus).all()
