"""unwrap against NumPy: dtypes, axes, period/discont, integer periods, empty and size-1 axes, strided views,
NaN/inf, bad input, np.unwrap(a) dispatch."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose

import kdsl as kd


def _phase(shape, dtype, seed=0):
    """A random walk folded into [0, 7): jumps to unwrap."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-20, 20, shape).astype(dtype)
    return (np.cumsum(rng.uniform(-2, 2, shape), axis=-1) % 7).astype(dtype)


@numpy_kdsl_allclose(rtol=1e-5, atol=1e-5)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int8"])
@pytest.mark.parametrize("kw", [{}, {"period": 8}, {"discont": 1.0}, {"axis": 0}, {"period": 6, "discont": 2},
                                {"period": 5}, {"discont": 5.0}])
def test_unwrap(xp, dtype, kw):
    return xp.unwrap(xp.asarray(_phase((5, 9), dtype)), **kw)


@numpy_kdsl_allclose(rtol=5e-3, atol=5e-2)
def test_unwrap_float16(xp):
    return xp.unwrap(xp.asarray(_phase((4, 6), "float16", seed=2)))


@numpy_kdsl_allclose(rtol=1e-5, atol=1e-5)
@pytest.mark.parametrize("shape", [(0,), (1,), (3, 0), (3, 1), (2, 3, 5)])
def test_unwrap_shapes_and_views(xp, shape):
    x = xp.asarray(_phase(shape, "float32", seed=1))
    return xp.unwrap(x, axis=0), xp.unwrap(x[..., ::-1]), xp.unwrap(x.T, axis=-1)


@numpy_kdsl_allclose(rtol=1e-6)
def test_unwrap_exact_half_period_steps_and_nan(xp):
    p = np.array([0.0, np.pi, 0.0, -np.pi, np.nan, 1.0, 8.0, np.inf])
    return xp.unwrap(xp.asarray(p)), xp.unwrap(xp.asarray(np.array([0, 4, 8, 4, 0], np.int64)), period=8)


def test_unwrap_bad_input():
    with pytest.raises(ValueError, match="at least one dimension"):
        kd.unwrap(kd.asarray(1.0))
    with pytest.raises(np.exceptions.AxisError):
        kd.unwrap(kd.ones(3), axis=1)
    with pytest.raises(TypeError, match="complex"):
        kd.unwrap(kd.asarray(np.array([1j, 2j])))


def test_numpy_dispatches_to_kdsl():
    x = kd.asarray(np.array([0.0, 5.0, 10.0], np.float32))
    got = np.unwrap(x)
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.unwrap(x.numpy()), rtol=1e-5)


@pytest.mark.parametrize("dtype", ["uint8", "uint32"])
def test_unsigned_integers_with_an_integer_period(dtype):
    """NumPy steps by -period // 2 in the unsigned dtype: its OverflowError (kdsl returned wrapped values); a period
    of 1 (no negative step) and a float period unwrap as NumPy's."""
    host = np.array([1, 9, 3], dtype=dtype)
    with pytest.raises(OverflowError):
        np.unwrap(host, period=6)
    with pytest.raises(OverflowError, match="signed copy"):
        kd.unwrap(kd.asarray(host), period=6)
    for period in (1, 6.0):
        got = kd.unwrap(kd.asarray(host), period=period)
        np.testing.assert_array_equal(got.numpy(), np.unwrap(host, period=period))
