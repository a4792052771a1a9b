"""The kernel IR: one NamedTuple per kind of kernel. A kernel is a pure function of its fields (no data), so
a kernel is its own cache key: equal kernels share one GLSL text, one SPIR-V and one pipeline.

Slot 0 is always the output buffer; inputs are slots 1..n as the expressions' ``load`` nodes name them. Expressions are
:class:`kdsl.ir.expr.Expr` DAGs (interned: hashing and comparing a kernel costs O(1) per field).
``n_words`` is the number of 32-bit push-constant words the expressions read.
"""

from __future__ import annotations

from typing import NamedTuple

from kdsl import dtype as dt
from kdsl.errors import TooLargeError
from kdsl.ir.expr import Expr
from kdsl.ir.sort_kernels import RadixKeys, RadixPass, SortKeys, SortLocal, SortMerge, SortOut
from kdsl.ir.view import View

LOCAL = 256  # invocations per workgroup for every generated kernel
MAX_GROUPS = 65535  # Vulkan guarantees at least this many workgroups per dimension
LOOP_CAP = 60000  # default loop budget: lavapipe stops an invocation after ~65 535 loop iterations in all


class Elementwise(NamedTuple):
    """``out[out_view(idx)] = expr(idx)`` for every multi-index ``idx`` of ``shape``."""

    shape: tuple[int, ...]
    out_dtype: dt.DType
    out_view: View
    expr: Expr
    n_words: int
    groups: int  # workgroups launched; the kernel grid-strides when groups * LOCAL < size
    vec: int = 1  # elements per invocation: 4 = vec4 loads and stores (kdsl.codegen.vector)
    # (push word, wide) holding out_view's offset (then 0 in out_view): a write into a region of an array
    # (``traj[i + 1] = y``) is one kernel for every offset
    out_offset: tuple[int, bool] | None = None
    # push word holding the element count: a size-generic kernel (kdsl.engine.size_generic), whose 1-D ``shape``
    # is then only a bound on the count (its launch and index type); None: the count is ``shape``'s
    size_word: int | None = None


