"""NumPy's ``np.polyfit`` (``kd.polyfit``): the least-squares polynomial through points, from the scaled
Vandermonde matrix and :func:`kdsl.linalg.lstsq` (SVD on the device).

Synchronisation: ``lstsq`` reads back the rank (NumPy's ``RankWarning`` when it is short of ``deg + 1``).

Example:
    >>> import kdsl as kd
    >>> c = kd.polyfit(kd.asarray([0.0, 1.0, 2.0, 3.0]), kd.asarray([1.0, 3.0, 5.0, 7.0]), 1)
    >>> [round(v, 6) for v in c.tolist()]
    [2.0, 1.0]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.errors import check_fit_samples
from kdsl.linalg.derivatives import inv  # (differentiable)
from kdsl.linalg.derivatives_least_squares import lstsq  # (differentiable: fits get gradients)


def _floats(v: Any, device: Any = None) -> kd.Array:
    """``v + 0.0`` as NumPy computes it: integers and bools become float64 (float32 without it)."""
    a = v if isinstance(v, kd.Array) else kd.asarray(np.asarray(v), device=device)
    if a.dtype.kind in "fc":
        return a
    return a.astype(kd.float64 if a.device.supports(kd.float64) else kd.float32)


def _vander(x: kd.Array, order: int) -> kd.Array:
    """Columns ``x**(order-1), ..., x, 1``, by running products (no ``pow``, which is undefined for negative
    bases on GPUs), in NumPy's ``vander`` dtype (``x``'s promoted with int64: float64 for float32)."""
    wide = kd.dtype.as_dtype(np.promote_types(x.dtype.np, np.int64))
    x = x.astype(wide if x.device.supports(wide) else x.dtype)
    ones = kd.ones((x.shape[0], 1), dtype=x.dtype, device=x.device)
    if order == 1:
        return ones
    powers = kd.cumprod(kd.concatenate([ones, kd.broadcast_to(x[:, None], (x.shape[0], order - 1))], axis=1),
                        axis=1)
    return kd.flip(powers, axis=1)


def _checked(x: kd.Array, y: kd.Array, deg: int, w: kd.Array | None) -> None:
    if deg < 0:
        raise ValueError("expected deg >= 0")
    check_fit_samples(x, y)
    if w is not None:
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")


def polyfit(x: Any, y: Any, deg: int, rcond: float | None = None, full: bool = False, w: Any = None,
            cov: bool | str = False) -> Any:
    """The coefficients (highest power first) of the degree-``deg`` polynomial that fits ``y`` at ``x`` best
    in the least-squares sense (``y`` 2-D: one fit per column), with optional weights ``w`` on the residuals.
    ``full=True`` returns ``(c, residuals, rank, singular_values, rcond)``; ``cov=True`` (or ``"unscaled"``)
    ``(c, covariance)``. Warns ``RankWarning`` when the fit is rank deficient, as NumPy does.

    >>> import kdsl as kd
    >>> x = kd.asarray([-1.0, 0.0, 1.0, 2.0])
    >>> [round(v, 6) for v in kd.polyfit(x, x * x + x - 1.0, 2).tolist()]
    [1.0, 1.0, -1.0]
    """
    order = int(deg) + 1
    xs = _floats(x)
    ys = _floats(y, xs.device)
    ws = None if w is None else _floats(w, xs.device)
    _checked(xs, ys, deg, ws)
    if rcond is None:
        rcond = len(xs) * float(np.finfo(xs.dtype.np).eps)
    lhs, rhs = _vander(xs, order), ys
    if ws is not None:
        lhs = lhs * ws[:, None]
        rhs = rhs * (ws[:, None] if rhs.ndim == 2 else ws)
    # columns scaled to unit norm: a better conditioned system
    scale = kd.sqrt(kd.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if int(rank) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=2)
    if full:  # NumPy's rank is an int32 (kd.linalg.lstsq's an int64)
        return c, resids, rank.astype(kd.int32), s, rcond
    if cov:
        return c, _covariance(lhs, scale, resids, len(xs), order, cov, ys.ndim)
    return c


def _covariance(lhs: kd.Array, scale: kd.Array, resids: kd.Array, n: int, order: int, cov: bool | str,
                ydim: int) -> kd.Array:
    """The coefficients' covariance: ``inv(A.T A)`` unscaled, or scaled by the residual variance."""
    base = inv(kd.matmul(lhs.T, lhs)) / kd.outer(scale, scale)
    fac: Any = 1
    if cov != "unscaled":
        if n <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = resids / (n - order)
    return base * fac if ydim == 1 else base[:, :, None] * fac


__all__ = ["polyfit"]
