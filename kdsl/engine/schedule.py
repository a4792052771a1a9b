"""The scheduler: cut the lazy graph into as few kernels as possible.

1. **Materialise** the requested nodes, every reduce / matmul / cumsum / assemble, and every elementwise node
   that two different kernels would need (computed once, stored once).
2. **Inline** everything else: each kernel evaluates its elementwise and movement nodes directly from the
   buffers below them, so an elementwise chain is one kernel and ``(a*b+c).sum(axis=1)`` is one kernel.
3. **Epilogue**: an elementwise node whose only reduction input is consumed by it alone is computed by the
   reduction kernel itself (``x.mean()`` = sum and scale in one kernel).

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
from dataclasses import dataclass, field

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen import glsl, vector
from kdsl.ir.graph import Node, toposort
from kdsl.ir.kernels import LOCAL, MAX_GROUPS, Elementwise, Matmul, Reduce, Scan, elementwise_groups
from kdsl.ir.view import View

_F32, _U32 = struct.Struct("<f"), struct.Struct("<I")
MAX_DEPTH = 100  # longest chain of ops inlined into one kernel (keeps shaders and recursion bounded)


@dataclass
class Step:
    """One kernel launch: write ``out`` (slot 0) from ``inputs`` (slots 1..n) with push constants ``words``."""

    kernel: tuple
    out: Node
    inputs: list[Node]
    words: np.ndarray
    fresh: bool = True  # allocate out's buffer (False: an earlier step of the same assemble did)
    fused: list[Node] = field(default_factory=list)  # the graph nodes this kernel computes (for explain)
    sources: list = field(default_factory=list)  # (node, kind) each push word group came from (plan cache)
    baked: bool = False  # a scalar was baked into the source: the kernel depends on data (not cacheable)
    template: object = None  # the plan-cache entry this step came from (kdsl.engine.plan)


class Lowering:
    """Turns the inlined part of the graph under one kernel into IR, assigning slots and push words."""

    def __init__(self, materialised: set[int], max_words: int):
        self.materialised = materialised
        self.max_words = max_words
        self.slots: dict[int, int] = {}
        self.inputs: list[Node] = []
        self.words: list[int] = []
        self.memo: dict[int, tuple] = {}
        self.fused: list[Node] = []
        self.acc: tuple[Node, tuple] | None = None  # (reduce node, IR standing for its value) in an epilogue
        self.root: Node | None = None  # the node this kernel computes (stored, but not read)
        self.sources: list = []  # (node, "const" | "rand") per push-word group, in order
        self.baked = False

    def load(self, node: Node, view: View) -> tuple:
        slot = self.slots.get(node.id)
        if slot is None:
            slot = self.slots[node.id] = len(self.inputs) + 1
            self.inputs.append(node)
        return ("load", slot, node.dtype, view)

    def _stored(self, node: Node) -> bool:
        return node.realized or (node.id in self.materialised and node is not self.root)

    def expr(self, node: Node) -> tuple:
        hit = self.memo.get(node.id)
        if hit is None:
            hit = self.memo[node.id] = self._expr(node)
        return hit

    def _expr(self, node: Node) -> tuple:
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
            if self._stored(src) and not (self.acc is not None and src is self.acc[0]):
                return self.load(src, node.arg)
            return ("remap", node.arg, src.shape, self.expr(src))
        if op == "iota":
            return ("iota", node.arg, node.dtype)
        if op == "rand":
            dist, *key = node.arg
            word = len(self.words)
            self.words.extend(int(k) & 0xFFFFFFFF for k in key)
            self.sources.append((node, "rand"))
            return ("rand", dist, node.dtype, word)
        if op == "cast":
            return ("cast", node.dtype, self.expr(node.srcs[0]))
        if op == "gather":  # the source is read at a computed row: it keeps its own shape
            src, index = node.srcs
            return ("gather", node.dtype, src.shape, self.expr(src), index.shape, self.expr(index))
        return (op, node.dtype, *(self.expr(s) for s in node.srcs))

    def const(self, node: Node) -> tuple:
        value, dtype = node.arg, node.dtype
        if len(self.words) + glsl.words_of(dtype) > self.max_words:  # no push space left: bake the value
            self.baked = True
            return ("lit", value, dtype)
        word = len(self.words)
        self.words.extend(const_words(value, dtype))
        self.sources.append((node, "const"))
        return ("const", word, dtype)

    def step(self, kernel, out: Node, fresh: bool = True) -> Step:
        kernel = kernel._replace(n_words=len(self.words))
        return Step(kernel, out, self.inputs, np.array(self.words, np.uint32), fresh, self.fused, self.sources,
                    self.baked)


def const_words(value, dtype: dt.DType) -> list[int]:
    """A scalar as the 32-bit words its compute type reads (see :func:`kdsl.codegen.glsl.const_word`)."""
    if dtype.is_float and dtype.itemsize <= 4:
        try:  # struct rounds a double to float32 as NumPy's cast does, without making arrays (runs per realize)
            return [_U32.unpack(_F32.pack(value))[0]]
        except (OverflowError, TypeError, struct.error):  # beyond float32's range: NumPy gives inf
            return [int(np.array(value, np.float32).view(np.uint32))]
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
    keep |= {n.id for n in live if n.op in ("reduce", "matmul", "cumsum", "assemble")}
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
    return keep, consumers


def _reduce_behind(s: Node) -> Node | None:
    """The reduce node ``s`` is (or is a whole-array reshape of)."""
    if s.op == "reduce":
        return s
    if s.op == "view" and s.srcs[0].op == "reduce":
        v, src = s.arg, s.srcs[0]
        if v.offset == 0 and v.size == src.size and v.is_contiguous:
            return src
    return None


def _epilogue_source(node: Node, keep: set[int], consumers, root_ids: set[int]) -> tuple[Node, Node] | None:
    """(stand-in, reduce): the reduction ``node``'s kernel can absorb (see the module docstring), if any."""
    found: list[tuple[Node, Node]] = []
    stack, seen = [node], set()
    remapped: set[int] = set()  # a gather's source is read at other rows: never the epilogue's accumulator
    while stack:
        n = stack.pop()
        if n.op == "gather":
            remapped.add(n.srcs[0].id)
        for s in n.srcs[1:] if n.op == "gather" else n.srcs:
            if s.id in seen:
                continue
            seen.add(s.id)
            r = _reduce_behind(s)
            if r is not None and r.id in keep and r.id not in root_ids and s.shape == node.shape:
                found.append((s, r))
            elif s.is_elementwise and s.id not in keep:
                stack.append(s)
    found = [(s, r) for s, r in found if s.id not in remapped and r.id not in remapped
             and all(c.id in seen or c is node for c in consumers.get(r.id, ()))
             and all(c.id in seen or c is node for c in consumers.get(s.id, ()))]
    return found[0] if len(found) == 1 else None


