"""The least-squares fit every basis of ``kd.polynomial`` shares (``polyfit``, ``chebfit``, ``legfit``): the
basis' pseudo-Vandermonde matrix, columns scaled to unit norm, solved by :func:`kdsl.linalg.lstsq` (the SVD on
the device). ``deg`` is a degree or a list of the degrees to use (the others' coefficients are zero).

The fit runs in float64 (complex128 for complex data) where the device has it, also for float32 data: kdsl
creates float32 where NumPy creates float64, and the Vandermonde system is ill-conditioned.

Synchronisation: ``lstsq`` reads back the rank (a ``RankWarning`` when it falls short, as NumPy's).

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([0.0, 1.0, 2.0, 3.0], dtype=kd.float64)
    >>> c = kd.polynomial.polynomial.polyfit(x, 1.0 + 2.0 * x, 1)
    >>> [round(v, 6) for v in c.tolist()]
    [1.0, 2.0]
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.errors import check_fit_samples
from kdsl.polynomial.polyutils import as_array, floating


def _degrees(deg: Any) -> tuple[int, list[int] | None]:
    """The highest degree and, when ``deg`` lists degrees, the sorted list."""
    d = np.asarray(deg)
    if d.ndim > 1 or d.dtype.kind not in "iu" or d.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if d.min() < 0:
        raise ValueError("expected deg >= 0")
    if d.ndim == 0:
        return operator.index(d.item()), None
    return int(d.max()), sorted(int(v) for v in d)


def _checked(x: kd.Array, y: kd.Array, w: kd.Array | None) -> None:
    check_fit_samples(x, y)
    if w is not None and (w.ndim != 1 or w.shape[0] != x.shape[0]):
        raise TypeError("expected 1D vector w of the same length as x" if w.ndim != 1 else
                        "expected x and w to have same length")


def fit(vander: Callable[[kd.Array, int], kd.Array], x: Any, y: Any, deg: Any, rcond: float | None = None,
        full: bool = False, w: Any = None) -> Any:
    """The coefficients (lowest degree first; one column per column of 2-D ``y``) minimising the weighted
    squared error of ``vander(x, deg) @ c`` against ``y``; ``full=True`` also returns
    ``[residuals, rank, singular_values, rcond]``, as NumPy's ``polyfit``."""
    top, chosen = _degrees(deg)
    xs = floating(as_array(x))
    ys = floating(as_array(y, xs.device))
    ws = None if w is None else floating(as_array(w, xs.device))
    _checked(xs, ys, ws)
    # at least float64 where the device has it: kdsl's float32 default data (where a NumPy program has float64)
    # would lose digits in the ill-conditioned Vandermonde system
    wide = kd.result_type(xs.dtype, ys.dtype, kd.float64 if xs.device.supports(kd.float64) else kd.float32)
    xs, ys = xs.astype(wide), ys.astype(wide)
    ws = None if ws is None else ws.astype(wide)
    lhs = vander(xs, top)
    if chosen is not None:
        lhs = lhs[:, chosen]
    rhs = ys
    if ws is not None:
        lhs = lhs * ws[:, None]
        rhs = rhs * (ws[:, None] if rhs.ndim == 2 else ws)
    if rcond is None:
        rcond = xs.shape[0] * float(np.finfo(xs.dtype.np).eps)
    # unit-norm columns: a better conditioned system (a zero column keeps its scale of 1)
    scale = kd.sqrt(kd.sum(kd.abs(lhs) ** 2, axis=0))
    scale = kd.where(scale == 0, 1, scale)
    c, resids, rank, s = kd.linalg.lstsq(lhs / scale, rhs, rcond)
    c = (c.T / scale).T
    if chosen is not None:  # the skipped degrees' coefficients are zero
        full_c = kd.zeros((top + 1,) + c.shape[1:], dtype=c.dtype, device=c.device)
        full_c[chosen] = c
        c = full_c
    if int(rank) != lhs.shape[1] and not full:
        warnings.warn("The fit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=3)
    if full:
        return c, [resids, rank, s, rcond]
    return c


__all__ = ["fit"]
