"""The scheduler: cut the lazy graph into as few kernels as possible.

1. **Materialise** the requested nodes, every reduce / matmul / scan / assemble, and every elementwise node
   that two different kernels would need (computed once, stored once).
2. **Inline** everything else: each kernel evaluates its elementwise and movement nodes directly from the
   buffers below them, so an elementwise chain is one kernel and ``(a*b+c).sum(axis=1)`` is one kernel.
3. **Epilogue**: an elementwise node whose only reduction input is consumed by it alone is computed by the
   reduction kernel itself (``x.mean()`` = sum and scale in one kernel).

4. **Loop budget**: no invocation may loop more than ``Device.loop_budget`` times, all its loops together
   (lavapipe silently stops an invocation at ~65 535), so launches grow and long work is cut into passes over
   temporaries: reductions into partial results reduced again, cumsum / cumprod into block totals (reduce-then-scan),
   matmul into k chunks. Loops inside helper functions (integer powers) count too.

Each step's kernel IR holds no data: buffers become binding slots and Python scalars push-constant words, so
the kernel is its own cache key.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.ones((4, 8), np.float32))
    >>> [type(s.kernel).__name__ for s in schedule([((a * 2 + 1).sum(axis=1))._node])]
    ['Reduce']
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen import coopmat, glsl, matmul, matmul_cpu, reduce, reduce_workgroup, scan_workgroup, vector
from kdsl.codegen.loops import expr_loops
from kdsl.device import Device
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.graph import MATERIALISED, Node, toposort
from kdsl.ir.kernels import LOCAL, MAX_GROUPS, Elementwise, Kernel, Matmul, Reduce, Scan, elementwise_groups
from kdsl.ir.view import INDEX_LIMIT, View

_F32, _U32 = struct.Struct("<f"), struct.Struct("<I")
MAX_DEPTH = 100  # longest chain of ops inlined into one kernel (keeps shaders and recursion bounded)
SCAN_BLOCK = 1024  # elements each invocation of a multi-pass cumsum walks (see kdsl.codegen.scan)
SCAN_DIRECT = 4096  # lines up to this long are scanned in one pass, one invocation per line
SCAN_SERIAL = 32  # longer lines get workgroup scans (kdsl.codegen.scan_workgroup) ...
SCAN_LINES = 8  # ... and many lines longer than this but at most 256 long are scanned whole, many per tile


@dataclass
class Step:
    """One kernel launch: write ``out`` (slot 0) from ``inputs`` (slots 1..n) with push constants ``words``."""

    kernel: Kernel
    out: Node
    inputs: list[Node]
    words: np.ndarray
    fresh: bool = True  # allocate out's buffer (False: an earlier step of the same assemble did)
    fused: list[Node] = field(default_factory=list)  # the graph nodes this kernel computes (for explain)
    sources: list = field(default_factory=list)  # (node, kind) each push word group came from (plan cache)
    baked: bool = False  # a scalar was baked into the source: the kernel depends on data (not cacheable)
    template: object = None  # the plan-cache entry this step came from (kdsl.engine.plan)
    fixed: bool = False  # words set by the graph's structure alone (sort passes): the plan cache keeps them


class Lowering:
    """Turns the inlined part of the graph under one kernel into IR, assigning slots and push words."""

    def __init__(self, materialised: set[int], max_words: int):
        self.materialised = materialised
        self.max_words = max_words
        self.slots: dict[int, int] = {}
        self.inputs: list[Node] = []
        self.words: list[int] = []
        self.memo: dict[int, Expr] = {}
        self.fused: list[Node] = []
        self.acc: tuple[Node, Expr] | None = None  # (reduce node, IR standing for its value) in an epilogue
        self.root: Node | None = None  # the node this kernel computes (stored, but not read)
        self.sources: list = []  # (node, "const" | "rand" | "offset") per push-word group, in order
        self.baked = False

    def slot(self, node: Node) -> int:
        """The binding slot ``node``'s buffer is read from (the first read assigns it)."""
        slot = self.slots.get(node.id)
        if slot is None:
            slot = self.slots[node.id] = len(self.inputs) + 1
            self.inputs.append(node)
        return slot

    def load(self, node: Node, view: View) -> Expr:
        return ir.load(self.slot(node), node.dtype, view)

    def offset_word(self, node: Node) -> int | None:
        """The push word that will hold view node ``node``'s offset, or None when the offset stays a literal
        (see :func:`pushes_offset`) or no push space is left (the step is then baked, as for a scalar)."""
        offset = node.arg.offset
        if not pushes_offset(node.arg, node.srcs[0].size):
            return None
        if len(self.words) + 1 > self.max_words:
            self.baked = True
            return None
        self.words.append(offset)
        self.sources.append((node, "offset"))
        return len(self.words) - 1

    def _stored(self, node: Node) -> bool:
        return node.realized or (node.id in self.materialised and node is not self.root)

    def expr(self, node: Node) -> Expr:
        hit = self.memo.get(node.id)
        if hit is None:
            hit = self.memo[node.id] = self._expr(node)
        return hit

    def _expr(self, node: Node) -> Expr:
        if self.acc is not None and node is self.acc[0]:
            return self.acc[1]
        if self._stored(node):
            return self.load(node, View.contiguous(node.shape))
        self.fused.append(node)
        op = node.op
        if op == "const":
            return self.const(node)
        if op == "view":
            src = node.srcs[0]
            if src.op == "const":
                return self.expr(src)
            # The offset goes into a push word, so a loop over X[i:i+b] reuses one kernel for every i.
            if self._stored(src) and not (self.acc is not None and src is self.acc[0]):
                view, at = ir.pushed_offset(node.arg, self.offset_word(node))
                slot = self.slot(src)
                return Expr("load", src.dtype, (), (slot, view) if at is None else (slot, view, at))
            inner = self.expr(src)
            view, at = ir.pushed_offset(node.arg, self.offset_word(node))
            return Expr("remap", inner.dtype, (inner,), (view, src.shape) if at is None else (view, src.shape, at))
        if op == "iota":
            return Expr("iota", node.dtype, (), node.arg)
        if op == "rand":
            dist, *key = node.arg
            words = tuple(int(k) & 0xFFFFFFFF for k in key)
            if len(self.words) + len(words) > self.max_words:  # no push space left: bake the key (as const does)
                self.baked = True
                return Expr("rand", node.dtype, (), (dist, words))
            word = len(self.words)
            self.words.extend(words)
            self.sources.append((node, "rand"))
            return Expr("rand", node.dtype, (), (dist, word))
        if op == "rows":  # the source is read at a computed row: it keeps its own shape
            src, index = node.srcs
            return Expr("rows", node.dtype, (self.expr(src), self.expr(index)), (src.shape, index.shape))
        return Expr(op, node.dtype, tuple([self.expr(s) for s in node.srcs]))  # an elementwise op or a cast

    def const(self, node: Node) -> Expr:
        value, dtype = node.arg, node.dtype
        if len(self.words) + glsl.words_of(dtype) > self.max_words:  # no push space left: bake the value
            self.baked = True
            return Expr("lit", dtype, (), value)
        word = len(self.words)
        self.words.extend(const_words(value, dtype))
        self.sources.append((node, "const"))
        return ir.const(word, dtype)

    def step(self, kernel: Kernel, out: Node, fresh: bool = True) -> Step:
        kernel = kernel._replace(n_words=len(self.words))
        return Step(kernel, out, self.inputs, np.array(self.words, np.uint32), fresh, self.fused, self.sources,
                    self.baked)


