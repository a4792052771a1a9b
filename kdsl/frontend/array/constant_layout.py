"""The memory layout NumPy's array would have, for every kdsl view, including views of a lazy constant.

A kdsl view (a slice, a transpose, a reshape) is a node with a :class:`~kdsl.ir.view.View` over its source's
C-ordered elements: its strides and offset are the layout NumPy's view of the same array has. A lazy constant
not yet written (``kd.zeros((3, 4))``) is a broadcast 0-d node, so its views have zero strides that say
nothing of that layout. NumPy's ``kd.zeros((3, 4)).T`` is Fortran-ordered all the same, and reshaping it to 1-D
copies. :func:`layout` recovers such a view's layout by replaying the view's links (the functions that rebuild
it from its base after a write) on an index array of its owner's shape: building nodes only, nothing runs.

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros((3, 4))
    >>> layout(a) is None, layout(a.T).strides, layout(a[1:, ::2])
    (True, (1, 4), View(shape=(2, 2), strides=(4, 2), offset=4))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kdsl import dtype as dt
from kdsl.ir.graph import Node

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array
    from kdsl.ir.view import View


def layout(a: Array) -> View | None:
    """The View (element strides and offset over the owner's C-ordered data) of NumPy's array equivalent to
    ``a``; None for an array that owns its data (C-ordered, offset 0)."""
    fixed = getattr(a, "_broadcast_layout", None)  # a broadcast lazy constant: the node cannot tell
    if fixed is not None:
        return fixed
    node = _through_bitcasts(a._n)
    if node.op == "view" and node.srcs and not node.srcs[0].shape:  # a lazy constant's view
        # (an array that follows a base without being its view, ``kd.broadcast_to``'s result, has no parent)
        return _replayed(a) if a._read is not None and a._parent is not None else None
    # a view of a bit-cast view of a view (a.T.view(f).T): its View is over the bit-cast, not the owner
    over_view = node.op == "view" and bool(node.srcs) and node.srcs[0].op == "bitcast" and \
        _through_bitcasts(node.srcs[0]).op == "view"
    if node.op in ("view", "buffer") and node.arg is not None and not over_view and not _of_a_part(a):
        return node.arg  # a realised view keeps its View (but a view of ``z.real`` is over float halves)
    if a._read is not None and a._parent is not None:
        # a view whose node holds its values itself (a write into it, ``v += 1``, or its realisation before a
        # pending write reached its base): its links still rebuild it from its owner, so they tell its layout
        return _replayed(a)
    return None


def _replayed(a: Array) -> View | None:
    """``a``'s layout from its view links replayed on an index array of its owner's shape."""
    from kdsl.frontend.array import movement as mv  # cycle: movement builds Arrays
    from kdsl.frontend.array.array import Array

    chain = [a]
    while chain[-1]._read is not None and chain[-1]._parent is not None:
        base = chain[-1]._parent[0]
        if base is None:  # a bit-cast view, whose base its write-back holds weakly: no owner to replay from
            return None
        chain.append(base)
    owner = chain[-1]
    fixed = getattr(owner, "_broadcast_layout", None)  # a broadcast: replay over the data it broadcasts
    if fixed is None and layout(owner) is not None:  # a view without links back (a copy's reshape): C order
        return None
    size = owner.size if fixed is None else _extent(fixed)
    index = Node("iota", (), dt.int32, (size,), 0, device=owner.device)
    x = Array(mv.reshape_node(index, owner.shape) if fixed is None else mv.view_node(index, fixed))
    try:
        for link in reversed(chain[:-1]):
            assert link._read is not None
            part = _complex_part(link)
            if part is not None:  # z.real, z.imag: from here on the positions of float halves, two an element
                index, x = _float_halves(index, x, part)
                continue
            x = link._read[1](x)
            if x._raw.op == "bitcast":  # a same-itemsize view(dtype): the index's places, for the links after it
                x = Array(_through_bitcasts(x._raw))
    except (ValueError, TypeError, IndexError):  # a link the int32 index cannot take (a bit-cast to another
        return None  # itemsize): its node is no view of the owner's elements, as if replayed
    node = _through_bitcasts(x._raw)
    if node.op == "view" and node.srcs and node.srcs[0] is index:
        return node.arg
    return None  # the owner's own elements in order: nothing moved


def _of_a_part(a: Array) -> bool:
    """Whether ``a`` is a view of ``z.real`` or ``z.imag`` (its node's View counts complex elements, NumPy's
    layout float halves)."""
    link: Array | None = a
    while link is not None and link._parent is not None and link._read is not None:
        if _complex_part(link) is not None:
            return True
        link = link._parent[0]
    return False


def _complex_part(link: Array) -> int | None:
    """0 for ``z.real``, 1 for ``z.imag`` (the float half of each complex element it views), None otherwise."""
    from kdsl.frontend.array import complex_parts  # cycle: complex_parts builds Arrays

    write = link._parent[1] if link._parent is not None else None
    return 0 if write is complex_parts.write_real else 1 if write is complex_parts.write_imag else None


def _float_halves(index: Node, x: Array, part: int) -> tuple[Node, Array]:
    """The replay's index of complex elements ``x`` (a view of ``index``) as the positions of their real
    (``part`` 0) or imaginary (1) halves among twice as many float elements: NumPy's ``z.real`` of a (2, 3)
    complex64 array has the float strides (6, 2), byte strides (24, 8), so it is no contiguous array and its
    ``reshape(-1)`` copies. Returns the new index (what the layout is over) and the halves' view of it."""
    from kdsl.frontend.array import movement as mv  # cycle: movement builds Arrays
    from kdsl.frontend.array.array import Array
    from kdsl.ir.view import View

    node = _through_bitcasts(x._raw)
    if node.op == "view" and node.srcs and node.srcs[0] is index:
        view = node.arg
    elif node is index:
        view = View.contiguous(x.shape)
    else:  # not a view of the index (cannot happen for a part's base): as if the link moved nothing
        raise ValueError("not a view of the replayed index")
    halves = Node("iota", (), dt.int32, (2 * index.shape[0],), 0, device=index.device)
    strides = tuple(2 * s for s in view.strides)
    return halves, Array(mv.view_node(halves, View(view.shape, strides, 2 * view.offset + part)))


def _through_bitcasts(node: Node) -> Node:
    """The node a same-itemsize bit-cast view (``a.T.view(np.float32)``) reads: its elements keep their places,
    so NumPy's view of the bytes has the layout of the array it reinterprets."""
    while node.op == "bitcast":
        node = node.srcs[0]
    return node


def _extent(view: View) -> int:
    """How many elements of C-ordered data ``view`` reaches into (its offset and its largest index, plus one)."""
    return view.offset + 1 + sum(s * (n - 1) for n, s in zip(view.shape, view.strides, strict=True) if s > 0)


def broadcast_layout(a: Array, shape: tuple[int, ...]) -> View:
    """The layout of NumPy's ``broadcast_to(a, shape)``: ``a``'s own strides, 0 for the axes put in front and
    for the length-1 axes (NumPy's broadcast_to zeroes those, stretched or not). A lazy constant's broadcast is
    a view of a 0-d node whose zero strides cannot tell it from a new constant of that shape (``kd.zeros((3,
    4))``, C-ordered), so a broadcast keeps this View beside its node."""
    from kdsl.ir.view import View, contiguous_strides

    own = layout(a)
    strides = own.strides if own is not None else contiguous_strides(a.shape)
    kept = [0 if n == 1 else s for n, s in zip(a.shape, strides, strict=True)]
    return View(tuple(shape), (0,) * (len(shape) - a.ndim) + tuple(kept), own.offset if own is not None else 0)


__all__ = ["broadcast_layout", "layout"]
