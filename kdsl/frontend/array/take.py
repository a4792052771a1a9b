"""``take`` and ``take_along_axis`` with NumPy's semantics: lazy gathers on the device (graph node ``gather``).

Device indices in ``mode="raise"`` synchronise once (their minimum and maximum are read back to raise
``IndexError`` before anything reads the result); host indices are checked on the host. The kernels clamp every
index anyway, so no index reads outside the data. See ``docs/sorting.md``.

Example:
    >>> import kdsl as kd
    >>> kd.take(kd.asarray([5, 6, 7]), [2, 0]).tolist()
    [7, 5]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.errors import shape_text
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import as_array, asarray
from kdsl.frontend.array.reduction_where import into
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.reductions import min as amin
from kdsl.frontend.array.shape_ops import broadcast_values_to
from kdsl.ir.graph import Node


def flat_or(a: Array, axis: int | None) -> tuple[Array, int]:
    """(array, non-negative axis); ``axis=None`` means the flattened array."""
    if axis is None:
        return a.reshape(-1), 0
    return a, mv.normalize_axis(axis, a.ndim)


def _oob(index: int, n: int, axis: int) -> IndexError:
    return IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")


def _indices(indices: Any, n: int, axis: int, mode: str, device) -> Array:
    """``indices`` as a device array of integers, checked against an axis of ``n`` in ``mode="raise"``
    (host data on the host; device data by reading back its minimum and maximum: one synchronisation)."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"mode must be 'raise', 'wrap' or 'clip', not {mode!r}")
    if isinstance(indices, Array):
        idx = indices
        if not (idx.dtype.is_int or idx.dtype is dt.bool_):
            raise _cast_error(idx.dtype.np, idx.ndim)
        if idx.size and n == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        if mode == "raise" and idx.size:
            lo, hi = amin(idx), amax(idx)
            realize(idx, lo, hi)
            _check_range(int(lo), int(hi), n, axis)
        return idx
    host = np.asarray(indices)
    if host.dtype.kind == "O" and all(isinstance(v, int) for v in host.reshape(-1).tolist()):
        raise OverflowError("Python int too large to convert to C long")  # NumPy's, for ints past (u)int64
    if host.size == 0:  # NumPy accepts [] (float64) as no indices
        host = host.astype(np.int64)
    if host.dtype.kind not in "biu":
        host = _float_positions(indices, host)
    if host.size and n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "raise" and host.size:
        _check_range(int(host.min()), int(host.max()), n, axis)
    return asarray(host, dtype=index_dtype(device) if host.dtype.kind != "b" else dt.int32, device=device)


def _cast_error(dtype: np.dtype, ndim: int) -> TypeError:
    """NumPy's TypeError for take's indices in an array of floats (its same_kind cast to intp refuses them)."""
    what = "scalar" if ndim == 0 else "array data"
    return TypeError(f"Cannot cast {what} from dtype('{dtype}') to dtype('int64') according to the rule 'same_kind'")


def _float_positions(indices: Any, host: np.ndarray) -> np.ndarray:
    """take's positions given as Python floats (``a.take([1.7])``, ``take(a, 2.5)``): NumPy converts Python data
    as ``int()`` does (toward zero; NaN and inf raise its errors); a NumPy array of floats it refuses."""
    if isinstance(indices, np.ndarray) or host.dtype.kind != "f":
        raise _cast_error(host.dtype, host.ndim)
    if np.isnan(host).any():
        raise ValueError("cannot convert float NaN to integer")
    if np.isinf(host).any():
        raise OverflowError("cannot convert float infinity to integer")
    return np.trunc(host).astype(np.int64)


def _check_range(lo: int, hi: int, n: int, axis: int) -> None:
    if hi >= n:
        raise _oob(hi, n, axis)
    if lo < -n:
        raise _oob(lo, n, axis)


