"""The matrix multiply for CPU drivers (lavapipe): no shared memory, no barriers, few loads.

lavapipe (Mesa 22.3) turns every buffer load into a loop over the 8 lanes of a SIMD step, one bounds-checked
scalar load per lane and per vector component (~100 x86 instructions), whatever the component's width: a
``u64vec4`` load brings 8 floats per lane for the price of 4 float loads. Arithmetic is cheap beside it, but
``subgroupBroadcast`` is not (lavapipe scans the lanes for each one); ``subgroupShuffle`` with a constant lane is
one permute. So (measured in docs/matmul.md):

* a subgroup of ``S`` lanes owns an output tile of ``R`` rows by ``S * C`` columns; lane ``l`` holds rows
  ``m0 + P*l + q`` (``P = R / S``) and columns ``n0 + C*l + j`` in ``R * C`` accumulators;
* per loop iteration ``KU`` = 4 k steps: each lane reads its ``P`` rows of A and ``C`` columns of B for the 4
  steps, then every row value is shuffled across the subgroup (``subgroupShuffle(a, lane)``) and multiplied
  into the lane's ``C`` accumulators: 32 x 8 x 4 = 1024 multiply-adds per iteration;
* a plain 32-bit operand (a buffer read, no fused expression) whose contiguous axis is the one a lane walks,
  suitably aligned, is read two words per load component through a 64-bit alias of its buffer (A along k: a
  ``u64vec2`` holds the 4 steps of one row; B along n: a ``u64vec4`` holds the lane's 8 columns; transposed
  operands along m or k likewise); anything else is read element by element through its fused expression,
  clamped to the last valid row / column at the edges (those lanes store nothing) and zeroed past the end of k;
* consecutive tiles walk down a band of ``LOCAL / S`` row blocks before moving right, so the subgroups of one
  workgroup share their B columns (from the core's cache);
* batches and k chunks are tiles like any other, ``splits`` as in :mod:`kdsl.codegen.matmul`; workgroups of 64
  invocations grid-stride over the tiles.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.kernels import Matmul
    >>> a = load(1, dt.float32, View.contiguous((1, 100, 32)))
    >>> b = load(2, dt.float32, View.contiguous((1, 32, 24)))
    >>> k = Matmul(1, 100, 24, 32, dt.float32, a, b, 0, False, groups=1, lanes=8, vec64=True)
    >>> geometry(k), tiles(k)
    ((32, 3, 8), 4)
    >>> src = render(k, 32)
    >>> "subgroupShuffle(a3_0, 7u)" in src, "u64vec2 wa0 = b1w2.d[" in src  # A along k: 4 words a load
    (True, True)
"""

from __future__ import annotations

from typing import NamedTuple

from kdsl import dtype as dt
from kdsl.codegen import glsl, matmul_epilogue
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.operand_order import groups_along
from kdsl.errors import TooLargeError
from kdsl.ir.expr import Expr, offset_of
from kdsl.ir.kernels import MAX_GROUPS, Matmul
from kdsl.ir.view import View

LOCAL_CPU = 64  # invocations per workgroup of this kernel
ROWS, COLS = 32, 8  # the largest tile: rows per subgroup, columns per lane (64 x 8: no faster, compiles 2-3x longer)
KU = 4  # k steps per loop iteration (one u64vec2 of A per row; 8 steps ran no faster)
COMPUTE_TYPES = ("float", "int", "uint")  # compute types subgroupShuffle takes without further extensions
WORDS = {dt.float32: "uintBitsToFloat({})", dt.int32: "int({})", dt.uint32: "{}"}  # 32-bit word -> value
VEC64 = {1: "uint64_t", 2: "u64vec2", 4: "u64vec4"}  # 64-bit load types by components


# lavapipe's LLVM compiles this kernel in ~2 s at 32 x 8 (against <1 s for the 4x4 block kernel): worth it only
# for products this large (1024**3 runs in ~0.15 s of CPU instead of ~5 s), so smaller ones keep the block kernel.
MIN_WORK = 1 << 26


def eligible(a: dt.DType, b: dt.DType, lanes: int, work: int) -> bool:
    """Whether operands of these dtypes can use this kernel on a device with subgroups of ``lanes``, for a
    product of ``work`` multiply-adds.

    >>> eligible(dt.float32, dt.float32, 8, 1024**3), eligible(dt.float32, dt.float32, 8, 100**3)
    (True, False)
    """
    return (work >= MIN_WORK and lanes >= 2 and LOCAL_CPU % lanes == 0 and a.glsl_compute in COMPUTE_TYPES
            and b.glsl_compute == a.glsl_compute and a is not dt.bool_)


