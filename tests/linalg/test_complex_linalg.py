"""kd.linalg on complex64/complex128 against NumPy: the LU family (solve, inv, det, slogdet), cholesky of
Hermitian positive-definite matrices, and the norms and products that are array expressions; batched, empty
batches, 1x1, non-contiguous views, ill-conditioned and singular input; and the TypeError of the functions
that lack complex kernels yet. Tolerances as docs/linalg.md (complex64 as float32, complex128 as float64)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from linalg_testing import jacobi_tol, layouts

import kdsl as kd

CDTYPES = ["complex64", "complex128"]
RTOL = {"complex64": 2e-4, "complex128": 1e-10}


def need(dtype: str) -> None:
    """complex128 needs float64 on the device (lavapipe and the H200 have it)."""
    if not kd.device().supports(dtype):
        pytest.skip(f"this device has no float64, so no {dtype}")


def tol(dtype: str, scale: float = 1.0) -> dict:
    return {"rtol": RTOL[dtype] * scale, "atol": RTOL[dtype] * scale}


def crandom(shape, dtype: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def cwell(shape, dtype: str, seed: int = 0) -> np.ndarray:
    """Random complex square matrices with a dominant diagonal (condition number well under 100), scaled to
    a unit diagonal so that determinants stay within complex64's range."""
    n = shape[-1]
    return (crandom(shape, "complex128", seed) / (3 * np.sqrt(n)) + np.eye(n)).astype(dtype)


def chpd(shape, dtype: str, seed: int = 0) -> np.ndarray:
    """Hermitian positive-definite matrices."""
    a = crandom(shape, "complex128", seed)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) / n + np.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (4, 5, 5), (2, 3, 8, 8), (33, 33)])
def test_solve_inv_det_slogdet(dtype, shape):
    need(dtype)
    a = cwell(shape, dtype, seed=len(shape))
    b = crandom(shape[:-1] + (3,), dtype, seed=7)
    x, bb = kd.asarray(a), kd.asarray(b)
    got = kd.linalg.solve(x, bb)
    assert got.dtype.name == dtype and got.shape == b.shape
    np.testing.assert_allclose(got.numpy(), np.linalg.solve(a, b), **tol(dtype))
    np.testing.assert_allclose(kd.linalg.inv(x).numpy(), np.linalg.inv(a), **tol(dtype))
    d, d0 = kd.linalg.det(x).numpy(), np.linalg.det(a)
    assert d.dtype == d0.dtype
    np.testing.assert_allclose(d, d0, rtol=RTOL[dtype])
    sign, logabs = kd.linalg.slogdet(x)
    s0, l0 = np.linalg.slogdet(a)
    assert sign.dtype.name == dtype and logabs.dtype.name == s0.real.dtype.name  # sign complex, log real
    np.testing.assert_allclose(sign.numpy(), s0, **tol(dtype))
    np.testing.assert_allclose(np.abs(sign.numpy()), 1.0, **tol(dtype))
    np.testing.assert_allclose(logabs.numpy(), l0, **tol(dtype))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_vector_rhs_and_layouts(dtype):
    need(dtype)
    a = cwell((2, 6, 6), dtype, seed=3)
    b = crandom((6,), dtype, seed=4)
    for name, x, host in layouts(a):
        np.testing.assert_allclose(kd.linalg.solve(x, kd.asarray(b)).numpy(), np.linalg.solve(host, b[:, None])[..., 0],
                                   **tol(dtype), err_msg=name)
        np.testing.assert_allclose(kd.linalg.inv(x).numpy(), np.linalg.inv(host), **tol(dtype), err_msg=name)
        np.testing.assert_allclose(kd.linalg.det(x).numpy(), np.linalg.det(host), rtol=RTOL[dtype], err_msg=name)


def test_blocked_lu():
    """Over 128 columns the LU runs in panels with a complex triangular solve and matmul update."""
    a = cwell((140, 140), "complex64", seed=5)
    b = crandom((140, 2), "complex64", seed=6)
    np.testing.assert_allclose(kd.linalg.solve(kd.asarray(a), kd.asarray(b)).numpy(), np.linalg.solve(a, b),
                               **tol("complex64"))