def pushes_offset(view: View, src_size: int) -> bool:
    """Whether kernels read ``view``'s offset (into a source of ``src_size`` elements) from a push word rather
    than a literal, so that one kernel and one cached plan serve every offset (``X[i:i+b]`` in a loop). Not
    when the view cannot move (at offset 0 it already spans its whole source: a reshape, a transpose, a
    broadcast; the scheduler and the buffer aliasing of :mod:`kdsl.engine.realize` rely on those being
    recognisable), nor past int32 (one word cannot hold it). The plan's signature keeps exactly the offsets
    this leaves literal (:func:`kdsl.engine.plan.view_key`).

    >>> v = View.contiguous((10, 4))
    >>> pushes_offset(v.slice(0, 2, 1, 5), 40), pushes_offset(v.slice(0, 0, 1, 5), 40), pushes_offset(v, 40)
    (True, True, False)
    """
    offset = view.offset
    if offset > INDEX_LIMIT:
        return False
    return offset != 0 or (view.span - offset if view.size else 0) < src_size


def const_words(value: Any, dtype: dt.DType) -> list[int]:
    """A scalar as the 32-bit words its compute type reads (see :func:`kdsl.codegen.glsl.const_word`)."""
    if dtype.is_float and dtype.itemsize <= 4:
        try:  # struct rounds a double to float32 as NumPy's cast does, without making arrays (runs per realize)
            return [_U32.unpack(_F32.pack(value))[0]]
        except (OverflowError, TypeError, struct.error):  # beyond float32's range: NumPy gives inf
            return [int(np.array(value, np.float32).view(np.uint32))]
    if dtype.kind == "c":  # (real, imag), each in its words
        return np.array(value, dtype.np).reshape(1).view(np.uint32).tolist()
    if dtype.itemsize == 8:
        raw = int(np.array(value, dtype.np).view(np.uint64))
        return [raw & 0xFFFFFFFF, raw >> 32]
    return [int(value) & 0xFFFFFFFF]


