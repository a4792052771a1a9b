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
from kdsl.codegen.helpers import SUFFIX
from kdsl.codegen.loops import counted_loop, grid_loop, index_type, index_vars, int_literal
from kdsl.codegen.ops import render_cast, render_op
from kdsl.codegen.reduce_workgroup import subgroup_ok, with_extensions, workgroup_reduce
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Reduce
from kdsl.ir.view import View

Buffers = dict[int, dt.DType]  # binding slot -> dtype of the buffers a kernel reads and writes
_INT_MIN = {"int": "(-2147483647 - 1)", "uint": "0u", "int64_t": "(-9223372036854775807l - 1l)", "uint64_t": "0ul"}
_INT_MAX = {"int": "2147483647", "uint": "4294967295u", "int64_t": "9223372036854775807l",
            "uint64_t": "18446744073709551615ul"}


def identity(op: str, t: dt.DType) -> str:
    c = t.glsl_compute
    if t.kind == "c" and op not in ("sum", "prod"):  # complex numbers have no order
        raise dt.complex_error(op, t)
    if op == "sum":
        return glsl.zero(t)
    if op == "prod":
        return glsl.literal(1, t)
    high = op in ("max", "argmax")  # the identity of max is the lowest value
    if c == "bool":
        return "false" if high else "true"
    if t.is_float:
        return glsl.literal(float("-inf") if high else float("inf"), t)
    return _INT_MIN[c] if high else _INT_MAX[c]


def combine(op: str, t: dt.DType, a: str, b: str) -> str:
    """GLSL folding value ``b`` into accumulator ``a``."""
    c = t.glsl_compute
    if op == "sum":
        return f"({a} || {b})" if c == "bool" else f"({a} + {b})"
    if op == "prod":
        return f"({a} && {b})" if c == "bool" else render_op("mul", t, [t, t], [a, b]) if t.kind == "c" else \
            f"({a} * {b})"
    if c == "bool":
        return f"({a} || {b})" if op == "max" else f"({a} && {b})"
    if t.is_float:
        return f"kd_{op}_{SUFFIX[c]}({a}, {b})"
    return f"{op}({a}, {b})"


def better(op: str, t: dt.DType, v: str, i: str, w: str, j: str) -> str:
    """Whether candidate (w, j) replaces (v, i) in argmax/argmin: NaN wins, ties go to the lower index."""
    cmp = ">" if op == "argmax" else "<"
    if t.glsl_compute == "bool":
        v, w = f"int({v})", f"int({w})"
    if t.is_float:
        return (f"((isnan({w}) && !isnan({v})) || (!isnan({v}) && {w} {cmp} {v}) || "
                f"(({w} == {v} || (isnan({v}) && isnan({w}))) && {j} < {i}))")
    return f"({w} {cmp} {v} || ({w} == {v} && {j} < {i}))"


