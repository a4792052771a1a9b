"""Elementwise kernels: a grid-stride loop over the output's elements, the fused expression, one store.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import Expr, load
    >>> k = Elementwise((8,), dt.float32, View.contiguous((8,)),
    ...                 Expr("sin", dt.float32, (load(1, dt.float32, View.contiguous((8,))),)), 0, 1)
    >>> "b0.d[i] = t1;" in render(k)
    True
"""

from __future__ import annotations

import math

from kdsl.codegen import glsl, vector
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import grid_loop, index_vars
from kdsl.ir.kernels import LOCAL, Elementwise


def render(k: Elementwise) -> str:
    if k.vec == 4:
        return vector.render(k)
    size = math.prod(k.shape)
    r = ExprRenderer(half_bits=True)  # float16 NaNs exact (glsl.load)
    idx = index_vars(r, "i", k.shape)
    value = r.value(k.expr, k.shape, idx)
    at = k.out_view.index_expr(list(idx)) if k.out_offset is None else \
        k.out_view.index_expr(list(idx), f"pc.w[{k.out_offset[0]}]", k.out_offset[1])
    r.lines.append(glsl.store(0, k.out_dtype, at, value))
    count = None if k.size_word is None else f"int(pc.w[{k.size_word}])"  # a size-generic kernel's element count
    body = "\n".join(grid_loop(size, k.groups, r.lines, count=count))
    buffers = {0: k.out_dtype, **r.buffers}
    return f"{glsl.header(LOCAL, buffers, k.n_words, body_text=body)}\nvoid main() {{\n{_indent(body)}\n}}\n"


def launch(k: Elementwise) -> tuple[int, int, int]:
    return (k.groups, 1, 1)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
