"""Math inside kernels: ``kd.sin`` / ``math.sqrt`` / ``np.exp``..., ``min`` / ``max`` / ``abs`` / ``where`` /
``clamp``, casts (``kd.f32(x)``, ``np.int64(x)``) and Python's ``int`` / ``float`` / ``bool`` / ``len`` /
``round`` / ``pow``.

Float functions take the dtype of their (promoted) arguments, float32 for integers. GLSL has double versions
of only a few of them (:data:`DOUBLE_OK`); the others compute float64 arguments in float32.

Example:
    >>> float_call("sin", [Expr("v_x", "float64")], "float64").code
    'double(sin(float(v_x)))'
    >>> float_call("sqrt", [Expr("v_x", "float64")], "float64").code
    'sqrt(v_x)'
"""

from __future__ import annotations

import math

from kdsl.frontend.kernels.call import IntrinsicCall
from kdsl.frontend.kernels.glsl import cast, literal, narrow
from kdsl.frontend.kernels.ir import Expr
from kdsl.frontend.kernels.types import is_float, value_dtype

# Functions of one or more floats; GLSL offers double versions only of those in DOUBLE_OK.
FLOAT_FUNCS = {"sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan",
               "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "acosh": "acosh",
               "atanh": "atanh", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "sqrt": "sqrt",
               "rsqrt": "inversesqrt", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "round": "roundEven",
               "rint": "roundEven", "atan2": "atan", "pow": "pow", "fma": "fma", "degrees": "degrees",
               "radians": "radians"}
DOUBLE_OK = {"sqrt", "inversesqrt", "floor", "ceil", "trunc", "roundEven", "abs", "sign", "fma", "min", "max",
             "clamp", "mod"}
MATH_NAMES = set(FLOAT_FUNCS) | {"min", "max", "abs", "sign", "isnan", "isinf", "isfinite", "where", "clamp",
                                 "log10", "log1p", "expm1", "hypot", "sigmoid"}


def float_call(glsl: str, args: list[Expr], ftype: str) -> Expr:
    """``glsl(args...)`` on floats of ``ftype``; float64 goes through float32 where GLSL has no double
    version (sin, exp, pow...): such results have float32 precision."""
    if ftype == "float64" and glsl not in DOUBLE_OK:
        inner = ", ".join(cast(a, "float32").code for a in args)
        return Expr(f"double({glsl}({inner}))", "float64")
    return Expr(f"{glsl}({', '.join(a.code for a in args)})", ftype)


def float_type(lw, args: list[Expr]) -> str:
    dtype = args[0].dtype if not args[0].weak else "float32"
    for a in args[1:]:
        dtype = lw.operand_dtype(Expr("", dtype), a)
    return dtype if is_float(dtype) else "float32"

def math_call(c: IntrinsicCall, name: str) -> Expr:
    lw = c.lw
    if name in ("min", "max"):
        args = c.values(2, 16)
        dtype = args[0].dtype if not args[0].weak else None
        for a in args[1:]:
            dtype = lw.operand_dtype(args[0] if dtype is None else Expr("", dtype), a)
        if dtype == "bool":
            raise c.error(f"{name}() of bools is not supported; use 'and' / 'or'")
        result = cast(args[0], dtype)
        for a in args[1:]:
            result = Expr(f"{name}({result.code}, {cast(a, dtype).code})", dtype)
        return result
    if name == "abs":
        (x,) = c.values(1)
        if x.dtype == "bool":
            raise c.error("abs() of a bool is not supported")
        return x if x.dtype.startswith("u") else Expr(f"abs({x.code})", x.dtype)
    if name == "sign":
        (x,) = c.values(1)
        x = cast(x, "int32") if x.dtype == "bool" or x.dtype.startswith("u") else x
        return Expr(f"sign({x.code})", x.dtype)
    if name in ("isnan", "isinf", "isfinite"):
        (x,) = c.values(1)
        if not is_float(x.dtype):
            return Expr(literal(name == "isfinite", "bool"), "bool")
        if name == "isfinite":
            return Expr(f"(!isnan({x.code}) && !isinf({x.code}))", "bool")
        return Expr(f"{name}({x.code})", "bool")
    if name == "where":
        cond, a, b = c.values(3)
        dtype = lw.operand_dtype(a, b)
        return Expr(f"({cast(cond, 'bool').code} ? {cast(a, dtype).code} : {cast(b, dtype).code})", dtype)
    if name == "clamp":
        x, lo, hi = c.values(3)
        dtype = lw.operand_dtype(Expr("", lw.operand_dtype(x, lo)), hi)
        return Expr(f"clamp({cast(x, dtype).code}, {cast(lo, dtype).code}, {cast(hi, dtype).code})", dtype)
    return float_math(c, name)


def float_math(c: IntrinsicCall, name: str) -> Expr:
    arity = {"atan2": 2, "pow": 2, "fma": 3, "hypot": 2}.get(name, 1)
    args = c.values(arity)
    ftype = float_type(c.lw, args)
    fargs = [cast(a, ftype) for a in args]
    if name == "log10":
        return Expr(f"({float_call('log2', fargs, ftype).code} * {literal(math.log10(2), ftype)})", ftype)
    if name == "log1p":
        return float_call("log", [Expr(f"({literal(1, ftype)} + {fargs[0].code})", ftype)], ftype)
    if name == "expm1":
        return Expr(f"({float_call('exp', fargs, ftype).code} - {literal(1, ftype)})", ftype)
    if name == "hypot":
        x, y = fargs
        return float_call("sqrt", [Expr(f"({x.code} * {x.code} + {y.code} * {y.code})", ftype)], ftype)
    if name == "sigmoid":
        e = float_call("exp", [Expr(f"(-{fargs[0].code})", ftype)], ftype)
        return Expr(f"({literal(1, ftype)} / ({literal(1, ftype)} + {e.code}))", ftype)
    return float_call(FLOAT_FUNCS[name], fargs, ftype)


def cast_to(c: IntrinsicCall, dtype: str) -> Expr:
    (x,) = c.values(1)
    if dtype == value_dtype(dtype):
        return cast(x, dtype)
    return narrow(x, dtype)


def python_builtin(c: IntrinsicCall, obj) -> Expr:
    lw = c.lw
    if obj is int:
        (x,) = c.values(1)
        return cast(x, "int32") if x.dtype != "int64" and x.dtype != "uint64" else x
    if obj is float:
        return cast(c.values(1)[0], "float32")
    if obj is bool:
        return cast(c.values(1)[0], "bool")
    if obj is len:
        (node,) = c.nargs(1)
        array = lw.array_of(node)
        if array is None or array.ndim == 0:
            raise c.error("len() takes an array argument in kernels", node)
        return Expr(lw.dim(array, 0), "int32")
    if obj is round:
        args = c.nargs(1)
        (x,) = [lw.expr(a) for a in args]
        if not is_float(x.dtype):
            return x
        return cast(float_call("roundEven", [x], x.dtype), "int32")
    if obj is pow:
        a, b = c.values(2)
        return lw.power(a, b, lw.operand_dtype(a, b), c.node)
    if obj is range:
        raise lw.syntax_error(c.node, "range() can only be used as the iterable of a for loop")
    return math_call(c, obj.__name__)