def _materialised(live: list[Node], roots: list[Node]) -> tuple[set[int], dict[int, list[Node]]]:
    consumers: dict[int, list[Node]] = {}
    for n in live:
        for s in n.srcs:
            consumers.setdefault(s.id, []).append(n)
    keep = {r.id for r in roots if not r.realized}
    keep |= {n.id for n in live if n.op in MATERIALISED}
    owners: dict[int, set[int]] = {}
    for n in reversed(live):
        if n.id in keep:
            owners[n.id] = {n.id}
            continue
        own: set[int] = set()
        for c in consumers.get(n.id, ()):
            own |= owners[c.id]
        if len(own) > 1 and n.is_elementwise:  # needed by two kernels: compute it once
            keep.add(n.id)
            own = {n.id}
        owners[n.id] = own
    depth: dict[int, int] = {}
    for n in live:  # very deep chains are cut into kernels of at most MAX_DEPTH inlined ops
        d = 0 if n.id in keep else 1 + max((depth.get(s.id, 0) for s in n.srcs), default=0)
        if d > MAX_DEPTH:
            keep.add(n.id)
            d = 0
        depth[n.id] = d
    keep |= _matmul_operands(live, keep)
    keep |= _held(live, keep, consumers, roots)
    return keep, consumers


CHEAP_OPS = 3  # ... and an operand of at most this many fused ops stays fused (``(a * 2) @ b``: one pass)
MATMUL_REREAD = 64  # a matmul operand is read again for each block of this many outputs along the other side


def _matmul_operands(live: list[Node], keep: set[int]) -> set[int]:
    """Matmul operands to compute into a buffer first. A matmul reads each element of ``a`` once per block of
    ``MATMUL_REREAD`` columns of the result (and ``b`` once per block of rows): an operand that is computed
    (a GELU, a bias add, a transpose-and-reshape with divisions in its index) would be recomputed at every
    read - measured on an H200, 5 ms instead of 0.1 for a 8192 x 384 x 384 float16 matmul fed a permuted
    attention output. A few cheap ops (a cast, a scale, a strided view) stay fused: an extra pass costs more."""
    extra: set[int] = set()
    for n in live:
        if n.op != "matmul":
            continue
        for src, other_side in zip(n.srcs, (n.shape[2], n.shape[1]), strict=True):
            if other_side > MATMUL_REREAD and not _cheap_load(src, keep):
                extra.add(src.id)
    return extra


def _cheap_load(s: Node, keep: set[int]) -> bool:
    """At most ``CHEAP_OPS`` computed nodes behind ``s``, and no view of a computed view (an index that needs
    divisions by the inner view's shape)."""
    stack, ops = [s], 0
    while stack:
        x = stack.pop()
        if x.realized or x.id in keep or not x.srcs:
            continue
        ops += 1
        inner = x.srcs[0]
        if ops > CHEAP_OPS or (x.op == "view" and inner.op == "view" and not (inner.realized or inner.id in keep)):
            return False
        stack.extend(x.srcs)
    return True


def _stored_or_leaf(s: Node, keep: set[int]) -> bool:
    return s.realized or s.id in keep or not s.srcs or (s.op == "view" and _stored_or_leaf(s.srcs[0], keep))


def _held(live: list[Node], keep: set[int], consumers: dict[int, list[Node]], roots: list[Node]) -> set[int]:
    """The computed nodes that a live Array or a node outside this graph can still read (``Node.refs``
    counts more users than this graph has), unless recomputing them is one op over stored data, or storing
    them would take more memory than the graph's data already does (an intermediate broadcast to a huge shape,
    ``j = kd.arange(n)[None, :] + kd.zeros((m, 1))``, stays fused: storing it could exceed a buffer's size).

    Without this, ``for _ in range(n): w = w - lr * grad(w)`` never stores ``w`` (each step realises only
    what reads it), and step k recomputes w from all k earlier gradients: the kernel grows every step, and
    at some step binds more buffers than the device has. Stored, w is one buffer and every step's plan is
    the same."""
    bound = max([r.size for r in roots] + [s.size for n in live for s in n.srcs if s.realized])
    return {n.id for n in live
            if n.refs > len(consumers.get(n.id, ())) and n.id not in keep and n.is_elementwise
            and n.size <= bound and not all(_stored_or_leaf(s, keep) for s in n.srcs)}


