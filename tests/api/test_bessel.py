"""i0 (modified Bessel function of order 0) against NumPy: dtypes, shapes, views, the whole float range
including NumPy's overflow points, NaN/inf, complex input, np.i0(a) dispatch."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd


@numpy_kdsl_allclose()  # RTOL per dtype: float16 2e-3, float32 2e-5, float64 2e-6
@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint16", "float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(0,), (1,), (6, 9)])
def test_i0(xp, dtype, shape):
    x = sample(shape, dtype, seed=3, low=-30 if dtype[0] == "f" else -20, high=30 if dtype[0] == "f" else 20)
    return xp.i0(xp.asarray(x).T[::-1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_i0_over_the_whole_range(dtype):
    f = np.finfo(dtype)
    top = float(np.log(f.max))
    x = np.concatenate([np.linspace(-60, 60, 2001), np.linspace(-top * 1.01, top * 1.01, 801),
                        [0.0, -0.0, np.nan, np.inf, -np.inf, f.smallest_subnormal, 1e-5]]).astype(dtype)
    with np.errstate(all="ignore"):
        expected = np.i0(x)
    got = kd.i0(kd.asarray(x)).numpy()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(np.isinf(got), np.isinf(expected))
    rtol = {"float32": 5e-6, "float64": 5e-15}[dtype]
    np.testing.assert_allclose(got, expected, rtol=rtol)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_i0_is_numpys_algorithm_within_exps_ulps(dtype):
    """NumPy's Chebyshev series in the input's precision: NumPy's values to the ulp or two that the device's
    exp adds (float16 exactly, and i0(0) in float32 is NumPy's 0.99999994, not the correctly rounded 1)."""
    x = np.concatenate([np.linspace(-12, 12, 2401), [0.0, -0.0, 8.0, -8.0, np.nextafter(8, 9)]]).astype(dtype)
    with np.errstate(all="ignore"):
        expected = np.i0(x)
    got = kd.i0(kd.asarray(x)).numpy()
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(np.isinf(got), np.isinf(expected))
    ulps = np.abs(got[finite].astype(np.float64) - expected[finite]) / np.spacing(expected[finite])
    assert ulps.max() <= {"float16": 0, "float32": 3, "float64": 2}[dtype]
    assert got[np.argmax(x == 0)] == expected[np.argmax(x == 0)]


def test_i0_of_float32_zero_is_numpys():
    assert kd.i0(kd.asarray(np.float32(0.0))).item() == np.i0(np.float32(0.0)).item() == np.float32(0.99999994)


def test_i0_of_complex_raises_type_error():
    with pytest.raises(TypeError, match="complex"):
        kd.i0(kd.asarray(np.array([1j])))


def test_numpy_dispatches_to_kdsl():
    x = kd.asarray(np.array([0.0, 5.0, -10.0], np.float32))
    got = np.i0(x)
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.i0(x.numpy()), rtol=1e-5)
