"""Inclusive prefix sums (``cumsum``) along one axis: each invocation walks one line of the array in order.

Simple and exact in order of summation (like NumPy's); parallel only across lines. A long line loops in
nested blocks to stay under lavapipe's 65 535-iteration cap.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> k = Scan((3, 5), 1, dt.float32, load(1, dt.float32, View.contiguous((3, 5))), 0, 1)
    >>> "acc = (acc + " in render(k)
    True
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import bounded_loop, grid_loop, index_vars
from kdsl.codegen.ops import render_cast
from kdsl.ir.kernels import LOCAL, Scan
from kdsl.ir.view import View


def render(k: Scan) -> str:
    others = tuple(n for a, n in enumerate(k.shape) if a != k.axis)
    length = k.shape[k.axis]
    t = k.expr.dtype
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    outer = ExprRenderer(buffers, prefix="k")
    line_idx = list(index_vars(outer, "l", others)) if others else []
    idx = tuple(line_idx[:k.axis] + ["j"] + line_idx[k.axis:])
    inner = ExprRenderer(buffers, prefix="v")
    v = inner.value(k.expr, k.shape, idx)
    out_index = View.contiguous(k.shape).index_expr(list(idx))
    step = inner.lines + [f"acc = (acc + {render_cast(v, t, k.out_dtype) if t is not k.out_dtype else v});",
                          f"b0.d[{out_index}] = {glsl.store_value(k.out_dtype, glsl.narrow(k.out_dtype, 'acc'))};"]
    body = outer.lines + [f"{k.out_dtype.glsl_compute} acc = {glsl.zero(k.out_dtype)};"]
    body += bounded_loop("j", "0", str(length), 1, length, step)
    text = "\n".join(grid_loop(max(math.prod(others), 1), k.groups, body, var="l"))
    return (f"{glsl.header(LOCAL, buffers, k.n_words, body_text=text)}\nvoid main() {{\n"
            + "\n".join("    " + x for x in text.splitlines()) + "\n}\n")


def launch(k: Scan) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