def schedule(roots: list[Node]) -> list[Step]:
    """The kernel steps that realise ``roots``, in execution order."""
    order = toposort(roots)
    root_ids = {r.id for r in roots}
    live = [n for n in order if not n.realized and (n.op != "const" or n.id in root_ids)]
    if not live:
        return []
    keep, consumers = _materialised(live, roots)
    absorbed: dict[int, tuple[Node, Node]] = {}  # elementwise node id -> (stand-in, reduce) it absorbs
    for n in live:
        if n.id in keep and n.is_elementwise:
            found = _epilogue_source(n, keep, consumers, root_ids)
            if found is not None and found[1].id not in {r.id for _, r in absorbed.values()}:
                absorbed[n.id] = found
    skip = {r.id for _, r in absorbed.values()}
    steps: list[Step] = []
    for n in live:
        if n.id in keep and n.id not in skip:
            steps.extend(_lower(n, keep - skip, absorbed.get(n.id)))
    return steps


def _lower(node: Node, keep: set[int], absorbed: tuple[Node, Node] | None) -> list[Step]:
    dev = node.device
    low = Lowering(keep, dev.max_push_words)
    if absorbed is not None:
        return _lower_reduce(absorbed[1], keep, dev, epilogue_of=node, standin=absorbed[0])
    if node.op == "reduce":
        return _lower_reduce(node, keep, dev)
    if node.op == "matmul":
        a, b = (low.expr(s) for s in node.srcs)
        batch, m, k = node.srcs[0].shape
        kernel = Matmul(batch, m, node.shape[2], k, node.dtype, a, b, 0, dev.matmul_tiles)
        return [low.step(kernel, node)]
    if node.op == "cumsum":
        e = low.expr(node.srcs[0])
        lines = node.size // node.shape[node.arg] if node.shape[node.arg] else 0
        groups = elementwise_groups(max(lines, 1), dev.max_groups)
        return [low.step(Scan(node.shape, node.arg, node.dtype, e, 0, groups), node)]
    if node.op == "assemble":
        steps = []
        for k, (region, piece) in enumerate(zip(node.arg, node.srcs, strict=False)):
            low = Lowering(keep, dev.max_push_words)
            e = low.expr(piece)
            kernel = Elementwise(region.shape, node.dtype, region, e, 0,
                                 elementwise_groups(max(region.size, 1), dev.max_groups))
            steps.append(low.step(kernel, node, fresh=k == 0))
        return steps
    low.root = node
    e = low.expr(node)
    kernel = Elementwise(node.shape, node.dtype, View.contiguous(node.shape), e, 0,
                         elementwise_groups(max(node.size, 1), dev.max_groups))
    if dev.vector_width == 4 and vector.eligible(kernel):
        kernel = kernel._replace(vec=4, groups=elementwise_groups(node.size // 4, dev.max_groups))
    return [low.step(kernel, node)]


def _reduce_plan(shape: tuple[int, ...], axes: tuple[int, ...], max_groups: int,
                 thread_outputs: int, partials: int) -> tuple[str, int, int]:
    """(mode, splits, groups) for a reduction (see :class:`kdsl.ir.kernels.Reduce`).

    One invocation per output when reductions are short, when neighbouring outputs sit next to each other in
    memory (innermost axis kept), or when there are at least ``thread_outputs`` outputs (a per-device choice:
    a CPU driver pays for every workgroup barrier, a GPU wants its workgroups full). A few long reductions are
    first cut into partial results that a second pass combines: about ``partials`` strided ones, one per
    invocation, when ``partials`` is set (CPU drivers), else up to 1024 contiguous chunks, one per workgroup."""
    r = math.prod(shape[a] for a in axes)
    o = math.prod(n for k, n in enumerate(shape) if k not in axes)
    inner_kept = bool(shape) and (len(shape) - 1) not in axes and shape[-1] > 1
    if r <= 32 or (inner_kept and o >= 1024) or o >= thread_outputs:
        return "thread", 1, elementwise_groups(max(o, 1), max_groups)
    if o < 64 and r >= 1 << 16:
        if partials:  # strided partial results, one per invocation (no barriers: CPU drivers)
            splits = max(LOCAL, min(partials // o, r // 64) // LOCAL * LOCAL)
            return "thread", splits, elementwise_groups(o * splits, max_groups)
        splits = min(1024 // o, max(1, r // 8192))  # a workgroup tree per contiguous chunk (GPUs)
        return "group", splits, min(o * splits, MAX_GROUPS)
    return "group", 1, min(max(o, 1), MAX_GROUPS)


def _lower_reduce(node: Node, keep: set[int], dev, epilogue_of: Node | None = None,
                  standin: Node | None = None) -> list[Step]:
    op, axes = node.arg
    src = node.srcs[0]
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(src)
    mode, splits, groups = _reduce_plan(src.shape, axes, dev.max_groups, dev.thread_outputs, dev.partials)
    if op in ("argmax", "argmin") and splits > 1:  # partial maxima would lose their indices
        mode, splits, groups = "group", 1, min(max(node.size, 1), MAX_GROUPS)
    out, epilogue, steps = node, None, []
    if splits > 1:
        part = Node("partial", (), src.dtype, (node.size, splits), device=dev)
        steps.append(low.step(Reduce(op, src.shape, axes, src.dtype, e, 0, mode, splits, groups, None,
                                     part.shape), part))
        low = Lowering(keep, dev.max_push_words)
        e = low.load(part, View.contiguous(part.shape))
        mode, groups = "group", min(max(node.size, 1), MAX_GROUPS)
        src_shape, axes = part.shape, (1,)
    else:
        src_shape = src.shape
    if epilogue_of is not None:
        low.acc = (standin, ("acc", node.dtype))
        low.root = epilogue_of
        epilogue = low.expr(epilogue_of)
        out = epilogue_of
    out_dtype = out.dtype
    kernel = Reduce(op, src_shape, axes, out_dtype, e, 0, mode, 1, groups, epilogue, out.shape)
    steps.append(low.step(kernel, out))
    return steps
