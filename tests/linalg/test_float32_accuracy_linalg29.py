"""float32 (complex64) Jacobi results against NumPy's, which computes float32 linalg in double and rounds.

kdsl's float32 ``svd`` drifted from NumPy's as the matrix grew (singular values 1.2e-5 off at 140 x 135, 200 eps,
where NumPy's are within 0.5 eps of the float64 truth): the one-sided rotations took ``c x - s y`` with ``c``
rounded to 1 for small angles (a norm growth that adds up over the sweeps), and every rotation rounded the columns
to float32. Now the rotations take Rutishauser's form, and float32 matrices are swept in float64 where the device
has it (stopping at float32's threshold), rounded once at the end: the singular values and eigenvalues are those
of NumPy to a unit in the last place. ``lstsq`` computes float32 input in float64 as NumPy's does (its cutoff
``max(m, n) * eps`` is double's there, as NumPy's): a float32 matrix of condition 1e6 lost most of its rank.
"""

import numpy as np
import pytest

import kdsl as kd
from kdsl.linalg import graph, jacobi, kernels

EPS32 = float(np.finfo(np.float32).eps)
WIDE = kd.device().supports(kd.float64)
needs_float64 = pytest.mark.skipif(not WIDE, reason="float64 sweeps need a device with float64")


def _swept_wide(columns):
    """Whether float32 input of ``columns`` columns is swept in float64 here (a GPU keeps large ones in float32:
    jacobi.sweep_dtype); those that are not are held to the float32 sweeps' bounds
    (test_float32_sweeps_without_float64_do_not_drift)."""
    return jacobi.sweep_dtype(kd.float32, columns) == kd.float64


