"""Which operands the register-blocked scan (:mod:`kdsl.codegen.scan_blocked`) reads four elements per load, and
how a lane of such a load reads: a ``vec4``/``ivec4``/``uvec4`` of 32-bit values, or one ``uint`` word of four
8-bit values (boolean masks), for operands contiguous over the kernel's shape with an offset divisible by four.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.view import View
    >>> wide_type(dt.float32), wide_type(dt.bool_), wide_type(dt.float64)
    ('vec4', 'uint', None)
    >>> wide_expr(load(1, dt.float32, View.contiguous((4, 8))), (4, 8), 1), lane("v", dt.bool_, 1)
    (True, '(((v >> 8u) & 0xffu) != 0u)')
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import vector
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Scan
from kdsl.ir.view import View

BYTE_TYPES = ("uint8_t", "int8_t")  # 8-bit operands: four in one uint word




def wide_type(d: dt.DType) -> str | None:
    """The GLSL type one load of four ``d`` elements reads (None: not loaded four at a time)."""
    if d.glsl_storage in BYTE_TYPES:
        return "uint"
    if d.glsl_storage in ("float", "int", "uint") and d.glsl_storage == d.glsl_compute:
        return {"float": "vec4", "int": "ivec4", "uint": "uvec4"}[d.glsl_storage]
    return None


def wide(k: Scan) -> bool:
    """Whether every operand of ``k.expr`` is read four elements per load (see :func:`wide_expr`)."""
    return wide_expr(k.expr, k.shape, k.axis)


def wide_expr(e: Expr, shape: tuple[int, ...], axis: int) -> bool:
    """Whether every operand of ``e`` (over ``shape``, scanned along the last axis ``axis``) can be read four
    elements per load: contiguous over ``shape`` (or one broadcast scalar) with an offset known when the kernel
    is built and divisible by four, a type :func:`wide_type` names, and lines whose length is a multiple of
    four unless there is one line; nothing that depends on the index itself (``iota``, random numbers)."""
    lines = math.prod(shape) // max(shape[axis], 1)
    if lines > 1 and shape[axis] % 4:
        return False
    loads = vector.shared_loads(e)
    if loads is None:
        return False
    full = View.contiguous(shape)
    for ld in loads:
        view = ld.arg[1]
        if vector.lane_invariant(view):
            continue
        if len(ld.arg) > 2 and ld.arg[2] is not None:
            return False
        if wide_type(ld.dtype) is None or view.offset % 4 or \
                view.canonical() != View(full.shape, full.strides, view.offset):
            return False
    return True


def lane(var: str, d: dt.DType, lane: int) -> str:
    """Element ``lane`` of a four-element load ``var`` in the dtype's compute type."""
    if d.glsl_storage not in BYTE_TYPES:
        return f"{var}.{'xyzw'[lane]}"
    if d is dt.bool_:
        return f"((({var} >> {8 * lane}u) & 0xffu) != 0u)"
    if d.glsl_storage == "uint8_t":
        return f"(({var} >> {8 * lane}u) & 0xffu)"
    return f"bitfieldExtract(int({var}), {8 * lane}, 8)"
