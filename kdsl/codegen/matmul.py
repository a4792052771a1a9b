"""The tiled matrix multiply: 64x64 output tiles per workgroup (128x128 for large outputs), 16-deep K slices
(32-deep for 128x128 tiles where shared memory holds them: :func:`fit_shared`) staged in shared memory (the
next one loaded into registers while this one is multiplied), each of the 256 invocations accumulating a 4x4
(8x8) block. float32 blocks are runs of four rows and columns (rows
``64 h + 4 ty + r``), read from shared memory as ``vec4``; other types take rows ``ty + 16*i`` and columns
``tx + 16*j``, so neighbouring invocations read neighbouring shared-memory words.

The A and B tiles are loaded through the operands' fused expressions, so ``(x * w) @ kd.exp(y)`` is one kernel.
Batches (of broadcast operands too) run along the grid's z dimension. A long k axis is cut into ``splits``
chunks that run in parallel and write one partial product each (a sum reduction adds them): every
invocation's k loop then stays under the device's loop budget.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> a = load(1, dt.float32, View.contiguous((1, 8, 4)))
    >>> b = load(2, dt.float32, View.contiguous((1, 4, 8)))
    >>> "shared vec4 As" in render(Matmul(1, 8, 8, 4, dt.float32, a, b, 0))
    True
"""

from __future__ import annotations

import os
from typing import NamedTuple

from kdsl import dtype as dt
from kdsl.codegen import coopmat, glsl, matmul_cpu, matmul_epilogue
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import counted_loop, grid_loop
from kdsl.codegen.operand_order import middle_is_contiguous
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, MAX_GROUPS, Matmul, elementwise_groups

TILE, DEPTH, PER = 64, 16, 4  # output tile edge, K slice, outputs per invocation per dimension (blocked: 4x4)
DEEP = 32  # the K slice of 128-wide tiles where shared memory holds it (see fit_shared)
# float32 tiles read shared memory as vec4 (a quarter of the load instructions per multiply-add); KDSL_MATMUL_VEC4=0:
# the scalar reads
VEC4 = os.environ.get("KDSL_MATMUL_VEC4", "1").strip() != "0"


def _tile_fill(reg: str, e: Expr, shape: tuple[int, ...], idx: tuple[str, ...], bounds: str,
               buffers: dict[int, dt.DType], t: dt.DType) -> list[str]:
    """Statements that put ``e`` at ``idx`` (or 0 outside ``bounds``; no test when it is ``""``) into register
    ``reg``."""
    r = ExprRenderer(buffers, prefix=reg + "_")
    v = r.value(e, shape, idx)
    if not bounds:
        return ["{", *["    " + x for x in r.lines], f"    {reg} = {v};", "}"]
    return [f"{reg} = {glsl.zero(t)};", f"if ({bounds}) {{", *["    " + x for x in r.lines], f"    {reg} = {v};", "}"]


BIG_TILE, BIG_TILE_GROUPS = 128, 512  # 128 x 128 tiles (8 x 8 outputs per invocation) once there are this many
# ... and for float32 (vec4) products, which have the 128 x 64 tiles of tile_shape below them: H100, 2026-12-05
# (matmul_sweep.py --dtypes float32 --big-groups 1024): MiniLM's QKV 8192 x 1152 x 384 (576 big tiles) 0.258 ->
# 0.222 ms, FFN-up 8192 x 1536 x 384 (768) 0.307 -> 0.289 in 128 x 64 tiles; MiniLM float32 7.1 -> 6.5-6.6 ms
BIG_TILE_GROUPS_F32 = 1024