def _gaussian(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype == "complex64":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _conditioned(n, cond, seed):
    rng = np.random.default_rng(seed)
    u, v = (np.linalg.qr(rng.standard_normal((n, n)))[0] for _ in range(2))
    return ((u * np.logspace(0, -np.log10(cond), n)) @ v.T).astype(np.float32)


def _normwise(x, ref):
    """max |x - ref| over the largest |ref| of each matrix: LAPACK's normwise error of eigen/singular values."""
    ref = np.asarray(ref, np.float64)
    return float((np.abs(np.asarray(x, np.float64) - ref).max(axis=-1) / np.abs(ref).max(axis=-1)).max())


def _orth_error(q):
    q = np.asarray(q, np.complex128)
    return float(np.abs(np.swapaxes(q, -1, -2).conj() @ q - np.eye(q.shape[-1])).max())


def test_sweep_dtype_follows_the_devices_float64():
    assert jacobi.sweep_dtype(kd.float32) == (kd.float64 if WIDE else kd.float32)
    assert jacobi.sweep_dtype(kd.complex64) == (kd.complex128 if WIDE else kd.complex64)
    assert jacobi.sweep_dtype(kd.float64) == kd.float64
    large = jacobi.sweep_dtype(kd.float32, jacobi.WIDE_EIGH)  # swept across a GPU: float32 (memory-bound)
    assert large == (kd.float64 if WIDE and kernels.cpu_device() else kd.float32)


def test_large_matrices_on_a_gpu_keep_float32_sweeps(monkeypatch):
    monkeypatch.setattr(kernels, "cpu_device", lambda: False)
    assert jacobi.sweep_dtype(kd.float32, jacobi.WIDE_EIGH) == kd.float32
    assert jacobi.sweep_dtype(kd.complex64, jacobi.WIDE_EIGH + 1) == kd.complex64
    assert jacobi.sweep_dtype(kd.float32, jacobi.WIDE_EIGH - 1) == (kd.float64 if WIDE else kd.float32)


@needs_float64
@pytest.mark.parametrize("shape", [(8, 8), (33, 33), (140, 135), (135, 140), (100, 30), (4, 16, 12)])
def test_svd_float32_matches_numpy_to_an_ulp(shape):
    a = _gaussian(shape, "float32", seed=sum(shape))
    u, s, vh = (x.numpy() for x in kd.linalg.svd(kd.asarray(a), full_matrices=False))
    assert s.dtype == u.dtype == vh.dtype == np.float32
    if not _swept_wide(min(shape[-2:])):  # a GPU's large matrix: float32 sweeps
        assert _normwise(s, np.linalg.svd(a.astype(np.float64), compute_uv=False)) < 12 * EPS32
        assert _orth_error(np.swapaxes(vh, -1, -2)) < 30 * EPS32
        return
    np.testing.assert_array_max_ulp(s, np.linalg.svd(a, compute_uv=False), maxulp=1)
    assert _normwise(s, np.linalg.svd(a.astype(np.float64), compute_uv=False)) < EPS32
    # NumPy's own: 0.4 eps for these; before: 3.5 eps at 8 x 8, 74 at 64 x 64, 500 for V at 256 x 256
    back = (u.astype(np.float64) * s[..., None, :]) @ vh
    rec = np.linalg.norm(back - a, axis=(-2, -1)) / np.linalg.norm(a, axis=(-2, -1))
    assert rec.max() < 2 * EPS32
    assert _orth_error(u) < 2 * EPS32 and _orth_error(np.swapaxes(vh, -1, -2)) < 2 * EPS32
    np.testing.assert_array_equal(kd.linalg.svdvals(kd.asarray(a)).numpy(), s)


@needs_float64
@pytest.mark.parametrize("cond", [1e3, 1e6])
def test_svdvals_ill_conditioned_float32(cond):
    a = _conditioned(48, cond, seed=int(np.log10(cond)))
    s = kd.linalg.svdvals(kd.asarray(a)).numpy()
    np.testing.assert_array_max_ulp(s, np.linalg.svd(a, compute_uv=False), maxulp=1)


@needs_float64
def test_svd_complex64_matches_numpy():
    a = _gaussian((2, 40, 24), "complex64", seed=3)
    u, s, vh = (x.numpy() for x in kd.linalg.svd(kd.asarray(a), full_matrices=False))
    assert u.dtype == np.complex64 and s.dtype == np.float32
    np.testing.assert_array_max_ulp(s, np.linalg.svd(a, compute_uv=False), maxulp=1)
    back = (u.astype(np.complex128) * s[..., None, :]) @ vh
    assert (np.linalg.norm(back - a, axis=(-2, -1)) / np.linalg.norm(a, axis=(-2, -1))).max() < 2 * EPS32
    assert _orth_error(u) < 2 * EPS32


@needs_float64
@pytest.mark.parametrize("n", [8, 40, 130])  # 130: block Jacobi
def test_eigh_float32_matches_numpy(n):
    g = _gaussian((2, n, n), "float32", seed=n)
    a = ((g + np.swapaxes(g, -1, -2)) / 2).astype(np.float32)
    w, v = (x.numpy() for x in kd.linalg.eigh(kd.asarray(a)))
    assert w.dtype == v.dtype == np.float32
    truth = np.linalg.eigvalsh(a.astype(np.float64))
    if not _swept_wide(n):  # a GPU's large matrix: float32 sweeps (block Jacobi at 130: ~15 eps)
        assert _normwise(w, truth) < 30 * EPS32 and _orth_error(v) < 60 * EPS32
        return
    # NumPy's: 0.3 eps; before: 13 eps at 64, 42 eps at 256 (its vectors' orthogonality 50 eps)
    assert _normwise(w, truth) < EPS32
    assert _normwise(np.linalg.eigvalsh(a), truth) < EPS32
    assert _orth_error(v) < 2 * EPS32
    resid = np.linalg.norm(a.astype(np.float64) @ v - v * w[..., None, :], axis=(-2, -1))
    assert (resid / np.linalg.norm(a, axis=(-2, -1))).max() < 2 * EPS32
    np.testing.assert_array_equal(kd.linalg.eigvalsh(kd.asarray(a)).numpy(), w)


@needs_float64
def test_eigh_plans_keep_float64_threshold_apart():
    """A float32 matrix is swept in float64 to float32's threshold, a float64 one to its own: one recorded plan
    per threshold, so the float64 call after a float32 one of the same order is not stopped early."""
    graph.clear()
    g = np.random.default_rng(5).standard_normal((12, 12))
    a = (g + g.T) / 2
    kd.linalg.eigvalsh(kd.asarray(a.astype(np.float32)))
    kd.linalg.svdvals(kd.asarray(a.astype(np.float32)))
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(a)).numpy(), np.linalg.eigvalsh(a), rtol=0, atol=1e-13)
    np.testing.assert_allclose(kd.linalg.svdvals(kd.asarray(a)).numpy(), np.linalg.svd(a, compute_uv=False),
                               rtol=0, atol=1e-13)


