"""``stack`` of a few small pieces as one elementwise expression, fused into its consumers.

A stack is normally an ``assemble`` node: a buffer of its own and one kernel per piece. Programs ported from
NumPy build small vectors from their parts at every step of a loop (``np.array([y[1], -y[0]])`` in an ODE
right-hand side), and those kernels are most of what such a loop dispatches. A stack of ``k`` pieces is also
``where(i == 0, p0, where(i == 1, p1, ... p[k-1]))`` with ``i`` the index along the new axis and each piece
broadcast along it: every piece is read in bounds at every element, and the expression inlines into whatever
reads the stack. Each element evaluates all ``k`` pieces, so this is used only for a few pieces, or a small
result (where a kernel launch costs far more than the repeated arithmetic).

Example:
    >>> import kdsl as kd
    >>> y = kd.asarray([1.0, 2.0])
    >>> kd.stack([y[1], -y[0]]).numpy().tolist()
    [2.0, -1.0]
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node
from kdsl.ir.view import View

FEW_PIECES = 4  # up to this many pieces are always selected (at most 4x the arithmetic of the pieces)
SMALL_RESULT = 4096  # ... and up to MANY_PIECES when the result has at most this many elements
MANY_PIECES = 16


def select_stack(parts: list[Array], axis: int) -> Array | None:
    """``stack(parts, axis)`` (pieces of one shape, ``axis`` normalised) as a select chain, or None where the
    assemble kernels are the better plan (many pieces of a large result, empty pieces)."""
    k, shape = len(parts), parts[0].shape
    size = k * math.prod(shape)
    if k < 2 or size == 0 or (k > FEW_PIECES and (k > MANY_PIECES or size > SMALL_RESULT)):
        return None
    dtype = promotion.promote(*(p.dtype for p in parts))
    dev = ops.device_of(parts)  # one device, or a ValueError naming both
    out_shape = shape[:axis] + (k,) + shape[axis:]
    pieces = [_spread(ops.cast_node(p._node, dtype), axis, out_shape) for p in parts]
    index = Node("iota", (), dt.int32, out_shape, axis, device=dev)
    acc = pieces[-1]
    for i in range(k - 2, -1, -1):
        cond = Node("eq", (index, ops.const_node(i, dt.int32, dev)), dt.bool_, out_shape, device=dev)
        acc = Node("where", (cond, pieces[i], acc), dtype, out_shape, device=dev)
    return Array(acc)


def _spread(node: Node, axis: int, shape: tuple[int, ...]) -> Node:
    """``node`` with a new axis at ``axis``, broadcast to ``shape`` (stride 0 along it): one view node."""
    base, v = mv.view_base(node)
    view = View(shape, v.strides[:axis] + (0,) + v.strides[axis:], v.offset)
    return Node("view", (base,), base.dtype, shape, view)
