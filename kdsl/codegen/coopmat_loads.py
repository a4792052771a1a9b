"""The operand tiles of the cooperative-matrix kernel (:mod:`kdsl.codegen.coopmat`): where each lies in shared
memory (:class:`Tile`) and the code that fills it, eight halves at a time, from the operands' fused expressions
or, for a plain aligned float16 buffer, one 16-byte load per eight (:func:`loads`).

Each invocation's ``q``-th load of a tile is written as its own place in the tile plus a constant (a line's
groups divide the workgroup's invocations), so inside the k loop nothing but the slice offset changes; a side
that the tiles always fill (m, n a multiple of the tile, k of the slice) is loaded without a bounds test.

Example:
    >>> t = Tile("Bs", 64, 128, False)
    >>> (t.outer, t.inner, t.stride, t.layout)
    (64, 128, 17, 'gl_CooperativeMatrixLayoutRowMajor')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.operand_order import groups_along, middle_is_contiguous
from kdsl.ir.expr import Expr, offset_of
from kdsl.ir.kernels import LOCAL, Matmul
from kdsl.ir.view import View

if TYPE_CHECKING:
    from kdsl.codegen.coopmat import Layout

PAD = 8  # halves added to each shared row (16 bytes)
VEC = 8  # halves per 16-byte vector load
Limits = tuple[tuple[str, bool], tuple[str, bool]]  # (limit, always inside) of a tile's rows and columns


class Tile:
    """One operand's ``rows x cols`` tile in shared memory, an array of ``uvec4`` (8 halves): row-major, or
    column-major when ``down`` (the operand is contiguous along its rows), so that 8 neighbours in memory are 8
    neighbours in the tile. ``outer x inner`` is the tile in that order; a line holds ``stride`` uvec4s.

    >>> t = Tile("As", 128, 64, True)
    >>> (t.outer, t.inner, t.stride, t.size, t.layout)
    (64, 128, 17, 1088, 'gl_CooperativeMatrixLayoutColumnMajor')
    >>> t.at("r", "c"), t.place(1)
    ('(c) * 17 + ((r) >> 3)', ('As_lo', '(As_hi + 16)'))
    """

    def __init__(self, name: str, rows: int, cols: int, down: bool, threads: int = LOCAL):
        self.name, self.rows, self.cols, self.down, self.threads = name, rows, cols, down, threads
        self.outer, self.inner = (cols, rows) if down else (rows, cols)
        self.stride = (self.inner + PAD) // VEC
        self.size = self.outer * self.stride
        self.layout = "gl_CooperativeMatrixLayout" + ("ColumnMajor" if down else "RowMajor")

    def at(self, row: str, col: str) -> str:
        """The uvec4 index of element ``(row, col)`` (its inner index a non-negative multiple of 8: a shift)."""
        outer, inner = (col, row) if self.down else (row, col)
        return f"({outer}) * {self.stride} + (({inner}) >> 3)"

    def invariants(self) -> str:
        """The declaration of each invocation's place in the tile (see :meth:`place`)."""
        lanes = self.inner // VEC
        return f"int {self.name}_hi = tid / {lanes}, {self.name}_lo = (tid % {lanes}) * {VEC};"

    def place(self, q: int) -> tuple[str, str]:
        """(row, col) of the first of the 8 elements that load ``q`` of an invocation fills: group
        ``tid + threads * q`` of the tile, i.e. the invocation's own place (:meth:`invariants`) moved by whole
        lines, since a line's groups divide ``threads`` (so the index is a loop-invariant part plus a constant)."""
        lanes = self.inner // VEC
        outer, inner = f"({self.name}_hi + {q * self.threads // lanes})", f"{self.name}_lo"
        return (inner, outer) if self.down else (outer, inner)




def vector_view(e: Expr, shape: tuple[int, ...], fast: int,
                pushed: bool = False) -> tuple[int, View, str | None] | None:
    """(slot, view, pushed offset) when operand ``e`` is a plain float16 buffer read whose axis ``fast`` is
    contiguous and whose 16-byte groups along it start on 16-byte boundaries: its tile can then be read 8 halves
    per load instead of 1 (the global loads are what bound this kernel). With ``pushed``, a view whose offset is
    a push constant qualifies too (the GLSL of that offset is returned: the kernel tests its alignment)."""
    if e.op != "load" or e.dtype is not dt.float16:
        return None
    at, wide = offset_of(e.arg)
    if at is not None and (wide or not pushed):
        return None
    view = e.arg[1]
    if not groups_along(view, shape, fast, VEC) or (at is None and view.offset % VEC):
        return None
    return e.arg[0], view, at


