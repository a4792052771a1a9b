"""The cooperative-matrix (tensor-core) matrix multiply: float16 operands, float32 accumulators, through
``GL_KHR_cooperative_matrix`` (``VK_KHR_cooperative_matrix``).

One workgroup of 256 invocations computes a ``BM x BN`` output tile (:func:`tile`: 128 x 128 or 128 x 256,
narrower for small products). Its subgroups ("warps", ``256 / subgroup size`` of them, laid out ``WM x WN``)
each own ``TM x TN`` accumulator fragments of the device's ``SM x SN x SK`` shape. The k axis advances ``BK``
(:func:`depth_fragments` fragment depths) at a time:

1. every invocation evaluates its share of the next A and B tiles, eight consecutive elements at a time along
   the operand's contiguous axis, through the operands' fused expressions (``(x * w) @ kd.exp(y)`` stays one
   kernel; out-of-range elements are zeros) into ``uvec4`` registers, so the global loads of tile ``t + 1``
   are in flight while tile ``t`` is multiplied (register double buffering; one shared tile set keeps the
   shared memory at ~45 KiB); a plain float16 operand aligned to 16 bytes along its contiguous axis is read
   as one ``uvec4`` per eight halves (see :mod:`kdsl.codegen.coopmat_loads`), which the global loads of this kernel are
   bound by;
2. each register goes to shared memory as one 16-byte store: a tile is kept in shared memory in its operand's
   own order, row-major when the operand is contiguous along its last axis and column-major otherwise
   (``x @ W.T``, ``X.T @ G``), rows padded by 8 halves = 16 bytes against bank conflicts (eight scalar stores
   down a shared column made a transposed operand cost 1.4-1.9x a contiguous one on an H200);
3. each warp loads its A and B fragments from shared memory in that order (``coopMatLoad`` takes the layout)
   and runs ``coopMatMulAdd``.

The epilogue goes through shared memory: each warp stores one fragment at a time (float32) into its own
staging tile, then its lanes write the elements inside the output with the output dtype's conversion (the
same cast the scalar kernel does), so edges, odd strides and float16 / float32 outputs need no special cases.
Batches and k chunks (``splits``, each a multiple of ``BK`` long) run along the grid's z dimension, exactly as
in :mod:`kdsl.codegen.matmul`, which falls back to its scalar kernels when no shape fits.

Which shape: :func:`choose` picks from the shapes the device reports
(``vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR``); the warp layout is computed from the device's reported
subgroup size, which must then be the size the driver runs compute shaders at (true of NVIDIA, 32).

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.kernels import Matmul
    >>> nvidia = [{"m": 16, "n": 16, "k": 16, "a": "float16", "b": "float16", "c": "float32",
    ...            "result": "float32", "saturating": False, "scope": "subgroup"}]
    >>> shape = choose(nvidia, dt.float16, dt.float16, 32, {"cooperative_matrix", "float16"}, 49152)
    >>> shape
    (16, 16, 16, 32)
    >>> a = load(1, dt.float16, View.contiguous((1, 200, 64)))
    >>> b = load(2, dt.float16, View.contiguous((1, 64, 100)))
    >>> "coopMatMulAdd" in render(Matmul(1, 200, 100, 64, dt.float16, a, b, 0, coop=shape), 64)
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kdsl import dtype as dt
from kdsl.codegen import glsl, matmul_epilogue
from kdsl.codegen.coopmat_loads import PAD, Tile, loads, tiles
from kdsl.ir.kernels import LOCAL, MAX_GROUPS, Matmul


def depth_fragments(bm: int, bn: int) -> int:
    """Fragment depths per k slice (``BK / SK``) of a ``bm x bn`` tile; one barrier pair per slice. Measured on
    an H200 (float16): a 128 x 128 tile wants 4 (2 took 4096^3 from 204 to 164 TFLOP/s); a 128 x 256 tile gets
    2, which keeps it in the shared memory a 128 x 128 tile of depth 4 needs (39 against 45 KiB); the narrower
    64 x 128 tiles of small grids were 10-20% faster with 2 (512 x 1024 x 1024: 0.022 -> 0.018 ms). Other
    tiles keep 4 (not measured otherwise)."""
    return 2 if bm * bn in (64 * 128, 128 * 256) else 4

EXTENSIONS = ("GL_KHR_cooperative_matrix", "GL_KHR_memory_scope_semantics",
              "GL_EXT_shader_explicit_arithmetic_types_float16", "GL_EXT_shader_16bit_storage",
              "GL_KHR_shader_subgroup_basic")
_INPUTS = ("float16",)  # operand dtypes with a coopmat kernel (bfloat16 needs glslang >= 15: docs/matmul.md)


class Layout:
    """Tile geometry of a coopmat kernel ``coop`` = ``(sm, sn, sk, subgroup size[, BM, BN])``: fragments of
    ``sm x sn x sk``, ``256 / subgroup size`` warps, and an output tile of ``BM x BN`` (128 x 128 unless
    :func:`tile` chose another). The warps form the grid that gives each the squarest block of fragments.

    >>> g = Layout((16, 16, 16, 32))
    >>> (g.bm, g.bn, g.wm, g.wn, g.tm, g.tn)
    (128, 128, 2, 4, 4, 2)
    >>> g = Layout((16, 16, 16, 32, 128, 32))
    >>> (g.bm, g.bn, g.wm, g.wn, g.tm, g.tn)
    (128, 32, 4, 2, 2, 1)
    """

    def __init__(self, coop: Sequence[int]):
        self.sm, self.sn, self.sk, sub = coop[:4]
        bm, bn = coop[4:6] if len(coop) >= 6 else (128, 128)
        self.warps = coop[6] if len(coop) > 6 else LOCAL // sub
        self.threads = self.warps * sub  # the workgroup's invocations
        fm, fn = max(1, bm // self.sm), max(1, bn // self.sn)  # fragments along each side of the tile
        grids = [(abs(fm // wm - fn // (self.warps // wm)), wm) for wm in _powers(self.warps)
                 if fm % wm == 0 and fn % (self.warps // wm) == 0]
        self.wm = min(grids)[1] if grids else 1
        self.wn = self.warps // self.wm
        self.tm, self.tn = max(1, fm // self.wm), max(1, fn // self.wn)
        self.bm, self.bn = self.wm * self.tm * self.sm, self.wn * self.tn * self.sn
        self.bk = depth_fragments(self.bm, self.bn) * self.sk

    def shared_bytes(self) -> int:
        """Shared memory of the larger order of each tile (see :class:`Tile`) and the staging tiles."""
        a = max(self.bm * (self.bk + PAD), self.bk * (self.bm + PAD))
        b = max(self.bk * (self.bn + PAD), self.bn * (self.bk + PAD))
        return 2 * (a + b) + 4 * self.warps * self.sm * self.sn


def _powers(n: int) -> list[int]:
    """The powers of two up to ``n``."""
    return [1 << i for i in range(n.bit_length()) if 1 << i <= n]


SMALL_GRID = 512  # a GPU matmul with fewer 128 x 128 tiles than this gets smaller ones (more workgroups)
# A k loop this short cannot hide a large tile's prologue and store: MiniLM's 8192 x 1152 x 384 product with
# its bias took 0.152 ms in 128 x 256 tiles, 0.124 in 128 x 128 and 0.095 in 64 x 128 on an H200 (float16; the
# 8192 x 1536 x 384 one with bias and GELU 0.221 / 0.220 / 0.155; benchmarks/RESULTS.md, 2026-12-03 22:10).
SHORT_K = 512
# Tiles that run with fewer warps than 256 invocations give, each warp owning more fragments: more multiply-adds
# per fragment loaded from shared memory. (bm, bn) -> warps.
WARPS: dict[tuple[int, int], int] = {}


def tile(coop: Sequence[int], batch: int, m: int, n: int, k: int) -> tuple[int, ...]:
    """``coop`` with the output tile for a ``batch`` of ``m x n`` products summing over ``k``: 128 x 128,
    narrowed to 64 or 32 on a side the product does not fill (attention's ``weights @ v`` is 128 x 32 per head:
    a 128-wide tile wasted three quarters of its work), with half the rows when the 128 x 128 grid would have
    fewer than :data:`SMALL_GRID` workgroups (an 8192 x 384 product has 192, under two per SM of an H200) or
    when ``k`` is at most :data:`SHORT_K`, and 128 x 256 for the other large products. Every tile keeps at least
    one fragment per warp.

    >>> tile((16, 16, 16, 32), 768, 128, 32, 128), tile((16, 16, 16, 32), 1, 8192, 384, 1536)
    ((16, 16, 16, 32, 128, 32), (16, 16, 16, 32, 64, 128))
    >>> tile((16, 16, 16, 32), 1, 4096, 4096, 4096), tile((16, 16, 16, 32), 1, 8192, 1536, 384)
    ((16, 16, 16, 32, 128, 256), (16, 16, 16, 32, 64, 128))
    """
    sm, sn, _, sub = coop[:4]
    least = (LOCAL // sub) * sm * sn  # one fragment per warp

    def side(extent: int, frag: int) -> int:
        return max(32, frag, min(128, 1 << max(0, extent - 1).bit_length()))  # 32: a 32 x BK tile still
        # gives every invocation a 16-byte load

    bm, bn = side(m, sm), side(n, sn)
    while bm * bn < least:
        bm, bn = (bm * 2, bn) if bm <= bn and bm < 128 else (bm, bn * 2)
    if bm == bn == 128 and (k <= SHORT_K or batch * -(-m // 128) * -(-n // 128) < SMALL_GRID):
        bm = 64
    elif bm == bn == 128 and n >= 256:
        bn = 256  # twice the multiply-adds per fragment loaded: 4096^3 float16 204 -> 223 TFLOP/s on an H200
    warps = WARPS.get((bm, bn))
    return (*coop[:4], bm, bn) if warps is None else (*coop[:4], bm, bn, warps)


def choose(shapes: Iterable[Mapping[str, Any]], a: dt.DType, b: dt.DType, subgroup_size: int,
           features: Iterable[str], shared_bytes: int) -> tuple[int, int, int, int] | None:
    """``(M, N, K, subgroup size)`` of the fragment shape a coopmat kernel for ``a @ b`` should use on a device
    reporting ``shapes`` (dicts as ``kdsl.runtime.list_devices()[i]["cooperative_matrix_shapes"]``), or None
    when none fits: operands of a supported dtype, float32 accumulator and result, subgroup scope, fragments of
    at least 8 x 8 x 8 whose tile fits ``shared_bytes``, and a subgroup size dividing 256 into 2..16 warps.
    Square 16 x 16 fragments win (the most work per load), then the largest.

    >>> choose([], dt.float16, dt.float16, 32, {"cooperative_matrix", "float16"}, 49152) is None
    True
    """
    feats = set(features)
    if a is not b or a.name not in _INPUTS or not {"cooperative_matrix", "float16"} <= feats:
        return None
    if subgroup_size <= 0 or LOCAL % subgroup_size or not 2 <= LOCAL // subgroup_size <= 16:
        return None
    fits = []
    for s in shapes:
        m, n, k = int(s["m"]), int(s["n"]), int(s["k"])
        if (s["a"], s["b"], s["c"], s["result"], s["scope"]) != (a.name, b.name, "float32", "float32", "subgroup"):
            continue
        if min(m, n, k) < 8 or max(m, n) > 64 or k > 64:
            continue
        if Layout((m, n, k, subgroup_size)).shared_bytes() > shared_bytes:
            continue
        fits.append((m == n == k == 16, m * n * k, m, n, k))
    if not fits:
        return None
    *_, m, n, k = max(fits)
    return (m, n, k, subgroup_size)


def with_extensions(head: str, extra: Sequence[str] = ()) -> str:
    """A kernel's header with the cooperative-matrix extensions (:data:`EXTENSIONS`) and ``extra`` enabled."""
    lines = "".join(f"#extension {e} : require\n" for e in (*EXTENSIONS, *extra))
    return head.replace("#version 450\n", "#version 450\n" + lines, 1)


