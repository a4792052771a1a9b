"""The scaled companion matrices of the orthogonal bases: NumPy's ``chebcompanion``, ``legcompanion``,
``hermcompanion``, ``hermecompanion`` and ``lagcompanion``, derived from each basis' three-term recurrence.

Multiplying by ``x`` modulo the series ``c`` (degree ``n``) is a linear map on the coefficients of ``B_0 ...
B_{n-1}``: ``x B_k = (B_{k+1} - gamma_k B_k + beta_k B_{k-1}) / alpha_k`` fills a tridiagonal matrix, and
``B_n = -(c_0 B_0 + ... + c_{n-1} B_{n-1}) / c_n`` adds a last column. Its eigenvalues are the roots of ``c``.
The matrix is then scaled by a diagonal similarity ``D M D^-1`` (``d_0 = 1``, ``(d_{k+1} / d_k)^2 = alpha_k
beta_{k+1} / alpha_{k+1}``) that makes the tridiagonal part symmetric, which is NumPy's scaling (better
conditioned eigenvalues). The tridiagonal part depends on ``n`` only (host constants); the last column is
computed from ``c`` on the device.

Example:
    >>> import kdsl as kd
    >>> [round(v, 6) for v in kd.polynomial.laguerre.lagcompanion([1.0, 2.0, 4.0]).ravel().tolist()]
    [1.0, -0.5, -1.0, 4.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.polynomial.polyutils import as_series

Recurrence = Callable[[int], tuple[float, float, float]]  # k -> (alpha_k, beta_k, gamma_k)


def _scales(recurrence: Recurrence, n: int) -> np.ndarray:
    """``d_k`` for k < n: the diagonal similarity that makes the tridiagonal part symmetric."""
    d = np.ones(n)
    for k in range(n - 1):
        alpha, _, _ = recurrence(k)
        alpha_next, beta_next, _ = recurrence(k + 1)
        d[k + 1] = d[k] * np.sqrt(alpha * beta_next / alpha_next)
    return d


def _tridiagonal(recurrence: Recurrence, n: int, d: np.ndarray) -> np.ndarray:
    """Multiplication by ``x`` on ``B_0 .. B_{n-1}`` (the part that does not depend on ``c``), scaled."""
    m = np.zeros((n, n))
    for k in range(n):
        alpha, _, gamma = recurrence(k)
        m[k, k] = -gamma / alpha
        if k + 1 < n:
            m[k + 1, k] = d[k + 1] / d[k] / alpha
            alpha_next, beta_next, _ = recurrence(k + 1)
            m[k, k + 1] = d[k] / d[k + 1] * beta_next / alpha_next
    return m


def companion(recurrence: Recurrence, c: Any) -> kd.Array:
    """The scaled companion matrix of the series ``c`` in the basis of ``recurrence``, shape ``(n, n)`` for a
    series of degree ``n``."""
    [a] = as_series([c])
    if a.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    n = a.shape[0] - 1
    d = _scales(recurrence, n)
    alpha_last = recurrence(n - 1)[0]
    base = kd.asarray(_tridiagonal(recurrence, n, d), dtype=a.dtype, device=a.device)
    weights = kd.asarray(d / d[-1] / alpha_last, dtype=a.dtype, device=a.device)
    last = -(a[:-1] / a[-1]) * weights  # B_n in terms of the lower ones, into the last column
    return base + kd.pad(last[:, None], ((0, 0), (n - 1, 0)))


def named(recurrence: Recurrence, prefix: str) -> Callable[[Any], kd.Array]:
    """``companion`` of one basis, named as NumPy names it (``prefix + 'companion'``)."""

    def basis_companion(c: Any) -> kd.Array:
        return companion(recurrence, c)

    basis_companion.__name__ = basis_companion.__qualname__ = prefix + "companion"
    basis_companion.__doc__ = (f"NumPy's ``{prefix}companion``: the scaled companion matrix of the series ``c`` "
                               f"(its eigenvalues are the roots; see :mod:`kdsl.polynomial.companion`).")
    return basis_companion


__all__ = ["companion", "named"]