@pytest.mark.parametrize("shape", [(140, 135), (2, 64, 64)])
def test_float32_sweeps_without_float64_do_not_drift(shape, monkeypatch):
    """A device without float64 keeps float32 sweeps: Rutishauser's rotations there bring the singular values to
    4 eps at 140 x 135 (before: 1.2e-5, 100 eps) and the vectors' orthogonality to 11 eps (before: 240 eps)."""
    monkeypatch.setattr(jacobi, "sweep_dtype", lambda dtype, columns=0: dtype)
    a = _gaussian(shape, "float32", seed=7)
    u, s, vh = (x.numpy() for x in kd.linalg.svd(kd.asarray(a), full_matrices=False))
    assert _normwise(s, np.linalg.svd(a.astype(np.float64), compute_uv=False)) < 12 * EPS32
    assert _orth_error(np.swapaxes(vh, -1, -2)) < 30 * EPS32


@needs_float64
@pytest.mark.parametrize("shape", [(40, 40), (90, 30), (30, 50)])
def test_lstsq_float32_ill_conditioned_as_numpy(shape):
    """NumPy's lstsq of float32 runs LAPACK's dgelsd in double with double's cutoff: a float32 matrix of condition
    1e6 keeps its full rank; kdsl cut at float32's max(m, n) * eps: rank 35 of 40 (90 x 30: 25 of 30), x 97 % off."""
    m, n = shape
    rng = np.random.default_rng(m + n)
    k = min(m, n)
    u = np.linalg.qr(rng.standard_normal((m, k)))[0]
    v = np.linalg.qr(rng.standard_normal((n, k)))[0]
    a = ((u * np.logspace(0, -6, k)) @ v.T).astype(np.float32)
    b = rng.standard_normal(m).astype(np.float32)
    x, resid, rank, s = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=None)
    want = np.linalg.lstsq(a, b, rcond=None)
    assert int(rank) == want[2] == k
    assert x.dtype == kd.float32 and s.dtype == kd.float32
    np.testing.assert_allclose(x.numpy(), want[0], rtol=4 * EPS32, atol=4 * EPS32 * np.abs(want[0]).max())
    np.testing.assert_array_max_ulp(s.numpy(), want[3], maxulp=1)
    assert resid.shape == want[1].shape
    np.testing.assert_allclose(resid.numpy(), want[1], rtol=1e-5)


def test_lstsq_cutoff_is_the_computing_precisions():
    from kdsl.linalg.svd import lstsq_cutoff
    assert lstsq_cutoff(kd.float64, 5, 7, None) == 7 * float(np.finfo(np.float64).eps)
    assert lstsq_cutoff(kd.float32, 5, 7, None) == 7 * EPS32
    assert lstsq_cutoff(kd.float64, 5, 7, -1) == float(np.finfo(np.float64).eps)
    assert lstsq_cutoff(kd.float64, 5, 7, 1e-3) == 1e-3