def _reads(node: Node, keep: set[int], reads: dict[int, set[int]]) -> set[int]:
    """The buffers the kernel computing ``node`` reads, given ``reads`` of the nodes below it."""
    out: set[int] = set()
    for s in node.srcs:
        if s.realized or s.id in keep:
            out.add(s.id)
        else:
            out |= reads.get(s.id, set())
    return out


def cap_buffers(live: list[Node], keep: set[int], cap: int) -> dict[int, set[int]]:
    """Materialise more nodes (adding them to ``keep``) until no kernel reads more than ``cap`` buffers: the
    device limits the storage buffers one kernel binds. Returns each node's read set."""
    reads: dict[int, set[int]] = {}
    for n in live:
        r = _reads(n, keep, reads)
        # Too many: store the inlined source that reads the most buffers, and count again. (An assemble is
        # exempt: it writes each piece with a kernel of its own.)
        while len(r) > cap and n.op != "assemble":
            inlined = [s for s in n.srcs if not (s.realized or s.id in keep) and reads.get(s.id)]
            if not inlined:
                break
            keep.add(max(inlined, key=lambda s: len(reads[s.id])).id)
            r = _reads(n, keep, reads)
        reads[n.id] = r
    return reads


def _reduce_behind(s: Node) -> Node | None:
    """The reduce node ``s`` is (or is a whole-array reshape of)."""
    if s.op == "reduce":
        return s
    if s.op == "view" and s.srcs[0].op == "reduce":
        v, src = s.arg, s.srcs[0]
        if v.offset == 0 and v.size == src.size and v.is_contiguous:
            return src
    return None


def _epilogue_source(node: Node, keep: set[int], consumers: dict[int, list[Node]],
                     root_ids: set[int]) -> tuple[Node, Node] | None:
    """(stand-in, reduce): the reduction ``node``'s kernel can absorb (see the module docstring), if any."""
    found: list[tuple[Node, Node]] = []
    stack, seen = [node], set()
    inlined: set[int] = set()  # the elementwise nodes between ``node`` and the reduction, inlined in its kernel
    remapped: set[int] = set()  # a "rows" node's source is read at other rows: never the epilogue's accumulator
    while stack:
        n = stack.pop()
        if n.op == "rows":
            remapped.add(n.srcs[0].id)
        for s in n.srcs[1:] if n.op == "rows" else n.srcs:
            if s.id in seen:
                continue
            seen.add(s.id)
            r = _reduce_behind(s)
            if r is not None and r.id in keep and r.id not in root_ids and s.shape == node.shape:
                found.append((s, r))
            elif s.is_elementwise and s.id not in keep:
                inlined.add(s.id)
                stack.append(s)
    # The epilogue sees the reduction only as its accumulator at the output's own position: any other view of
    # it (``M / M.reshape(-1)[::4].reshape(-1, 1)`` reads other positions) keeps the reduction stored.
    # Likewise every node on the way must be read only inside this kernel: another kernel that inlines one of
    # them (``e = exp(M + b)`` absorbed while ``M + b`` is also read elsewhere) would need the stored reduction.
    ours = inlined | {node.id}
    found = [(s, r) for s, r in found if s.id not in remapped and r.id not in remapped
             and all(c is s or (c.op != "view" and c.id in ours) for c in consumers.get(r.id, ()))
             and all(c.id in ours for m in inlined | {s.id} for c in consumers.get(m, ()))]
    return found[0] if len(found) == 1 else None


def schedule(roots: list[Node]) -> list[Step]:
    """The kernel steps that realise ``roots``, in execution order."""
    order = toposort(roots)
    root_ids = {r.id for r in roots}
    live = [n for n in order if not n.realized and (n.op != "const" or n.id in root_ids)]
    if not live:
        return []
    keep, consumers = _materialised(live, roots)
    cap = live[0].device.max_buffers - 2  # the output, and a reduction's partial results
    reads = cap_buffers(live, keep, cap)
    from kdsl.engine import rowfuse  # cycle: rowfuse lowers with this module's Lowering

    rows: dict[int, list[Step]] = {}  # row normalisers: output node id -> its one RowNorm step
    fused: set[int] = set()  # the nodes those kernels compute inside (reductions included)
    for m in rowfuse.find(live, keep, consumers, root_ids):
        dev = m.out.device
        assert dev is not None  # every node of a graph being realised has its device
        row_steps = rowfuse.lower(m, keep - m.inner, dev)
        if row_steps is not None:
            rows[m.out.id] = row_steps
            fused |= m.inner
    absorbed: dict[int, tuple[Node, Node]] = {}  # elementwise node id -> (stand-in, reduce) it absorbs
    for n in live:
        if n.id in keep and n.is_elementwise and n.id not in rows and n.id not in fused:
            found = _epilogue_source(n, keep, consumers, root_ids)
            if found is not None and found[1].id not in {r.id for _, r in absorbed.values()} and \
                    len(reads[n.id] | reads.get(found[1].id, set())) <= cap:
                absorbed[n.id] = found
    skip = {r.id for _, r in absorbed.values()} | fused
    steps: list[Step] = []
    for n in live:
        if n.id in rows:
            steps.extend(rows[n.id])
        elif n.id in keep and n.id not in skip:
            steps.extend(_lower(n, keep - skip, absorbed.get(n.id)))
    return steps