def test_mixed_dtypes_promote():
    need("complex128")
    a = cwell((4, 4), "complex64", seed=8)
    b = np.arange(4.0)
    got = kd.linalg.solve(kd.asarray(a), kd.asarray(b))
    assert got.dtype.name == "complex128"  # complex64 with float64 -> complex128, as NumPy
    np.testing.assert_allclose(got.numpy(), np.linalg.solve(a.astype(np.complex128), b), **tol("complex128"))
    real = np.arange(9.0).reshape(3, 3) + 5 * np.eye(3)
    rhs = crandom((3,), "complex128")
    np.testing.assert_allclose(kd.linalg.solve(kd.asarray(real), kd.asarray(rhs)).numpy(), np.linalg.solve(real, rhs),
                               **tol("complex128"))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_empty_batches(dtype):
    need(dtype)
    z = kd.zeros((0, 3, 3), dtype=dtype)
    assert kd.linalg.inv(z).shape == (0, 3, 3)
    assert kd.linalg.solve(z, kd.zeros((0, 3, 2), dtype=dtype)).shape == (0, 3, 2)
    assert kd.linalg.det(z).shape == (0,)
    assert kd.linalg.cholesky(z).shape == (0, 3, 3)
    sign, logabs = kd.linalg.slogdet(z)
    assert sign.shape == logabs.shape == (0,)


@pytest.mark.parametrize("dtype", CDTYPES)
def test_singular(dtype):
    need(dtype)
    a = np.array([[1 + 1j, 2 - 1j], [2 + 2j, 4 - 2j]], dtype)  # second row = 2 x first
    stack = np.stack([cwell((2, 2), dtype), a])
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        kd.linalg.inv(kd.asarray(stack))
    with pytest.raises(kd.linalg.LinAlgError, match="Singular"):
        kd.linalg.solve(kd.asarray(a), kd.asarray(np.ones(2, dtype)))
    assert kd.linalg.det(kd.asarray(a)).numpy() == 0
    sign, logabs = kd.linalg.slogdet(kd.asarray(stack))
    assert sign.numpy()[1] == 0 and logabs.numpy()[1] == -np.inf
    np.testing.assert_allclose(sign.numpy()[0], np.linalg.slogdet(stack[0])[0], **tol(dtype))


def test_pivoting_and_ill_conditioned():
    """A tiny leading entry needs a row swap; a complex Hilbert-like matrix (condition ~1e7) solves to
    about cond * eps."""
    a = np.array([[1e-20j, 1], [1, 1 + 1j]], np.complex128)
    b = np.array([1, 2j], np.complex128)
    np.testing.assert_allclose(kd.linalg.solve(kd.asarray(a), kd.asarray(b)).numpy(), np.linalg.solve(a, b),
                               rtol=1e-14)
    n = 6
    i = np.arange(n)
    h = (1.0 / (i[:, None] + i[None, :] + 1)) * np.exp(1j * (i[:, None] - i[None, :]))  # Hermitian, cond ~1.5e7
    x0 = crandom((n,), "complex128", seed=9)
    x = kd.linalg.solve(kd.asarray(h), kd.asarray(h @ x0)).numpy()
    assert np.linalg.norm(x - x0) / np.linalg.norm(x0) < 1e-7
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(h)).numpy(), np.linalg.cholesky(h), rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (3, 2, 7, 7)])
def test_cholesky(dtype, shape):
    need(dtype)
    a = chpd(shape, dtype, seed=shape[-1])
    low = kd.linalg.cholesky(kd.asarray(a))
    assert low.dtype.name == dtype
    np.testing.assert_allclose(low.numpy(), np.linalg.cholesky(a), **tol(dtype))
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(a), upper=True).numpy(), np.linalg.cholesky(a, upper=True),
                               **tol(dtype))
    assert np.all(np.diagonal(low.numpy(), 0, -2, -1).imag == 0)


