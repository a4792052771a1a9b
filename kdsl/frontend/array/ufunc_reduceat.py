"""NumPy's ``ufunc.reduceat``: ``reduce(a[i:j])`` along an axis for each pair of consecutive indices (``a[i]``
itself where ``j <= i``; the last slice runs to the end of the axis). The indices are host data (a kdsl array
is read back: they decide the result's shape); each slice is one lazy reduction by the ufunc's own ``reduce``,
and the pieces are stacked. Many increasing indices of an associative ufunc (a group-by's
``np.add.reduceat(values[order], starts)``) take one segmented scan instead: a reduction per slice made a graph
of thousands of kernels (100 groups took 10 s on lavapipe, 66 000 did not finish in minutes).

Example:
    >>> import kdsl as kd
    >>> kd.add.reduceat(kd.arange(8), [0, 4, 1, 5]).tolist()
    [6, 4, 10, 18]
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.segmented_scan import segmented_scan
from kdsl.frontend.array.ufunc_arguments import single_axis

# associative ufuncs whose reduceat over many increasing indices is one segmented scan (the non-associative
# left folds, subtract and divide, and the comparisons keep a reduction per slice)
SCANNED = ("add", "multiply", "maximum", "minimum", "fmax", "fmin", "bitwise_and", "bitwise_or", "bitwise_xor",
           "logical_and", "logical_or", "logical_xor")
MANY = 16  # slices from which the scan replaces a reduction per slice


def reduceat(ufunc: Any, name: str, a: Any, indices: Any, axis: Any, dtype: Any) -> Array:
    """``ufunc.reduceat(a, indices, axis, dtype)`` without ``out`` (``ufunc``: a kdsl ufunc whose ``reduce``
    folds each slice; ``name``: NumPy's name of it)."""
    kd = sys.modules["kdsl"]  # the namespace's stack and zeros (this module sits below it in the layers)
    x = asarray(a)
    ax = single_axis(x.ndim, axis, "reduceat")
    starts = [int(i) for i in _index_line(indices)]
    n = x.shape[ax]
    bad = next((i for i in starts if not 0 <= i < n), None)
    if bad is not None:
        raise IndexError(f"index {bad} out-of-bounds in {name}.reduceat [0, {n})")
    lead = (slice(None),) * ax
    if not starts:  # no indices: an empty axis, in the dtype a reduction gives (a lazy probe, never run)
        probe = ufunc.reduce(kd.zeros((1,), dtype=x.dtype, device=x.device), dtype=dtype)
        return kd.zeros(x.shape[:ax] + (0,) + x.shape[ax + 1:], dtype=probe.dtype, device=x.device)
    # NumPy's reduceat starts each fold from its first element, not add's identity +0.0: all -0.0 stays -0.0
    start: dict[str, Any] = {"initial": -0.0} if name == "add" and np.dtype(
        kd.dtype(dtype).np if dtype is not None else x.dtype.np).kind in "fc" else {}
    if name in SCANNED and len(starts) > MANY and all(a < b for a, b in zip(starts, starts[1:], strict=False)):
        return _scanned(ufunc, x, ax, starts, dtype)
    parts = []
    for k, lo in enumerate(starts):
        hi = starts[k + 1] if k + 1 < len(starts) else n
        if hi > lo:
            parts.append(ufunc.reduce(x[lead + (slice(lo, hi),)], axis=ax, dtype=dtype, **start))
        else:
            parts.append(x[lead + (lo,)] if dtype is None else x[lead + (lo,)].astype(dtype))
    return kd.stack(parts, axis=ax)


def _scanned(ufunc: Any, x: Array, ax: int, starts: list[int], dtype: Any) -> Array:
    """``reduceat`` of strictly increasing ``starts`` (slices that tile ``x[starts[0]:]`` along ``ax``): the
    segmented inclusive scan of the slices (keys: each element's slice), read at each slice's last element.

    >>> import kdsl as kd
    >>> _scanned(kd.add, kd.arange(6.0).reshape(2, 3), 1, [0, 1], None).tolist()
    [[0.0, 3.0], [3.0, 9.0]]
    """
    kd = sys.modules["kdsl"]
    n = x.shape[ax]
    lead = (slice(None),) * ax
    # the dtype the ufunc's reduce gives (add of int8 or bool counts in the default int): a lazy probe, never run
    out_dtype = ufunc.reduce(x[lead + (slice(0, 1),)], axis=ax, dtype=dtype).dtype
    tail = kd.moveaxis(x[lead + (slice(starts[0], n),)], ax, 0).astype(out_dtype)
    lengths = np.diff(np.asarray(starts + [n]))
    keys = np.repeat(np.arange(len(starts), dtype=np.int32), lengths).reshape((-1,) + (1,) * (tail.ndim - 1))
    scan = segmented_scan(ufunc, tail, kd.asarray(keys, device=x.device))
    ends = kd.asarray(np.cumsum(lengths) - 1, device=x.device)
    return kd.moveaxis(kd.take(scan, ends, axis=0), 0, ax)


def _index_line(indices: Any) -> np.ndarray:
    """``reduceat``'s indices as a 1-d host array (a kdsl array is read back); another depth is NumPy's
    ValueError."""
    line = np.asarray(indices.numpy() if isinstance(indices, Array) else indices)
    if line.ndim != 1:
        raise ValueError("object of too small depth for desired array" if line.ndim < 1 else
                         "object too deep for desired array")
    return line


__all__ = ["reduceat"]
