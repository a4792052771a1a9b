"""eigh, eigvalsh, svd, svdvals, pinv, matrix_rank, lstsq against NumPy (eigenvectors and singular vectors
are checked through their defining identities: their signs are not unique)."""

import importlib

import numpy as np
import pytest
from linalg_testing import DTYPES, jacobi_tol, layouts, symmetric, tol

import kdsl as kd
from kdsl.linalg import graph, jacobi, jacobi_block, kernels

eigh_module = importlib.import_module("kdsl.linalg.eigh")  # the package's ``eigh`` is the function


def _mT(x):
    return np.swapaxes(x, -1, -2)


def _check_eigh(a, w, v, dtype):
    scale, n = max(1.0, np.abs(a).max()), a.shape[-1]
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), **jacobi_tol(dtype, scale, n))
    np.testing.assert_allclose(a @ v, v * w[..., None, :], **jacobi_tol(dtype, scale, n))
    np.testing.assert_allclose(_mT(v) @ v, np.broadcast_to(np.eye(n), v.shape), **jacobi_tol(dtype, columns=n))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (5, 5), (3, 7, 7), (2, 1, 16, 16)])
def test_eigh_matches_numpy(shape, dtype):
    a = symmetric(shape, dtype, seed=len(shape))
    w, v = kd.linalg.eigh(kd.asarray(a))
    assert w.shape == shape[:-1] and v.shape == shape and w.dtype.name == dtype
    _check_eigh(a.astype(np.float64), w.numpy(), v.numpy(), dtype)
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(a)).numpy(), np.linalg.eigvalsh(a), **jacobi_tol(dtype))


def test_eigh_repeated_eigenvalues_uplo_and_layouts():
    q = np.linalg.qr(np.random.default_rng(0).standard_normal((6, 6)))[0]
    a = q @ np.diag([1.0, 1.0, 1.0, 2.0, 2.0, -3.0]) @ q.T  # degenerate: any basis of each eigenspace is right
    for name, view, host in layouts(np.stack([a, np.eye(6)])):
        w, v = kd.linalg.eigh(view)
        assert w.shape == (2, 6), name
        _check_eigh(host, w.numpy(), v.numpy(), "float64")
    garbage_above = np.tril(a) + np.triu(np.full_like(a, 9.0), 1)
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(garbage_above)).numpy(), np.linalg.eigvalsh(a),
                               **tol("float64"))
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(garbage_above.T), UPLO="U").numpy(),
                               np.linalg.eigvalsh(a), **tol("float64"))
    assert kd.linalg.eigh(kd.zeros((0, 3, 3))).eigenvectors.shape == (0, 3, 3)


def test_eigh_graded_matrix_keeps_small_eigenvalues():
    d = np.diag(10.0 ** -np.arange(0, 12, 2))  # eigenvalues 1 .. 1e-10: Jacobi keeps them to relative accuracy
    q = np.linalg.qr(np.random.default_rng(1).standard_normal((6, 6)))[0]
    w = kd.linalg.eigvalsh(kd.asarray(d + 1e-13 * (q + q.T))).numpy()
    np.testing.assert_allclose(w, np.sort(np.diag(d)), rtol=1e-2)


def _check_svd(a, u, s, vh, dtype, full):
    scale = max(1.0, np.abs(a).max())
    want_s = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    k = s.shape[-1]
    np.testing.assert_allclose(s, want_s, **jacobi_tol(dtype, scale, k))
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, **jacobi_tol(dtype, scale, k))
    np.testing.assert_allclose(_mT(u) @ u, np.broadcast_to(np.eye(u.shape[-1]), _mT(u).shape[:-1] + (u.shape[-1],)),
                               **jacobi_tol(dtype, columns=k))
    np.testing.assert_allclose(vh @ _mT(vh), np.broadcast_to(np.eye(vh.shape[-2]), vh.shape[:-1] + (vh.shape[-2],)),
                               **jacobi_tol(dtype, columns=k))
    want = np.linalg.svd(a, full_matrices=full)
    assert u.shape == want.U.shape and vh.shape == want.Vh.shape


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (4, 3), (3, 5), (2, 6, 6), (2, 1, 12, 5)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_matches_numpy(shape, full, dtype):
    a = np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype)
    u, s, vh = kd.linalg.svd(kd.asarray(a), full_matrices=full)
    assert s.dtype.name == dtype
    _check_svd(a.astype(np.float64), u.numpy(), s.numpy(), vh.numpy(), dtype, full)
    np.testing.assert_allclose(kd.linalg.svdvals(kd.asarray(a)).numpy(), np.linalg.svd(a, compute_uv=False),
                               **jacobi_tol(dtype))


