"""Atomics inside kernels: ``kd.atomic_add(array, index, value)`` and the other ``kd.atomic_*`` functions.

They work on buffer arguments and ``kd.shared`` arrays of int32 / uint32; int64 / uint64 need the device
feature ``int64_atomics``, float32 add / sub need ``atomic_float32_add`` (exchange works on float32 too).
Each returns the old value. ``atomic_sub`` is an ``atomicAdd`` of the negated value.

Example:
    >>> sorted(ATOMICS)
    ['add', 'and', 'cas', 'exchange', 'max', 'min', 'or', 'sub', 'xor']
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.frontend.kernels.call import IntrinsicCall
from kdsl.frontend.kernels.glsl import cast
from kdsl.frontend.kernels.ir import Expr

ATOMICS = {"add": "atomicAdd", "sub": "atomicAdd", "min": "atomicMin", "max": "atomicMax", "and": "atomicAnd",
           "or": "atomicOr", "xor": "atomicXor", "exchange": "atomicExchange", "cas": "atomicCompSwap"}


def atomic_call(c: IntrinsicCall, op: str) -> Expr:
    lw = c.lw
    args = c.nargs(4 if op == "cas" else 3)
    array = lw.array_of(args[0])
    if array is None or array.kind == "local":
        raise c.error(f"the first argument of {c.name}() must be an array argument or a kd.shared array",
                      args[0])
    dtype = array.dtype
    if dtype in (dt.int64, dt.uint64):
        lw.need("int64_atomics", c.node, f"{c.name} on {dtype.name}")
        lw.program.extensions.add("GL_EXT_shader_atomic_int64")
    elif dtype is dt.float32 and op in ("add", "sub", "exchange"):
        if op != "exchange":
            lw.need("atomic_float32_add", c.node, f"{c.name} on float32")
        lw.program.extensions.add("GL_EXT_shader_atomic_float")
    elif dtype not in (dt.int32, dt.uint32):
        raise c.error(f"{c.name}() needs an int32, uint32 (or int64/uint64, float32 add) array, "
                      f"'{array.name}' holds {dtype.name}", args[0])
    index = lw.index(array, args[1])
    array.read = array.written = True
    values = [cast(lw.expr(a), dtype) for a in args[2:]]
    if op == "sub":
        values = [Expr(f"(-{values[0].code})", dtype)]
    glsl = ", ".join([f"{array.glsl}[{index}]"] + [v.code for v in values])
    return Expr(f"{ATOMICS[op]}({glsl})", dtype)
