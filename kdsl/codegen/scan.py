"""Inclusive prefix sums and products (``cumsum``, ``cumprod``) along one axis, as a reduce-then-scan.

A line longer than one block is cut into blocks; three kinds of pass make its scan (see
:class:`kdsl.ir.kernels.Scan` and the scheduler's ``_lower_scan``):

1. "sums": each invocation combines one block of one line (the block totals, a shorter array);
2. the block totals get their own inclusive scan (recursively, so any length works);
3. "scan": each invocation walks one block in order, starting from the scanned total of the blocks before it.

Every invocation walks at most one block, so its loop stays under the device's loop budget, and all blocks of
all lines run in parallel. A line of one block is scanned in a single "scan" pass. ``k.op`` picks the operator
(``+`` or ``*``) and its identity (0 or 1); integer products wrap as NumPy's do (GLSL integer arithmetic is
modulo 2**bits), float products propagate inf and NaN.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> k = Scan((3, 5), 1, dt.float32, load(1, dt.float32, View.contiguous((3, 5))), 0, 1)
    >>> "acc = (acc + " in render(k)
    True
    >>> "acc = (acc * " in render(k._replace(op="prod"))
    True
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl, scan_blocked, scan_workgroup
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import counted_loop, grid_loop
from kdsl.codegen.scan_workgroup import line_and_block, line_element, running_identity
from kdsl.ir.kernels import LOCAL, Scan
from kdsl.ir.view import View


def blocks(k: Scan) -> int:
    """The number of blocks each line is cut into."""
    length = k.shape[k.axis]
    return -(-length // k.block) if k.block and length else 1


def short_shape(k: Scan) -> tuple[int, ...]:
    """``shape`` with the scanned axis shortened to one element per block (the block totals' shape)."""
    return k.shape[:k.axis] + (blocks(k),) + k.shape[k.axis + 1:]


_OPERATORS = {"sum": ("+", 0), "prod": ("*", 1)}



def render(k: Scan) -> str:
    if k.per:
        return scan_blocked.render(k) if k.blocked else scan_workgroup.render(k)
    others = tuple(n for a, n in enumerate(k.shape) if a != k.axis)
    length, nb = k.shape[k.axis], blocks(k)
    block = k.block or length
    out_t = k.out_dtype
    c = out_t.glsl_compute
    if k.op not in _OPERATORS:
        raise ValueError(f"unknown scan operator {k.op!r}; expected 'sum' or 'prod'")
    sym, identity = _OPERATORS[k.op]
    buffers: dict[int, dt.DType] = {0: out_t}
    outer = ExprRenderer(buffers, prefix="k")
    line_idx = line_and_block(outer, others, nb)
    # the block's positions [s0, e0), written so that no sum passes the axis length (no int overflow)
    outer.lines += [f"int s0 = b * {block};", f"int e0 = s0 + min({block}, {length} - s0);"]
    idx = tuple(line_idx[:k.axis] + ["j"] + line_idx[k.axis:])
    inner, x = line_element(k, buffers, line_idx, "j", out_t)
    ident = glsl.literal(running_identity(k.op, identity, out_t), out_t)
    step = inner.lines + [f"acc = {scan_workgroup.complex_product(out_t, ident, 'acc', x)};" if sym == "*" and
                          out_t.kind == "c" else f"acc = (acc {sym} {x});"]
    body = outer.lines + [f"{c} acc = {ident};"]
    if k.phase == "sums":
        body += counted_loop("j", "s0", "e0", 1, step)
        at = View.contiguous(short_shape(k)).index_expr(line_idx[:k.axis] + ["b"] + line_idx[k.axis:])
        body.append(f"b0.d[{at}] = {glsl.store_value(out_t, glsl.narrow(out_t, 'acc'))};")
    else:
        if k.carry is not None:  # start from the scanned totals of the blocks before this one
            cr = ExprRenderer(buffers, prefix="c")
            prev = cr.value(k.carry, short_shape(k), tuple(line_idx[:k.axis] + ["(b - 1)"] + line_idx[k.axis:]))
            body += ["if (b > 0) {", *["    " + x for x in cr.lines], f"    acc = {prev};", "}"]
        out_index = View.contiguous(k.shape).index_expr(list(idx))
        step.append(f"b0.d[{out_index}] = {glsl.store_value(out_t, glsl.narrow(out_t, 'acc'))};")
        body += counted_loop("j", "s0", "e0", 1, step)
    text = "\n".join(grid_loop(max(math.prod(others) * nb, 1), k.groups, body, var="q"))
    return (f"{glsl.header(LOCAL, buffers, k.n_words, body_text=text)}\nvoid main() {{\n"
            + "\n".join("    " + x for x in text.splitlines()) + "\n}\n")


def launch(k: Scan) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