def tiles(k: Matmul, g: Layout) -> tuple[Tile, Tile]:
    """The shared tiles of ``k``'s A (``BM x BK``) and B (``BK x BN``) operands, each in its operand's order."""
    return (Tile("As", g.bm, g.bk, middle_is_contiguous(k.a, (k.batch, k.m, k.k)), g.threads),
            Tile("Bs", g.bk, g.bn, middle_is_contiguous(k.b, (k.batch, k.k, k.n)), g.threads))


def loads(k: Matmul, g: Layout, buffers: dict[int, dt.DType]) -> tuple[list[str], list[str], list[str], list[str]]:
    """(register declarations, statements filling them from k slice ``kn``, statements storing them to shared,
    16-byte buffer aliases to declare)."""
    decl: list[str] = []
    fill: list[str] = []
    store: list[str] = []
    aliases: list[str] = []
    ta, tb = tiles(k, g)
    full_k = k.k % g.bk == 0  # every k slice whole (chunks are multiples of BK)
    threads = g.threads
    for name, e, shape, tile in (("ra", k.a, (k.batch, k.m, k.k), ta), ("rb", k.b, (k.batch, k.k, k.n), tb)):
        origin = ("bm", "kn") if name == "ra" else ("kn", "bn")
        # (limit, whether the tile never passes it): a side the tiles fill needs no bounds test
        limits = ((str(k.m), k.m % g.bm == 0), ("ke", full_k)) if name == "ra" else \
            (("ke", full_k), (str(k.n), k.n % g.bn == 0))
        vector = vector_view(e, shape, 1 if tile.down else 2)
        groups = tile.rows * tile.cols // VEC
        decl.append(tile.invariants())
        for q in range(-(-groups // threads)):
            reg = f"{name}{q}"
            row, col = tile.place(q)
            gr, gc = f"({origin[0]} + {row})", f"({origin[1]} + {col})"
            if (q + 1) * threads > groups:  # a small tile (8-deep fragments): the last invocations have no group
                gr = f"(tid + {q * threads} < {groups} ? {gr} : {1 << 30})"
                limits = ((limits[0][0], False), limits[1])  # the row test is what skips them
            decl.append(f"uvec4 {reg} = uvec4(0);")
            if vector is not None:
                slot, view, _ = vector
                buffers[slot] = e.dtype
                line = vector_alias(slot)
                if line not in aliases:
                    aliases.append(line)
                fill += _vector_group(reg, slot, view, gr, gc, limits)
            else:
                fill += _scalar_group(reg, e, shape, tile.down, gr, gc, limits, buffers)
            guard = f"if (tid + {q * threads} < {groups}) " if (q + 1) * threads > groups else ""
            store.append(f"{guard}{tile.name}[{tile.at(row, col)}] = {reg};")
    return decl, fill, store, aliases


def vector_alias(slot: int) -> str:
    """The declaration of buffer ``slot`` as ``uvec4`` groups of eight halves (``b<slot>q``)."""
    return f"layout(std430, set = 0, binding = {slot}) readonly buffer B{slot}q {{ uvec4 d[]; }} b{slot}q;"


def _inside(r: str, c: str, limits: Limits) -> str:
    """The test that element ``(r, c)`` is inside the matrix, leaving out the sides the tiles always fill
    (``"true"`` when both are)."""
    return glsl.bounds_test((i, limit, always) for i, (limit, always) in zip((r, c), limits, strict=True)) or "true"


def _vector_group(reg: str, slot: int, view: View, gr: str, gc: str, limits: Limits) -> list[str]:
    """Eight halves in one 16-byte load into ``reg``, bit for bit (NaNs keep their payload and sign); all eight
    are inside the matrix or none is (the group is aligned and the axis a multiple of 8: :func:`vector_view`)."""
    at = view.index_expr(["bz", gr, gc])
    return [f"{reg} = uvec4(0);", f"if ({_inside(gr, gc, limits)}) {reg} = b{slot}q.d[uint({at}) >> 3];"]


def _scalar_group(reg: str, e: Expr, shape: tuple[int, int, int], down: bool, gr: str, gc: str,
                  limits: Limits, buffers: dict[int, dt.DType]) -> list[str]:
    """Eight elements through the operand's fused expression (zero outside the matrix), packed into ``reg``."""
    lines = [f"f16vec2 {reg}h[4];"]
    for i in range(VEC):
        r = ExprRenderer(buffers, prefix=f"{reg}_{i}_")
        er, ec = (f"({gr} + {i})", gc) if down else (gr, f"({gc} + {i})")
        v = r.value(e, shape, ("bz", er, ec))
        half = f"{reg}h[{i // 2}].{'xy'[i % 2]}"
        lines += [f"{half} = float16_t(0.0);", f"if ({_inside(er, ec, limits)}) {{",
                  *["    " + x for x in r.lines], f"    {half} = float16_t({v});", "}"]
    packed = ", ".join(f"packFloat2x16({reg}h[{w}])" for w in range(VEC // 2))
    return ["{", *["    " + x for x in lines], f"    {reg} = uvec4({packed});", "}"]
