"""``ufunc.at`` of the binary ufuncs that are not associative (``floor_divide``, ``power``, ``remainder``,
``fmod``, ``arctan2``, ``hypot``, ``ldexp``, the shifts, the comparisons...): NumPy applies repeated indices one
after another in index order and casts each step's result to the target's dtype; kdsl raised TypeError."""

import numpy as np
import pytest

import kdsl as kd

FLOAT_NAMES = ["floor_divide", "power", "remainder", "fmod", "arctan2", "hypot", "copysign", "nextafter",
               "heaviside", "float_power", "logaddexp", "equal", "less", "greater_equal", "not_equal"]
INT_NAMES = ["floor_divide", "power", "remainder", "fmod", "left_shift", "right_shift", "equal", "less_equal"]


def _check(name, target, indices, values):
    want = target.copy()
    getattr(np, name).at(want, indices, values)
    got = kd.asarray(target)
    getattr(kd, name).at(got, indices, kd.asarray(values) if isinstance(values, np.ndarray) else values)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-6, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", FLOAT_NAMES)
def test_floats_repeated_indices(name, dtype):
    target = np.array([3.5, -2.0, 0.75, np.inf, np.nan, 1.25], dtype)
    indices = np.array([0, 0, 2, 5, 0, 3, 4, 5, 5, -1])
    values = np.array([1.5, -0.5, 2.0, 0.5, 1.25, 2.0, 3.0, -1.0, 0.25, 0.5], dtype)
    with np.errstate(all="ignore"):
        _check(name, target, indices, values)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", INT_NAMES)
def test_integers(name, dtype):
    target = np.array([100, 7, 3, 0, 9], dtype)
    indices = np.array([0, 0, 1, 4, 4, 4, 2])
    values = np.array([3, 2, 2, 1, 1, 2, 4], dtype)
    with np.errstate(all="ignore"):
        _check(name, target, indices, values)
        _check(name, target, indices, 2)  # a Python scalar: NumPy's weak operand


def test_ldexp_keeps_integer_exponents():
    _check("ldexp", np.array([2.0, 3.0, 0.5]), np.array([0, 0, 2]), np.array([1, 2, -3]))


@pytest.mark.parametrize("shape", [(3, 4), (1, 4), (3, 1)], ids=str)
def test_rows_tuples_and_views(shape):
    host = (np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 1) * 3
    _check("floor_divide", host, np.array([0, 0, -1]), np.array(2.0))
    _check("power", host, (np.array([0, 0, -1]), np.array([0, 0, -1])), np.array([0.5, 2.0, 1.0]))
    base = kd.asarray(np.arange(16.0).reshape(4, 4))
    view = base[::2, 1::2]
    kd.remainder.at(view, (np.array([0, 0, 1]), np.array([1, 1, 0])), np.array([4.0, 3.0, 5.0]))
    want = np.arange(16.0).reshape(4, 4)
    np.remainder.at(want[::2, 1::2], (np.array([0, 0, 1]), np.array([1, 1, 0])), np.array([4.0, 3.0, 5.0]))
    np.testing.assert_array_equal(base.numpy(), want)


def test_empty_and_long_runs():
    _check("power", np.ones(3), np.array([], dtype=np.int64), np.array([]))
    _check("power", np.zeros(0), np.array([], dtype=np.int64), 2.0)
    indices = np.zeros(40, dtype=np.int64)  # more rounds than one computed chunk
    _check("floor_divide", np.array([1e30, 5.0]), indices, np.full(40, 1.5))


def test_gufuncs_have_no_at():
    with pytest.raises(TypeError, match="non-trivial signature"):
        np.matmul.at(np.ones((2, 2)), [0], np.ones(2))
    with pytest.raises(TypeError, match="non-trivial signature"):
        kd.matmul.at(kd.ones((2, 2)), [0], kd.ones(2))
