"""The workgroup-cooperative scan: each workgroup scans one tile of ``per * 256`` elements of one line.

The serial scan (:mod:`kdsl.codegen.scan`) gives every invocation a block to walk alone; on a GPU that reads
memory one element per invocation per step, at a few percent of the bandwidth. Here the 256 invocations of a
workgroup share each tile:

1. **load**, coalesced: invocation ``i`` reads tile elements ``j * 256 + i`` (``j < per``) into shared memory;
2. **transpose**: invocation of rank ``r`` reads its ``per`` consecutive elements ``r * per + j`` back and scans
   them in registers (its chunk total is the last one);
3. **workgroup exclusive scan** of the chunk totals, with subgroup operations (``subgroupExclusiveAdd`` and
   ``subgroupAdd`` within each subgroup, then the subgroup totals through shared memory) when ``k.subgroups``,
   else a Hillis-Steele scan in shared memory (8 barrier steps);
4. each element gets the tile's carry (the scanned total of the tiles before it, ``k.carry``) and its chunk's
   exclusive prefix, goes back to shared memory and is **stored**, coalesced, like the load.

Phase "sums" does only step 1 and a workgroup reduction (the tile totals). So a long line is a reduce-then-scan
of 2 reads and 1 write of the data (plus the small recursive scan of the totals), and a line of at most one tile
is one pass. Workgroups grid-stride over the tiles of all lines.

Phase "lines" packs many short lines (at most 256 elements) into one tile, each scanned by one invocation in
shared memory; phase "compact" is a final "scan" pass of 0/1 flags that writes each selected element (its
position or a value) to its slot instead of the running counts (stream compaction, kdsl.frontend.array.masks).

Correct for any subgroup size, including one that does not divide 256 or a driver that does not give subgroups
consecutive invocation indices: a chunk is given to its invocation by *rank*, the position of the invocation in
the order the subgroup scan uses (subgroup id, then active lanes), computed once at the start; only the
subgroup totals cross subgroups, through shared memory. Element order inside the scan only changes float
rounding: ``+`` and ``*`` (complex ``*`` too) are commutative, every combination is written earlier-first.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.kernels import Scan
    >>> k = Scan((3, 500), 1, dt.float32, load(1, dt.float32, View.contiguous((3, 500))), 0, 3, per=2,
    ...          subgroups=True)
    >>> text = render(k)
    >>> "subgroupExclusiveAdd" in text, "s_h" in render(k._replace(subgroups=False))
    (True, True)
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.codegen.ops import render_cast, render_op
from kdsl.ir.kernels import LOCAL, Scan
from kdsl.ir.view import View

_OPERATORS = {"sum": ("+", 0, "Add"), "prod": ("*", 1, "Mul")}


def running_identity(op: str, identity: int, t: dt.DType) -> float | complex | int:
    """The value a running ``op`` starts from: -0.0 for float sums, since ``-0.0 + x`` is ``x`` for every ``x``
    (NumPy's cumsum starts from the first element: ``cumsum([-0.0])`` is -0.0; from +0.0 an H200 gave 0.0).

    >>> running_identity("sum", 0, dt.float32), running_identity("prod", 1, dt.float32)
    (-0.0, 1)
    """
    if op != "sum" or t.kind not in "fc":
        return identity
    return complex(-0.0, -0.0) if t.kind == "c" else -0.0


def complex_product(t: dt.DType, ident: str, acc: str, x: str) -> str:
    """GLSL of a complex running product's step ``acc * x``, where a product still at the identity takes ``x``
    itself: NumPy's cumprod starts from the first element, and the textbook ``(1 + 0j) * x`` of an infinite
    ``x`` has a NaN part (``0 * inf``; lavapipe folded it to 0, the H200 does not). A running product that
    returns to exactly ``1 + 0j`` later also takes the next element as it is, where NumPy multiplies: the two
    differ only for infinite elements and in the sign of a zero part.

    >>> complex_product(dt.complex64, "vec2(1.0, 0.0)", "acc", "x")
    '((acc) == vec2(1.0, 0.0) ? (x) : kd_cmul_f(acc, x))'
    """
    return f"(({acc}) == {ident} ? ({x}) : {render_op('mul', t, [t, t], [acc, x])})"
_SIZES = {"float": 4, "int": 4, "uint": 4, "double": 8, "int64_t": 8, "uint64_t": 8, "vec2": 8, "dvec2": 16}
MAX_PER = 8  # elements per invocation in a tile (2048-element tiles): enough loads in flight per invocation


def subgroup_ok(dtype: dt.DType, op: str, features: set[str] | frozenset[str]) -> bool:
    """Whether a scan of ``dtype`` with ``op`` can use subgroup arithmetic on a device with ``features``: the
    device's subgroups support arithmetic in compute shaders, the compute type is one subgroup operations take
    (64-bit integers need ``shaderSubgroupExtendedTypes``), and the operator is component-wise (a complex
    product is not).

    >>> subgroup_ok(dt.float32, "sum", {"subgroup_arithmetic"}), subgroup_ok(dt.int64, "sum", {"subgroup_arithmetic"})
    (True, False)
    >>> subgroup_ok(dt.complex64, "prod", {"subgroup_arithmetic"})
    False
    """
    if "subgroup_arithmetic" not in features:
        return False
    c = dtype.glsl_compute
    if c in ("int64_t", "uint64_t"):
        return "extended_subgroup_types" in features
    if c in ("vec2", "dvec2"):
        return op == "sum"
    return c in ("float", "int", "uint", "double")


def elements_per_invocation(dtype: dt.DType, length: int, shared_bytes: int) -> int:
    """Elements each invocation takes of a tile (a power of two up to ``MAX_PER``): enough for a line of
    ``length`` to fit one tile when it can, and a tile that fits ``shared_bytes`` of shared memory.

    >>> elements_per_invocation(dt.float32, 10**6, 16384), elements_per_invocation(dt.float32, 300, 16384)
    (8, 2)
    >>> elements_per_invocation(dt.complex128, 10**6, 32768), elements_per_invocation(dt.complex128, 10**6, 16384)
    (4, 1)
    """
    per = 1
    while per < MAX_PER and per * LOCAL < length:
        per *= 2
    while per > 1 and shared_size(dtype, per) > shared_bytes:
        per //= 2
    return per


def shared_size(dtype: dt.DType, per: int) -> int:
    """Bytes of shared memory the kernel declares: the padded tile, two rows of scan partials, the ranks."""
    size = _SIZES[dtype.glsl_compute]
    tile = per * LOCAL
    return (tile + tile // 32) * size + 2 * LOCAL * size + LOCAL * 4


def tile_loops(per: int, cost: int) -> int:
    """Loop iterations one invocation runs per tile (the loop budget's unit): loads (``cost`` each, the
    expression's own loops included), the chunk scan, the fix-up and store, the cross-subgroup or Hillis-Steele
    steps (at most one per invocation of the workgroup)."""
    return per * (cost + 3) + LOCAL + 16


class ScanWriter:
    """The GLSL pieces of one kernel: the operator, the identity, shared-memory indexing."""

    def __init__(self, k: Scan):
        if k.op not in _OPERATORS:
            raise ValueError(f"unknown scan operator {k.op!r}; expected 'sum' or 'prod'")
        self.k = k
        self.sym, identity, self.sub_op = _OPERATORS[k.op]
        # a compaction counts its 0/1 flags in int32 (positions of an array of fewer than 2**31 elements)
        self.t = dt.int32 if k.phase == "compact" else k.out_dtype
        self.c = self.t.glsl_compute
        self.ident = glsl.literal(running_identity(k.op, identity, self.t), self.t)

    def comb(self, a: str, b: str) -> str:
        if self.sym == "*" and self.t.kind == "c":
            return complex_product(self.t, self.ident, a, b)
        return f"({a} {self.sym} {b})"

    def store(self, value: str) -> str:
        return glsl.store_value(self.t, glsl.narrow(self.t, value))

    def subgroup(self, value: str, var: str, exclusive: bool = False) -> list[str]:
        """Lines declaring ``var`` as the subgroup's total of ``value`` (``exclusive``: of the invocations before
        this one). A float sum of nothing but -0.0 is -0.0 here, as NumPy's running sum is: the devices' subgroup
        additions start from +0.0 (an exclusive scan gives +0.0 to its first invocation), which would turn a
        leading run of -0.0 past the first subgroup into 0.0."""
        kind = "Exclusive" if exclusive else ""
        line = f"{self.c} {var} = subgroup{kind}{self.sub_op}({value});"
        bits = {"float": "floatBitsToUint({}) == 0x80000000u",
                "double": "unpackDouble2x32({}) == uvec2(0u, 0x80000000u)"}.get(self.c)
        if self.sym != "+" or bits is None:
            return [line]
        # (both subgroup operations run in uniform control flow; only the choice between them is per invocation)
        return [line, f"if (subgroup{kind}And({bits.format(value)})) {var} = -0.0;"]


def _exclusive(w: ScanWriter, value: str, sub: bool) -> list[str]:
    """Lines leaving in ``ex`` the workgroup's exclusive scan of ``value`` in rank order (barriers inside)."""
    c = w.c
    if sub:
        return [*w.subgroup(value, "sg_ex", exclusive=True),
                *w.subgroup(value, "sg_all"),
                "if (subgroupElect()) s_t[gl_SubgroupID] = sg_all;",
                "barrier();",
                f"{c} ex = {w.ident};",
                f"for (uint g = 0u; g < gl_SubgroupID; g++) ex = {w.comb('ex', 's_t[g]')};",
                f"ex = {w.comb('ex', 'sg_ex')};"]
    return [f"s_h[0][lid] = {value};",
            "barrier();",
            "uint src = 0u;",
            f"for (uint d = 1u; d < {LOCAL}u; d <<= 1) {{",
            f"    {c} x = s_h[src][lid];",
            f"    if (lid >= d) x = {w.comb('s_h[src][lid - d]', 'x')};",
            "    s_h[1u - src][lid] = x;",
            "    barrier();",
            "    src = 1u - src;",
            "}",
            f"{c} ex = lid > 0u ? s_h[src][lid - 1u] : {w.ident};"]


def _total(w: ScanWriter, value: str, sub: bool) -> list[str]:
    """Lines leaving the workgroup's total of ``value`` in ``tot`` for invocation 0 (barriers inside)."""
    c = w.c
    if sub:
        return [*w.subgroup(value, "sg_all"),
                "if (subgroupElect()) s_t[gl_SubgroupID] = sg_all;",
                "barrier();",
                f"{c} tot = {w.ident};",
                "if (lid == 0u) {",
                f"    for (uint g = 0u; g < gl_NumSubgroups; g++) tot = {w.comb('tot', 's_t[g]')};",
                "}"]
    return [f"s_h[0][lid] = {value};",
            "barrier();",
            f"for (uint d = {LOCAL // 2}u; d > 0u; d >>= 1) {{",
            f"    if (lid < d) s_h[0][lid] = {w.comb('s_h[0][lid]', 's_h[0][lid + d]')};",
            "    barrier();",
            "}",
            f"{c} tot = s_h[0][0];"]


def line_and_block(outer: ExprRenderer, others: tuple[int, ...], nb: int) -> list[str]:
    """Statements (into ``outer``) splitting the grid index ``q`` into the line ``l`` and its block ``b`` of
    ``nb``, then ``l``'s multi-index over the other axes ``others`` (returned: its variable names). Every scan
    pass walks its lines' blocks so.

    >>> r = ExprRenderer()
    >>> line_and_block(r, (3,), 2), r.lines
    (['l'], ['int l = q / 2;', 'int b = q % 2;'])
    """
    outer.lines += [f"int l = q / {nb};", f"int b = q % {nb};"] if nb > 1 else ["int l = q;", "int b = 0;"]
    return list(index_vars(outer, "l", others)) if others else []


def line_element(k: Scan, buffers: dict[int, dt.DType], line_idx: list[str], pos: str,
                 t: dt.DType) -> tuple[ExprRenderer, str]:
    """The scanned expression's element at position ``pos`` of the line ``line_idx``, as ``t``: the renderer
    holding its statements and the value."""
    inner = ExprRenderer(buffers, prefix="v")
    v = inner.value(k.expr, k.shape, tuple(line_idx[:k.axis] + [pos] + line_idx[k.axis:]))
    return inner, (render_cast(v, k.expr.dtype, t) if k.expr.dtype is not t else v)


def render(k: Scan) -> str:
    """The GLSL of a workgroup scan pass (``k.per`` > 0)."""
    if k.phase == "lines":
        return _render_lines(k)
    w = ScanWriter(k)
    per, sub, c = k.per, k.subgroups, w.c
    tile = per * LOCAL
    others = tuple(n for a, n in enumerate(k.shape) if a != k.axis)
    length = k.shape[k.axis]
    nb = -(-length // k.block) if k.block and length else 1
    assert not k.block or k.block == tile, "a workgroup scan's blocks are its tiles"
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    outer = ExprRenderer(buffers, prefix="k")
    line_idx = line_and_block(outer, others, nb)
    outer.lines += [f"int s0 = b * {tile};", f"int n0 = min({tile}, {length} - s0);"]
    inner, x = line_element(k, buffers, line_idx, "p", w.t)
    load = [f"int u = j * {LOCAL} + int(lid);", f"{c} x = {w.ident};",
            "if (u < n0) {", "    int p = s0 + u;", *["    " + s for s in inner.lines], f"    x = {x};", "}"]
    short_at = line_idx[:k.axis] + ["b"] + line_idx[k.axis:]
    if k.phase == "sums":
        body = outer.lines + _sums(w, load, View.contiguous(_short(k.shape, k.axis, nb)).index_expr(short_at))
    else:
        body = outer.lines + _scan(w, load, buffers, line_idx, nb)
    count = math.prod(others) * nb
    main = ["uint lid = gl_LocalInvocationID.x;", *(_rank(sub) if k.phase != "sums" else []),
            f"for (int q = int(gl_WorkGroupID.x); q < {count}; q += {k.groups}) {{",
            *["    " + s for s in body], "}"]
    text = "\n".join(main)
    shared = [f"shared {c} s_d[{tile + tile // 32}];"] if k.phase != "sums" else []
    shared += [f"shared {c} s_t[{LOCAL}];", f"shared uint s_c[{LOCAL}];"] if sub else [f"shared {c} s_h[2][{LOCAL}];"]
    head = glsl.header(LOCAL, buffers, k.n_words, shared=shared, body_text=text)
    if sub:
        exts = ["#extension GL_KHR_shader_subgroup_basic : require",
                "#extension GL_KHR_shader_subgroup_arithmetic : require"]
        if c in ("int64_t", "uint64_t"):
            exts.append("#extension GL_EXT_shader_subgroup_extended_types_int64 : require")
        head = head.replace("#version 450\n", "#version 450\n" + "\n".join(exts) + "\n", 1)
    return f"{head}\nvoid main() {{\n" + "\n".join("    " + s for s in text.splitlines()) + "\n}\n"


def _sums(w: ScanWriter, load: list[str], at: str) -> list[str]:
    """A tile's total, written by invocation 0 at ``at`` of the totals."""
    body = [f"{w.c} acc = {w.ident};", f"for (int j = 0; j < {w.k.per}; j++) {{",
            *["    " + s for s in load], f"    acc = {w.comb('acc', 'x')};", "}"]
    return body + _total(w, "acc", w.k.subgroups) + [f"if (lid == 0u) b0.d[{at}] = {w.store('tot')};", "barrier();"]


def _scan(w: ScanWriter, load: list[str], buffers: dict[int, dt.DType], line_idx: list[str], nb: int) -> list[str]:
    """A tile's inclusive scan from the carry: loaded to shared memory, each chunk scanned by its invocation,
    the chunk totals scanned across the workgroup, the results back through shared memory and stored."""
    k, per = w.k, w.k.per
    keep = ["    fl[j] = x;"] if k.phase == "compact" else []
    body = [f"{w.c} fl[{per}];"] if keep else []
    body += [f"for (int j = 0; j < {per}; j++) {{", *["    " + s for s in load], *keep,
             "    s_d[u + (u >> 5)] = x;", "}", "barrier();",
             f"{w.c} run = {w.ident};", f"{w.c} part[{per}];",
             f"for (int j = 0; j < {per}; j++) {{",
             f"    int u = int(rank) * {per} + j;",
             f"    run = {w.comb('run', 's_d[u + (u >> 5)]')};",
             "    part[j] = run;", "}"]
    body += _exclusive(w, "run", k.subgroups)
    if k.carry is not None:  # the scanned totals of the tiles before this one
        cr = ExprRenderer(buffers, prefix="c")
        prev = cr.value(k.carry, _short(k.shape, k.axis, nb),
                        tuple(line_idx[:k.axis] + ["(b - 1)"] + line_idx[k.axis:]))
        body += ["if (b > 0) {", *["    " + s for s in cr.lines], f"    ex = {w.comb(prev, 'ex')};", "}"]
    body += [f"for (int j = 0; j < {per}; j++) {{",
             f"    int u = int(rank) * {per} + j;",
             f"    s_d[u + (u >> 5)] = {w.comb('ex', 'part[j]')};", "}", "barrier();",
             f"for (int j = 0; j < {per}; j++) {{",
             f"    int u = j * {LOCAL} + int(lid);"]
    if k.phase == "compact":
        body += _compact_store(w, buffers)
    else:
        out_index = View.contiguous(k.shape).index_expr(line_idx[:k.axis] + ["p"] + line_idx[k.axis:])
        body.append(f"    if (u < n0) {{ int p = s0 + u; b0.d[{out_index}] = {w.store('s_d[u + (u >> 5)]')}; }}")
    return body + ["}", "barrier();"]


def _compact_store(w: ScanWriter, buffers: dict[int, dt.DType]) -> list[str]:
    """Stream compaction's store: each selected element (flag 1) writes its value, or its position, to the
    output slot its inclusive count minus one names."""
    k, out_t = w.k, w.k.out_dtype
    if k.values is None:
        value, lines = render_cast("p", dt.int32, out_t) if out_t is not dt.int32 else "p", []
    else:
        r = ExprRenderer(buffers, prefix="w")
        value = r.value(k.values, k.shape, ("p",))
        value = render_cast(value, k.values.dtype, out_t) if k.values.dtype is not out_t else value
        lines = r.lines
    store = glsl.store_value(out_t, glsl.narrow(out_t, value))
    return ["    if (u < n0 && fl[j] != 0) {", "        int p = s0 + u;", *["        " + s for s in lines],
            f"        b0.d[s_d[u + (u >> 5)] - 1] = {store};", "    }"]


def lines_per_tile(k: Scan) -> int:
    """Whole lines one tile of a "lines" pass holds."""
    return max(1, k.per * LOCAL // max(k.shape[k.axis], 1))


def _render_lines(k: Scan) -> str:
    """Phase "lines": many short lines (at most 256 elements) per tile. The tile's whole lines are loaded,
    coalesced, into shared memory; invocation ``i`` scans line ``i`` of the tile there (a serial walk of shared
    memory, not of global memory) and the results are stored, coalesced. Memory traffic is one read and one
    write; a workgroup per short line would spend its time in barriers with most invocations idle."""
    w = ScanWriter(k)
    per, c, length = k.per, w.c, k.shape[k.axis]
    tile, per_tile = per * LOCAL, lines_per_tile(k)
    others = tuple(n for a, n in enumerate(k.shape) if a != k.axis)
    lines = math.prod(others)
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    r = ExprRenderer(buffers, prefix="v")
    line_idx = list(index_vars(r, "l", others))
    idx = tuple(line_idx[:k.axis] + ["p"] + line_idx[k.axis:])
    v = r.value(k.expr, k.shape, idx)
    x = render_cast(v, k.expr.dtype, w.t) if k.expr.dtype is not w.t else v
    head = [f"int u = j * {LOCAL} + int(lid);", "if (u < n0) {",
            f"    int l = l0 + u / {length};", f"    int p = u % {length};"]
    index_lines = [ln for ln in r.lines if ln.startswith("int l_")]  # the line's multi-index (also for the store)
    out_index = View.contiguous(k.shape).index_expr(list(idx))
    body = [f"int l0 = q * {per_tile};", f"int n0 = min({per_tile}, {lines} - l0) * {length};",
            f"for (int j = 0; j < {per}; j++) {{", *["    " + s for s in head],
            *["        " + s for s in r.lines], f"        s_d[u + (u >> 5)] = {x};", "    }", "}", "barrier();",
            f"if (int(lid) * {length} < n0) {{", f"    {c} run = {w.ident};",
            f"    for (int t = int(lid) * {length}; t < int(lid + 1u) * {length}; t++) {{",
            f"        run = {w.comb('run', 's_d[t + (t >> 5)]')};", "        s_d[t + (t >> 5)] = run;", "    }", "}",
            "barrier();",
            f"for (int j = 0; j < {per}; j++) {{", *["    " + s for s in head],
            *["        " + s for s in index_lines],
            f"        b0.d[{out_index}] = {w.store('s_d[u + (u >> 5)]')};", "    }", "}", "barrier();"]
    count = -(-lines // per_tile)
    main = ["uint lid = gl_LocalInvocationID.x;",
            f"for (int q = int(gl_WorkGroupID.x); q < {count}; q += {k.groups}) {{",
            *["    " + s for s in body], "}"]
    text = "\n".join(main)
    shared = [f"shared {c} s_d[{tile + tile // 32}];"]
    src = glsl.header(LOCAL, buffers, k.n_words, shared=shared, body_text=text)
    return f"{src}\nvoid main() {{\n" + "\n".join("    " + s for s in text.splitlines()) + "\n}\n"


def _rank(sub: bool) -> list[str]:
    """Lines setting ``rank``, this invocation's chunk of each tile: its place in the subgroup scan's order
    (subgroup id, then lane among the active ones), so it is right for any subgroup size and layout."""
    if not sub:
        return ["uint rank = lid;"]
    return ["uint cnt = subgroupAdd(1u);",
            "if (subgroupElect()) s_c[gl_SubgroupID] = cnt;",
            "barrier();",
            "uint rank = subgroupExclusiveAdd(1u);",
            "for (uint g = 0u; g < gl_SubgroupID; g++) rank += s_c[g];"]


def _short(shape: tuple[int, ...], axis: int, nb: int) -> tuple[int, ...]:
    return shape[:axis] + (nb,) + shape[axis + 1:]
