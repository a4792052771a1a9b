"""Running the graph: plan it (:mod:`kdsl.engine.plan`), give every computed node a device buffer
(:mod:`kdsl.engine.buffers`), dispatch all kernels in one submission (:mod:`kdsl.engine.submission`), and turn
the computed nodes into buffers. Also what a custom kernel needs before it writes an array in place
(:func:`buffer_of`, :func:`before_write`). The host <-> device copies are :mod:`kdsl.engine.transfers`.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(4, dtype=np.float32))
    >>> y = kd.sin(x) * 2
    >>> realize_nodes([y._node]), y._node.op  # (False: no download was fused into the batch)
    (False, 'buffer')
"""

from __future__ import annotations

import gc
from typing import Any

from kdsl.engine.plan import cached, planned
from kdsl.engine.state import state
from kdsl.engine.submission import run, run_cached
from kdsl.ir.graph import Node


def reshape_source(node: Node) -> Node | None:
    """The node whose buffer ``node`` can share: a view that is a plain reshape of all of its source."""
    if node.op != "view":
        return None
    src, v = node.srcs[0], node.arg
    if src.op == "const" or v.offset != 0 or v.size != src.size or not v.is_contiguous:
        return None
    return src


def realize_nodes(nodes: list[Node], download: Any = None) -> bool:
    """Compute ``nodes`` in one submission per device; reshapes of computed data share its buffer.

    ``download``: a host tensor of the one node's size and dtype to copy its result into in the same
    submission (:func:`kdsl.engine.transfers.to_numpy`); returns whether that happened (else the caller
    downloads the buffer itself)."""
    if len(nodes) == 1:  # the usual kd.realize(x): no grouping
        node = nodes[0]
        op = node.op
        if op == "buffer":
            return False
        # a matmul's 2-d result is a reshape of its (1, m, n) node: computed as that node, then sharing it
        root = node if op != "view" else reshape_source(node)
        if root is not None and root.op != "view":
            done = False
            with state(node.device).lock:
                if root.op != "buffer":  # another thread may have computed it meanwhile
                    done = realize_roots([root], (root, download) if download is not None else None)
                if node is not root and node.op != "buffer":
                    node.become_buffer(root.buffer)
            return done
    targets = [reshape_source(n) or n for n in nodes if not n.realized]
    by_device: dict[int, list[Node]] = {}
    for n in targets:
        by_device.setdefault(n.device.index, []).append(n)
    for group in by_device.values():
        with state(group[0].device).lock:
            # Another thread may have computed them meanwhile; a reshape of computed data has nothing to run.
            todo = [n for n in group if not n.realized]
            if todo:
                realize_roots(todo)
    for n in nodes:
        src = reshape_source(n)
        if src is not None and src.realized:
            with state(n.device).lock:
                if not n.realized:
                    n.become_buffer(src.buffer)
    return False


def realize_roots(roots: list[Node], download: tuple[Node, Any] | None = None) -> bool:
    """Plan and run ``roots`` (on one device; the caller holds the device's lock: the graph must not change
    between planning and running). A cached plan runs straight from its templates. ``download``: (one of the
    roots, a host tensor) as :func:`kdsl.engine.submission.run`'s; returns whether it was copied."""
    device = roots[0].device
    templates, key, order = cached(roots)
    if templates is None:
        return run(planned(roots, key, order), download)
    return run_cached(device, state(device), templates, order, download)



def buffer_of(node: Node, writable: bool = False) -> Any:
    """The runtime Tensor of ``node`` as C-contiguous data (views are copied into a new buffer first).

    ``writable``: the caller is about to write the tensor in place (a custom kernel), so every unrealised
    expression that reads it is computed first and keeps the values it had (NumPy's eager semantics)."""
    if writable and (node.op != "buffer" or node.refs > 1):  # (a buffer only its array holds: nothing to do)
        if node.op == "view" and node.srcs[0].op != "const" and reshape_source(node) is None:
            raise ValueError("is a view (a slice, transpose or broadcast) of another kd array and the kernel writes "
                             "it: the writes would land in a copy, not in the original array. Pass a whole array, "
                             "or a copy and assign it back: t = x.copy(); k(t); a[1:3] = t")
        with state(node.device).lock:
            src = reshape_source(node)
            before_write(node)
            if src is not None:
                before_write(src)
            return buffer_of(node)
    if not node.realized:
        realize_nodes([node])
    if node.buffer.tensor is None:
        raise ValueError("an empty array has no device buffer")
    return node.buffer.tensor


def before_write(node: Node) -> None:
    """Compute the unrealised nodes that read ``node`` (directly, or through views, which stay aliases of it
    as NumPy's do) before its buffer is written in place.

    Nodes keep no list of their readers; ``node.refs`` says whether there are any besides the array being
    written, and only then are they found through the garbage collector's referrer lists (a custom-kernel
    launch on an array that lazy expressions still read: rare, and worth a scan of the heap)."""
    if node.refs <= 1:  # only the array passed to the kernel holds it
        return
    readers: list[Node] = []
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        for ref in gc.get_referrers(n):
            if type(ref) is not tuple:
                continue
            for c in gc.get_referrers(ref):
                if isinstance(c, Node) and c.srcs is ref and id(c) not in seen:
                    seen.add(id(c))
                    (stack if c.op == "view" else readers).append(c)
    if readers:
        realize_nodes(readers)

