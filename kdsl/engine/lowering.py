"""What every kernel lowering shares: :class:`Step` (one kernel launch of a plan) and :class:`Lowering`, which
turns the fused part of the graph behind a kernel into kernel IR (buffers become binding slots, Python scalars
push-constant words), so that a kernel is its own cache key.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.graph import Node
from kdsl.ir.kernels import Kernel
from kdsl.ir.view import INDEX_LIMIT, View

_F32, _U32 = struct.Struct("<f"), struct.Struct("<I")


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
        if node.srcs[0].op == "rand":  # a row of a random block: the same literal every call (random_draws.py)
            return None
        if len(self.words) + 1 > self.max_words:
            self.baked = True
            return None
        self.words.append(offset)
        self.sources.append((node, "offset"))
        return len(self.words) - 1

    def region_word(self, node: Node, k: int) -> int | None:
        """The push word that will hold the offset of region ``k`` of assemble ``node`` (the kernel writing
        that piece reads it there: ``traj[i + 1] = y`` in a loop is one kernel for every ``i``), or None when
        it stays a literal (the whole array) or no push space is left (the step is then baked)."""
        region = node.arg[k]
        if not pushes_offset(region, node.size):
            return None
        if len(self.words) + 1 > self.max_words:
            self.baked = True
            return None
        self.words.append(region.offset)
        self.sources.append((node, f"region{k}"))
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


Source = Callable[["Lowering"], Expr]  # lowers the expression a multi-pass kernel reads (again in each pass)
