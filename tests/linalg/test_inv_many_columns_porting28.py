"""`inv` and `solve` with many right-hand sides past one dispatch's loop budget.

The thread-per-column substitution (`lu._GETRS_COLUMNS`) ran in one dispatch, so from n = 173 on (n (n + 2) over
lavapipe's budget of 30 000 loop iterations) `inv` took the workgroup-per-column kernel, whose 2n barrier steps a
CPU driver runs slowly: `np.linalg.inv` of 176 x 176 took 1.0 s on lavapipe (0.02 s for 172 x 172), of 300 x 300
2.6 s, `solve(A, B)` with 300 columns alike. The columns' substitution is now split into dispatches within the
budget there (0.06 s and 0.2 s); GPUs keep their kernels.
"""

import importlib

import numpy as np
import pytest
from linalg_testing import tol

import kdsl as kd
from kdsl.linalg import kernels

lu_module = importlib.import_module("kdsl.linalg.lu")  # the package's ``lu`` names are functions


def _spy(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = lu_module._getrs_columns
    monkeypatch.setattr(lu_module, "_getrs_columns", lambda *a: (calls.append("columns"), original(*a))[1])
    return calls


def _data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return (a + shape[-1] * np.eye(shape[-1])).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(20, 20), (3, 17, 17), (1, 1)])
def test_inv_by_columns_in_several_dispatches(dtype, shape, monkeypatch):
    monkeypatch.setattr(kernels, "cpu_device", lambda: True)
    monkeypatch.setattr(kernels, "loop_budget", lambda: 50)  # a dispatch every few rows, as n > 172 on lavapipe
    calls = _spy(monkeypatch)
    a = _data(shape, dtype, sum(shape))
    got = kd.linalg.inv(kd.asarray(a)).numpy()
    real = {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)
    np.testing.assert_allclose(got, np.linalg.inv(a), **tol(real))
    assert got.dtype == np.linalg.inv(a).dtype
    assert calls == (["columns"] if shape[-1] >= 16 else [])


@pytest.mark.parametrize("cpu", [True, False])
def test_solve_many_columns_either_device(cpu, monkeypatch):
    monkeypatch.setattr(kernels, "cpu_device", lambda: cpu)
    monkeypatch.setattr(kernels, "loop_budget", lambda: 64)
    calls = _spy(monkeypatch)
    a = _data((2, 19, 19), "float64", 7)
    b = np.random.default_rng(8).standard_normal((2, 19, 40))
    b[1, :, 3] = 0.0  # a zero column stays zero
    got = kd.linalg.solve(kd.asarray(a), kd.asarray(b)).numpy()
    np.testing.assert_allclose(got, np.linalg.solve(a, b), **tol("float64"))
    assert not got[1, :, 3].any()
    assert calls == (["columns"] if cpu else [])  # a GPU keeps a workgroup per column past the budget


def test_inv_past_the_real_budget():
    """173 x 173: n (n + 2) just over lavapipe's budget (the first order that left one dispatch)."""
    n = 173
    a = _data((n, n), "float64", 173)
    got = kd.linalg.inv(kd.asarray(a)).numpy()
    np.testing.assert_allclose(got @ a, np.eye(n), atol=1e-12)
    np.testing.assert_allclose(got, np.linalg.inv(a), **tol("float64"))


def test_singular_still_raises(monkeypatch):
    monkeypatch.setattr(kernels, "cpu_device", lambda: True)
    monkeypatch.setattr(kernels, "loop_budget", lambda: 50)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        kd.linalg.inv(kd.zeros((18, 18), dtype=kd.float64))
