"""NumPy's ``pad`` modes that fill from the data: the statistics ``maximum``, ``minimum``, ``mean``, ``median``
(over ``stat_length`` values next to each edge) and ``linear_ramp`` (from ``end_values`` to the edge value).

:func:`kdsl.pad` pads one axis after the other, as NumPy does, so a later axis's statistics and ramps include
the values padded along the earlier axes. Each side is a broadcast of a reduction (or an ``arange`` ramp)
over a view of the array: lazy ops that fuse into the ``concatenate`` writing the result.

Example:
    >>> import kdsl as kd
    >>> kd.pad(kd.asarray([1, 5, 3, 8]), (2, 1), mode="maximum", stat_length=2).tolist()
    [5, 5, 1, 5, 3, 8, 8]
    >>> kd.pad(kd.asarray([4.0, 6.0]), 2, mode="linear_ramp", end_values=(0, 10)).tolist()
    [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange
from kdsl.frontend.array.math import floor
from kdsl.frontend.array.math import round as round_
from kdsl.frontend.array.shape_ops import broadcast_to, concatenate

STAT_MODES = ("maximum", "minimum", "mean", "median")


def _side(x: Array, ax: int, start: int, stop: int) -> Array:
    return x[(slice(None),) * ax + (slice(start, stop),)]


def _widened(v: Array, x: Array, ax: int, width: int) -> Array:
    """``v`` (size 1 on ``ax``) broadcast to ``width`` along ``ax``."""
    return broadcast_to(v, x.shape[:ax] + (width,) + x.shape[ax + 1:])


def stat_lengths(stat_length: Any, ndim: int) -> list[tuple[int | None, int | None]]:
    """``stat_length`` (None, an int, (before, after) or one pair per axis) as one pair per axis."""
    if stat_length is None:
        return [(None, None)] * ndim
    s = np.asarray(stat_length)
    if s.dtype.kind not in "iu":
        raise TypeError(f"stat_length must be integers or None, got {stat_length!r}")
    if (s < 0).any():
        raise ValueError("index can't contain negative values")
    try:
        pairs = np.broadcast_to(s, (ndim, 2))
    except ValueError:
        raise ValueError(f"stat_length {stat_length!r} does not fit an array of {ndim} dimensions; use an int, "
                         "(before, after) or one (before, after) per axis") from None
    return [(int(b), int(e)) for b, e in pairs]


def _statistic(chunk: Array, ax: int, mode: str, d: dt.DType) -> Array:
    """The statistic of ``chunk`` along ``ax`` (kept as size 1), as NumPy writes it into dtype ``d``: means
    and medians of integers round half to even first."""
    if mode in ("maximum", "minimum"):
        return chunk.max(axis=ax, keepdims=True) if mode == "maximum" else chunk.min(axis=ax, keepdims=True)
    if mode == "mean":
        v = chunk.mean(axis=ax, keepdims=True)
    else:
        from kdsl.frontend.array.quantiles import median  # quantiles imports the joining ops

        v = median(chunk, axis=ax, keepdims=True)
    if not d.is_float and d.kind != "c":
        v = round_(v)
    return v.astype(d)


def pad_statistic(x: Array, ax: int, before: int, after: int, mode: str,
                  lengths: tuple[int | None, int | None]) -> Array:
    """``x`` padded on axis ``ax`` with the ``mode`` statistic of the ``lengths`` values next to each edge
    (None: the whole axis; longer ones are cut to the axis)."""
    n = x.shape[ax]
    lo, hi = (n if k is None else min(k, n) for k in lengths)
    if (lo == 0 or hi == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    parts = [x]
    if before:
        parts.insert(0, _widened(_statistic(_side(x, ax, 0, lo), ax, mode, x.dtype), x, ax, before))
    if after:
        parts.append(_widened(_statistic(_side(x, ax, n - hi, n), ax, mode, x.dtype), x, ax, after))
    return concatenate(parts, axis=ax)


def _ramp(x: Array, ax: int, edge: Array, end: Any, width: int, reverse: bool) -> Array:
    """``width`` values along ``ax`` from ``end`` towards ``edge`` (excluded): NumPy's
    ``linspace(end, edge, width, endpoint=False)``, floored for integer dtypes; reversed for the far side."""
    work = x.dtype if x.dtype.is_float or x.dtype.kind == "c" else \
        dt.float64 if x.device.supports(dt.float64) else dt.float32  # integers: exact where float64 is there
    k = arange(width, dtype=work, device=x.device)
    if reverse:
        k = k[::-1]
    k = k.reshape((width,) + (1,) * (x.ndim - ax - 1))
    start = np.asarray(end).astype(work.np).item() if not isinstance(end, Array) else end
    r = k * ((edge.astype(work) - start) / width) + start  # NumPy's linspace: i * step + start
    if work is not x.dtype:
        r = floor(r)
    return r.astype(x.dtype)


def pad_linear_ramp(x: Array, ax: int, before: int, after: int, ends: tuple[Any, Any]) -> Array:
    """``x`` padded on axis ``ax`` with linear ramps from ``ends`` to its edge values."""
    n = x.shape[ax]
    parts = [x]
    if before:
        parts.insert(0, _ramp(x, ax, _side(x, ax, 0, 1), ends[0], before, False))
    if after:
        parts.append(_ramp(x, ax, _side(x, ax, n - 1, n), ends[1], after, True))
    return concatenate(parts, axis=ax)
