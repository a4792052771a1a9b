"""Math inside kernels: ``kd.sin`` / ``math.sqrt`` / ``np.exp``..., ``min`` / ``max`` / ``abs`` / ``where`` /
``clamp``, casts (``kd.f32(x)``, ``np.int64(x)``) and Python's ``int`` / ``float`` / ``bool`` / ``len`` /
``round`` / ``pow``.

Every function that the arrays have is rendered by :func:`kdsl.codegen.ops.render_op`, the code the array
kernels use, with NumPy's result dtype except that float64 needs a float64 operand (``kd.sin(i)`` of an int32
``i`` is float32 in a kernel, float64 in NumPy): the same call on the same dtype gives the same bits in
``@kd.kernel`` and through ``kd.sin(array)``. float64 has real double
precision implementations (see docs/kernels.md for each function's accuracy).

Example:
    >>> from kdsl import dtype as dt
    >>> OPS["asin"], OPS["max"], "hypot" in MATH_NAMES
    ('arcsin', 'maximum', True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen.ops import render_op
from kdsl.dtype import DType, promotion
from kdsl.frontend.kernels.ast_operators import operand_key
from kdsl.frontend.kernels.call import IntrinsicCall
from kdsl.frontend.kernels.glsl import cast, literal, narrow
from kdsl.frontend.kernels.ir import Expr

# Kernel spellings (math's and GLSL's) -> the op names of kdsl.codegen.ops (NumPy's).
OPS = {"sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos", "atan": "arctan",
       "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh", "acosh": "arccosh",
       "atanh": "arctanh", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "log10": "log10",
       "log1p": "log1p", "expm1": "expm1", "sqrt": "sqrt", "rsqrt": "rsqrt", "floor": "floor", "ceil": "ceil",
       "trunc": "trunc", "round": "rint", "rint": "rint", "atan2": "arctan2", "pow": "pow", "sigmoid": "sigmoid",
       "abs": "abs", "sign": "sign", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
       "min": "minimum", "max": "maximum", "square": "square", "reciprocal": "reciprocal"}
# Kernel-only functions (no array counterpart), rendered here from the shared ops.
LOCAL = {"where", "clamp", "fma", "hypot", "degrees", "radians"}
MATH_NAMES = set(OPS) | LOCAL
_ARITY = {"atan2": 2, "pow": 2, "fma": 3, "hypot": 2, "where": 3, "clamp": 3}


def math_call(c: IntrinsicCall, name: str) -> Expr:
    """``name(args...)`` inside a kernel (``name`` is a key of :data:`MATH_NAMES`)."""
    lw = c.lw
    if name in ("min", "max"):
        args = c.values(2, 16)
        result = args[0]
        for a in args[1:]:
            result = lw.op(OPS[name], [result, a], c.node, f"{name}()")
        return result
    if name in LOCAL:
        return _local(c, name)
    args = c.values(_ARITY.get(name, 1))
    if name == "pow":
        return lw.power(args[0], args[1], c.node)
    return lw.op(OPS[name], args, c.node, f"{c.name}()")


def _float_args(args: list[Expr]) -> tuple[DType, list[Expr]]:
    """The float dtype ``args`` compute in: NumPy's (``np.add``'s, made a float as ``np.sqrt`` does), but float64
    only when an operand is float64 (see :func:`~kdsl.frontend.kernels.ast_operators.kernel_signature`)."""
    keys = [operand_key(a) for a in args]
    ftype = promotion.result_dtype(np.add, *keys) if len(keys) > 1 else promotion.result_dtype(np.sqrt, *keys)
    ftype = ftype if ftype.is_float else promotion.result_dtype(np.sqrt, ftype)
    if ftype is dt.float64 and dt.float64 not in keys:
        ftype = dt.float32
    return ftype, [cast(a, ftype) for a in args]


def _local(c: IntrinsicCall, name: str) -> Expr:
    lw = c.lw
    args = c.values(_ARITY.get(name, 1))
    if name == "where":
        cond, a, b = args
        dtype = lw.operand_dtype(a, b)
        code = render_op("where", dtype, [dt.bool_, dtype, dtype],
                         [cast(cond, dt.bool_).code, cast(a, dtype).code, cast(b, dtype).code])
        return Expr(code, dtype)
    if name == "clamp":  # min(max(x, lo), hi) with NumPy's maximum / minimum (NaN propagates)
        x, lo, hi = args
        return lw.op("minimum", [lw.op("maximum", [x, lo], c.node, "clamp()"), hi], c.node, "clamp()")
    ftype, fargs = _float_args(args)
    codes = [lw.once(a).code for a in fargs]
    if name == "fma":
        return Expr(f"fma({', '.join(codes)})", ftype)
    if name == "hypot":
        xc, yc = codes
        return Expr(render_op("sqrt", ftype, [ftype], [f"({xc} * {xc} + {yc} * {yc})"]), ftype)
    factor = math.degrees(1.0) if name == "degrees" else math.radians(1.0)
    return Expr(f"({codes[0]} * {literal(factor, ftype)})", ftype)


def cast_to(c: IntrinsicCall, dtype: DType) -> Expr:
    """``kd.f32(x)``, ``np.int8(x)``...: NumPy's conversion (narrow types wrap, then compute 32-bit)."""
    (x,) = c.values(1)
    if dtype is dtype.value:
        return cast(x, dtype)
    return narrow(x, dtype)


def python_builtin(c: IntrinsicCall, obj: Any) -> Expr:
    lw = c.lw
    if obj is int:
        (x,) = c.values(1)
        return cast(x, dt.int32) if x.dtype not in (dt.int64, dt.uint64) else x
    if obj is float:
        return cast(c.values(1)[0], dt.float32)
    if obj is bool:
        return cast(c.values(1)[0], dt.bool_)
    if obj is len:
        (node,) = c.nargs(1)
        array = lw.array_of(node)
        if array is None or array.ndim == 0:
            raise c.error("len() takes an array argument in kernels", node)
        return Expr(lw.dim(array, 0), dt.int32, nonneg=True)
    if obj is round:
        (x,) = c.values(1)
        if not x.dtype.is_float:
            return x
        return cast(lw.op("rint", [x], c.node, "round()"), dt.int32)
    if obj is pow:
        a, b = c.values(2)
        return lw.power(a, b, c.node)
    if obj is range:
        raise lw.syntax_error(c.node, "range() can only be used as the iterable of a for loop")
    return math_call(c, obj.__name__)
