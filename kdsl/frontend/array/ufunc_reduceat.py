"""NumPy's ``ufunc.reduceat``: ``reduce(a[i:j])`` along an axis for each pair of consecutive indices (``a[i]``
itself where ``j <= i``; the last slice runs to the end of the axis). The indices are host data (a kdsl array
is read back: they decide the result's shape). A few slices are one lazy reduction each by the ufunc's own
``reduce``, stacked; many slices of an associative ufunc (a group-by: ``np.add.reduceat(values, starts)`` over
thousands of groups) are one segmented scan over the slices laid end to end, ``log2`` of their total length lazy
steps, and each slice's last element (one reduction per slice made a graph as long as the indices: minutes);
many slices of a left fold (``subtract``, ``divide``, ``power``...) take :mod:`reduceat_folds` (column by column
where the slices are short, a segmented scan for long ones of ``subtract``/``divide``).

Example:
    >>> import kdsl as kd
    >>> kd.add.reduceat(kd.arange(8), [0, 4, 1, 5]).tolist()
    [6, 4, 10, 18]
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from kdsl.frontend.array import left_folds, reduceat_folds
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.segmented_scan import segmented_scan
from kdsl.frontend.array.ufunc_arguments import single_axis

MANY = 32  # more slices than this (of an associative ufunc): one segmented scan, not one reduction per slice


def reduceat(ufunc: Any, name: str, a: Any, indices: Any, axis: Any, dtype: Any, associative: bool = False
             ) -> Array:
    """``ufunc.reduceat(a, indices, axis, dtype)`` without ``out`` (``ufunc``: a kdsl ufunc whose ``reduce``
    folds each slice; ``name``: NumPy's name of it; ``associative``: whether its fold may be regrouped, so that
    many slices take one segmented scan)."""
    kd = sys.modules["kdsl"]  # the namespace's stack and zeros (this module sits below it in the layers)
    x = asarray(a)
    ax = single_axis(x.ndim, axis, "reduceat")
    starts = [int(i) for i in _index_line(indices)]
    n = x.shape[ax]
    bad = next((i for i in starts if not 0 <= i < n), None)
    if bad is not None:
        raise IndexError(f"index {bad} out-of-bounds in {name}.reduceat [0, {n})")
    if not starts:  # no indices: an empty axis, in the dtype a reduction gives (a lazy probe, never run)
        probe = ufunc.reduce(kd.zeros((1,), dtype=x.dtype, device=x.device), dtype=dtype)
        return kd.zeros(x.shape[:ax] + (0,) + x.shape[ax + 1:], dtype=probe.dtype, device=x.device)
    # NumPy's reduceat starts each fold from its first element, not add's identity +0.0: all -0.0 stays -0.0
    start: dict[str, Any] = {"initial": -0.0} if name == "add" and np.dtype(
        kd.dtype(dtype).np if dtype is not None else x.dtype.np).kind in "fc" else {}
    if len(starts) > MANY and x.size:
        if associative:
            return _scanned(ufunc, x, np.asarray(starts, np.int64), ax, dtype)
        if name in left_folds.FOLDS:
            return _folded(ufunc, name, x, np.asarray(starts, np.int64), ax, dtype)
    return _per_slice(ufunc, x, starts, ax, dtype, start)


def _per_slice(ufunc: Any, x: Array, starts: list[int], ax: int, dtype: Any, start: dict[str, Any]) -> Array:
    """One lazy ``ufunc.reduce`` per slice (``start``: its ``initial=``), stacked along ``ax``. A slice of one
    element is that element in the reduction's dtype, as NumPy's (``gcd``/``hypot``'s reduce would fold in
    their identity 0 first: ``-3`` would give 3)."""
    kd = sys.modules["kdsl"]
    lead, n, parts = (slice(None),) * ax, x.shape[ax], []
    like = ufunc.reduce(x[lead + (slice(0, 1),)], axis=ax, dtype=dtype, **start)  # lazy: its dtype only
    for k, lo in enumerate(starts):
        hi = starts[k + 1] if k + 1 < len(starts) else n
        if hi > lo + 1:
            parts.append(ufunc.reduce(x[lead + (slice(lo, hi),)], axis=ax, dtype=dtype, **start))
        else:
            parts.append(x[lead + (lo,)].astype(like.dtype))
    return kd.stack(parts, axis=ax)


def _scanned(ufunc: Any, x: Array, starts: np.ndarray, ax: int, dtype: Any) -> Array:
    """Every slice at once: the slices' positions laid end to end (``a[i]`` alone where ``j <= i``), gathered
    along ``ax`` in the dtype ``reduce`` gives, scanned within each slice by the ufunc (starting from each
    slice's first element, as NumPy's reduceat: all ``-0.0`` stays ``-0.0``), and each slice's last value kept.

    >>> import kdsl as kd
    >>> _scanned(kd.add, kd.arange(8), np.array([0, 4, 1, 5]), 0, None).tolist()
    [6, 4, 10, 18]
    """
    kd = sys.modules["kdsl"]
    n = x.shape[ax]
    ends_at = np.append(starts[1:], n)
    length = np.where(ends_at > starts, ends_at - starts, 1)
    ends = np.cumsum(length)
    pos = np.arange(ends[-1]) - np.repeat(ends - length - starts, length)
    seg = np.repeat(np.arange(len(starts)), length)
    index = np.int32 if ends[-1] < 2 ** 31 else np.int64
    like = ufunc.reduce(x[(slice(None),) * ax + (slice(0, 1),)], axis=ax, dtype=dtype)  # lazy: its dtype only
    values = kd.moveaxis(x, ax, 0)[asarray(pos.astype(index), device=x.device)].astype(like.dtype)
    keys = asarray(seg.astype(index).reshape((-1,) + (1,) * (x.ndim - 1)), device=x.device)
    folded = segmented_scan(ufunc, values, keys)
    return kd.moveaxis(folded[asarray((ends - 1).astype(index), device=x.device)], 0, ax)


def _folded(ufunc: Any, name: str, x: Array, starts: np.ndarray, ax: int, dtype: Any) -> Array:
    """Many slices of a left fold (``subtract``, ``power``...): column by column where every slice is short
    (NumPy's exact order), else one segmented scan for ``subtract``/``divide`` (:mod:`reduceat_folds`), else
    one fold per slice."""
    like = ufunc.reduce(x[(slice(None),) * ax + (slice(0, 1),)], axis=ax, dtype=dtype)  # lazy: its dtype only
    longest = int(reduceat_folds.lengths(starts, x.shape[ax]).max())
    if longest <= reduceat_folds.STEPPED:
        return reduceat_folds.stepped(ufunc, x, starts, ax, like.dtype)
    if name in reduceat_folds.SCANNED:
        return reduceat_folds.scanned(name, ufunc, x, starts, ax, like.dtype)
    return _per_slice(ufunc, x, [int(i) for i in starts], ax, dtype, {})


def _index_line(indices: Any) -> np.ndarray:
    """``reduceat``'s indices as a 1-d host array (a kdsl array is read back); another depth is NumPy's
    ValueError."""
    line = np.asarray(indices.numpy() if isinstance(indices, Array) else indices)
    if line.ndim != 1:
        raise ValueError("object of too small depth for desired array" if line.ndim < 1 else
                         "object too deep for desired array")
    return line


__all__ = ["reduceat"]
