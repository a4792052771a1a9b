"""kdsl.linalg.gemm, the blocked factorisations' product kernel, against NumPy: strided and transposed
operands, unit-triangular and conjugated reads, store/subtract/add, the lower-triangle limit, k cut over
dispatches by the loop budget, and split-K partial products."""

import numpy as np
import pytest
from linalg_testing import tol

import kdsl as kd
from kdsl.linalg import gemm as G
from kdsl.linalg import kernels
from kdsl.linalg.gemm import ADD, STORE, SUBTRACT, UNIT_LOWER, UNIT_UPPER, Operand, gemm


def _random(shape, dtype, rng):
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_gemm_ops_and_layouts(dtype):
    rng = np.random.default_rng(0)
    m, n, k = 70, 45, 37
    x, y, c0 = _random((2, m, k), dtype, rng), _random((2, k, n), dtype, rng), _random((2, m, n), dtype, rng)
    rt = tol("float32" if dtype in ("float32", "complex64") else "float64", 10)
    c = kd.asarray(c0.copy())
    gemm(c, kd.asarray(x), kd.asarray(y), Operand(0, n, 1), Operand(0, k, 1), Operand(0, n, 1), m, n, k,
         op=SUBTRACT)
    np.testing.assert_allclose(c.numpy(), c0 - x @ y, **rt)
    xt = np.ascontiguousarray(np.swapaxes(x, 1, 2))  # X read transposed from a (k, m) layout, conjugated
    c = kd.asarray(c0.copy())
    gemm(c, kd.asarray(xt), kd.asarray(y), Operand(0, n, 1), Operand(0, 1, m, conj=True), Operand(0, n, 1),
         m, n, k, op=ADD, lower=True, diag=-3)
    want = np.where(np.tril(np.ones((m, n), bool), -3), c0 + x.conj() @ y, c0)
    np.testing.assert_allclose(c.numpy(), want, **rt)


def test_gemm_unit_triangles_over_several_dispatches(monkeypatch):
    rng = np.random.default_rng(1)
    m, n, k = 21, 19, 40
    x, y = rng.standard_normal((1, m, k)), rng.standard_normal((1, k, n))
    monkeypatch.setattr(kernels, "loop_budget", lambda: 40)  # k in slices of 16
    c = kd.zeros((1, m, n), dtype=kd.float64)
    gemm(c, kd.asarray(x), kd.asarray(y), Operand(0, n, 1), Operand(0, k, 1, mode=UNIT_LOWER),
         Operand(0, n, 1, mode=UNIT_UPPER), m, n, k, op=STORE)
    want = (np.tril(x, -1) + np.eye(m, k)) @ (np.triu(y, 1) + np.eye(k, n))
    np.testing.assert_allclose(c.numpy(), want, **tol("float64"))


def test_gemm_splits_a_long_k():
    rng = np.random.default_rng(2)
    m, n, k = 9, 12, 1100
    assert G.split_count(m, n, k, 2) > 1
    x, y, c0 = rng.standard_normal((2, k, m)), rng.standard_normal((2, k, n)), rng.standard_normal((2, m, n))
    c = kd.asarray(c0.copy())
    work = kd.zeros((G.MAX_SPLIT * 2 * m * n,), dtype=kd.float64)
    gemm(c, kd.asarray(x), kd.asarray(y), Operand(0, n, 1), Operand(0, 1, m, mode=UNIT_UPPER), Operand(0, n, 1),
         m, n, k, op=SUBTRACT, work=work)
    xu = np.swapaxes(np.tril(x, -1) + np.eye(k, m), 1, 2)
    np.testing.assert_allclose(c.numpy(), c0 - xu @ y, **tol("float64"))