def test_svd_rank_deficient_and_layouts():
    a = np.random.default_rng(2).standard_normal((2, 7, 4))
    a[..., 3] = a[..., 1] - a[..., 0]  # rank 3: the completed U is still orthonormal
    for name, view, host in layouts(a):
        u, s, vh = kd.linalg.svd(view)
        assert s.shape == (2, 4), name
        _check_svd(host, u.numpy(), s.numpy(), vh.numpy(), "float64", True)
    u, s, vh = kd.linalg.svd(kd.zeros((3, 2)))
    assert s.numpy().tolist() == [0.0, 0.0]
    _check_svd(np.zeros((3, 2)), u.numpy(), s.numpy(), vh.numpy(), "float64", True)
    assert kd.linalg.svd(kd.zeros((0, 3, 2))).U.shape == (0, 3, 3)
    assert kd.linalg.svdvals(kd.zeros((2, 0, 3))).shape == (2, 0)


def test_pinv_matrix_rank_lstsq():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((2, 6, 4))
    a[1, :, 3] = a[1, :, 0]
    np.testing.assert_allclose(kd.linalg.pinv(kd.asarray(a)).numpy(), np.linalg.pinv(a), **tol("float64"))
    np.testing.assert_array_equal(kd.linalg.matrix_rank(kd.asarray(a)).numpy(), np.linalg.matrix_rank(a))
    np.testing.assert_array_equal(kd.linalg.matrix_rank(kd.asarray(a), tol=1e9).numpy(), [0, 0])
    assert int(kd.linalg.matrix_rank(kd.asarray([0.0, 0.0]))) == 0
    b = rng.standard_normal(6)
    for m in (a[0], a[1], a[0].T[:, :3]):
        bb = b[:m.shape[0]]
        got, want = kd.linalg.lstsq(kd.asarray(m), kd.asarray(bb)), np.linalg.lstsq(m, bb)
        np.testing.assert_allclose(got[0].numpy(), want[0], **tol("float64"))
        np.testing.assert_allclose(got[1].numpy(), want[1], **tol("float64"))
        assert int(got[2]) == want[2]
        np.testing.assert_allclose(got[3].numpy(), want[3], **tol("float64"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5), (3, 1)])
def test_lstsq_rank_dtype_and_value_match_numpy(dtype, shape):
    rng = np.random.default_rng(7)
    m = rng.standard_normal(shape).astype(dtype)
    if shape[1] > 1:
        m[:, -1] = m[:, 0]  # rank deficient
    b = rng.standard_normal(shape[0]).astype(dtype)
    rank, want = kd.linalg.lstsq(kd.asarray(m), kd.asarray(b))[2], np.linalg.lstsq(m, b)[2]
    assert rank.shape == () and rank.dtype.np == np.asarray(want).dtype == np.int32
    assert int(rank) == want


def test_jacobi_rounds_visit_every_pair_once_per_sweep():
    for n in (2, 5, 8):
        pairs = [tuple(sorted(p)) for r in range(n + n % 2 - 1) for p in jacobi.round_pairs(n, r)]
        assert sorted(pairs) == [(i, j) for i in range(n) for j in range(i + 1, n)]
        for r in range(n + n % 2 - 1):  # disjoint within a round
            flat = [i for p in jacobi.round_pairs(n, r) for i in p]
            assert len(flat) == len(set(flat))


def test_sweeps_split_over_dispatches(monkeypatch):
    monkeypatch.setattr(kernels, "loop_budget", lambda: 8)
    a = symmetric((2, 5, 5), "float64")
    w, v = kd.linalg.eigh(kd.asarray(a))
    _check_eigh(a, w.numpy(), v.numpy(), "float64")
    b = a[:, :, :3]
    u, s, vh = kd.linalg.svd(kd.asarray(b))
    _check_svd(b, u.numpy(), s.numpy(), vh.numpy(), "float64", True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_jacobi_converges_on_rank_deficient_input(dtype):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((30, 8)).astype(dtype)
    x[:, 5] = x[:, 1] * 0.3 - x[:, 2] * 0.7  # not exactly dependent in floating point: noise-level values
    x[:, 6] = x[:, 0] * 1e-3
    s = kd.linalg.svdvals(kd.asarray(x)).numpy()
    np.testing.assert_allclose(s, np.linalg.svd(x.astype(np.float64), compute_uv=False), **tol(dtype, 10))
    v = rng.standard_normal((12, 1)).astype(dtype)
    w = kd.linalg.eigvalsh(kd.asarray(v @ v.T)).numpy()  # rank 1: eleven eigenvalues at rounding level
    np.testing.assert_allclose(w, np.linalg.eigvalsh((v @ v.T).astype(np.float64)), **tol(dtype, 10))


def _block_path(monkeypatch, b: int) -> None:
    """Route eigh to block Jacobi with blocks of ``b`` (2b x 2b inner problems) from order 2 on."""
    monkeypatch.setattr(eigh_module, "BLOCK_EIGH", 2)
    monkeypatch.setattr(jacobi_block, "MAX_BLOCK", b)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(1, 2, 2), (2, 3, 3), (2, 9, 9), (1, 13, 13), (3, 16, 16)])
