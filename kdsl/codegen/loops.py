"""Loop skeletons shared by the kernel renderers: the grid-stride loop over a kernel's items, the multi-index
of a flat position, and counted loops, with 32-bit index arithmetic where it cannot overflow and 64-bit
(``int64_t``) where it could.

No loop here guards itself against a device's loop budget (lavapipe stops an invocation after ~65 535 loop
iterations, all loops together): the scheduler sizes each kernel's launch and splits so that the product of
its loops' trips stays under ``Device.loop_budget``.

Example:
    >>> print(chr(10).join(grid_loop(100, 1, ["x[i] = 0;"])))
    int i = int(gl_GlobalInvocationID.x);
    if (i < 100) {
        x[i] = 0;
    }
    >>> print(chr(10).join(grid_loop(2**31 - 10, 4, ["x[i] = 0;"])))
    for (uint i_u = gl_GlobalInvocationID.x; i_u < 2147483638u; i_u += 1024u) {
        int i = int(i_u);
        x[i] = 0;
    }
"""

from __future__ import annotations

import functools
import re

from kdsl.codegen.expr import ExprRenderer, unravel
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL
from kdsl.ir.view import INDEX_LIMIT


def index_type(limit: int) -> str:
    """The GLSL type for an index variable whose values (plus one step past the end) reach ``limit``.

    >>> index_type(1000), index_type(2**31)
    ('int', 'int64_t')
    """
    return "int" if limit <= INDEX_LIMIT else "int64_t"


def int_literal(value: int, ctype: str) -> str:
    """``value`` as a literal of index type ``ctype`` (``int`` or ``int64_t``)."""
    return f"{value}l" if ctype == "int64_t" else str(value)


def grid_loop(size: int, groups: int, body: list[str], var: str = "i", count: str | None = None) -> list[str]:
    """``body`` run for every ``var`` in [0, size): one item per invocation, or a grid-stride loop. ``var`` is an
    ``int`` when ``size`` fits one, else an ``int64_t``; the loop counter never overflows. ``count``: a GLSL
    ``int`` expression read in place of ``size`` (at most ``size``, which then only bounds it: a size-generic
    kernel), allowed while ``size`` plus the stride fits an ``int``."""
    stride = groups * LOCAL
    inner = ["    " + line for line in body]
    end = str(size) if count is None else count
    if stride >= size:
        return [f"int {var} = int(gl_GlobalInvocationID.x);", f"if ({var} < {end}) {{", *inner, "}"]
    if size + stride <= INDEX_LIMIT:
        return [f"for (int {var} = int(gl_GlobalInvocationID.x); {var} < {end}; {var} += {stride}) {{", *inner,
                "}"]
    if count is not None:
        raise ValueError(f"a size-generic loop over up to {size} elements would overflow its int counter")
    if size <= INDEX_LIMIT:  # the last step past the end would overflow an int: count in uint
        return [f"for (uint {var}_u = gl_GlobalInvocationID.x; {var}_u < {size}u; {var}_u += {stride}u) {{",
                f"    int {var} = int({var}_u);", *inner, "}"]
    return [f"for (int64_t {var} = int64_t(gl_GlobalInvocationID.x); {var} < {size}l; {var} += {stride}l) {{",
            *inner, "}"]


def index_vars(r: ExprRenderer, flat: str, shape: tuple[int, ...], ctype: str = "int") -> tuple[str, ...]:
    """Emit the multi-index of ``flat`` (of index type ``ctype``) in ``shape`` as variables; returns their names.
    Each axis index is an ``int`` unless its axis is too long for one (expressions index buffers with ints).

    >>> r = ExprRenderer()
    >>> index_vars(r, "r", (3, 2**31), "int64_t"), r.lines
    (('r_0', 'r_1'), ['int r_0 = int(((r) / 2147483648l));', 'int64_t r_1 = ((r) % 2147483648l);'])
    """
    if len(shape) == 1 and (ctype == "int" or shape[0] > INDEX_LIMIT):
        return (flat,)
    out = []
    for k, (n, code) in enumerate(zip(shape, unravel(flat, shape, wide=ctype != "int"), strict=True)):
        if code == "0":
            out.append("0")
        elif ctype == "int" or n > INDEX_LIMIT:
            r.lines.append(f"{ctype} {flat}_{k} = {code};")
            out.append(f"{flat}_{k}")
        else:
            r.lines.append(f"int {flat}_{k} = int({code});")
            out.append(f"{flat}_{k}")
    return tuple(out)


# Helper functions that loop: iterations per call, by helper name (kdsl.codegen.helpers). An integer power
# loops once per exponent bit; Philox runs 10 rounds (a constant loop a driver may or may not unroll).
_LOOPING = re.compile(r"\b(kd_ipow_(?:ul|l|u|i)|kd_philox_u)\(")
# helper -> its loop's iterations per call (kdsl.codegen.helpers: integer powers unroll 8 exponent bits per turn)
_HELPER_TRIPS = {"kd_ipow_i": 4, "kd_ipow_u": 4, "kd_ipow_l": 8, "kd_ipow_ul": 8, "kd_philox_u": 10}


@functools.lru_cache(maxsize=1024)  # (expressions are interned: the key hashes in O(1); a loop's steps repeat)
def expr_loops(e: Expr, shape: tuple[int, ...]) -> int:
    """Loop iterations (at most) that evaluating expression ``e`` once costs inside helper functions: a kernel
    evaluating it ``n`` times runs ``n * (1 + expr_loops(e, shape))`` loop iterations.

    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import Expr, const
    >>> x = const(0, dt.int32)
    >>> expr_loops(Expr("add", dt.int32, (x, x)), (4,)), expr_loops(Expr("pow", dt.int32, (x, x)), (4,))
    (0, 4)
    """
    r = ExprRenderer()
    r.acc_name = "acc"  # an epilogue's accumulated value: a plain variable, no loop
    r.value(e, shape, tuple(f"i{k}" for k in range(len(shape))))
    return sum(_HELPER_TRIPS[name] for name in _LOOPING.findall("\n".join(r.lines)))


def counted_loop(var: str, start: str, end: str, step: int, body: list[str], ctype: str = "int") -> list[str]:
    """``for (ctype var = start; var < end; var += step)``: the caller checks the trips against the budget."""
    inc = f"{var}++" if step == 1 else f"{var} += {int_literal(step, ctype)}"
    return [f"for ({ctype} {var} = {start}; {var} < {end}; {inc}) {{", *["    " + x for x in body], "}"]
