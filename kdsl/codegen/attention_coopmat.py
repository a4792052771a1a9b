"""Fused attention on cooperative matrices (tensor cores): the :class:`kdsl.ir.kernels.Attention` kernel for
float16 ``q``, ``k`` and ``v`` on a device with 16 x 16 x 16 float16 fragments (``k.coop``), flash-attention
style, with the semantics of the scalar kernel (:mod:`kdsl.codegen.attention`).

A workgroup takes tiles of ``rows`` query rows (grid-stride, as the scalar kernel); each of its ``rows / 16``
subgroups ("warps") owns 16 of them. Per tile:

1. the tile's queries go to shared memory as float16 (eight at a time, through ``q``'s expression), and each
   warp keeps its 16 rows as ``E / 16`` A fragments in registers;
2. the keys and values pass through shared memory ``block`` at a time (16-byte stores of eight halves, over
   the queries' tile: ``Ts`` holds one or the other); each
   warp computes its 16 x ``block`` scores with ``coopMatMulAdd`` (keys as the B operand, column-major) and
   stores them (float32) to its staging tile;
3. every query row is handled by ``subgroup size / 16`` lanes of its warp: they read its scores, scale and
   mask them, and combine the block's maximum and sum with ``subgroupShuffleXor``: the online softmax of the
   scalar kernel, a block at a time (its running maximum ``m``, sum ``l`` and the rescale ``exp(m_old - m)``);
   the weights go to shared memory as float16;
4. each warp multiplies its weights by the value block (``16 x block @ block x Ev``) into fresh accumulators,
   stores them through its staging tile, and its lanes add them to the row's output, kept in registers as
   float32 (each lane ``Ev / lanes per row`` of them), so the rescale of step 3 never touches a fragment.

Scores, the softmax and the output are float32; the weights are rounded to float16 for the second product,
as PyTorch's flash kernels do. A masked key (or one past the end) weighs exactly 0; a row with every key masked
ends with ``l == 0`` and gives NaN; a NaN score or a ``+inf`` maximum makes the row NaN: all as the scalar
kernel. Strides of the shared arrays are multiples of 16 bytes, as fragment loads and stores need.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.kernels import Attention
    >>> q = load(1, dt.float16, View.contiguous((2, 40, 32)))
    >>> k = Attention((2,), 40, 40, 32, 32, dt.float16, q, q, q, None, False, 0.18, 0, 2, 64, 32, False,
    ...               (16, 16, 16, 32))
    >>> src = render(k)
    >>> "coopMatMulAdd" in src and "layout(local_size_x = 128)" in src
    True
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import attention, glsl
from kdsl.codegen.attention import NEG_INF, fill_mask, mask_value, output_base, shared_mask
from kdsl.codegen.coopmat import with_extensions
from kdsl.codegen.coopmat_loads import vector_alias, vector_view
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Attention

FRAG = 16  # the fragment's side: 16 x 16 x 16 float16 products with float32 accumulators
VEC = 8  # halves per uvec4 (one 16-byte shared store)
_FA = "coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>"
_FB = "coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>"
_FC = "coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>"


def padded(n: int) -> int:
    """``n`` rounded up to whole fragments."""
    return -(-n // FRAG) * FRAG


class Geometry:
    """Sizes of a coopmat attention kernel: ``warps`` of ``sub`` lanes, ``lanes`` per query row, head dims
    padded to fragments, and the strides (uvec4s for the float16 tiles, floats for the staging tile) of its
    shared arrays.

    >>> g = Geometry(64, 32, 32, 32, 32)
    >>> (g.warps, g.local, g.lanes, g.ep, g.sq, g.sk, g.sp, g.ss), g.shared_bytes()
    ((4, 128, 2, 32, 5, 5, 40, 36), 19584)
    """

    def __init__(self, rows: int, block: int, e: int, ev: int, sub: int):
        self.rows, self.block = rows, block
        self.warps, self.local, self.lanes = rows // FRAG, rows // FRAG * sub, sub // FRAG
        self.ep, self.evp = padded(e), padded(ev)
        self.sq = self.sk = (self.ep + VEC) // VEC  # a query's / key's row of halves, padded by 16 bytes
        self.sv = (self.evp + VEC) // VEC
        self.sp = block + VEC  # halves per row of a warp's weights
        self.ss = max(block, FRAG) + 4  # floats per row of a warp's staging tile (+ 16 bytes against conflicts)
        # the queries, then the keys and values over them (q is in registers by then): uvec4s of Ts
        self.vs = block * self.sk
        self.tiles = max(rows * self.sq, self.vs + block * self.sv)

    def shared_bytes(self) -> int:
        return 16 * self.tiles + 2 * self.warps * FRAG * self.sp + 4 * (self.warps * FRAG * self.ss + self.block)


def render(k: Attention) -> str:
    """The GLSL of coopmat attention kernel ``k`` (see the module docstring)."""
    g = Geometry(k.rows, k.block, k.e, k.ev, k.coop[3])
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    nqb = -(-k.l // k.rows)
    outer = ExprRenderer(buffers, prefix="g")
    bidx = index_vars(outer, "bh", k.batch) if k.batch else ()
    per_lane = g.evp // g.lanes
    fills = _Fills(bidx, buffers, g.local)
    tile = [*outer.lines,
            "barrier();  // every warp is done with the last tile's keys and values, which share Ts with q",
            *fills.tile(0, k.q, (*k.batch, k.l, k.e), g.ep, g.sq, g.rows, "i0"),
            "memoryBarrierShared(); barrier();",
            *[f"coopMatLoad(fq{c}, Ts, uint(warp * {FRAG * g.sq} + {c * FRAG // VEC}), {g.sq}u, "
              "gl_CooperativeMatrixLayoutRowMajor);" for c in range(g.ep // FRAG)],
            f"float m = {NEG_INF}, l = 0.0;",
            *[f"float o{t} = 0.0;" for t in range(per_lane)],
            f"for (int j0 = 0; j0 < {k.s}; j0 += {g.block}) {{",
            "    barrier();  // every warp is done with the last block before it is overwritten",
            *["    " + x for x in fills.tile(0, k.k, (*k.batch, k.s, k.e), g.ep, g.sk, g.block, "j0")],
            *["    " + x for x in fills.tile(g.vs, k.v, (*k.batch, k.s, k.ev), g.evp, g.sv, g.block, "j0")],
            *["    " + x for x in fill_mask(k, bidx, buffers, g.local)],
            "    memoryBarrierShared(); barrier();",
            *["    " + x for x in _scores(g)],
            *["    " + x for x in _softmax(k, g, bidx, buffers)],
            *["    " + x for x in _weighted_values(g)],
            "}",
            *_store(k, g)]
    body = ["int tid = int(gl_LocalInvocationID.x);",
            "int warp = int(gl_SubgroupID), lane = int(gl_SubgroupInvocationID);",
            f"int r = lane / {g.lanes}, part = lane % {g.lanes};  // the warp's row this lane works on, and its share",
            *[f"{_FA} fq{c};" for c in range(g.ep // FRAG)],
            f"for (int tile = int(gl_WorkGroupID.x); tile < {math.prod(k.batch) * nqb}; tile += {k.groups}) {{",
            f"    int bh = tile / {nqb}, i0 = (tile % {nqb}) * {g.rows};",
            f"    int i = i0 + warp * {FRAG} + r, ic = min(i, {k.l - 1});",
            *["    " + x for x in tile],
            "}"]
    text = "\n".join(body)
    shared = [*fills.aliases, f"shared uvec4 Ts[{g.tiles}];", f"shared float16_t Ps[{g.warps * FRAG * g.sp}];",
              f"shared float Ss[{g.warps * FRAG * g.ss}];"]
    if shared_mask(k):
        shared.append(f"shared float ms[{g.block}];")
    head = glsl.header(g.local, buffers, k.n_words, extra_dtypes=(dt.float16, dt.float32), shared=shared,
                       body_text=text)
    head = with_extensions(head, ("GL_KHR_shader_subgroup_shuffle",))
    return f"{head}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


class _Fills:
    """The code that fills the float16 tiles from the operands' expressions, and the buffer aliases it reads
    through (``aliases``)."""

    def __init__(self, bidx: tuple[str, ...], buffers: dict[int, dt.DType], local: int):
        self.bidx, self.buffers, self.local = bidx, buffers, local
        self.aliases: list[str] = []
        self.count = 0  # tiles filled through expressions so far (names their variables)

    def tile(self, at: int, e: Expr, shape: tuple[int, ...], wp: int, stride: int, count: int,
             origin: str) -> list[str]:
        """``count`` rows (from row ``origin``) of ``e`` (of ``shape`` = ``batch + (length, width)``) into the
        tile at ``Ts[at]`` (rows of ``stride`` uvec4s), eight halves per 16-byte store; rows past ``length`` and
        columns past ``width`` (up to ``wp``) are zeros. A plain aligned float16 buffer is read 16 bytes at a
        time."""
        length, width = shape[-2:]
        lines = [f"for (int t = tid; t < {count * wp // VEC}; t += {self.local}) {{",
                 f"    int row = {origin} + t / {wp // VEC}, c8 = (t % {wp // VEC}) * {VEC};",
                 f"    int rc = min(row, {length - 1});"]
        store = f"    Ts[{at} + (t / {wp // VEC}) * {stride} + t % {wp // VEC}] = "
        scalar = self._scalar(e, shape, wp, store)
        vector = vector_view(e, shape, len(shape) - 1, pushed=True)
        if vector is None:
            return [*lines, *scalar, "}"]
        slot, view, offset = vector  # MiniLM's head slices of its projection
        self.buffers[slot] = e.dtype
        if vector_alias(slot) not in self.aliases:
            self.aliases.append(vector_alias(slot))
        inside = f"row < {length}" + (f" && c8 < {width}" if width < wp else "")
        index = view.index_expr([*self.bidx, "rc", "c8"], offset, False if offset else None)
        vectored = ["    uvec4 w = uvec4(0);", f"    if ({inside}) w = b{slot}q.d[uint({index}) >> 3];", store + "w;"]
        if offset is None:
            return [*lines, *vectored, "}"]
        # the offset is pushed (one kernel for every slice): 16 bytes at a time where it is a multiple of 8
        return [*lines, f"    if (({offset} & 7u) == 0u) {{", *["    " + x for x in vectored], "    } else {",
                *["    " + x for x in scalar], "    }", "}"]

    def _scalar(self, e: Expr, shape: tuple[int, ...], wp: int, store: str) -> list[str]:
        """Eight elements through ``e``'s expression, packed into one 16-byte store."""
        length, width = shape[-2:]
        lines = [f"    f16vec2 h[{VEC // 2}];"]
        self.count += 1
        for x in range(VEC):
            r = ExprRenderer(self.buffers, prefix=f"f{self.count}_{x}_")
            v = r.value(e, shape, (*self.bidx, "rc", f"min(c8 + {x}, {width - 1})"))
            half = f"h[{x // 2}].{'xy'[x % 2]}"
            lines += [f"    {half} = float16_t(0.0);", f"    if (row < {length} && c8 + {x} < {width}) {{",
                      *["        " + y for y in r.lines], f"        {half} = float16_t({v});", "    }"]
        packed = ", ".join(f"packFloat2x16(h[{w}])" for w in range(VEC // 2))
        return [*lines, store + f"uvec4({packed});"]


def _scores(g: Geometry) -> list[str]:
    """The warp's 16 x ``block`` scores into its staging tile, one key fragment at a time."""
    out = [f"int sw = warp * {FRAG * g.ss};", f"{_FB} fk;", f"{_FC} sc;"]
    for n in range(g.block // FRAG):
        out.append(f"sc = {_FC}(0.0);")
        for c in range(g.ep // FRAG):
            out += [f"coopMatLoad(fk, Ts, uint({n * FRAG * g.sk + c * FRAG // VEC}), {g.sk}u, "
                    "gl_CooperativeMatrixLayoutColumnMajor);",
                    f"sc = coopMatMulAdd(fq{c}, fk, sc);"]
        out.append(f"coopMatStore(sc, Ss, uint(sw + {n * FRAG}), {g.ss}u, gl_CooperativeMatrixLayoutRowMajor);")
    return [*out, "subgroupMemoryBarrierShared(); subgroupBarrier();"]


def _softmax(k: Attention, g: Geometry, bidx: tuple[str, ...], buffers: dict[int, dt.DType]) -> list[str]:
    """Each lane's share of its row's block: scaled, masked scores; the block's maximum and sum over the
    row's lanes; the rescale of ``l`` and the output; the weights (float16) into the warp's ``Ps`` rows."""
    per = g.block // g.lanes
    scale = glsl.literal(k.scale, dt.float32)
    out = [f"float s[{per}];", f"float bm = {NEG_INF};"]
    for x in range(per):
        col = f"{x * g.lanes} + part" if g.lanes > 1 else str(x)
        out += ["{", f"    int jj = {col}, j = j0 + jj;",
                f"    float v = Ss[sw + r * {g.ss} + jj] * {scale};",
                f"    if (j >= {k.s}) v = {NEG_INF};"]
        if k.causal:
            out.append(f"    if (j > ic) v = {NEG_INF};")
        if k.mask is not None and shared_mask(k):
            out.append(f"    if (ms[jj] == 0.0) v = {NEG_INF};" if k.mask.dtype is dt.bool_ else
                       "    v = v + ms[jj];")
        elif k.mask is not None:
            r = ExprRenderer(buffers, prefix=f"mk{x}_")
            value = mask_value(k, r, (*bidx, "ic", f"min(j, {k.s - 1})"))
            out += ["    " + y for y in r.lines]
            out.append(f"    if ({value} == 0.0) v = {NEG_INF};" if k.mask.dtype is dt.bool_ else
                       f"    v = v + {value};")
        out += [f"    s[{x}] = v; bm = max(bm, v);", "}"]
    out += [f"bm = max(bm, subgroupShuffleXor(bm, {w}u));" for w in _spans(g.lanes)]
    out += ["float mn = max(m, bm);",
            "float a = mn == m ? 1.0 : exp(m - mn);  // both -inf (nothing seen yet): keep l and o as they are",
            "m = mn;",
            "float bs = 0.0;"]
    for x in range(per):
        col = f"{x * g.lanes} + part" if g.lanes > 1 else str(x)
        out += [f"{{ float p = s[{x}] == {NEG_INF} ? 0.0 : exp(s[{x}] - m);  // a masked key weighs 0",
                f"  bs += p; Ps[warp * {FRAG * g.sp} + r * {g.sp} + {col}] = float16_t(p); }}"]
    out += [f"bs += subgroupShuffleXor(bs, {w}u);" for w in _spans(g.lanes)]
    out += ["l = l * a + bs;", *[f"o{t} *= a;" for t in range(g.evp // g.lanes)],
            "subgroupMemoryBarrierShared(); subgroupBarrier();"]
    return out


def _spans(lanes: int) -> list[int]:
    """The shuffle distances that combine the ``lanes`` neighbouring lanes of a row (1, 2, ...)."""
    return [1 << b for b in range(lanes.bit_length() - 1)]


def _weighted_values(g: Geometry) -> list[str]:
    """The warp's weights times the value block, one output fragment at a time, added to the lanes' rows."""
    share = FRAG // g.lanes  # columns of a fragment a lane adds
    out = [*[f"{_FA} fp{kk};" for kk in range(g.block // FRAG)], f"{_FB} fv;", f"{_FC} pv;"]
    out += [f"coopMatLoad(fp{kk}, Ps, uint(warp * {FRAG * g.sp} + {kk * FRAG}), {g.sp}u, "
            "gl_CooperativeMatrixLayoutRowMajor);" for kk in range(g.block // FRAG)]
    for c in range(g.evp // FRAG):
        out.append(f"pv = {_FC}(0.0);")
        for kk in range(g.block // FRAG):
            out += [f"coopMatLoad(fv, Ts, uint({g.vs + kk * FRAG * g.sv + c * FRAG // VEC}), {g.sv}u, "
                    "gl_CooperativeMatrixLayoutRowMajor);",
                    f"pv = coopMatMulAdd(fp{kk}, fv, pv);"]
        out += [f"coopMatStore(pv, Ss, uint(sw), {g.ss}u, gl_CooperativeMatrixLayoutRowMajor);",
                "subgroupMemoryBarrierShared(); subgroupBarrier();",
                *[f"o{c * share + t} += Ss[sw + r * {g.ss} + part * {share} + {t}];" for t in range(share)],
                "subgroupMemoryBarrierShared(); subgroupBarrier();"]
    return out


def _store(k: Attention, g: Geometry) -> list[str]:
    """The lane's columns of its row, ``o / l``, in the output's layout."""
    share = FRAG // g.lanes
    lines = [f"if (i < {k.l}) {{", f"    int base = {output_base(k)};"]
    for c in range(g.evp // FRAG):
        for t in range(share):
            col = f"{c * FRAG} + part * {share} + {t}"
            store = glsl.store(0, k.out_dtype, f"base + {col}", f"(o{c * share + t} / l)")
            lines.append(f"    if ({col} < {k.ev}) {store}" if (c + 1) * FRAG > k.ev else f"    {store}")
    return [*lines, "}"]


def launch(k: Attention) -> tuple[int, int, int]:
    """The scalar kernel's workgroups (the two kernels walk the same tiles)."""
    return attention.launch(k)
