"""The tape: the part of the lazy graph between a traced function's inputs and outputs, kept as it was traced,
and the reverse walk over it that builds the cotangent graph.

No separate tape is recorded while the function runs: its graph *is* the record. Two things could cut it
before the walk, and both are guarded: a realisation inside the function (a boolean mask's count, a print)
turns nodes into buffers and drops their sources - :func:`recording` saves each such node's structure first -
and a realisation between ``kd.vjp`` and the call of its ``vjp_fn`` - :func:`Tape.build` copies the structure
of every node on a path from an input right after the function returns.

Nodes older than the oldest input cannot depend on any input (a node's sources are older than it), so the
walk stops at them and never visits the history of data the function closes over.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0])
    >>> with recording() as saved:
    ...     xi = as_input(x, set())
    ...     y = (xi * 3).sum()
    >>> tape = Tape.build([y._node], [xi._node], saved)
    >>> backward(tape, {y._node.id: kd.asarray(1.0)})[xi._node.id].tolist()
    [3.0, 3.0]
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from kdsl.autodiff import attention, elementwise, indexing, movement, reductions  # noqa: F401  (they register the rules)
from kdsl.autodiff.registry import COMPLEX_RULES, NO_GRADIENT, RULES, real_part, rule, unbroadcast
from kdsl.frontend.array import jit
from kdsl.frontend.array.array import Array
from kdsl.ir import composite, graph
from kdsl.ir.graph import Node

_STOPPED: weakref.WeakSet[Node] = weakref.WeakSet()  # nodes made by stop_gradient


class Entry(NamedTuple):
    """One node on a path from an input: the node and its op, sources and arg as traced."""

    node: Node
    op: str
    srcs: tuple[Node, ...]
    arg: Any


def as_input(x: Array, taken: set[int]) -> Array:
    """The array standing for argument ``x``: the node the walk differentiates with respect to.

    Usually ``x`` itself: its node is what the function's operations read (a jitted function's placeholder
    included), and a separate node would cost a copy kernel whenever two kernels read the argument. A fresh
    copy node stands in when ``x``'s node could be bypassed or confused: a view (views of it compose with its
    base), a constant (casts of it are new constants), a stopped node, or a node already taken by another
    argument (each argument gets its own gradient). ``taken`` collects the nodes used."""
    n = x._node
    if n.op in ("view", "const") or n.id in taken or n in _STOPPED:
        n = Node("copy", (n,), n.dtype, n.shape)
        x = Array(n)
    taken.add(n.id)
    return x


def stop_gradient(x: Array) -> Array:
    """``x`` as a constant for differentiation (its value unchanged; no cotangent flows through it)."""
    n = x._node
    out = Node("copy", (n,), n.dtype, n.shape)
    _STOPPED.add(out)
    return Array(out)


class Saved(dict[int, Entry]):
    """What :func:`recording` keeps: the structure of nodes realised in the block (by node id), and ``reads``,
    the nodes that custom kernels read outside a marked computation (with who launched them)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[tuple[Node, str]] = []


@contextmanager
def recording() -> Iterator[Saved]:
    """Save the structure of every node realised in the block (before it drops its sources) and the reads of
    custom kernels (:mod:`kdsl.ir.composite`); jitted functions called in the block run as plain code, so
    their graph can be differentiated."""
    saved = Saved()

    def keep(node: Node) -> None:
        if node.id not in saved:
            saved[node.id] = Entry(node, node.op, node.srcs, node.arg)

    def read(node: Node, reader: str) -> None:
        saved.reads.append((node, reader))

    graph.before_become_buffer.append(keep)
    jit.inline_calls.append(keep)
    composite.read_hooks.append(read)
    try:
        yield saved
    finally:
        graph.before_become_buffer.remove(keep)
        jit.inline_calls.remove(keep)
        composite.read_hooks.remove(read)


