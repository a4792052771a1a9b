"""Elementwise expressions of the kernel IR -> GLSL statements.

The IR is :class:`kdsl.ir.expr.Expr` (``op``, ``dtype``, ``srcs``, ``arg``; its docstring lists the kinds).
Expressions are DAGs: a subexpression used twice is one node.
A ``rows`` node (``srcs = (src, index)``, ``arg = (src_shape, index_shape)``) reads ``src`` at row ``index``
(read at the leading output axes), the other output axes taken as they are.

:class:`ExprRenderer` emits one ``T tN = ...;`` line per distinct (subexpression, index) pair, so a value used
twice is computed once. Float and complex values are ``precise``: no contraction into fused multiply-adds and
no reassociation, so each operation rounds as NumPy's loop does (and ``x - x`` of NaN stays NaN: Mesa folds it
to 0 otherwise).

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir import expr as ir
    >>> r = ExprRenderer()
    >>> x = ir.load(1, dt.float32, View.contiguous((4,)))
    >>> e = Expr("add", dt.float32, (x, ir.const(0, dt.float32)))
    >>> r.value(e, (4,), ("i",))
    't2'
    >>> r.lines
    ['precise float t0 = b1.d[i];', 'precise float t1 = uintBitsToFloat(pc.w[0]);', 'precise float t2 = (t0 + t1);']
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.ops import render_bitcast, render_cast, render_op
from kdsl.ir.expr import Expr, offset_of
from kdsl.ir.view import INDEX_LIMIT, View, contiguous_strides


def flat_index(shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
    """The C-order flat position of multi-index ``idx`` in ``shape``."""
    return View.contiguous(shape).index_expr(list(idx))


def unravel(flat: str, shape: tuple[int, ...], wide: bool = False) -> list[str]:
    """GLSL expressions of the multi-index of C-order position ``flat`` in ``shape`` (``flat`` < its size);
    ``wide``: ``flat`` is an ``int64_t`` (the literals are too)."""
    out, first, suffix = [], True, "l" if wide else ""
    for n, s in zip(shape, contiguous_strides(tuple(shape)), strict=False):
        if n == 1:
            out.append("0")
            continue
        q = f"({flat})" if s == 1 else f"(({flat}) / {s}{suffix})"
        out.append(q if first else f"({q} % {n}{suffix})")
        first = False
    return out


class ExprRenderer:
    """Renders IR expressions into ``lines`` of GLSL; records the buffers (``slot -> dtype``) it reads."""

    def __init__(self, buffers: dict[int, dt.DType] | None = None, prefix: str = "t", half_bits: bool = False):
        self.lines: list[str] = []
        # float16 loads by their bits (glsl.load): exact NaNs for elementwise kernels; other kernels (matmul's
        # tile loads above all) keep the driver's cheaper conversion
        self.half_bits = half_bits
        self.buffers = {} if buffers is None else buffers
        # (expr, index) -> variable: each shared subexpression is emitted once per index (Expr hashes in O(1))
        self.cache: dict[tuple[Expr, tuple[str, ...]], str] = {}
        self.prefix = prefix
        self.count = 0
        self.acc_name: str | None = None  # the variable an "acc" node reads, in a reduction's epilogue

    def _emit(self, ctype: str, code: str) -> str:
        name = f"{self.prefix}{self.count}"
        self.count += 1
        self.lines.append(f"{ctype} {name} = {code};")
        return name

    def value(self, e: Expr, shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
        """The name of a GLSL variable holding ``e`` at multi-index ``idx`` of ``shape``."""
        key = (e, idx)
        hit = self.cache.get(key)
        if hit is None:
            ctype = e.dtype.glsl_compute
            if e.dtype.kind in "fc":  # rounded as written, as NumPy's loops (kdsl.codegen.precise says why)
                ctype = f"precise {ctype}"
            hit = self.cache[key] = self._emit(ctype, self._code(e, shape, idx))
        return hit

    def _code(self, e: Expr, shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
        op, arg = e.op, e.arg
        if op == "load":
            slot, view = arg[0], arg[1]
            self.buffers[slot] = e.dtype
            return glsl.load(slot, e.dtype, view.index_expr(list(idx), *offset_of(arg)), self.half_bits)
        if op == "const":
            return glsl.const_word(arg, e.dtype)
        if op == "acc":
            if self.acc_name is None:
                raise ValueError("an 'acc' expression outside a reduction's epilogue")
            return self.acc_name
        if op == "lit":
            return glsl.literal(arg, e.dtype)
        if op == "iota":
            return render_cast(f"{idx[arg]}", dt.int32, e.dtype)
        if op == "rand":
            return _random(arg[0], e.dtype, arg[1], flat_index(shape, idx))
        if op == "remap":
            view, src_shape = arg[0], arg[1]
            at, wide = offset_of(arg)
            if view.wide if wide is None else wide:  # positions past int32: 64-bit arithmetic, int axis indices
                flat = self._emit("int64_t", view.index_expr(list(idx), at, wide))
                inner = tuple("0" if x == "0" else self._emit("int64_t", x) if n > INDEX_LIMIT
                              else self._emit("int", f"int({x})")
                              for n, x in zip(src_shape, unravel(flat, src_shape, wide=True), strict=True))
                return self.value(e.srcs[0], src_shape, inner)
            flat = self._emit("int", view.index_expr(list(idx), at, wide))
            inner = tuple(self._emit("int", x) if x != "0" else "0" for x in unravel(flat, src_shape))
            return self.value(e.srcs[0], src_shape, inner)
        if op in ("cast", "bitcast"):
            src = e.srcs[0]
            if op == "cast" and src.op == "cast" and src.dtype is dt.float64 and e.dtype is dt.float32 and \
                    src.srcs[0].dtype in (dt.int64, dt.uint64):
                # int64 -> float64 -> float32 rounds twice in NumPy; lavapipe folds the pair to one rounding, so
                # the float64 is made by integer steps here (kd_tof64_l; plain casts to float64 stay fast)
                integer = self.value(src.srcs[0], shape, idx)
                return f"float(kd_tof64_{'l' if src.srcs[0].dtype is dt.int64 else 'ul'}({integer}))"
            render = render_cast if op == "cast" else render_bitcast
            return render(self.value(src, shape, idx), src.dtype, e.dtype)
        if op == "rows":
            return self._rows(e, idx)
        if op == "patch":
            return self._patch(e, shape, idx)
        args = [self.value(s, shape, idx) for s in e.srcs]
        return render_op(op, e.dtype, [s.dtype for s in e.srcs], args)

    def _patch(self, e: Expr, shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
        """``piece`` inside the box ``arg = (starts, lengths)``, ``base`` outside; the piece is read at the index
        clamped into the box (every read in bounds: both sides are evaluated, as a select)."""
        (base, piece), (starts, lengths) = e.srcs, e.arg
        inner = tuple(self._emit("int", f"clamp({i} - {s}, 0, {n - 1})") if n > 1 else "0"
                      for i, s, n in zip(idx, starts, lengths, strict=True))
        checks = [f"({i} >= {s} && {i} < {s + n})" for i, s, n, whole in zip(idx, starts, lengths, shape, strict=True)
                  if n < whole]
        kept = self.value(piece, tuple(lengths), inner)
        if not checks:
            return kept
        return f"(({' && '.join(checks)}) ? {kept} : {self.value(base, shape, idx)})"

    def _rows(self, e: Expr, idx: tuple[str, ...]) -> str:
        """``src[index[idx[:k]], idx[k:]...]``: negative rows wrap, and rows are clamped into range so that a bad
        index never reads outside the buffer (the front end reports out-of-bounds indices)."""
        (src, index), (src_shape, index_shape) = e.srcs, e.arg
        k = len(index_shape)
        row = self.value(index, index_shape, idx[:k])
        n = src_shape[0]
        kind = index.dtype.glsl_compute
        wrapped = self._emit("int", f"int(clamp(({row} < {kind}(0)) ? {row} + {kind}({n}) : {row}, "
                                    f"{kind}(0), {kind}({n - 1})))")
        return self.value(src, src_shape, (wrapped,) + idx[k:])


def _random(dist: str, dtype: dt.DType, word: int | tuple[int, ...], flat: str) -> str:
    """A counter-based random value at position ``flat``: key and stream from push words ``word..word+2``, or
    baked into the source when ``word`` is the tuple of the three words (push-constant space ran out)."""
    keys = [f"{k}u" for k in word] if isinstance(word, tuple) else [f"pc.w[{word + i}]" for i in range(3)]
    bits = f"kd_philox_u(uint({flat}), {', '.join(keys)})"
    if dist == "bits":
        return f"{bits}.x"
    if dist == "uniform":  # 24 random bits -> [0, 1) exactly representable in float32
        value = f"(float({bits}.x >> 8) * 5.9604644775390625e-8)"
        return value if dtype is dt.float32 else render_cast(value, dt.float32, dtype)
    if dist == "normal":  # Box-Muller on two uniforms; 1 - u keeps the log argument in (0, 1]
        value = f"kd_boxmuller_f({bits})"
        return value if dtype is dt.float32 else render_cast(value, dt.float32, dtype)
    raise ValueError(f"unknown distribution {dist}")
