"""Running the graph: plan it (:mod:`kdsl.engine.plan`), give every computed node a device buffer (from a
per-device pool of recycled tensors), dispatch all kernels in one submission (:mod:`kdsl.engine.programs`
keeps the pipelines and replays recorded command buffers), and turn the computed nodes into buffers.
Also the host <-> device copies (``upload``, ``download``, ``to_numpy``).

The hot path of a loop (``benchmarks/host_overhead.py`` measures it): a graph whose plan is cached runs from
the plan's templates (:func:`run_cached`, no Steps), and its batch is found by (plan, bound tensors, push words)
and replayed before any program or Algorithm is looked up.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(4, dtype=np.float32))
    >>> y = kd.sin(x) * 2
    >>> realize_nodes([y._node]) is None, y._node.op
    (True, 'buffer')
"""

from __future__ import annotations

import gc
import heapq
import struct
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import runtime_module  # imported late there: building graphs must not need Vulkan
from kdsl.engine import readback, staging
from kdsl.engine.lowering import Step
from kdsl.engine.plan import F32_WORD, Template, cached, kernel_size, planned, word_bytes
from kdsl.engine.profile import active as _profiling  # ``.profile``: kd.profile()'s current() without a call
from kdsl.engine.profile import current as current_profile
from kdsl.engine.programs import batches, program, stats
from kdsl.engine.state import state
from kdsl.ir.graph import Node

# Tensors kept per (dtype, size). A model's forward pass makes dozens of same-sized intermediates in one
# submission (MiniLM: ~50 of 8192 x 384): with 4 kept, each call re-allocated the rest, ~46 ms of its 67 on an
# H200. Each bucket is a heap ordered by id, so a pass that finds the same free tensors gets them in the same
# roles whatever order they were freed in: a kd.jit replay then finds its kernels bound to the same buffers
# and replays the recorded command buffer instead of rebinding and recording every kernel.
_POOL_PER_SIZE = 256
# ... and more of small ones, up to this many bytes per size: a loop of n steps realised at once holds n
# step results in one batch (500 steps of a 1000-point stencil: 500 buffers), and each one past the bucket's
# limit was allocated again at every call (and the batch, on new buffers, recorded again instead of replayed)
_POOL_BYTES_PER_SIZE = 16 << 20
# Pooled tensors may hold up to this share of the device's memory. Large arrays are where pooling pays most:
# allocating (and zeroing) 1 GiB costs a GPU driver ~35 ms, 30x the kernel that fills it.
_POOL_SHARE = 0.25


class Buffer:
    """Realised data: a runtime Tensor of ``size`` elements (None when the array is empty).

    Tensors kdsl allocated go back to a per-device pool when their Buffer dies, so a loop that makes arrays of
    the same sizes every step stops allocating after the first steps. (Every submission is waited on before
    Python continues, so a pooled tensor is never still in use by the GPU.) ``pool`` is the engine state whose
    pool takes the tensor back (None: never pooled), found when the Buffer is made: a Buffer a forked child
    inherited then returns its tensor to its parent's (orphaned) state, never to the child's.
    """

    __slots__ = ("tensor", "size", "dtype", "device", "pool")

    def __init__(self, tensor: Any, size: int, dtype: dt.DType, device: Any, pooled: bool = True, st: Any = None):
        self.tensor, self.size, self.dtype, self.device = tensor, size, dtype, device
        self.pool = (st or state(device)) if pooled and tensor is not None else None

    def __del__(self) -> None:
        st = self.pool
        if st is None:
            return
        try:
            tensor, size, name = self.tensor, self.size, self.dtype.name
            nbytes = size * self.dtype.np.itemsize
            lock = st.lock
            lock.acquire()  # (not ``with``: this runs at every array's death, and acquire/release costs less)
            try:
                bucket = st.pool.get((name, size))
                if bucket is None:
                    bucket = st.pool[(name, size)] = []
                limit = st.pool_limit if st.pool_limit is not None else _pool_limit(st)
                if (len(bucket) < _POOL_PER_SIZE or len(bucket) * nbytes < _POOL_BYTES_PER_SIZE) and \
                        st.pool_bytes + nbytes <= limit and \
                        not tensor._destroyed:  # (is_init() without the call: every array's death)
                    heapq.heappush(bucket, (id(tensor), tensor))
                    st.pool_bytes += nbytes
            finally:
                lock.release()
        except Exception:  # interpreter shutdown: let the tensor go
            pass


def _pool_limit(st: Any) -> float:
    """The bytes the pool of ``st``'s device may hold (worked out once per device)."""
    limit = st.pool_limit
    if limit is None:
        limit = st.pool_limit = _POOL_SHARE * st.device.info.get("device_memory", 0)
    return float(limit)


