"""Scans (cumsum / cumprod) and the fused stream compaction: one pass per invocation for short lines, workgroup
scans (register-blocked with subgroup arithmetic for contiguous lines, else through shared memory), and
reduce-then-scan over tiles for long lines (see docs/scans.md). The tunable sizes are module constants of
:mod:`kdsl.codegen.scan_blocked` (``ROWS``, ``PRELOAD_DENSITY``) and the ``SCAN_*`` below.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kdsl import dtype as dt
from kdsl.codegen import scan_blocked, scan_wide_loads, scan_workgroup
from kdsl.codegen.loops import expr_loops
from kdsl.device import Device
from kdsl.engine.lowering import Lowering, Source, Step
from kdsl.ir.expr import Expr
from kdsl.ir.graph import Node
from kdsl.ir.kernels import LOCAL, Scan, elementwise_groups
from kdsl.ir.view import INDEX_LIMIT, View

SCAN_BLOCK = 1024  # elements each invocation of a multi-pass cumsum walks (see kdsl.codegen.scan)
SCAN_DIRECT = 4096  # lines up to this long are scanned in one pass, one invocation per line
SCAN_SERIAL = 32  # longer lines get workgroup scans (kdsl.codegen.scan_workgroup) ...
SCAN_LINES = 8  # ... and many lines longer than this but at most 256 long are scanned whole, many per tile


def lower_scan(shape: tuple[int, ...], axis: int, dtype: dt.DType, source: Source, out: Node, keep: set[int],
                dev: Device, op: str = "sum") -> list[Step]:
    """Steps writing the inclusive ``op`` ("sum" | "prod") scan of ``source`` along ``axis`` into ``out`` (see
    :mod:`kdsl.codegen.scan`): one pass for short lines, else block totals, their scan (recursively, with the
    same operator), and a pass that scans each block from the totals before it. Lines whose neighbours are not
    adjacent in memory (fewer than 32 elements after the axis) are scanned by workgroups
    (:mod:`kdsl.codegen.scan_workgroup`): many per tile when short, one tile (or a reduce-then-scan over tiles)
    each when longer than ``SCAN_SERIAL``; other lines by one invocation each (adjacent lines: coalesced).
    See docs/scans.md."""
    length, budget = shape[axis], dev.loop_budget
    lines = math.prod(n for a, n in enumerate(shape) if a != axis)
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    cost = 1 + expr_loops(e, shape)  # loop iterations per scanned element
    if math.prod(shape[axis + 1:]) < 32 and math.prod(shape) * 2 < INDEX_LIMIT and \
            scan_workgroup.tile_loops(1, cost) * 2 <= budget:
        if SCAN_LINES < length <= LOCAL and lines >= 8:  # whole short lines per tile, one invocation each
            return [low.step(_scan_lines(shape, axis, dtype, e, cost, dev, op), out)]
        if length > SCAN_SERIAL:
            return _lower_scan_groups(shape, axis, dtype, source, out, keep, dev, op)
    if length <= min(SCAN_DIRECT, budget // 2) // cost:
        groups = elementwise_groups(max(lines, 1), dev.max_groups, budget, max(length, 1) * cost)
        return [low.step(Scan(shape, axis, dtype, e, 0, groups, op=op), out)]
    block = max(1, min(SCAN_BLOCK, budget // 2) // cost)
    nb = -(-length // block)
    groups = elementwise_groups(lines * nb, dev.max_groups, budget, block * cost)
    return _reduce_then_scan(shape, axis, nb, source, out, keep, dev, op, (low, e), lambda e, phase, carry: Scan(
        shape, axis, dtype, e, 0, groups, block, phase, carry, op))


def _reduce_then_scan(shape: tuple[int, ...], axis: int, nb: int, source: Source, out: Node, keep: set[int],
                      dev: Device, op: str, first: tuple[Lowering, Expr],
                      kernel: Callable[[Expr, str, Expr | None], Scan]) -> list[Step]:
    """A scan of lines cut into ``nb`` blocks: the blocks' totals (``kernel(e, "sums", None)``), their own scan
    (recursively), then each block scanned again from the total before it (``kernel(e, "scan", carry)``).
    ``first``: the lowering the first pass reads ``source`` with, and its expression."""
    short = shape[:axis] + (nb,) + shape[axis + 1:]
    dtype = out.dtype
    low, e = first
    sums = Node("partial", (), dtype, short, device=dev)
    steps = [low.step(kernel(e, "sums", None), sums)]
    scanned = Node("partial", (), dtype, short, device=dev)
    steps += lower_scan(short, axis, dtype, lambda lw: lw.load(sums, View.contiguous(short)), scanned, keep, dev,
                         op)
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    steps.append(low.step(kernel(e, "scan", low.load(scanned, View.contiguous(short))), out))
    return steps


def _scan_lines(shape: tuple[int, ...], axis: int, dtype: dt.DType, e: Expr, cost: int, dev: Device,
                op: str) -> Scan:
    """The one-pass kernel for many short lines: as many whole lines per tile as fit its ``per * 256``."""
    length, budget = shape[axis], dev.loop_budget
    lines = math.prod(n for a, n in enumerate(shape) if a != axis)
    per = scan_workgroup.elements_per_invocation(dtype, LOCAL * scan_workgroup.MAX_PER, dev.max_shared_memory)
    while per > 1 and scan_workgroup.tile_loops(per, cost) * 2 > budget:
        per //= 2
    tiles = -(-lines // max(1, per * LOCAL // length))
    groups = elementwise_groups(tiles * LOCAL, dev.max_groups, budget - LOCAL, scan_workgroup.tile_loops(per, cost))
    return Scan(shape, axis, dtype, e, 0, groups, 0, "lines", None, op, per)


def _lower_scan_groups(shape: tuple[int, ...], axis: int, dtype: dt.DType, source: Source, out: Node,
                       keep: set[int], dev: Device, op: str) -> list[Step]:
    """The workgroup scan: one pass when a line fits one tile, else tile totals, their scan (recursively) and
    the pass that scans each tile again from the totals before it. Contiguous lines with subgroup arithmetic get
    the register-blocked kernel (:mod:`kdsl.codegen.scan_blocked`), others the shared-memory one."""
    length = shape[axis]
    lines = math.prod(n for a, n in enumerate(shape) if a != axis)
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    cost = 1 + expr_loops(e, shape)
    sub = dev.scan_subgroups and scan_workgroup.subgroup_ok(dtype, op, dev.features)
    per, blocked = _tile(dtype, length, cost, dev, sub and math.prod(shape[axis + 1:]) == 1)
    tile = per * LOCAL
    nb = -(-length // tile)
    groups = _groups(lines * nb, per, cost, dev)
    if nb == 1:
        return [low.step(Scan(shape, axis, dtype, e, 0, groups, 0, "scan", None, op, per, sub, blocked=blocked),
                         out)]
    return _reduce_then_scan(shape, axis, nb, source, out, keep, dev, op, (low, e),
                             lambda e, phase, carry: Scan(shape, axis, dtype, e, 0, groups, tile, phase, carry, op,
                                                          per, sub, blocked=blocked))


def _tile(dtype: dt.DType, length: int, cost: int, dev: Device, blocked: bool) -> tuple[int, bool]:
    """(elements per invocation, whether the blocked kernel runs) of a workgroup scan of lines of ``length``
    whose elements cost ``cost`` loop iterations each: the most that fit the loop budget (two tiles' worth
    per invocation at least) and, for the shared-memory kernel, the device's shared memory."""
    if blocked:
        per = 4 * scan_blocked.rows_for(length)
        while per > 4 and scan_workgroup.tile_loops(per, cost) * 2 > dev.loop_budget:
            per //= 2
        return per, True
    per = scan_workgroup.elements_per_invocation(dtype, length, dev.max_shared_memory)
    while per > 1 and scan_workgroup.tile_loops(per, cost) * 2 > dev.loop_budget:
        per //= 2
    return per, False


