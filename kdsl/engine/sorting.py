"""Lowering of the data-dependent nodes: ``sort`` (an LSD radix sort for long lines, see
:mod:`kdsl.codegen.radix`, else a multi-pass bitonic sort, see :mod:`kdsl.codegen.sort`), ``gather`` and
``search`` (one kernel each, see :mod:`kdsl.codegen.gather`).

Graph nodes (built by :mod:`kdsl.frontend.array.sorting`):

* ``"sort"``   ``srcs = (x,)``, ``arg = (axis, descending, want)``: ``x``'s values ("values") or original
               indices ("indices") in stable sorted order along ``axis``
* ``"gather"`` ``srcs = (data, index)``, ``arg = (axis, along, mode)`` (see :class:`kdsl.ir.kernels.Gather`)
* ``"search"`` ``srcs = (a, v)`` or ``(a, v, sorter)``, ``arg = side``
* ``"compact"`` ``srcs = (csum,)``: the positions where the inclusive running count ``csum`` steps up, shape
               ``(csum[-1],)`` (built by :mod:`kdsl.frontend.array.masks`; see :class:`kdsl.ir.kernels.Compact`)

Lines of at least ``RADIX_MIN_GPU`` (GPUs) or ``RADIX_MIN_CPU`` (CPU drivers) elements take the radix sort:
a records kernel, then per 8-bit digit a count, a scan of the counts (two passes on GPUs) and a stable
scatter, then the output kernel: 2 + 4 * bits / 8 launches on GPUs whatever the length (18 for float32). Shorter
lines take the bitonic sort: one tile kernel, then per block longer than a tile its global stages (two per
pass) and one pass for the rest in shared (CPU drivers: private) memory: about ``log2(n/tile)**2 / 4``
passes (42 for 2**20 elements in GPU tiles of 1 024, 56 in CPU tiles of 256). A line within one tile is
one kernel and the output, which no radix sort beats. Passes take their stage and sizes in push constants
(one program per pass kind, not per stage or size); those words follow from the shapes alone
(``Step.fixed``), so the plan cache keeps them with the plan.

Example:
    >>> import kdsl as kd, numpy as np
    >>> from kdsl.engine.schedule import schedule
    >>> x = kd.asarray(np.random.rand(1500).astype(np.float32))
    >>> kinds = [type(s.kernel).__name__ for s in schedule([kd.sort(x)._node])]
    >>> kinds[0], kinds[-1], sorted(set(kinds[1:-1]))
    ('SortKeys', 'SortOut', ['SortLocal', 'SortMerge'])
    >>> steps = schedule([kd.sort(kd.asarray(np.random.rand(5000).astype(np.float32)))._node])
    >>> type(steps[0].kernel).__name__, type(steps[-1].kernel).__name__  # the step count depends on the device
    ('RadixKeys', 'SortOut')
"""

from __future__ import annotations

import dataclasses

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen.loops import expr_loops
from kdsl.codegen.radix import N_PUSH, SCAN_CHUNK, SCAN_RUN, padded
from kdsl.codegen.radix_keys import BITS, DIGITS, radix_passes, raw_words
from kdsl.codegen.sort import key_words
from kdsl.device import Device
from kdsl.engine.lower_scan import lower_scan
from kdsl.engine.lowering import Lowering, Step
from kdsl.ir.graph import Node
from kdsl.ir.kernels import LOCAL, LOOP_CAP, MAX_GROUPS, Compact, Gather, Search, elementwise_groups
from kdsl.ir.sort_kernels import RadixKeys, RadixPass, SortKeys, SortLocal, SortMerge, SortOut
from kdsl.ir.view import View

