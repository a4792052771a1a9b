"""SVD-based functions on matrices whose entries' squares overflow or underflow (found by the array API suite:
``matrix_rank`` of float32 entries near 4e16 and ``pinv`` of float64 entries near 1e154 raised "SVD did not
converge"). The sweeps now run on each matrix scaled by a power of two (exact) that brings its largest entry
near 1, as LAPACK's gesvj does; checked against NumPy, normwise (relative to the largest singular value)."""

import numpy as np
import pytest

import kdsl as kd


def _matrix(shape, scale, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return (x * scale).astype(dtype)


def _suite_like(dtype, big):
    """Nearly constant matrices with a few outliers, as Hypothesis drew them: singular values over 50 decades."""
    x = np.full((2, 6, 6), -4.1842997e16 if big < 1e100 else -6.64e7, dtype)
    x[0, 1, 2], x[0, 5, 2] = 7.3748305e6, 1.4885159
    x[1, 3, 4] = big
    return x


CASES = [(np.float32, 4e16), (np.float32, 1e-25), (np.float32, 1e30), (np.float64, 1e154), (np.float64, 1e-160),
         (np.complex64, 1e18), (np.complex128, 1e-150)]


@pytest.mark.parametrize("dtype, scale", CASES)
@pytest.mark.parametrize("shape", [(3, 3), (2, 5, 3), (4, 2, 6), (9, 2)])
def test_svdvals_at_extreme_scales(dtype, scale, shape):
    x = _matrix(shape, scale, dtype, seed=len(shape))
    want = np.linalg.svd(x, compute_uv=False)
    got = kd.linalg.svdvals(kd.asarray(x)).numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 50 * np.finfo(want.dtype).eps * want[..., :1]
    assert np.all(np.abs(got - want) <= tol), (got, want)


@pytest.mark.parametrize("dtype, scale", CASES)
def test_pinv_and_matrix_rank_at_extreme_scales(dtype, scale):
    x = _matrix((3, 4, 3), scale, dtype, seed=7)
    x[1, :, 2] = x[1, :, 0] * 2  # rank 2
    rank = kd.linalg.matrix_rank(kd.asarray(x)).numpy()
    np.testing.assert_array_equal(rank, np.linalg.matrix_rank(x))
    want = np.linalg.pinv(x[[0, 2]])
    got = kd.linalg.pinv(kd.asarray(x[[0, 2]])).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=2e-3 if np.finfo(dtype).bits <= 32 else 1e-9,
                               atol=1e-5 * np.abs(want).max())


@pytest.mark.parametrize("dtype, big", [(np.float32, 7.0), (np.float64, -1.28e154)])
def test_nearly_constant_matrices_from_the_suite(dtype, big):
    x = _suite_like(dtype, big)
    want = np.linalg.svd(x, compute_uv=False)
    got = kd.linalg.svdvals(kd.asarray(x)).numpy()
    assert np.all(np.abs(got - want) <= 50 * np.finfo(dtype).eps * want[..., :1])
    u, s, vh = kd.linalg.svd(kd.asarray(x), full_matrices=False)
    rebuilt = (u.numpy() * s.numpy()[..., None, :]) @ vh.numpy()
    assert np.all(np.abs(rebuilt - x) <= 100 * np.finfo(dtype).eps * want[..., :1, None])


def test_zero_and_empty_matrices_are_unchanged():
    for x in (np.zeros((2, 3, 3), np.float32), np.zeros((0, 3, 3), np.float32), np.zeros((2, 0, 3), np.float32)):
        np.testing.assert_array_equal(kd.linalg.svdvals(kd.asarray(x)).numpy(), np.linalg.svd(x, compute_uv=False))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_left_vectors_see_unit_columns(dtype):
    """U's QR runs on W's columns scaled to peaks in [0.5, 1) (exact powers of two), so columns of subnormal or
    underflowing squares (which NaN'd U on the H200) reach it as ordinary numbers; zero columns stay zero."""
    import importlib

    svd_module = importlib.import_module("kdsl.linalg.svd")
    tiny = np.finfo(dtype).smallest_subnormal
    w = np.zeros((2, 3, 4), dtype)
    w[0, :, 0] = [3.0, -1.0, 2.0]
    w[0, :, 1] = [tiny, 0, 4 * tiny]
    w[0, :, 2] = np.array([1e-3, -2e-3, 0]) * float(np.finfo(dtype).tiny) ** 0.5  # squares underflow
    w[1, :, 3] = [np.inf, 1.0, 0.0]
    got = svd_module._unit_columns(kd.asarray(w)).numpy()
    peak = np.abs(got).max(axis=-2)
    flushed = peak[0, 1] == 0  # a GPU that flushes subnormals (the H200's float32) sees column 1 as zero
    assert np.all((peak[0, :3] >= 0.5) & (peak[0, :3] < 1) | ([False, flushed, False])), peak
    assert np.all(got[0, :, 3] == 0) and np.all(got[1, :, :3] == 0)
    np.testing.assert_array_equal(got[1, :, 3], 0)  # a non-finite column is left out of the scaling
    for j in (0, 2) if flushed else range(3):  # each column is a positive multiple of the original, exactly
        col = w[0, :, j].real  # the test's columns are real: NumPy's complex division by a subnormal overflows
        np.testing.assert_array_equal(got[0, :, j], np.ldexp(col, -np.frexp(np.abs(col).max())[1]))