def tile(k: Matmul) -> int:
    """The output tile edge of tiled kernel ``k``: 128 when the grid still has ``BIG_TILE_GROUPS`` workgroups of
    them (``BIG_TILE_GROUPS_F32`` for float32; an 8 x 8 block per invocation does twice the multiply-adds per
    shared-memory read: on an H200, 4096^3 float32 went from 5.9 to 4.4 ms, 8192^3 from 57 to 34 ms), else 64;
    ``k.edge`` where :func:`fit_shared` set one.

    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.view import View
    >>> def product(m, n, t):
    ...     return Matmul(1, m, n, 384, t, load(1, t, View.contiguous((1, m, 384))),
    ...                   load(2, t, View.contiguous((1, 384, n))), 0)
    >>> [tile(product(8192, n, t)) for n in (1536, 4096) for t in (dt.float32, dt.float64)]
    [64, 128, 128, 128]
    """
    if k.edge:
        return k.edge
    big = -(-k.m // BIG_TILE) * -(-k.n // BIG_TILE) * k.batch * max(k.splits, 1)
    return BIG_TILE if big >= BIG_TILE_GROUPS_F32 or (big >= BIG_TILE_GROUPS and not _vec4(k)) else TILE


# float32 products too narrow for a grid of BIG_TILE_GROUPS 128 x 128 tiles take 128 x 64 tiles (64 x 128 when n is
# the long side: 8 x 4 outputs an invocation, twice the multiply-adds per shared-memory read of the 64 x 64 tiles'
# 4 x 4) while the grid still has RECT_GROUPS of them. H100, 2026-12-05 (matmul_sweep.py --dtypes float32):
# 8192 x 384 x 1536 0.328 -> 0.279 ms, 8192 x 384 x 384 0.091 -> 0.080 (MiniLM's FFN-down and out-projection); the
# MLP's 512 x 1024 products (64 of them) were 5-13% slower, so they keep 64 x 64 tiles. The 128 x 64 tiles with the
# 32-deep k slices of the 128 x 128 ones were slower (H100: QKV 0.220 -> 0.265 ms, FFN-up 0.287 -> 0.346).
RECT_GROUPS = 256


def tile_shape(k: Matmul) -> tuple[int, int]:
    """The ``(rows, columns)`` of tiled kernel ``k``'s output tiles: ``tile(k)`` square, or a 128 x 64 (64 x 128)
    tile for a float32 product that :func:`tile` gives 64-wide ones when ``RECT_GROUPS`` of them fill the grid.

    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.view import View
    >>> ops = [load(i, dt.float32, View.contiguous((1, 8192, 384))) for i in (1, 2)]
    >>> [tile_shape(Matmul(1, m, 384, 384, dt.float32, *ops, 0)) for m in (8192, 512)]
    [(128, 64), (64, 64)]
    """
    edge = tile(k)
    if edge == TILE and not k.edge:
        long, short = max(k.m, k.n), min(k.m, k.n)
        if -(-long // BIG_TILE) * -(-short // TILE) * k.batch * max(k.splits, 1) >= RECT_GROUPS and _vec4(k):
            return (BIG_TILE, TILE) if k.m >= k.n else (TILE, BIG_TILE)
    return edge, edge


_WIDE = {"double": 8, "int64_t": 8, "uint64_t": 8, "vec2": 8, "dvec2": 16}  # bytes of a shared tile element


def _vec4(k: Matmul) -> bool:
    """Whether the tiles of ``k`` are float32 read as ``vec4`` (rows padded by 4, else by 1)."""
    return VEC4 and k.a.dtype.glsl_compute == "float"


def _row_stride(k: Matmul, edge: int) -> int:
    """The padded shared row of an ``edge``-wide tile (vec4 rows stay 16-byte aligned)."""
    return edge + 4 if _vec4(k) else edge + 1


def tile_bytes(k: Matmul, shape: tuple[int, int], depth: int) -> int:
    """Shared memory of the ``depth``-deep operand tiles of tiled kernel ``k`` with ``shape`` output tiles."""
    return (_row_stride(k, shape[0]) + _row_stride(k, shape[1])) * depth * _WIDE.get(k.a.dtype.glsl_compute, 4)


def fit_shared(k: Matmul, shared_bytes: int) -> Matmul:
    """Tiled kernel ``k`` with the K slice and tile edge that a device with ``shared_bytes`` of shared memory
    holds: :data:`DEEP` slices for 128-wide tiles where they fit (half the barriers per multiply-add; float32
    4096^3 on an H200 4.2 -> 3.2-3.5 ms), else :data:`DEPTH`; 64-wide tiles where not even those fit (a float64
    or int64 128-wide tile needs 33 KiB, a float32 one 17: more than the 16 KiB that Vulkan guarantees), and
    shallower slices where a 64-wide one does not (float64 on a 16 KiB device).

    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.view import View
    >>> ops = [load(i, dt.float64, View.contiguous((1, 4096, 4096))) for i in (1, 2)]
    >>> k = Matmul(1, 4096, 4096, 4096, dt.float64, *ops, 0)
    >>> [(f.depth, tile(f)) for f in (fit_shared(k, 49152), fit_shared(k, 32768), fit_shared(k, 16384))]
    [(16, 128), (16, 64), (8, 64)]
    """
    shape = tile_shape(k)
    if shape == (BIG_TILE, BIG_TILE) and tile_bytes(k, shape, DEEP) <= shared_bytes:
        return k._replace(depth=DEEP)
    depth = DEPTH
    if BIG_TILE in shape and tile_bytes(k, shape, depth) > shared_bytes:
        shape = (TILE, TILE)
        k = k._replace(edge=TILE)
    while depth > 4 and tile_bytes(k, shape, depth) > shared_bytes:  # float64 on a 16 KiB device: 8-deep
        depth //= 2
    return k._replace(depth=depth)


def render(k: Matmul) -> str:
    if k.coop:
        return coopmat.render(k, chunk(k))
    if k.lanes:
        return matmul_cpu.render(k, chunk(k))
    if not k.tiled:
        return _render_blocked(k)
    return _render_tiled(k, tile_shape(k))


class _Operand(NamedTuple):
    """How a tiled kernel loads one operand's slice (A: m x k, B: k x n): load q of invocation ``tid`` is element
    ``tid + 256 q`` of the slice in the operand's memory order (neighbouring invocations load neighbours along the
    axis it is contiguous along). 256 is a multiple of both sides, so its row and column are the invocation's own
    (``hi``, ``lo``) moved by a constant: the indices are a loop-invariant part plus constants, and a side the
    tile always fills needs no bounds check (4096^3 on an H200: 4.64 -> 4.16 ms, from the indices and the shared
    reads' division alone)."""

    name: str  # "a" or "b": registers r{name}{q}, shared tile {NAME}s
    expr: Expr
    shape: tuple[int, int, int]  # (batch, middle, last)
    down: bool  # whether the operand is contiguous along its middle axis
    extents: tuple[int, int]  # the slice's extents along (middle, last)
    offsets: tuple[str, str]  # the slice's first (middle, last) index: "bm"/"bn" for the tile, "kn" for k
    limits: tuple[tuple[object, bool], tuple[object, bool]]  # per axis: (its end, whether the tile never passes it)
    k_last: bool  # whether k is the last axis (A) or the middle one (B)
    stride: int  # the padded shared row

    def _lo_extent(self) -> int:
        return self.extents[0] if self.down else self.extents[1]

    def split(self) -> str:
        """The declaration of the invocation's own (hi, lo) position in the slice."""
        n, lo = self.name, self._lo_extent()
        return f"int {n}_hi = tid / {lo}, {n}_lo = tid % {lo};"

    def _index(self, q: int) -> tuple[str, str]:
        """Load ``q``'s (middle, last) index in the slice."""
        hi = f"({self.name}_hi + {q * LOCAL // self._lo_extent()})"
        return (f"{self.name}_lo", hi) if self.down else (hi, f"{self.name}_lo")

    def fill(self, q: int, buffers: dict[int, dt.DType], t: dt.DType) -> list[str]:
        """Load ``q`` into its register (0 outside the operand)."""
        idx = tuple(f"({o} + {i})" for o, i in zip(self.offsets, self._index(q), strict=True))
        bounds = glsl.bounds_test([(g, end, whole) for g, (end, whole) in zip(idx, self.limits, strict=True)])
        return _tile_fill(f"r{self.name}{q}", self.expr, self.shape, ("bz", *idx), bounds, buffers, t)

    def store(self, q: int, vec: bool) -> str:
        """Load ``q``'s register into the shared tile (k rows of the tile's padded width)."""
        middle, last = self._index(q)
        kk, along = (last, middle) if self.k_last else (middle, last)
        return _shared_store(self.name.upper() + "s", f"{kk} * {self.stride} + {along}", f"r{self.name}{q}", vec)


def _render_tiled(k: Matmul, shape: tuple[int, int]) -> str:
    """The shared-memory kernel with ``bm`` x ``bn`` output tiles (``shape``): 16 x 16 invocations, each
    accumulating ``bm / 16`` rows by ``bn / 16`` columns (rows ``ty + 16 i``, columns ``tx + 16 j``; float32 with
    :data:`VEC4`: rows and columns in runs of four, ``64 h + 4 ty + r``, read from shared memory as ``vec4``)."""
    t = k.a.dtype
    c = t.glsl_compute
    vec = _vec4(k)
    bm, bn = shape
    per_m, per_n = bm // 16, bn // 16  # outputs per invocation along m and n
    stride_a, stride_b = _row_stride(k, bm), _row_stride(k, bn)
    per_vec = 4 if vec else 1
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    depth = k.depth
    # Each tile loads the next slice into registers while it multiplies this one. H200: 6-12% faster with 64-wide
    # tiles; with 128-wide tiles 5-8% slower while they read shared memory by scalars, and with the vec4 reads
    # 5-9% faster for `a @ W.T` and `X.T @ b` (8192^3: 35.9 -> 33.6 ms), 1% slower for `a @ b` (36.3 -> 36.6)
    full_k = k.k % depth == 0  # every k slice is whole (chunks are multiples of the depth)
    a_shape, b_shape = (k.batch, k.m, k.k), (k.batch, k.k, k.n)
    a = _Operand("a", k.a, a_shape, middle_is_contiguous(k.a, a_shape), (bm, depth), ("bm", "kn"),
                 ((k.m, k.m % bm == 0), ("ke", full_k)), True, stride_a)
    b = _Operand("b", k.b, b_shape, middle_is_contiguous(k.b, b_shape), (depth, bn), ("kn", "bn"),
                 (("ke", full_k), (k.n, k.n % bn == 0)), False, stride_b)
    decl = [a.split(), b.split()]
    fill, store = [], []
    for q in range(max(bm, bn) * depth // LOCAL):  # the tile elements each invocation loads, A's and B's in turn
        for x in (a, b):
            if q < x.extents[0] * x.extents[1] // LOCAL:
                decl.append(f"{c} r{x.name}{q};")
                fill += x.fill(q, buffers, t)
                store.append(x.store(q, vec))
    zero = glsl.zero(t)
    # Scalars, fully unrolled: private arrays indexed in loops can end up in memory (lavapipe keeps them so).
    if vec:  # acc{i}_{h}: row i's four columns 64 h + 4 tx + (0..3), a vec4
        hm, hn = range(per_m // 4), range(per_n // 4)
        accs = [f"acc{i}_{h}" for i in range(per_m) for h in hn]
        fma = [f"acc{i}_{h} += av{i // 4}.{'xyzw'[i % 4]} * bv{h};" for i in range(per_m) for h in hn]
        # vec4s per shared row (the strides are multiples of 4): no division in the index
        reads = [" ".join(f"vec4 av{h} = As[kk * {stride_a // 4} + {16 * h} + ty];" for h in hm),
                 " ".join(f"vec4 bv{h} = Bs[kk * {stride_b // 4} + {16 * h} + tx];" for h in hn)]
        stores = [f"gm = bm + {64 * (i // 4) + i % 4} + 4 * ty; gn = bn + {64 * h + q} + 4 * tx; "
                  f"if (gm < {k.m} && gn < {k.n}) {matmul_epilogue.store(k, f'acc{i}_{h}.' + 'xyzw'[q], 'gm', 'gn')}"
                  for i in range(per_m) for h in hn for q in range(4)]
        acc_type = "vec4"
    else:
        accs = [f"acc{i}_{j}" for i in range(per_m) for j in range(per_n)]
        fma = [f"acc{i}_{j} += av{i} * bv{j};" for i in range(per_m) for j in range(per_n)]
        reads = [" ".join(f"{c} av{i} = As[kk * {stride_a} + ty + {16 * i}];" for i in range(per_m)),
                 " ".join(f"{c} bv{j} = Bs[kk * {stride_b} + tx + {16 * j}];" for j in range(per_n))]
        stores = [f"gm = bm + ty + {16 * i}; gn = bn + tx + {16 * j}; "
                  f"if (gm < {k.m} && gn < {k.n}) {matmul_epilogue.store(k, f'acc{i}_{j}', 'gm', 'gn')}"
                  for i in range(per_m) for j in range(per_n)]
        acc_type = c
    rows = len(fma) // per_m
    kc = chunk(k)
    # the deep slices' k loop unrolled: on an H200 32-deep slices were 15-20% slower rolled and 7-12% faster
    # unrolled than 16-deep ones (4096^3 float32 3.56 -> 3.31 ms), and unrolling 16-deep ones did not pay
    unroll = "[[unroll]] " if depth == DEEP else ""
    body = [
        "int tid = int(gl_LocalInvocationID.x);",
        "int tx = tid % 16, ty = tid / 16;",
        f"int bm = int(gl_WorkGroupID.y) * {bm}, bn = int(gl_WorkGroupID.x) * {bn};",
        *decl,
        f"for (int zz = int(gl_WorkGroupID.z); zz < {k.batch * k.splits}; zz += {MAX_GROUPS}) {{",
        f"    int bz = zz % {k.batch}, kb = (zz / {k.batch}) * {kc};",
        f"    int ke = kb + min({kc}, {k.k} - kb);",
        "    " + " ".join(f"{acc_type} {a} = {acc_type}({zero});" for a in accs),
        "    int kn = kb;",
        *["    " + x for x in fill],
        *_loop(depth, fill, store, [
            f"{unroll}for (int kk = 0; kk < {depth}; kk++) {{",
            *["    " + x for x in reads],
            *["    " + " ".join(fma[r * rows:(r + 1) * rows]) for r in range(per_m)],
            "}"]),
        "    int gm, gn;",
        *["    " + x for x in stores],
        "}",
    ]
    shared = [f"shared {'vec4' if vec else c} As[{stride_a * depth // per_vec}];",
              f"shared {'vec4' if vec else c} Bs[{stride_b * depth // per_vec}];"]
    epilogue = "".join(x + "\n" for x in matmul_epilogue.function(k, buffers))
    text = epilogue + "\n".join(body)
    head = glsl.header(LOCAL, buffers, k.n_words, shared=shared, body_text=text)
    if unroll:
        head = head.replace("#version 450\n", "#version 450\n#extension GL_EXT_control_flow_attributes : require\n", 1)
    return f"{head}\n{epilogue}void main() {{\n" + "\n".join("    " + x for x in body) + "\n}\n"


def _loop(depth: int, fill: list[str], store: list[str], multiply: list[str]) -> list[str]:
    """The k loop over one shared slice per operand: two barriers a slice (lines indented for the z loop)."""
    return ["    " + x for x in [
        f"for (int k0 = kb; k0 < ke; k0 += {depth}) {{",
        "    barrier();",  # every invocation is done reading the previous slice
        *["    " + x for x in store],
        "    memoryBarrierShared(); barrier();",
        f"    kn = k0 + {depth};",
        "    if (kn < ke) {", *["        " + x for x in fill], "    }",
        *["    " + x for x in multiply],
        "}"]]


def _shared_store(name: str, index: str, value: str, vec: bool) -> str:
    """Storing ``value`` at float ``index`` of shared tile ``name`` (an array of vec4 when ``vec``)."""
    if not vec:
        return f"{name}[{index}] = {value};"
    return f"{{ int s = {index}; {name}[s >> 2][s & 3] = {value}; }}"


def chunk(k: Matmul) -> int:
    """The length of each k chunk (a multiple of the tiles' depth, so no tile straddles two chunks)."""
    depth = coopmat.Layout(k.coop).bk if k.coop else k.depth
    per_split = -(-k.k // max(k.splits, 1))
    return -(-per_split // depth) * depth


def _blocks(k: Matmul) -> int:
    """Invocations of the blocked kernel: one per 4x4 output block per k chunk."""
    return k.splits * k.batch * -(-k.m // PER) * -(-k.n // PER)


def trips(k: Matmul) -> int:
    """Loop iterations of one k chunk (the innermost loops of one block, or one tile column)."""
    kc = min(chunk(k), k.k)
    if k.coop:
        return coopmat.trips(k, kc)
    if k.lanes:
        return matmul_cpu.trips(kc)
    return kc if not k.tiled else -(-kc // k.depth) * (2 + k.depth + max(tile_shape(k)) * k.depth // LOCAL)


def _render_blocked(k: Matmul) -> str:
    """Each invocation computes a 4x4 block, reading its operands straight from memory (no barriers: on a CPU
    driver, where every barrier costs, this runs twice as fast as the tiles). Rows and columns past the edge
    read a clamped (valid) element and are not stored."""
    t = k.a.dtype
    c = t.glsl_compute
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    mb, nb = -(-k.m // PER), -(-k.n // PER)
    r = ExprRenderer(buffers, prefix="v")
    av = [r.value(k.a, (k.batch, k.m, k.k), ("bz", f"mi{i}", "kk")) for i in range(PER)]
    bv = [r.value(k.b, (k.batch, k.k, k.n), ("bz", "kk", f"ni{j}")) for j in range(PER)]
    fma = [f"acc{i}{j} += {av[i]} * {bv[j]};" for i in range(PER) for j in range(PER)]

    stores = []
    for i in range(PER):
        for j in range(PER):
            stores.append(f"if (m0 + {i} < {k.m} && n0 + {j} < {k.n}) "
                          + matmul_epilogue.store(k, f"acc{i}{j}", f"m0 + {i}", f"n0 + {j}"))
    kc = chunk(k)
    body = [f"int zz = g / {mb * nb}; int mn = g % {mb * nb};",
            f"int bz = zz % {k.batch}, kb = (zz / {k.batch}) * {kc};",
            f"int ke = kb + min({kc}, {k.k} - kb);",
            f"int m0 = (mn / {nb}) * {PER}, n0 = (mn % {nb}) * {PER};",
            *[f"int mi{i} = min(m0 + {i}, {k.m - 1}); int ni{i} = min(n0 + {i}, {k.n - 1});" for i in range(PER)],
            " ".join(f"{c} acc{i}{j} = {glsl.zero(t)};" for i in range(PER) for j in range(PER)),
            *counted_loop("kk", "kb", "ke", 1, r.lines + fma), *stores]

    text = "\n".join(grid_loop(_blocks(k), _groups(k), body, var="g"))
    epilogue = "".join(x + "\n" for x in matmul_epilogue.function(k, buffers))
    return (f"{glsl.header(LOCAL, buffers, k.n_words, body_text=epilogue + text)}\n{epilogue}void main() {{\n"
            + "\n".join("    " + x for x in text.splitlines()) + "\n}\n")


def _groups(k: Matmul) -> int:
    return k.groups or elementwise_groups(_blocks(k), 512, trips=trips(k))


def launch(k: Matmul) -> tuple[int, int, int]:
    if k.coop:
        return coopmat.launch(k)
    if k.lanes:
        return (k.groups, 1, 1)
    if not k.tiled:
        return (_groups(k), 1, 1)
    bm, bn = tile_shape(k)
    return (-(-k.n // bn), -(-k.m // bm), min(k.batch * k.splits, MAX_GROUPS))
