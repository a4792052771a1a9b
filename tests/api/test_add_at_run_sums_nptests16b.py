"""``kd.add.at`` / ``kd.subtract.at`` of floats on the sort-based path (devices without float atomics, and
``deterministic=True``): each index's updates are summed from the target's value on their own, as NumPy's
sequential ``a[i] += v`` (a running sum across indices made one bin's result depend on the others':
``add.at(zeros(3), [0, 1, 2], [1e16, 1, 3])`` gave ``[1e16, 0, 4]``); host values keep NumPy's float64."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


def _both(ufunc, target, idx, values, **kw):
    """(NumPy's result, kdsl's) of ``ufunc.at(target, idx, values)`` on copies of ``target``."""
    want = np.array(target, copy=True)
    getattr(np, ufunc).at(want, idx, values)
    got = kd.asarray(np.array(target, copy=True))
    getattr(kd, ufunc).at(got, idx, values, **kw)
    return want, got.numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("deterministic", [False, True])
def test_small_addends_next_to_large_ones(dtype, deterministic):
    want, got = _both("add", np.zeros(3, dtype), [0, 1, 2], [1e16, 1, 3], deterministic=deterministic)
    np.testing.assert_array_equal(got, want)
    want, got = _both("add", np.zeros(3, dtype), [0, 0, 1, 2, 2], [1e16, 1e16, 1.0, -3.0, 0.5])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("ufunc", ["add", "subtract"])
def test_large_target_values_do_not_leak_into_other_bins(ufunc):
    target = np.array([1e16, 0.0, -1e16, 2.5])
    want, got = _both(ufunc, target, [1, 1, 3, 0, 2], [1.0, 1.0, 0.25, 1e16, 1e16])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("ufunc", ["add", "subtract"])
def test_many_repeats_match_the_sequential_sums(ufunc, dtype):
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 5, 400)
    scale = 10.0 ** rng.integers(-6, 7, 400)  # magnitudes 1e-6 .. 1e6, both signs
    values = (rng.standard_normal(400) * scale).astype(dtype)
    target = rng.standard_normal(5).astype(dtype)
    want, got = _both(ufunc, target, idx, values)
    # within the sequential sum's own rounding error (NumPy's order; kdsl folds runs pairwise)
    bound = 400 * np.finfo(dtype).eps * np.abs(values).max()
    np.testing.assert_allclose(got, want, rtol=0, atol=bound)
    assert got.dtype == want.dtype


def test_integer_valued_repeats_are_exact():
    idx = np.arange(300) % 7
    values = np.arange(300, dtype=np.float64) - 150.0
    want, got = _both("add", np.full(7, 0.5), idx, values)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "int8"])
def test_integers_wrap_as_numpy(dtype):
    info = np.iinfo(dtype)
    target = np.array([info.max, info.min, 0], dtype)
    values = np.array([1, 2, 3, 4, 5, 6], dtype)
    want, got = _both("add", target, [0, 1, 0, 2, 2, 1], values)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf])
def test_non_finite_values_stay_in_their_run(special):
    want, got = _both("add", np.zeros(4), [0, 1, 1, 2, 3, 3], [1.0, special, 2.0, 3.0, np.inf, -np.inf])
    np.testing.assert_array_equal(got, want)
    want, got = _both("subtract", np.array([np.inf, 1.0, 2.0]), [0, 0, 2], [1e300, np.inf, special])
    np.testing.assert_array_equal(got, want)


def test_signed_zeros():
    want, got = _both("add", np.array([-0.0, 0.0, -0.0]), [0, 0, 1, 2], [-0.0, -0.0, -0.0, 0.0])
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    want, got = _both("subtract", np.array([0.0, -0.0]), [0, 1], [0.0, 0.0])
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_empty_indices_and_empty_target():
    want, got = _both("add", np.arange(3.0), np.zeros(0, np.intp), np.zeros(0))
    np.testing.assert_array_equal(got, want)
    want, got = _both("add", np.zeros((0, 2)), np.zeros(0, np.intp), 1.0)
    assert got.shape == want.shape == (0, 2)


def test_size_one_axes_and_tuple_indices():
    target = np.zeros((1, 3))
    want, got = _both("add", target, (np.array([0, 0, 0]), np.array([2, 2, 0])), [1e16, 1.0, 1.0])
    np.testing.assert_array_equal(got, want)
    want, got = _both("add", np.zeros((2, 1)), [1, 1, 0], np.array([[1e16], [3.0], [1.0]]))
    np.testing.assert_array_equal(got, want)


def test_a_strided_view_writes_through():
    base = np.zeros((3, 4))
    want = base.copy()
    np.add.at(want[:, ::2].T, [0, 1, 1], [[1e16, 1.0, 2.0], [5.0, 1e-3, 7.0], [1.0, 1.0, 1.0]])
    got = kd.asarray(base)
    kd.add.at(got[:, ::2].T, [0, 1, 1], [[1e16, 1.0, 2.0], [5.0, 1e-3, 7.0], [1.0, 1.0, 1.0]])
    np.testing.assert_array_equal(got.numpy(), want)


def test_host_values_keep_float64():
    """A list of Python floats is float64 to NumPy: it is not rounded to kdsl's float32 default on the way."""
    want, got = _both("add", np.zeros(2), [0, 1], [0.1, 1e16 + 2])
    np.testing.assert_array_equal(got, want)
    want, got = _both("add", np.zeros(2, np.float32), [0, 0], np.array([0.1, 0.2]))
    np.testing.assert_array_equal(got, want)
