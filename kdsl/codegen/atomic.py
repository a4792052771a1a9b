"""Scatter with atomics (:class:`kdsl.ir.kernels.Scatter`): one invocation per (index, value) pair, each doing
``atomicAdd`` / ``atomicMax`` / ``atomicMin`` on one element of the output buffer, a plain storage buffer of
the output's type (an earlier step of the same node filled it with the target's old values).

Which (operation, dtype) pairs have a native atomic, and the device feature each needs (:data:`NATIVE`), is
decided here; the scheduler checks the features against the device before it builds the kernel, so a kernel
of this kind always compiles. There is no compare-and-swap loop: its retries are unbounded, and a device with
a loop budget (lavapipe stops an invocation after ~65 535 iterations) could cut it short; the dtypes without
a native atomic take the sort-based path of :mod:`kdsl.frontend.array.scatter_sorted` instead.

Atomic float additions run in an undefined order: the result may differ from a sequential sum by rounding,
and from run to run (as PyTorch's ``index_add_`` on CUDA). Integer additions wrap and are exact in any order.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir import expr as ir
    >>> from kdsl.ir.kernels import Scatter
    >>> from kdsl.ir.view import View
    >>> idx = ir.load(1, dt.int32, View.contiguous((6,)))
    >>> val = ir.load(2, dt.float32, View.contiguous((6,)))
    >>> src = render(Scatter("add", dt.float32, 4, 6, idx, dt.int32, val, 0, 1))
    >>> "atomicAdd(b0.d[" in src, "GL_EXT_shader_atomic_float" in src
    (True, True)
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import grid_loop
from kdsl.codegen.ops import render_cast
from kdsl.ir.kernels import LOCAL, Scatter
from kdsl.ir.view import INDEX_LIMIT

# (op, dtype name) -> the device feature its atomic needs ("" = core Vulkan)
NATIVE: dict[tuple[str, str], str] = {
    ("add", "int32"): "", ("add", "uint32"): "",
    ("max", "int32"): "", ("max", "uint32"): "", ("min", "int32"): "", ("min", "uint32"): "",
    ("add", "int64"): "int64_atomics", ("add", "uint64"): "int64_atomics",
    ("max", "int64"): "int64_atomics", ("max", "uint64"): "int64_atomics",
    ("min", "int64"): "int64_atomics", ("min", "uint64"): "int64_atomics",
    ("add", "float32"): "atomic_float32_add", ("add", "float64"): "atomic_float64_add",
}
_FUNCTION = {"add": "atomicAdd", "max": "atomicMax", "min": "atomicMin"}


def native(op: str, dtype: dt.DType, features: set[str] | frozenset[str]) -> bool:
    """Whether ``op`` on ``dtype`` has a native atomic on a device with ``features``.

    >>> native("add", dt.float32, {"atomic_float32_add"}), native("add", dt.float32, set()), \
native("max", dt.float32, {"atomic_float32_add"})
    (True, False, False)
    """
    need = NATIVE.get((op, dtype.name))
    return need is not None and (need == "" or need in features)


def _extensions(dtype: dt.DType) -> list[str]:
    if dtype.is_float:
        return ["#extension GL_EXT_shader_atomic_float : require"]
    if dtype.itemsize == 8:
        return ["#extension GL_EXT_shader_atomic_int64 : require"]
    return []


def render(k: Scatter) -> str:
    """GLSL of one atomic scatter kernel (see the module docstring)."""
    if (k.op, k.out_dtype.name) not in NATIVE:
        raise ValueError(f"no atomic {k.op} on {k.out_dtype.name}; use the sort-based scatter")
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    r = ExprRenderer(buffers, prefix="v")
    wide = k.n > INDEX_LIMIT or k.index_dtype.itemsize == 8 or k.index_dtype.glsl_compute == "uint"
    t, lit = ("int64_t", f"{k.n}l") if wide else ("int", str(k.n))
    iv = r.value(k.indices, (k.m,), ("i",))  # type: ignore[arg-type]  # the IR is opaque here
    r.lines += [f"{t} g = {render_cast(iv, k.index_dtype, dt.int64 if wide else dt.int32)};",
                f"if (g < {t}(0)) g += {lit};"]
    put = ExprRenderer(buffers, prefix="u")
    value = put.value(k.values, (k.m,), ("i",))  # type: ignore[arg-type]
    # out-of-range indices (refused on the host before the launch) must never touch memory; the position is
    # computed in 64 bits where the target or the index needs it, and indexes the buffer as a uint (GLSL takes
    # 32-bit indices only: the scheduler refuses targets of 2**32 elements or more)
    r.lines += [f"if (g >= {t}(0) && g < {lit}) {{", *["    " + x for x in put.lines],
                f"    {_FUNCTION[k.op]}(b0.d[uint(g)], {value});", "}"]
    lines = grid_loop(k.m, k.groups, r.lines)
    text = "\n".join(lines)
    head = glsl.header(LOCAL, buffers, k.n_words, body_text=text).split("\n")
    head[1:1] = _extensions(k.out_dtype)
    return "\n".join(head) + "\nvoid main() {\n" + "\n".join("    " + x for x in lines) + "\n}\n"


def launch(k: Scatter) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