class _Parts:
    """Shapes and index bookkeeping shared by both modes."""

    def __init__(self, k: Reduce):
        self.kept = [a for a in range(len(k.shape)) if a not in k.axes]
        self.kept_shape = tuple(k.shape[a] for a in self.kept)
        self.red_shape = tuple(k.shape[a] for a in k.axes)
        self.r = math.prod(self.red_shape)
        self.o = math.prod(self.kept_shape)
        self.t = k.expr.dtype
        self.op = k.op
        self.arg = k.op in ("argmax", "argmin")
        self.n = k.parts if k.index_of is not None else self.r  # positions the loops walk per output
        splits = max(k.splits, 1)
        step = splits if k.mode == "thread" else LOCAL + -(-self.n // splits)
        self.ctype = index_type(self.n + step)  # loop counters: 64-bit when the last step could overflow
        # the index argmax keeps: the type of the picked positions read back, else the loop counter's
        self.idx_t = k.index_of.dtype if k.index_of is not None else (
            dt.int32 if self.ctype == "int" else dt.int64)
        self.itype = "int" if self.idx_t.itemsize == 4 else "int64_t"

    def lit(self, n: int) -> str:
        return int_literal(n, self.ctype)

    def init(self) -> list[str]:
        acc = [f"{self.t.glsl_compute} acc = {identity(self.op, self.t)};"]
        return acc + ([f"{self.itype} acci = {_INT_MAX[self.itype]};"] if self.arg else [])

    def full_index(self, k: Reduce, kept_idx: tuple[str, ...], red_idx: tuple[str, ...]) -> tuple[str, ...]:
        idx = [""] * len(k.shape)
        for a, v in zip(self.kept, kept_idx, strict=False):
            idx[a] = v
        for a, v in zip(k.axes, red_idx, strict=False):
            idx[a] = v
        return tuple(idx)

    def fold(self, k: Reduce, kept_idx: tuple[str, ...], r_var: str, o_var: str, buffers: Buffers,
             acc: str = "acc") -> list[str]:
        """Statements folding element ``r_var`` of the reduction (of output ``o_var``) into ``acc``
        (and ``acci``); with ``index_of``, ``r_var`` counts the candidates and their positions are read."""
        rr = ExprRenderer(buffers, prefix="v")
        pos, ctype = r_var, self.ctype
        if k.index_of is not None:
            pos, ctype = rr.value(k.index_of, (self.o, k.parts), (o_var, r_var)), self.itype
        red_idx = index_vars(rr, pos, self.red_shape, ctype) if self.red_shape else ()
        v = rr.value(k.expr, k.shape, self.full_index(k, kept_idx, red_idx))
        if self.arg:
            j = pos if ctype == self.itype else f"{self.itype}({pos})"
            cond = better(k.op, self.t, "acc", "acci", v, j)
            return rr.lines + [f"if ({cond}) {{ acc = {v}; acci = {j}; }}"]
        return rr.lines + [f"{acc} = {combine(k.op, self.t, acc, v)};"]

    def store(self, k: Reduce, out_index: str, kept_idx: tuple[str, ...], buffers: Buffers, o_var: str) -> list[str]:
        er = ExprRenderer(buffers, prefix="e")
        raw, raw_t = ("acci", self.idx_t) if self.arg else ("acc", self.t)
        if k.epilogue is None:
            value = render_cast(raw, raw_t, k.out_dtype)
            return [f"b0.d[{out_index}] = {glsl.store_value(k.out_dtype, value)};"]
        acc_t = _acc_dtype(k.epilogue) or raw_t
        er.lines.append(f"{acc_t.glsl_compute} accv = {render_cast(raw, raw_t, acc_t)};")
        er.acc_name = "accv"
        if tuple(k.out_shape) != self.kept_shape:  # the epilogue reads a reshape of the result
            er.lines.append(f"int eo = {o_var};")
            kept_idx = index_vars(er, "eo", tuple(k.out_shape)) if k.out_shape else ()
        value = er.value(k.epilogue, tuple(k.out_shape), tuple(kept_idx))
        return er.lines + [f"b0.d[{out_index}] = {glsl.store_value(k.out_dtype, value)};"]


def _acc_dtype(e: Expr) -> dt.DType | None:
    return next((a.dtype for a in e.find("acc")), None)


def needs_int64(k: Reduce) -> bool:
    """Whether ``k`` counts positions in 64-bit integers (reductions of about 2**31 elements or more)."""
    p = _Parts(k)
    return "int64_t" in (p.ctype, p.itype)


def render(k: Reduce) -> str:
    p = _Parts(k)
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    outer = ExprRenderer(buffers, prefix="k")
    if k.mode == "thread":  # with splits, output o's lane rp folds positions rp, rp + splits, ...
        split = k.splits > 1
        if split:
            outer.lines += [f"int o = g / {k.splits};", f"int rp = g % {k.splits};"]
        elif p.ctype != "int":
            outer.lines.append("int rp = 0;")
        kept_idx = index_vars(outer, "o", p.kept_shape) if p.kept_shape else ()
        fold = p.fold(k, kept_idx, "r", "o", buffers)
        if p.ctype == "int":
            loop = counted_loop("r", "rp" if split else "0", str(p.n), max(k.splits, 1), fold)
        else:  # an int counts the turns (64-bit loop arithmetic is several times slower on a CPU driver);
            # ints widen by words (kd_sext_l): lavapipe miscompiles comparisons of a plain int64_t(int)
            last, step = p.lit(p.n - 1), p.lit(k.splits)
            loop = [f"int cnt = rp < {p.lit(p.n)} ? int(({last} - kd_sext_l(rp)) / {step}) + 1 : 0;",
                    *counted_loop("t", "0", "cnt", 1, [f"int64_t r = kd_sext_l(rp) + kd_sext_l(t) * {step};", *fold])]
        body = outer.lines + p.init() + loop
        body += p.store(k, "g" if split else "o", kept_idx, buffers, "o")
        text = "\n".join(grid_loop(max(p.o * max(k.splits, 1), 1), k.groups, body, var="g" if split else "o"))
        shared: list[str] = []
    elif k.mode in ("cols", "rows"):
        text, shared = _cols_body(k, p, outer, buffers)
    else:
        text, shared = _group_body(k, p, outer, buffers)
    extra = [dt.int64] if p.itype == "int64_t" or p.ctype == "int64_t" else []
    src = glsl.header(LOCAL, buffers, k.n_words, extra_dtypes=extra, shared=shared, body_text=text)
    src = with_extensions(src, k.mode == "group" and bool(k.subgroup) and not p.arg and subgroup_ok(k.op, p.t))
    return f"{src}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


def _group_body(k: Reduce, p: _Parts, outer: ExprRenderer, buffers: Buffers) -> tuple[str, list[str]]:
    total = p.o * k.splits
    chunk = -(-p.n // k.splits)
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
            ("tid", str(p.n))
        init += [f"{p.t.glsl_compute} acc{u} = {identity(k.op, p.t)};" for u in (1, 2, 3)]
        loop = _unrolled(k, p, kept_idx, buffers, start, end)
    elif p.ctype == "int" and k.splits > 1:
        loop = counted_loop("r", f"g_p * {chunk} + tid", f"min({p.n}, g_p * {chunk} + {chunk})", LOCAL, fold)
    elif p.ctype == "int":
        loop = counted_loop("r", "tid", str(p.n), LOCAL, fold)
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
                      f"{{ {_VEC4[wide.dtype.glsl_compute]} d[]; }} b{slot}v;")
    return text, shared


_VEC4 = {"float": "vec4", "int": "ivec4", "uint": "uvec4"}


def vec4_load(k: Reduce, p: _Parts, chunk: int) -> Expr | None:
    """The load a workgroup reduction may read as vec4s: the reduced expression is one 32-bit load, contiguous
    over the kernel's shape at a literal offset divisible by four, the reduced axes are the trailing ones
    (output ``o`` folds elements ``o * r ... o * r + r - 1``), and rows and chunks are whole quads."""
    e = k.expr
    if e.op != "load" or p.arg or p.ctype != "int" or e.dtype.glsl_storage not in _VEC4 or \
            e.dtype.glsl_storage != e.dtype.glsl_compute or p.r % 4 or chunk % 4 or k.index_of is not None:
        return None
    view = e.arg[1]
    if (len(e.arg) > 2 and e.arg[2] is not None) or view.offset % 4 or \
            view.canonical() != View.contiguous(k.shape, view.offset).canonical():
        return None
    return e if tuple(k.axes) == tuple(range(len(p.kept), len(k.shape))) else None


def _vec4_loop(k: Reduce, p: _Parts, e: Expr, chunk: int) -> list[str]:
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

    vt = _VEC4[e.dtype.glsl_compute]
    return [f"int q = {q0} + tid;", f"int q_end = {end};", f"int q_row = {row};",
            f"for (; q < q_end - {3 * LOCAL}; q += {4 * LOCAL}) {{",
            *[f"    {vt} u{u} = b{slot}v.d[q_row + q + {u * LOCAL}];" for u in range(4)],
            *["    " + x for u in range(4) for x in fold(f"u{u}")], "}",
            f"for (; q < q_end; q += {LOCAL}) {{ {vt} u0 = b{slot}v.d[q_row + q]; {' '.join(fold('u0'))} }}",
            f"acc = {c(c('acc', 'acc1'), c('acc2', 'acc3'))};"]


def _unrolled(k: Reduce, p: _Parts, kept_idx: tuple[str, ...], buffers: Buffers, start: str, end: str,
              step: int = LOCAL, o_var: str = "g_o") -> list[str]:
    """The fold from ``start`` to ``end`` in steps of ``step`` (consecutive invocations read consecutive
    elements), four elements a turn into ``acc``..``acc3``, then the remainder; the accumulators are combined
    into ``acc`` (partial sums of a quarter of the elements each: no less accurate than one)."""
    quad = []
    for u in range(4):
        var = "r" if u == 0 else f"r{u}"
        lines = ([f"int r{u} = r + {u * step};"] if u else []) + p.fold(k, kept_idx, var, o_var, buffers,
                                                                         "acc" if u == 0 else f"acc{u}")
        quad += ["{", *["    " + x for x in lines], "}"]
    def c(a: str, b: str) -> str:
        return combine(k.op, p.t, a, b)

    tail = p.fold(k, kept_idx, "r", o_var, buffers)
    return [f"int r = {start};", f"int r_end = {end};",
            f"for (; r < r_end - {3 * step}; r += {4 * step}) {{", *["    " + x for x in quad], "}",
            f"for (; r < r_end; r += {step}) {{", *["    " + x for x in tail], "}",
            f"acc = {c(c('acc', 'acc1'), c('acc2', 'acc3'))};"]


def cols_vec4(e: Expr, shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether a "cols" reduction of ``e`` reads four neighbouring outputs per invocation as one 16-byte load:
    ``e`` is one 32-bit load, contiguous over ``shape`` at a literal offset divisible by four, the reduced axes
    lead and the kept ones (a whole number of quads) trail: ``X.sum(axis=0)`` of a C-order matrix.

    >>> from kdsl.ir.expr import load
    >>> x = load(1, dt.float32, View.contiguous((1000, 64)))
    >>> cols_vec4(x, (1000, 64), (0,)), cols_vec4(x, (1000, 64), (1,))
    (True, False)
    """
    kept = math.prod(n for a, n in enumerate(shape) if a not in axes)
    if e.op != "load" or e.dtype.glsl_storage not in _VEC4 or e.dtype.glsl_storage != e.dtype.glsl_compute or \
            kept % 4 or tuple(axes) != tuple(range(len(axes))) or (len(e.arg) > 2 and e.arg[2] is not None):
        return False
    view = e.arg[1]
    return isinstance(view, View) and view.offset % 4 == 0 and \
        view.canonical() == View.contiguous(shape, view.offset).canonical()


def _cols_vec4_body(k: Reduce, p: _Parts, buffers: Buffers) -> tuple[str, list[str]]:
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
    vt, accs = _VEC4[e.dtype.glsl_compute], ("acc", "acc1", "acc2", "acc3")

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


def _cols_body(k: Reduce, p: _Parts, outer: ExprRenderer, buffers: Buffers) -> tuple[str, list[str]]:
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
    loop = _unrolled(k, p, kept_idx, buffers, start, end, lanes, "col")
    barrier = "memoryBarrierShared(); barrier();"
    tree = []
    if lanes > 1:
        step = combine(k.op, p.t, "s_v[tid]", "s_v[tid + h]" if rows else f"s_v[tid + h * {w}]")
        tree = ["s_v[tid] = acc;", barrier, f"for (int h = {lanes // 2}; h > 0; h >>= 1) {{",
                f"    if (lane < h) {{ s_v[tid] = {step}; }}", f"    {barrier}", "}", "acc = s_v[tid];"]
    out_index = f"g_p * {p.o} + col" if k.splits > 1 else "col"
    store = p.store(k, out_index, kept_idx, buffers, "col")
    body = head + outer.lines + init + [f"if (col < {p.o}) {{", *["    " + x for x in loop], "}"] + tree + \
        [f"if (lane == 0 && col < {p.o}) {{", *["    " + x for x in store], "}"] + ([barrier] if lanes > 1 else [])
    place = [f"int c = tid / {lanes};", f"int lane = tid % {lanes};"] if rows else \
        [f"int c = tid % {w};", f"int lane = tid / {w};"]
    text = "\n".join(["int tid = int(gl_LocalInvocationID.x);", *place,
                      f"for (int g = int(gl_WorkGroupID.x); g < {total}; g += {k.groups}) {{",
                      *["    " + x for x in body], "}"])
    return text, ([f"shared {p.t.glsl_compute} s_v[{LOCAL}];"] if lanes > 1 else [])


def _tree_step(k: Reduce, p: _Parts) -> list[str]:
    if p.arg:
        cond = better(k.op, p.t, "s_v[tid]", "s_i[tid]", "s_v[tid + w]", "s_i[tid + w]")
        return [f"if ({cond}) {{ s_v[tid] = s_v[tid + w]; s_i[tid] = s_i[tid + w]; }}"]
    return [f"s_v[tid] = {combine(k.op, p.t, 's_v[tid]', 's_v[tid + w]')};"]


def launch(k: Reduce) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