class Tape:
    """The nodes between inputs and outputs that carry a gradient, sources first."""

    def __init__(self, entries: list[Entry], inputs: set[int]):
        self.entries = entries
        self.inputs = inputs
        self.live = {e.node.id for e in entries}

    @staticmethod
    def build(outputs: list[Node], inputs: list[Node], saved: dict[int, Entry]) -> Tape:
        """The tape of ``outputs`` with respect to ``inputs`` (``saved``: structure of nodes realised since).
        Raises NotImplementedError where a custom kernel read a value that depends on an input (``saved.reads``,
        :class:`Saved`): its result's gradient would be missing."""
        tape = Tape._walk(outputs, inputs, saved)
        for node, reader in getattr(saved, "reads", ()):
            if _inexact(node) and node.id in Tape._walk([node], inputs, saved).live:
                raise NotImplementedError(
                    f"kd.grad: {reader} runs custom GPU kernels on a value that depends on the differentiated "
                    "input, and has no derivative rule: its gradient would be missing. Wrap that value in "
                    "kd.stop_gradient if its derivative is not needed, or give the function a rule with "
                    "kd.custom_vjp")
        return tape

    @staticmethod
    def _walk(outputs: list[Node], inputs: list[Node], saved: dict[int, Entry]) -> Tape:
        ids = {n.id for n in inputs}
        first = min(ids, default=0)
        order: list[Entry] = []
        seen: set[int] = set()
        depends: set[int] = set()
        stack: list[tuple[Node, bool]] = [(n, False) for n in reversed(outputs)]
        while stack:
            node, done = stack.pop()
            if done:
                e = _entry(node, saved)
                if node.id in ids or (_inexact(node) and any(s.id in depends for s in e.srcs)):
                    depends.add(node.id)
                    order.append(e)
                continue
            if node.id in seen:
                continue
            seen.add(node.id)
            if node.id < first or node in _STOPPED:  # older than every input, or a constant by request
                continue
            stack.append((node, True))
            if node.id in ids:
                continue
            for s in reversed(_entry(node, saved).srcs):
                if s.id not in seen:
                    stack.append((s, False))
        return Tape(order, ids)


def _inexact(node: Node) -> bool:
    """Whether ``node`` can carry a gradient: a float or complex value (integers and bools are constant)."""
    return node.dtype.is_float or node.dtype.is_complex


def _entry(node: Node, saved: dict[int, Entry]) -> Entry:
    """``node`` as traced: a marked result steps straight to the inputs of its computation
    (:mod:`kdsl.ir.composite`), a node realised since keeps its saved structure."""
    mark = composite.MARKS.get(node)
    if mark is not None:
        return Entry(node, "composite", mark.inputs, mark)
    return saved.get(node.id) or Entry(node, node.op, node.srcs, node.arg)


@rule("composite", complex_ok=True)
def _composite(node: Node, srcs: tuple[Node, ...], mark: composite.Composite, g: Array, need: Any) -> Any:
    return mark.backward(mark.result, g)


def backward(tape: Tape, cotangents: dict[int, Array]) -> dict[int, Array]:
    """Cotangents of the tape's inputs (by node id; missing: no path) from those of some of its nodes."""
    grads = {k: v for k, v in cotangents.items() if k in tape.live}
    for e in reversed(tape.entries):
        if e.node.id in tape.inputs:
            continue
        g = grads.pop(e.node.id, None)
        if g is None:
            continue
        fn = RULES.get(e.op)
        if fn is None:
            if e.op in NO_GRADIENT:
                continue
            raise NotImplementedError(f"kd.grad: no derivative rule for the graph node {e.op!r}; the function "
                                      "uses an operation autodiff does not cover yet (wrap that part in "
                                      "kd.stop_gradient if its derivative is not needed)")
        if e.op not in COMPLEX_RULES and (e.node.dtype.is_complex or any(s.dtype.is_complex for s in e.srcs)):
            raise NotImplementedError(
                f"kd.grad does not differentiate the graph node {e.op!r} through complex values yet (dtype "
                f"{e.node.dtype.name}): the gradient would be wrong. Write that step on real and imaginary parts "
                "as real arrays, or wrap it in kd.stop_gradient if its derivative is not needed")
        need = [s.id in tape.live for s in e.srcs]
        for s, gs, wanted in zip(e.srcs, fn(e.node, e.srcs, e.arg, g, need), need, strict=True):
            if wanted and gs is not None:
                _accumulate(grads, s, gs)
    return {k: v for k, v in grads.items() if k in tape.inputs}


def _accumulate(grads: dict[int, Array], src: Node, g: Array) -> None:
    g = real_part(g, src)
    if g.shape != src.shape:
        g = unbroadcast(g, src.shape)
    if g.dtype is not src.dtype:
        g = g.astype(src.dtype)
    old = grads.get(src.id)
    grads[src.id] = g if old is None else old + g
