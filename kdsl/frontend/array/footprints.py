"""The bytes of a base array that a view of it covers, for ``kd.shares_memory``: one ``uint32`` per element
of the base, bit ``i`` set when the view covers byte ``i`` of that element.

Bytes, not elements, because views may cover parts of elements: ``z.real`` and ``z.imag`` cover the two halves
of each complex element (interleaved: they share no byte, as NumPy says), and a bit-cast view of another
itemsize (``x.view(np.uint32)`` of int64 data) covers halves or groups of elements (``[::2]`` the low halves,
``[1::2]`` the high ones). Each step from a view to its base maps the masks: an ordinary view (slice,
transpose, reshape...) writes them back through its own write-back path, a read-through view (``diagonal``,
``broadcast_to``) ORs them into the base elements it reads, a part or a bit-cast moves the bits within or
across elements. A step that cannot be traced (a view whose own shape or dtype was set since) gives None.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.arange(3, dtype=kd.int64)
    >>> halves = x.view(np.uint32)
    >>> footprint([halves[1::2], halves, x]).tolist()  # the high 4 bytes of each int64
    [240, 240, 240]
"""

from __future__ import annotations

import itertools

from kdsl import dtype as dt
from kdsl.frontend.array import complex_parts, creation, scatter
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.ops import where


def _all_bytes(d: dt.DType) -> int:
    return (1 << d.itemsize) - 1


def footprint(chain: list[Array]) -> Array | None:
    """The bytes of each element of ``chain[-1]`` that the view ``chain[0]`` covers (``chain``: a view and the
    arrays it is a view of, innermost first), or None where a step cannot be traced."""
    marks = creation.full(chain[0].shape, _all_bytes(chain[0].dtype), dtype=dt.uint32)
    for view, base in itertools.pairwise(chain):
        if view._parent is None:  # a view that only reads through: the base elements it reads, by index
            marks = _read_footprint(view, base, marks)
            continue
        write = view._parent[1]
        if getattr(write, "rewrapped", False):  # its shape or dtype set since it was made: not traced
            return None
        if write is complex_parts.write_imag:  # the imaginary half: the element's last bytes
            marks = marks << (base.dtype.itemsize // 2)
        elif write is complex_parts.write_real:  # the real half: its first bytes, where the marks are
            continue
        elif getattr(write, "bitcast", False):
            marks = _bitcast_footprint(marks, view.dtype, base)
        else:
            base_marks = creation.zeros(base.shape, dtype=dt.uint32)
            write(base_marks, marks)
            marks = base_marks
    return marks


def _bitcast_footprint(marks: Array, d: dt.DType, base: Array) -> Array:
    """The bytes of ``base`` that a bit-cast view of it as ``d`` covers: the same element for the same itemsize;
    for a smaller ``d``, ``r`` neighbours of the view's last axis are the parts of one base element (the first
    one lowest, little-endian); for a larger ``d``, one view element spans ``r`` base elements."""
    old, new = base.dtype.itemsize, d.itemsize
    if old == new:
        return marks.reshape(base.shape)
    lead = base.shape[:-1]
    if new < old:
        r = old // new
        parts = marks.reshape(lead + (base.shape[-1], r))
        out = parts[..., 0]
        for p in range(1, r):
            out = out | (parts[..., p] << (p * new))
        return out
    r = new // old
    shifts = creation.arange(r, dtype=dt.uint32) * old
    spread = (marks.reshape(marks.shape + (1,)) >> shifts) & _all_bytes(base.dtype)
    return spread.reshape(base.shape).astype(dt.uint32)


def _read_footprint(view: Array, base: Array, marks: Array) -> Array:
    """The bytes of ``base`` that the marked bytes of ``view`` (a read-through view: no write-back path) read:
    the view's own read replayed over the base's flat indices, each element's marks ORed into the base element
    it reads (several view elements may read one: ``broadcast_to``, overlapping windows); unmarked elements aim
    at one spare slot past the end."""
    assert view._read is not None
    index = view._read[1](creation.arange(base.size, dtype=dt.int64).reshape(base.shape))
    spare = creation.zeros(base.size + 1, dtype=dt.uint32)
    _OR.at(spare, where(marks != 0, index, base.size).reshape(-1), marks.reshape(-1))
    return spare[:-1].reshape(base.shape)


_OR = scatter.WithAt(km.bitwise_or, "bitwise_or")  # kd.bitwise_or.at: every duplicate's bits count


__all__ = ["footprint"]
