"""GLSL 450 text: the shader header, buffer and push-constant declarations, and helper functions.

Everything here is deterministic text built from a kernel's structure, so equal structures give equal source
(and one compile, thanks to the compiler's cache). Buffers are ``b<slot>.d[]``; push constants are 32-bit words
``pc.w[]`` that expressions reinterpret (``uintBitsToFloat(pc.w[3])``), so one kernel serves every scalar value.

Example:
    >>> from kdsl import dtype as dt
    >>> print(buffer_decl(1, dt.float32, readonly=True))
    layout(std430, set = 0, binding = 1) readonly buffer B1 { float d[]; } b1;
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen import helpers

_EXT_INT64 = "GL_EXT_shader_explicit_arithmetic_types_int64"


def buffer_decl(slot: int, dtype: dt.DType, readonly: bool = False) -> str:
    ro = "readonly " if readonly else ""
    return f"layout(std430, set = 0, binding = {slot}) {ro}buffer B{slot} {{ {dtype.glsl_storage} d[]; }} b{slot};"


def extensions_for(dtypes: Iterable[dt.DType]) -> list[str]:
    """The ``#extension`` lines the storage and compute types of ``dtypes`` need."""
    exts = set()
    for d in dtypes:
        if d.extension:
            exts.add(d.extension)
        if d.name in ("int64", "uint64"):
            exts.add(_EXT_INT64)
    return [f"#extension {e} : require" for e in sorted(exts)]


def header(local_size: int, buffers: dict[int, dt.DType], n_words: int, extra_dtypes: Iterable[dt.DType] = (),
           shared: Sequence[str] = (), body_text: str = "") -> str:
    """Everything above ``main``: version, extensions, local size, buffers, push constants, helpers."""
    lines = ["#version 450"]
    wide = [dt.int64] if "int64_t" in body_text else []  # 64-bit ints in expressions, not only buffers
    lines += extensions_for(list(buffers.values()) + list(extra_dtypes) + wide)
    lines.append(f"layout(local_size_x = {local_size}) in;")
    for slot in sorted(buffers):
        lines.append(buffer_decl(slot, buffers[slot], readonly=slot != 0))
    lines.extend(half_aliases(body_text))
    if n_words:
        lines.append(f"layout(push_constant) uniform PC {{ uint w[{n_words}]; }} pc;")
    lines.extend(shared)
    lines.extend(helpers.needed(body_text))
    return "\n".join(lines)


def bounds_test(tests: Iterable[tuple[str, object, bool]]) -> str:
    """``index < limit`` for each ``(index, limit, always)`` that does not always hold, joined by ``&&`` (``""``
    when every one does: a tile the matrix always fills needs no test).

    >>> bounds_test([("r", 100, False), ("c", "ke", True)]), bounds_test([("r", 64, True)])
    ('r < 100', '')
    """
    return " && ".join(f"{index} < {limit}" for index, limit, always in tests if not always)


def load(slot: int, dtype: dt.DType, index: str, half_bits: bool = False) -> str:
    """Read element ``index`` of buffer ``slot`` as the dtype's compute type. With ``half_bits``, float16 is
    read as its 16 bits (``b<slot>h``, an alias of the buffer that :func:`header` declares) and widened by
    integer operations: a driver's half-to-float conversion may quiet NaNs and drop their sign (NVIDIA's does).

    >>> load(1, dt.float16, "i", half_bits=True), load(1, dt.float16, "i")
    ('kd_f16val_u(uint(b1h.d[i]))', 'float(b1.d[i])')
    """
    if dtype is dt.float16 and half_bits:
        return f"kd_f16val_u(uint(b{slot}h.d[{index}]))"
    return from_storage(dtype, f"b{slot}.d[{index}]")


def store(slot: int, dtype: dt.DType, index: str, value: str) -> str:
    """The statement writing compute-type ``value`` to element ``index`` of buffer ``slot`` (float16 as its
    bits, rounded by integer operations: see :func:`load`)."""
    if dtype is dt.float16:
        return f"b{slot}h.d[{index}] = uint16_t(kd_f16bits_f({value}));"
    return f"b{slot}.d[{index}] = {store_value(dtype, value)};"


_HALF_ALIAS = re.compile(r"\bb(\d+)h\.d\[")


def half_aliases(body_text: str) -> list[str]:
    """Declarations of the ``uint16_t`` views ``b<slot>h`` of the float16 buffers that ``body_text`` reads or
    writes by their bits (Vulkan lets shader variables share a binding; slot 0, the output, is writable)."""
    slots = sorted({int(m) for m in _HALF_ALIAS.findall(body_text)})
    return [f"layout(std430, set = 0, binding = {n}) {'readonly ' if n else ''}buffer B{n}h {{ uint16_t d[]; }} b{n}h;"
            for n in slots]


