"""Recognising row normalisers in the graph: an elementwise result of shape ``(..., n)`` that reads reductions
over its last axis, whose sources read the same rows (and earlier such reductions), becomes ONE
:class:`kdsl.ir.kernels.RowNorm` kernel instead of a kernel per reduction plus elementwise kernels.

That covers ``kd.nn.softmax`` / ``log_softmax`` / ``layer_norm`` / ``rms_norm`` and the same formulas written
with plain NumPy-style calls (``e = kd.exp(x - x.max(-1, keepdims=True)); e / e.sum(-1, keepdims=True)``);
autodiff is unchanged, since the graph keeps its ordinary reduce and elementwise nodes.

A chain is fused only when nothing outside it reads the reductions or the intermediate values (those would
have to be stored anyway), every reduction is sum / prod / max / min of a float over the last axis with the
result in the source's dtype, and one row's loops fit the device's loop budget (else the usual kernels run).

Example:
    >>> import kdsl as kd, numpy as np
    >>> from kdsl.engine.schedule import schedule
    >>> x = kd.asarray(np.ones((4, 8), np.float32))
    >>> [type(s.kernel).__name__ for s in schedule([kd.nn.softmax(x)._node])]
    ['RowNorm']
"""

from __future__ import annotations

import math

from kdsl.codegen import rownorm
from kdsl.codegen.loops import expr_loops
from kdsl.codegen.reduce_workgroup import subgroup_ok
from kdsl.device import Device
from kdsl.engine.lowering import Lowering, Step
from kdsl.ir.expr import Expr
from kdsl.ir.graph import Node
from kdsl.ir.kernels import LOCAL, MAX_GROUPS, RowNorm, elementwise_groups
from kdsl.ir.view import INDEX_LIMIT, View

ROW_OPS = ("sum", "prod", "max", "min")
MAX_NODES = 64  # nodes one chain may span (keeps the walk's recursion bounded)
THREAD_ROW = 64  # rows this short get one invocation each (a workgroup would leave most invocations idle)
ROW_CACHE = 32  # row elements (times cached buffers) one invocation may keep in registers
# ... and one lane of a subgroup-per-row kernel: MiniLM's residual layer norms read three buffers (the product,
# its bias, the residual) of 384 / 32 elements a lane; registers a GPU has plenty of (NVIDIA: 255 a lane)
SUBGROUP_CACHE = 64