def gather_node(data: Array, idx: Array, axis: int, along: bool, mode: str) -> Array:
    """The lazy gather of ``data`` at in-range indices ``idx`` on ``axis``: ``along`` as ``take_along_axis``
    (``idx`` has ``data``'s rank), else as ``take`` (``idx``'s shape replaces the axis); ``mode`` as ``take``'s."""
    if along:
        shape = idx.shape
    else:
        shape = data.shape[:axis] + idx.shape + data.shape[axis + 1:]
    return Array(Node("gather", (data._node, idx._node), data.dtype, shape, (axis, along, mode)))


def take(a: Any, indices: Any, axis: int | None = None, out: Any = None, mode: str = "raise") -> Array:
    """Elements of ``a`` at ``indices`` along ``axis`` (``None``: of the flattened array). Negative indices
    count from the end; ``mode="raise"`` raises IndexError for an index outside the axis (device indices:
    checked with one synchronisation), "wrap" wraps every index, "clip" clamps it.

    Example:
        >>> import kdsl as kd
        >>> kd.take(kd.asarray([[1, 2], [3, 4]]), [1, -1, 0], axis=1).tolist()
        [[2, 2, 1], [4, 4, 3]]
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        result = take(a, indices, axis, None, mode)
        if isinstance(out, Array) and not np.can_cast(out.dtype.np, result.dtype.np, "safe"):
            # NumPy's rule, from out's dtype to a's (out is copied back into a temporary of a's dtype)
            raise TypeError(f"Cannot cast array data from {out.dtype.np!r} to {result.dtype.np!r} according to "
                            "the rule 'safe'")
        return into(result, out)
    x = as_array(a)
    x, ax = flat_or(x.reshape(1) if x.ndim == 0 else x, axis)  # NumPy takes from a 0-d array as from one element
    idx = _indices(indices, x.shape[ax], ax, mode, x.device)
    return gather_node(x, idx, ax, along=False, mode=mode)


def take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Array:
    """``arr`` read at ``indices`` along ``axis`` (matching the other axes, with broadcasting), as NumPy's;
    the indices of :func:`argsort` give the sorted array. Out-of-bounds indices raise IndexError.

    Example:
        >>> import kdsl as kd
        >>> a = kd.asarray([[10, 30, 20], [6, 4, 5]])
        >>> kd.take_along_axis(a, kd.argsort(a, axis=1), axis=1).tolist()
        [[10, 20, 30], [4, 5, 6]]
    """
    x = as_array(arr)
    if axis is None:
        x, ax = x.reshape(-1), 0
        if np.ndim(indices) != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
    else:
        ax = mv.normalize_axis(axis, x.ndim)
    if np.ndim(indices) != x.ndim and not (isinstance(indices, Array) and indices.ndim == x.ndim):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    kind = np.dtype(indices.dtype.np if isinstance(indices, Array) else np.asarray(indices).dtype)
    if kind.kind not in "iu":  # NumPy refuses bool here (take() reads it as 0/1 positions; a mask would be meant)
        hint = "; for a boolean mask use arr[mask] or kd.where(mask, arr, 0)" if kind.kind == "b" else ""
        raise IndexError(f"`indices` must be an integer array, not {kind}{hint}")
    idx = _indices(indices, x.shape[ax], ax, "raise", x.device)
    others = [tuple(1 if k == ax else m for k, m in enumerate(s)) for s in (x.shape, idx.shape)]
    try:
        shape = ops.broadcast_shapes(*others)
    except ValueError:  # NumPy indexes with the broadcast index arrays: an IndexError
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         + " ".join(shape_text(s) for s in others)) from None
    out_shape = tuple(idx.shape[ax] if k == ax else m for k, m in enumerate(shape))
    data_shape = tuple(x.shape[ax] if k == ax else m for k, m in enumerate(shape))
    return gather_node(broadcast_values_to(x, data_shape), broadcast_values_to(idx, out_shape), ax, along=True,
                       mode="raise")


__all__: Sequence[str] = ["take", "take_along_axis"]
