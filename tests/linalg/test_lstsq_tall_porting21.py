"""``lstsq`` of a tall matrix (many more rows than columns: a regression over many samples) takes ``U^H b``
from one Householder QR of ``[a | b]`` instead of forming the m x n ``Q`` of the SVD: 150 000 points took
22 s on lavapipe, now 0.1 s (kdsl/linalg/svd._tall_factors). The results are NumPy's, for real and complex data,
several right-hand sides, rank-deficient columns and the residuals."""

import time

import numpy as np
import pytest

import kdsl as kd


def _same(got, expected, rtol):
    for g, e in zip(got, expected, strict=True):
        g = np.asarray(g.numpy() if isinstance(g, kd.Array) else g)
        assert g.shape == np.shape(e)
        np.testing.assert_allclose(g, e, rtol=rtol, atol=1e-9)


@pytest.mark.parametrize("k", [None, 1, 3])
def test_tall_real_and_complex(k):
    rng = np.random.default_rng(2190)
    a = rng.normal(size=(40, 3))
    b = rng.normal(size=(40,) if k is None else (40, k))
    _same(kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=None), np.linalg.lstsq(a, b, rcond=None), 1e-9)
    ac, bc = a + 1j * rng.normal(size=a.shape), b - 2j * rng.normal(size=b.shape)
    _same(kd.linalg.lstsq(kd.asarray(ac), kd.asarray(bc), rcond=None), np.linalg.lstsq(ac, bc, rcond=None), 1e-9)


def test_tall_rank_deficient_has_no_residuals():
    rng = np.random.default_rng(2191)
    x = rng.normal(size=(30, 2))
    a = np.column_stack([x, x[:, 0] - 2 * x[:, 1]])  # a third column in the span of the first two
    b = rng.normal(size=30)
    got, expected = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=None), np.linalg.lstsq(a, b, rcond=None)
    assert int(got[2]) == expected[2] == 2 and got[1].shape == expected[1].shape == (0,)
    _same([got[0], got[3][:2]], [expected[0], expected[3][:2]], 1e-8)


def test_many_points_are_fast():
    rng = np.random.default_rng(2192)
    t = rng.uniform(0, 10, 60_000)
    a = np.column_stack([t, np.ones_like(t)])
    b = 2.5 * t - 1.0 + rng.normal(0, 0.1, t.size)
    kd.linalg.lstsq(kd.asarray(a[:50]), kd.asarray(b[:50]), rcond=None)[0].numpy()  # compile first
    start = time.perf_counter()
    got = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=None)
    got[0].numpy()
    assert time.perf_counter() - start < 2.0  # forming Q took ~10 s for 60 000 rows on lavapipe
    _same(got, np.linalg.lstsq(a, b, rcond=None), 1e-8)


def test_q_of_a_tall_narrow_matrix_is_fast():
    """Q of a 30 000 x 2 QR: its reflector block's Gram products (2 x 2 over 30 000 rows) ran on 64 x 64
    tiles, 1 000 times the work wanted (~2.5 s on lavapipe); a 2 x 2 output now takes the 16 x 16 tile
    (kdsl/linalg/gemm._threads): ~0.3 s."""
    rng = np.random.default_rng(2193)
    a = np.column_stack([rng.normal(size=30_000), np.ones(30_000)])
    kd.linalg.qr(kd.asarray(a))[0].numpy()  # the plan is recorded and its kernels compiled on the first call
    start = time.perf_counter()
    q, r = kd.linalg.qr(kd.asarray(a))
    qn = q.numpy()
    assert time.perf_counter() - start < 1.5
    eq, er = np.linalg.qr(a)
    np.testing.assert_allclose(qn, eq, atol=1e-12)
    np.testing.assert_allclose(r.numpy(), er, rtol=1e-10)
