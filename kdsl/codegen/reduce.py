"""Reduction kernels (sum, prod, max, min, argmax, argmin over any axes) with a fused elementwise prologue
(the reduced expression) and epilogue (what consumes the result).

"group" mode gives each output a workgroup: every invocation folds a strided share of the reduced elements,
then a shared-memory tree combines the 256 partial results. "thread" mode gives each output one invocation
(short reductions, or reductions whose innermost axis is kept, where neighbouring invocations then read
neighbouring memory). "cols" mode serves column reductions (``X.sum(axis=0)``): a workgroup takes neighbouring
outputs and lanes stride through a block of rows, so neighbouring invocations read neighbouring memory; "rows"
mode is its mirror for many short rows. The scheduler picks splits and launch sizes that keep every invocation's
loop trips under the device's loop budget; positions past 2**31 are counted in 64-bit integers.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> k = Reduce("sum", (4, 300), (1,), dt.float32, load(1, dt.float32, View.contiguous((4, 300))),
    ...            0, "group", 1, 4, None)
    >>> "barrier();" in render(k)
    True
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import counted_loop, grid_loop, index_vars
from kdsl.codegen.reduce_columns import cols_body, rows_shuffle
from kdsl.codegen.reduce_combine import better, combine, identity
from kdsl.codegen.reduce_parts import VEC4, Buffers, ReduceParts, unrolled
from kdsl.codegen.reduce_workgroup import subgroup_ok, with_extensions, workgroup_reduce
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Reduce
from kdsl.ir.view import View


def render(k: Reduce) -> str:
    p = ReduceParts(k)
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    outer = ExprRenderer(buffers, prefix="k")
    if k.mode == "thread":  # with splits, output o's lane rp folds positions rp, rp + splits, ...
        split = k.splits > 1
        if split:
            outer.lines += [f"int o = g / {k.splits};", f"int rp = g % {k.splits};"]
        elif p.ctype != "int":
            outer.lines.append("int rp = 0;")
        kept_idx = index_vars(outer, "o", p.kept_shape) if p.kept_shape else ()
        block = sum_block(k, p)
        fold = p.fold(k, kept_idx, "r", "o", buffers, acc="accb" if block else "acc")
        if block:  # a block's sum joins acc every `block` elements (see sum_block)
            fold.append(f"if (++nb == {block}) {{ acc = acc + accb; accb = {identity('sum', p.t)}; nb = 0; }}")
        if p.ctype == "int":  # (a size-generic kernel reads its length from a push word)
            end = str(p.n) if k.size_word is None else f"int(pc.w[{k.size_word}])"
            loop = counted_loop("r", "rp" if split else "0", end, max(k.splits, 1), fold)
        else:  # an int counts the turns (64-bit loop arithmetic is several times slower on a CPU driver);
            # ints widen by words (kd_sext_l): lavapipe miscompiles comparisons of a plain int64_t(int)
            last, step = p.lit(p.n - 1), p.lit(k.splits)
            loop = [f"int cnt = rp < {p.lit(p.n)} ? int(({last} - kd_sext_l(rp)) / {step}) + 1 : 0;",
                    *counted_loop("t", "0", "cnt", 1, [f"int64_t r = kd_sext_l(rp) + kd_sext_l(t) * {step};", *fold])]
        blocks = [f"{p.t.glsl_compute} accb = {identity('sum', p.t)};", "int nb = 0;"] if block else []
        body = outer.lines + p.init() + blocks + loop + (["acc = acc + accb;"] if block else [])
        body += p.store(k, "g" if split else "o", kept_idx, buffers, "o")
        text = "\n".join(grid_loop(max(p.o * max(k.splits, 1), 1), k.groups, body, var="g" if split else "o"))
        shared: list[str] = []
    elif k.mode in ("cols", "rows"):
        text, shared = cols_body(k, p, outer, buffers)
    else:
        text, shared = _group_body(k, p, outer, buffers)
    extra = [dt.int64] if p.itype == "int64_t" or p.ctype == "int64_t" else []
    src = glsl.header(LOCAL, buffers, k.n_words, extra_dtypes=extra, shared=shared, body_text=text)
    src = with_extensions(src, k.mode == "group" and bool(k.subgroup) and not p.arg and subgroup_ok(k.op, p.t)
                          or rows_shuffle(k, p))
    return f"{src}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


SUM_BLOCK_MIN = 64  # an invocation folding more float elements than this sums them in blocks


def sum_block(k: Reduce, p: ReduceParts) -> int:
    """Elements per block of a "thread" mode float sum that folds more than ``SUM_BLOCK_MIN`` elements per
    invocation, else 0. One running float accumulator loses about one rounding per element, and the losses of
    similar values add up instead of cancelling (``kd.full(60000, 0.1).mean()`` was 0.1000192, NumPy's
    pairwise sum gives 0.1000000); a block sum joining the total every ~sqrt(m) of the ``m`` elements cuts the
    error by about sqrt(m) for one add and one compare per element. Only where NumPy sums pairwise (the
    innermost axis reduced, or everything): its column sums add row after row, as one accumulator does.

    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.view import View
    >>> x = load(1, dt.float32, View.contiguous((60000,)))
    >>> sum_block(Reduce("sum", (60000,), (0,), dt.float32, x, 0, "thread", 1, 1, None), ReduceParts(
    ...     Reduce("sum", (60000,), (0,), dt.float32, x, 0, "thread", 1, 1, None)))
    256
    """
    if k.mode != "thread" or k.op != "sum" or p.t.kind not in "fc" or k.index_of is not None:
        return 0
    if p.o > 1 and len(k.shape) - 1 not in k.axes:  # X.sum(axis=0): NumPy adds the rows in order, as one acc does
        return 0
    m = -(-p.n // max(k.splits, 1))  # elements each invocation folds
    if m <= SUM_BLOCK_MIN:
        return 0
    return 1 << max(3, round(math.log2(m) / 2))


def _group_body(k: Reduce, p: ReduceParts, outer: ExprRenderer, buffers: Buffers) -> tuple[str, list[str]]:
    total = p.o * k.splits
    chunk = -(-p.n // k.splits)
    n_text = str(p.n) if k.size_word is None else f"int(pc.w[{k.size_word}])"  # (a size-generic kernel: one split)
    head = [f"int g_o = g / {k.splits};", f"int g_p = g % {k.splits};"] if k.splits > 1 else ["int g_o = g;"]
    kept_idx = index_vars(outer, "g_o", p.kept_shape) if p.kept_shape else ()
    fold = p.fold(k, kept_idx, "r", "g_o", buffers)
    init = p.init()
    wide = vec4_load(k, p, chunk)
    if wide is not None:  # 16-byte loads, two a turn, into four accumulators
        init += [f"{p.t.glsl_compute} acc{u} = {identity(k.op, p.t)};" for u in (1, 2, 3)]
        loop = _vec4_loop(k, p, wide, chunk)
    elif p.ctype == "int" and not p.arg:  # four independent accumulators: four loads in flight per invocation
        start, end = (f"g_p * {chunk} + tid", f"min({p.n}, g_p * {chunk} + {chunk})") if k.splits > 1 else \
            ("tid", n_text)
        init += [f"{p.t.glsl_compute} acc{u} = {identity(k.op, p.t)};" for u in (1, 2, 3)]
        loop = unrolled(k, p, kept_idx, buffers, start, end)
    elif p.ctype == "int" and k.splits > 1:
        loop = counted_loop("r", f"g_p * {chunk} + tid", f"min({p.n}, g_p * {chunk} + {chunk})", LOCAL, fold)
    elif p.ctype == "int":
        loop = counted_loop("r", "tid", n_text, LOCAL, fold)
    else:  # an int counts within the chunk (faster than 64-bit loop arithmetic); chunks start at 64-bit bases
        loop = [f"int64_t base = kd_sext_l(g_p) * {p.lit(chunk)};",
                f"int cnt = int(min({p.lit(chunk)}, {p.lit(p.n)} - base));",
                *counted_loop("t", "tid", "cnt", LOCAL, ["int64_t r = base + kd_sext_l(t);", *fold])]
        if k.splits == 1:
            head = head + ["int g_p = 0;"]
    store = p.store(k, "g", kept_idx, buffers, "g_o")
    if p.arg:
        tree = ["s_v[tid] = acc;", "s_i[tid] = acci;", "memoryBarrierShared(); barrier();",
                f"for (int w = {LOCAL // 2}; w > 0; w >>= 1) {{", "    if (tid < w) {",
                *["        " + x for x in _tree_step(k, p)], "    }", "    memoryBarrierShared(); barrier();", "}",
                "if (tid == 0) {", "    acc = s_v[0]; acci = s_i[0];", *["    " + x for x in store], "}",
                "memoryBarrierShared(); barrier();"]
    else:
        tree = workgroup_reduce(k.op, p.t, "acc", "s_v", k.subgroup, lambda a, b: combine(k.op, p.t, a, b))
        tree += ["if (tid == 0) {", *["    " + x for x in store], "}"]
    body = head + outer.lines + init + loop + tree
    text = "\n".join(["int tid = int(gl_LocalInvocationID.x);",
                      f"for (int g = int(gl_WorkGroupID.x); g < {total}; g += {k.groups}) {{",
                      *["    " + x for x in body], "}"])
    ivar = "int" if p.itype == "int" else "int64_t"
    shared = [f"shared {p.t.glsl_compute} s_v[{LOCAL}];"] + ([f"shared {ivar} s_i[{LOCAL}];"] if p.arg else [])
    if wide is not None:
        slot = wide.arg[0]
        buffers[slot] = wide.dtype
        shared.append(f"layout(std430, set = 0, binding = {slot}) readonly buffer B{slot}v "
                      f"{{ {VEC4[wide.dtype.glsl_compute]} d[]; }} b{slot}v;")
    return text, shared


def vec4_load(k: Reduce, p: ReduceParts, chunk: int) -> Expr | None:
    """The load a workgroup reduction may read as vec4s: the reduced expression is one 32-bit load, contiguous
    over the kernel's shape at a literal offset divisible by four, the reduced axes are the trailing ones
    (output ``o`` folds elements ``o * r ... o * r + r - 1``), and rows and chunks are whole quads."""
    e = k.expr
    if e.op != "load" or p.arg or p.ctype != "int" or e.dtype.glsl_storage not in VEC4 or k.size_word is not None \
            or e.dtype.glsl_storage != e.dtype.glsl_compute or p.r % 4 or chunk % 4 or k.index_of is not None:
        return None
    view = e.arg[1]
    if (len(e.arg) > 2 and e.arg[2] is not None) or view.offset % 4 or \
            view.canonical() != View.contiguous(k.shape, view.offset).canonical():
        return None
    return e if tuple(k.axes) == tuple(range(len(p.kept), len(k.shape))) else None


def _vec4_loop(k: Reduce, p: ReduceParts, e: Expr, chunk: int) -> list[str]:
    """Quads ``start .. end`` of output ``g_o``'s elements, invocation ``tid`` reading quads ``tid``,
    ``tid + LOCAL``, ..., four loads in flight a turn (64 bytes: what a memory-bound GPU needs per invocation at
    one wave of workgroups); lane x/y/z/w folds into ``acc``..``acc3``, which are then combined into ``acc``."""
    slot, base = e.arg[0], e.arg[1].offset // 4
    q0 = f"g_p * {chunk // 4}" if k.splits > 1 else "0"
    end = f"min({p.r // 4}, g_p * {chunk // 4} + {chunk // 4})" if k.splits > 1 else str(p.r // 4)
    row = f"{base} + g_o * {p.r // 4}"
    accs = ("acc", "acc1", "acc2", "acc3")

    def c(a: str, b: str) -> str:
        return combine(k.op, p.t, a, b)

    def fold(v: str) -> list[str]:
        return [f"{a} = {c(a, f'{v}.{lane}')};" for a, lane in zip(accs, "xyzw", strict=True)]

    vt = VEC4[e.dtype.glsl_compute]
    return [f"int q = {q0} + tid;", f"int q_end = {end};", f"int q_row = {row};",
            f"for (; q < q_end - {3 * LOCAL}; q += {4 * LOCAL}) {{",
            *[f"    {vt} u{u} = b{slot}v.d[q_row + q + {u * LOCAL}];" for u in range(4)],
            *["    " + x for u in range(4) for x in fold(f"u{u}")], "}",
            f"for (; q < q_end; q += {LOCAL}) {{ {vt} u0 = b{slot}v.d[q_row + q]; {' '.join(fold('u0'))} }}",
            f"acc = {c(c('acc', 'acc1'), c('acc2', 'acc3'))};"]


def _tree_step(k: Reduce, p: ReduceParts) -> list[str]:
    if p.arg:
        cond = better(k.op, p.t, "s_v[tid]", "s_i[tid]", "s_v[tid + w]", "s_i[tid + w]")
        return [f"if ({cond}) {{ s_v[tid] = s_v[tid + w]; s_i[tid] = s_i[tid + w]; }}"]
    return [f"s_v[tid] = {combine(k.op, p.t, 's_v[tid]', 's_v[tid + w]')};"]


def launch(k: Reduce) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
