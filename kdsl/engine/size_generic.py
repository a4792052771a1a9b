"""Size-generic kernels: a loop whose arrays change length every step (``a = kd.append(a, v)``,
``kd.concatenate((a, row))``, ``x[i:] * 2``, ``x[:i].sum()``) reuses a few compiled kernels instead of compiling
one per length.

An :class:`~kdsl.ir.kernels.Elementwise` kernel whose output and loads are flat ranges of their buffers
(C-contiguous over the kernel's index space, or one element broadcast), and whose expression reads no index (no
random draws, patches, remaps, or ``iota`` but of a 1-D kernel), computes the same thing at every length: only the
element count differs. Its size-generic form reads that count from a push word (``Elementwise.size_word``); its
shape becomes a *bound*, the next power of two (at least one workgroup), which fixes the index type, the launch and
the loop budget. So a growing loop compiles one kernel per power of two it passes (``O(log n)``), not one per
length. A kernel whose views are not flat but whose leading axis alone changes (``x[i:, ::2]``, ``x[i:] * row``: the
other axes keep their sizes and strides) is generic along that axis the same way (its bound: a power of two of
rows); there an index along an axis (``iota``) and an expression broadcast along the rows (a remap: ``x[:i] *
kd.arange(5)``) are the same at every length too. The pieces of a join are such kernels (each writes its region at a
pushed offset), and so is a one-pass :class:`~kdsl.ir.kernels.Reduce` of flat values to one value
(``Reduce.size_word``: the fold's length), where the device plans the bound's length the same way.

Kernels keep their sizes baked in (the code fixed-shape loops have always run, vec4 loads included) until a
loop shows that it grows or shrinks: the same size-free kernel at the same site (a graph node, an assemble's
piece, a reduction) lowered at ``STREAK`` lengths in a row that grow (or shrink), within ``WINDOW`` schedules of
each other (a lazy loop's steps are lowered in one schedule; a loop realising each step, in consecutive ones).
From then on it is lowered size-generic while the lengths keep changing. Fixed shapes never change (arrays of
unrelated sizes that one plan updates, a model's parameters, only if their sizes happen to run in order); a
growing loop compiles its first ``STREAK - 1`` lengths baked, then the generic kernels. The size-free key costs a
walk of the expression, so it is made only for kernels that look like one lowered at another size before
(:func:`mixed`): a graph of fixed shapes is scheduled as fast as before.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.zeros(3, np.float32))
    >>> for v in range(4):
    ...     a = kd.append(a, float(v))
    >>> a.tolist()
    [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0]
    >>> bound(5), bound(300)
    (256, 512)
"""

from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any

import numpy as np

from kdsl.codegen.loops import expr_loops
from kdsl.engine.lower_reduce import reduce_plan
from kdsl.engine.lowering import Step
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Elementwise, Reduce, elementwise_groups
from kdsl.ir.view import View, contiguous_strides

MAX_BOUND = 1 << 30  # larger kernels keep their sizes (the grid-stride counter must not pass int32)
_INDEXED = frozenset(("rand", "rows", "patch", "acc"))  # ops whose code reads the index space (iota, remap: see
# _rewrite_node)
STREAK = 3  # lengths in a row, all growing or all shrinking, that make a kernel size-generic
WINDOW = 32  # ... lowered within this many schedules (kdsl.engine.schedule.schedule calls)
_SEEN_MAX = 4096  # size-free kernels whose recent lengths are remembered (least recently lowered forgotten first)
# (site, size-free kernel) -> its last distinct lengths and the schedule each was lowered in (oldest first)
_seen: OrderedDict[Hashable, tuple[tuple[int, int], ...]] = OrderedDict()
_coarse: OrderedDict[Hashable, int] = OrderedDict()  # look-alike kernels -> the one size seen (-1: several)
_lock = threading.Lock()
_clock = [0]  # schedules so far (tick())


def _new_lock_after_fork() -> None:
    global _lock
    _lock = threading.Lock()  # another thread may have held it at fork time


os.register_at_fork(after_in_child=_new_lock_after_fork)


def tick() -> None:
    """Count one schedule (the clock that :data:`WINDOW` is measured on)."""
    _clock[0] += 1


def bound(size: int) -> int:
    """The size class of a size-generic kernel over ``size`` elements: the next power of two, at least one
    workgroup (sizes in one class share a kernel)."""
    return max(LOCAL, 1 << max(size - 1, 0).bit_length())


