"""The tiled matrix multiply: 64x64 output tiles per workgroup, 16-deep K slices staged in shared memory,
each of the 256 invocations accumulating a 4x4 block (rows ``ty + 16*i``, columns ``tx + 16*j``, so
neighbouring invocations read neighbouring shared-memory words).

The A and B tiles are loaded through the operands' fused expressions, so ``(x * w) @ kd.exp(y)`` is one kernel.
Batches (of broadcast operands too) run along the grid's z dimension.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.codegen.view import View
    >>> a = ("load", 1, dt.float32, View.contiguous((1, 8, 4)))
    >>> b = ("load", 2, dt.float32, View.contiguous((1, 4, 8)))
    >>> "shared float As" in render(Matmul(1, 8, 8, 4, dt.float32, a, b, 0))
    True
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer, expr_dtype
from kdsl.codegen.kernels import LOCAL, MAX_GROUPS, Matmul

TILE, DEPTH, PER = 64, 16, 4  # output tile edge, K slice, outputs per invocation per dimension


def _tile_load(name: str, e: tuple, shape, idx, bounds: str, layout: str, buffers, t: dt.DType) -> list[str]:
    """Statements that put ``e`` at ``idx`` (or 0 outside ``bounds``) into shared array ``name``."""
    r = ExprRenderer(buffers, prefix=name.lower())
    v = r.value(e, shape, idx)
    c = t.glsl_compute
    return [f"{c} {name}_v = {glsl.zero(t)};", f"if ({bounds}) {{", *["    " + x for x in r.lines],
            f"    {name}_v = {v};", "}", f"{name}[{layout}] = {name}_v;"]


def render(k: Matmul) -> str:
    t = expr_dtype(k.a)
    c = t.glsl_compute
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    per_thread = TILE * DEPTH // LOCAL  # tile elements each invocation loads
    a_load = _tile_load("As", k.a, (k.batch, k.m, k.k), ("bz", "gm", "gk"), f"gm < {k.m} && gk < {k.k}",
                        f"kk * {TILE} + mm", buffers, t)
    b_load = _tile_load("Bs", k.b, (k.batch, k.k, k.n), ("bz", "gk", "gn"), f"gk < {k.k} && gn < {k.n}",
                        f"kk * {TILE} + nn", buffers, t)
    rng = range(PER)
    zero = glsl.zero(t)
    # Scalars, fully unrolled: private arrays indexed in loops can end up in memory (lavapipe keeps them so).
    fma = [f"acc{i}{j} += av{i} * bv{j};" for i in rng for j in rng]
    stores = []
    for i in rng:
        for j in rng:
            value = glsl.store_value(k.out_dtype, glsl.narrow(k.out_dtype, f"acc{i}{j}"))
            stores += [f"gm = bm + ty + {16 * i}; gn = bn + tx + {16 * j};",
                       f"if (gm < {k.m} && gn < {k.n}) b0.d[(bz * {k.m} + gm) * {k.n} + gn] = {value};"]
    body = [
        "int tid = int(gl_LocalInvocationID.x);",
        "int tx = tid % 16, ty = tid / 16;",
        f"int bm = int(gl_WorkGroupID.y) * {TILE}, bn = int(gl_WorkGroupID.x) * {TILE};",
        f"for (int bz = int(gl_WorkGroupID.z); bz < {k.batch}; bz += {MAX_GROUPS}) {{",
        "    " + " ".join(f"{c} acc{i}{j} = {zero};" for i in rng for j in rng),
        f"    for (int k0 = 0; k0 < {k.k}; k0 += {DEPTH}) {{",
        f"        for (int q = 0; q < {per_thread}; q++) {{",
        f"            int e = tid + q * {LOCAL};",
        f"            int mm = e / {DEPTH}, kk = e % {DEPTH};",
        "            int gm = bm + mm, gk = k0 + kk;",
        *["            " + x for x in a_load],
        f"            kk = e / {TILE}; int nn = e % {TILE};",
        "            gk = k0 + kk; int gn = bn + nn;",
        *["            " + x for x in b_load],
        "        }",
        "        memoryBarrierShared(); barrier();",
        f"        for (int kk = 0; kk < {DEPTH}; kk++) {{",
        "            " + " ".join(f"{c} av{i} = As[kk * {TILE} + ty + {16 * i}];" for i in rng),
        "            " + " ".join(f"{c} bv{j} = Bs[kk * {TILE} + tx + {16 * j}];" for j in rng),
        *["            " + " ".join(fma[r * PER:(r + 1) * PER]) for r in rng],
        "        }",
        "        memoryBarrierShared(); barrier();",
        "    }",
        "    int gm, gn;",
        *["    " + x for x in stores],
        "}",
    ]
    shared = [f"shared {c} As[{TILE * DEPTH}];", f"shared {c} Bs[{TILE * DEPTH}];"]
    text = "\n".join(body)
    return (f"{glsl.header(LOCAL, buffers, k.n_words, shared=shared, body_text=text)}\nvoid main() {{\n"
            + "\n".join("    " + x for x in body) + "\n}\n")


def launch(k: Matmul) -> tuple[int, int, int]:
    return (-(-k.n // TILE), -(-k.m // TILE), min(k.batch, MAX_GROUPS))
