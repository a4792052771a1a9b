"""GLSL syntax for kernels: literals, casts, loads and stores of every dtype, helper functions, and the
layout of a whole compute shader around a translated :class:`~kdsl.frontend.kernels.ir.KernelProgram`.

Example:
    >>> from kdsl.frontend.kernels.ir import Expr
    >>> literal(2, "float32"), literal(3, "uint32"), cast(Expr("v_i", "int32"), "float64").code
    ('2.0', '3u', 'double(v_i)')
"""

from __future__ import annotations

import math

from kdsl.frontend.kernels.ir import ArrayRef, Expr, KernelProgram
from kdsl.frontend.kernels.types import GLSL_TYPES, bits, is_float, value_dtype

_FLOAT_BITS = {"float32": ("uintBitsToFloat", "0x7f800000u", "0xff800000u", "0x7fc00000u"),
               "float64": ("double", "", "", "")}


def glsl_type(dtype: str) -> str:
    return GLSL_TYPES[dtype]


def literal(value, dtype: str) -> str:
    """``value`` written as a GLSL literal of ``dtype`` (one of the value dtypes)."""
    if dtype == "bool":
        return "true" if value else "false"
    if is_float(dtype):
        value = float(value)
        if math.isinf(value) or math.isnan(value):
            words = _FLOAT_BITS["float32"]
            text = f"{words[0]}({words[1] if value > 0 else words[2]})" if math.isinf(value) \
                else f"{words[0]}({words[3]})"
            return text if dtype == "float32" else f"double({text})"
        text = repr(value)
        text = text if ("." in text or "e" in text) else text + ".0"
        return text + ("lf" if dtype == "float64" else "")
    value = int(value)
    suffix = {"int32": "", "uint32": "u", "int64": "l", "uint64": "ul"}[dtype]
    if dtype == "int32" and value == -(2 ** 31):
        return "(-2147483647 - 1)"  # the literal 2147483648 does not fit an int
    if dtype == "int64" and value == -(2 ** 63):
        return "(-9223372036854775807l - 1l)"
    return f"{value}{suffix}" if value >= 0 else f"({value}{suffix})"


def cast(e: Expr, dtype: str) -> Expr:
    """``e`` converted to the value dtype ``dtype`` (literals are re-written rather than wrapped)."""
    if e.dtype == dtype:
        return e
    if e.const is not None and not isinstance(e.const, tuple):
        value = bool(e.const) if dtype == "bool" else (float(e.const) if is_float(dtype) else int(e.const))
        return Expr(literal(value, dtype), dtype, e.weak, value)
    if dtype == "bool":
        return Expr(f"({e.code} != {literal(0, e.dtype)})", "bool")
    if e.dtype == "bool":
        return Expr(f"({e.code} ? {literal(1, dtype)} : {literal(0, dtype)})", dtype)
    return Expr(f"{glsl_type(dtype)}({e.code})", dtype)


def narrow(e: Expr, dtype: str) -> Expr:
    """A value cast to an 8/16-bit or float16 *type* (``kd.i8(x)``) and widened back: wraps like NumPy.

    Done with shifts and ``packHalf2x16`` so no 8/16-bit arithmetic feature is needed.
    """
    if dtype == "float16":
        return Expr(f"unpackHalf2x16(packHalf2x16(vec2({cast(e, 'float32').code}, 0.0))).x", "float32")
    shift = 32 - bits(dtype)
    if dtype.startswith("u"):
        return Expr(f"({cast(e, 'uint32').code} & {(1 << bits(dtype)) - 1}u)", "uint32")
    return Expr(f"(({cast(e, 'int32').code} << {shift}) >> {shift})", "int32")


def load(array: ArrayRef, index: str) -> Expr:
    """Read one element, widened to its value dtype (bool arrays hold one byte per element)."""
    ref = f"{array.glsl}[{index}]"
    if array.kind != "buffer" or array.dtype == value_dtype(array.dtype) and array.dtype != "bool":
        return Expr(ref, array.dtype)
    if array.dtype == "bool":
        return Expr(f"(uint({ref}) != 0u)", "bool")
    target = value_dtype(array.dtype)
    return Expr(f"{glsl_type(target)}({ref})", target)


def stored(array: ArrayRef, value: Expr) -> str:
    """GLSL text of ``value`` converted to the array's storage type (narrowing wraps, as in NumPy)."""
    if array.kind != "buffer" or array.dtype == value_dtype(array.dtype) and array.dtype != "bool":
        return cast(value, array.dtype).code
    if array.dtype == "bool":
        return f"uint8_t({cast(value, 'bool').code} ? 1u : 0u)"
    return f"{glsl_type(array.dtype)}({cast(value, value_dtype(array.dtype)).code})"