def test_blocked_cholesky():
    """Over 128 columns the trailing update is L21 @ L21^H by matmul."""
    a = chpd((140, 140), "complex64", seed=4)
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(a)).numpy(), np.linalg.cholesky(a), **tol("complex64"))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_cholesky_layouts_and_failure(dtype):
    need(dtype)
    a = chpd((2, 5, 5), dtype, seed=2)
    for name, x, host in layouts(a):
        np.testing.assert_allclose(kd.linalg.cholesky(x).numpy(), np.linalg.cholesky(host), **tol(dtype), err_msg=name)
    bad = a.copy()
    bad[1, 2, 2] = -1  # a negative diagonal entry: not positive definite
    with pytest.raises(kd.linalg.LinAlgError, match="not positive definite"):
        kd.linalg.cholesky(kd.asarray(bad))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_norms(dtype):
    need(dtype)
    a = crandom((2, 3, 4), dtype, seed=1)
    x = kd.asarray(a)
    for ord_ in (2, 1, math.inf, -math.inf, 0, 3):
        got = kd.linalg.vector_norm(x, ord=ord_, axis=-1)
        want = np.linalg.vector_norm(a, ord=ord_, axis=-1)
        assert got.dtype.name == want.dtype.name
        np.testing.assert_allclose(got.numpy(), want, **tol(dtype), err_msg=str(ord_))
    np.testing.assert_allclose(kd.linalg.vector_norm(x).numpy(), np.linalg.vector_norm(a), **tol(dtype))
    for ord_ in ("fro", 1, -1, math.inf, -math.inf):
        got = kd.linalg.matrix_norm(x, ord=ord_)
        np.testing.assert_allclose(got.numpy(), np.linalg.matrix_norm(a, ord=ord_), **tol(dtype), err_msg=str(ord_))
    np.testing.assert_allclose(kd.linalg.norm(x[0]).numpy(), np.linalg.norm(a[0]), **tol(dtype))
    strided = kd.asarray(np.concatenate([a, a], axis=-1))[..., ::2]
    np.testing.assert_allclose(kd.linalg.matrix_norm(strided, ord=1).numpy(),
                               np.linalg.matrix_norm(np.concatenate([a, a], axis=-1)[..., ::2], ord=1), **tol(dtype))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_products(dtype):
    need(dtype)
    a = crandom((2, 3, 4), dtype, seed=2)
    v, w = crandom((5,), dtype, seed=3), crandom((5,), dtype, seed=4)
    sq = cwell((3, 3), dtype, seed=5)
    t = crandom((3, 4, 2), dtype, seed=6)
    p, q = crandom((4, 3), dtype, seed=7), crandom((4, 3), dtype, seed=8)
    chains = [crandom((2, 3), dtype, seed=9), crandom((3, 4), dtype, seed=10), crandom((4, 2), dtype, seed=11)]
    cases = [
        (kd.linalg.trace(kd.asarray(a)), np.linalg.trace(a)),
        (kd.linalg.diagonal(kd.asarray(a), offset=1), np.linalg.diagonal(a, offset=1)),
        (kd.linalg.outer(kd.asarray(v), kd.asarray(w)), np.linalg.outer(v, w)),
        (kd.linalg.vecdot(kd.asarray(v), kd.asarray(w)), np.linalg.vecdot(v, w)),  # conjugates x1
        (kd.linalg.cross(kd.asarray(p), kd.asarray(q)), np.linalg.cross(p, q)),
        (kd.linalg.tensordot(kd.asarray(a), kd.asarray(t), axes=2), np.linalg.tensordot(a, t, axes=2)),
        (kd.linalg.multi_dot([kd.asarray(c) for c in chains]), np.linalg.multi_dot(chains)),
    ] + [(kd.linalg.matrix_power(kd.asarray(sq), k), np.linalg.matrix_power(sq, k)) for k in (0, 1, 3, -2)]
    for i, (got, want) in enumerate(cases):
        assert got.dtype.name == want.dtype.name, i
        np.testing.assert_allclose(got.numpy(), want, **tol(dtype), err_msg=str(i))


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (2, 6, 3), (3, 5), (0, 3, 3), (40, 6)])
def test_qr(dtype, shape):
    """Complex reflectors with LAPACK's zlarfg convention (real diagonal of R), so Q and R match NumPy's."""
    need(dtype)
    a = crandom(shape, dtype, seed=shape[-1])
    for mode in ("reduced", "complete"):
        q, r = kd.linalg.qr(kd.asarray(a), mode=mode)
        q0, r0 = np.linalg.qr(a, mode=mode)
        assert q.dtype.name == dtype and q.shape == q0.shape and r.shape == r0.shape
        np.testing.assert_allclose(q.numpy(), q0, **tol(dtype), err_msg=mode)
        np.testing.assert_allclose(r.numpy(), r0, **tol(dtype), err_msg=mode)
    np.testing.assert_allclose(kd.linalg.qr(kd.asarray(a), mode="r").numpy(), np.linalg.qr(a, mode="r"), **tol(dtype))


