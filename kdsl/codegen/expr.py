"""Elementwise expressions of the kernel IR -> GLSL statements.

The IR is nested tuples (hashable, so a whole kernel is a dictionary key):

* ``("load", slot, dtype, view)``      buffer ``slot`` read through a strided :class:`View`
* ``("const", word, dtype)``           a scalar push constant starting at ``pc.w[word]``
* ``("iota", axis, dtype)``            the element's index along ``axis``
* ``("rand", dist, dtype, word)``      a counter-based random number (key and stream at ``pc.w[word..+2]``)
* ``("remap", view, shape, src)``      ``src`` (of ``shape``) read through a view of its C-order index space
* ``("lit", value, dtype)``            a scalar baked into the source (when push-constant space ran out)
* ``("acc", dtype)``                   the accumulated value, in a reduction's epilogue
* ``("cast", dtype, src)``             a dtype conversion with NumPy's semantics
* ``("gather", dtype, src_shape, src, index_shape, index)``  ``src`` (of ``src_shape``) at row ``index`` (read at
                                       the leading output axes), the other output axes taken as they are
* ``(name, dtype, *srcs)``             an elementwise op of :data:`kdsl.codegen.ops.OPS`

:class:`ExprRenderer` emits one ``T tN = ...;`` line per distinct (subexpression, index) pair, so a value used
twice is computed once.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> r = ExprRenderer()
    >>> e = ("add", dt.float32, ("load", 1, dt.float32, View.contiguous((4,))), ("const", 0, dt.float32))
    >>> r.value(e, (4,), ("i",)), r.lines
    ('t2', ['float t0 = b1.d[i];', 'float t1 = uintBitsToFloat(pc.w[0]);', 'float t2 = (t0 + t1);'])
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.ops import render_cast, render_op
from kdsl.ir.view import View, contiguous_strides


def flat_index(shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
    """The C-order flat position of multi-index ``idx`` in ``shape``."""
    return View.contiguous(shape).index_expr(list(idx))


def unravel(flat: str, shape: tuple[int, ...]) -> list[str]:
    """GLSL expressions of the multi-index of C-order position ``flat`` in ``shape`` (``flat`` < its size)."""
    out, first = [], True
    for n, s in zip(shape, contiguous_strides(shape), strict=False):
        if n == 1:
            out.append("0")
            continue
        q = f"({flat})" if s == 1 else f"(({flat}) / {s})"
        out.append(q if first else f"({q} % {n})")
        first = False
    return out


class ExprRenderer:
    """Renders IR expressions into ``lines`` of GLSL; records the buffers (``slot -> dtype``) it reads."""

    def __init__(self, buffers: dict[int, dt.DType] | None = None, prefix: str = "t"):
        self.lines: list[str] = []
        self.buffers = {} if buffers is None else buffers
        self.cache: dict = {}
        self.prefix = prefix
        self.count = 0
        self.acc_name: str | None = None  # the variable an ("acc",) node reads, in a reduction's epilogue

    def _emit(self, ctype: str, code: str) -> str:
        name = f"{self.prefix}{self.count}"
        self.count += 1
        self.lines.append(f"{ctype} {name} = {code};")
        return name

    def value(self, e: tuple, shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
        """The name of a GLSL variable holding ``e`` at multi-index ``idx`` of ``shape``."""
        key = (e, idx)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = self._emit(expr_dtype(e).glsl_compute, self._code(e, shape, idx))
        return hit

    def _code(self, e: tuple, shape, idx) -> str:
        kind = e[0]
        if kind == "load":
            _, slot, dtype, view = e
            self.buffers[slot] = dtype
            return glsl.load(slot, dtype, view.index_expr(list(idx)))
        if kind == "const":
            return glsl.const_word(e[1], e[2])
        if kind == "acc":
            return self.acc_name
        if kind == "lit":
            return glsl.literal(e[1], e[2])
        if kind == "iota":
            return render_cast(f"{idx[e[1]]}", dt.int32, e[2])
        if kind == "rand":
            return _random(e[1], e[2], e[3], flat_index(shape, idx))
        if kind == "remap":
            _, view, src_shape, src = e
            flat = self._emit("int", view.index_expr(list(idx)))
            inner = tuple(self._emit("int", x) if x != "0" else "0" for x in unravel(flat, src_shape))
            return self.value(src, src_shape, inner)
        if kind == "cast":
            return render_cast(self.value(e[2], shape, idx), expr_dtype(e[2]), e[1])
        if kind == "gather":
            return self._gather(e, idx)
        args = [self.value(s, shape, idx) for s in e[2:]]
        return render_op(kind, e[1], [expr_dtype(s) for s in e[2:]], args)


    def _gather(self, e: tuple, idx: tuple[str, ...]) -> str:
        """``src[index[idx[:k]], idx[k:]...]``: negative rows wrap, and rows are clamped into range so that a bad
        index never reads outside the buffer (the front end reports out-of-bounds indices)."""
        _, _, src_shape, src, index_shape, index = e
        k = len(index_shape)
        row = self.value(index, index_shape, idx[:k])
        n = src_shape[0]
        kind = expr_dtype(index).glsl_compute
        wrapped = self._emit("int", f"int(clamp(({row} < {kind}(0)) ? {row} + {kind}({n}) : {row}, "
                                    f"{kind}(0), {kind}({n - 1})))")
        return self.value(src, src_shape, (wrapped,) + idx[k:])


def expr_dtype(e: tuple) -> dt.DType:
    """The dtype of an IR expression's value."""
    kind = e[0]
    if kind in ("load", "const", "iota", "rand", "lit"):
        return e[2]
    if kind == "acc":
        return e[1]
    if kind == "remap":
        return expr_dtype(e[3])
    return e[1]


def _random(dist: str, dtype: dt.DType, word: int, flat: str) -> str:
    bits = f"kd_philox_u(uint({flat}), pc.w[{word}], pc.w[{word + 1}], pc.w[{word + 2}])"
    if dist == "bits":
        return f"{bits}.x"
    if dist == "uniform":  # 24 random bits -> [0, 1) exactly representable in float32
        value = f"(float({bits}.x >> 8) * 5.9604644775390625e-8)"
        return value if dtype is dt.float32 else render_cast(value, dt.float32, dtype)
    if dist == "normal":  # Box-Muller on two uniforms; 1 - u keeps the log argument in (0, 1]
        b = f"kd_philox_u(uint({flat}), pc.w[{word}], pc.w[{word + 1}], pc.w[{word + 2}])"
        value = f"kd_boxmuller_f({b})"
        return value if dtype is dt.float32 else render_cast(value, dt.float32, dtype)
    raise ValueError(f"unknown distribution {dist}")
