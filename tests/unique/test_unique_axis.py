"""kd.unique(axis=k) against NumPy's: unique sub-arrays along an axis with every optional output, several
dtypes and shapes, duplicates, NaN (never equal along an axis), -0.0 == 0.0, empty and size-1 axes, views."""

import numpy as np
import pytest

import kdsl as kd


def _check(a: np.ndarray, axis: int, source=None) -> None:
    got = kd.unique(kd.asarray(a) if source is None else source, True, True, True, axis=axis)
    want = np.unique(a, True, True, True, axis=axis)
    for g, w in zip(got, want, strict=True):
        g = g.numpy()
        assert g.shape == w.shape, (g.shape, w.shape)
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", ["int32", "float32", "bool"])
def test_rows_and_other_axes(dtype):
    a = np.random.default_rng(1).integers(0, 2, (6, 2, 2)).astype(dtype)
    for axis in (0, -1):
        _check(a, axis)


def test_nan_signed_zero_and_edges():
    a = np.array([[1.0, np.nan], [1.0, np.nan], [-0.0, 2.0], [0.0, 2.0], [0.0, 1.0]], np.float32)
    _check(a, 0)
    _check(np.zeros((0, 3), np.int32), 0)
    _check(np.zeros((1, 3), np.int32), 0)
    _check(np.zeros((4, 0), np.int32), 0)
    b = np.arange(24, dtype=np.int32).reshape(4, 6) % 3
    _check(b[:, ::2], 1, kd.asarray(b)[:, ::2])  # a non-contiguous view


def test_wide_rows(monkeypatch):
    """Rows of thousands of columns: one sort per column (lexsort's), the running order realised every
    REALIZE_EVERY sorts (a chain of 4000 lazy sorts took 12.6 s on lavapipe for 3 rows, 1.7 s so; one row sorts
    nothing)."""
    from kdsl.frontend.array import lexicographic

    monkeypatch.setattr(lexicographic, "REALIZE_EVERY", 8)
    rng = np.random.default_rng(5)
    x = rng.integers(0, 2, (5, 40)).astype(np.float64)
    x[3] = x[1]
    for got, want in zip(kd.unique(kd.asarray(x), axis=0, return_inverse=True, return_counts=True),
                         np.unique(x, axis=0, return_inverse=True, return_counts=True), strict=True):
        np.testing.assert_array_equal(got.numpy(), want)
    one = rng.integers(0, 3, (1, 5000)).astype(np.int16)
    np.testing.assert_array_equal(kd.unique(kd.asarray(one), axis=0).numpy(), np.unique(one, axis=0))
