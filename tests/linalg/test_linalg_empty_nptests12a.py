"""svd, pinv, lstsq, qr and the norms of matrices without rows or columns, qr's 'raw' and deprecated modes, and
norm's AxisError, against NumPy (found with NumPy's linalg/tests/test_linalg.py)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd
from kdsl.exceptions import AxisError

EMPTY = [(3, 0), (0, 3), (0, 0), (2, 3, 0), (2, 0, 3), (0, 2, 2)]
DTYPES = [np.float32, np.float64, np.complex64]


def _same(got, want) -> None:
    got = np.asarray(got)
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", EMPTY)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("full", [True, False])
def test_svd_of_empty_matrices(shape, dtype, full) -> None:
    a = np.zeros(shape, dtype=dtype)
    got = kd.linalg.svd(kd.asarray(a), full_matrices=full)
    for g, w in zip(got, np.linalg.svd(a, full_matrices=full), strict=True):
        _same(g, w)


@pytest.mark.parametrize("shape", EMPTY)
def test_pinv_of_empty_matrices(shape) -> None:
    a = np.zeros(shape)
    _same(kd.linalg.pinv(kd.asarray(a)), np.linalg.pinv(a))


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0)])
@pytest.mark.parametrize("bcols", [None, 2])
def test_lstsq_of_empty_matrices(shape, bcols) -> None:
    a = np.zeros(shape)
    b = np.ones((shape[0],) if bcols is None else (shape[0], bcols))
    got = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b))
    want = np.linalg.lstsq(a, b)
    for g, w in zip(got, want, strict=True):
        _same(g, np.asarray(w))


@pytest.mark.parametrize("shape", EMPTY)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_of_empty_matrices(shape, mode) -> None:
    a = np.zeros(shape)
    got, want = kd.linalg.qr(kd.asarray(a), mode=mode), np.linalg.qr(a, mode=mode)
    if mode == "r":
        _same(got, want)
        return
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 2), (1, 1)])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_qr_raw_mode(shape, dtype) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape).astype(dtype)
    if dtype == np.complex128:
        a = a + 1j * rng.standard_normal(shape)
    h, tau = kd.linalg.qr(kd.asarray(a), mode="raw")
    wh, wtau = np.linalg.qr(a, mode="raw")
    _same(h, wh)
    _same(tau, wtau)


def test_qr_raw_of_a_view() -> None:
    a = np.arange(24.0).reshape(4, 6)[:, ::2] ** 0.5
    h, tau = kd.linalg.qr(kd.asarray(np.arange(24.0).reshape(4, 6))[:, ::2] ** 0.5, mode="raw")
    wh, wtau = np.linalg.qr(a, mode="raw")
    _same(h, wh)
    _same(tau, wtau)


def test_qr_deprecated_modes() -> None:
    a = np.random.default_rng(1).standard_normal((4, 3))
    with pytest.warns(DeprecationWarning):
        q, r = kd.linalg.qr(kd.asarray(a), mode="full")
    with pytest.warns(DeprecationWarning):
        wq, wr = np.linalg.qr(a, mode="full")
    _same(q, wq)
    _same(r, wr)
    with pytest.warns(DeprecationWarning):
        h = kd.linalg.qr(kd.asarray(a), mode="economic")
    with pytest.warns(DeprecationWarning):
        wh = np.linalg.qr(a, mode="economic")
    _same(h, wh)
    with pytest.raises(ValueError, match="Unrecognized mode"):
        kd.linalg.qr(kd.asarray(a), mode="bogus")


ORDERS = [None, 1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc"]


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 0, 3), (2, 3, 0)])
@pytest.mark.parametrize("ord", ORDERS)
def test_matrix_norms_of_empty_input(shape, ord) -> None:
    a = np.zeros(shape)
    axis = (-2, -1)
    try:
        want = np.linalg.norm(a, ord, axis=axis)
    except ValueError:
        with pytest.raises(ValueError):
            kd.linalg.norm(kd.asarray(a), ord, axis=axis)
        return
    _same(kd.linalg.norm(kd.asarray(a), ord, axis=axis), np.asarray(want))


@pytest.mark.parametrize("ord", [None, 1, 2, np.inf, 0, 3])
def test_vector_norms_of_empty_input(ord) -> None:
    a = np.zeros((2, 0))
    _same(kd.linalg.norm(kd.asarray(a), ord, axis=1), np.linalg.norm(a, ord, axis=1))
    _same(kd.linalg.vector_norm(kd.asarray(a), ord=2 if ord is None else ord, axis=1),
          np.linalg.vector_norm(a, ord=2 if ord is None else ord, axis=1))


def test_norms_keep_nan_and_inf() -> None:
    a = np.array([[1.0, np.nan], [np.inf, 2.0]])
    for ord in [1, np.inf, "fro"]:
        _same(kd.linalg.norm(kd.asarray(a), ord), np.asarray(np.linalg.norm(a, ord)))


@pytest.mark.parametrize("axis", [(0, 5), (-3, 1), (2, 0)])
def test_norm_axis_out_of_range_raises_axis_error(axis) -> None:
    with pytest.raises(AxisError):
        np.linalg.norm(np.ones((2, 3)), axis=axis)
    with pytest.raises(AxisError):
        kd.linalg.norm(kd.ones((2, 3)), axis=axis)
