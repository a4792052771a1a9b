"""``ufunc.at`` with values that do not fit the target's dtype, against NumPy: NumPy's ``ufunc.at`` casts each
step's result back with the unsafe rule, in index order (``np.add.at(int_counts, idx, weights)`` truncates after
every addition; ``np.divide.at(ints, i, 2)``; ``np.maximum.at(u8, i, -1)`` compares with -1). kdsl used to
refuse them (TypeError, OverflowError); it now runs NumPy's own ``ufunc.at`` on a host copy, with a
``kd.PerformanceWarning``. Values of the target's kind stay on the device (no warning)."""

import warnings

import numpy as np
import pytest

import kdsl as kd

IDX = np.array([0, 0, 2, 0])

CASES = [
    ("add", np.int32, 0.5),
    ("add", np.int64, np.array([0.5, 1.5, 2.5, -0.7])),
    ("subtract", np.int64, np.array([0.5, 0.5, 0.5, 0.5])),
    ("multiply", np.int32, np.array([2.5, 2.5, 1.5, 0.5])),
    ("divide", np.int64, 2),
    ("maximum", np.uint8, -1),
    ("minimum", np.int8, 1000),
    ("maximum", np.uint8, np.array([257, 3, 300, 2], dtype=np.int64)),
    ("add", np.bool_, np.array([1.5, 0.0, 0.0, 0.0])),
    ("add", np.bool_, 2),
    ("fmax", np.int32, 2.5),
    ("gcd", np.int8, np.array([300, 4, 6, 2], dtype=np.int64)),
]


@pytest.mark.parametrize(("name", "dtype", "values"), CASES)
def test_unsafe_cast_after_every_step_as_numpy(name, dtype, values):
    a = (np.arange(4) * 3 + 1).astype(dtype)
    k = kd.asarray(a)
    getattr(np, name).at(a, IDX, values)
    with pytest.warns(kd.PerformanceWarning, match=f"kd.{name}.at"):
        getattr(kd, name).at(k, kd.asarray(IDX), kd.asarray(values) if isinstance(values, np.ndarray) else values)
    assert k.dtype == kd.dtype(dtype)
    np.testing.assert_array_equal(k.numpy(), a)


def test_weighted_votes_into_integer_counts_of_a_2d_view():
    # a histogram of weighted votes into int counts (rows of a strided view), with 2-d indices
    counts = np.zeros((4, 6), dtype=np.int64)
    k = kd.asarray(counts)
    rows, cols = np.array([0, 0, 1, 1, 1]), np.array([1, 1, 0, 2, 0])
    w = np.array([0.6, 0.6, 1.7, 2.2, 0.4])
    np.add.at(counts[::2, 1::2], (rows, cols), w)
    with pytest.warns(kd.PerformanceWarning):
        kd.add.at(k[::2, 1::2], (kd.asarray(rows), cols), kd.asarray(w))
    np.testing.assert_array_equal(k.numpy(), counts)


def test_the_warning_points_at_the_caller():
    k = kd.zeros(3, dtype=kd.int32)
    with pytest.warns(kd.PerformanceWarning) as record:
        kd.add.at(k, [1], 2.5)
    assert record[0].filename == __file__
    assert k.tolist() == [0, 2, 0]


@pytest.mark.parametrize(("dtype", "values"), [(np.float32, 0.25), (np.int8, np.array([300, 5, 1, 1])),
                                               (np.uint8, -1), (np.float32, np.array([0.1, 0.2, 0.3, 0.4]))])
def test_values_of_the_targets_kind_stay_on_the_device(dtype, values):
    a = (np.arange(4) * 3 + 1).astype(dtype)
    k = kd.asarray(a)
    np.add.at(a, IDX, values)
    with warnings.catch_warnings():
        warnings.simplefilter("error", kd.PerformanceWarning)
        kd.add.at(k, kd.asarray(IDX), kd.asarray(values) if isinstance(values, np.ndarray) else values)
    np.testing.assert_allclose(k.numpy(), a, rtol=1e-6)
