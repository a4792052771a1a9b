"""The plan cache: a graph's kernel plan, remembered by the graph's *structure*.

A training loop builds the same graph every step with new buffers and new Python scalars. The first time,
:func:`kdsl.engine.schedule.schedule` decides fusion and lowers each kernel to IR; the plan is then stored
under the graph's signature (ops, dtypes, shapes, views and how nodes connect; no data, no scalar values, no
view offsets: those are push constants too), so later steps only walk the graph once, pick the buffers and push
words out of it, and dispatch the cached kernels.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.ones(8, np.float32))
    >>> s1 = plan([(a * 2.0 + 1.0)._node]); s2 = plan([(a * 3.0 + 5.0)._node])
    >>> s1[0].kernel is s2[0].kernel, s2[0].words.view(np.float32).tolist()
    (True, [3.0, 5.0])
"""

from __future__ import annotations

import itertools
import math
import os
import struct
import threading
from array import array
from collections import OrderedDict
from typing import Any, NamedTuple

import numpy as np

from kdsl import dtype as _dt
from kdsl.codegen import scan_blocked
from kdsl.engine import state as _state
from kdsl.engine.lowering import Step, const_words
from kdsl.engine.schedule import patch_boxes, schedule
from kdsl.ir.graph import Node, toposort
from kdsl.ir.kernels import Elementwise, Kernel, Matmul
from kdsl.ir.view import INDEX_LIMIT, View

# graph signature -> templates, least recently used first (size: kdsl.engine.state.set_cache_limits)
_plans: OrderedDict[tuple[Any, ...], Plan] = OrderedDict()
# held to change _plans (a lookup needs none: one dict read is atomic); re-entrant, as a collection inside may
# run a finaliser that plans too
_plans_lock = threading.RLock()
_clock = 0  # plans inserted into _plans or moved to its young end so far
_FLOAT32 = _dt.float32


class Plan(list):
    """A cached plan's templates, with the :data:`_clock` reading of when it last moved to the young end of the
    cache's LRU order (see :func:`cached`)."""

    __slots__ = ("stamp",)
    stamp: int


class Template(NamedTuple):
    """One step of a cached plan, with graph nodes replaced by their positions in the graph's order.
    (:func:`kdsl.engine.submission.run_cached` unpacks the fields by position: keep the two in step.)"""

    kernel: Kernel
    out: int  # position in the graph's order; negative: a temporary (-1 - index)
    inputs: tuple[int, ...]
    sources: tuple[tuple[int, str], ...]
    fresh: bool
    temp_shape: tuple | None  # (dtype, shape) when out is a temporary
    fused: tuple[int, ...]
    program: list[Any]  # [Program] once run; filled by the runner
    words: Any = None  # a fixed step's push words (Step.fixed), else None: built from ``sources``
    out_dtype: Any = None  # the output buffer's dtype and element count (fixed by the graph's structure)
    out_size: int = 0
    launch: bool = True  # False: nothing to dispatch (an empty output, or a kernel of size 0)
    scalar: int = -1  # the position of the one push source when it is a float32 constant (the usual `x * 2.0`):
    # the push words are its four bytes, packed by the runner without a call of word_bytes; else -1


def kernel_size(k: Kernel) -> int:
    """Elements a kernel writes (0: nothing to launch); reductions and scans always launch."""
    if isinstance(k, Matmul):
        return k.batch * k.m * k.n
    if isinstance(k, Elementwise):
        return math.prod(k.shape)
    return 1


def view_key(v: View, src_size: int) -> tuple:
    """A view (into a source of ``src_size`` elements) as the plan's signature sees it: an offset that kernels
    read from a push word (:func:`kdsl.engine.lowering.pushes_offset`) leaves the key, so one plan serves every
    offset; whether positions need 64 bits stays (the kernel differs).

    >>> view_key(View.contiguous((4,), 8), 100) == view_key(View.contiguous((4,), 96), 100)
    True
    >>> view_key(View.contiguous((4,), 0), 4) == view_key(View.contiguous((4,), 0), 8)
    False
    """
    offset = v.offset  # (pushes_offset and View.wide, with the span worked out once: every view of every plan)
    if offset <= INDEX_LIMIT:
        span = v.span
        if offset != 0 or span - offset < src_size:
            return (v.shape, v.strides, "w", span > INDEX_LIMIT)
    return (v.shape, v.strides, offset)


