"""average and ptp against NumPy: axes, weights, returned=, keepdims, dtypes, views, empty and bad input."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd

DATA = sample((3, 4, 5), "float64")


@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0)])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("returned", [False, True])
def test_average_unweighted(xp, axis, keepdims, returned):
    a = xp.asarray(sample((3, 4, 5), "float64", special=False))
    return xp.average(a, axis=axis, keepdims=keepdims, returned=returned)


@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("axis,wshape", [(None, (3, 4, 5)), (1, (4,)), (-1, (5,)), ((0, 2), (3, 5)),
                                         ((2, 0), (5, 3)), (0, (3, 4, 5))])
@pytest.mark.parametrize("keepdims", [False, True])
def test_average_weighted(xp, axis, wshape, keepdims):
    a = xp.asarray(sample((3, 4, 5), "float64", special=False))
    w = xp.asarray(sample(wshape, "float64", seed=1, special=False, low=0.5, high=2.0))
    return xp.average(a, axis=axis, weights=w, returned=True, keepdims=keepdims)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype,wdtype", [("int16", "int32"), ("bool", "float32"), ("float32", "float32"),
                                          ("float32", "int64"), ("float16", "float16"), ("uint8", "bool")])
def test_average_dtypes(xp, dtype, wdtype):
    a = xp.asarray(sample((4, 6), dtype, special=False))
    w = xp.asarray(sample((6,), wdtype, seed=2, special=False, low=1, high=3))
    return xp.average(a, axis=1, weights=w, returned=True)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["int32", "bool", "float32", "float16"])
def test_average_unweighted_dtypes(xp, dtype):
    return xp.average(xp.asarray(sample((4, 6), dtype, special=False)), axis=0, returned=True)


@numpy_kdsl_allclose(rtol=1e-12)
def test_average_of_views_and_special_values(xp):
    a = xp.asarray(DATA)
    w = xp.asarray(sample((3, 4, 5), "float64", seed=3, special=False, low=0.1, high=1.0))
    return (xp.average(a.T[::2], axis=0), xp.average(a[:, ::-2], axis=1, weights=w[:, ::-2]),
            xp.average(a[:, :1], axis=1))


@numpy_kdsl_allclose(rtol=1e-12, accept_error=(ZeroDivisionError, TypeError, ValueError))
@pytest.mark.parametrize("case", ["zero_sum", "no_axis", "bad_shape"])
def test_average_bad_weights(xp, case):
    a = xp.asarray(sample((3, 4), "float64", special=False))
    if case == "zero_sum":
        return xp.average(a, axis=1, weights=xp.asarray(np.array([1.0, -1.0, 0.0, 0.0])))
    if case == "no_axis":
        return xp.average(a, weights=xp.asarray(np.ones(4)))
    return xp.average(a, axis=0, weights=xp.asarray(np.ones(4)))


def test_average_errors_say_what_is_wrong():
    a = kd.asarray(np.ones((3, 4)))
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        kd.average(a, axis=0, weights=kd.asarray(np.zeros(3)))
    with pytest.raises(TypeError, match="Axis must be specified"):
        kd.average(a, weights=kd.asarray(np.ones(3)))
    with pytest.raises(np.exceptions.AxisError):
        kd.average(a, axis=2)


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@numpy_kdsl_allclose(accept_error=(ZeroDivisionError,))
@pytest.mark.parametrize("axis", [0, 1])
def test_average_of_empty(xp, axis):
    a = xp.asarray(np.zeros((0, 3)))
    return xp.average(a, axis=axis), xp.average(a, axis=1, weights=xp.asarray(np.ones(3)))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_ptp(xp, dtype, axis, keepdims):
    a = xp.asarray(sample((4, 9), dtype))  # int extremes: NumPy's ptp wraps
    return xp.ptp(a, axis=axis, keepdims=keepdims), xp.ptp(a.T[::2], axis=axis)


@numpy_kdsl_allclose(accept_error=(TypeError, ValueError))
@pytest.mark.parametrize("case", ["bool", "empty", "empty_axis"])
def test_ptp_edge_cases(xp, case):
    if case == "bool":
        return xp.ptp(xp.asarray(np.array([True, False])))
    a = xp.asarray(np.zeros((0, 3), np.float32))
    return xp.ptp(a, axis=0) if case == "empty" else xp.ptp(a, axis=1)


def test_numpy_dispatches():
    a = kd.asarray(DATA)
    assert isinstance(np.average(a, axis=0), kd.Array) and isinstance(np.ptp(a, axis=0), kd.Array)
    np.testing.assert_allclose(np.ptp(a, axis=1).numpy(), np.ptp(DATA, axis=1))
