"""``np.maximum.at``/``minimum.at``/``fmax.at``/``fmin.at`` of wider integer values into a narrower integer target,
against NumPy. The ported idiom: ``last = np.full(n, -1); np.maximum.at(last, customer, day)`` makes an int32
``last`` in kdsl (its default) while the days are NumPy's int64. NumPy compares in int64 and casts back; when every
value fits the target's dtype the result is one of the operands, so kdsl folds on the device (it used to copy
everything to the host with a ``kd.PerformanceWarning``). Values that do not fit still take NumPy's host loop."""

import warnings

import numpy as np
import pytest

import kdsl as kd

OPS = ["maximum", "minimum", "fmax", "fmin"]


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.int8])
@pytest.mark.parametrize("as_kdsl", [False, True])
def test_fitting_wider_values_fold_on_the_device(name, dtype, as_kdsl):
    rng = np.random.default_rng(16)
    a = rng.integers(-100, 100, 7).astype(dtype)
    idx = rng.integers(0, 7, 40)
    values = rng.integers(-120, 120, 40)  # int64, all in int8's range
    k = kd.asarray(a)
    getattr(np, name).at(a, idx, values)
    with warnings.catch_warnings():
        warnings.simplefilter("error", kd.PerformanceWarning)
        getattr(kd, name).at(k, kd.asarray(idx), kd.asarray(values) if as_kdsl else values)
    assert k.dtype == kd.dtype(dtype)
    np.testing.assert_array_equal(k.numpy(), a)


def test_last_purchase_day_per_customer_of_a_2d_view():
    # the RFM idiom on rows of a strided view: int32 (kdsl's default) target, int64 host days
    last = np.full((3, 10), -1)
    k = kd.full((3, 10), -1)
    cust = np.array([0, 3, 3, 7, 0, 9])
    day = np.array([5, 17, 2, 300, 364, 0], dtype=np.int64)
    np.maximum.at(last[::2], (np.array([0, 1, 1, 0, 1, 0]), cust), day)
    with warnings.catch_warnings():
        warnings.simplefilter("error", kd.PerformanceWarning)
        kd.maximum.at(k[::2], (kd.asarray([0, 1, 1, 0, 1, 0]), cust), day)
    np.testing.assert_array_equal(k.numpy(), last)


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("as_kdsl", [False, True])
def test_values_past_the_targets_range_still_cast_after_every_step(name, as_kdsl):
    # NumPy compares 40000 (or -40000) with the int16 element, then wraps the winner: not a fold in int16
    a = np.array([1, -5, 300], dtype=np.int16)
    k = kd.asarray(a)
    idx = np.array([0, 1, 2, 0])
    values = np.array([40000, -40000, 7, 2], dtype=np.int64)
    getattr(np, name).at(a, idx, values)
    with pytest.warns(kd.PerformanceWarning, match=f"kd.{name}.at"):
        getattr(kd, name).at(k, kd.asarray(idx), kd.asarray(values) if as_kdsl else values)
    np.testing.assert_array_equal(k.numpy(), a)


def test_empty_values_change_nothing():
    a = np.array([3, 1], dtype=np.int32)
    k = kd.asarray(a)
    np.maximum.at(a, np.array([], dtype=np.int64), np.array([], dtype=np.int64))
    kd.maximum.at(k, np.array([], dtype=np.int64), np.array([], dtype=np.int64))
    np.testing.assert_array_equal(k.numpy(), a)