def allocate(device: Any, size: int, dtype: dt.DType) -> Any:
    """A device tensor of ``size`` elements: a pooled one when available (it fitted when it was made)."""
    st = state(device)
    with st.lock:
        return take(st, size, dtype)


def take(st: Any, size: int, dtype: dt.DType) -> Any:
    """:func:`allocate` on the device of engine state ``st``, for a caller that holds ``st.lock`` (the
    runners hold it for the whole call)."""
    bucket = st.pool.get((dtype.name, size))
    while bucket:
        st.pool_bytes -= size * dtype.np.itemsize
        _, tensor = heapq.heappop(bucket)  # the lowest id: see _POOL_PER_SIZE
        # A Buffer that died in a reference cycle pooled its tensor, but the garbage collector runs the
        # tensor's own finaliser too (same cycle): skip tensors destroyed after they were pooled.
        if not tensor._destroyed:  # (is_init(), without the call)
            return tensor
    device = st.device
    limit = device.info.get("max_storage_buffer_range", 1 << 32)
    if size * dtype.itemsize > limit or size >= 1 << 31:
        raise ValueError(f"an array of {size} {dtype.name} elements ({size * dtype.itemsize} bytes) does not fit one "
                         f"buffer on {device.name} (at most {limit} bytes and 2**31 elements); split it")
    return device.manager.tensor_empty(size, dtype.np)


def run(steps: list[Step]) -> None:
    """Dispatch ``steps`` in one submission and turn their output nodes into buffers."""
    if not steps:
        return
    device = steps[0].out.device
    st = state(device)
    with st.lock:
        _run(device, st, steps)


def _run(device: Any, st: Any, steps: list[Step]) -> None:
    pending: dict[int, Buffer] = {}
    work = []
    for step in steps:
        out = step.out
        buf = pending.get(out.id)
        if step.fresh or buf is None:
            size = out.size
            tensor = allocate(device, size, out.dtype) if size else None
            buf = pending[out.id] = Buffer(tensor, size, out.dtype, device)
        if buf.tensor is None or kernel_size(step.kernel) == 0:
            continue
        inputs = [n.buffer if n.op == "buffer" else pending[n.id] for n in step.inputs]
        work.append((step.template, step.kernel, buf, inputs, step.words))
    _submit(device, st, work)
    stats["realizes"] += 1
    for step in steps:
        if step.out.op != "partial":
            step.out.become_buffer(pending[step.out.id])


def run_cached(device: Any, st: Any, templates: list[Template], order: list[Node]) -> None:
    """Run a cached plan straight from its ``templates`` on the graph whose nodes are ``order`` (the hot path
    of a loop: no Steps are made, and a batch that ran before with the same buffers and push words is
    replayed without looking up its programs and Algorithms). Call under ``st.lock``.

    The replay key (:func:`_bound_key`'s) is built in the same loop that binds the buffers, and the replay is
    tried here (what :func:`_submit` does first): a loop's call then runs no other engine function."""
    pending: dict[int, Buffer] = {}
    work = []
    ids: list[int] = []
    key_words = []
    for t in templates:
        kernel, o, inputs, sources, fresh, _, _, _, words, dtype, size, launch, scalar = t  # one unpacking: hot
        buf = pending.get(o)
        if fresh or buf is None:
            buf = pending[o] = Buffer(take(st, size, dtype) if size else None, size, dtype, device, st=st)
        if launch:
            ids.append(id(buf.tensor))
            bound = []
            for p in inputs:  # (a loop, not a comprehension: one frame less per template)
                b = pending[p] if p < 0 or p in pending else order[p].buffer
                bound.append(b)
                ids.append(id(b.tensor))
            if words is None:
                try:  # a float32 scalar packed here (word_bytes' own fast path, without the call)
                    words = F32_WORD.pack(order[scalar].arg) if scalar >= 0 else word_bytes(sources, order)
                except (OverflowError, struct.error):  # beyond float32's range: word_bytes gives inf
                    words = word_bytes(sources, order)
            key_words.append(words if words.__class__ is bytes else words.tobytes())
            work.append((t, kernel, buf, bound, words))
    # The nodes become buffers while the device runs the batch: the device lock, held until the batch is
    # done, keeps every other thread from reading or writing them meanwhile (the engine reads node buffers
    # under it), and a later submission on the queue starts with a barrier.
    if len(pending) == 1 and o >= 0:  # one node computed (the usual case): no loop over ``pending``
        become = partial(order[o].become_buffer, buf)
    else:
        become = partial(_become, pending, order)
    key = (id(templates), tuple(ids), b"".join(key_words))
    recorded = st.batches
    if _profiling.profile is None and recorded is not None and recorded.replay(key, become):
        stats["kernels"] += len(work)
    else:
        _submit(device, st, work, templates, key, become)
    stats["realizes"] += 1


