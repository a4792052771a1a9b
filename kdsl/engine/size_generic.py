"""Size-generic elementwise kernels: a loop whose arrays change length every step (``a = kd.append(a, v)``,
``kd.concatenate((a, row))``, ``x[i:] * 2``) reuses a few compiled kernels instead of compiling one per length.

An :class:`~kdsl.ir.kernels.Elementwise` kernel whose output and loads are flat ranges of their buffers (C-contiguous
over the kernel's index space, or one element broadcast), and whose expression reads no index (no ``iota``, random
draws, remaps or patches), computes the same thing at every length: only the element count differs. Its
size-generic form reads that count from a push word (``Elementwise.size_word``); its shape becomes a *bound*, the
next power of two (at least one workgroup), which fixes the index type, the launch and the loop budget. So a
growing loop compiles one kernel per power of two it passes (``O(log n)``), not one per length.

Kernels keep their sizes baked in (the code fixed-shape loops have always run) until the same size-free kernel
is lowered at a second size at the same site: only then is it lowered size-generic, from that step on. A loop of
fixed shapes never changes; a growing one compiles its first kernel baked, then the generic ones.

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
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import numpy as np

from kdsl.codegen.loops import expr_loops
from kdsl.engine.lowering import Step
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Elementwise, elementwise_groups
from kdsl.ir.view import View, contiguous_strides

MAX_BOUND = 1 << 30  # larger kernels keep their sizes (the grid-stride counter must not pass int32)
_INDEXED = frozenset(("iota", "rand", "remap", "rows", "patch", "acc"))  # ops whose code reads the index space
_SEEN_MAX = 4096  # size-free kernels whose first size is remembered (least recently lowered forgotten first)
_seen: OrderedDict[Hashable, int] = OrderedDict()  # (site, size-free kernel) -> the first size lowered there
_lock = threading.Lock()


def bound(size: int) -> int:
    """The size class of a size-generic kernel over ``size`` elements: the next power of two, at least one
    workgroup (sizes in one class share a kernel)."""
    return max(LOCAL, 1 << max(size - 1, 0).bit_length())


def varying(key: Hashable, size: int) -> bool:
    """Whether ``key`` (a size-free kernel and its site) was lowered before at another size than ``size``; the
    first size is remembered."""
    with _lock:
        first = _seen.get(key)
        if first is None:
            _seen[key] = size
            if len(_seen) > _SEEN_MAX:
                _seen.popitem(last=False)
            return False
        _seen.move_to_end(key)
        return first != size


def generic(step: Step, dev: Any) -> tuple[Hashable, Elementwise] | None:
    """(the size-free key, the size-generic kernel) of ``step``'s Elementwise kernel, or None when it has no
    size-generic form (not flat, a vec4 kernel, too large, positions past int32, no push word left)."""
    k = step.kernel
    if not isinstance(k, Elementwise) or k.vec != 1 or k.size_word is not None or k.groups * LOCAL > MAX_BOUND:
        return None
    shape, size = k.shape, math.prod(k.shape)
    if size == 0 or size > MAX_BOUND or len(step.words) + 1 > dev.max_push_words:
        return None
    if (k.out_offset is not None and k.out_offset[1]) or _flat(k.out_view, shape) != (1,) or k.out_view.wide:
        return None
    n = bound(size)
    free, expr = _rewrite(k.expr, shape, 0), _rewrite(k.expr, shape, n)
    if free is None or expr is None:
        return None
    word = len(step.words)
    groups = elementwise_groups(n, dev.max_groups, dev.loop_budget, 1 + expr_loops(expr, (n,)))
    kernel = Elementwise((n,), k.out_dtype, View((n,), (1,), k.out_view.offset), expr, word + 1, groups,
                         out_offset=k.out_offset, size_word=word)
    return kernel._replace(shape=(0,), groups=0, out_view=View((0,), (1,), k.out_view.offset), expr=free), kernel


def apply(step: Step, kernel: Elementwise) -> Step:
    """``step`` running size-generic ``kernel``: its element count joins the push words (the plan cache rebuilds
    it from the source ``count<n>``, which the graph's structure fixes)."""
    assert isinstance(step.kernel, Elementwise) and kernel.size_word == len(step.words)  # (generic()'s output)
    size = math.prod(step.kernel.shape)
    step.kernel = kernel
    step.words = np.append(step.words, np.uint32(size))
    step.sources = [*step.sources, (step.out, f"count{size}")]
    return step


def choose(step: Step, site: Hashable, dev: Any) -> Step:
    """``step`` size-generic when its size-free kernel was lowered at another size at ``site`` before, else as
    it is (see the module docstring)."""
    found = generic(step, dev)
    if found is None or not varying((site, found[0]), kernel_size(step)):
        return step
    return apply(step, found[1])


def kernel_size(step: Step) -> int:
    """Elements ``step``'s Elementwise kernel writes."""
    assert isinstance(step.kernel, Elementwise)
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


def _rewrite(e: Expr, shape: tuple[int, ...], n: int) -> Expr | None:
    """``e`` over a flat index space of ``n`` elements (its loads' views made 1-D), or None when it reads the
    index space otherwise than through flat loads."""
    memo: dict[int, Expr | None] = {}
    for node in e.walk():  # sources before their users
        memo[id(node)] = _rewrite_node(node, memo, shape, n)
    return memo[id(e)]


def _rewrite_node(e: Expr, memo: dict[int, Expr | None], shape: tuple[int, ...], n: int) -> Expr | None:
    if e.op in _INDEXED:
        return None
    if e.op == "load":
        view, pushed = e.arg[1], e.arg[2] if len(e.arg) > 2 else None
        stride = _flat(view, shape)
        if stride is None or (pushed[1] if pushed is not None else view.wide):
            return None
        flat = View((n,), stride, view.offset)
        return Expr("load", e.dtype, (), (e.arg[0], flat) if pushed is None else (e.arg[0], flat, pushed))
    srcs = tuple([memo[id(s)] for s in e.srcs])
    if any(s is None for s in srcs):
        return None
    return Expr(e.op, e.dtype, srcs, e.arg)  # type: ignore[arg-type]
