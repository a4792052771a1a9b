"""Row normalisers in one kernel (:class:`kdsl.ir.kernels.RowNorm`): softmax, log_softmax, layer_norm,
rms_norm and other chains of last-axis reductions feeding an elementwise output along the same row.

One workgroup walks one row at a time (rows grid-stride over the workgroups). Each reduction stage folds the
row, consecutive invocations reading consecutive elements, and combines across the workgroup
(:mod:`kdsl.codegen.reduce_workgroup`: subgroup operations or a shared-memory tree), so every invocation
holds the stage's value; "let" stages compute per-row scalars (``rsqrt(var + eps)``) once. The output pass
writes the row once. With ``cache`` > 0 each invocation first loads its ``cache`` elements of every buffer
the row reads into registers (straight-line code, no private arrays: drivers may put those in memory), and
every pass reuses them: softmax reads its row from memory once instead of three times.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import Expr, load
    >>> x = load(1, dt.float32, View.contiguous((4, 300)))
    >>> m = Expr("acc", dt.float32, (), 0)
    >>> k = RowNorm((4, 300), dt.float32, (("max", x),), Expr("sub", dt.float32, (x, m)), 0, 4, 2, 0)
    >>> "barrier();" in render(k) and "st0" in render(k)
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import grid_loop, index_vars
from kdsl.codegen.reduce_combine import combine, identity
from kdsl.codegen.reduce_workgroup import subgroup_ok, subgroup_reduce, trips, with_extensions, workgroup_reduce
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, RowNorm

Seeds = dict[tuple[Expr, tuple[str, ...]], str]
Walk = tuple[str, int | str]  # an invocation's first element of the row and the stride to its next


class _RowRenderer(ExprRenderer):
    """Renders stage ``k``'s value (``Expr("acc", t, (), k)``) as the variable ``st<k>``."""

    def _code(self, e: Expr, shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
        if e.op == "acc":
            return f"st{e.arg}"
        return super()._code(e, shape, idx)


def row_loads(k: RowNorm) -> list[Expr]:
    """The buffer loads the reductions read at the row's own index (the values a cache can hold). A load only
    the output reads (a layer norm's weight and bias) is read once anyway: it stays out of the registers."""
    found: dict[Expr, None] = {}

    def walk(e: Expr) -> None:
        if e.op == "load":
            found.setdefault(e)
        elif e.op not in ("remap", "rows"):  # those read other positions
            for s in e.srcs:
                walk(s)

    for op, e in k.stages:
        if op != "let":
            walk(e)
    return list(found)


def loop_trips(k: RowNorm, expr_cost: int = 0) -> int:
    """Loop iterations one invocation spends on one row (for the loop budget): the passes' loops (none when
    the row is cached: straight-line code), helper-function loops per element, the workgroup combines."""
    reductions = sum(op != "let" for op, _ in k.stages)
    if k.mode in ("thread", "subgroup"):  # (a subgroup of one lane walks the whole row)
        return k.shape[-1] * (reductions + 1) * (1 + expr_cost)
    elements = -(-k.shape[-1] // LOCAL) * (reductions + 1)  # one invocation's, over all passes
    return elements * ((0 if k.cache else 1) + expr_cost) + reductions * trips(k.subgroup) + 1


def render(k: RowNorm) -> str:
    if k.mode == "thread":
        return _render_thread(k)
    if k.mode == "subgroup":
        return _render_subgroup(k)
    n, rows = k.shape[-1], math.prod(k.shape[:-1])
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    outer = ExprRenderer(buffers, prefix="k")
    ridx = index_vars(outer, "row", k.shape[:-1]) if len(k.shape) > 1 else ()
    idx = (*ridx, "j")
    body = ["int tid = int(gl_LocalInvocationID.x);",
            f"for (int row = int(gl_WorkGroupID.x); row < {rows}; row += {k.groups}) {{"]
    inner = list(outer.lines)
    seeds = [_fill_cache(k, q, idx, buffers, inner) for q in range(k.cache)] if k.cache else []
    shared: dict[str, str] = {}
    subgroup = False
    online = set() if k.cache else online_pairs(k)
    for s, (op, e) in enumerate(k.stages):
        t = e.dtype
        if op == "let":
            inner += _let(k, s, e, ridx, buffers)
            continue
        name = shared.setdefault(t.glsl_compute, f"s_{len(shared)}")
        subgroup |= bool(k.subgroup) and subgroup_ok(op, t)
        if s - 1 in online:  # computed with the maximum, in its pass
            continue
        if s in online:
            inner += _online(k, s, e, idx, buffers, name)
            continue
        inner.append(f"{t.glsl_compute} a{s} = {identity(op, t)};")
        inner += _passes(k, s, e, idx, buffers, seeds, _folder(op, t, f"a{s}"))
        inner += workgroup_reduce(op, t, f"a{s}", name, k.subgroup)
        inner.append(f"{t.glsl_compute} st{s} = {glsl.narrow(t, f'a{s}')};")
    out = len(k.stages)
    inner += _passes(k, out, k.expr, idx, buffers, seeds,
                     lambda v: [f"b0.d[row * {n} + j] = {glsl.store_value(k.out_dtype, v)};"])
    body += ["    " + x for x in inner] + ["}"]
    text = "\n".join(body)
    decls = [f"shared {c} {name}[{LOCAL}];" for c, name in shared.items()]
    src = glsl.header(LOCAL, buffers, k.n_words, shared=decls, body_text=text)
    src = with_extensions(src, subgroup)
    return f"{src}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


def online_pairs(k: RowNorm) -> set[int]:
    """Stages ``s`` that are a row maximum followed by ``sum(exp(x - max))`` of the same ``x`` (softmax,
    log_softmax): one online pass computes both when the row is not cached (two passes over the row, not
    three)."""
    found = set()
    for s in range(len(k.stages) - 1):
        (op, x), (op2, e) = k.stages[s], k.stages[s + 1]
        # float32 only: float16's exp(x - max) is rounded per element before its sum (NumPy's half loops)
        if op == "max" and op2 == "sum" and x.dtype == dt.float32 and e.op == "exp" and \
                e.srcs[0].op == "sub" and e.srcs[0].srcs == (x, Expr("acc", x.dtype, (), s)) and \
                e.dtype == x.dtype and s - 1 not in found:
            found.add(s)
    return found


def _online(k: RowNorm, s: int, x: Expr, idx: tuple[str, ...], buffers: dict[int, dt.DType],
            shared: str) -> list[str]:
    """Stage ``s`` (the row maximum) and ``s + 1`` (the sum of ``exp(x - max)``) in one pass: each invocation
    keeps its running maximum ``m`` and its sum ``l`` scaled to it; the workgroup takes the maximum of the
    ``m``, rescales every ``l`` to it and sums. Infinite maxima give NaN sums and a NaN propagates, as
    ``exp(x - max)`` does when it is computed after the maximum."""
    t = dt.float32
    m, m_all, lsum = f"a{s}", f"st{s}", f"a{s + 1}"

    def step(v: str) -> list[str]:
        return [f"if ({v} > {m}) {{ {lsum} = {lsum} * exp({m} - {v}) + 1.0; {m} = {v}; }}",
                f"else if (!({v} == {m} && isinf({v}))) {{ {lsum} += exp({v} - {m}); }}",
                f"if (isnan({v})) {{ {m} = {v}; }}"]

    lines = [f"float {m} = {identity('max', t)};", f"float {lsum} = 0.0;"]
    lines += _passes(k, s, x, idx, buffers, [], step)
    lines += [f"float m_own{s} = {m};", *workgroup_reduce("max", t, m, shared, k.subgroup), f"float {m_all} = {m};"]
    lines += [f"{lsum} = m_own{s} == {identity('max', t)} ? 0.0 : {lsum} * exp(m_own{s} - {m_all});",
              *workgroup_reduce("sum", t, lsum, shared, k.subgroup),
              f"float st{s + 1} = isinf({m_all}) ? uintBitsToFloat(0x7fc00000u) : {lsum};"]
    return lines


def _let(k: RowNorm, s: int, e: Expr, ridx: tuple[str, ...], buffers: dict[int, dt.DType]) -> list[str]:
    """Stage ``s``, a per-row scalar ``e`` (``rsqrt(var + eps)``), computed once into ``st<s>``."""
    r = _RowRenderer(buffers, prefix=f"l{s}_")
    v = r.value(e, k.shape, (*ridx, "0"))
    return r.lines + [f"{e.dtype.glsl_compute} st{s} = {v};"]


def _folder(op: str, t: dt.DType, acc: str) -> Callable[[str], list[str]]:
    return lambda v: [f"{acc} = {combine(op, t, acc, v)};"]


def _render_thread(k: RowNorm) -> str:
    """One invocation per row: each stage folds the row in order, with no barrier (short rows: a workgroup per
    row would leave most invocations idle)."""
    n, rows = k.shape[-1], math.prod(k.shape[:-1])
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    outer = ExprRenderer(buffers, prefix="k")
    ridx = index_vars(outer, "row", k.shape[:-1]) if len(k.shape) > 1 else ()
    idx = (*ridx, "j")
    inner = list(outer.lines)
    for s, (op, e) in enumerate(k.stages):
        r = _RowRenderer(buffers, prefix=f"p{s}_")
        t = e.dtype
        if op == "let":
            v = r.value(e, k.shape, (*ridx, "0"))
            inner += r.lines + [f"{t.glsl_compute} st{s} = {v};"]
            continue
        v = r.value(e, k.shape, idx)
        inner += [f"{t.glsl_compute} st{s} = {identity(op, t)};",
                  f"for (int j = 0; j < {n}; j++) {{", *["    " + x for x in r.lines],
                  f"    st{s} = {combine(op, t, f'st{s}', v)};", "}"]
        if t.wraps:  # the row's sum as NumPy's float16 (or 8/16-bit) result holds it: folded wider, stored narrow
            inner.append(f"st{s} = {glsl.narrow(t, f'st{s}')};")
    r = _RowRenderer(buffers, prefix="q")
    v = r.value(k.expr, k.shape, idx)
    inner += [f"for (int j = 0; j < {n}; j++) {{", *["    " + x for x in r.lines],
              f"    b0.d[row * {n} + j] = {glsl.store_value(k.out_dtype, v)};", "}"]
    text = "\n".join(grid_loop(rows, k.groups, inner, var="row"))
    src = glsl.header(LOCAL, buffers, k.n_words, body_text=text)
    return f"{src}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


def _render_subgroup(k: RowNorm) -> str:
    """One subgroup per row (rows of a few hundred elements: a workgroup's barriers and shared-memory combines
    would cost more than the row): the lanes fold the row, ``subgroupAdd`` (or a shuffle butterfly) combines
    them, no barrier. The row is kept in registers, ``cache`` slots of ``k.subgroup`` lanes, when the
    subgroup has the size the device reports; a driver that runs the kernel with other subgroups (a size it
    chooses per pipeline) takes the loops over the row instead, so the kernel is right for any size."""
    n, rows = k.shape[-1], math.prod(k.shape[:-1])
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    outer = ExprRenderer(buffers, prefix="k")
    ridx = index_vars(outer, "row", k.shape[:-1]) if len(k.shape) > 1 else ()
    idx = (*ridx, "j")

    def row(walk: Walk, cached: bool) -> list[str]:
        lines: list[str] = []
        seeds = [_fill_cache(k, q, idx, buffers, lines, walk) for q in range(k.cache)] if cached else []
        for s, (op, e) in enumerate(k.stages):
            t = e.dtype
            if op == "let":
                lines += _let(k, s, e, ridx, buffers)
                continue
            lines.append(f"{t.glsl_compute} a{s} = {identity(op, t)};")
            lines += _passes(k, s, e, idx, buffers, seeds, _folder(op, t, f"a{s}"), walk)
            lines += subgroup_reduce(op, t, f"a{s}")
            lines.append(f"{t.glsl_compute} st{s} = {glsl.narrow(t, f'a{s}')};")
        return lines + _passes(k, len(k.stages), k.expr, idx, buffers, seeds,
                               lambda v: [f"b0.d[row * {n} + j] = {glsl.store_value(k.out_dtype, v)};"], walk)

    body = ["int lane = int(gl_SubgroupInvocationID), lanes = int(gl_SubgroupSize);",
            "int rows_here = int(gl_NumSubgroups);  // rows a workgroup takes at a time: one per subgroup",
            f"for (int row = int(gl_WorkGroupID.x) * rows_here + int(gl_SubgroupID); row < {rows}; "
            f"row += {k.groups} * rows_here) {{",
            *["    " + x for x in outer.lines],
            f"    if (lanes == {k.subgroup}) {{",
            *["        " + x for x in row(("lane", k.subgroup), True)],
            "    } else {",
            *["        " + x for x in row(("lane", "lanes"), False)],
            "    }",
            "}"]
    text = "\n".join(body)
    src = with_extensions(glsl.header(LOCAL, buffers, k.n_words, body_text=text), True)
    return f"{src}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


def _fill_cache(k: RowNorm, q: int, idx: tuple[str, ...], buffers: dict[int, dt.DType],
                lines: list[str], walk: Walk = ("tid", LOCAL)) -> Seeds:
    """Load slot ``q`` (element ``tid + q * LOCAL``, or as ``walk`` says) of every cached buffer read into
    registers ``c<i>_<q>``; returns the renderer seeds that make later passes read them."""
    seeds: Seeds = {}
    block: list[str] = []
    for i, e in enumerate(row_loads(k)):
        name = f"c{i}_{q}"
        lines.append(f"{e.dtype.glsl_compute} {name} = {glsl.zero(e.dtype)};")
        r = ExprRenderer(buffers, prefix=f"f{i}_")
        v = r.value(e, k.shape, idx)
        block += r.lines + [f"{name} = {v};"]
        seeds[(e, idx)] = name
    lines += _slot(q, k.shape[-1], block, walk)
    return seeds


def _slot(q: int, n: int, body: list[str], walk: Walk = ("tid", LOCAL)) -> list[str]:
    """``body`` for element ``j = tid + q * LOCAL`` of the row (``walk``: the invocation's first element and
    the constant stride), guarded only where ``j`` can pass its end."""
    me, stride = walk
    assert isinstance(stride, int)
    if (q + 1) * stride <= n:
        return ["{", f"    int j = {me} + {q * stride};", *["    " + x for x in body], "}"]
    return ["{", f"    int j = {me} + {q * stride};", f"    if (j < {n}) {{", *["        " + x for x in body],
            "    }", "}"]


def _passes(k: RowNorm, s: int, e: Expr, idx: tuple[str, ...], buffers: dict[int, dt.DType],
            seeds: list[Seeds], use: Callable[[str], list[str]], walk: Walk = ("tid", LOCAL)) -> list[str]:
    """``use(value)``'s statements for every element of the row: over the cached slots (straight-line), or a
    loop over the row (``walk``: the invocation's first element and the stride)."""
    n = k.shape[-1]

    def one(seed: Seeds) -> list[str]:
        r = _RowRenderer(buffers, prefix=f"p{s}_")
        r.cache.update(seed)
        v = r.value(e, k.shape, idx)
        return r.lines + use(v)

    if seeds:
        out: list[str] = []
        for q, seed in enumerate(seeds):
            out += _slot(q, n, one(seed), walk)
        return out
    return [f"for (int j = {walk[0]}; j < {n}; j += {walk[1]}) {{", *["    " + x for x in one({})], "}"]


def launch(k: RowNorm) -> tuple[int, int, int]:
    return (k.groups, 1, 1)  # thread mode: groups of LOCAL rows (grid_loop)
