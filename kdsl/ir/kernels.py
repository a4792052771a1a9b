"""The kernel IR: one NamedTuple per kind of kernel. A kernel is a pure function of its fields (no data), so
a kernel is its own cache key: equal kernels share one GLSL text, one SPIR-V and one pipeline.

Slot 0 is always the output buffer; inputs are slots 1..n as the expressions' ``load`` nodes name them. Expressions are
:class:`kdsl.ir.expr.Expr` DAGs (interned: hashing and comparing a kernel costs O(1) per field).
``n_words`` is the number of 32-bit push-constant words the expressions read.
"""

from __future__ import annotations

from typing import NamedTuple

from kdsl import dtype as dt
from kdsl.ir.expr import Expr
from kdsl.ir.view import View

LOCAL = 256  # invocations per workgroup for every generated kernel
MAX_GROUPS = 65535  # Vulkan guarantees at least this many workgroups per dimension
LOOP_CAP = 60000  # lavapipe stops every loop at 65 535 iterations; stay below with margin


class Elementwise(NamedTuple):
    """``out[out_view(idx)] = expr(idx)`` for every multi-index ``idx`` of ``shape``."""

    shape: tuple[int, ...]
    out_dtype: dt.DType
    out_view: View
    expr: Expr
    n_words: int
    groups: int  # workgroups launched; the kernel grid-strides when groups * LOCAL < size
    vec: int = 1  # elements per invocation: 4 = vec4 loads and stores (kdsl.codegen.vector)


class Reduce(NamedTuple):
    """``out[o] = epilogue(op over reduced axes of expr)`` where ``o`` runs over the kept axes of ``shape``.

    ``mode`` "group": one workgroup per output with a shared-memory tree; "thread": one invocation per output.
    ``splits`` > 1 cuts each output's reduction into that many partial results (``out[o * splits + p]``), which
    a second Reduce combines: it keeps every loop short and every workgroup busy. In "group" mode partial p
    folds a contiguous chunk; in "thread" mode it folds elements p, p + splits, ... (neighbouring invocations
    read neighbouring memory, and no barrier is needed).
    """

    op: str  # sum, prod, max, min, argmax, argmin
    shape: tuple[int, ...]
    axes: tuple[int, ...]
    out_dtype: dt.DType
    expr: Expr
    n_words: int
    mode: str
    splits: int
    groups: int
    epilogue: Expr | None  # expression over an "acc" node and output-indexed loads, or None
    out_shape: tuple[int, ...] = ()  # the epilogue's index space (same size as the kept axes)


class Matmul(NamedTuple):
    """``out[b, m, n] = sum_k a(b, m, k) * b(b, k, n)``; ``a`` and ``b`` are expressions over their 3-d shapes."""

    batch: int
    m: int
    n: int
    k: int
    out_dtype: dt.DType
    a: Expr  # expression over (batch, m, k)
    b: Expr  # expression over (batch, k, n)
    n_words: int
    tiled: bool = True  # shared-memory tiles (GPUs); False: 4x4 blocks straight from memory (CPU drivers)


class Scan(NamedTuple):
    """Inclusive prefix sum along ``axis`` of ``expr`` (of ``shape``), one invocation per line."""

    shape: tuple[int, ...]
    axis: int
    out_dtype: dt.DType
    expr: Expr
    n_words: int
    groups: int


Kernel = Elementwise | Reduce | Matmul | Scan  # what a Step launches; every kind is hashable (a cache key)


def elementwise_groups(size: int, max_groups: int) -> int:
    """Workgroups for a grid-stride kernel over ``size`` elements: at most ``max_groups`` (a per-device choice),
    but enough that no invocation loops more than LOOP_CAP times."""
    need = -(-size // LOCAL)
    floor = -(-size // (LOCAL * LOOP_CAP))
    return max(1, min(need, MAX_GROUPS, max(max_groups, floor)))
