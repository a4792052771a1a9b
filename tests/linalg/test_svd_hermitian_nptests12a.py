"""``svd(hermitian=True)`` (and pinv's and matrix_rank's ``hermitian``) take NumPy's eigh path: singular values
are the eigenvalues' magnitudes, ``Vh = (U * copysign(1, w))^H``, and only the lower triangle is read (the flag
was accepted and ignored). Eigenvectors are unique up to sign (phase), so U is compared through reconstruction
and the magnitudes of its entries for distinct eigenvalues."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(21)


def _hermitian(shape, dtype) -> np.ndarray:
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    x = x + np.conj(np.swapaxes(x, -1, -2))
    return x.astype(dtype)


def _tol(dtype) -> float:
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


@pytest.mark.parametrize("shape", [(3, 3), (1, 1), (2, 4, 4), (5, 5)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_hermitian_svd_matches_numpy(shape, dtype) -> None:
    a = _hermitian(shape, dtype)
    u, s, vh = (t.numpy() for t in kd.linalg.svd(kd.asarray(a), hermitian=True))
    wu, ws, wvh = np.linalg.svd(a, hermitian=True)
    tol = _tol(dtype)
    assert u.dtype == wu.dtype and s.dtype == ws.dtype and vh.dtype == wvh.dtype
    np.testing.assert_allclose(s, ws, rtol=tol, atol=tol * ws.max())
    np.testing.assert_allclose(np.abs(u), np.abs(wu), atol=50 * tol)  # random spectra: distinct eigenvalues
    np.testing.assert_allclose((u * s[..., None, :]) @ vh, a, atol=20 * tol * np.abs(a).max())
    # NumPy's relation: Vh is U^H with the eigenvalues' signs moved into its rows
    ratio = np.einsum("...ij,...ji->...i", vh, u)  # the diagonal of Vh U: copysign(1, eigenvalue)
    np.testing.assert_allclose(np.abs(ratio), 1.0, atol=50 * tol)
    want = np.einsum("...ij,...ji->...i", wvh, wu)
    np.testing.assert_allclose(ratio.real, want.real, atol=50 * tol)
    np.testing.assert_allclose(
        kd.linalg.svd(kd.asarray(a), hermitian=True, compute_uv=False).numpy(),
        np.linalg.svd(a, hermitian=True, compute_uv=False), rtol=tol, atol=tol * ws.max())


def test_only_the_lower_triangle_is_read() -> None:
    a = np.tril(_hermitian((4, 4), np.float64)) + np.triu(np.full((4, 4), 100.0), 1)
    got = kd.linalg.svd(kd.asarray(a), hermitian=True, compute_uv=False).numpy()
    np.testing.assert_allclose(got, np.linalg.svd(a, hermitian=True, compute_uv=False), rtol=1e-10)
    assert not np.allclose(got, np.linalg.svd(a, compute_uv=False))  # the flag changes the answer, as NumPy's


def test_zero_and_negative_eigenvalues() -> None:
    a = np.array([[0.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 1.0]])
    u, s, vh = (t.numpy() for t in kd.linalg.svd(kd.asarray(a), hermitian=True))
    wu, ws, wvh = np.linalg.svd(a, hermitian=True)
    np.testing.assert_array_equal(s, ws)
    np.testing.assert_allclose(np.abs(vh), np.abs(wvh))
    np.testing.assert_allclose(vh @ vh.T, np.eye(3), atol=1e-12)  # copysign: the zero eigenvalue's row is kept


def test_nan_propagates() -> None:
    a = np.array([[np.nan, 0.0], [0.0, 1.0]])
    s = kd.linalg.svd(kd.asarray(a), hermitian=True, compute_uv=False).numpy()
    assert np.isnan(s).any()


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0)])
def test_empty(shape) -> None:
    a = np.zeros(shape)
    for got, want in zip(kd.linalg.svd(kd.asarray(a), hermitian=True), np.linalg.svd(a, hermitian=True),
                         strict=True):
        assert got.shape == want.shape


def test_non_square_raises() -> None:
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.svd(np.ones((2, 3)), hermitian=True)
    with pytest.raises(np.linalg.LinAlgError):
        kd.linalg.svd(kd.ones((2, 3)), hermitian=True)


def test_view_input() -> None:
    base = _hermitian((6, 6), np.float64)
    view = base[::2, ::2]
    got = kd.linalg.svd(kd.asarray(base)[::2, ::2], hermitian=True, compute_uv=False).numpy()
    np.testing.assert_allclose(got, np.linalg.svd(view, hermitian=True, compute_uv=False), rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_pinv_and_matrix_rank_hermitian(dtype) -> None:
    a = _hermitian((4, 4), dtype)
    a = a @ np.diag([1.0, 1.0, 1.0, 0.0]) @ np.conj(a.T)  # rank 3, Hermitian
    np.testing.assert_allclose(kd.linalg.pinv(kd.asarray(a), hermitian=True).numpy(),
                               np.linalg.pinv(a, hermitian=True), rtol=1e-6, atol=1e-8)
    assert int(kd.linalg.matrix_rank(kd.asarray(a), hermitian=True)) == np.linalg.matrix_rank(a, hermitian=True)
