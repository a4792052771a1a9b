"""Lowering of the fused attention node (:class:`kdsl.ir.kernels.Attention`, rendered by
:mod:`kdsl.codegen.attention`) and the test of whether a shape fits it at all.

Graph node (built by :func:`kdsl.frontend.array.attention.fused_attention` for
:func:`kdsl.nn.scaled_dot_product_attention`):

* ``"attention"`` ``srcs = (q, k, v)`` or ``(q, k, v, mask)``, all with the same batch axes (broadcast views),
  shapes ``batch + (L, E)``, ``batch + (S, E)``, ``batch + (S, Ev)``, ``batch + (L, S)``; ``arg = (scale,
  causal)``; the node is ``batch + (L, Ev)``.

Where the node's only reader is its ``swapaxes(-3, -2)`` view (``(b, heads, L, d) -> (b, L, heads, d)``, the
merge of the heads before the output projection), the scheduler stores that view instead, written by the same
kernel in its layout (:func:`kdsl.engine.fusion.merged_heads`): the merge is then a free reshape, not a
transposing copy kernel.

:func:`fused_plan` picks the launch from the device's limits: ``rows`` query rows (and invocations) per
workgroup (fewer where that would leave a GPU short of workgroups), ``block`` keys per shared-memory block (as
many as its shared memory holds, up to ``BLOCK``), and says no where the kernel does not fit: head dims over
``MAX_HEAD``, keys too many for the loop budget of one invocation (or more tiles in all than one dispatch's
workgroups can walk within it), indices past int32. The caller then keeps the composite path.

Example:
    >>> import kdsl as kd
    >>> fused_plan((768,), 128, 128, 32, 32, kd.device())
    (64, 32)
    >>> fused_plan((2,), 4, 10**6, 32, 32, kd.device()) is None  # a million keys: past the loop budget
    True
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import coopmat
from kdsl.codegen.attention import quads
from kdsl.codegen.attention_coopmat import FRAG, Geometry
from kdsl.codegen.loops import expr_loops
from kdsl.device import Device
from kdsl.dtype import DType
from kdsl.engine.lowering import Lowering, Step
from kdsl.ir.graph import Node
from kdsl.ir.kernels import MAX_GROUPS, Attention
from kdsl.ir.view import INDEX_LIMIT

MAX_HEAD = 128  # the largest e and ev: q and the accumulator live in registers (2 * 32 vec4s at most)
BLOCK = 32  # keys per shared-memory block, at most (fewer where shared memory is short)
ROWS = 64  # query rows per workgroup (32 for short queries, or few tiles: more workgroups)


def tile_trips(s: int, e: int, ev: int, rows: int, block: int, per_key: int = 0) -> int:
    """Loop iterations one invocation spends on one tile: per key block, the block loop, the loads of the
    key and value blocks into shared memory and the walk over its keys (``per_key``: loops inside helper
    functions that the mask expression adds per key)."""
    fills = -(-block * quads(e) // rows) + -(-block * quads(ev) // rows) + 1  # + a shared mask block
    return -(-s // block) * (1 + fills + block * (1 + per_key))


def shared_bytes(block: int, e: int, ev: int) -> int:
    """Shared memory of a block of ``block`` keys: the keys' and values' ``vec4`` rows and a float per key
    (a mask staged with them)."""
    return block * ((quads(e) + quads(ev)) * 16 + 4)


def fused_plan(batch: tuple[int, ...], l: int, s: int, e: int, ev: int,  # noqa: E741
               dev: Device) -> tuple[int, int] | None:
    """``(rows, block)`` for the fused kernel on ``dev``, or None where it does not fit (see the module
    docstring)."""
    if not (1 <= e <= MAX_HEAD and 1 <= ev <= MAX_HEAD) or min(l, s, math.prod(batch)) < 1:
        return None
    b = math.prod(batch)
    if max(b * l * max(e, ev, s), b * s * max(e, ev)) > INDEX_LIMIT:
        return None
    # 64 query rows per workgroup, or 32 for short queries or where 64 would give less than about one wave of
    # workgroups (Device.reduce_groups: 1024 on GPUs, 64 on CPU drivers, where barriers cost)
    rows = ROWS if l > ROWS // 2 and b * -(-l // ROWS) >= dev.reduce_groups else ROWS // 2
    block = BLOCK
    while block > 1 and shared_bytes(block, e, ev) > dev.max_shared_memory:
        block //= 2
    if shared_bytes(block, e, ev) > dev.max_shared_memory:
        return None
    trips = tile_trips(s, e, ev, rows, block) + 1
    if trips > dev.loop_budget:
        return None
    tiles = b * -(-l // rows)
    if -(-tiles // (dev.loop_budget // trips)) > MAX_GROUPS:  # more tiles than one dispatch can walk
        return None
    return rows, block


def coop_shape(dtypes: tuple[DType, ...], rows: int, block: int, e: int, ev: int, dev: Device) -> tuple[int, ...]:
    """The fragment shape of the cooperative-matrix kernel (:mod:`kdsl.codegen.attention_coopmat`) for float16
    ``q``, ``k`` and ``v`` on ``dev``, or ``()`` for the scalar kernel: it needs 16 x 16 x 16 float16 fragments
    with float32 accumulators, subgroup shuffles, a subgroup size that gives each of the 16 rows of a warp whole
    lanes, and the shared memory of its tiles. The launch (``rows``, ``block``, workgroups) is the scalar
    kernel's, so a driver that cannot build the pipeline falls back to it unchanged
    (:class:`kdsl.engine.programs.Program`)."""
    if any(d is not dt.float16 for d in dtypes) or "subgroup_shuffle" not in dev.features:
        return ()
    shape = coopmat.choose(dev.coopmat_shapes, dt.float16, dt.float16, dev.subgroup_size, dev.features,
                           dev.max_shared_memory)
    if shape is None or shape[:3] != (FRAG, FRAG, FRAG) or shape[3] % FRAG or rows % FRAG or block % FRAG:
        return ()
    if Geometry(rows, block, e, ev, shape[3]).shared_bytes() > dev.max_shared_memory:
        return ()
    return shape


def lower_attention(node: Node, keep: set[int], dev: Device, out: Node | None = None) -> list[Step]:
    """The one step of an ``attention`` node (its plan was checked when the node was built); ``out``: the
    node's ``swapaxes(-3, -2)`` view (see :func:`kdsl.engine.fusion.merged_heads`), stored in its own layout instead."""
    q, k, v = node.srcs[:3]
    mask = node.srcs[3] if len(node.srcs) > 3 else None
    scale, causal = node.arg
    batch, (l, e), (s, ev) = q.shape[:-2], q.shape[-2:], v.shape[-2:]
    plan = fused_plan(batch, l, s, e, ev, dev)
    assert plan is not None  # the front end builds the node only where it fits
    rows, block = plan
    low = Lowering(keep, dev.max_push_words)
    eq, ek, ev_, em = low.expr(q), low.expr(k), low.expr(v), (low.expr(mask) if mask is not None else None)
    per_key = expr_loops(em, mask.shape) if em is not None and mask is not None else 0
    tiles = math.prod(batch) * -(-l // rows)
    trips = tile_trips(s, e, ev, rows, block, per_key) + 1
    # the fills and q's loads may call looping helpers too (a computed operand): count them per element
    extra = sum(expr_loops(x, n.shape) for x, n in ((eq, q), (ek, k), (ev_, v)))
    trips += extra * (e + -(-s // block) * block * (e + ev) // rows + 1)
    per_group = max(1, dev.loop_budget // trips)  # tiles one workgroup may walk
    groups = min(tiles, max(dev.max_groups, -(-tiles // per_group)))
    if groups > MAX_GROUPS or trips > dev.loop_budget:
        raise ValueError(f"scaled_dot_product_attention: {tiles} tiles of {trips} loop iterations each need more "
                         f"than the {MAX_GROUPS} workgroups one dispatch has; split the batch")
    coop = coop_shape((eq.dtype, ek.dtype, ev_.dtype), rows, block, e, ev, dev)
    kernel = Attention(tuple(batch), l, s, e, ev, node.dtype, eq, ek, ev_, em, causal, scale, 0, groups, rows,
                       block, out is not None, coop)
    return [low.step(kernel, node if out is None else out)]