def geometry(k: Matmul) -> tuple[int, int, int]:
    """(rows per tile R, columns per lane C, lanes S): as large as the output needs, at most ROWS x COLS."""
    s = k.lanes
    return min(ROWS, -(-k.m // s) * s), min(COLS, -(-k.n // s)), s


def tiles(k: Matmul) -> int:
    r, c, s = geometry(k)
    return k.batch * k.splits * -(-k.m // r) * -(-k.n // (s * c))


def groups(k: Matmul, budget: int, trips: int, max_groups: int = 512) -> int:
    """Workgroups: one subgroup per tile up to ``max_groups``, more if an invocation would otherwise take
    more than ``budget`` loop iterations (``trips`` per tile)."""
    per_group = LOCAL_CPU // k.lanes
    turns = max(1, budget // max(trips, 1))
    floor = -(-tiles(k) // (per_group * turns))
    if floor > MAX_GROUPS:
        raise TooLargeError(f"a matmul of {tiles(k)} tiles of {trips} loop iterations each needs {floor} "
                            f"workgroups, more than the {MAX_GROUPS} one dispatch has; split the operands")
    return max(1, min(-(-tiles(k) // per_group), max(max_groups, floor)))


def trips(kc: int) -> int:
    """Loop iterations of one tile over a k chunk of ``kc``."""
    return -(-kc // KU) + 1


def wide_view(e: Expr, shape: tuple[int, int, int], axis: int, width: int) -> tuple[int, View] | None:
    """(slot, view) when operand ``e`` is a plain 32-bit buffer read, contiguous along ``axis`` of ``shape``, whose
    groups of ``width`` elements along it start on ``width``-element boundaries: it can then be read ``width``
    words per load through a 64-bit alias of its buffer.

    >>> from kdsl.ir.expr import load
    >>> a = load(1, dt.float32, View.contiguous((1, 8, 12)))
    >>> wide_view(a, (1, 8, 12), 2, 4)[0], wide_view(a, (1, 8, 12), 2, 8), wide_view(a, (1, 8, 12), 1, 4)
    (1, None, None)
    """
    if width not in (2, 4, 8) or e.op != "load" or e.dtype not in WORDS or offset_of(e.arg)[0] is not None:
        return None
    view = e.arg[1]
    if not groups_along(view, shape, axis, width) or view.offset % width:
        return None
    return e.arg[0], view


class _Reads(NamedTuple):
    """One operand's reads for a loop iteration: statements, the value names, and 64-bit aliases to declare."""
    lines: list[str]
    values: dict[tuple[int, int], str]  # (row q, step u) for A, (step u, column j) for B -> GLSL value
    aliases: list[str]


def _words(slot: int, dtype: dt.DType, view: View, width: int, idx: list[str],
           name: str) -> tuple[list[str], list[str]]:
    """Statements reading ``width`` consecutive words at ``idx`` through the buffer's 64-bit alias, and the
    ``width`` values."""
    comps = width // 2
    lines = [f"{VEC64[comps]} {name} = b{slot}w{comps}.d[({view.index_expr(idx)}) / {width}];"]
    values = []
    for c in range(comps):
        part = name if comps == 1 else f"{name}.{'xyzw'[c]}"
        lines.append(f"uvec2 {name}_{c} = unpackUint2x32({part});")
        values += [WORDS[dtype].format(f"{name}_{c}.{h}") for h in "xy"]
    return lines, values


def _alias(slot: int, width: int) -> str:
    """The 64-bit alias of buffer ``slot`` that reads ``width`` words a load (``b<slot>w<components>``)."""
    comps = width // 2
    return (f"layout(std430, set = 0, binding = {slot}) readonly buffer B{slot}w{comps} "
            f"{{ {VEC64[comps]} d[]; }} b{slot}w{comps};")


def _wide_reads(wide: tuple[int, View], dtype: dt.DType, width: int, loads: list[tuple[list[str], str]],
                buffers: dict[int, dt.DType]) -> _Reads:
    """``width`` words a load through the 64-bit alias of ``wide`` (its buffer slot and view), one load per
    ``(index names, variable name)`` of ``loads``: values keyed ``(load, word)``, which the caller maps onto its
    operand's ``(q, u)`` or ``(u, j)``."""
    slot, view = wide
    buffers[slot] = dtype
    lines: list[str] = []
    values: dict[tuple[int, int], str] = {}
    for i, (idx, name) in enumerate(loads):
        more, vals = _words(slot, dtype, view, width, idx, name)
        lines += more
        values.update({(i, w): v for w, v in enumerate(vals)})
    return _Reads(lines, values, [_alias(slot, width)])


def _read_a(k: Matmul, p: int, guard: bool, buffers: dict[int, dt.DType]) -> _Reads:
    """A's values for rows ``q < p`` of the lane and steps ``u < KU``: along k (4 steps a load), along m (the
    lane's ``p`` rows a load) or element by element."""
    shape = (k.batch, k.m, k.k)
    along_k = wide_view(k.a, shape, 2, KU) if k.vec64 else None
    along_m = wide_view(k.a, shape, 1, p) if k.vec64 and along_k is None else None
    if along_k is not None:  # load q: row q's steps
        return _wide_reads(along_k, k.a.dtype, KU, [(["bz", f"mi{q}", "kk"], f"wa{q}") for q in range(p)], buffers)
    if along_m is not None:  # load u: step u's rows
        reads = _wide_reads(along_m, k.a.dtype, p, [(["bz", "mv", f"k{u}"], f"wm{u}") for u in range(KU)], buffers)
        return reads._replace(values={(q, u): _zeroed(v, u, guard, k.a.dtype) for (u, q), v in reads.values.items()})
    r = ExprRenderer(buffers, prefix="va")
    values = {(q, u): _zeroed(r.value(k.a, shape, ("bz", f"mi{q}", f"k{u}")), u, guard, k.a.dtype)
              for u in range(KU) for q in range(p)}
    return _Reads(r.lines, values, [])


def _read_b(k: Matmul, c: int, guard: bool, buffers: dict[int, dt.DType]) -> _Reads:
    """B's values for steps ``u < KU`` and the lane's columns ``j < c``: along n (the lane's ``c`` columns a
    load), along k (4 steps a load) or element by element."""
    shape = (k.batch, k.k, k.n)
    along_n = wide_view(k.b, shape, 2, c) if k.vec64 else None
    along_k = wide_view(k.b, shape, 1, KU) if k.vec64 and along_n is None else None
    if along_n is not None:  # load u: step u's columns
        reads = _wide_reads(along_n, k.b.dtype, c, [(["bz", f"k{u}", "nv"], f"wn{u}") for u in range(KU)], buffers)
        return reads._replace(values={(u, j): _zeroed(v, u, guard, k.b.dtype) for (u, j), v in reads.values.items()})
    if along_k is not None:  # load j: column j's steps
        reads = _wide_reads(along_k, k.b.dtype, KU, [(["bz", "kk", f"ni{j}"], f"wk{j}") for j in range(c)], buffers)
        return reads._replace(values={(u, j): v for (j, u), v in reads.values.items()})
    r = ExprRenderer(buffers, prefix="vb")
    values = {(u, j): _zeroed(r.value(k.b, shape, ("bz", f"k{u}", f"ni{j}")), u, guard, k.b.dtype)
              for u in range(KU) for j in range(c)}
    return _Reads(r.lines, values, [])


def _zeroed(value: str, u: int, guard: bool, dtype: dt.DType) -> str:
    """``value``, or zero for step ``u`` past the end of the chunk when k is not a multiple of KU (both operands
    are zeroed there: the clamped element read in its place may be an infinity)."""
    if not guard or u == 0:
        return value
    return f"(kk + {u} < ke ? {value} : {dtype.glsl_compute}(0))"


def _tile_origin(k: Matmul, r: int, c: int, s: int) -> list[str]:
    """Statements setting ``zz`` (split x batch), ``m0`` and ``n0`` from tile ``t``: bands of ``LOCAL / S`` row
    blocks, walked down each column of blocks, so a workgroup's subgroups share their columns of B."""
    tm, tn = -(-k.m // r), -(-k.n // (s * c))
    band = LOCAL_CPU // s
    return [f"int zz = t / {tm * tn}, mn = t % {tm * tn};",
            f"int band = mn / {band * tn}, inband = mn % {band * tn};",
            f"int height = min({band}, {tm} - band * {band});",
            f"int m0 = (band * {band} + inband % height) * {r}, n0 = (inband / height) * {s * c};"]


def _stores(k: Matmul, r: int, c: int, ct: str) -> list[str]:
    """The tile's stores: unrolled, or with an epilogue a loop over the accumulators copied into a private
    array, so that the epilogue's code appears once rather than ``r * c`` times (lavapipe's LLVM ran out of
    memory compiling 256 copies of a float16 GELU)."""
    if k.epilogue is None:
        return [f"if (m0 + {i} < {k.m} && n0 + {c} * lane + {j} < {k.n}) "
                + matmul_epilogue.store(k, f"acc{i}_{j}", f"m0 + {i}", f"n0 + {c} * lane + {j}")
                for i in range(r) for j in range(c)]
    return [f"{ct} accs[{r * c}];", *[f"accs[{i * c + j}] = acc{i}_{j};" for i in range(r) for j in range(c)],
            f"for (int q = 0; q < {r * c}; q++) {{",
            f"    int gm = m0 + q / {c}, gn = n0 + {c} * lane + q % {c};",
            f"    if (gm < {k.m} && gn < {k.n}) {matmul_epilogue.store(k, 'accs[q]', 'gm', 'gn')}",
            "}"]


def epilogue_trips(k: Matmul) -> int:
    """Loop iterations of one tile's stores (the loop over the accumulators with an epilogue)."""
    r, c, _ = geometry(k)
    return r * c if k.epilogue is not None else 0


def render(k: Matmul, kc: int) -> str:
    """The GLSL of CPU matmul ``k`` whose k chunks are ``kc`` long."""
    r, c, s = geometry(k)
    p = r // s
    ct = k.a.dtype.glsl_compute
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    guard = k.k % KU != 0
    ra, rb = _read_a(k, p, guard, buffers), _read_b(k, c, guard, buffers)
    step = [*[f"int k{u} = {f'min(kk + {u}, ke - 1)' if guard else f'kk + {u}'};" for u in range(KU)],
            *ra.lines, *rb.lines]
    step += [f"{ct} b{u}_{j} = {rb.values[(u, j)]};" for u in range(KU) for j in range(c)]
    step += [f"{ct} a{q}_{u} = {ra.values[(q, u)]};" for u in range(KU) for q in range(p)]
    for i in range(r):  # row i of the tile is row i % p of lane i / p
        step.append("{ " + " ".join(f"{ct} x{u} = subgroupShuffle(a{i % p}_{u}, {i // p}u);" for u in range(KU)))
        step += ["    " + " ".join(f"acc{i}_{j} += x{u} * b{u}_{j};" for u in range(KU)) for j in range(c)]
        step.append("}")
    stores = _stores(k, r, c, ct)
    per_group = LOCAL_CPU // s
    body = [
        "int lane = int(gl_SubgroupInvocationID);",
        f"for (int t = int(gl_WorkGroupID.x) * {per_group} + int(gl_SubgroupID); t < {tiles(k)}; "
        f"t += {k.groups * per_group}) {{",
        *["    " + x for x in _tile_origin(k, r, c, s)],
        f"    int bz = zz % {k.batch}, kb = (zz / {k.batch}) * {kc};",
        f"    int ke = kb + min({kc}, {k.k} - kb);",
        f"    int mv = min(m0 + {p} * lane, {max(k.m - p, 0)}), nv = min(n0 + {c} * lane, {max(k.n - c, 0)});",
        *[f"    int mi{q} = min(m0 + {p} * lane + {q}, {k.m - 1});" for q in range(p)],
        *[f"    int ni{j} = min(n0 + {c} * lane + {j}, {k.n - 1});" for j in range(c)],
        *[f"    {ct} " + ", ".join(f"acc{i}_{j} = {ct}(0)" for j in range(c)) + ";" for i in range(r)],
        f"    for (int kk = kb; kk < ke; kk += {KU}) {{",
        *["        " + x for x in step],
        "    }",
        *["    " + x for x in stores],
        "}",
    ]
    epilogue = "".join(x + "\n" for x in matmul_epilogue.function(k, buffers))
    text = epilogue + "\n".join(body)
    aliases = list(dict.fromkeys(ra.aliases + rb.aliases))
    head = glsl.header(LOCAL_CPU, buffers, k.n_words, extra_dtypes=[dt.uint64] if aliases else [],
                       shared=aliases, body_text=text)
    head = head.replace("#version 450\n", "#version 450\n#extension GL_KHR_shader_subgroup_shuffle : require\n", 1)
    return f"{head}\n{epilogue}void main() {{\n" + "\n".join("    " + x for x in body) + "\n}\n"