def test_eigh_by_block_jacobi(shape, dtype, monkeypatch):
    _block_path(monkeypatch, 2 if shape[-1] < 10 else 4)  # several blocks, the last one padded where n % b != 0
    rng = np.random.default_rng(shape[-1])
    a = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if dtype.startswith("complex") else 0)
    a = ((a + np.conj(_mT(a))) / 2).astype(dtype)
    real = "float32" if dtype in ("float32", "complex64") else "float64"
    w, v = kd.linalg.eigh(kd.asarray(a))
    assert jacobi_block.block_size(kd.asarray(a).dtype) == (2 if shape[-1] < 10 else 4)
    rt = jacobi_tol(real, max(1.0, np.abs(a).max()))
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(a), **rt)
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * w.numpy()[..., None, :], **rt)
    vh = np.conj(_mT(v.numpy()))
    np.testing.assert_allclose(vh @ v.numpy(), np.broadcast_to(np.eye(shape[-1]), v.shape), **jacobi_tol(real))
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(a)).numpy(), np.linalg.eigvalsh(a), **rt)


def test_block_jacobi_degenerate_graded_and_uplo(monkeypatch):
    _block_path(monkeypatch, 4)
    q = np.linalg.qr(np.random.default_rng(2).standard_normal((21, 21)))[0]
    lam = np.array([1.0] * 7 + [2.0] * 7 + [-3.0] * 6 + [0.0])  # three 6- or 7-fold eigenvalues and a zero
    a = q @ np.diag(lam) @ q.T
    w, v = kd.linalg.eigh(kd.asarray(np.stack([a, np.eye(21), np.zeros((21, 21))])))
    _check_eigh(np.stack([a, np.eye(21), np.zeros((21, 21))]), w.numpy(), v.numpy(), "float64")
    garbage_above = np.tril(a) + np.triu(np.full_like(a, 9.0), 1)
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(garbage_above.T), UPLO="U").numpy(), np.sort(lam),
                               **tol("float64", 10))
    d = np.diag(10.0 ** -np.arange(0, 12, 1.0))  # eigenvalues 1 .. 1e-11 across blocks: kept to relative accuracy
    g = np.linalg.qr(np.random.default_rng(3).standard_normal((12, 12)))[0]
    w = kd.linalg.eigvalsh(kd.asarray(d + 1e-14 * (g + g.T))).numpy()
    np.testing.assert_allclose(w, np.sort(np.diag(d)), rtol=1e-2)