def _lower(node: Node, keep: set[int], absorbed: tuple[Node, Node] | None) -> list[Step]:
    dev = node.device
    assert dev is not None  # every node of a graph being realised has its device
    low = Lowering(keep, dev.max_push_words)
    if absorbed is not None:
        return _lower_reduce(absorbed[1], keep, dev, epilogue_of=node, standin=absorbed[0])
    if node.op == "reduce":
        return _lower_reduce(node, keep, dev)
    if node.op == "matmul":
        return _lower_matmul(node, keep, dev)
    if node.op == "scan":
        src, (op, axis) = node.srcs[0], node.arg
        return _lower_scan(node.shape, axis, node.dtype, lambda lw: lw.expr(src), node, keep, dev, op)
    if node.op == "compact" and node.arg == "flags":  # a mask's positions or values, from one scan of its flags
        return _lower_compact(node, keep, dev)
    if node.op in ("sort", "gather", "search", "compact"):
        from kdsl.engine import sorting  # cycle: sorting builds its steps with this module's Lowering

        return sorting.lower(node, keep, dev)
    if node.op == "scatter":
        from kdsl.engine import scatter  # cycle: scatter builds its steps with this module's Lowering

        return scatter.lower_scatter(node, keep, dev)
    if node.op == "assemble":
        steps = []
        for k, (region, piece) in enumerate(zip(node.arg, node.srcs, strict=False)):
            low = Lowering(keep, dev.max_push_words)
            e = low.expr(piece)
            kernel = Elementwise(region.shape, node.dtype, region, e, 0,
                                 elementwise_groups(max(region.size, 1), dev.max_groups, dev.loop_budget,
                                                    1 + expr_loops(e, region.shape)))
            steps.append(low.step(kernel, node, fresh=k == 0))
        return steps
    low.root = node
    e = low.expr(node)
    inner = expr_loops(e, node.shape)  # loop iterations per element inside helper functions
    kernel = Elementwise(node.shape, node.dtype, View.contiguous(node.shape), e, 0,
                         elementwise_groups(max(node.size, 1), dev.max_groups, dev.loop_budget, 1 + inner))
    if dev.vector_width == 4 and vector.eligible(kernel):
        kernel = kernel._replace(vec=4, groups=elementwise_groups(node.size // 4, dev.max_groups, dev.loop_budget,
                                                                  1 + 4 * inner))
    return [low.step(kernel, node)]


