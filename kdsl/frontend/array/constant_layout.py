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
    node = a._n
    if node.op == "view" and node.srcs and not node.srcs[0].shape:  # a lazy constant's view
        # (an array that follows a base without being its view, ``kd.broadcast_to``'s result, has no parent)
        return _replayed(a) if a._read is not None and a._parent is not None else None
    if node.op in ("view", "buffer") and node.arg is not None:  # a realised view keeps its View
        return node.arg
    return None


def _replayed(a: Array) -> View | None:
    """``a``'s layout from its view links replayed on an index array of its owner's shape."""
    from kdsl.frontend.array import movement as mv  # cycle: movement builds Arrays
    from kdsl.frontend.array.array import Array

    chain = [a]
    while chain[-1]._read is not None and chain[-1]._parent is not None:
        chain.append(chain[-1]._parent[0])
    owner = chain[-1]
    if layout(owner) is not None:  # the chain ends at a view without links back (a copy's reshape): C order
        return None
    index = Node("iota", (), dt.int32, (owner.size,), 0, device=owner.device)
    x = Array(mv.reshape_node(index, owner.shape))
    for link in reversed(chain[:-1]):
        assert link._read is not None
        x = link._read[1](x)
    node = x._raw
    if node.op == "view" and node.srcs and node.srcs[0] is index:
        return node.arg
    return None  # the owner's own elements in order: nothing moved


__all__ = ["layout"]