class _Match:
    """The chain under ``out``: stages (reductions and per-row scalars) in dependency order."""

    def __init__(self, out: Node, keep: set[int], root_ids: set[int], stored: frozenset[int] = frozenset()):
        self.out, self.keep, self.root_ids, self.stored = out, keep, root_ids, stored
        self.shape = out.shape
        self.scalar_shapes = {out.shape[:-1], out.shape[:-1] + (1,)}
        self.stages: list[tuple[str, Node]] = []  # ("reduce", R) or ("let", P)
        self.staged: set[int] = set()
        self.broadcasts: dict[int, Node] = {}  # row-broadcast view id -> the scalar node whose stage it reads
        self.passthrough: set[int] = set()  # reshapes (and copies) between per-row scalar shapes
        self.inner: set[int] = set()  # every node the kernel computes (not ``out``, not the leaves it loads)
        self.row_memo: dict[int, bool] = {}
        self.scalar_memo: dict[int, bool] = {}
        self.walked = 0  # nodes visited (bounded: MAX_NODES)

    def leaf(self, n: Node) -> bool:
        """Read from memory: realised, or stored by its own kernel (a root, a non-elementwise result, or an
        elementwise node in ``stored``: one that other kernels read too, see :func:`find`)."""
        return n.realized or (n.id in self.keep and n is not self.out and
                              (n.id in self.root_ids or not n.is_elementwise or n.id in self.stored))

    def row(self, n: Node) -> bool:
        hit = self.row_memo.get(n.id)
        if hit is None:
            self.walked += 1
            if self.walked > MAX_NODES:
                return False  # a long chain (cut into kernels by the scheduler anyway): not a row normaliser
            hit = self.row_memo[n.id] = self._row(n)
        return hit

    def _row(self, n: Node) -> bool:
        if n.op == "const":
            return True
        if n.shape != self.shape:
            return False
        if self.leaf(n):
            return True
        if n.op == "view":
            src = n.srcs[0]
            if src.op == "const":
                return True
            if _row_broadcast(n, src) and not src.realized:
                saved = self._save()
                if self.scalar(src):
                    self.inner.add(n.id)
                    self.broadcasts[n.id] = self._target(src)
                    self._stage("let", self.broadcasts[n.id])
                    return True
                self._restore(saved)  # a failed try leaves nothing behind: the view is then read from memory
            return self.leaf(src)
        if not n.is_elementwise or n.op == "rows":
            return False
        if n is not self.out:
            self.inner.add(n.id)
        return all(self.row(s) for s in n.srcs)

    def _save(self) -> tuple:
        return (list(self.stages), set(self.staged), dict(self.broadcasts), set(self.passthrough), set(self.inner),
                dict(self.row_memo), dict(self.scalar_memo))

    def _restore(self, saved: tuple) -> None:
        (self.stages, self.staged, self.broadcasts, self.passthrough, self.inner, self.row_memo,
         self.scalar_memo) = saved

    def _target(self, n: Node) -> Node:
        while n.id in self.passthrough:
            n = n.srcs[0]
        return n

    def _stage(self, kind: str, n: Node) -> None:
        if n.id not in self.staged:
            self.staged.add(n.id)
            self.stages.append(("reduce" if n.op == "reduce" else kind, n))

    def scalar(self, n: Node) -> bool:
        hit = self.scalar_memo.get(n.id)
        if hit is None:
            self.walked += 1
            if self.walked > MAX_NODES:
                return False
            hit = self.scalar_memo[n.id] = self._scalar(n)
        return hit

    def _scalar(self, n: Node) -> bool:
        if n.op == "const":
            return True
        if n.shape not in self.scalar_shapes or n.realized or n.id in self.root_ids:
            return False
        if n.op == "reduce":
            op, axes = n.arg
            src = n.srcs[0]
            if op not in ROW_OPS or tuple(axes) != (len(self.shape) - 1,) or src.shape != self.shape or \
                    src.dtype != n.dtype or n.dtype.kind != "f" or not self.row(src):
                return False
            self.inner.add(n.id)
            self._stage("reduce", n)
            return True
        if n.op == "view" or n.op == "copy":  # a reshape, or kd.stop_gradient's identity (softmax's max)
            v = n.arg
            if n.op == "view" and (v.offset != 0 or not v.is_contiguous) or n.srcs[0].size != n.size or \
                    not self.scalar(n.srcs[0]):
                return False
            self.inner.add(n.id)
            self.passthrough.add(n.id)
            return True
        if not n.is_elementwise or n.op == "rows":
            return False
        self.inner.add(n.id)
        return all(self.scalar(s) for s in n.srcs)

    def escaped(self, consumers: dict[int, list[Node]]) -> set[int]:
        """The nodes this kernel would compute that other kernels read too (none: the chain is closed)."""
        ours = self.inner | {self.out.id}
        return {m for m in self.inner if any(c.id not in ours for c in consumers.get(m, ()))}


def _row_broadcast(view_node: Node, src: Node) -> bool:
    """Whether ``view_node`` repeats one value per row of its shape along the last axis (``m[..., None]``
    broadcast to the rows), reading ``src`` in row order."""
    v = view_node.arg.canonical()
    shape = view_node.shape
    want = View.contiguous(shape[:-1]).canonical().strides + (0,)
    return v.offset == 0 and src.size == math.prod(shape[:-1]) and v.strides == want


def find(live: list[Node], keep: set[int], consumers: dict[int, list[Node]],
         root_ids: set[int]) -> list[_Match]:
    """The row chains of this graph (disjoint), one per output node."""
    found: list[_Match] = []
    taken: set[int] = set()
    read_elsewhere = frozenset(k for k in keep if any(not (c.is_elementwise or c.op == "reduce")
                                                      for c in consumers.get(k, ())))
    for n in reversed(live):  # outermost first: a chain feeding another chain stays the inner one's leaf
        if n.id not in keep or n.id in taken or not n.is_elementwise or not n.shape or n.shape[-1] < 1 or \
                n.size == 0 or n.size >= INDEX_LIMIT - LOCAL * ROW_CACHE:
            continue
        m = _match(n, keep, root_ids, consumers, read_elsewhere)
        if m is not None and not (m.inner | {n.id}) & taken:
            found.append(m)
            taken |= m.inner | {n.id}
    return found


def _match(n: Node, keep: set[int], root_ids: set[int], consumers: dict[int, list[Node]],
           read_elsewhere: frozenset[int]) -> _Match | None:
    """The closed chain under ``n``, if any. A stored elementwise node that a matmul, gather or the like also
    reads (a layer norm's residual input, which the next layer's matmul reads) is read from memory; another one
    the walk passes through is first taken as part of the chain, and when other kernels read it too, the walk
    is redone with it read from memory, a few times at most."""
    stored = read_elsewhere
    for _ in range(4):
        m = _Match(n, keep, root_ids, stored)
        if not m.row(n) or not any(kind == "reduce" for kind, _ in m.stages):
            return None
        escaped = m.escaped(consumers)
        if not escaped:
            return m
        if not escaped <= keep:  # computed here and inlined elsewhere too: not this kernel's to store
            return None
        stored |= escaped
    return None