def from_storage(dtype: dt.DType, raw: str) -> str:
    """A storage-type value (a buffer element) as the dtype's compute type."""
    if dtype is dt.bool_:
        return f"(uint({raw}) != 0u)"
    if dtype.glsl_storage != dtype.glsl_compute:
        return f"{dtype.glsl_compute}({raw})"
    return raw


def store_value(dtype: dt.DType, value: str) -> str:
    """Convert a compute-type value to the dtype's storage type."""
    if dtype is dt.bool_:
        return f"uint8_t({value} ? 1u : 0u)"
    if dtype.glsl_storage != dtype.glsl_compute:
        return f"{dtype.glsl_storage}({value})"
    return value


def const_word(word: int, dtype: dt.DType) -> str:
    """A scalar push constant (one word, two for 64-bit types) read as the dtype's compute type."""
    w = f"pc.w[{word}]"
    if dtype.is_float and dtype.itemsize <= 4:
        return f"uintBitsToFloat({w})"
    if dtype is dt.float64:
        return f"packDouble2x32(uvec2({w}, pc.w[{word + 1}]))"
    if dtype is dt.int64:
        return f"int64_t(pack64(uvec2({w}, pc.w[{word + 1}])))"
    if dtype is dt.uint64:
        return f"pack64(uvec2({w}, pc.w[{word + 1}]))"
    if dtype.kind == "c":  # two components of one or two words each
        part = dtype.real_dtype
        return f"{dtype.glsl_compute}({const_word(word, part)}, {const_word(word + words_of(part), part)})"
    if dtype is dt.bool_:
        return f"({w} != 0u)"
    if dtype.kind == "i":
        return f"int({w})"
    return w


def words_of(dtype: dt.DType) -> int:
    return max(dtype.itemsize // 4, 1)


def zero(dtype: dt.DType) -> str:
    return literal(0, dtype)


_INF_BITS = {"float": ("uintBitsToFloat(0x7f800000u)", "uintBitsToFloat(0xff800000u)",
                       "uintBitsToFloat(0x7fc00000u)")}


def literal(value: Any, dtype: dt.DType) -> str:
    """A GLSL literal of ``value`` converted to the dtype's compute type as NumPy converts it (baked into the
    source: use for structure and compile-time constants). The one spelling of literals for both faces.

    >>> literal(0.1, dt.float32), literal(1e300, dt.float32), literal(-2**31, dt.int32), literal(2, dt.float64)
    ('0.10000000149011612', 'uintBitsToFloat(0x7f800000u)', '(-2147483647 - 1)', '2.0LF')
    """
    c = dtype.glsl_compute
    if dtype.kind == "c":
        z, part = complex(value), dtype.real_dtype
        return f"{c}({literal(z.real, part)}, {literal(z.imag, part)})"
    if c == "bool":
        return "true" if value else "false"
    if c in ("float", "double"):
        with np.errstate(over="ignore"):
            v = float(np.float32(value)) if c == "float" else float(value)
        if math.isnan(v) or math.isinf(v):
            text = _INF_BITS["float"][2 if math.isnan(v) else (0 if v > 0 else 1)]
            return text if c == "float" else f"double({text})"
        text = repr(v)
        return text + ("LF" if c == "double" else "")
    v = int(value)
    if c == "int":
        v = int(np.array(v).astype(np.int64).astype(np.int32)) if not -2**31 <= v < 2**31 else v
        return "(-2147483647 - 1)" if v == -2**31 else (f"({v})" if v < 0 else str(v))
    if c == "uint":
        return f"{v & 0xFFFFFFFF}u"
    if c == "int64_t":
        v = (v + 2**63) % 2**64 - 2**63
        return "(-9223372036854775807l - 1l)" if v == -2**63 else f"({v}l)"
    if c == "uint64_t":
        return f"{v & 0xFFFFFFFFFFFFFFFF}ul"
    raise TypeError(f"no GLSL literal for {dtype}")


def narrow(dtype: dt.DType, value: str) -> str:
    """Wrap a compute-type value back into the range of a narrow dtype (int8 overflow wraps, float16 rounds)."""
    if dtype.name == "int8":
        return f"bitfieldExtract({value}, 0, 8)"
    if dtype.name == "int16":
        return f"bitfieldExtract({value}, 0, 16)"
    if dtype.name == "uint8":
        return f"(({value}) & 255u)"
    if dtype.name == "uint16":
        return f"(({value}) & 65535u)"
    if dtype.name == "float16":
        return f"kd_half_f({value})"
    return value