def _groups(tiles: int, per: int, cost: int, dev: Device) -> int:
    """Workgroups of a pass over ``tiles`` tiles: as elementwise_groups gives (within the loop budget), evened
    out so that every workgroup takes the same number of tiles (no last round of a few workgroups)."""
    # (a loop budget below one tile's loops, set only by tests, still gets one tile per workgroup)
    groups = elementwise_groups(tiles * LOCAL, dev.max_groups, max(dev.loop_budget - LOCAL, 1),
                                scan_workgroup.tile_loops(per, cost))
    rounds = -(-tiles // groups)
    return max(1, -(-tiles // rounds))


def compact_tile(n: int, dev: Device) -> int:
    """The tile :func:`lower_compact` cuts ``n`` flags into (flags of one loop iteration each): the frontend asks
    for the tiles' totals first (:func:`lower_compact_tiles`), reads the count back as their sum, and hands them
    to the compaction, which then reads the mask once less."""
    sub = dev.scan_subgroups and scan_workgroup.subgroup_ok(dt.int32, "sum", dev.features)
    return _tile(dt.int32, n, 2, dev, sub)[0] * LOCAL


def lower_compact_tiles(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """The totals of the 0/1 int32 flags ``srcs[0]`` per tile of ``arg[1]`` elements (``compact`` node, ``arg``
    ``("tiles", tile)``): the "sums" pass of :func:`lower_compact`, on its own."""
    flags, tile = node.srcs[0], node.arg[1]
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(flags)
    per, nb = tile // LOCAL, node.shape[0]
    sub = dev.scan_subgroups and scan_workgroup.subgroup_ok(dt.int32, "sum", dev.features)
    own, blocked = _tile(dt.int32, flags.shape[0], 2, dev, sub)
    blocked = blocked and own == per  # (any kernel's totals are those of the same tiles; this one needs per % 4)
    groups = _groups(nb, per, 1 + expr_loops(e, flags.shape), dev)
    return [low.step(Scan(flags.shape, 0, dt.int32, e, 0, groups, tile, "sums", None, "sum", per, sub,
                          blocked=blocked), node)]


def lower_compact(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """Stream compaction of a ``compact`` node built from 0/1 int32 flags (``srcs[0]``; see
    :mod:`kdsl.frontend.array.masks`): the flags' tile totals, their scan, and one pass that scans each tile again
    and writes each selected element's position, or ``srcs[1]`` at it, to its output slot. The mask is read
    twice and the values once; nothing of the input's size is written. ``arg`` "flags+tiles": the last source
    holds the tile totals already (:func:`lower_compact_tiles`), and the mask is read once here."""
    flags = node.srcs[0]
    tiles = node.srcs[-1] if node.arg == "flags+tiles" else None
    values = node.srcs[1] if len(node.srcs) - (tiles is not None) > 1 else None
    n = flags.shape[0]
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(flags)
    cost = 1 + expr_loops(e, flags.shape)
    if values is not None:  # the values' own loops (read once per selected element)
        cost += expr_loops(Lowering(keep, dev.max_push_words).expr(values), flags.shape)
    sub = dev.scan_subgroups and scan_workgroup.subgroup_ok(dt.int32, "sum", dev.features)
    per, blocked = _tile(dt.int32, n, cost, dev, sub)
    if blocked and not scan_wide_loads.wide_expr(e, flags.shape, 0):
        # flags read one element at a time (a strided or unaligned mask): the shared-memory kernel. The blocked
        # one compacted flatnonzero(int8[1:]) wrongly on an H200 (subgroups of 32) and right on lavapipe; its
        # wide-loaded compactions and scalar-loaded scans passed there (CHANGELOG, Fixed)
        per, blocked = _tile(dt.int32, n, cost, dev, False)
    tile = per * LOCAL
    nb = -(-n // tile)
    groups = _groups(nb, per, cost, dev)
    vals = (lambda lw: lw.expr(values)) if values is not None else (lambda lw: None)
    # a dense selection's values are all read with the flags (the count is the node's length)
    preload = blocked and values is not None and node.shape[0] >= scan_blocked.PRELOAD_DENSITY * n
    # positions go through shared memory (one int per element of a tile, besides the kernel's 3 KiB) to
    # coalesced stores
    stage = blocked and values is None and scan_blocked.STAGE_POSITIONS and \
        4 * (tile + 3 * LOCAL) <= dev.max_shared_memory
    if nb == 1:
        return [low.step(Scan((n,), 0, node.dtype, e, 0, groups, 0, "compact", None, "sum", per, sub, vals(low),
                              blocked, preload, stage), node)]
    short = (nb,)
    # (tiles are powers of two: totals of n > tile elements have nb entries for this tile and no other)
    if tiles is not None and tiles.shape == short:
        sums, steps = tiles, []
    else:
        sums = Node("partial", (), dt.int32, short, device=dev)
        steps = [low.step(Scan((n,), 0, dt.int32, e, 0, groups, tile, "sums", None, "sum", per, sub,
                               blocked=blocked), sums)]
    scanned = Node("partial", (), dt.int32, short, device=dev)
    steps += lower_scan(short, 0, dt.int32, lambda lw: lw.load(sums, View.contiguous(short)), scanned, keep, dev)
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(flags)
    carry = low.load(scanned, View.contiguous(short))
    steps.append(low.step(Scan((n,), 0, node.dtype, e, 0, groups, tile, "compact", carry, "sum", per, sub,
                               vals(low), blocked, preload, stage), node))
    return steps
