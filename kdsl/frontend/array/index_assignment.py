"""Buffered assignment through integer index arrays, ``a[idx] = v`` and ``a[rows, cols] = v`` (the hook in
:mod:`indexing`; ``put`` and inner-axis writes use it too), in NumPy's semantics: where indices repeat, the last
occurrence wins. Lazy: a stable sort of the positions and two binary searches, no synchronisation (device
indices read back their range once, for NumPy's IndexError). ``ufunc.at``'s unbuffered writes are
:mod:`scatter`'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.errors import shape_text
from kdsl.frontend.array import math as km
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.scatter import checked_indices
from kdsl.frontend.array.scatter_sorted import at, runs_of
from kdsl.frontend.array.shape_ops import broadcast_values_to
from kdsl.frontend.array.stored_values import checked_value
from kdsl.ir.graph import ArrayTooBigError


def int_array_key(key: Any) -> tuple | None:
    """The leading index items of a key made of integer arrays and ints on the leading axes (at least one
    array), then only full slices ``:`` and ``...``: ``a[idx]``, ``a[idx, :]``, ``a[rows, cols]``,
    ``a[0, idx]``; None for other keys."""
    items = key if isinstance(key, tuple) else (key,)
    lead = 0
    while lead < len(items) and (is_int_index_array(items[lead]) or _int(items[lead])):
        lead += 1
    rest = items[lead:]
    if not any(is_int_index_array(k) for k in items[:lead]) or sum(k is Ellipsis for k in rest) > 1:
        return None
    if not all(k is Ellipsis or (isinstance(k, slice) and k == slice(None)) for k in rest):
        return None
    return tuple(items[:lead])


def _int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def is_int_index_array(k: Any) -> bool:
    """Whether index item ``k`` is an integer index array (a kdsl, NumPy or list one; bools are masks)."""
    if isinstance(k, Array):
        return k.dtype.is_int and k.dtype is not dt.bool_
    if isinstance(k, (list, np.ndarray)):
        host = np.asarray(k)
        return host.dtype.kind in "iu" or (host.size == 0 and host.dtype.kind == "f")
    return False


def assign_rows(a: Array, keys: tuple, value: Any) -> Array:
    """``a`` with ``a[keys] = value`` (``keys``: integer arrays and ints on the leading axes, broadcast
    together) in NumPy's buffered semantics: where indices repeat, the last occurrence wins. ``value``
    broadcasts to the indices' shape followed by the remaining axes of ``a``.

    >>> import kdsl as kd
    >>> a = kd.zeros((3, 2), dtype=kd.int32)
    >>> a[[2, 0, 2]] = kd.asarray([[1, 1], [2, 2], [3, 3]], dtype=kd.int32)
    >>> a[kd.arange(3), [1, 1, 0]] = 9
    >>> a.tolist()
    [[2, 9], [0, 9], [9, 3]]
    """
    k = len(keys)
    if k > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {k} were indexed")
    for axis, (ix, n) in enumerate(zip(keys, a.shape, strict=False)):  # NumPy's order: its ints checked,
        if _int(ix) and not -n <= ix < n:
            raise IndexError(f"index {int(ix)} is out of bounds for axis {axis} with size {n}")
    converted = checked_value(value, a)  # the value converted (a[[5]] = 2**70: OverflowError),
    shapes = [ix.shape if isinstance(ix, Array) else np.shape(ix) for ix in keys]  # the indices broadcast,
    try:
        shape = ops.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         f"{' '.join(shape_text(s) for s in shapes)}") from None
    rest = a.shape[k:]
    v = broadcast_values(converted, shape + rest)  # the value broadcast to them, and only then their bounds
    # NumPy checks the indices it visits (none for an empty result), and integers always
    check = bool(np.prod(shape, dtype=np.int64))
    idxs = [checked_indices(ix, n, a.device, axis, check=check or len(s) == 0)
            for axis, (ix, n, s) in enumerate(zip(keys, a.shape, shapes, strict=False))]
    lead = int(np.prod(a.shape[:k], dtype=np.int64))
    if v.size == 0 or a.size == 0:
        return a
    flat, stride = None, 1
    for ix, n in zip(reversed(idxs), reversed(a.shape[:k]), strict=True):  # row-major flat index
        term = broadcast_values_to(ix, shape) * stride
        flat, stride = term if flat is None else flat + term, stride * n
    assert flat is not None
    idx = flat.reshape(-1)
    return write_rows(a.reshape((lead,) + rest), idx, v.reshape((idx.size,) + rest)).reshape(a.shape)


def write_rows(rows: Array, idx: Array, v: Array) -> Array:
    """``rows`` (``(n, *rest)``) with row ``idx[i]`` replaced by ``v[i]`` (``idx``: 1-D, wrapped, in range; ``v``:
    ``(idx.size, *rest)`` in ``rows``' dtype); where indices repeat, the last occurrence wins. Lazy: a stable sort
    of the indices and two binary searches (:func:`scatter_sorted.runs_of`), no synchronisation.

    >>> import kdsl as kd
    >>> write_rows(kd.zeros(4, dtype=kd.int32), kd.asarray([3, 1, 3]), kd.asarray([5, 6, 7])).tolist()
    [0, 6, 0, 7]
    """
    n, rest = rows.shape[0], rows.shape[1:]
    runs = runs_of(idx, n)
    # the last occurrence of p in index order is the last of its run: the sort is stable
    src = at(runs.order, km.maximum(runs.hi - 1, 0))
    picked = at(v, src)
    hit = (runs.hi > runs.lo).reshape((n,) + (1,) * len(rest))
    return km.where(hit, picked, rows)


def broadcast_values(v: Array, shape: tuple[int, ...]) -> Array:
    """Assigned values ``v`` broadcast to the indexed ``shape``: leading length-1 axes beyond it drop, as in NumPy."""
    extra = v.ndim - len(shape)
    if extra > 0 and all(m == 1 for m in v.shape[:extra]):
        v = v.reshape(v.shape[extra:])
    try:
        return broadcast_values_to(v, shape)
    except ArrayTooBigError:
        raise
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {shape_text(v.shape)} could not be broadcast "
                         f"to indexing result of shape {shape_text(shape)}") from None