def test_qr_blocked_layouts_and_rank_deficient():
    a = crandom((131, 130), "complex64", seed=3)
    q, r = kd.linalg.qr(kd.asarray(a))
    q0, r0 = np.linalg.qr(a)
    np.testing.assert_allclose(q.numpy(), q0, **tol("complex64"))
    np.testing.assert_allclose(r.numpy(), r0, **tol("complex64", np.abs(r0).max()))
    for name, x, host in layouts(crandom((2, 5, 5), "complex64", seed=4)):
        q, r = kd.linalg.qr(x)
        np.testing.assert_allclose((q @ r).numpy(), host, **tol("complex64"), err_msg=name)
    low = crandom((6, 2), "complex64", seed=5)
    deficient = low @ np.conj(low.T)  # rank 2: a zero column below the diagonal gives tau 0 (H = I)
    q, r = kd.linalg.qr(kd.asarray(deficient))
    np.testing.assert_allclose((q @ r).numpy(), deficient, **tol("complex64", 10))
    np.testing.assert_allclose((kd.conj(kd.matrix_transpose(q)) @ q).numpy(), np.eye(6), **tol("complex64"))


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 5, 5), (0, 4, 4), (24, 24)])
def test_eigh(dtype, shape):
    """Complex Jacobi rotations: eigenvalues (real, ascending) against NumPy; vectors by A V = V diag(w) and
    V^H V = I (their phases are not unique)."""
    need(dtype)
    g = crandom(shape, dtype, seed=shape[-1])
    herm = (g + np.conj(np.swapaxes(g, -1, -2))) / 2
    scale = max(1.0, float(np.abs(g).max())) if g.size else 1.0
    for uplo in ("L", "U"):
        w, v = kd.linalg.eigh(kd.asarray(g), UPLO=uplo)  # only the UPLO triangle is read
        lower = np.tril(g, -1) if uplo == "L" else np.triu(g, 1)
        diag = np.eye(shape[-1]) * np.diagonal(g, 0, -2, -1).real[..., None, :]  # its imaginary part is ignored
        a = lower + np.conj(np.swapaxes(lower, -1, -2)) + diag
        w0 = np.linalg.eigvalsh(g, UPLO=uplo)
        assert w.dtype.name == w0.dtype.name and v.dtype.name == dtype
        np.testing.assert_allclose(w.numpy(), w0, **jacobi_tol(dtype, scale), err_msg=uplo)
        vv, ww = v.numpy(), w.numpy()
        np.testing.assert_allclose(a @ vv, vv * ww[..., None, :], **jacobi_tol(dtype, scale), err_msg=uplo)
        np.testing.assert_allclose(np.conj(np.swapaxes(vv, -1, -2)) @ vv, np.broadcast_to(np.eye(shape[-1]), vv.shape),
                                   **jacobi_tol(dtype), err_msg=uplo)
        np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(g), UPLO=uplo).numpy(), w0,
                                   **jacobi_tol(dtype, scale))
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(herm)).numpy(), np.linalg.eigvalsh(herm),
                               **jacobi_tol(dtype, scale))


