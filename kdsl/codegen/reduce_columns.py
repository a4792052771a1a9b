"""The "cols" and "rows" modes of reduction kernels: column reductions (``X.sum(axis=0)``), where a workgroup
takes neighbouring outputs and its lanes stride through a block of rows, and their mirror for many short rows.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import load
    >>> cols_vec4(load(1, dt.float32, View.contiguous((1000, 64))), (1000, 64), (0,))
    True
"""

from __future__ import annotations

import math

from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.codegen.reduce_combine import combine, identity
from kdsl.codegen.reduce_parts import VEC4, Buffers, ReduceParts, unrolled
from kdsl.codegen.reduce_workgroup import subgroup_ok
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Reduce
from kdsl.ir.view import View


def cols_vec4(e: Expr, shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether a "cols" reduction of ``e`` reads four neighbouring outputs per invocation as one 16-byte load:
    ``e`` is one 32-bit load, contiguous over ``shape`` at a literal offset divisible by four, the reduced axes
    lead and the kept ones (a whole number of quads) trail: ``X.sum(axis=0)`` of a C-order matrix.

    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import load
    >>> x = load(1, dt.float32, View.contiguous((1000, 64)))
    >>> cols_vec4(x, (1000, 64), (0,)), cols_vec4(x, (1000, 64), (1,))
    (True, False)
    """
    kept = math.prod(n for a, n in enumerate(shape) if a not in axes)
    if e.op != "load" or e.dtype.glsl_storage not in VEC4 or e.dtype.glsl_storage != e.dtype.glsl_compute or \
            kept % 4 or tuple(axes) != tuple(range(len(axes))) or (len(e.arg) > 2 and e.arg[2] is not None):
        return False
    view = e.arg[1]
    return isinstance(view, View) and view.offset % 4 == 0 and \
        view.canonical() == View.contiguous(shape, view.offset).canonical()


def _cols_vec4_body(k: Reduce, p: ReduceParts, buffers: Buffers) -> tuple[str, list[str]]:
    """"cols" mode with 16-byte loads (:func:`cols_vec4`): invocation ``c`` of a tile reads output quad
    ``g_t * cols + c`` of each row, four rows a turn (four loads in flight), into ``acc``..``acc3`` (one per
    output of the quad); the lanes combine through a shared-memory tree of four values each."""
    e = k.expr
    slot, base, quads = e.arg[0], e.arg[1].offset // 4, p.o // 4
    w, lanes = k.cols, LOCAL // k.cols
    tiles = -(-quads // w)
    total, chunk = tiles * k.splits, -(-p.n // k.splits)
    start, end = (f"g_p * {chunk} + lane", f"min({p.n}, g_p * {chunk} + {chunk})") if k.splits > 1 else \
        ("lane", str(p.n))
    vt, accs = VEC4[e.dtype.glsl_compute], ("acc", "acc1", "acc2", "acc3")

    def fold(v: str) -> list[str]:
        return [f"{a} = {combine(k.op, p.t, a, f'{v}.{lane}')};" for a, lane in zip(accs, "xyzw", strict=True)]

    def load(row: str) -> str:
        return f"b{slot}v.d[{base} + ({row}) * {quads} + cq]"

    loop = [f"int r = {start};", f"int r_end = {end};",
            f"for (; r < r_end - {3 * lanes}; r += {4 * lanes}) {{",
            *[f"    {vt} u{u} = {load(f'r + {u * lanes}')};" for u in range(4)],
            *["    " + x for u in range(4) for x in fold(f"u{u}")], "}",
            f"for (; r < r_end; r += {lanes}) {{ {vt} u0 = {load('r')}; {' '.join(fold('u0'))} }}"]
    barrier = "memoryBarrierShared(); barrier();"
    tree = []
    if lanes > 1:
        step = [f"s_v[4 * tid + {j}] = {combine(k.op, p.t, f's_v[4 * tid + {j}]', f's_v[4 * (tid + h * {w}) + {j}]')};"
                for j in range(4)]
        tree = [*[f"s_v[4 * tid + {j}] = {a};" for j, a in enumerate(accs)], barrier,
                f"for (int h = {lanes // 2}; h > 0; h >>= 1) {{", f"    if (lane < h) {{ {' '.join(step)} }}",
                f"    {barrier}", "}", *[f"{a} = s_v[4 * tid + {j}];" for j, a in enumerate(accs)]]
    store = []
    for j, a in enumerate(accs):
        er = ExprRenderer(buffers, prefix=f"q{j}")
        er.lines.append(f"int col{j} = cq * 4 + {j};")
        kept_idx = index_vars(er, f"col{j}", p.kept_shape)
        out_index = f"g_p * {p.o} + col{j}" if k.splits > 1 else f"col{j}"
        store += ["{", *["    " + x for x in er.lines + ([f"acc = {a};"] if j else []) +
                         p.store(k, out_index, kept_idx, buffers, f"col{j}")], "}"]
    body = [f"int g_t = g % {tiles};", f"int g_p = g / {tiles};", f"int cq = g_t * {w} + c;", *p.init(),
            *[f"{p.t.glsl_compute} {a} = {identity(k.op, p.t)};" for a in accs[1:]],
            f"if (cq < {quads}) {{", *["    " + x for x in loop], "}", *tree,
            f"if (lane == 0 && cq < {quads}) {{", *["    " + x for x in store], "}"] + ([barrier] if lanes > 1 else [])
    text = "\n".join(["int tid = int(gl_LocalInvocationID.x);", f"int c = tid % {w};", f"int lane = tid / {w};",
                      f"for (int g = int(gl_WorkGroupID.x); g < {total}; g += {k.groups}) {{",
                      *["    " + x for x in body], "}"])
    buffers[slot] = e.dtype
    shared = [f"shared {p.t.glsl_compute} s_v[{4 * LOCAL}];"] if lanes > 1 else []
    return text, shared + [f"layout(std430, set = 0, binding = {slot}) readonly buffer B{slot}v "
                           f"{{ {vt} d[]; }} b{slot}v;"]


def rows_shuffle(k: Reduce, p: ReduceParts) -> bool:
    """Whether a "rows" reduction combines each output's lanes by subgroup shuffles (:func:`cols_body`): the
    device reduces with subgroups (``k.subgroup``), the type is one they take, and an output has several
    lanes."""
    return k.mode == "rows" and bool(k.subgroup) and not p.arg and subgroup_ok(k.op, p.t) and k.cols < LOCAL


def cols_body(k: Reduce, p: ReduceParts, outer: ExprRenderer, buffers: Buffers) -> tuple[str, list[str]]:
    """"cols" mode: workgroup ``g`` takes outputs ``g_t * cols ...`` (invocation ``tid`` the output
    ``tid % cols``, so neighbouring invocations read neighbouring columns) of reduced block ``g_p``; its
    ``LOCAL // cols`` lanes stride through the block (four loads in flight each), and a shared-memory tree
    over the lanes combines them. Output tiles vary fastest over the workgroups: those running together
    read the same rows.

    "rows" mode is its mirror for many short reductions along the contiguous axis (``X.sum(axis=1)``,
    ``X @ w`` of a tall ``X``): invocation ``tid`` is lane ``tid % lanes`` of output ``tid / lanes``, so the
    lanes of one output read neighbouring elements of its row."""
    if k.mode == "cols" and cols_vec4(k.expr, k.shape, k.axes):
        return _cols_vec4_body(k, p, buffers)
    w, lanes = k.cols, LOCAL // k.cols
    rows = k.mode == "rows"
    tiles = -(-p.o // w)
    total, chunk = tiles * k.splits, -(-p.n // k.splits)
    head = [f"int g_t = g % {tiles};", f"int g_p = g / {tiles};", f"int col = g_t * {w} + c;"]
    kept_idx = index_vars(outer, "col", p.kept_shape) if p.kept_shape else ()
    start, end = (f"g_p * {chunk} + lane", f"min({p.n}, g_p * {chunk} + {chunk})") if k.splits > 1 else \
        ("lane", str(p.n))
    init = p.init() + [f"{p.t.glsl_compute} acc{u} = {identity(k.op, p.t)};" for u in (1, 2, 3)]
    loop = unrolled(k, p, kept_idx, buffers, start, end, lanes, "col")
    barrier = "memoryBarrierShared(); barrier();"
    tree = []
    if lanes > 1:
        step = combine(k.op, p.t, "s_v[tid]", "s_v[tid + h]" if rows else f"s_v[tid + h * {w}]")
        tree = ["s_v[tid] = acc;", barrier, f"for (int h = {lanes // 2}; h > 0; h >>= 1) {{",
                f"    if (lane < h) {{ s_v[tid] = {step}; }}", f"    {barrier}", "}", "acc = s_v[tid];"]
    out_index = f"g_p * {p.o} + col" if k.splits > 1 else "col"
    store = p.store(k, out_index, kept_idx, buffers, "col")
    body = head + outer.lines + init + [f"if (col < {p.o}) {{", *["    " + x for x in loop], "}"]
    place = [f"int c = tid / {lanes};", f"int lane = tid % {lanes};"] if rows else \
        [f"int c = tid % {w};", f"int lane = tid / {w};"]
    if rows_shuffle(k, p):
        # the lanes of an output are neighbours in one subgroup (placed by subgroup, whatever the driver's
        # mapping of invocations to subgroups): a butterfly of shuffles combines them, no shared memory and no
        # barrier (the tree stays for subgroups narrower than the lanes); lane 0 gets the tree's exact sum
        butterfly = combine(k.op, p.t, "acc", "subgroupShuffleXor(acc, uint(h))")
        tree = ["if (sg) {", f"    for (int h = {lanes // 2}; h > 0; h >>= 1) {{ acc = {butterfly}; }}",
                "} else {", *["    " + x for x in tree], "}"]
        place = [f"bool sg = gl_SubgroupSize >= {lanes}u;",
                 f"int c = sg ? int(gl_SubgroupID * (gl_SubgroupSize / {lanes}u) + gl_SubgroupInvocationID / "
                 f"{lanes}u) : tid / {lanes};",
                 f"int lane = sg ? int(gl_SubgroupInvocationID % {lanes}u) : tid % {lanes};"]
        tail = ["if (!sg) { " + barrier + " }"]
    else:
        tail = [barrier] if lanes > 1 else []
    body += tree + [f"if (lane == 0 && col < {p.o}) {{", *["    " + x for x in store], "}"] + tail
    text = "\n".join(["int tid = int(gl_LocalInvocationID.x);", *place,
                      f"for (int g = int(gl_WorkGroupID.x); g < {total}; g += {k.groups}) {{",
                      *["    " + x for x in body], "}"])
    return text, ([f"shared {p.t.glsl_compute} s_v[{LOCAL}];"] if lanes > 1 else [])
