"""NumPy's ``ndarray.getfield`` and ``setfield`` for kdsl's (unstructured) dtypes: the ``dtype`` value stored in
each element's bytes from ``offset`` on (``a.getfield(np.int16, 2)`` of int32 little-endian data is the high
halves), as a lazy bit-cast to bytes, a slice and a bit-cast back. A field that does not fit in the element
raises ValueError, as NumPy's.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([65536 + 2, 3 * 65536], np.int32))
    >>> a.getfield(np.int16, 0).tolist(), a.getfield(np.int16, 2).tolist()
    ([2, 0], [1, 3])
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

from kdsl import dtype as dt

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def _bytes(a: Array) -> Array:
    """``a``'s elements as rows of bytes, shape ``(size, itemsize)``."""
    dense = a if a._node.op != "view" else a.copy()  # the bit-cast needs a contiguous last axis
    return dense.reshape(a.size).view(dt.uint8).reshape(a.size, a.dtype.itemsize)


def _field(a: Array, dtype: Any, offset: Any) -> tuple[dt.DType, int]:
    kind, start = dt.as_dtype(dtype), operator.index(offset)
    if start < 0 or start + kind.itemsize > a.dtype.itemsize:
        raise ValueError(f"Need 0 <= offset <= {a.dtype.itemsize - kind.itemsize} for requested type but "
                         f"received offset = {start}")
    return kind, start


def getfield(a: Array, dtype: Any, offset: int = 0) -> Array:
    """The ``dtype`` values at byte ``offset`` of each element of ``a`` (shape ``a.shape``)."""
    kind, start = _field(a, dtype, offset)
    if a.size == 0:
        return a.astype(kind)
    piece = _bytes(a)[:, start:start + kind.itemsize].copy()
    return piece.reshape(a.size * kind.itemsize).view(kind).reshape(a.shape)


def setfield(a: Array, val: Any, dtype: Any, offset: int = 0) -> None:
    """Write ``val`` (as ``dtype``) into byte ``offset`` of each element of ``a``, in place."""
    from kdsl.frontend.array.creation import asarray  # cycle: that module builds Arrays
    from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate

    kind, start = _field(a, dtype, offset)
    if a.size == 0:
        return
    values = broadcast_values_to(asarray(val, device=a.device).astype(kind), a.shape).copy()
    rows = _bytes(a)
    inserted = values.reshape(a.size).view(dt.uint8).reshape(a.size, kind.itemsize)
    joined = concatenate([rows[:, :start], inserted, rows[:, start + kind.itemsize:]], axis=1)
    a[...] = joined.reshape(a.size * a.dtype.itemsize).view(a.dtype).reshape(a.shape)


__all__ = ["getfield", "setfield"]
