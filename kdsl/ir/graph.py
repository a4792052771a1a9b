"""The lazy graph: every array is a :class:`Node`; building expressions only makes nodes.

Node kinds (``node.op``):

* ``"buffer"``   realised data on the device (``node.buffer``), C-contiguous, ``shape`` elements
* ``"const"``    a Python scalar (``arg``) of ``dtype``, broadcast by a view; becomes a push constant
* ``"view"``     ``arg`` is a :class:`View` over the C-order index space of ``srcs[0]``
* ``"iota"``     the index along axis ``arg`` (for arange, eye, linspace, tri)
* ``"rand"``     ``arg = (dist, key0, key1, stream)``: counter-based random numbers
* elementwise    ``op`` is an op of :mod:`kdsl.codegen.ops` (or ``"cast"``, or ``"bitcast"``: the bits of
                 ``srcs[0]`` as a dtype of the same itemsize), ``srcs`` have the node's shape
* ``"reduce"``   ``arg = (op, axes)``; the reduced axes are dropped from the shape
* ``"matmul"``   ``srcs = (a, b)`` of shapes (batch, m, k) and (batch, k, n)
* ``"scan"``     ``arg = (op, axis)``: inclusive running ``op`` ("sum" | "prod") along ``axis``
* ``"rows"``     ``srcs = (src, index)``: ``src[index[j], ...]`` (integer-array indexing along axis 0); the shape is
                 ``index.shape + src.shape[1:]``; indices are wrapped (negative) and clamped (never out of bounds)
* ``"assemble"`` ``arg`` = regions (views of this node's index space); ``srcs[i]`` is written to region ``i``
                 in order (setitem = whole base, then the region; concatenate = one region per piece)
* ``"sort"``, ``"gather"``, ``"search"``, ``"compact"``  sorting, data-dependent reads and the positions of a
  running count's steps (see :mod:`kdsl.engine.sorting`)
* ``"attention"`` ``srcs = (q, k, v[, mask])``, ``arg = (scale, causal)``: fused scaled dot-product attention
                 (see :mod:`kdsl.engine.lower_attention`)
* ``"scatter"``  ``srcs = (target, index, values)``, ``arg`` = "add" | "max" | "min": ``target`` (1-D) after
                 ``ufunc.at`` with atomics (see :mod:`kdsl.engine.scatter`)

When a node is realised it turns into a ``"buffer"`` node in place, so every graph that uses it sees the data (a
realised view keeps its ``View`` in ``arg``: the layout of the NumPy array it stands for).

Example:
    >>> from kdsl import dtype as dt
    >>> n = Node("const", (), dt.float32, (), 1.5)
    >>> n.op, n.shape, n.size
    ('const', (), 1)
"""

from __future__ import annotations

import math
from itertools import count
from typing import Any

from kdsl import dtype as dt

_ids = count()
# Called with a node just before it turns into a buffer and drops its sources: kdsl.autodiff keeps the
# structure of a function it differentiates when something inside it realises part of the graph. Empty (free)
# unless a gradient is being traced.
before_become_buffer: list[Any] = []
ELEMENTWISE_LEAVES = ("const", "iota", "rand")
MATERIALISED = ("reduce", "matmul", "scan", "assemble", "sort", "gather", "search", "compact", "scatter", "attention")


MAX_DIMS = 64  # NumPy's limit on an array's dimensions (NPY_MAXDIMS): kdsl keeps NumPy's errors past it
MAX_BYTES = 2**63 - 1  # NumPy's limit on an array's size in bytes (intp): a larger array cannot exist


class ArrayTooBigError(ValueError):
    """NumPy's ValueError for an array whose bytes overflow intp (its own class, so that callers which turn
    broadcast errors into their own messages let it through)."""


def _check_size(shape: tuple[int, ...], dtype: dt.DType) -> None:
    """NumPy's ValueError for a shape whose bytes overflow intp (``a[np.ix_(i, i, i, i, i)]`` with 7132
    indices each): a lazy node of that shape could never be computed, and its size arithmetic would wrap."""
    if math.prod(shape) * dtype.itemsize > MAX_BYTES:
        raise ArrayTooBigError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                               "possible size.")


class Node:
    __slots__ = ("op", "srcs", "dtype", "shape", "arg", "buffer", "device", "id", "refs", "__weakref__")
    srcs: tuple[Node, ...]
    device: Any  # kdsl.device.Device (ir may not import it)

    def __init__(self, op: str, srcs: tuple[Node, ...], dtype: dt.DType, shape: tuple[int, ...], arg: Any = None,
                 buffer: Any = None, device: Any = None):
        if shape.__class__ is not tuple:  # most callers pass a tuple already: skip the copy
            shape = tuple(shape)
        if len(shape) > MAX_DIMS:
            self.srcs = ()  # __del__ still runs: nothing counted yet
            raise ValueError(f"maximum supported dimension for an ndarray is currently {MAX_DIMS}, found {len(shape)}")
        if math.prod(shape) > MAX_BYTES // 16:  # the exact test (the itemsize) only for shapes near the limit
            self.srcs = ()
            _check_size(shape, dtype)
        self.op = op  # one assignment each: a tuple assignment builds and unpacks a tuple (every node made)
        self.srcs = srcs
        self.dtype = dtype
        self.shape = shape
        self.arg = arg
        self.buffer = buffer
        self.device = device if device is not None else (srcs[0].device if srcs else None)
        self.id = next(_ids)
        # How many live nodes (one per source slot) and Arrays use this node: when a realisation computes it
        # and something outside that graph can still read it, the scheduler stores it rather than let every
        # later expression recompute it (kdsl.engine.schedule). Counted here, in __del__, become_buffer and
        # by Array.
        self.refs = 0
        for s in srcs:
            s.refs += 1

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def realized(self) -> bool:
        return self.op == "buffer"

    @property
    def is_elementwise(self) -> bool:
        return self.op not in MATERIALISED and self.op not in ("buffer", "view") + ELEMENTWISE_LEAVES

    def become_buffer(self, buffer: Any) -> None:
        """Turn into realised data (drops the sources so the graph above can be freed)."""
        for hook in before_become_buffer:
            hook(self)
        # buffer before op: a thread that sees op == "buffer" finds the buffer set
        self.buffer = buffer
        # A realised view of real data keeps its View (strides over its source) in ``arg``: the layout NumPy's
        # equivalent array has (``flags``, ``strides``, ``ravel('K')`` read it). Nothing reads a buffer's arg
        # otherwise. A broadcast lazy constant (a view of a 0-d node) becomes a plain C-ordered owner.
        keep = self.arg if self.op == "view" and self.srcs and self.srcs[0].shape else None
        srcs, self.op, self.srcs, self.arg = self.srcs, "buffer", (), keep
        for s in srcs:
            s.refs -= 1

    def __del__(self) -> None:
        for s in self.srcs:
            s.refs -= 1

    def __repr__(self) -> str:
        return f"<Node {self.id} {self.op} {self.dtype.name}{list(self.shape)}>"


def toposort(roots: list[Node]) -> list[Node]:
    """Every unrealised node reachable from ``roots`` (and the realised leaves), sources first."""
    order: list[Node] = []
    seen: set[int] = set()
    stack = [(r, False) for r in reversed(roots)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if node.id in seen:
            continue
        seen.add(node.id)
        stack.append((node, True))
        for s in reversed(node.srcs):
            if s.id not in seen:
                stack.append((s, False))
    return order
