"""NumPy's ``ufunc.reduceat``: ``reduce(a[i:j])`` along an axis for each pair of consecutive indices (``a[i]``
itself where ``j <= i``; the last slice runs to the end of the axis). The indices are host data (a kdsl array
is read back: they decide the result's shape); each slice is one lazy reduction by the ufunc's own ``reduce``,
and the pieces are stacked.

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
from kdsl.frontend.array.ufunc_arguments import single_axis


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
    parts = []
    for k, lo in enumerate(starts):
        hi = starts[k + 1] if k + 1 < len(starts) else n
        if hi > lo:
            parts.append(ufunc.reduce(x[lead + (slice(lo, hi),)], axis=ax, dtype=dtype, **start))
        else:
            parts.append(x[lead + (lo,)] if dtype is None else x[lead + (lo,)].astype(dtype))
    return kd.stack(parts, axis=ax)


def _index_line(indices: Any) -> np.ndarray:
    """``reduceat``'s indices as a 1-d host array (a kdsl array is read back); another depth is NumPy's
    ValueError."""
    line = np.asarray(indices.numpy() if isinstance(indices, Array) else indices)
    if line.ndim != 1:
        raise ValueError("object of too small depth for desired array" if line.ndim < 1 else
                         "object too deep for desired array")
    return line


__all__ = ["reduceat"]
