"""The sign of a float sum's zero on every device and reduction path (one workgroup, split passes, columns,
rows): NumPy 2 folds from ``+0.0``, so without ``initial`` a zero sum is ``+0.0`` even of only ``-0.0``
elements; with ``initial`` the fold starts there, so ``-0.0`` stays only when every element added is ``-0.0``.
(The H200 gave ``+0.0`` for ``initial=-0.0``, lavapipe ``-0.0`` without ``initial``: it folds ``0.0 + x``.)"""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [((1,), None), ((5,), 0), ((70_000,), None), ((3, 4), 0), ((3, 4), 1), ((300, 2), 0), ((2, 300), 1),
          ((2, 3, 4), (0, 2)), ((0, 3), 0)]


def _same_sign(got, want):
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, axis", SHAPES, ids=str)
def test_only_negative_zeros(dtype, shape, axis):
    host = np.full(shape, -0.0, dtype)
    x = kd.asarray(host)
    for initial in (None, 0.0, -0.0):
        extra = {} if initial is None else {"initial": initial}
        _same_sign(kd.sum(x, axis=axis, **extra).numpy(), np.sum(host, axis=axis, **extra))
    _same_sign(kd.mean(x, axis=axis).numpy() if host.size else np.float32(0), np.mean(host, axis=axis) if host.size
               else np.float32(0))


@pytest.mark.parametrize("values", [[-0.0, 0.0], [0.0, -0.0], [1.0, -1.0], [-2.5, 2.5, -0.0], [np.nan, -0.0]],
                         ids=str)
@pytest.mark.parametrize("initial", [None, -0.0, 0.0])
def test_mixed_zeros_and_cancellations(values, initial):
    host = np.array(values, np.float32)
    extra = {} if initial is None else {"initial": initial}
    _same_sign(kd.sum(kd.asarray(host), **extra).numpy(), np.sum(host, **extra))
    where = np.array([False] + [True] * (len(values) - 1))
    _same_sign(kd.sum(kd.asarray(host), where=kd.asarray(where), **extra).numpy(), np.sum(host, where=where, **extra))


def test_complex_and_non_contiguous():
    host = np.full((4, 6), -0.0 - 0.0j, np.complex64)
    got, want = kd.sum(kd.asarray(host), axis=0).numpy(), np.sum(host, axis=0)
    _same_sign(got.real, want.real)
    _same_sign(got.imag, want.imag)
    real = np.full((6, 8), -0.0, np.float32)
    _same_sign(kd.sum(kd.asarray(real)[::2, 1::3].T, axis=1).numpy(), np.sum(real[::2, 1::3].T, axis=1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("axis", [0, 1])
def test_cumsum_keeps_a_leading_run_of_negative_zeros(dtype, axis):
    host = np.array([[-0.0, -0.0, 1.5, -0.0], [-0.0, -0.0, -0.0, -0.0], [-0.0, 2.0, -2.0, -0.0]], dtype)
    _same_sign(kd.cumsum(kd.asarray(host), axis=axis).numpy(), np.cumsum(host, axis=axis))
