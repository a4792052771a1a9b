"""GLSL syntax for kernels: loads and stores of every dtype, and the layout of a whole compute shader around a
translated :class:`~kdsl.frontend.kernels.ir.KernelProgram`. Literals, casts and every operation's scalar
semantics come from :mod:`kdsl.codegen` (the same library the array kernels use), so an expression means the
same in both faces.

Example:
    >>> from kdsl import dtype as dt
    >>> literal(2, dt.float32), literal(3, dt.uint32), cast(Expr("v_i", dt.int32), dt.float64).code
    ('2.0', '3u', 'double(v_i)')
"""

from __future__ import annotations

import math

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen import glsl as cg
from kdsl.codegen import helpers
from kdsl.codegen.ops import render_cast
from kdsl.dtype import DType
from kdsl.frontend.kernels.ir import ArrayRef, Expr, KernelProgram, PushField


def glsl_type(dtype: DType) -> str:
    """The GLSL type of a value dtype (its compute type)."""
    return dtype.glsl_compute


def literal(value: object, dtype: DType) -> str:
    """``value`` written as a GLSL literal of the value dtype ``dtype`` (kdsl.codegen's spelling)."""
    return cg.literal(value, dtype)


def cast(e: Expr, dtype: DType) -> Expr:
    """``e`` converted to the value dtype ``dtype`` as NumPy converts (literals are re-written, not wrapped)."""
    if e.dtype is dtype:
        return e
    if e.const is not None and not isinstance(e.const, tuple):
        value = _convert(e.const, dtype)
        return Expr(literal(value, dtype), dtype, e.weak, value)
    return Expr(render_cast(e.code, e.dtype, dtype), dtype, nonneg=e.nonneg and dtype.kind != "b")


def _convert(value: object, dtype: DType) -> object:
    """A compile-time constant converted like ``np.array(value).astype(dtype)`` (ints wrap, floats round)."""
    with np.errstate(all="ignore"):
        return np.array(value).astype(dtype.np)[()].item()


def narrow(e: Expr, dtype: DType) -> Expr:
    """A value cast to an 8/16-bit or float16 *type* (``kd.i8(x)``) and widened back: wraps like NumPy.

    Done in the 32-bit compute types (kdsl.codegen's narrowing) so no 8/16-bit arithmetic feature is needed.
    """
    value = cast(e, dtype.value)
    if value.const is not None:
        return cast(Expr("", dtype.value, False, _convert(value.const, dtype)), dtype.value)
    return Expr(cg.narrow(dtype, value.code), dtype.value)


def load(array: ArrayRef, index: str) -> Expr:
    """Read one element, widened to its value dtype (bool arrays hold one byte per element)."""
    ref = f"{array.glsl}[{index}]"
    if array.kind != "buffer":
        return Expr(ref, array.dtype)
    return Expr(cg.from_storage(array.dtype, ref), array.dtype.value)


def stored(array: ArrayRef, value: Expr) -> str:
    """GLSL text of ``value`` converted to the array's storage type (narrowing wraps, as in NumPy)."""
    if array.kind != "buffer":
        return cast(value, array.dtype).code
    return cg.store_value(array.dtype, cast(value, array.dtype.value).code)


def _extensions(program: KernelProgram, text: str) -> list[str]:
    ext = set(program.extensions)
    for a in program.buffers:
        if a.dtype.extension:
            ext.add(a.dtype.extension)
    wide = {dt.int64, dt.uint64}
    if wide & (set(program.locals.values()) | {f.dtype for f in program.push} | {a.dtype for a in program.arrays}) \
            or "int64" in program.features or "int64_t" in text:
        ext.add("GL_EXT_shader_explicit_arithmetic_types_int64")
    return sorted(ext)


def _push_block(program: KernelProgram) -> list[str]:
    # 8-byte members first: with every member 4 or 8 bytes the std430 offsets then need no padding.
    fields = push_layout(program)
    lines = ["layout(push_constant) uniform Push {"]
    lines += [f"    {glsl_type(f.dtype)} {f.name};" for f in fields]
    return lines + ["} pc;"]


def push_layout(program: KernelProgram) -> list[PushField]:
    """The push fields in block order (the order :func:`render` declares them)."""
    return sorted(program.push, key=lambda f: -f.dtype.itemsize)


def _declarations(program: KernelProgram) -> list[str]:
    lines = []
    for a in program.buffers:
        access = "readonly " if not a.written else ("writeonly " if not a.read else "")
        storage = a.dtype.glsl_storage  # bool arrays: one byte each
        lines.append(f"layout(std430, set = 0, binding = {a.binding}) {access}buffer B{a.binding} "
                     f"{{ {storage} {a.glsl}[]; }};")
    for a in program.arrays:
        if a.kind == "shared":
            lines.append(f"shared {glsl_type(a.dtype)} {a.glsl}[{math.prod(a.shape or ())}];")
    return lines


def _zero(dtype: DType) -> str:
    return literal(0, dtype)


def render(program: KernelProgram) -> str:
    """The full GLSL 450 compute shader of ``program`` (deterministic text: equal programs, equal source)."""
    x, y, z = program.local_size
    code = "\n".join(program.functions + program.prologue + program.body)
    out = ["#version 450"]
    out += [f"#extension {e} : require" for e in _extensions(program, code)]
    out.append(f"// kdsl kernel {program.name}")
    out.append(f"layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;")
    out += _declarations(program)
    out += _push_block(program)
    out += helpers.needed(code)
    out += program.functions
    out.append("void main() {")
    if not program.uses_barrier:
        # Invocations past the requested grid do nothing (a kernel with barriers guards itself instead,
        # since every invocation of a workgroup must reach each barrier).
        out.append("    if (gl_GlobalInvocationID.x >= pc.grid_x || gl_GlobalInvocationID.y >= pc.grid_y"
                   " || gl_GlobalInvocationID.z >= pc.grid_z) return;")
    for a in program.arrays:
        if a.kind == "local":
            out.append(f"    {glsl_type(a.dtype)} {a.glsl}[{math.prod(a.shape or ())}];")
    out += [f"    {glsl_type(t)} v_{n} = {_zero(t)};" for n, t in program.locals.items()]
    out += ["    " + line for line in program.prologue]
    out += ["    " + line for line in program.body]
    out.append("}")
    return "\n".join(out) + "\n"
