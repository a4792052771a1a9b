"""gcd, lcm and bitwise_count against NumPy: every integer dtype with its extremes, zeros, negative values,
broadcasting, Python scalars, empty / size-1 / strided inputs, float and bool input errors."""

import numpy as np
import pytest
from api_testing import INTS, numpy_kdsl_allclose, sample

import kdsl as kd


def _pairs(dtype, n=200, seed=0):
    """Random pairs over the dtype's range, pairs with big common factors, and the edge cases."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    a = rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype)
    b = rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype)
    k = rng.integers(0, 6, n // 4).astype(dtype)
    with np.errstate(all="ignore"):
        b[: n // 4] = a[: n // 4] * k  # multiples (wrapping is fine: still a common-factor case)
    edge_a = [info.min, info.max, 0, 0, 1, info.min, info.max, 12, 2 ** (8 * a.itemsize - 2)]
    edge_b = [0, info.max, 0, 5, info.max, info.min, 1, 18, 2 ** (8 * a.itemsize - 3)]
    return np.concatenate([a, np.array(edge_a, dtype)]), np.concatenate([b, np.array(edge_b, dtype)])


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("fn", ["gcd", "lcm"])
def test_gcd_lcm_over_the_whole_range(xp, fn, dtype):
    a, b = _pairs(dtype)
    return getattr(xp, fn)(xp.asarray(a), xp.asarray(b))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["gcd", "lcm"])
@pytest.mark.parametrize("shape", [(0,), (1,), (3, 1), (2, 5)])
def test_gcd_lcm_broadcast_scalars_and_views(xp, fn, shape):
    a = xp.asarray(sample(shape, "int32", seed=1, special=False, low=-60, high=60)).T
    b = xp.asarray(np.arange(-4, 8, 3, dtype=np.int16))
    return getattr(xp, fn)(a[..., None], b), getattr(xp, fn)(a, 36), getattr(xp, fn)(-84, a[::-1])


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["gcd", "lcm"])
def test_mixed_integer_dtypes_promote(xp, fn):
    return getattr(xp, fn)(xp.asarray(np.array([12, -18, 7], np.int8)), xp.asarray(np.array([8, 300, 49], np.uint16)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bool"])
@pytest.mark.parametrize("fn", ["gcd", "lcm"])
def test_floats_and_bools_raise_type_error(fn, dtype):
    x = np.array([2, 4], dtype)
    with pytest.raises(TypeError):
        getattr(np, fn)(x, x)
    with pytest.raises(TypeError):
        getattr(kd, fn)(kd.asarray(x), kd.asarray(x))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["bool"] + INTS)
def test_bitwise_count(xp, dtype):
    if dtype == "bool":
        x = np.array([True, False, True])
    else:
        info = np.iinfo(dtype)
        x = np.random.default_rng(2).integers(info.min, info.max, 300, endpoint=True, dtype=dtype)
        x[:4] = [info.min, info.max, 0, 1]
    return xp.bitwise_count(xp.asarray(x)), xp.bitwise_count(xp.asarray(x)[::3])


@pytest.mark.parametrize("shape", [(0,), (1, 1), (4, 3)])
def test_bitwise_count_shapes(shape):
    x = sample(shape, "int16", seed=4)
    got = kd.bitwise_count(kd.asarray(x).T)
    assert got.dtype == kd.uint8
    np.testing.assert_array_equal(got.numpy(), np.bitwise_count(x.T))


@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64"])
def test_bitwise_count_of_floats_raises_type_error(dtype):
    with pytest.raises(TypeError):
        np.bitwise_count(np.ones(2, dtype))
    with pytest.raises(TypeError):
        kd.bitwise_count(kd.ones(2, dtype=dtype))


@pytest.mark.parametrize("fn", ["gcd", "lcm", "bitwise_count"])
def test_numpy_dispatches_to_kdsl(fn):
    x = kd.asarray(np.array([12, -18, 0], np.int32))
    args = (x, x[::-1]) if fn != "bitwise_count" else (x,)
    got = getattr(np, fn)(*args)
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), getattr(np, fn)(*(v.numpy() for v in args)))
