"""The register-blocked subgroup scan of contiguous lines: each invocation holds ``4 * rows`` elements in registers,
loaded four at a time, and subgroup arithmetic does every combination across invocations.

It serves the phases "sums", "scan" and "compact" of :class:`kdsl.ir.kernels.Scan` (``blocked`` set) when the
scanned axis is the last one (each line contiguous) and the device has subgroup arithmetic for the type
(:func:`kdsl.codegen.scan_workgroup.subgroup_ok`). A tile of ``4 * rows * 256`` elements is cut into one
contiguous *segment* per subgroup; inside a segment, row ``r`` holds the subgroup's ``cnt`` invocations side by
side, four consecutive elements each (a coalesced 16-byte load per invocation: a subgroup reads one contiguous
run of ``64 * cnt`` bytes per row). So a tile costs:

1. the loads, as ``vec4``/``ivec4``/``uvec4`` (or one ``uint`` word of four 8-bit values: boolean masks) when
   every operand the expression reads is contiguous with a 4-aligned offset (``wide``), else four scalar loads;
   a row past the line's end reads element by element;
2. a serial scan of each four in registers, then per row ``subgroupExclusive<Op>`` and ``subgroup<Op>`` of the
   fours' totals: each invocation's prefix is the rows before in its segment and the invocations before in
   its row;
3. one workgroup barrier: the segment totals cross subgroups through shared memory (double-buffered by tile
   parity, so the next tile needs no second barrier), plus the carry of the tiles before (``k.carry``);
4. the stores, four at a time again (one 16-byte store for 32-bit results), or - phase "compact" - each
   selected element (flag 1) writes its value or position to slot ``running count - 1``. The values are read
   before the barrier: the selected ones once the flags are loaded, or (``k.preload``, a dense selection) all
   of them four at a time together with the flags. Positions (``k.stage``) go to their slots in a shared
   array of the tile instead, and after a second barrier consecutive invocations store consecutive slots.

Phase "sums" loads the same way (8-bit operands: each invocation's ``4 * rows`` elements as one run, since a
total does not care which invocation holds which element), reduces in registers and with ``subgroup<Op>``, and
writes one total per tile.
Nothing goes through shared memory but the segment totals: no transposes, no tree of barriers.

Correct for any subgroup size and layout: a segment belongs to the subgroup's *rank* (subgroup id, then active
lanes), as in :mod:`kdsl.codegen.scan_workgroup`. Every loop has a constant trip count (``rows``, 4, the
subgroups before this one), so one tile costs an invocation at most ``tile_loops`` of the loop budget.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.kernels import Scan
    >>> k = Scan((5000,), 0, dt.float32, load(1, dt.float32, View.contiguous((5000,))), 0, 2, 4096, "sums",
    ...          per=16, subgroups=True, blocked=True)
    >>> text = render(k)
    >>> "vec4 v0 = b1v.d[" in text, "subgroupAdd" in text, "s_d" in text
    (True, True, False)
"""

from __future__ import annotations

import math
import os

from kdsl import dtype as dt
from kdsl.codegen import glsl, vector
from kdsl.codegen import scan_wide_loads as wide_loads
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.ops import render_cast
from kdsl.codegen.scan_workgroup import ScanWriter, line_and_block
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Scan
from kdsl.ir.view import View

ROWS = 4  # rows of four elements per invocation: tiles of 4 * ROWS * 256 = 4096 elements (a power of two <= 8)
# a compaction selecting at least this fraction of the elements reads every value (four per load) together with
# the flags, rather than only the selected ones once the flags are known (with 32-byte memory sectors, a random
# selection of a quarter of the float32 values touches 90% of them anyway)
PRELOAD_DENSITY = 0.25
# positions (nonzero, flatnonzero) of a tile are gathered in shared memory and stored in order by consecutive
# invocations (where shared memory holds the tile's ints): scattered from registers, each lane's 8-byte stores
# land a few slots apart from its neighbours' (many partial memory sectors per store instruction)
STAGE_POSITIONS = True
# the "sums" pass of 8-bit operands (boolean masks: a compaction's tile counts) reads each invocation's elements
# as one run (lane-major) instead of a row of words per subgroup: compaction 2**28 1.40 -> 1.28 ms on an H200.
# (Staging the selected values through shared memory, as positions are, was slower there: 1.84 ms.)
SUMS_LANE_MAJOR = os.environ.get("KDSL_SUMS_LANE_MAJOR", "1") != "0"
def rows_for(length: int) -> int:
    """Rows per invocation for lines of ``length``: ``ROWS``, fewer when a line fits a smaller tile.

    >>> rows_for(10**6), rows_for(1000), rows_for(3000)
    (4, 1, 4)
    """
    rows = 1
    while rows < ROWS and 4 * rows * LOCAL < length:
        rows *= 2
    return rows


