"""Lowering of ``"scatter"`` nodes (``kd.add.at`` and friends with atomics, built by
:mod:`kdsl.frontend.array.scatter_atomic`): two steps writing one buffer, as an ``assemble`` does.

1. an elementwise kernel fills the node's buffer with the target's old values (a fill when it is a constant);
2. a :class:`kdsl.ir.kernels.Scatter` kernel, one invocation per (index, value) pair, combines each value into
   its element with an atomic (:mod:`kdsl.codegen.atomic`).

:func:`atomic_ok` says whether the device has the atomic an operation on a dtype needs; the frontend asks it
before it builds a node, and keeps the sort-based path otherwise.

Example:
    >>> import kdsl as kd
    >>> from kdsl.engine.schedule import schedule
    >>> a = kd.zeros(8, dtype=kd.int32)
    >>> kd.add.at(a, kd.asarray([1, 1, 7]), 1)
    >>> [type(s.kernel).__name__ for s in schedule([a._node])]
    ['Elementwise', 'Scatter']
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import atomic, vector
from kdsl.codegen.loops import expr_loops
from kdsl.device import Device
from kdsl.engine.lowering import Lowering, Step
from kdsl.ir.graph import Node
from kdsl.ir.kernels import Elementwise, Scatter, elementwise_groups
from kdsl.ir.view import INDEX_LIMIT, View


def atomic_ok(op: str, dtype: dt.DType, device: Device) -> bool:
    """Whether ``device`` has a native atomic ``op`` ("add", "max", "min") on ``dtype``.

    >>> import kdsl as kd
    >>> atomic_ok("add", kd.int32, kd.device()), atomic_ok("add", kd.float16, kd.device())
    (True, False)
    """
    return atomic.native(op, dtype, device.features)


def lower_scatter(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """The fill of ``node``'s buffer, then the atomic scatter into it (see the module docstring)."""
    target, index, values = node.srcs
    if index.size > INDEX_LIMIT or node.size >= 1 << 32:  # GLSL indexes buffers with 32-bit integers
        raise ValueError(f"an atomic scatter of {index.size} values into {node.size} elements: at most 2**31 - 1 "
                         "values and 2**32 - 1 elements per call; split the indices (or the target)")
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(target)
    cost = 1 + expr_loops(e, node.shape)
    fill = Elementwise(node.shape, node.dtype, View.contiguous(node.shape), e, 0,
                       elementwise_groups(max(node.size, 1), dev.max_groups, dev.loop_budget, cost))
    if dev.vector_width == 4 and vector.eligible(fill):
        fill = fill._replace(vec=4, groups=elementwise_groups(node.size // 4, dev.max_groups, dev.loop_budget,
                                                              1 + 4 * (cost - 1)))
    steps = [low.step(fill, node)]
    low = Lowering(keep, dev.max_push_words)
    m = index.size
    ei, ev = low.expr(index), low.expr(values)
    trips = 1 + expr_loops(ei, (m,)) + expr_loops(ev, (m,))
    kernel = Scatter(node.arg, node.dtype, node.size, m, ei, index.dtype, ev, 0,
                     elementwise_groups(max(m, 1), dev.max_groups, dev.loop_budget, trips))
    steps.append(low.step(kernel, node, fresh=False))
    return steps
