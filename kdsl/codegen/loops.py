"""Loop skeletons shared by the kernel renderers: the grid-stride loop over a kernel's elements, the
multi-index of a flat position, and loops kept under a device's per-loop iteration cap.

Example:
    >>> print(chr(10).join(grid_loop(100, 1, ["x[i] = 0;"])))
    int i = int(gl_GlobalInvocationID.x);
    if (i < 100) {
        x[i] = 0;
    }
"""

from __future__ import annotations

from kdsl.codegen.expr import ExprRenderer, unravel
from kdsl.ir.kernels import LOCAL, LOOP_CAP


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


def bounded_loop(var: str, start: str, end: str, step: int, trips: int, body: list[str]) -> list[str]:
    """``for (var = start; var < end; var += step)``, nested in two when ``trips`` passes the loop cap."""
    inner = ["    " + x for x in body]
    if trips <= LOOP_CAP:
        return [f"for (int {var} = {start}; {var} < {end}; {var} += {step}) {{", *inner, "}"]
    chunk = step * 4096
    return [f"for (int {var}_b = {start}; {var}_b < {end}; {var}_b += {chunk}) {{",
            f"    int {var}_e = min({end}, {var}_b + {chunk});",
            f"    for (int {var} = {var}_b; {var} < {var}_e; {var} += {step}) {{",
            *["    " + x for x in inner], "    }", "}"]