def _subgroup_rows(k: RowNorm, dev: Device) -> bool:
    """Whether a GPU's subgroup should take each row of ``k`` (:func:`kdsl.codegen.rownorm.render`'s subgroup
    mode): rows whose loads fit the lanes' registers (``SUBGROUP_CACHE`` elements each), so at most a few
    hundred elements, and reductions subgroup operations combine. MiniLM's layer norms of 384 float32 values took
    0.035 ms a launch in workgroups of 256 invocations with two workgroup combines each (8192 rows, an H200)."""
    sub = dev.reduce_subgroup
    if not sub or dev.partials or LOCAL % sub:  # CPU drivers keep their thread mode (dev.partials)
        return False
    reductions = [(op, e.dtype) for op, e in k.stages if op != "let"]
    slots = -(-k.shape[-1] // sub) * max(len(rownorm.row_loads(k)), 1)
    return bool(reductions) and all(subgroup_ok(op, t) for op, t in reductions) and slots <= SUBGROUP_CACHE


class _RowLowering(Lowering):
    """A Lowering where stage nodes (and the views broadcasting them) read the stages' values."""

    def __init__(self, materialised: set[int], max_words: int, passthrough: set[int]):
        super().__init__(materialised, max_words)
        self.accs: dict[int, Expr] = {}
        self.passthrough = passthrough

    def _expr(self, node: Node) -> Expr:
        hit = self.accs.get(node.id)
        if hit is not None:
            return hit
        if node.id in self.passthrough:
            return self.expr(node.srcs[0])
        return super()._expr(node)


def lower(m: _Match, keep: set[int], dev: Device) -> list[Step] | None:
    """The one RowNorm step of chain ``m`` (``keep``: what other kernels store), or None when it does not fit
    the device (loop budget, bindings): the usual kernels then run."""
    low = _RowLowering(keep, dev.max_push_words, m.passthrough)
    low.root = m.out
    stages: list[tuple[str, Expr]] = []
    for k, (kind, node) in enumerate(m.stages):
        e = low.expr(node.srcs[0]) if kind == "reduce" else low.expr(node)
        stages.append((node.arg[0] if kind == "reduce" else "let", e))
        acc = Expr("acc", node.dtype, (), k)
        low.accs[node.id] = acc
        for b, target in m.broadcasts.items():
            if target is node:
                low.accs[b] = acc
    e = low.expr(m.out)
    if len(low.inputs) + 1 > dev.max_buffers or low.baked:
        return None
    shape = m.out.shape
    rows = math.prod(shape[:-1])
    kernel = RowNorm(shape, m.out.dtype, tuple(stages), e, 0, 1, 0, dev.reduce_subgroup)
    cost = max(expr_loops(x, shape) for x in [e, *(x for _, x in stages)])
    # Short rows: one invocation each. So too many rows on a CPU driver (``dev.partials`` set: it pays for every
    # barrier; measured 3x faster on lavapipe at 2048 x 384); a GPU keeps long rows in workgroups, even many of
    # them (coalesced reads and writes).
    if shape[-1] <= THREAD_ROW or (dev.partials and rows >= dev.thread_outputs):
        kernel = kernel._replace(mode="thread", subgroup=0)
        per_row = rownorm.loop_trips(kernel, cost)
        if per_row > dev.loop_budget:
            return None
        kernel = kernel._replace(groups=elementwise_groups(rows, dev.max_groups, dev.loop_budget, per_row))
        return [low.step(kernel, m.out)]
    if _subgroup_rows(kernel, dev):
        kernel = kernel._replace(mode="subgroup", cache=-(-shape[-1] // dev.reduce_subgroup))
        per_row = rownorm.loop_trips(kernel, cost)
        if per_row > dev.loop_budget:
            return None
        turns = -(-rows // (LOCAL // dev.reduce_subgroup))  # a workgroup's rows at a time: one per subgroup
        need = -(-turns // (dev.loop_budget // per_row))  # (more where a driver runs smaller subgroups)
        if need > MAX_GROUPS:
            return None
        return [low.step(kernel._replace(groups=min(turns, MAX_GROUPS, max(dev.max_groups, need))), m.out)]
    slots = -(-shape[-1] // LOCAL)
    if slots * max(len(rownorm.row_loads(kernel)), 1) <= ROW_CACHE:
        kernel = kernel._replace(cache=slots)
    per_row = rownorm.loop_trips(kernel, cost)
    if per_row > dev.loop_budget:
        return None
    need = -(-rows // (dev.loop_budget // per_row))
    if need > MAX_GROUPS:
        return None
    kernel = kernel._replace(groups=min(rows, MAX_GROUPS, max(dev.max_groups, need)))
    return [low.step(kernel, m.out)]