def _part(n: Node, pos: dict[int, int]) -> tuple:
    # dtypes enter the key by name: a str hashes in C, a DType in Python (the key is hashed on every plan)
    op = n.op
    if op == "buffer":
        return (n.dtype.name, n.shape)
    if op == "const":
        return ("c", n.dtype.name)
    if op == "rand":
        return ("r", n.dtype.name, n.shape, n.arg[0])
    arg = view_key(n.arg, n.srcs[0].size) if op == "view" else assemble_key(n) if op == "assemble" else n.arg
    return (op, n.dtype.name, n.shape, arg, tuple([pos[s.id] for s in n.srcs]))


def assemble_key(n: Node) -> tuple:
    """An assemble's regions as the plan's signature sees them: the offsets that its region kernels read from
    push words (:meth:`kdsl.engine.lowering.Lowering.region_word`) leave the key, so the writes of a loop
    (``traj[i + 1] = y``) share one plan; not when one patch kernel writes the array, whose boxes are literals
    (:func:`kdsl.engine.schedule.patch_boxes`)."""
    if patch_boxes(n) is not None:
        return n.arg
    return tuple([view_key(r, n.size) for r in n.arg])


def _visit(n: Node, pos: dict[int, int], order: list[Node], parts: list[tuple]) -> None:
    """Post-order walk from an op node (one with sources). Recursion is the fastest walk in Python for the usual
    shallow graphs (a module-level function: a nested one would form a reference cycle that keeps the graph
    alive until the next GC); leaves are handled in their reader's loop, without a call of their own."""
    srcs = n.srcs
    for s in srcs:
        if s.id in pos:
            continue
        if s.srcs:
            _visit(s, pos, order, parts)
            continue
        pos[s.id] = len(order)
        order.append(s)
        op = s.op  # the usual leaves inlined: realised data and scalars
        parts.append((s.dtype.name, s.shape) if op == "buffer" else ("c", s.dtype.name) if op == "const" else
                     _part(s, pos))
    pos[n.id] = len(order)
    order.append(n)
    op, k = n.op, len(srcs)  # _part's last case, inlined, with the usual one or two sources written out
    links = (pos[srcs[0].id],) if k == 1 else (pos[srcs[0].id], pos[srcs[1].id]) if k == 2 else \
        tuple([pos[s.id] for s in srcs])
    parts.append((op, n.dtype.name, n.shape, view_key(n.arg, srcs[0].size) if op == "view" else
                  assemble_key(n) if op == "assemble" else n.arg, links))


def signature(roots: list[Node]) -> tuple[tuple, list[Node]]:
    """(a hashable key of the graph's structure, the nodes in topological order)."""
    pos: dict[int, int] = {}
    order: list[Node] = []
    parts: list[tuple] = []
    try:
        for r in roots:
            if r.id in pos:
                continue
            if r.srcs:
                _visit(r, pos, order, parts)
            else:  # a leaf to realise (an iota, a random draw)
                pos[r.id] = len(order)
                order.append(r)
                parts.append(_part(r, pos))
    except RecursionError:  # a very deep graph: the iterative walk
        order = toposort(roots)
        pos = {n.id: i for i, n in enumerate(order)}
        parts = [_part(n, pos) for n in order]
    # The device's policy and the module constants a lowering reads (sizes a GPU sweep sets between calls)
    # belong to the key as well, named by a small int (see _device_key). The last one is remembered by the
    # identity of its parts: a loop on one device reads no dict for it (policy() is inlined as well).
    dev = 0
    if roots:
        device = roots[0].device
        policy = device._policy or device.policy()
        last = _last_device_key
        if last[0] is not policy or last[1] is not scan_blocked.ROWS or \
                last[2] is not scan_blocked.PRELOAD_DENSITY or last[3] is not scan_blocked.STAGE_POSITIONS:
            last = _device_key(policy)
        dev = last[4]
    at = (pos[roots[0].id],) if len(roots) == 1 else tuple([pos[r.id] for r in roots])
    return (dev, at, tuple(parts)), order


