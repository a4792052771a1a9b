"""The matrix multiply for CPU drivers (lavapipe): no shared memory, no barriers, few loads.

On lavapipe every buffer or shared-memory load costs about 60 ns per 8-lane SIMD step (each lane is loaded
and bounds-checked on its own), against a few ns for an FMA or a subgroup broadcast (a vector lane
extract), so the kernel is built to reuse each loaded value as often as it can (measured in
docs/matmul.md). A subgroup of ``S`` lanes owns an output tile of ``R`` rows by ``S * C`` columns; per k step
every lane loads ``R / S`` elements of A (its rows ``lane, lane + S, ...``) and ``C`` of B (its columns),
then each of the ``R`` rows is broadcast across the subgroup and multiplied into the lane's ``C``
accumulators: ``R * C`` FMAs for ``R / S + C`` loads per lane (256 for 12 with R = 32, C = 8, S = 8;
the 4x4 block kernel does 16 for 8). The accumulators live in registers and the stack, which costs next
to nothing beside a buffer load.

Operands are read through their fused expressions (clamped to the last valid row / column at the edges;
those lanes store nothing); batches and k chunks are tiles like any other, ``splits`` as in
:mod:`kdsl.codegen.matmul`. Workgroups of 64 invocations grid-stride over the tiles.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.kernels import Matmul
    >>> a = load(1, dt.float32, View.contiguous((1, 100, 30)))
    >>> b = load(2, dt.float32, View.contiguous((1, 30, 20)))
    >>> k = Matmul(1, 100, 20, 30, dt.float32, a, b, 0, False, groups=1, lanes=8)
    >>> geometry(k), tiles(k)
    ((32, 3, 8), 4)
    >>> "subgroupBroadcast(a0, 7u)" in render(k, 30)
    True
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.ir.kernels import MAX_GROUPS, Matmul

LOCAL_CPU = 64  # invocations per workgroup of this kernel
ROWS, COLS = 32, 8  # the largest tile: rows per subgroup, columns per lane (64 x 8 runs no faster, compiles 4x longer)
COMPUTE_TYPES = ("float", "int", "uint")  # compute types subgroupBroadcast takes without further extensions


# lavapipe's LLVM compiles this kernel in ~8 s at 32 x 8 (against <1 s for the 4x4 block kernel): worth it only
# for products this large (1024**3 runs in ~0.5 s of CPU instead of ~5 s), so smaller ones keep the block kernel.
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
        raise ValueError(f"a matmul of {tiles(k)} tiles of {trips} loop iterations each needs {floor} "
                         f"workgroups, more than the {MAX_GROUPS} one dispatch has; split the operands")
    return max(1, min(-(-tiles(k) // per_group), max(max_groups, floor)))


def render(k: Matmul, kc: int) -> str:
    """The GLSL of CPU matmul ``k`` whose k chunks are ``kc`` long."""
    r, c, s = geometry(k)
    ct = k.a.dtype.glsl_compute
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    tm, tn = -(-k.m // r), -(-k.n // (s * c))
    ra = ExprRenderer(buffers, prefix="va")
    av = [ra.value(k.a, (k.batch, k.m, k.k), ("bz", f"mi{q}", "kk")) for q in range(r // s)]
    bv = [ra.value(k.b, (k.batch, k.k, k.n), ("bz", "kk", f"ni{j}")) for j in range(c)]
    step = [*ra.lines, *[f"{ct} a{q} = {v};" for q, v in enumerate(av)],
            *[f"{ct} b{j} = {v};" for j, v in enumerate(bv)]]
    for i in range(r):
        step.append(f"{ct} x{i} = subgroupBroadcast(a{i // s}, {i % s}u); "
                    + " ".join(f"acc{i}_{j} += x{i} * b{j};" for j in range(c)))
    stores = []
    for i in range(r):
        for j in range(c):
            value = glsl.store_value(k.out_dtype, glsl.narrow(k.out_dtype, f"acc{i}_{j}"))
            stores.append(f"if (m0 + {i} < {k.m} && n0 + lane + {s * j} < {k.n}) "
                          f"b0.d[(zz * {k.m} + m0 + {i}) * {k.n} + n0 + lane + {s * j}] = {value};")
    per_group = LOCAL_CPU // s
    body = [
        "int lane = int(gl_SubgroupInvocationID);",
        f"for (int t = int(gl_WorkGroupID.x) * {per_group} + int(gl_SubgroupID); t < {tiles(k)}; "
        f"t += {k.groups * per_group}) {{",
        f"    int zz = t / {tm * tn}, mn = t % {tm * tn};",
        f"    int bz = zz % {k.batch}, kb = (zz / {k.batch}) * {kc};",
        f"    int ke = kb + min({kc}, {k.k} - kb);",
        f"    int m0 = (mn / {tn}) * {r}, n0 = (mn % {tn}) * {s * c};",
        *[f"    int mi{q} = min(m0 + lane + {s * q}, {k.m - 1});" for q in range(r // s)],
        *[f"    int ni{j} = min(n0 + lane + {s * j}, {k.n - 1});" for j in range(c)],
        *[f"    {ct} " + ", ".join(f"acc{i}_{j} = {ct}(0)" for j in range(c)) + ";" for i in range(r)],
        "    for (int kk = kb; kk < ke; kk++) {",
        *["        " + x for x in step],
        "    }",
        *["    " + x for x in stores],
        "}",
    ]
    text = "\n".join(body)
    head = glsl.header(LOCAL_CPU, buffers, k.n_words, body_text=text)
    head = head.replace("#version 450\n", "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n", 1)
    return f"{head}\nvoid main() {{\n" + "\n".join("    " + x for x in body) + "\n}\n"
