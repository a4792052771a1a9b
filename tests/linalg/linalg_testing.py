"""Shared helpers of the linalg tests: deterministic matrices, the documented tolerances (docs/linalg.md), and
the layouts an input may come in (contiguous, a transposed view, a strided slice)."""

from __future__ import annotations

import numpy as np

import kdsl as kd
from kdsl.linalg import jacobi

DTYPES = ["float32", "float64"]
# docs/linalg.md: tolerances for well-conditioned inputs (condition number up to ~100), n up to ~64
RTOL = {"float32": 2e-4, "float64": 1e-10}


def tol(dtype: str, scale: float = 1.0) -> dict:
    return {"rtol": RTOL[dtype] * scale, "atol": RTOL[dtype] * scale}


# docs/linalg.md: eigh, svd (and svdvals, the vectors' identities) sweep float32/complex64 in float64 where
# kdsl.linalg.jacobi.sweep_dtype says so (a device with float64; on a GPU, fewer than WIDE_EIGH columns), rounding
# once: NumPy's results (computed in double) to about an ulp; else in float32 (a few eps). Was 2e-4 for both.
JACOBI_RTOL = {"float32": 4e-7, "complex64": 4e-7, "float64": 1e-10, "complex128": 1e-10}
SWEPT_IN_FLOAT32_RTOL = 4e-6


def jacobi_tol(dtype: str, scale: float = 1.0, columns: int = 0) -> dict:
    """The tolerance of a Jacobi result of ``dtype`` from a matrix of ``columns`` columns (the smaller side)."""
    rtol = JACOBI_RTOL[dtype]
    if dtype in ("float32", "complex64") and jacobi.sweep_dtype(getattr(kd, dtype), columns) == getattr(kd, dtype):
        rtol = SWEPT_IN_FLOAT32_RTOL
    return {"rtol": rtol * scale, "atol": rtol * scale}


def gaussian(shape, dtype: str, seed: int = 0) -> np.ndarray:
    """Standard normal entries of ``dtype``; a complex dtype gets an independent normal imaginary part."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def well_conditioned(shape, dtype: str, seed: int = 0) -> np.ndarray:
    """Random square matrices with a dominant diagonal (condition number well under 100)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    n = shape[-1]
    return (a + 2 * np.sqrt(n) * np.eye(n)).astype(dtype)


def spd(shape, dtype: str, seed: int = 0) -> np.ndarray:
    """Symmetric positive-definite matrices."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    n = shape[-1]
    return (a @ np.swapaxes(a, -1, -2) / n + np.eye(n)).astype(dtype)


def symmetric(shape, dtype: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    return ((a + np.swapaxes(a, -1, -2)) / 2).astype(dtype)


def layouts(host: np.ndarray) -> list[tuple[str, kd.Array, np.ndarray]]:
    """``host`` as a contiguous kd array, as a transposed view and as a strided slice of a bigger array (the
    NumPy value each stands for beside it)."""
    t = kd.matrix_transpose(kd.asarray(np.ascontiguousarray(np.swapaxes(host, -1, -2))))
    big = np.zeros(host.shape[:-1] + (2 * host.shape[-1],), host.dtype)
    big[..., ::2] = host
    return [("contiguous", kd.asarray(host), host), ("transposed", t, host),
            ("strided", kd.asarray(big)[..., ::2], host)]


def matched(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """``got`` reordered to pair each of ``want``'s eigenvalues (per matrix) with the nearest unused one."""
    got, want = np.asarray(got, complex).reshape(-1, got.shape[-1]), np.asarray(want, complex)
    out = np.empty_like(got)
    for b, (g, w) in enumerate(zip(got, want.reshape(got.shape), strict=True)):
        free = list(range(len(g)))
        for i, value in enumerate(w):
            j = min(free, key=lambda k: abs(g[k] - value))
            free.remove(j)
            out[b, i] = g[j]
    return out.reshape(want.shape)