# (policy, scan_blocked.ROWS, PRELOAD_DENSITY, STAGE_POSITIONS) -> a small int that stands for them in plan keys:
# the 18-entry tuple was built, hashed and compared on every lookup. Ids are never reused (a cleared table gives
# known parts a new id: their old plans just miss and age out of the cache).
_device_ids: dict[tuple, int] = {}
_next_device_id = itertools.count(1)
_DEVICE_IDS = 256  # distinct device parts remembered (each policy a sweep tries adds one)
_last_device_key: tuple = (None, None, None, None, 0)  # (policy, ROWS, PRELOAD_DENSITY, STAGE_POSITIONS, id)


def _device_key(policy: tuple) -> tuple:
    """The id of ``policy`` with the module constants' current values, remembered as the last one used."""
    global _last_device_key
    parts = (policy, scan_blocked.ROWS, scan_blocked.PRELOAD_DENSITY, scan_blocked.STAGE_POSITIONS)
    ident = _device_ids.get(parts)
    if ident is None:
        if len(_device_ids) >= _DEVICE_IDS:
            _device_ids.clear()
        ident = _device_ids.setdefault(parts, next(_next_device_id))  # (atomic: two threads agree)
    _last_device_key = last = (*parts, ident)
    return last


def make_templates(steps: list[Step], order: list[Node]) -> list[Template] | None:
    """The Templates of ``steps`` with nodes named by their position in ``order`` (temporaries by negative
    numbers), so a plan can be replayed on another graph of the same structure; None if a step bakes data in."""
    pos = {n.id: i for i, n in enumerate(order)}
    temps: dict[int, int] = {}
    out = []
    for s in steps:
        if s.baked:
            return None
        if s.out.id in pos:
            o, temp = pos[s.out.id], None
        else:
            o = temps.setdefault(s.out.id, -1 - len(temps))
            temp = (s.out.dtype, s.out.shape)
        inputs = tuple(pos[n.id] if n.id in pos else temps[n.id] for n in s.inputs)
        sources = tuple((pos[n.id], kind) for n, kind in s.sources)
        fused = tuple(pos[n.id] for n in s.fused if n.id in pos)
        size = s.out.size
        scalar = sources[0][0] if not s.fixed and len(sources) == 1 and sources[0][1] == "const" and \
            order[sources[0][0]].dtype is _FLOAT32 else -1  # (the graph's structure fixes the dtype)
        out.append(Template(s.kernel, o, inputs, sources, s.fresh, temp, fused, [], s.words if s.fixed else None,
                            s.out.dtype, size, size > 0 and kernel_size(s.kernel) > 0, scalar))
    return out


def _words(sources: tuple[tuple[int, str], ...], order: list[Node]) -> np.ndarray:
    return np.array(_word_list(sources, order), np.uint32)


F32_WORD = struct.Struct("=f")  # native order: the bytes are read back as native uint32 words


def word_bytes(sources: tuple[tuple[int, str], ...], order: list[Node]) -> bytes:
    """The push words of a template's ``sources`` in the graph ``order``, as bytes (the replay key holds them;
    they become an array only when a batch is recorded). A float32 scalar, the usual one, is packed directly.

    >>> from kdsl import dtype as dt
    >>> c = Node("const", (), dt.float32, (), 1.5)
    >>> word_bytes(((0, "const"),), [c]) == _words(((0, "const"),), [c]).tobytes()
    True
    """
    if not sources:  # (a matmul's, a reduction's: no scalars, no offsets)
        return b""
    if len(sources) == 1:
        n = order[sources[0][0]]
        if sources[0][1] == "const" and n.dtype is _FLOAT32:
            try:
                return F32_WORD.pack(n.arg)
            except (OverflowError, struct.error):  # beyond float32's range: the general path gives inf
                pass
    return array("I", _word_list(sources, order)).tobytes()