def varying(key: Hashable, size: int) -> bool:
    """Whether ``key`` (a size-free kernel and its site), lowered now at ``size``, is in a loop whose lengths
    change: its last :data:`STREAK` distinct lengths (this one included) all grow or all shrink and were
    lowered within :data:`WINDOW` schedules. Remembers ``size``.

    >>> key = object()  # (a key of its own: the history is the process's)
    >>> [varying(key, n) for n in (5, 5, 6, 7, 8, 8, 3)]
    [False, False, False, True, True, True, False]
    """
    now = _clock[0]
    with _lock:
        past = _seen.get(key, ())
        if past and past[-1][0] == size:
            sizes = past[:-1] + ((size, now),)
        else:
            sizes = (past + ((size, now),))[-STREAK:]
        _seen[key] = sizes
        _seen.move_to_end(key)
        if len(_seen) > _SEEN_MAX:
            _seen.popitem(last=False)
    steps = [b[0] - a[0] for a, b in zip(sizes, sizes[1:], strict=False)]
    return len(sizes) == STREAK and now - sizes[0][1] <= WINDOW and (all(d > 0 for d in steps) or
                                                                      all(d < 0 for d in steps))


Build = Callable[[], "Elementwise | Reduce | None"]  # makes the size-generic kernel (None: it would be planned
# otherwise at its bound's length)


def generic(step: Step, dev: Any) -> tuple[Hashable, Build] | None:
    """(the size-free key of ``step``'s kernel, a function making its size-generic form), or None when it has
    none (neither flat nor free along its leading axis alone, a vec4 kernel, too large, positions past int32, no
    push word left; a reduction that is not one pass to one value). The kernel is made only for a loop that
    needs it."""
    k = step.kernel
    if not isinstance(k, (Elementwise, Reduce)) or k.size_word is not None or len(step.words) + 1 > dev.max_push_words:
        return None
    size, word = math.prod(k.shape), len(step.words)
    if size == 0 or size > MAX_BOUND:
        return None
    if isinstance(k, Elementwise):
        if k.vec != 1 or k.groups * LOCAL > MAX_BOUND or (k.out_offset is not None and k.out_offset[1]) or \
                k.out_view.wide:
            return None
        # flat (any C-contiguous shape); else the leading axis alone free (x[i:] * row, x[i:, ::2])
        for leading in (False, True):
            if leading and (len(k.shape) < 2 or k.shape[0] < 2):
                return None
            out = _generic_view(k.out_view, k.shape, 0, leading)
            free = None if out is None or out.strides[0] == 0 else _rewrite(k.expr, k.shape, 0, leading)
            if out is not None and free is not None:
                key: Hashable = k._replace(shape=out.shape, groups=0, out_view=out, expr=free, n_words=word + 1,
                                           size_word=word)
                return key, partial(_elementwise, k, size, word, dev, leading)
        return None
    if k.mode not in ("thread", "group") or k.splits != 1 or k.index_of is not None or \
            any(n != 1 for a, n in enumerate(k.shape) if a not in k.axes):
        return None
    free = _rewrite(k.expr, k.shape, 0)
    if free is None:
        return None
    key = k._replace(shape=(0,), axes=(0,), groups=0, expr=free, n_words=word + 1, size_word=word)
    return key, partial(_reduce, k, size, word, dev)