class Reduce(NamedTuple):
    """``out[o] = epilogue(op over reduced axes of expr)`` where ``o`` runs over the kept axes of ``shape``.

    ``mode`` "group": one workgroup per output with a shared-memory tree; "thread": one invocation per output;
    "cols": column reductions (the innermost kept axis is the one contiguous in memory, as ``X.sum(axis=0)``):
    each workgroup takes ``cols`` neighbouring outputs (neighbouring invocations read neighbouring memory) times
    ``LOCAL // cols`` lanes that stride through a block of the reduced positions, combined by a shared-memory
    tree over the lanes (kdsl.codegen.reduce_columns); "rows": its mirror for many short reductions along the
    contiguous axis (``X.sum(axis=1)`` of a tall matrix): ``cols`` outputs per workgroup, the neighbouring
    invocations of each reading neighbouring elements of its row.
    ``splits`` > 1 cuts each output's reduction into that many partial results (``out[o * splits + p]``), which
    a second Reduce combines: it keeps every loop short and every workgroup busy. In "group" mode partial p
    folds a contiguous chunk; in "thread" mode it folds elements p, p + splits, ... (neighbouring invocations
    read neighbouring memory, and no barrier is needed). In "cols" mode partial p folds a contiguous block of
    the reduced positions and is stored at ``out[p * outputs + o]``: the next pass is a column reduction too.
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
    # argmax / argmin after partial passes: an expression over (outputs, parts) giving, for each output, the
    # reduced positions an earlier pass picked; the kernel folds those ``parts`` candidates (re-reading their
    # values through ``expr``) instead of every reduced element.
    index_of: Expr | None = None
    parts: int = 0
    # > 0: "group" mode combines across the workgroup with subgroup operations (kdsl.codegen.reduce_workgroup), "rows"
    # mode its lanes by shuffles (kdsl.codegen.reduce_columns.rows_shuffle);
    # the device's reported subgroup size, used only to bound loop trips (the kernel reads gl_SubgroupSize)
    subgroup: int = 0
    cols: int = 0  # "cols"/"rows" mode: outputs (quads of outputs where reduce_columns.cols_vec4) per workgroup
    # push word holding the reduced length: a size-generic one-pass "thread" or "group" mode reduction to one output
    # (kdsl.engine.size_generic), whose 1-D ``shape`` then only bounds it; None: the length is ``shape``'s
    size_word: int | None = None


class RowNorm(NamedTuple):
    """One workgroup per row (the last axis of ``shape``; ``mode`` "thread": one invocation per row) runs
    ``stages`` in order, then writes ``expr`` along the row: softmax, log_softmax, layer_norm, rms_norm and any
    chain of last-axis reductions whose results only feed that row's elementwise output (kdsl.codegen.rownorm).

    Each stage is ``(op, e)``: ``op`` a reduction (sum, prod, max, min) of the row expression ``e``, or "let":
    ``e`` a per-row scalar expression. Stage k's value is ``Expr("acc", dtype, (), k)`` in later expressions.
    ``cache`` > 0: each invocation keeps its ``cache`` elements of the row's loads in registers (the row is
    read from memory once); 0: every stage re-reads the row.
    """

    shape: tuple[int, ...]
    out_dtype: dt.DType
    stages: tuple[tuple[str, Expr], ...]
    expr: Expr
    n_words: int
    groups: int
    cache: int = 0
    subgroup: int = 0  # as Reduce.subgroup
    mode: str = "group"  # "thread": one invocation per row, no barriers (short rows); "subgroup": one subgroup
    # per row (rows of a few hundred elements on a GPU; ``cache`` slots of ``subgroup`` lanes)


class Matmul(NamedTuple):
    """``out[b, m, n] = epilogue(sum_k a(b, m, k) * b(b, k, n))``; ``a`` and ``b`` are expressions over their
    3-d shapes."""

    batch: int
    m: int
    n: int
    k: int
    out_dtype: dt.DType
    a: Expr  # expression over (batch, m, k)
    b: Expr  # expression over (batch, k, n)
    n_words: int
    tiled: bool = True  # shared-memory tiles (GPUs); False: 4x4 blocks straight from memory (CPU drivers)
    # splits > 1: the k axis is cut into that many chunks (a multiple of 16 long) and the output holds one
    # partial product per chunk, out[s, b, m, n], which a sum Reduce combines (keeps the k loop in budget).
    splits: int = 1
    groups: int = 0  # workgroups of the blocked kernel (0: one per 256 blocks, capped at 512)
    # (M, N, K, subgroup size): a cooperative-matrix kernel with fragments of that shape (kdsl.codegen.coopmat);
    # () = the scalar kernels. Same bindings, push words and output layout either way (a fallback swaps it).
    coop: tuple[int, ...] = ()
    # > 0: the CPU-driver kernel (kdsl.codegen.matmul_cpu) for subgroups of this many lanes (tiled is False)
    lanes: int = 0
    # the CPU-driver kernel may read plain 32-bit operands two words per load component (64-bit integer loads;
    # the device has shaderInt64)
    vec64: bool = False
    # the elementwise consumers computed on each result before its store (kdsl.codegen.matmul_epilogue): an
    # expression over ``out_shape`` (a contiguous reshape of (batch, m, n)) reading the product as an "acc" node;
    # ``out_dtype`` is then the epilogue's. None: the product is stored as it is. Only with splits == 1.
    epilogue: Expr | None = None
    out_shape: tuple[int, ...] = ()
    depth: int = 16  # the K slice of the shared-memory tiles (kdsl.codegen.matmul.fit_shared)
    edge: int = 0  # their output tile edge where shared memory forces one (0: chosen by the grid)


class Scan(NamedTuple):
    """Inclusive prefix sum (``op`` "sum") or product ("prod") along ``axis`` of ``expr`` (of ``shape``), one
    pass of a reduce-then-scan.

    The axis is cut into blocks of ``block`` elements (0: one block per line); each invocation walks one
    block of one line in order (``per`` 0), or each workgroup scans one block, ``per`` elements per
    invocation. ``phase`` "sums" writes each block's total (``out`` has ``shape`` with the axis shortened to the
    number of blocks); "scan" writes the inclusive prefix sums, starting each block
    from ``carry``, an expression over that shortened shape holding the inclusive scan of the block totals.
    Products combine exactly as sums do (an associative operator with an identity), so ``op`` only changes the
    operator and the identity in every pass.
    """

    shape: tuple[int, ...]
    axis: int
    out_dtype: dt.DType
    expr: Expr
    n_words: int
    groups: int
    block: int = 0
    phase: str = "scan"  # "sums" | "scan" | "compact" | "lines" (whole short lines per tile, one pass)
    carry: Expr | None = None
    op: str = "sum"  # "sum" | "prod"
    # > 0: a workgroup scan (kdsl.codegen.scan_workgroup): each workgroup takes tiles of ``per * LOCAL``
    # elements of one line (``block`` is then the tile, or 0 for lines of one tile); 0: the serial scan above
    per: int = 0
    subgroups: bool = False  # the workgroup scan uses subgroup arithmetic (else shared memory only)
    # phase "compact" (stream compaction, 1-D, workgroup scan): ``expr`` is 0/1 int32 flags; each element whose
    # flag is 1 writes ``values`` at it (None: its position) to ``out[inclusive count - 1]``; ``out`` holds the
    # selected elements only. The "sums" pass and the totals' scan before it are those of a cumsum of the flags.
    values: Expr | None = None
    # the register-blocked subgroup scan of contiguous lines (kdsl.codegen.scan_blocked): ``per`` (a multiple
    # of 4) elements per invocation in rows of four, the tile ``per * LOCAL``; needs ``subgroups``
    blocked: bool = False
    # phase "compact" of a blocked scan: read every value four at a time with the flags (a dense selection),
    # not only the selected ones after them
    preload: bool = False
    # phase "compact" of a blocked scan writing positions: each tile's positions are gathered in shared memory
    # and stored in order, one run of consecutive slots per tile (coalesced), after a second barrier
    stage: bool = False




def elementwise_groups(size: int, max_groups: int, budget: int = LOOP_CAP, trips: int = 1) -> int:
    """Workgroups for a grid-stride kernel over ``size`` items of ``trips`` loop iterations each: at most
    ``max_groups`` (a per-device choice), but enough that no invocation loops more than ``budget`` times in all.

    >>> elementwise_groups(10**6, 16), elementwise_groups(10**6, 16, budget=60000, trips=1000)
    (16, 66)
    """
    need = -(-size // LOCAL)
    per_invocation = max(1, budget // max(trips, 1))  # grid-stride turns an invocation may take
    floor = -(-size // (LOCAL * per_invocation))
    if floor > MAX_GROUPS:
        raise TooLargeError(f"a kernel over {size} items of {trips} loop iterations each needs {floor} "
                            f"workgroups, more than the {MAX_GROUPS} one dispatch has; split the array")
    return max(1, min(need, MAX_GROUPS, max(max_groups, floor)))


# ----- selection and gathers (kdsl.codegen.gather; lowered by kdsl.engine.sorting)


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


class Compact(NamedTuple):
    """Stream compaction: for each of the ``n`` positions ``i`` of an inclusive running count ``csum`` (of 0/1
    flags) where it steps up, ``out[csum[i] - 1] = i``: the selected positions in order (``kd.nonzero``). The
    grid runs over the ``n`` inputs; every output position is written exactly once. ``shape`` is ``(count,)``."""

    shape: tuple[int, ...]
    out_dtype: dt.DType
    csum: object
    csum_dtype: dt.DType
    n: int
    n_words: int
    groups: int


class Scatter(NamedTuple):
    """Unbuffered scatter with atomics: for each of the ``m`` pairs ``i``, ``out[indices[i]] op= values[i]``
    (``op`` "add", "max" or "min") into the ``n`` elements of ``out``, which an earlier step filled (see
    :mod:`kdsl.codegen.atomic`). Negative indices count from the end; indices outside ``[-n, n)`` (checked on
    the host beforehand) write nothing. The order of the updates is not defined."""

    op: str
    out_dtype: dt.DType
    n: int
    m: int
    indices: object  # an expression over (m,) (``index`` would shadow tuple.index)
    index_dtype: dt.DType
    values: object  # an expression over (m,), of out_dtype
    n_words: int
    groups: int


class Attention(NamedTuple):
    """Fused ``softmax(q @ k^T * scale + mask) @ v`` (kdsl.codegen.attention): one workgroup of ``rows``
    invocations per (batch position, block of ``rows`` query rows), one query row per invocation; keys and
    values pass through shared memory ``block`` keys at a time, with an online (running max, running sum)
    softmax (or, with ``coop``, ``rows / 16`` subgroups of 16 query rows on cooperative matrices). ``q``, ``k``,
    ``v`` and ``mask`` are expressions over ``batch + (l, e)``, ``batch + (s, e)``,
    ``batch + (s, ev)`` and ``batch + (l, s)``; ``mask`` is boolean (True: may attend) or float (added to the
    scores), None without one; ``causal``: query ``i`` sees keys ``0..i``. Computes in float32."""

    batch: tuple[int, ...]
    l: int  # noqa: E741  (query rows, as PyTorch's L)
    s: int
    e: int
    ev: int
    out_dtype: dt.DType
    q: Expr
    k: Expr
    v: Expr
    mask: Expr | None
    causal: bool
    scale: float
    n_words: int
    groups: int  # workgroups; each walks tiles (batch position, block of query rows) grid-stride
    rows: int  # query rows per workgroup = invocations per workgroup
    block: int  # keys per shared-memory block
    # True: the output is stored as batch[:-1] + (l, batch[-1], ev), the last batch axis (the heads) next to
    # the head dim, as a (batch, seq, heads, head_dim) layout that a projection reads without a transpose
    heads_inner: bool = False
    # the cooperative-matrix fragment shape (m, n, k, subgroup size) of kdsl.codegen.attention_coopmat, for
    # float16 q, k and v; empty: the scalar kernel of kdsl.codegen.attention
    coop: tuple[int, ...] = ()


# What a Step launches; every kind is hashable (a cache key).
Kernel = (Elementwise | Reduce | RowNorm | Matmul | Scan | SortKeys | SortMerge | SortLocal | SortOut | RadixKeys
          | RadixPass | Gather | Search | Compact | Scatter | Attention)