class _Kernel:
    """The GLSL of one blocked pass; the pieces share the renderers and the buffers they record."""

    def __init__(self, k: Scan):
        self.k, self.w = k, ScanWriter(k)
        self.rows = k.per // 4
        self.tile = k.per * LOCAL
        self.length = k.shape[k.axis]
        self.others = tuple(n for a, n in enumerate(k.shape) if a != k.axis)
        self.nb = -(-self.length // self.tile) if self.length else 1
        self.buffers: dict[int, dt.DType] = {0: k.out_dtype}
        self.wide_slots: set[int] = set()  # buffers read four elements per load
        self.extra: list[str] = []  # functions and buffer aliases above main
        self.line_idx: list[str] = []  # the line's multi-index variables (set by render)

    def render(self) -> str:
        k, c = self.k, self.w.c
        outer = ExprRenderer(self.buffers, prefix="k")
        nb = self.nb
        self.line_idx = line_and_block(outer, self.others, nb)
        head = outer.lines + [f"int s0 = b * {self.tile};", f"int end = s0 + min({self.tile}, {self.length} - s0);",
                              f"int seg = s0 + int(first) * {k.per};", "uint par = uint(it) & 1u;", "it++;"]
        body = head + self._carry() + self._loads() + (self._sums() if k.phase == "sums" else self._scan())
        count = max(math.prod(self.others) * nb, 1)
        main = ["uint lid = gl_LocalInvocationID.x;",
                "uint lane = subgroupExclusiveAdd(1u);",
                "uint cnt = subgroupAdd(1u);",
                "if (subgroupElect()) s_c[gl_SubgroupID] = cnt;",
                "barrier();",
                "uint first = 0u;  // the rank of this subgroup's first invocation: its segment of each tile",
                "for (uint g = 0u; g < gl_SubgroupID; g++) first += s_c[g];",
                "int it = 0;",
                f"for (int q = int(gl_WorkGroupID.x); q < {count}; q += {k.groups}) {{",
                *["    " + s for s in body], "}"]
        text = "\n".join(main)
        fns = "\n".join(self.extra)
        shared = [f"shared {c} s_t[2][{LOCAL}];", f"shared uint s_c[{LOCAL}];"] + self._aliases()
        if k.stage:
            shared.append(f"shared int s_p[{self.tile}];")
        src = glsl.header(LOCAL, self.buffers, k.n_words, shared=shared, body_text=fns + text)
        exts = ["#extension GL_KHR_shader_subgroup_basic : require",
                "#extension GL_KHR_shader_subgroup_arithmetic : require",
                "#extension GL_EXT_control_flow_attributes : require"]
        if c in ("int64_t", "uint64_t"):
            exts.append("#extension GL_EXT_shader_subgroup_extended_types_int64 : require")
        src = src.replace("#version 450\n", "#version 450\n" + "\n".join(exts) + "\n", 1)
        return f"{src}\n{fns}\nvoid main() {{\n" + "\n".join("    " + s for s in text.splitlines()) + "\n}\n"

    def _aliases(self) -> list[str]:
        """The buffers read four at a time, declared again on their bindings with the wide element type."""
        out = []
        for slot in sorted(self.wide_slots):
            d = self.buffers[slot]
            t = wide_loads.wide_type(d)
            out.append(f"layout(std430, set = 0, binding = {slot}) readonly buffer B{slot}v {{ {t} d[]; }} b{slot}v;")
        if self._wide_store():
            t = wide_loads.wide_type(self.k.out_dtype)
            out.append(f"layout(std430, set = 0, binding = 0) buffer B0v {{ {t} d[]; }} b0v;")
        return out

    def _wide_store(self) -> bool:
        """The scan's results are stored four at a time (32-bit types, each four inside one line)."""
        k = self.k
        lines = math.prod(self.others)
        return k.phase == "scan" and (lines == 1 or self.length % 4 == 0) and \
            wide_loads.wide_type(k.out_dtype) in ("vec4", "ivec4", "uvec4")

    def _at(self, pos: str) -> tuple[str, ...]:
        """The multi-index of position ``pos`` along the scanned axis of this invocation's line. The axis need not
        be the last: axes of length 1 may follow it (``cumsum(axis=0)`` of an ``(n, 1)`` column), whose views
        have stride 0 there, so the line's index must not take the axis' place."""
        axis = self.k.axis
        return (*self.line_idx[:axis], pos, *self.line_idx[axis:])

    def _short(self) -> tuple[int, ...]:
        """The shape of the tiles' totals: the scanned axis replaced by the number of tiles ``nb``."""
        shape, axis = self.k.shape, self.k.axis
        return shape[:axis] + (self.nb,) + shape[axis + 1:]

    def _scalar_value(self, prefix: str) -> list[str]:
        """Lines setting ``y`` to the expression at position ``p`` of the line (identity past its end)."""
        w, k = self.w, self.k
        r = ExprRenderer(self.buffers, prefix=prefix)
        v = r.value(k.expr, k.shape, self._at("p"))
        return [f"{w.c} y = {w.ident};", "if (p < end) {", *["    " + s for s in r.lines], f"    y = {self._cast(v)};",
                "}"]

    def _cast(self, value: str) -> str:
        """An expression value in the scan's type."""
        e, t = self.k.expr.dtype, self.w.t
        return render_cast(value, e, t) if e is not t else value

    def _loads(self) -> list[str]:
        """Lines filling ``x[4 * rows]``: row ``r`` of the segment, four consecutive elements per invocation."""
        w, k, rows = self.w, self.k, self.rows
        one = ["    [[unroll]] for (int i = 0; i < 4; i++) {", "        int p = e + i;",
               *["        " + s for s in self._scalar_value("v")], "        x[r * 4 + i] = y;", "    }"]
        at = f"seg + int(lane) * {4 * rows} + r * 4" if self._lane_major() else \
            "seg + (r * int(cnt) + int(lane)) * 4"
        lines = [f"{w.c} x[{4 * rows}];", f"[[unroll]] for (int r = 0; r < {rows}; r++) {{",
                 f"    int e = {at};"]
        if not wide_loads.wide(k):
            return lines + one + ["}"]
        loads, calls = self._wide_reader(k.expr, "kd_lane", "v")
        sets = [f"x[r * 4 + {lane}] = {self._cast(call)};" for lane, call in enumerate(calls)]
        return lines + ["    if (e + 3 < end) {", *["        " + s for s in loads + sets], "    } else {",
                        *["    " + s for s in one], "    }", "}"]

    def _lane_major(self) -> bool:
        """Phase "sums" of 8-bit operands (boolean masks) with ``SUMS_LANE_MAJOR``: each invocation's elements
        are one contiguous run (a total does not care which invocation holds which element)."""
        k = self.k
        if not (SUMS_LANE_MAJOR and k.phase == "sums" and wide_loads.wide(k)):
            return False
        loads = vector.shared_loads(k.expr) or []
        return bool(loads) and all(ld.dtype.glsl_storage in wide_loads.BYTE_TYPES for ld in loads
                                   if not vector.lane_invariant(ld.arg[1]))

    def _wide_reader(self, e: Expr, fn: str, var: str) -> tuple[list[str], list[str]]:
        """(the loads of row ``r``'s four elements of every operand of ``e`` into ``var<i>``, the four values of
        ``e``): ``e`` becomes a function ``fn`` of its operands' elements, called once per element."""
        k = self.k
        wide: dict[tuple[int, int], tuple[int, dt.DType]] = {}
        pr = vector.ParamRenderer(self.buffers, wide)
        value = pr.value(e, k.shape, tuple("0" for _ in k.shape))
        params = ", ".join(f"{d.glsl_compute} p{i}" for i, d in sorted(wide.values(), key=lambda x: x[0]))
        self.extra += [f"{e.dtype.glsl_compute} {fn}({params}) {{", *["    " + s for s in pr.lines],
                       f"    return {value};", "}"]
        order = sorted(wide.items(), key=lambda item: item[1][0])
        self.wide_slots |= {slot for slot, _ in wide}
        quad = f"((l * {self.length} + e) >> 2)" if self.others else "(e >> 2)"
        loads = [f"{wide_loads.wide_type(d)} {var}{i} = b{slot}v.d[{quad} + {off // 4}];"
                 for (slot, off), (i, d) in order]
        calls = [f"{fn}({', '.join(wide_loads.lane(f'{var}{i}', d, lane) for _, (i, d) in order)})"
                 for lane in range(4)]
        return loads, calls

    def _carry(self) -> list[str]:
        """Lines setting ``carry``, the scanned total of the tiles before this one (``k.carry``), read before the
        tile's own loads so that its latency hides behind theirs."""
        k, w = self.k, self.w
        if k.carry is None or k.phase == "sums":
            return []
        cr = ExprRenderer(self.buffers, prefix="c")
        prev = cr.value(k.carry, self._short(), self._at("(b - 1)"))
        return [f"{w.c} carry = {w.ident};", "if (b > 0) {", *["    " + s for s in cr.lines], f"    carry = {prev};",
                "}"]

    def _sums(self) -> list[str]:
        """The tile's total: registers, subgroup, then the subgroup totals by invocation 0."""
        w = self.w
        at = View.contiguous(self._short()).index_expr(list(self._at("b")))
        return [f"{w.c} acc = {w.ident};",
                f"[[unroll]] for (int j = 0; j < {4 * self.rows}; j++) acc = {w.comb('acc', 'x[j]')};",
                *w.subgroup("acc", "sg"),
                "if (subgroupElect()) s_t[par][gl_SubgroupID] = sg;",
                "barrier();",
                "if (lid == 0u) {",
                f"    {w.c} tot = {w.ident};",
                f"    for (uint g = 0u; g < gl_NumSubgroups; g++) tot = {w.comb('tot', 's_t[par][g]')};",
                f"    b0.d[{at}] = {w.store('tot')};",
                "}"]

    def _scan(self) -> list[str]:
        """The tile's inclusive scan from the carry, then its stores (or the compaction's)."""
        w, k, rows = self.w, self.k, self.rows
        body = self._selected() if k.phase == "compact" else []
        body += [f"[[unroll]] for (int r = 0; r < {rows}; r++) {{",
                 *[f"    x[r * 4 + {i}] = {w.comb(f'x[r * 4 + {i - 1}]', f'x[r * 4 + {i}]')};" for i in (1, 2, 3)],
                 "}",
                 f"{w.c} run = {w.ident};  // the rows before, in this subgroup's segment",
                 f"{w.c} pre[{rows}];",
                 f"[[unroll]] for (int r = 0; r < {rows}; r++) {{",
                 f"    {w.c} tr = x[r * 4 + 3];",
                 *["    " + line for line in w.subgroup("tr", "sx", exclusive=True) + w.subgroup("tr", "sa")],
                 f"    pre[r] = {w.comb('run', 'sx')};",
                 f"    run = {w.comb('run', 'sa')};",
                 "}",
                 "if (subgroupElect()) s_t[par][gl_SubgroupID] = run;",
                 "barrier();",
                 f"{w.c} ex = {w.ident};",
                 f"for (uint g = 0u; g < gl_SubgroupID; g++) ex = {w.comb('ex', 's_t[par][g]')};"]
        if k.carry is not None and not k.stage:
            body.append(f"ex = {w.comb('carry', 'ex')};")
        body += [f"[[unroll]] for (int r = 0; r < {rows}; r++) {{",
                 "    int e = seg + (r * int(cnt) + int(lane)) * 4;",
                 f"    {w.c} o = {w.comb('ex', 'pre[r]')};"]
        body += self._compact_store() if k.phase == "compact" else self._store()
        return body + ["}"] + (self._staged_store() if k.stage else [])

    def _store(self) -> list[str]:
        w = self.w
        base = f"l * {self.length} + " if self.others else ""
        one = ["[[unroll]] for (int i = 0; i < 4; i++) {",
               f"    if (e + i < end) b0.d[{base}e + i] = {w.store(w.comb('o', 'x[r * 4 + i]'))};", "}"]
        if not self._wide_store():
            return ["    " + s for s in one]
        t = wide_loads.wide_type(self.k.out_dtype)
        vals = ", ".join(w.comb("o", f"x[r * 4 + {i}]") for i in range(4))
        return ["    if (e + 3 < end) {", f"        b0v.d[({base}e) >> 2] = {t}({vals});", "    } else {",
                *["        " + s for s in one], "    }"]

    def _selected(self) -> list[str]:
        """Phase "compact": lines reading, right after the flags (before the scan and its barrier, so that the
        reads overlap them), the value - or the position - of each selected element into ``val``."""
        k, out_t = self.k, self.k.out_dtype
        if k.values is None:  # positions: computed where they are stored
            return []
        r = ExprRenderer(self.buffers, prefix="w")
        value = r.value(k.values, k.shape, ("p",))
        value = render_cast(value, k.values.dtype, out_t) if k.values.dtype is not out_t else value
        lines = r.lines
        pick = ["[[unroll]] for (int i = 0; i < 4; i++) {",
                "    if (x[r * 4 + i] != 0) {",
                "        int p = e + i;",
                *["        " + s for s in lines],
                f"        val[r * 4 + i] = {value};",
                "    }", "}"]
        head = [f"{out_t.glsl_compute} val[{4 * self.rows}];",
                f"[[unroll]] for (int r = 0; r < {self.rows}; r++) {{",
                "    int e = seg + (r * int(cnt) + int(lane)) * 4;"]
        if not (k.preload and k.values is not None and wide_loads.wide_expr(k.values, k.shape, k.axis)):
            return head + ["    " + s for s in pick] + ["}"]
        # a dense selection reads (nearly) every value anyway: all four at once, with no wait for the flags
        loads, calls = self._wide_reader(k.values, "kd_value", "u")
        sets = [f"val[r * 4 + {i}] = {render_cast(c, k.values.dtype, out_t) if k.values.dtype is not out_t else c};"
                for i, c in enumerate(calls)]
        return head + ["    if (e + 3 < end) {", *["        " + s for s in loads + sets], "    } else {",
                       *["        " + s for s in pick], "    }", "}"]

    def _compact_store(self) -> list[str]:
        """Each selected element (its flag, the step of the local running count, is not 0) writes its value, or
        its position, to the output slot its inclusive count minus one names."""
        k, out_t = self.k, self.k.out_dtype
        if k.stage:  # (o counts from the tile's start: the slot in s_p)
            write = "s_p[o + x[r * 4 + i] - 1] = e + i;"
        elif k.values is None:
            write = f"b0.d[o + x[r * 4 + i] - 1] = {self._position('e + i')};"
        else:
            write = f"b0.d[o + x[r * 4 + i] - 1] = {glsl.store_value(out_t, glsl.narrow(out_t, 'val[r * 4 + i]'))};"
        return ["    [[unroll]] for (int i = 0; i < 4; i++) {",
                "        int f = i > 0 ? x[r * 4 + i] - x[r * 4 + i - 1] : x[r * 4];",
                f"        if (f != 0) {write}",
                "    }"]

    def _position(self, p: str) -> str:
        """The stored form of the int position ``p`` (the output's index type)."""
        out_t = self.k.out_dtype
        value = render_cast(f"({p})", dt.int32, out_t) if out_t is not dt.int32 else f"({p})"
        return glsl.store_value(out_t, value)

    def _staged_store(self) -> list[str]:
        """Phase "compact", ``k.stage``: after a second barrier, the tile's positions (its count of them, the sum
        of the segment totals) leave shared memory in order, invocation ``j`` taking slots ``j``, ``j + 256``, ...
        The next tile writes ``s_p`` only after its first barrier, which every invocation reaches after these
        reads."""
        base = "carry + j" if self.k.carry is not None else "j"
        return ["int tot = 0;",
                "for (uint g = 0u; g < gl_NumSubgroups; g++) tot += s_t[par][g];",
                "barrier();",
                f"for (int j = int(lid); j < tot; j += {LOCAL}) b0.d[{base}] = {self._position('s_p[j]')};"]


def render(k: Scan) -> str:
    """The GLSL of a blocked scan pass (see the module docstring)."""
    assert k.per % 4 == 0 and k.subgroups and math.prod(k.shape[k.axis + 1:]) == 1
    return _Kernel(k).render()