def _become(pending: dict[int, Buffer], order: list[Node]) -> None:
    """Turn the computed nodes of ``order`` into their buffers in ``pending`` (negative keys: temporaries)."""
    for o, buf in pending.items():
        if o >= 0:
            order[o].become_buffer(buf)


def submit(device: Any, work: list[tuple[Any, ...]], plan: object = None, key: tuple | None = None) -> None:
    """Dispatch ``work`` ((template or None, kernel, out Buffer, input Buffers, push words) per kernel) in one
    submission, replaying a recorded command buffer when the same dispatches ran before. ``plan``: the object
    the templates come from (a cached plan's list), which names the dispatches in the replay key (``key``
    when the caller made it already: :func:`_bound_key` of ``plan`` and ``work``)."""
    st = state(device)
    with st.lock:
        _submit(device, st, work, plan, key)


def replay(st: Any, key: tuple, during: Callable[[], Any] | None = None) -> bool:
    """Replay the batch recorded under the replay ``key`` (:func:`_bound_key`) on the device of engine state
    ``st`` if there is one still valid, running ``during`` (host work) while the device works; False otherwise
    (then :func:`submit` the work). Never replays inside ``kd.profile()``. Call under ``st.lock``."""
    return _profiling.profile is None and st.batches is not None and st.batches.replay(key, during)


def _submit(device: Any, st: Any, work: list[tuple[Any, ...]], plan: object = None, key: tuple | None = None,
            during: Callable[[], Any] | None = None) -> None:
    """:func:`submit` under ``st.lock``; ``during`` (the caller's host work) runs while the device works on a
    replay, after the submission otherwise."""
    prof = current_profile()
    recorded = st.batches if st.batches is not None else batches(device)
    if plan is not None and prof is None:
        if key is None:
            key = _bound_key(plan, work)
        if recorded.replay(key, during):
            stats["kernels"] += len(work)
            return
    else:
        key = None
    _dispatch(device, st, work, recorded, prof, plan, key)
    if during is not None:
        during()


def _dispatch(device: Any, st: Any, work: list[tuple[Any, ...]], recorded: Any, prof: Any, plan: object,
              key: tuple | None) -> None:
    """Bind each kernel's buffers to an Algorithm of its program and submit them (recording the batch)."""
    dispatches, launched = [], []
    in_batch: set[int] = set()
    for t, kernel, out, inputs, words in work:
        if t is not None and t.program and t.program[0].alive and t.program[0].device is device:
            prog = t.program[0]
        else:
            prog = program(kernel, device)
            if t is not None:
                t.program[:] = [prog]
        tensors = [out.tensor]
        for b in inputs:
            tensors.append(b.tensor if b.tensor is not None else st.dummy())
        if words.__class__ is bytes:
            words = np.frombuffer(words, np.uint32)
        entry = prog.algorithm(tensors, words, in_batch)
        in_batch.add(id(entry))
        dispatches.append((entry, words))
        launched.append(prog)
    if prof is not None:  # kd.profile(): each kernel its own timed submission
        for d, prog, item in zip(dispatches, launched, work, strict=True):
            t0 = time.perf_counter()
            recorded.submit([d], [prog])
            prof.add(item[1], (time.perf_counter() - t0) * 1e3)
    elif dispatches:
        recorded.submit(dispatches, launched, key, plan)
    st.trim_programs()  # after the batch: its own programs are all in use until it has run
    stats["kernels"] += len(dispatches)


def _bound_key(plan: object, work: list[tuple[Any, ...]]) -> tuple:
    """The replay key of a batch of a cached plan: the plan fixes the kernels, so (plan, bound tensors, push
    words) names the whole batch. The ids stay unique while the key can hit: the recorded entry keeps the plan
    alive, and a hit needs its Algorithms still bound as recorded, so they still hold those tensors.
    (:func:`run_cached` builds the same key inline.)"""
    ids: list[int] = []
    words = []
    for item in work:
        ids.append(id(item[2].tensor))
        for b in item[3]:
            ids.append(id(b.tensor))
        w = item[4]
        words.append(w if w.__class__ is bytes else w.tobytes())
    return (id(plan), tuple(ids), b"".join(words))


def reshape_source(node: Node) -> Node | None:
    """The node whose buffer ``node`` can share: a view that is a plain reshape of all of its source."""
    if node.op != "view":
        return None
    src, v = node.srcs[0], node.arg
    if src.op == "const" or v.offset != 0 or v.size != src.size or not v.is_contiguous:
        return None
    return src


