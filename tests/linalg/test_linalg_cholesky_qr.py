"""cholesky and qr against NumPy."""

import numpy as np
import pytest
from linalg_testing import DTYPES, layouts, spd, tol

import kdsl as kd
from kdsl.linalg import blocked, gemm, kernels


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (3, 6, 6), (2, 2, 17, 17)])
def test_cholesky_matches_numpy(shape, dtype):
    a = spd(shape, dtype)
    low = kd.linalg.cholesky(kd.asarray(a))
    assert low.dtype.name == dtype
    np.testing.assert_allclose(low.numpy(), np.linalg.cholesky(a), **tol(dtype))
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(a), upper=True).numpy(),
                               np.linalg.cholesky(a, upper=True), **tol(dtype))


def test_cholesky_reads_the_lower_triangle_in_any_layout():
    a = spd((2, 5, 5), "float64")
    lower_only = np.tril(a) + np.triu(np.full_like(a, 7.0), 1)  # garbage above the diagonal is ignored
    for name, view, host in layouts(lower_only):
        np.testing.assert_allclose(kd.linalg.cholesky(view).numpy(), np.linalg.cholesky(host), **tol("float64"),
                                   err_msg=name)


@pytest.mark.parametrize("dtype", DTYPES)
def test_upper_cholesky_reads_the_upper_triangle(dtype):
    """NumPy's ``upper=True`` reads the upper triangle (LAPACK's 'U'): a matrix stored upper only (garbage, or
    NaN, below the diagonal) gives its factor; kdsl read the lower triangle and transposed the result."""
    a = spd((3, 4, 4), dtype)
    garbage = np.tril(np.full_like(a, 7.0), -1)
    upper_only = np.triu(a) + garbage
    for name, view, host in layouts(upper_only):
        np.testing.assert_allclose(kd.linalg.cholesky(view, upper=True).numpy(), np.linalg.cholesky(host, upper=True),
                                   **tol(dtype), err_msg=name)
    with_nan = np.triu(a) + np.where(garbage != 0, np.nan, 0).astype(dtype)
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(with_nan), upper=True).numpy(),
                               np.linalg.cholesky(with_nan, upper=True), **tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_refuses_matrices_that_are_not_positive_definite(dtype):
    bad = np.stack([np.eye(3), np.diag([1.0, -1.0, 1.0])]).astype(dtype)
    with pytest.raises(kd.linalg.LinAlgError, match="not positive definite"):
        kd.linalg.cholesky(kd.asarray(bad))
    with pytest.raises(np.linalg.LinAlgError):
        kd.linalg.cholesky(kd.asarray(np.array([[1.0, 2.0], [2.0, 1.0]], dtype)))
    assert kd.linalg.cholesky(kd.zeros((0, 4, 4))).shape == (0, 4, 4)


@pytest.mark.parametrize("dtype", DTYPES)
# (40, 3): tall, so each reflector is applied by many threads down the rows of each column
@pytest.mark.parametrize("shape", [(1, 1), (5, 3), (3, 5), (2, 6, 6), (2, 1, 20, 7), (40, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_matches_numpy(shape, mode, dtype):
    a = np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype)
    q, r = kd.linalg.qr(kd.asarray(a), mode=mode)
    want = np.linalg.qr(a, mode=mode)
    assert q.shape == want.Q.shape and r.shape == want.R.shape and q.dtype.name == dtype
    np.testing.assert_allclose(q.numpy(), want.Q, **tol(dtype))
    np.testing.assert_allclose(r.numpy(), want.R, **tol(dtype))


def test_qr_r_mode_layouts_and_rank_deficiency():
    a = np.random.default_rng(3).standard_normal((2, 6, 4))
    a[..., 2] = a[..., 0]  # rank 3: Q stays orthonormal and Q @ R = A
    for name, view, host in layouts(a):
        q, r = kd.linalg.qr(view)
        np.testing.assert_allclose(q.numpy() @ r.numpy(), host, **tol("float64"), err_msg=name)
        np.testing.assert_allclose(np.swapaxes(q.numpy(), -1, -2) @ q.numpy(), np.broadcast_to(np.eye(4), (2, 4, 4)),
                                   **tol("float64"))
    # R past the rank depends on the reflector chosen for a column of rounding residue (any direction is right):
    # mode="r" is compared with NumPy on a full-rank matrix, and with the complete mode's R on this one
    np.testing.assert_allclose(kd.linalg.qr(kd.asarray(a), mode="r").numpy(), kd.linalg.qr(kd.asarray(a)).R.numpy(),
                               **tol("float64"))
    full = np.random.default_rng(4).standard_normal((2, 6, 4))
    np.testing.assert_allclose(kd.linalg.qr(kd.asarray(full), mode="r").numpy(), np.linalg.qr(full, mode="r"),
                               **tol("float64"))
    zero = kd.linalg.qr(kd.zeros((3, 2)))  # every reflector is the identity
    np.testing.assert_array_equal(zero.R.numpy(), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="mode"):  # 'full' is NumPy's deprecated alias of 'reduced'
        kd.linalg.qr(kd.asarray(a), mode="fulll")
    empty = kd.linalg.qr(kd.zeros((0, 3, 2)))
    assert empty.Q.shape == (0, 3, 2) and empty.R.shape == (0, 2, 2)


def test_factorisations_split_over_dispatches(monkeypatch):
    monkeypatch.setattr(kernels, "loop_budget", lambda: 8)
    a = spd((2, 6, 6), "float64")
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(a)).numpy(), np.linalg.cholesky(a), **tol("float64"))
    q, r = kd.linalg.qr(kd.asarray(a[..., :4]), mode="complete")
    want = np.linalg.qr(a[..., :4], mode="complete")
    np.testing.assert_allclose(q.numpy(), want.Q, **tol("float64"))
    np.testing.assert_allclose(r.numpy(), want.R, **tol("float64"))


@pytest.mark.parametrize("shape", [(2, 10, 10), (11, 7), (2, 7, 12), (40, 7)])
def test_blocked_qr_matches_numpy(shape, monkeypatch):
    monkeypatch.setattr(blocked, "BLOCK", 3)  # panels of 3: block reflectors applied by gemms
    monkeypatch.setattr(gemm, "SPLIT_MIN_K", 8)  # (40, 7): the products over the rows are split along k
    a = np.random.default_rng(6).standard_normal(shape)
    for mode in ("reduced", "complete"):
        q, r = kd.linalg.qr(kd.asarray(a), mode=mode)
        want = np.linalg.qr(a, mode=mode)
        np.testing.assert_allclose(q.numpy(), want.Q, **tol("float64"))
        np.testing.assert_allclose(r.numpy(), want.R, **tol("float64"))
