"""Reductions of 0-d input with ``axis=0`` or ``axis=-1``: NumPy's ufunc reductions accept that single axis
(reducing nothing), mean/var and tuples of axes do not."""
import numpy as np
import pytest

import kdsl as kd

REDUCTIONS = ["amax", "amin", "max", "min", "sum", "prod", "any", "all", "argmax", "argmin", "nansum", "nanprod",
              "nanmax", "nanmin", "ptp", "cumsum", "cumprod", "nancumsum"]
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's all-NaN and inf - inf warnings
VALUES = [np.float32(3.5), np.float64(np.nan), np.float32(-np.inf), np.int32(7), np.bool_(True), 1]


def _pair(value):
    return kd.asarray(value), np.asarray(value)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [0, -1, np.int64(0)])
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_zero_d_single_axis_as_numpy(name, axis, value):
    x, a = _pair(value)
    try:
        want = getattr(np, name)(a, axis=axis)
    except TypeError:  # NumPy refuses the dtype (ptp of bools): so does kdsl
        with pytest.raises(TypeError):
            getattr(kd, name)(x, axis=axis)
        return
    got = getattr(kd, name)(x, axis=axis)
    assert np.shape(got) == np.shape(want)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("name", ["amax", "sum", "any", "prod"])
def test_zero_d_keepdims_and_python_scalar(name):
    want = getattr(np, name)(2, axis=0, keepdims=True)
    got = getattr(kd, name)(2, axis=0, keepdims=True)
    assert np.shape(got) == np.shape(want)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("name, axis", [("amax", 1), ("sum", -2), ("sum", (0,)), ("amin", (0, -1)),
                                        ("mean", 0), ("var", -1), ("std", 0), ("cumsum", 1), ("ptp", 2)])
def test_zero_d_other_axes_raise(name, axis):
    with pytest.raises(np.exceptions.AxisError):
        getattr(np, name)(np.float32(1), axis=axis)
    with pytest.raises(np.exceptions.AxisError):
        getattr(kd, name)(kd.asarray(np.float32(1)), axis=axis)


def test_one_d_axes_unchanged():
    data = np.array([1.0, np.nan, 3.0], np.float32)[::2]
    for name in ("amax", "sum", "cumsum", "argmin"):
        np.testing.assert_array_equal(np.asarray(getattr(kd, name)(kd.asarray(data), axis=0)),
                                      getattr(np, name)(data, axis=0))
    with pytest.raises(np.exceptions.AxisError):
        kd.amax(kd.asarray(data), axis=1)