def realize_nodes(nodes: list[Node]) -> None:
    """Compute ``nodes`` in one submission per device; reshapes of computed data share its buffer."""
    if len(nodes) == 1:  # the usual kd.realize(x): no grouping
        node = nodes[0]
        op = node.op
        if op == "buffer":
            return
        if op != "view":
            with state(node.device).lock:
                if node.op != "buffer":  # another thread may have computed it meanwhile
                    _realize(nodes)
            return
    targets = [reshape_source(n) or n for n in nodes if not n.realized]
    by_device: dict[int, list[Node]] = {}
    for n in targets:
        by_device.setdefault(n.device.index, []).append(n)
    for group in by_device.values():
        with state(group[0].device).lock:
            # Another thread may have computed them meanwhile; a reshape of computed data has nothing to run.
            todo = [n for n in group if not n.realized]
            if todo:
                _realize(todo)
    for n in nodes:
        src = reshape_source(n)
        if src is not None and src.realized:
            with state(n.device).lock:
                if not n.realized:
                    n.become_buffer(src.buffer)


def _realize(roots: list[Node]) -> None:
    """Plan and run ``roots`` (on one device; the caller holds the device's lock: the graph must not change
    between planning and running). A cached plan runs straight from its templates."""
    device = roots[0].device
    templates, key, order = cached(roots)
    if templates is None:
        run(planned(roots, key, order))
    else:
        run_cached(device, state(device), templates, order)


def upload(data: np.ndarray, dtype: dt.DType, device: Any) -> Node:
    """A realised node holding a copy of ``data`` (converted to ``dtype``)."""
    arr = np.asarray(data, dtype=dtype.np, order="C")
    if arr.size == 0:
        return Node("buffer", (), dtype, arr.shape, buffer=Buffer(None, 0, dtype, device), device=device)
    rt = runtime_module()
    dst = allocate(device, arr.size, dtype)
    st = state(device)
    with st.lock:
        host, view = staging.take(st, arr.size, arr.dtype)
        try:
            view[...] = arr.reshape(-1)
            st.sequence().eval(rt.OpCopy([host, dst]))
        finally:
            staging.give(st, arr.size, arr.dtype, host)
    stats["uploads"] += 1
    return Node("buffer", (), dtype, arr.shape, buffer=Buffer(dst, arr.size, dtype, device), device=device)


def download(buf: Buffer) -> np.ndarray:
    """The flat contents of a buffer, as a new NumPy array."""
    tensor, size, np_dtype = buf.tensor, buf.size, buf.dtype.np
    if tensor is None:
        return np.empty(0, np_dtype)
    st = state(buf.device)
    with st.lock:
        host, view = staging.take(st, size, np_dtype)  # (a host tensor of this very dtype: no view or cast after)
        try:
            readback.copy_to_host(st, tensor, host)
            flat = view.copy()  # copied out before the tensor goes back to the cache
        finally:
            staging.give(st, size, np_dtype, host)
    stats["downloads"] += 1
    return flat


def to_numpy(node: Node) -> np.ndarray:
    """Realise ``node`` and copy it to the host. A view of realised data is read, not copied on the GPU."""
    if node.op == "buffer":  # realised data, the usual case: read it (an empty one has no tensor: np.empty)
        return download(node.buffer).reshape(node.shape)
    if node.size == 0:
        return np.empty(node.shape, node.dtype.np)
    if node.op == "view" and node.srcs[0].op == "const":
        return np.full(node.shape, node.srcs[0].arg, node.dtype.np)
    if node.op == "const":
        return np.full(node.shape, node.arg, node.dtype.np)
    if node.op == "view" and not _small_part(node):
        with state(node.device).lock:
            if node.op == "view":
                base = node.srcs[0]
                if not base.realized:
                    _realize([base])
                return _read_view(download(base.buffer), node.arg)
    if not node.realized:
        realize_nodes([node])
    return download(node.buffer).reshape(node.shape)


SMALL_PART_BYTES = 1 << 20  # a view of a base larger than this, covering at most a quarter of it, is copied
# out on the device first: ``x[-1].item()`` of a 1 GB array downloads 4 bytes, not the gigabyte


def _small_part(view: Node) -> bool:
    base = view.srcs[0]
    return base.size * base.dtype.itemsize > SMALL_PART_BYTES and 4 * view.size <= base.size


def _read_view(flat: np.ndarray, v: Any) -> np.ndarray:
    """The elements of view ``v`` of a downloaded flat buffer, as a new array."""
    item = flat.itemsize
    strided = np.lib.stride_tricks.as_strided(flat[v.offset:] if v.offset else flat, v.shape,
                                              tuple(s * item for s in v.strides), writeable=False)
    return np.array(strided, copy=True)


def buffer_of(node: Node, writable: bool = False) -> Any:
    """The runtime Tensor of ``node`` as C-contiguous data (views are copied into a new buffer first).

    ``writable``: the caller is about to write the tensor in place (a custom kernel), so every unrealised
    expression that reads it is computed first and keeps the values it had (NumPy's eager semantics)."""
    if writable:
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
