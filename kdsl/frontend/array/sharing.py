"""``kd.may_share_memory`` and ``kd.shares_memory``: NumPy's overlap tests, answered from kdsl's view links.

A kdsl array lives in device memory, so it never shares memory with a NumPy array (``np.asarray(a)`` is a
download, a copy). Two kdsl arrays may share memory when one is a view of the other (``a[0]``, ``a.T``,
``a.reshape(...)`` of a stored array: writes through one reach the other) or both are views of a third. Like
NumPy's, ``True`` does not promise an element in common: it is NumPy's bounds check (two views of the same data
whose extents do not overlap, ``a[:5]`` and ``a[5:]``, share nothing), coarser only where a view's data is not
the other's (a view made before a write into its base, a bit-cast view): then ``True``.
``shares_memory`` is exact for views: it marks the bytes of the common base that each view covers
(:mod:`footprints`: a few lazy integer ops, through the views' own write-back paths) and reads back whether
any byte is in both, so ``z.real`` and ``z.imag`` (interleaved halves) or ``x.view(np.uint32)[::2]`` and
``[1::2]`` (the low and high halves of int64 data) share nothing, as NumPy says. A view whose own shape or
dtype was set since it was made (``v.shape = ...``) is not traced: True.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.zeros((3, 4))
    >>> kd.may_share_memory(a, a[1]), kd.may_share_memory(a, a + 1), kd.may_share_memory(a, np.zeros(3))
    (True, False, False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array import footprints
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.constant_layout import layout
from kdsl.ir.view import View


def _lineage(a: Array) -> list[Array]:
    """``a`` and the arrays it is a view of, innermost first (the ``_parent`` links writes travel along)."""
    chain = [a]
    while (base := _base_of(chain[-1])) is not None:
        chain.append(base)
    return chain


def _base_of(a: Array) -> Array | None:
    """The array ``a`` is a view of, or None (a bitcast view's base is held weakly by its write-back function:
    None once nobody else holds it). A view that only reads through, ``diagonal``, ``broadcast_to``,
    ``sliding_window_view`` (later writes into the base show in it, as NumPy's), has its base too."""
    if a._parent is None:
        return a._read[0]() if a._read is not None else None
    base, write = a._parent
    if base is None:
        ref = getattr(write, "base_ref", None)
        return ref() if ref is not None else None
    return base


def may_share_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """Whether ``a`` and ``b`` might share memory (NumPy's ``np.may_share_memory``; ``np.may_share_memory`` on
    kdsl arrays comes here). Anything that is not a kdsl array (NumPy arrays, scalars, lists) shares nothing
    with a kdsl array. ``max_work`` is accepted for NumPy's signature; the answer is always the cheap bound.

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.may_share_memory(a[0], a[1]), kd.may_share_memory(a[0], a[:, 1]), kd.may_share_memory(a, kd.arange(6))
    (False, True, False)
    """
    if max_work is not None and not isinstance(max_work, int):
        raise TypeError(f"may_share_memory: max_work must be an int or None, got {type(max_work).__name__}")
    if not (isinstance(a, Array) and isinstance(b, Array)) or a.size == 0 or b.size == 0:
        return False  # an empty array has no memory to share (NumPy says the same)
    ids = {id(x) for x in _lineage(a)}
    if not any(id(x) in ids for x in _lineage(b)):
        return False
    ea, eb = _extent(a), _extent(b)  # NumPy's bounds check, where both are laid out over the same data
    return ea is None or eb is None or ea[0] is not eb[0] or not (ea[2] < eb[1] or eb[2] < ea[1])


def _extent(a: Array) -> tuple[object, int, int] | None:
    """The data ``a`` is laid out over (a node, or the Array of a lazy constant) and the first and last of its
    elements that ``a`` covers (NumPy's extent); None where that is not known (a bit-cast: True stands)."""
    node = a._n
    if node.op == "view" and node.srcs and not node.srcs[0].shape:  # a lazy constant (zeros) or a view of one
        return _constant_extent(a)
    if node.op == "view":
        data, view = node.srcs[0], node.arg
        if data.op == "view" or data.dtype.itemsize != node.dtype.itemsize:
            return None
    elif node.op == "buffer" and node.arg is None:
        data, view = node, View.contiguous(a.shape)
    else:
        return None
    return (data, *_bounds(view))


def _constant_extent(a: Array) -> tuple[object, int, int] | None:
    """``_extent`` of a lazy constant or a view of one: its layout replayed over the constant it views."""
    chain = [a]
    while chain[-1]._read is not None and chain[-1]._parent is not None:
        chain.append(chain[-1]._parent[0])
    owner = chain[-1]
    if owner._read is not None or owner._n.op != "view" or owner._n.srcs[0].shape:
        return None
    view = layout(a) if a is not owner else None
    return (owner, *_bounds(view if view is not None else View.contiguous(a.shape)))  # None: the owner's order


def _bounds(view: View) -> tuple[int, int]:
    lo = hi = view.offset
    for n, step in zip(view.shape, view.strides, strict=True):
        lo, hi = lo + min(0, (n - 1) * step), hi + max(0, (n - 1) * step)
    return lo, hi


def shares_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """Whether ``a`` and ``b`` have an element in common (NumPy's ``np.shares_memory``; exact for kdsl views:
    ``a[:2]`` and ``a[2:]`` do not share, ``a[::2]`` and ``a[2:]`` do). Reads back one boolean when both are
    views of one array (computing the overlap on the device). ``max_work=0`` (NumPy's MAY_SHARE_BOUNDS) checks
    the bounds only: False when they are apart, else NumPy's ``TooHardError``.

    >>> import kdsl as kd
    >>> a = kd.arange(6)
    >>> kd.shares_memory(a[:3], a[3:]), kd.shares_memory(a[::2], a[4:]), kd.shares_memory(a, a.reshape(2, 3))
    (False, True, True)
    >>> z = kd.asarray([1 + 2j, 3 + 4j])
    >>> kd.shares_memory(z.real, z.imag), kd.shares_memory(z.imag, z)
    (False, True)
    """
    if not may_share_memory(a, b, max_work):
        return False
    if max_work == 0:  # NumPy's MAY_SHARE_BOUNDS: overlapping bounds leave the question open
        raise np.exceptions.TooHardError("Exceeded max_work")
    chain_a, chain_b = _lineage(a), _lineage(b)
    ids_b = [id(x) for x in chain_b]
    k = next(i for i, x in enumerate(chain_a) if id(x) in ids_b)  # the innermost common base
    common = chain_a[k]
    if a is common or b is common:
        return True  # one is the base itself: the other (not empty) covers some of it
    fa = footprints.footprint(chain_a[: k + 1])
    fb = footprints.footprint(chain_b[: ids_b.index(id(common)) + 1])
    if fa is None or fb is None:  # a view whose own shape or dtype was set since: may_share_memory's answer
        return True
    return bool(((fa & fb) != 0).any())
