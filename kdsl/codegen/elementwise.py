"""Elementwise kernels: a grid-stride loop over the output's elements, the fused expression, one store.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.codegen.view import View
    >>> k = Elementwise((8,), dt.float32, View.contiguous((8,)),
    ...                 ("sin", dt.float32, ("load", 1, dt.float32, View.contiguous((8,)))), 0, 1)
    >>> "b0.d[i] = t1;" in render(k)
    True
"""

from __future__ import annotations

import math

from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer, unravel
from kdsl.codegen.kernels import LOCAL, Elementwise


def grid_loop(size: int, groups: int, body: list[str], var: str = "i") -> list[str]:
    """``body`` run for every ``var`` in [0, size): one element per invocation, or a grid-stride loop."""
    stride = groups * LOCAL
    inner = ["    " + line for line in body]
    if stride >= size:
        return [f"int {var} = int(gl_GlobalInvocationID.x);", f"if ({var} < {size}) {{", *inner, "}"]
    return [f"for (int {var} = int(gl_GlobalInvocationID.x); {var} < {size}; {var} += {stride}) {{", *inner, "}"]


def index_vars(r: ExprRenderer, flat: str, shape: tuple[int, ...]) -> tuple[str, ...]:
    """Emit the multi-index of ``flat`` in ``shape`` as int variables; returns their names."""
    if len(shape) == 1:
        return (flat,)
    out = []
    for k, code in enumerate(unravel(flat, shape)):
        if code == "0":
            out.append("0")
        else:
            r.lines.append(f"int {flat}_{k} = {code};")
            out.append(f"{flat}_{k}")
    return tuple(out)


def render(k: Elementwise) -> str:
    if k.vec == 4:
        from kdsl.codegen import vector

        return vector.render(k)
    size = math.prod(k.shape)
    r = ExprRenderer()
    idx = index_vars(r, "i", k.shape)
    value = r.value(k.expr, k.shape, idx)
    r.lines.append(f"b0.d[{k.out_view.index_expr(list(idx))}] = {glsl.store_value(k.out_dtype, value)};")
    body = "\n".join(grid_loop(size, k.groups, r.lines))
    buffers = {0: k.out_dtype, **r.buffers}
    return f"{glsl.header(LOCAL, buffers, k.n_words, body_text=body)}\nvoid main() {{\n{_indent(body)}\n}}\n"


def launch(k: Elementwise) -> tuple[int, int, int]:
    return (k.groups, 1, 1)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