def _word_list(sources: tuple[tuple[int, str], ...], order: list[Node]) -> list[int]:
    words: list[int] = []
    for p, kind in sources:
        n = order[p]
        if kind == "const":
            words.extend(const_words(n.arg, n.dtype))
        elif kind == "offset":  # a view's offset (below 2**31: Lowering.offset_word)
            words.append(n.arg.offset)
        elif kind.startswith("region"):  # an assemble region's offset (Lowering.region_word)
            words.append(n.arg[int(kind[6:])].offset)
        elif kind.startswith("count"):  # a size-generic kernel's element count (kdsl.engine.size_generic)
            words.append(int(kind[5:]))
        else:
            words.extend(int(k) & 0xFFFFFFFF for k in n.arg[1:])
    return words


def _forget_after_fork() -> None:
    """A forked child keeps its parent's plans (no destructor runs on their programs) but plans afresh."""
    global _plans, _plans_lock
    _state.keep_after_fork(_plans)
    _plans, _plans_lock = OrderedDict(), threading.RLock()


os.register_at_fork(after_in_child=_forget_after_fork)


def cached(roots: list[Node]) -> tuple[Plan | None, tuple, list[Node]]:
    """(the cached templates of this graph's structure or None, its signature, its nodes in order): the
    lookup half of :func:`plan`, for the runner's fast path (which binds templates without making Steps).

    A hit moves the plan to the young end of the LRU order only once it has aged by half the cache's size
    (a second hash and lock per call otherwise): a plan used at least that often is never evicted."""
    key, order = signature(roots)
    templates = _plans.get(key)
    if templates is not None and _clock - templates.stamp > _state.cache_limit("plans") >> 1:
        _refresh(key, templates)
    return templates, key, order


def _refresh(key: tuple, templates: Plan) -> None:
    global _clock
    with _plans_lock:
        if _plans.get(key) is templates:  # (not evicted meanwhile)
            _plans.move_to_end(key)
            _clock += 1
            templates.stamp = _clock


def plan(roots: list[Node]) -> list[Step]:
    """The steps realising ``roots``: from the cache when this graph structure was planned before."""
    templates, key, order = cached(roots)
    if templates is None:
        return planned(roots, key, order)
    dev = roots[0].device
    temps: dict[int, Node] = {}
    steps = []
    for t in templates:
        if t.out < 0:
            out = temps.get(t.out)
            if out is None:
                assert t.temp_shape is not None  # a temporary's template records its dtype and shape
                out = temps[t.out] = Node("partial", (), t.temp_shape[0], t.temp_shape[1], device=dev)
        else:
            out = order[t.out]
        inputs = [order[p] if p >= 0 else temps[p] for p in t.inputs]
        words = t.words if t.words is not None else _words(t.sources, order)
        step = Step(t.kernel, out, inputs, words, t.fresh, [order[p] for p in t.fused])
        step.template = t
        steps.append(step)
    return steps


def planned(roots: list[Node], key: tuple, order: list[Node]) -> list[Step]:
    """Schedule ``roots`` (signature ``key``, nodes ``order``) and cache the plan when it can be cached."""
    global _clock
    steps = schedule(roots)
    made = make_templates(steps, order)
    if made is not None:
        templates = Plan(made)
        with _plans_lock:
            _clock += 1
            templates.stamp = _clock
            _plans[key] = templates
            while len(_plans) > _state.cache_limits()["plans"]:
                _plans.popitem(last=False)
        for s, t in zip(steps, templates, strict=True):
            s.template = t
    return steps