TILE = 1024  # records sorted in shared memory per workgroup (12 KiB at 3 words: within Vulkan's 16 KiB minimum)
# CPU drivers pay dearly for workgroup barriers (lavapipe: ~0.3 ms per barrier per workgroup), so there one
# invocation sorts a tile of PRIVATE_TILE records alone, in private memory, without barriers.
PRIVATE_TILE = 256  # measured on lavapipe: 64 -> 1.6 s, 128 -> 1.4 s, 256 -> 0.8 s for 70 000 elements
PRIVATE_RADIX_TILE = 4096  # records one invocation counts and scatters per radix pass (CPU drivers)
# Lines at least this long take the radix sort. lavapipe, 2**12 elements in all, argsort ms radix/bitonic:
# 9/9 (64 lines of 256), 12/8 (16 of 1 024), 9/11 (4 of 4 096), 10/16 (2**14), 26/135 (2**16), 440/9 000 (2**20).
RADIX_MIN_CPU = 1 << 11
RADIX_MIN_GPU = 1 << 11  # above a GPU tile (1 024): the bitonic sort's global passes start there
RADIX_RUN = 16  # records per invocation of a workgroup radix tile, at most
RADIX_PRIVATE: bool | None = None  # None: private radix tiles on CPU drivers (tests force either kind)
_SEARCH_TRIPS = 34  # binary-search iterations per value (a uint32 length) plus one