def trips(k: Matmul, kc: int) -> int:
    """Loop iterations of one invocation over one k chunk of ``kc``: one turn per ``BK`` slice (the tile loads
    are unrolled, counted as if they looped, for the operands' helper-function loops) and the epilogue's."""
    g = Layout(k.coop)
    loads = (g.bm + g.bn) * g.bk // g.threads
    return -(-kc // g.bk) * (1 + loads) + g.tm * g.tn * g.sm * g.sn // max(1, g.threads // g.warps)


def launch(k: Matmul) -> tuple[int, int, int]:
    g = Layout(k.coop)
    return (-(-k.n // g.bn), -(-k.m // g.bm), min(k.batch * k.splits, MAX_GROUPS))


def _types(g: Layout) -> tuple[str, str, str]:
    frag = "coopmat<{t}, gl_ScopeSubgroup, {r}, {c}, gl_MatrixUse{u}>"
    return (frag.format(t="float16_t", r=g.sm, c=g.sk, u="A"), frag.format(t="float16_t", r=g.sk, c=g.sn, u="B"),
            frag.format(t="float", r=g.sm, c=g.sn, u="Accumulator"))


def _multiply(g: Layout, ta: Tile, tb: Tile) -> list[str]:
    """One BK slice: each warp's A and B fragments from the shared tiles, then every accumulator's MulAdd."""
    fa, fb, _ = _types(g)
    out = []
    for kk in range(g.bk // g.sk):
        for i in range(g.tm):
            at = ta.at(f"wm * {g.tm * g.sm} + {i * g.sm}", str(kk * g.sk))
            out.append(f"coopMatLoad(fa{i}, As, uint({at}), {ta.stride}u, {ta.layout});")
        for j in range(g.tn):
            at = tb.at(str(kk * g.sk), f"wn * {g.tn * g.sn} + {j * g.sn}")
            out.append(f"coopMatLoad(fb{j}, Bs, uint({at}), {tb.stride}u, {tb.layout});")
        out += [f"acc{i}_{j} = coopMatMulAdd(fa{i}, fb{j}, acc{i}_{j});" for i in range(g.tm) for j in range(g.tn)]
    # one declaration per line: glslang 13 drops the "use" of the second matrix in "T x, y;"
    return [*[f"{fa} fa{i};" for i in range(g.tm)], *[f"{fb} fb{j};" for j in range(g.tn)], *out]


def _epilogue(k: Matmul, g: Layout) -> list[str]:
    """Each fragment through the warp's staging tile into the output, converted to the output dtype. (Eight
    outputs a lane with one 16-byte store was measured no faster on an H200: 2026-12-04 in RESULTS.md.)"""
    size = g.sm * g.sn
    out = ["int cs = warp * " + str(size) + ";"]
    for i in range(g.tm):
        for j in range(g.tn):
            out += [f"coopMatStore(acc{i}_{j}, Cs, uint(cs), {g.sn}u, gl_CooperativeMatrixLayoutRowMajor);",
                    "subgroupMemoryBarrierShared(); subgroupBarrier();",
                    f"for (int e = lane; e < {size}; e += int(gl_SubgroupSize)) {{",
                    f"    int gm = bm + wm * {g.tm * g.sm} + {i * g.sm} + e / {g.sn};",
                    f"    int gn = bn + wn * {g.tn * g.sn} + {j * g.sn} + e % {g.sn};",
                    f"    if (gm < {k.m} && gn < {k.n}) {matmul_epilogue.store(k, 'Cs[cs + e]', 'gm', 'gn')}",
                    "}",
                    "subgroupMemoryBarrierShared(); subgroupBarrier();"]
    return out


def render(k: Matmul, kc: int) -> str:
    """The GLSL of coopmat kernel ``k`` whose k chunks are ``kc`` long (a multiple of its ``BK``)."""
    g = Layout(k.coop)
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    decl, fill, store, aliases = loads(k, g, buffers)
    _, _, tc = _types(g)
    accs = [f"acc{i}_{j}" for i in range(g.tm) for j in range(g.tn)]
    body = [
        "int tid = int(gl_LocalInvocationID.x);",
        "int warp = int(gl_SubgroupID), lane = int(gl_SubgroupInvocationID);",
        f"int wm = warp / {g.wn}, wn = warp % {g.wn};",
        f"int bm = int(gl_WorkGroupID.y) * {g.bm}, bn = int(gl_WorkGroupID.x) * {g.bn};",
        *decl,
        f"for (int zz = int(gl_WorkGroupID.z); zz < {k.batch * k.splits}; zz += {MAX_GROUPS}) {{",
        f"    int bz = zz % {k.batch}, kb = (zz / {k.batch}) * {kc};",
        f"    int ke = kb + min({kc}, {k.k} - kb);",
        *[f"    {tc} {a} = {tc}(0.0);" for a in accs],
        "    int kn = kb;",
        *["    " + x for x in fill],
        f"    for (int k0 = kb; k0 < ke; k0 += {g.bk}) {{",
        "        barrier();",  # every warp is done reading the previous slice
        *["        " + x for x in store],
        "        memoryBarrierShared(); barrier();",
        f"        kn = k0 + {g.bk};",
        "        if (kn < ke) {",  # the next slice's global loads overlap this slice's multiply
        *["            " + x for x in fill],
        "        }",
        *["        " + x for x in _multiply(g, *tiles(k, g))],
        "    }",
        *["    " + x for x in _epilogue(k, g)],
        "    barrier();",
        "}",
    ]
    ta, tb = tiles(k, g)
    shared = [*aliases, f"shared uvec4 As[{ta.size}];", f"shared uvec4 Bs[{tb.size}];",
              f"shared float Cs[{g.warps * g.sm * g.sn}];"]
    epilogue = "".join(x + "\n" for x in matmul_epilogue.function(k, buffers))
    text = epilogue + "\n".join(body)
    head = glsl.header(g.threads, buffers, k.n_words, extra_dtypes=[dt.float16], shared=shared, body_text=text)
    return f"{with_extensions(head)}\n{epilogue}void main() {{\n" + "\n".join("    " + x for x in body) + "\n}\n"
