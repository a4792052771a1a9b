"""One submission: bind each kernel's buffers to an Algorithm of its program and dispatch the whole list at
once (:mod:`kdsl.engine.programs` keeps the pipelines and replays recorded command buffers).

The hot path of a loop (``benchmarks/host_overhead.py`` measures it): a graph whose plan is cached runs from
the plan's templates (:func:`run_cached`, no Steps), and its batch is found by (plan, bound tensors, push words)
and replayed before any program or Algorithm is looked up.

Example:
    >>> import kdsl as kd, numpy as np
    >>> from kdsl.engine.plan import planned, cached
    >>> y = kd.sin(kd.asarray(np.arange(4, dtype=np.float32))) * 2
    >>> templates, key, order = cached([y._node])
    >>> run(planned([y._node], key, order)), y._node.op  # (False: no download was fused into the batch)
    (False, 'buffer')
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from kdsl.engine.buffers import Buffer, allocate, take
from kdsl.engine.lowering import Step
from kdsl.engine.plan import F32_WORD, Template, kernel_size, word_bytes
from kdsl.engine.profile import active as _profiling  # ``.profile``: kd.profile()'s current() without a call
from kdsl.engine.profile import current as current_profile
from kdsl.engine.programs import batches, debug_level, program, stats
from kdsl.engine.state import state
from kdsl.ir.graph import Node


def run(steps: list[Step], download: tuple[Node, Any] | None = None) -> bool:
    """Dispatch ``steps`` in one submission and turn their output nodes into buffers. ``download``: (a node
    the steps compute, a host tensor of its size) to copy it into in the same submission; returns whether it
    was (not when nothing ran, nor inside ``kd.profile()``)."""
    if not steps:
        return False
    device = steps[0].out.device
    st = state(device)
    with st.lock:
        return _run(device, st, steps, download)


def _run(device: Any, st: Any, steps: list[Step], download: tuple[Node, Any] | None = None) -> bool:
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
    copy = _download(download, pending.get(download[0].id)) if download is not None else None
    _submit(device, st, work, download=copy)
    stats["realizes"] += 1
    for step in steps:
        if step.out.op != "partial":
            step.out.become_buffer(pending[step.out.id])
    return copy is not None


def _download(download: tuple[Node, Any], buf: Buffer | None) -> tuple[Any, Any] | None:
    """(device tensor, host tensor) of a download fused into the batch computing ``buf`` (None: not
    possible: the node has no buffer of its own in the batch, or ``kd.profile()`` times each kernel alone)."""
    if buf is None or buf.tensor is None or _profiling.profile is not None or debug_level():
        return None  # (KDSL_DEBUG's timed batches hold their dispatches only)
    return buf.tensor, download[1]


def run_cached(device: Any, st: Any, templates: list[Template], order: list[Node],
               download: tuple[Node, Any] | None = None) -> bool:
    """Run a cached plan straight from its ``templates`` on the graph whose nodes are ``order`` (the hot path
    of a loop: no Steps are made, and a batch that ran before with the same buffers and push words is
    replayed without looking up its programs and Algorithms). Call under ``st.lock``.

    The replay key (:func:`_bound_key`'s) is built in the same loop that binds the buffers, and the replay is
    tried here (what :func:`_submit` does first): a loop's call then runs no other engine function.
    ``download``: as :func:`run`'s (the node is the plan's last, its root); returns whether it was fused."""
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
    key: tuple[Any, ...] = (id(templates), tuple(ids), b"".join(key_words))
    copy = None
    if download is not None and order[-1] is download[0]:
        copy = _download(download, pending.get(len(order) - 1))
        if copy is not None:
            key += (id(copy[1]),)  # (the device tensor's id is in ``ids``)
    recorded = st.batches
    if _profiling.profile is None and recorded is not None and recorded.replay(key, become):
        stats["kernels"] += len(work)
    else:
        _submit(device, st, work, templates, key, become, copy)
    stats["realizes"] += 1
    return copy is not None


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
            during: Callable[[], Any] | None = None, download: tuple[Any, Any] | None = None) -> None:
    """:func:`submit` under ``st.lock``; ``during`` (the caller's host work) runs while the device works on a
    replay, after the submission otherwise; ``download``: (device tensor, host tensor) copied after the
    dispatches, in the same submission (a replay ``key`` made by the caller names the host tensor already)."""
    prof = current_profile()
    recorded = st.batches if st.batches is not None else batches(device)
    if plan is not None and prof is None:
        if key is None:
            key = _bound_key(plan, work)
            if download is not None:
                key += (id(download[1]),)
        if recorded.replay(key, during):
            stats["kernels"] += len(work)
            return
    else:
        key = None
    _dispatch(device, st, work, recorded, prof, plan, key, download)
    if during is not None:
        during()


def _dispatch(device: Any, st: Any, work: list[tuple[Any, ...]], recorded: Any, prof: Any, plan: object,
              key: tuple | None, download: tuple[Any, Any] | None = None) -> None:
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
    elif dispatches or download is not None:
        recorded.submit(dispatches, launched, key, plan, download)
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