def _elementwise(k: Elementwise, size: int, word: int, dev: Any, leading: bool) -> Elementwise | None:
    inner = size // k.shape[0] if leading else 1
    # rows: a power of two, at least a workgroup's worth
    n = 1 << max(k.shape[0] - 1, -(-LOCAL // inner) - 1).bit_length() if leading else bound(size)
    out, expr = _generic_view(k.out_view, k.shape, n, leading), _rewrite(k.expr, k.shape, n, leading)
    assert out is not None and expr is not None  # (generic() rewrote them)
    if n * inner > MAX_BOUND or out.wide or any(ld.arg[1].wide for ld in expr.find("load")):
        return None  # (positions past int32 at the bound: keep the size)
    groups = elementwise_groups(n * inner, dev.max_groups, dev.loop_budget, 1 + expr_loops(expr, out.shape))
    return Elementwise(out.shape, k.out_dtype, out, expr, word + 1, groups, out_offset=k.out_offset, size_word=word)


def _reduce(k: Reduce, size: int, word: int, dev: Any) -> Reduce | None:
    """A reduction of everything (``x[:i].sum()``) in one pass, by one invocation ("thread" mode: CPU drivers)
    or one workgroup ("group" mode: GPUs), planned the same way at the bound's length: its length becomes a
    push word."""
    extra = 0 if k.epilogue is None else expr_loops(k.epilogue, tuple(k.out_shape))
    # the usual bound, else the next power of two from 32 (a GPU folds up to 32 elements in one invocation)
    for n in (bound(size), 1 << max(5, (size - 1).bit_length())):
        expr = _rewrite(k.expr, k.shape, n)
        assert expr is not None  # (generic() rewrote it)
        mode, splits, groups = reduce_plan((n,), (0,), dev, 1 + expr_loops(expr, (n,)), extra)
        if mode == k.mode and splits == 1:  # planned as this length is: the same kernel serves both
            return k._replace(shape=(n,), axes=(0,), expr=expr, n_words=word + 1, groups=groups, size_word=word)
    return None  # (the bound's length would need another plan: keep the size)


def apply(step: Step, kernel: Elementwise | Reduce) -> Step:
    """``step`` running size-generic ``kernel``: its element count joins the push words (the plan cache rebuilds
    it from the source ``count<n>``, which the graph's structure fixes)."""
    assert kernel.size_word == len(step.words)  # (generic()'s output)
    size = kernel_size(step)
    step.kernel = kernel
    step.words = np.append(step.words, np.uint32(size))
    step.sources = [*step.sources, (step.out, f"count{size}")]
    return step


def choose(step: Step, site: Hashable, dev: Any) -> Step:
    """``step`` size-generic when its size-free kernel is, at ``site``, in a loop whose lengths grow or shrink
    (:func:`varying`), else as it is (see the module docstring)."""
    k = step.kernel
    if not isinstance(k, (Elementwise, Reduce)):
        return step
    size = math.prod(k.shape)
    if not mixed((site, type(k), k.out_dtype, k.n_words, len(step.inputs)), size):
        return step  # (the usual case, a graph of one size: no rewrite)
    found = generic(step, dev)
    if found is None or not varying((site, found[0]), size):
        return step
    kernel = found[1]()
    return step if kernel is None else apply(step, kernel)


def mixed(coarse: Hashable, size: int) -> bool:
    """Whether kernels that look alike (``coarse``: their site, kind, dtype, push words and inputs) were ever
    lowered at another size than ``size``, or never before: only those need their exact size-free key, which
    costs a walk of the expression (a graph of fixed shapes mostly skips it)."""
    with _lock:
        first = _coarse.get(coarse)
        if first is None:
            _coarse[coarse] = size
            if len(_coarse) > _SEEN_MAX:
                _coarse.popitem(last=False)
            return True
        _coarse.move_to_end(coarse)
        if first != size:
            _coarse[coarse] = -1  # (sticky: seen at several sizes)
        return first != size


def kernel_size(step: Step) -> int:
    """Elements ``step``'s Elementwise kernel writes, or its Reduce kernel folds."""
    assert isinstance(step.kernel, (Elementwise, Reduce))
    return math.prod(step.kernel.shape)


def _flat(view: View, shape: tuple[int, ...]) -> tuple[int] | None:
    """The stride of ``view`` (over index space ``shape``) read as one flat axis: (1,) for a C-contiguous view
    (one element too: a length-1 join piece shares the kernel of longer ones), (0,) for one element broadcast,
    else None."""
    if view.shape != shape:
        return None
    strides = view.canonical().strides
    if not any(strides):
        return (1,) if view.size == 1 else (0,)
    return (1,) if strides == contiguous_strides(shape) else None


def _generic_view(view: View, shape: tuple[int, ...], n: int, leading: bool) -> View | None:
    """``view`` (over index space ``shape``) over the generic index space: ``(n,)`` flat, or ``shape`` with
    ``n`` leading (its strides kept: the leading one is a real stride, as ``shape[0]`` > 1); None when it is
    neither flat nor over ``shape``."""
    if view.shape != shape:
        return None
    if leading:
        return View((n, *shape[1:]), view.canonical().strides, view.offset)
    stride = _flat(view, shape)
    return None if stride is None else View((n,), stride, view.offset)


def _rewrite(e: Expr, shape: tuple[int, ...], n: int, leading: bool = False) -> Expr | None:
    """``e`` over the generic index space (:func:`_generic_view`: ``n`` elements flat, or ``n`` along the
    leading axis), or None when it reads the index space otherwise than through such loads."""
    memo: dict[int, Expr | None] = {}
    for node in e.walk():  # sources before their users
        memo[id(node)] = _rewrite_node(node, memo, shape, n, leading)
    return memo[id(e)]


def _rewrite_node(e: Expr, memo: dict[int, Expr | None], shape: tuple[int, ...], n: int,
                  leading: bool) -> Expr | None:
    if e.op in _INDEXED:
        return None
    if e.op == "iota":  # an index along an axis: the same at every length where that axis keeps its meaning
        return e if leading or len(shape) == 1 else None
    if e.op == "remap":  # its source at positions of a view over the index space (``x[:i] * kd.arange(5)``):
        # along a free leading axis the view keeps its strides; the source, over its own shape, stays as it is
        view = e.arg[0]
        if not leading or view.shape != shape or view.wide or len(e.arg) > 2:
            return None
        return Expr("remap", e.dtype, e.srcs, (View((n, *shape[1:]), view.canonical().strides, view.offset),
                                               *e.arg[1:]))
    if e.op == "load":
        view, pushed = e.arg[1], e.arg[2] if len(e.arg) > 2 else None
        new = _generic_view(view, shape, n, leading)
        if new is None or (pushed[1] if pushed is not None else view.wide):
            return None
        return Expr("load", e.dtype, (), (e.arg[0], new) if pushed is None else (e.arg[0], new, pushed))
    srcs = tuple([memo[id(s)] for s in e.srcs])
    if any(s is None for s in srcs):
        return None
    return Expr(e.op, e.dtype, srcs, e.arg)  # type: ignore[arg-type]