@pytest.mark.parametrize("cpu", [True, False])
@pytest.mark.parametrize("b", [4, 16])
def test_block_jacobi_thread_mappings(cpu, b, monkeypatch):
    """CPU drivers run the block kernels with fewer, fatter threads (64 for the solve, 8 x 8 product blocks);
    GPUs with many thin ones: both mappings, whichever device runs the suite."""
    _block_path(monkeypatch, b)
    monkeypatch.setattr(kernels, "cpu_device", lambda: cpu)
    s = 2 * b
    assert jacobi_block.product_block(s) == (min(8, s // 2) if cpu else 2 if (s // 2) ** 2 <= kernels.max_threads()
                                             else 4)
    a = symmetric((2, 3 * b + 1, 3 * b + 1), "float32", seed=b)
    w, v = kd.linalg.eigh(kd.asarray(a))
    _check_eigh(a.astype(np.float64), w.numpy(), v.numpy(), "float32")


def test_block_jacobi_at_its_own_threshold():
    n = eigh_module.BLOCK_EIGH  # the smallest order the default path diagonalises by block Jacobi
    a = symmetric((1, n, n), "float32", seed=4)
    w, v = kd.linalg.eigh(kd.asarray(a))
    _check_eigh(a.astype(np.float64), w.numpy(), v.numpy(), "float32")
    b = jacobi_block.block_size(kd.float32)
    assert 2 <= b <= jacobi_block.MAX_BLOCK and 2 * (2 * b) * (2 * b + 1) * 4 <= kernels.shared_limit()


def test_block_jacobi_inner_sweeps_fit_the_loop_budget(monkeypatch):
    monkeypatch.setattr(jacobi_block, "INNER_SWEEPS", 4)
    assert jacobi_block.inner_sweeps(64, 1024) == 4  # well inside lavapipe's budget
    monkeypatch.setattr(kernels, "loop_budget", lambda: 8)
    assert jacobi_block.inner_sweeps(64, 1024) == 1  # at least one, even where one is over the budget
    _block_path(monkeypatch, 2)
    a = symmetric((2, 7, 7), "float64", seed=5)
    w, v = kd.linalg.eigh(kd.asarray(a))  # one inner sweep a round (not four): more outer sweeps, the same result
    _check_eigh(a, w.numpy(), v.numpy(), "float64")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_svd_by_whole_gpu_rounds(dtype, monkeypatch):
    monkeypatch.setattr(jacobi, "WIDE_EIGH", 2)  # a dispatch per round, a workgroup per pair of columns
    monkeypatch.setattr(kernels, "cpu_device", lambda: False)  # as on a GPU (a CPU driver sweeps in one workgroup)
    rng = np.random.default_rng(6)
    a = rng.standard_normal((2, 11, 6)) + (1j * rng.standard_normal((2, 11, 6)) if dtype[0] == "c" else 0)
    a = a.astype(dtype)
    real = "float32" if dtype in ("float32", "complex64") else "float64"
    u, s, vh = kd.linalg.svd(kd.asarray(a), full_matrices=False)
    rt = jacobi_tol(real, columns=6)  # (swept in float32 as on a GPU: the columns are past the patched WIDE_EIGH)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), **rt)
    np.testing.assert_allclose((u.numpy() * s.numpy()[..., None, :]) @ vh.numpy(), a, **rt)


@pytest.mark.parametrize("path", ["scalar", "block"])
def test_eigh_float32_rotations_do_not_drift(path, monkeypatch):
    if path == "block":
        _block_path(monkeypatch, 4)  # 16 blocks: 15 rounds a sweep
    a = symmetric((2, 64, 64), "float32", seed=64)
    w = kd.linalg.eigvalsh(kd.asarray(a)).numpy()
    err = np.abs(w - np.linalg.eigvalsh(a.astype(np.float64))).max() / np.abs(w).max()
    # Rutishauser's form keeps float32 sweeps near 2e-6; c x - s y with c rounded to 1 for tiny angles drifted to
    # 9e-6 (scalar) and 1.8e-5 (block) on lavapipe. Swept in float64 (a device with it): NumPy's 0.3 eps
    assert err < (float(np.finfo(np.float32).eps) if kd.device().supports(kd.float64) else 5e-6)


def test_block_jacobi_stops_without_a_sweep_that_rotates_nothing(monkeypatch):
    """The end-of-sweep check (every off-diagonal entry passes the rotation test) ends the iteration: a diagonal
    matrix takes one sweep, and so does one that a single rotation per pair makes diagonal (two blocks of 2 x 2
    rotations, no coupling between them); a coupled matrix takes more, each one a sweep that rotated."""
    _block_path(monkeypatch, 2)
    runs = []
    run = graph.Plan.run
    monkeypatch.setattr(graph.Plan, "run", lambda self: runs.append(1) or run(self))
    a = np.diag([4.0, 1.0, -2.0, 3.0]).astype(np.float32)
    for diagonal, sweeps in ((a, 1), (a + np.array([[0, .5, 0, 0], [.5, 0, 0, 0], [0] * 4, [0] * 4], np.float32), 1)):
        graph.clear()
        runs.clear()
        w, v = kd.linalg.eigh(kd.asarray(diagonal))
        np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(diagonal), rtol=1e-6, atol=1e-6)
        assert len(runs) == sweeps
    b = symmetric((1, 9, 9), "float32", seed=5)[0]
    runs.clear()
    w, v = kd.linalg.eigh(kd.asarray(b))
    _check_eigh(b[None].astype(np.float64), w.numpy()[None], v.numpy()[None], "float32")
    assert 1 < len(runs) < 40