# Python's // and % on integers round toward minus infinity; GLSL's / and % truncate (and % is undefined
# for negative operands), so signed types go through these helpers.
_HELPER_TEMPLATES = {
    "floordiv": "T kd_floordiv_S(T a, T b) {\n    T q = a / b;\n"
                "    return (q * b != a && ((a < Z) != (b < Z))) ? q - O : q;\n}",
    "pymod": "T kd_pymod_S(T a, T b) {\n    T r = a - (a / b) * b;\n"
             "    return (r != Z && ((r < Z) != (b < Z))) ? r + b : r;\n}",
}


def helper(kind: str, dtype: str) -> tuple[str, str]:
    """(name, GLSL definition) of the helper ``kind`` for the signed integer ``dtype``."""
    t = glsl_type(dtype)
    name = f"kd_{kind}_{t}"
    text = (_HELPER_TEMPLATES[kind].replace("kd_" + kind + "_S", name).replace("T ", t + " ")
            .replace("Z", literal(0, dtype)).replace("O", literal(1, dtype)))
    return name, text


def _extensions(program: KernelProgram) -> list[str]:
    dtypes = {a.dtype for a in program.arrays} | set(program.locals.values()) | {f.dtype for f in program.push}
    ext = set(program.extensions)
    if dtypes & {"int8", "uint8", "bool"} and any(a.kind == "buffer" and a.dtype in ("int8", "uint8", "bool")
                                                   for a in program.arrays):
        ext.add("GL_EXT_shader_8bit_storage")
    if dtypes & {"int16", "uint16", "float16"}:
        ext.add("GL_EXT_shader_16bit_storage")
    if dtypes & {"int64", "uint64"} or "int64" in program.features:
        ext.add("GL_EXT_shader_explicit_arithmetic_types_int64")
    return sorted(ext)


def _push_block(program: KernelProgram) -> list[str]:
    # 8-byte members first: with every member 4 or 8 bytes the std430 offsets then need no padding.
    fields = sorted(program.push, key=lambda f: -bits(f.dtype))
    lines = ["layout(push_constant) uniform Push {"]
    lines += [f"    {glsl_type(f.dtype)} {f.name};" for f in fields]
    return lines + ["} pc;"]


def push_layout(program: KernelProgram) -> list:
    """The push fields in block order (the order :func:`render` declares them)."""
    return sorted(program.push, key=lambda f: -bits(f.dtype))


def _declarations(program: KernelProgram) -> list[str]:
    lines = []
    for a in program.buffers:
        access = "readonly " if not a.written else ("writeonly " if not a.read else "")
        storage = "uint8_t" if a.dtype == "bool" else glsl_type(a.dtype)  # bool arrays: one byte each
        lines.append(f"layout(std430, set = 0, binding = {a.binding}) {access}buffer B{a.binding} "
                     f"{{ {storage} {a.glsl}[]; }};")
    for a in program.arrays:
        if a.kind == "shared":
            lines.append(f"shared {glsl_type(a.dtype)} {a.glsl}[{math.prod(a.shape)}];")
    return lines


def _zero(dtype: str) -> str:
    return literal(0, dtype)


def render(program: KernelProgram) -> str:
    """The full GLSL 450 compute shader of ``program`` (deterministic text: equal programs, equal source)."""
    x, y, z = program.local_size
    out = ["#version 450"]
    out += [f"#extension {e} : require" for e in _extensions(program)]
    out.append(f"// kdsl kernel {program.name}")
    out.append(f"layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;")
    out += _declarations(program)
    out += _push_block(program)
    out += sorted(text for _, text in program.helpers)
    out += program.functions
    out.append("void main() {")
    if not program.uses_barrier:
        # Invocations past the requested grid do nothing (a kernel with barriers guards itself instead,
        # since every invocation of a workgroup must reach each barrier).
        out.append("    if (gl_GlobalInvocationID.x >= pc.grid_x || gl_GlobalInvocationID.y >= pc.grid_y"
                   " || gl_GlobalInvocationID.z >= pc.grid_z) return;")
    for a in program.arrays:
        if a.kind == "local":
            out.append(f"    {glsl_type(a.dtype)} {a.glsl}[{math.prod(a.shape)}];")
    out += [f"    {glsl_type(t)} v_{n} = {_zero(t)};" for n, t in program.locals.items()]
    out += ["    " + line for line in program.prologue]
    out += ["    " + line for line in program.body]
    out.append("}")
    return "\n".join(out) + "\n"