def _reduce_plan(shape: tuple[int, ...], axes: tuple[int, ...], dev: Device, cost: int = 1,
                 extra: int = 0) -> tuple[str, int, int]:
    """(mode, splits, groups) for a reduction (see :class:`kdsl.ir.kernels.Reduce`).

    One invocation per output when reductions are short, when neighbouring outputs sit next to each other in
    memory (innermost axis kept), or when there are at least ``dev.thread_outputs`` outputs (a per-device
    choice: a CPU driver pays for every workgroup barrier, a GPU wants its workgroups full). A few long
    reductions are first cut into partial results that a second pass combines: about ``dev.partials`` strided
    ones, one per invocation, when set (CPU drivers), else up to 1024 contiguous chunks, one per workgroup.
    Then :func:`_fit_budget` adds splits and workgroups until no invocation loops past ``dev.loop_budget``
    (``cost``: loop iterations per folded element; ``extra``: per output, for the epilogue)."""
    r = math.prod(shape[a] for a in axes)
    o = math.prod(n for k, n in enumerate(shape) if k not in axes)
    inner_kept = bool(shape) and (len(shape) - 1) not in axes and shape[-1] > 1
    if r <= 32 or (inner_kept and o >= 1024) or o >= dev.thread_outputs:
        mode, splits = "thread", 1
    elif o < 1024 and r >= 1 << 16:  # tall-skinny (X.T @ dz: 64 outputs of 10**6): split to fill the device
        if dev.partials:  # strided partial results, one per invocation (no barriers: CPU drivers)
            mode, splits = "thread", max(LOCAL, min(dev.partials // o, r // 64) // LOCAL * LOCAL)
        else:  # a workgroup tree per contiguous chunk (GPUs)
            mode, splits = "group", min(1024 // o, max(1, r // 8192))
    else:
        mode, splits = "group", 1
    return _fit_budget(mode, splits, r, max(o, 1), dev, cost, extra)


def _fit_budget(mode: str, splits: int, r: int, o: int, dev: Device, cost: int = 1,
                extra: int = 0) -> tuple[str, int, int]:
    """The plan with enough splits (shorter folds) and workgroups (fewer grid-stride turns) that each
    invocation's loop iterations, all loops together, stay within ``dev.loop_budget``.

    >>> class D: loop_budget, max_groups, reduce_subgroup = 60000, 512, 0
    >>> _fit_budget("thread", 1, 65536, 1024, D())  # 1024 rows of 65 536: two strided halves per row
    ('thread', 2, 8)
    >>> _fit_budget("group", 1, 2**32, 1, D())  # one reduction of 2**32: chunks of at most 256 x 59 990
    ('group', 280, 280)
    """
    budget, tree = dev.loop_budget, reduce_workgroup.trips(dev.reduce_subgroup)  # tree: the workgroup combine
    room = budget - extra - tree  # iterations left for the fold of one output (or partial)
    if room < 2 * cost:
        raise ValueError(f"one element of this reduction costs {cost} loop iterations (helper functions), too "
                         f"many for the device's loop budget of {budget}; simplify the reduced expression")
    if mode == "group":
        splits = max(splits, -(-r * cost // (LOCAL * room)))
        trips = -(-r // splits // LOCAL) * cost + tree + extra
        groups = min(o * splits, MAX_GROUPS)
        if -(-(o * splits) // groups) * trips <= budget:
            return "group", splits, groups
        splits = 1  # too many outputs for workgroup trees in budget: one invocation per partial instead
    splits = max(splits, -(-r * cost // room))
    trips = -(-r // splits) * cost + extra
    return "thread", splits, elementwise_groups(o * splits, dev.max_groups, budget, max(trips, 1))


Source = Callable[["Lowering"], Expr]  # lowers the expression a multi-pass kernel reads (again in each pass)


def _lower_reduce(node: Node, keep: set[int], dev: Device, epilogue_of: Node | None = None,
                  standin: Node | None = None) -> list[Step]:
    op, axes = node.arg
    src = node.srcs[0]
    return _reduce_steps(op, src.shape, axes, src.dtype, lambda low: low.expr(src), node, keep, dev,
                         epilogue_of, standin)


def _reduce_steps(op: str, shape: tuple[int, ...], axes: tuple[int, ...], dtype: dt.DType, source: Source,
                  node: Node, keep: set[int], dev: Device, epilogue_of: Node | None = None,
                  standin: Node | None = None) -> list[Step]:
    """The passes reducing ``source`` (a function lowering the reduced expression into a Lowering) over
    ``axes`` of ``shape`` into ``node``: partial passes while the plan splits, then the final pass (with the
    epilogue). Partial sums are reduced again; argmax / argmin partials hold the picked positions, and the
    next pass re-reads their values (``Reduce.index_of``), so the first index of the extreme still wins."""
    arg = op in ("argmax", "argmin")
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    cost = 1 + expr_loops(e, shape)  # argmax passes re-read values through the expression: same cost
    extra = 0
    if epilogue_of is not None:  # evaluated once per output, in the last pass
        assert standin is not None  # an epilogue always comes with the reduction's stand-in
        trial = Lowering(keep, dev.max_push_words)
        trial.acc, trial.root = (standin, ir.acc(node.dtype)), epilogue_of
        extra = expr_loops(trial.expr(epilogue_of), epilogue_of.shape)
    k_shape, k_axes, index_of, parts = shape, axes, None, 0
    plan_shape, plan_axes = shape, axes
    steps: list[Step] = []
    while True:
        mode, splits, groups = _reduce_plan(plan_shape, plan_axes, dev, cost, extra)
        if splits == 1:
            break
        part = Node("partial", (), node.dtype if arg else dtype, (node.size, splits), device=dev)
        kernel = Reduce(op, k_shape, k_axes, part.dtype, e, 0, mode, splits, groups, None, part.shape, index_of,
                        parts, dev.reduce_subgroup if mode == "group" else 0)
        steps.append(low.step(_checked(kernel, dev), part))
        low = Lowering(keep, dev.max_push_words)
        if arg:
            e, index_of, parts = source(low), low.load(part, View.contiguous(part.shape)), splits
        else:
            e, k_shape, k_axes, cost = low.load(part, View.contiguous(part.shape)), part.shape, (1,), 1
        plan_shape, plan_axes = part.shape, (1,)
    out, epilogue = node, None
    if epilogue_of is not None and standin is not None:
        low.acc = (standin, ir.acc(node.dtype))
        low.root = epilogue_of
        epilogue = low.expr(epilogue_of)
        out = epilogue_of
    kernel = Reduce(op, k_shape, k_axes, out.dtype, e, 0, mode, 1, groups, epilogue, out.shape, index_of, parts,
                    dev.reduce_subgroup if mode == "group" else 0)
    steps.append(low.step(_checked(kernel, dev), out))
    return steps


def _checked(kernel: Reduce, dev: Device) -> Reduce:
    """``kernel``, once the device is known to have the 64-bit integers its positions need."""
    if reduce.needs_int64(kernel) and not dev.supports(dt.int64):
        raise ValueError(f"reducing {math.prod(kernel.shape)} elements needs 64-bit integer positions, which "
                         f"{dev.name} does not support; reduce fewer than 2**30 elements at a time")
    return kernel


def _lower_matmul(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """One Matmul kernel; when its k loop would pass the loop budget, k is cut into chunks whose partial
    products a sum reduction adds."""
    low = Lowering(keep, dev.max_push_words)
    a, b = (low.expr(s) for s in node.srcs)
    batch, m, k = node.srcs[0].shape
    n = node.shape[2]
    coop = coopmat.choose(dev.coopmat_shapes, a.dtype, b.dtype, dev.subgroup_size, dev.features,
                          dev.max_shared_memory) if dev.matmul_tiles else None
    lanes = dev.matmul_lanes if not dev.matmul_tiles and min(m, n, k) > 0 and \
        matmul_cpu.eligible(a.dtype, b.dtype, dev.matmul_lanes, batch * m * n * k) else 0
    kernel = Matmul(batch, m, n, k, node.dtype, a, b, 0, dev.matmul_tiles, coop=coop or (), lanes=lanes)
    budget = dev.loop_budget
    la, lb = expr_loops(a, (batch, m, k)), expr_loops(b, (batch, k, n))
    cost = 1 + 4 * (la + lb)  # per k step: four elements of each operand
    if lanes:
        rows, cols, _ = matmul_cpu.geometry(kernel)
        cost = 1 + rows // lanes * la + cols * lb

    def trips(s: int) -> int:  # one invocation's loop iterations with s chunks
        return matmul.trips(kernel._replace(splits=s)) * cost * -(-(batch * s) // MAX_GROUPS)

    splits = 1
    while trips(splits) > budget // 2 and splits < max(k, 1):
        splits *= 2
    splits = max(splits, _fill_splits(kernel, dev))
    kernel = kernel._replace(splits=splits)
    if kernel.lanes:  # the workgroups' grid-stride turns times one tile's trips stay in budget
        kernel = kernel._replace(groups=matmul_cpu.groups(kernel, budget, trips(splits)))
    elif not kernel.tiled:
        kernel = kernel._replace(groups=elementwise_groups(max(batch * splits * -(-m // 4) * -(-kernel.n // 4), 1),
                                                           512, budget, trips(splits)))
    if splits == 1:
        return [low.step(kernel, node)]
    part = Node("partial", (), node.dtype, (splits, node.size), device=dev)
    steps = [low.step(kernel, part)]
    return steps + _reduce_steps("sum", part.shape, (0,), node.dtype,
                                 lambda lw: lw.load(part, View.contiguous(part.shape)), node, keep, dev)


SPLIT_K_GROUPS = 256  # split-K: a GPU matmul with fewer output tiles than this cuts k until it has about this many
SPLIT_K_MIN = 1024  # ... keeping each k chunk at least this long (the partial products cost a pass of their own)


def _fill_splits(kernel: Matmul, dev: Device) -> int:
    """k chunks that give a GPU matmul with a small output and a long k axis enough workgroups (``X.T @ G``,
    64 x 10 from 10**6 rows, has one output tile: without splits one workgroup walks all the rows).
    CPU drivers (``matmul_tiles`` off) run few workgroups anyway and get none.

    >>> from kdsl.ir.kernels import Matmul
    >>> class D: matmul_tiles = True
    >>> _fill_splits(Matmul(1, 64, 10, 10**6, None, None, None, 0), D())
    256
    >>> _fill_splits(Matmul(1, 4096, 4096, 4096, None, None, None, 0), D())
    1
    """
    if not dev.matmul_tiles:
        return 1
    launch = matmul.launch(kernel)
    tiles = launch[0] * launch[1] * kernel.batch
    splits = 1
    while tiles * splits * 2 <= SPLIT_K_GROUPS and kernel.k // (splits * 2) >= SPLIT_K_MIN:
        splits *= 2
    return splits


def _lower_scan(shape: tuple[int, ...], axis: int, dtype: dt.DType, source: Source, out: Node, keep: set[int],
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
    short = shape[:axis] + (nb,) + shape[axis + 1:]
    groups = elementwise_groups(lines * nb, dev.max_groups, budget, block * cost)
    sums = Node("partial", (), dtype, short, device=dev)
    steps = [low.step(Scan(shape, axis, dtype, e, 0, groups, block, "sums", op=op), sums)]
    scanned = Node("partial", (), dtype, short, device=dev)
    steps += _lower_scan(short, axis, dtype, lambda lw: lw.load(sums, View.contiguous(short)), scanned, keep, dev,
                         op)
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    carry = low.load(scanned, View.contiguous(short))
    steps.append(low.step(Scan(shape, axis, dtype, e, 0, groups, block, "scan", carry, op), out))
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
    the pass that scans each tile again from the totals before it."""
    length, budget = shape[axis], dev.loop_budget
    lines = math.prod(n for a, n in enumerate(shape) if a != axis)
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    cost = 1 + expr_loops(e, shape)
    per = scan_workgroup.elements_per_invocation(dtype, length, dev.max_shared_memory)
    while per > 1 and scan_workgroup.tile_loops(per, cost) * 2 > budget:
        per //= 2
    sub = dev.scan_subgroups and scan_workgroup.subgroup_ok(dtype, op, dev.features)
    tile = per * LOCAL
    nb = -(-length // tile)
    groups = elementwise_groups(lines * nb * LOCAL, dev.max_groups, budget - LOCAL,
                                scan_workgroup.tile_loops(per, cost))
    if nb == 1:
        return [low.step(Scan(shape, axis, dtype, e, 0, groups, 0, "scan", None, op, per, sub), out)]
    short = shape[:axis] + (nb,) + shape[axis + 1:]
    sums = Node("partial", (), dtype, short, device=dev)
    steps = [low.step(Scan(shape, axis, dtype, e, 0, groups, tile, "sums", None, op, per, sub), sums)]
    scanned = Node("partial", (), dtype, short, device=dev)
    steps += _lower_scan(short, axis, dtype, lambda lw: lw.load(sums, View.contiguous(short)), scanned, keep, dev,
                         op)
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    carry = low.load(scanned, View.contiguous(short))
    steps.append(low.step(Scan(shape, axis, dtype, e, 0, groups, tile, "scan", carry, op, per, sub), out))
    return steps


def _lower_compact(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """Stream compaction of a ``compact`` node built from 0/1 int32 flags (``srcs[0]``; see
    :mod:`kdsl.frontend.array.masks`): the flags' tile totals, their scan, and one pass that scans each tile again
    and writes each selected element's position, or ``srcs[1]`` at it, to its output slot. The mask is read
    twice and the values once; nothing of the input's size is written."""
    flags, budget = node.srcs[0], dev.loop_budget
    n = flags.shape[0]
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(flags)
    cost = 1 + expr_loops(e, flags.shape)
    if len(node.srcs) > 1:  # the values' own loops (read once per selected element)
        cost += expr_loops(Lowering(keep, dev.max_push_words).expr(node.srcs[1]), flags.shape)
    per = scan_workgroup.elements_per_invocation(dt.int32, n, dev.max_shared_memory)
    sub = dev.scan_subgroups and scan_workgroup.subgroup_ok(dt.int32, "sum", dev.features)
    tile = per * LOCAL
    nb = -(-n // tile)
    # (a loop budget below one tile's loops, set only by tests, still gets one tile per workgroup)
    groups = elementwise_groups(nb * LOCAL, dev.max_groups, max(budget - LOCAL, 1),
                                scan_workgroup.tile_loops(per, cost))
    vals = (lambda lw: lw.expr(node.srcs[1])) if len(node.srcs) > 1 else (lambda lw: None)
    if nb == 1:
        return [low.step(Scan((n,), 0, node.dtype, e, 0, groups, 0, "compact", None, "sum", per, sub, vals(low)),
                         node)]
    short = (nb,)
    sums = Node("partial", (), dt.int32, short, device=dev)
    steps = [low.step(Scan((n,), 0, dt.int32, e, 0, groups, tile, "sums", None, "sum", per, sub), sums)]
    scanned = Node("partial", (), dt.int32, short, device=dev)
    steps += _lower_scan(short, 0, dt.int32, lambda lw: lw.load(sums, View.contiguous(short)), scanned, keep, dev)
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(flags)
    carry = low.load(scanned, View.contiguous(short))
    steps.append(low.step(Scan((n,), 0, node.dtype, e, 0, groups, tile, "compact", carry, "sum", per, sub,
                               vals(low)), node))
    return steps