def _pow2(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def uses_private_tiles(dev: Device) -> bool:
    """Whether tiles are sorted one per invocation in private memory (CPU drivers) or in shared memory."""
    return dev.info.get("device_type") == "cpu"


def _tile(dev: Device, words: int, total: int) -> tuple[int, bool, int]:
    """(records per tile, whether an invocation owns a tile in private memory, workgroups of a tile pass)."""
    if uses_private_tiles(dev):
        tile = max(2, min(PRIVATE_TILE, _pow2(total)))
        tiles = -(-total // tile)
        levels = tile.bit_length() - 1
        per_tile = 2 * tile + tile // 2 * levels * (levels + 1) // 2  # loop trips an invocation spends on one
        groups = max(-(-tiles // LOCAL), -(-tiles * per_tile // (LOCAL * LOOP_CAP)))
        return tile, True, min(groups, MAX_GROUPS)
    limit = dev.info.get("max_shared_memory_size", 16384)
    tile = TILE
    while tile * words * 4 > limit and tile > 2:
        tile //= 2
    tile = max(2, min(tile, _pow2(total)))
    return tile, False, min(-(-total // tile), MAX_GROUPS)


def lower_sort(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """The passes sorting ``node``'s source (see the module docstring)."""
    axis, descending, want = node.arg
    src = node.srcs[0]
    n = src.shape[axis]
    lines = node.size // n if n else 0
    low = Lowering(keep, dev.max_push_words)
    if node.size == 0:  # nothing to launch; the step still gives the node its (empty) buffer
        return [low.step(SortOut(node.shape, axis, node.dtype, want, None, 0, 1, 2, 1), node)]
    if n >= 1 << 31:
        raise ValueError(f"cannot sort an axis of {n} elements: at most 2**31 - 1 per line")
    if uses_radix(dev, n):
        return lower_radix(node, keep, dev)
    words = key_words(src.dtype) + 1
    n_pad = _pow2(n)
    total = lines * n_pad
    tile, private, groups = _tile(dev, words, total)
    cur = Node("partial", (), dt.uint32, (total * words,), device=dev)
    other = Node("partial", (), dt.uint32, (total * words,), device=dev)
    e = low.expr(src)
    first = SortKeys(src.shape, axis, src.dtype, descending, e, 0, n_pad, words, tile, min(tile, n_pad), groups,
                     private)
    steps = [low.step(first, cur)]
    fresh = True  # ``other`` gets its buffer on its first write; later passes reuse both buffers
    for k in (1 << b for b in range(tile.bit_length(), n_pad.bit_length())):
        j = k // 2
        while j >= tile:
            radix = 4 if j >= 2 * tile else 2  # two stages per pass while both distances are global
            items = total // radix
            merge = SortMerge(words, 4, elementwise_groups(items, dev.max_groups), radix)
            steps.append(_pass(merge, other, cur, [k, j, items, n_pad - 1], fresh))
            cur, other, fresh = other, cur, False
            j //= radix
        local = SortLocal(words, tile, 4, groups, private)
        steps.append(_pass(local, other, cur, [k, total, n_pad - 1, -(-total // tile)], fresh))
        cur, other, fresh = other, cur, False
    low = Lowering(keep, dev.max_push_words)
    low.load(cur, View.contiguous(cur.shape))  # slot 1: the sorted records
    values = low.expr(src) if want == "values" else None
    out = SortOut(node.shape, axis, node.dtype, want, values, 0, n_pad, words,
                  elementwise_groups(node.size, dev.max_groups))
    steps.append(low.step(out, node))
    return steps


def uses_radix(dev: Device, n: int) -> bool:
    """Whether lines of ``n`` elements take the radix sort (long lines) rather than the bitonic one."""
    return n >= (RADIX_MIN_CPU if uses_private_tiles(dev) else RADIX_MIN_GPU)


def _radix_tile(dev: Device, words: int, n: int, private: bool) -> int:
    """Records per radix tile: one invocation's on CPU drivers; on GPUs a workgroup's, as many as shared
    memory holds (records, 8 packed counters and three scan slots per invocation), at most 16 per invocation."""
    if private:
        return max(1, min(PRIVATE_RADIX_TILE, n))
    limit = dev.info.get("max_shared_memory_size", 16384)
    run = RADIX_RUN
    while run > 1 and (padded(LOCAL * run) * words + 11 * LOCAL) * 4 > limit:
        run //= 2
    while run > 1 and LOCAL * run // 2 >= n:  # short lines: no more than half a tile empty
        run //= 2
    return LOCAL * run


def _radix_groups(dev: Device, tiles: int, trips: int, private: bool) -> int:
    """Workgroups of a radix pass over ``tiles`` tiles of ``trips`` loop iterations each, within the budget."""
    per = LOCAL if private else 1  # tiles a workgroup takes per turn
    need = -(-tiles // per)
    floor = -(-tiles * trips // (per * dev.loop_budget))
    if floor > MAX_GROUPS:
        raise ValueError(f"cannot radix-sort {tiles} tiles in one dispatch; split the array")
    return max(1, min(need, MAX_GROUPS, max(dev.max_groups if private else MAX_GROUPS, floor)))


def _scan_counts(counts: Node, scanned: Node, size: int, keep: set[int], dev: Device, private: bool) -> list[Step]:
    """The inclusive scan of a radix pass's ``size`` digit counts: the scheduler's scan on CPU drivers, two
    workgroup passes on GPUs (block totals, then each block scanned from the totals before it)."""
    if private:
        return lower_scan((size,), 0, dt.uint32, lambda lw: lw.load(counts, View.contiguous((size,))), scanned,
                           keep, dev)
    blocks = -(-size // SCAN_CHUNK)
    groups = min(blocks, MAX_GROUPS)
    if -(-blocks // groups) * (blocks // LOCAL + 2 * SCAN_RUN + 40) > dev.loop_budget:
        raise ValueError(f"cannot scan {size} radix counts within the loop budget; split the array")
    sums = Node("partial", (), dt.uint32, (blocks,), device=dev)
    return [_pass(RadixPass("sums", 0, 0, 1, groups), sums, [counts], [size], True),
            _pass(RadixPass("scan", 0, 0, 1, groups), scanned, [counts, sums], [size], True)]


def lower_radix(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """An LSD radix sort (see :mod:`kdsl.codegen.radix`): records (raw bits, and indices for an argsort),
    then per 8-bit digit a count, a scan of the counts and a stable scatter, then the sorted indices (or the
    values decoded from the sorted bits) in the array's layout. Every temporary is allocated once and reused
    by every pass, so a repeated sort binds the same buffers and replays its recorded command buffer."""
    axis, descending, want = node.arg
    src = node.srcs[0]
    n, total = src.shape[axis], node.size
    lines = total // n
    kw = raw_words(src.dtype)
    words = kw + (1 if want == "indices" else 0)  # a sort carries no index row: its output decodes the bits
    if total * words >= 1 << 32:
        raise ValueError(f"cannot sort {total} elements of {src.dtype.name} at once: at most 2**32 record words")
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(src)
    groups = elementwise_groups(total, dev.max_groups, dev.loop_budget, 1 + expr_loops(e, src.shape))
    cur = Node("partial", (), dt.uint32, (total * words,), device=dev)
    other = Node("partial", (), dt.uint32, (total * words,), device=dev)
    steps = [low.step(RadixKeys(src.shape, axis, src.dtype, descending, e, 0, words, groups), cur)]
    private = uses_private_tiles(dev) if RADIX_PRIVATE is None else RADIX_PRIVATE
    tile = _radix_tile(dev, words, n, private)
    tpl = -(-n // tile)
    tiles = lines * tpl
    trips = 2 * tile + 4 * DIGITS if private else 12 * (tile // LOCAL) + 120
    pass_groups = _radix_groups(dev, tiles, trips, private)
    size = tiles * DIGITS
    counts = Node("partial", (), dt.uint32, (size,), device=dev)
    scanned = Node("partial", (), dt.uint32, (size,), device=dev)
    scan = _scan_counts(counts, scanned, size, keep, dev, private)
    count = RadixPass("count", words, tile, N_PUSH, pass_groups, private, src.dtype, descending)
    scatter = RadixPass("scatter", words, tile, N_PUSH, pass_groups, private, src.dtype, descending,
                        dev.scan_subgroups and not private)
    for p in range(radix_passes(src.dtype)):
        bit = BITS * p
        push = [bit % 32, kw - 1 - bit // 32, n, tpl, total, tiles, int(p == 0)]
        steps.append(_pass(count, counts, [cur], push, p == 0))
        steps += scan if p == 0 else [dataclasses.replace(s, fresh=False) for s in scan]
        steps.append(_pass(scatter, other, [cur, counts, scanned], push, p == 0))
        cur, other = other, cur
    low = Lowering(keep, dev.max_push_words)
    low.load(cur, View.contiguous(cur.shape))  # slot 1: the sorted records
    soa, raw = (kw * total, None) if want == "indices" else (0, src.dtype)
    out = SortOut(node.shape, axis, node.dtype, want, None, 0, n, words,
                  elementwise_groups(node.size, dev.max_groups), soa, raw, total)
    steps.append(low.step(out, node))
    return steps


def _pass(kernel: SortMerge | SortLocal | RadixPass, out: Node, inp: Node | list[Node],
          words: list[int], fresh: bool) -> Step:
    step = Step(kernel, out, inp if isinstance(inp, list) else [inp], np.array(words, np.uint32), fresh)
    step.fixed = True  # the words follow from the shapes: a cached plan keeps them
    return step


def lower_gather(node: Node, keep: set[int], dev: Device) -> list[Step]:
    axis, along, mode = node.arg
    data, index = node.srcs
    low = Lowering(keep, dev.max_push_words)
    d, i = low.expr(data), low.expr(index)
    kernel = Gather(node.shape, node.dtype, d, data.shape, i, index.shape, index.dtype, axis, along, mode, 0,
                    elementwise_groups(max(node.size, 1), dev.max_groups))
    return [low.step(kernel, node)]


def lower_search(node: Node, keep: set[int], dev: Device) -> list[Step]:
    a, v = node.srcs[:2]
    low = Lowering(keep, dev.max_push_words)
    ea, ev = low.expr(a), low.expr(v)
    es = low.expr(node.srcs[2]) if len(node.srcs) > 2 else None
    size = max(node.size, 1)
    # each value loops up to _SEARCH_TRIPS times: keep an invocation's total iterations under the loop cap
    floor = -(-size * _SEARCH_TRIPS // (LOCAL * LOOP_CAP))
    groups = min(MAX_GROUPS, max(elementwise_groups(size, dev.max_groups), floor))
    kernel = Search(node.shape, node.dtype, a.dtype, ea, a.shape[0], ev, es, node.arg, 0, groups)
    return [low.step(kernel, node)]


def lower_compact(node: Node, keep: set[int], dev: Device) -> list[Step]:
    csum = node.srcs[0]
    low = Lowering(keep, dev.max_push_words)
    n = csum.shape[0]
    kernel = Compact(node.shape, node.dtype, low.expr(csum), csum.dtype, n, 0,
                     elementwise_groups(max(n, 1), dev.max_groups, dev.loop_budget))
    return [low.step(kernel, node)]


def lower(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """The steps of a ``sort``, ``gather``, ``search`` or ``compact`` node."""
    lowerings = {"sort": lower_sort, "gather": lower_gather, "search": lower_search, "compact": lower_compact}
    return lowerings[node.op](node, keep, dev)


def sort_passes(n: int, tile: int = TILE) -> int:
    """Kernel launches of a sort of lines of ``n`` elements (for docs and tests).

    Example:
        >>> sort_passes(1000), sort_passes(1 << 20), sort_passes(1 << 20, tile=256)
        (2, 42, 56)
    """
    n_pad, tile = _pow2(n), min(tile, _pow2(n))
    blocks = range(tile.bit_length(), n_pad.bit_length())
    return 2 + sum((b - tile.bit_length() + 2) // 2 + 1 for b in blocks)

