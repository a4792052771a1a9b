"""The kernel IR: one NamedTuple per kind of kernel. A kernel is a pure function of its fields (no data), so
a kernel is its own cache key: equal kernels share one GLSL text, one SPIR-V and one pipeline.

Slot 0 is always the output buffer; inputs are slots 1..n as the expressions' ``load`` nodes name them.
``n_words`` is the number of 32-bit push-constant words the expressions read.
"""

from __future__ import annotations

from typing import NamedTuple

from kdsl import dtype as dt
from kdsl.ir.view import View

LOCAL = 256  # invocations per workgroup for every generated kernel
MAX_GROUPS = 65535  # Vulkan guarantees at least this many workgroups per dimension
LOOP_CAP = 60000  # lavapipe stops every loop at 65 535 iterations; stay below with margin


class Elementwise(NamedTuple):
    """``out[out_view(idx)] = expr(idx)`` for every multi-index ``idx`` of ``shape``."""

    shape: tuple[int, ...]
    out_dtype: dt.DType
    out_view: View
    expr: tuple
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
    expr: tuple
    n_words: int
    mode: str
    splits: int
    groups: int
    epilogue: tuple | None  # expression over ("acc", dtype) and output-indexed loads, or None
    out_shape: tuple[int, ...] = ()  # the epilogue's index space (same size as the kept axes)


class Matmul(NamedTuple):
    """``out[b, m, n] = sum_k a(b, m, k) * b(b, k, n)``; ``a`` and ``b`` are expressions over their 3-d shapes."""

    batch: int
    m: int
    n: int
    k: int
    out_dtype: dt.DType
    a: tuple  # expression over (batch, m, k)
    b: tuple  # expression over (batch, k, n)
    n_words: int
    tiled: bool = True  # shared-memory tiles (GPUs); False: 4x4 blocks straight from memory (CPU drivers)


class Scan(NamedTuple):
    """Inclusive prefix sum along ``axis`` of ``expr`` (of ``shape``), one invocation per line."""

    shape: tuple[int, ...]
    axis: int
    out_dtype: dt.DType
    expr: tuple
    n_words: int
    groups: int


def elementwise_groups(size: int, max_groups: int) -> int:
    """Workgroups for a grid-stride kernel over ``size`` elements: at most ``max_groups`` (a per-device choice),
    but enough that no invocation loops more than LOOP_CAP times."""
    need = -(-size // LOCAL)
    floor = -(-size // (LOCAL * LOOP_CAP))
    return max(1, min(need, MAX_GROUPS, max(max_groups, floor)))


# ----- sorting, selection and gathers (kdsl.codegen.sort, kdsl.codegen.gather; lowered by kdsl.engine.sorting)
# A sort works on *records* in a uint32 buffer: per element ``words - 1`` words of an order-preserving key
# (most significant first) and its index along the sorted axis. Each line of the sorted axis is padded to
# ``n_pad`` (a power of two) records; records compare as tuples, so the index makes every sort stable.


class SortKeys(NamedTuple):
    """Records of ``expr`` (of ``shape``) sorted along ``axis`` within tiles of ``tile`` records: each
    workgroup builds one tile's records in shared memory and runs the bitonic network up to ``kmax``."""

    shape: tuple[int, ...]
    axis: int
    key_dtype: dt.DType
    descending: bool
    expr: object
    n_words: int
    n_pad: int
    words: int
    tile: int
    kmax: int  # min(tile, n_pad): the largest bitonic block sorted inside a tile
    groups: int
    private: bool = False  # one invocation per tile in private memory (CPU drivers: no barriers)


class SortMerge(NamedTuple):
    """Global compare-exchange stages of the bitonic network, out-of-place: one stage per pass with one
    invocation per pair (``radix`` 2), or two (distances j and j/2) with one invocation per four records
    (``radix`` 4). Push words: block, distance j (j/2 at least the tile), pairs or quads, ``n_pad - 1``
    (one program serves every size)."""

    words: int
    n_words: int
    groups: int
    radix: int = 2


class SortLocal(NamedTuple):
    """The stages of one block with distances below ``tile``, on tiles in shared (or private) memory.
    Push words: block, records, ``n_pad - 1``, tiles (one program serves every size)."""

    words: int
    tile: int
    n_words: int
    groups: int
    private: bool = False  # as SortKeys.private


class SortOut(NamedTuple):
    """The sorted line read back from the records (slot 1): the indices (``want`` "indices") or ``expr`` at
    them (``want`` "values")."""

    shape: tuple[int, ...]
    axis: int
    out_dtype: dt.DType
    want: str
    expr: object  # the sorted expression (read when want == "values")
    n_words: int
    n_pad: int
    words: int
    groups: int


class Gather(NamedTuple):
    """``out[o] = data[d(o)]`` where ``d(o)`` is ``o``'s data axes with axis ``axis`` replaced by the index
    ``indices[i(o)]``. ``along`` (take_along_axis): ``i(o) = o`` and the other data axes are ``o``'s;
    otherwise (take) ``out = data[:axis] + index.shape + data[axis+1:]``. Indices are wrapped (``mode``
    "wrap"), or negatives wrapped once and then clamped ("raise": checked beforehand, "clip": clamped only)."""

    shape: tuple[int, ...]
    out_dtype: dt.DType
    data: object
    data_shape: tuple[int, ...]
    indices: object  # (``index`` would shadow tuple.index)
    index_shape: tuple[int, ...]
    index_dtype: dt.DType
    axis: int
    along: bool
    mode: str
    n_words: int
    groups: int


class Search(NamedTuple):
    """``out[o] = searchsorted(a, v[o], side)``: a binary search of ``v``'s keys among ``a``'s (of length ``n``),
    ``a`` read through ``sorter`` when given (sort order, NaNs last, as the sort's keys)."""

    shape: tuple[int, ...]
    out_dtype: dt.DType
    key_dtype: dt.DType
    a: object
    n: int
    v: object
    sorter: object | None
    side: str
    n_words: int
    groups: int