def test_eigh_layouts():
    g = crandom((2, 6, 6), "complex64", seed=2)
    herm = ((g + np.conj(np.swapaxes(g, -1, -2))) / 2).astype(np.complex64)
    for name, x, host in layouts(herm):
        np.testing.assert_allclose(kd.linalg.eigvalsh(x).numpy(), np.linalg.eigvalsh(host), **tol("complex64", 3),
                                   err_msg=name)


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (2, 6, 3), (3, 7), (13, 4), (0, 3, 2)])
def test_svd_pinv_lstsq(dtype, shape):
    """One-sided Jacobi with complex rotations: singular values against NumPy; U S Vh = A with unitary U and
    Vh (their phases are not unique); pinv, svdvals, matrix_rank, the 2-, -2- and nuclear norms from them."""
    need(dtype)
    a = crandom(shape, dtype, seed=sum(shape))
    x = kd.asarray(a)
    k = min(shape[-2:])
    for full in (False, True):
        u, s, vh = (r.numpy() for r in kd.linalg.svd(x, full_matrices=full))
        u0, s0, vh0 = np.linalg.svd(a, full_matrices=full)
        assert u.shape == u0.shape and vh.shape == vh0.shape and s.dtype == s0.dtype
        scale = max(1.0, float(np.abs(a).max())) if a.size else 1.0
        np.testing.assert_allclose(s, s0, **jacobi_tol(dtype, scale))
        np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, **jacobi_tol(dtype, scale))
        for gram in (np.conj(np.swapaxes(u, -1, -2)) @ u, vh @ np.conj(np.swapaxes(vh, -1, -2))):
            np.testing.assert_allclose(gram, np.broadcast_to(np.eye(gram.shape[-1]), gram.shape), **jacobi_tol(dtype))
    np.testing.assert_allclose(kd.linalg.svdvals(x).numpy(), np.linalg.svd(a, compute_uv=False),
                               **jacobi_tol(dtype, max(1.0, float(np.abs(a).max())) if a.size else 1.0))
    np.testing.assert_allclose(kd.linalg.pinv(x).numpy(), np.linalg.pinv(a), **tol(dtype, 10))
    np.testing.assert_array_equal(kd.linalg.matrix_rank(x).numpy(), np.linalg.matrix_rank(a))
    if a.size:
        for ord_ in (2, -2, "nuc"):
            np.testing.assert_allclose(kd.linalg.matrix_norm(x, ord=ord_).numpy(), np.linalg.matrix_norm(a, ord=ord_),
                                       **tol(dtype, 10), err_msg=str(ord_))


def test_svd_rank_deficient_and_lstsq():
    low = crandom((7, 2), "complex128", seed=1)
    a = low @ np.conj(crandom((5, 2), "complex128", seed=2).T)  # rank 2
    u, s, vh = (r.numpy() for r in kd.linalg.svd(kd.asarray(a)))
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), **tol("complex128", 10))
    np.testing.assert_allclose(np.conj(u.T) @ u, np.eye(7), **tol("complex128", 10))  # completed to unitary
    assert int(kd.linalg.matrix_rank(kd.asarray(a))) == 2
    b = crandom((9, 2), "complex128", seed=3)
    m = crandom((9, 3), "complex128", seed=4)
    got = kd.linalg.lstsq(kd.asarray(m), kd.asarray(b))
    want = np.linalg.lstsq(m, b)
    np.testing.assert_allclose(got[0].numpy(), want[0], **tol("complex128", 10))
    assert got[1].dtype.name == "float64"  # squared residual norms are real, as NumPy's
    np.testing.assert_allclose(got[1].numpy(), want[1], **tol("complex128", 10))
    np.testing.assert_allclose(got[3].numpy(), want[3], **tol("complex128", 10))


@pytest.mark.parametrize("fn", [kd.linalg.solve, kd.linalg.cholesky, kd.linalg.qr, kd.linalg.eigh, kd.linalg.svd])
def test_float16_still_refused_by_name(fn):
    x = kd.asarray(np.eye(3, dtype=np.float16))
    args = (x, x) if fn is kd.linalg.solve else (x,)
    with pytest.raises(TypeError, match=rf"{fn.__name__}: array type float16"):
        fn(*args)
