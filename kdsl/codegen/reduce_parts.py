"""The bookkeeping every mode of a reduction kernel shares (kdsl/codegen/reduce.py): the kept and reduced shapes,
the loop counter's and argmax index's types, the accumulators' initial values, one element's fold and the
result's store (with its fused epilogue); and the fold of four elements a turn into four accumulators.

Example:
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.view import View
    >>> k = Reduce("sum", (4, 300), (1,), dt.float32, load(1, dt.float32, View.contiguous((4, 300))),
    ...            0, "group", 1, 4, None)
    >>> p = ReduceParts(k)
    >>> p.kept_shape, p.red_shape, p.ctype
    ((4,), (300,), 'int')
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_type, index_vars, int_literal
from kdsl.codegen.ops import render_cast
from kdsl.codegen.reduce_combine import INT_MAX, better, combine, identity
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Reduce

Buffers = dict[int, dt.DType]  # binding slot -> dtype of the buffers a kernel reads and writes


class ReduceParts:
    """Shapes and index bookkeeping shared by the modes."""

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
        return acc + ([f"{self.itype} acci = {INT_MAX[self.itype]};"] if self.arg else [])

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
        lines: list[str] = []
        if self.op == "sum" and self.t.kind in "fc":
            # NumPy 2 folds a float sum from +0.0, so its zeros are +0.0 even of only -0.0 elements; kdsl's
            # accumulators may hold -0.0 (lavapipe folds 0.0 + x to x, even a precise one), so a zero's sign
            # bit is cleared here, by integer operations. sum(initial=) is the frontend's.
            lines, raw = [f"{self.t.glsl_compute} accz = {positive_zero(self.t.glsl_compute, 'acc')};"], "accz"
        if k.epilogue is None:
            value = render_cast(raw, raw_t, k.out_dtype)
            return lines + [f"b0.d[{out_index}] = {glsl.store_value(k.out_dtype, value)};"]
        er.lines += lines
        acc_t = _acc_dtype(k.epilogue) or raw_t  # the reduction's result dtype, as the consumer reads it
        if acc_t.wraps:
            # an 8/16-bit sum or product folds in 32 bits (float16 in float32, or a float32 fold of float16 values);
            # the stored result is narrowed by its store, and a fused consumer must read that narrowed value too:
            # sum(int8 [100, 100], dtype=int8) / 2 is -28.0, not 100.0, and a float16 sum past 65504 is inf
            # (float16 by the integer rounding: NVIDIA's compiler folds the float(float16_t(x)) round trip of the
            # native kd_half_f here, so a consumer read 90002.6 where the stored float16 sum is inf)
            raw, raw_t = narrowed(acc_t, render_cast(raw, raw_t, acc_t)), acc_t
        er.lines.append(f"{acc_t.glsl_compute} accv = {render_cast(raw, raw_t, acc_t)};")
        er.acc_name = "accv"
        if tuple(k.out_shape) != self.kept_shape:  # the epilogue reads a reshape of the result
            er.lines.append(f"int eo = {o_var};")
            kept_idx = index_vars(er, "eo", tuple(k.out_shape)) if k.out_shape else ()
        value = er.value(k.epilogue, tuple(k.out_shape), tuple(kept_idx))
        return er.lines + [f"b0.d[{out_index}] = {glsl.store_value(k.out_dtype, value)};"]


def narrowed(t: dt.DType, value: str) -> str:
    """GLSL for a reduction's folded ``value`` (in ``t``'s compute type) as its stored ``t`` holds it: an 8/16-bit
    integer wrapped, a float16 rounded by the integer helpers (NVIDIA's compiler folds the native
    ``float(float16_t(x))`` round trip of ``kd_half_f``). A fused consumer must read this value, not the fold.

    >>> narrowed(dt.float16, "a"), narrowed(dt.uint8, "a"), narrowed(dt.float32, "a")
    ('kd_f16val_u(kd_f16bits_f(a))', '((a) & 255u)', 'a')
    """
    return f"kd_f16val_u(kd_f16bits_f({value}))" if t is dt.float16 else glsl.narrow(t, value)


def positive_zero(c: str, v: str) -> str:
    """GLSL for ``v`` (of GLSL type ``c``: float, double, vec2 or dvec2) with the sign bit of its zeros cleared.

    >>> positive_zero("float", "a")
    'uintBitsToFloat(floatBitsToUint(a) & (a == 0.0 ? 0x7fffffffu : 0xffffffffu))'
    """
    if c == "vec2":
        return f"vec2({positive_zero('float', v + '.x')}, {positive_zero('float', v + '.y')})"
    if c == "dvec2":
        return f"dvec2({positive_zero('double', v + '.x')}, {positive_zero('double', v + '.y')})"
    if c == "double":
        return (f"packDouble2x32(unpackDouble2x32({v}) & uvec2(0xffffffffu, {v} == 0.0LF ? 0x7fffffffu : "
                "0xffffffffu))")
    return f"uintBitsToFloat(floatBitsToUint({v}) & ({v} == 0.0 ? 0x7fffffffu : 0xffffffffu))"


def _acc_dtype(e: Expr) -> dt.DType | None:
    return next((a.dtype for a in e.find("acc")), None)


def needs_int64(k: Reduce) -> bool:
    """Whether ``k`` counts positions in 64-bit integers (reductions of about 2**31 elements or more)."""
    p = ReduceParts(k)
    return "int64_t" in (p.ctype, p.itype)


VEC4 = {"float": "vec4", "int": "ivec4", "uint": "uvec4"}


def unrolled(k: Reduce, p: ReduceParts, kept_idx: tuple[str, ...], buffers: Buffers, start: str, end: str,
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
