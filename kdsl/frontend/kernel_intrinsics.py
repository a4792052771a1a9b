"""What a kernel can call: thread indices, barriers, shared memory, atomics, subgroup operations, math
functions, casts and Python's ``min``/``max``/``abs``/``int``/``float``/``len``/``round``.

Each name below is also a Python function: called outside a kernel it raises, saying it belongs inside one.
Inside a kernel, calls are resolved by *name* on any ``kdsl`` module (``kd.sin``, ``kd.atomic_add``), on
``math`` and on ``numpy`` (``math.sqrt``, ``np.float32``), so the DSL's array functions double as kernel
intrinsics.

Example:
    >>> global_id(0)
    Traceback (most recent call last):
    ...
    RuntimeError: kd.global_id() can only be called inside a @kd.kernel function
"""

from __future__ import annotations

import ast
import math

import numpy as np

from .kernel_glsl import cast, literal, narrow
from .kernel_ir import Expr
from .kernel_types import KType, dtype_name, is_float, is_int, value_dtype


def _kernel_only(name: str, doc: str):
    def stub(*args, **kwargs):
        raise RuntimeError(f"kd.{name}() can only be called inside a @kd.kernel function")
    stub.__name__ = stub.__qualname__ = name
    stub.__doc__ = doc
    return stub


_STUBS = {
    "global_id": "Index of this invocation in the launch grid along ``axis`` (0, 1 or 2): ``kd.global_id(0)``.",
    "local_id": "Index of this invocation inside its workgroup (block) along ``axis``.",
    "group_id": "Index of this invocation's workgroup along ``axis``.",
    "num_groups": "Number of workgroups launched along ``axis``.",
    "grid_size": "The launch grid's extent along ``axis`` (what ``grid=`` asked for).",
    "block_size": "The workgroup (block) extent along ``axis``.",
    "shared": "``tile = kd.shared((16, 16), kd.f32)``: an array shared by the invocations of a workgroup.",
    "local_array": "``acc = kd.local_array((4,), kd.f32)``: a small array private to each invocation.",
    "barrier": "Wait until every invocation of the workgroup gets here; shared memory writes become visible.",
    **{f"atomic_{op}": f"``kd.atomic_{op}(array, index, value)``: atomic {op}; returns the old value."
       for op in ("add", "sub", "min", "max", "and", "or", "xor", "exchange")},
    "atomic_cas": "``kd.atomic_cas(array, index, compare, value)``: compare-and-swap; returns the old value.",
    **{f"subgroup_{op}": f"``kd.subgroup_{op}(x)``: {op} of x over the invocations of the subgroup."
       for op in ("add", "mul", "min", "max", "and", "or", "xor", "inclusive_add", "exclusive_add")},
    "subgroup_broadcast_first": "x from the lowest active invocation of the subgroup.",
    "subgroup_shuffle": "``kd.subgroup_shuffle(x, lane)``: x from invocation ``lane`` of the subgroup.",
    "subgroup_size": "Number of invocations in a subgroup.",
    "subgroup_invocation_id": "Index of this invocation in its subgroup.",
    "subgroup_id": "Index of this invocation's subgroup in the workgroup.",
    "subgroup_elect": "True in exactly one active invocation of the subgroup.",
    "subgroup_barrier": "Wait until every invocation of the subgroup gets here.",
}
for _name, _doc in _STUBS.items():
    globals()[_name] = _kernel_only(_name, _doc)

_AXES = "xyz"
_BUILTIN_IDS = {"global_id": "gl_GlobalInvocationID", "local_id": "gl_LocalInvocationID",
                "group_id": "gl_WorkGroupID", "num_groups": "gl_NumWorkGroups", "block_size": "gl_WorkGroupSize"}
# Functions of one or more floats; GLSL offers double versions only of those in _DOUBLE_OK.
_FLOAT_FUNCS = {"sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan",
                "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "acosh": "acosh",
                "atanh": "atanh", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "sqrt": "sqrt",
                "rsqrt": "inversesqrt", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "round": "roundEven",
                "rint": "roundEven", "atan2": "atan", "pow": "pow", "fma": "fma", "degrees": "degrees",
                "radians": "radians"}
_DOUBLE_OK = {"sqrt", "inversesqrt", "floor", "ceil", "trunc", "roundEven", "abs", "sign", "fma", "min", "max",
              "clamp", "mod"}
_ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2", "arcsinh": "asinh",
            "arccosh": "acosh", "arctanh": "atanh", "absolute": "abs", "fabs": "abs", "minimum": "min",
            "maximum": "max", "power": "pow", "fmin": "min", "fmax": "max", "sign": "sign", "copysign": None}
_ATOMICS = {"add": "atomicAdd", "sub": "atomicAdd", "min": "atomicMin", "max": "atomicMax", "and": "atomicAnd",
            "or": "atomicOr", "xor": "atomicXor", "exchange": "atomicExchange", "cas": "atomicCompSwap"}
_SUBGROUP = {"add": "subgroupAdd", "mul": "subgroupMul", "min": "subgroupMin", "max": "subgroupMax",
             "and": "subgroupAnd", "or": "subgroupOr", "xor": "subgroupXor",
             "inclusive_add": "subgroupInclusiveAdd", "exclusive_add": "subgroupExclusiveAdd"}


def float_call(glsl: str, args: list[Expr], ftype: str) -> Expr:
    """``glsl(args...)`` on floats of ``ftype``; float64 goes through float32 where GLSL has no double
    version (sin, exp, pow...): such results have float32 precision."""
    if ftype == "float64" and glsl not in _DOUBLE_OK:
        inner = ", ".join(cast(a, "float32").code for a in args)
        return Expr(f"double({glsl}({inner}))", "float64")
    return Expr(f"{glsl}({', '.join(a.code for a in args)})", ftype)


def _float_type(lw, args: list[Expr]) -> str:
    dtype = args[0].dtype if not args[0].weak else "float32"
    for a in args[1:]:
        dtype = lw.operand_dtype(Expr("", dtype), a)
    return dtype if is_float(dtype) else "float32"


class _Call:
    """One call being translated: the Lowerer, the node and the resolved name."""

    def __init__(self, lw, node: ast.Call, name: str):
        self.lw, self.node, self.name = lw, node, name

    def error(self, msg: str, node: ast.AST | None = None):
        return self.lw.type_error(node or self.node, msg)

    def nargs(self, low: int, high: int | None = None) -> list[ast.expr]:
        high = low if high is None else high
        if self.node.keywords:
            raise self.lw.syntax_error(self.node, f"{self.name}() takes positional arguments only in kernels")
        n = len(self.node.args)
        if not low <= n <= high:
            count = str(low) if low == high else f"{low} to {high}"
            raise self.error(f"{self.name}() takes {count} argument(s), {n} given")
        return self.node.args

    def values(self, low: int, high: int | None = None) -> list[Expr]:
        return [self.lw.expr(a) for a in self.nargs(low, high)]

    def axis(self) -> int:
        args = self.nargs(0, 1)
        axis = self.lw.const_int(args[0]) if args else 0
        if axis not in (0, 1, 2):
            raise self.error(f"{self.name}() axis must be 0, 1 or 2, got {axis}", args[0])
        return axis


def _builtin_id(c: _Call, name: str) -> Expr:
    axis = c.axis()
    if name == "grid_size":
        return Expr(f"int(pc.grid_{_AXES[axis]})", "int32")
    return Expr(f"int({_BUILTIN_IDS[name]}.{_AXES[axis]})", "int32")


def _math(c: _Call, name: str) -> Expr:
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
    return _float_math(c, name)


def _float_math(c: _Call, name: str) -> Expr:
    arity = {"atan2": 2, "pow": 2, "fma": 3, "hypot": 2}.get(name, 1)
    args = c.values(arity)
    ftype = _float_type(c.lw, args)
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
    return float_call(_FLOAT_FUNCS[name], fargs, ftype)


def _cast_to(c: _Call, dtype: str) -> Expr:
    (x,) = c.values(1)
    if dtype == value_dtype(dtype):
        return cast(x, dtype)
    return narrow(x, dtype)


def _python_builtin(c: _Call, obj) -> Expr:
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
    return _math(c, obj.__name__)


def _atomic(c: _Call, op: str) -> Expr:
    lw = c.lw
    args = c.nargs(4 if op == "cas" else 3)
    array = lw.array_of(args[0])
    if array is None or array.kind == "local":
        raise c.error(f"the first argument of {c.name}() must be an array argument or a kd.shared array",
                      args[0])
    dtype = array.dtype
    if dtype in ("int64", "uint64"):
        lw.need("int64_atomics", c.node, f"{c.name} on {dtype}")
        lw.program.extensions.add("GL_EXT_shader_atomic_int64")
    elif dtype == "float32" and op in ("add", "sub", "exchange"):
        if op != "exchange":
            lw.need("atomic_float32_add", c.node, f"{c.name} on float32")
        lw.program.extensions.add("GL_EXT_shader_atomic_float")
    elif dtype not in ("int32", "uint32"):
        raise c.error(f"{c.name}() needs an int32, uint32 (or int64/uint64, float32 add) array, "
                      f"'{array.name}' holds {dtype}", args[0])
    index = lw.index(array, args[1])
    array.read = array.written = True
    values = [cast(lw.expr(a), dtype) for a in args[2:]]
    if op == "sub":
        values = [Expr(f"(-{values[0].code})", dtype)]
    glsl = ", ".join([f"{array.glsl}[{index}]"] + [v.code for v in values])
    return Expr(f"{_ATOMICS[op]}({glsl})", dtype)


def _subgroup(c: _Call, op: str) -> Expr:
    lw = c.lw
    lw.program.extensions.add("GL_KHR_shader_subgroup_basic")
    if op in ("size", "invocation_id", "id"):
        c.nargs(0)
        var = {"size": "gl_SubgroupSize", "invocation_id": "gl_SubgroupInvocationID", "id": "gl_SubgroupID"}[op]
        return Expr(f"int({var})", "int32")
    if op == "elect":
        c.nargs(0)
        return Expr("subgroupElect()", "bool")
    if op == "barrier":
        c.nargs(0)
        return Expr("subgroupBarrier()", "void")
    if op == "broadcast_first":
        lw.need("subgroup_ballot", c.node, c.name)
        lw.program.extensions.add("GL_KHR_shader_subgroup_ballot")
        (x,) = c.values(1)
        return Expr(f"subgroupBroadcastFirst({x.code})", x.dtype)
    if op == "shuffle":
        lw.need("subgroup_shuffle", c.node, c.name)
        lw.program.extensions.add("GL_KHR_shader_subgroup_shuffle")
        x, lane = c.values(2)
        return Expr(f"subgroupShuffle({x.code}, uint({cast(lane, 'int32').code}))", x.dtype)
    lw.need("subgroup_arithmetic", c.node, c.name)
    lw.program.extensions.add("GL_KHR_shader_subgroup_arithmetic")
    (x,) = c.values(1)
    if x.weak:
        x = cast(x, "int32" if is_int(x.dtype) else x.dtype)
    if x.dtype == "bool" and op not in ("and", "or", "xor"):
        x = cast(x, "int32")
    if op in ("and", "or", "xor") and is_float(x.dtype):
        raise c.error(f"{c.name}() needs integer or bool values, got {x.dtype}")
    return Expr(f"{_SUBGROUP[op]}({x.code})", x.dtype)


def _barrier(c: _Call) -> Expr:
    c.nargs(0)
    c.lw.program.uses_barrier = True
    c.lw.emit("memoryBarrierShared();")
    return Expr("barrier()", "void")


def array_constructor(lw, node: ast.expr) -> tuple | None:
    """``("shared" | "local", shape, dtype)`` when ``node`` is ``kd.shared(...)`` / ``kd.local_array(...)``."""
    if not isinstance(node, ast.Call):
        return None
    name = _intrinsic_name(lw, node.func, quiet=True)
    if name not in ("shared", "local_array"):
        return None
    c = _Call(lw, node, name)
    shape_node, dtype_node = c.nargs(2)
    items = shape_node.elts if isinstance(shape_node, ast.Tuple) else [shape_node]
    shape = tuple(lw.const_int(i) for i in items)
    if not shape or any(n <= 0 for n in shape):
        raise c.error(f"{name} shape must be positive constant integers, got {shape}", shape_node)
    try:
        dtype = dtype_name(lw.py_value(dtype_node))
    except ValueError:
        raise c.error(f"{ast.unparse(dtype_node)} is not a dtype; use e.g. kd.f32", dtype_node) from None
    if dtype != value_dtype(dtype):
        raise c.error(f"{name} arrays hold bool, int32, uint32, int64, uint64, float32 or float64, not {dtype}",
                      dtype_node)
    return ("shared" if name == "shared" else "local", shape, dtype)


def _intrinsic_name(lw, func: ast.expr, quiet: bool = False):
    """The name a callee resolves to (str), or the Python object itself when it is not an intrinsic."""
    if isinstance(func, ast.Name):
        if func.id in lw.locals or func.id in lw.env:
            if quiet:
                return None
            raise lw.type_error(func, f"'{func.id}' is a kernel value and cannot be called")
        try:
            obj = lw.src.lookup(func.id)
        except KeyError:
            if quiet:
                return None
            raise lw.type_error(func, f"name '{func.id}' is not defined") from None
        module = getattr(obj, "__module__", "") or ""
        if module.startswith("kdsl") and _canonical(getattr(obj, "__name__", "")) in _KNOWN:
            return _canonical(obj.__name__)
        return obj
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Name) and (func.value.id in lw.locals or func.value.id in lw.env):
            if quiet:
                return None
            raise lw.syntax_error(func, f"methods like .{func.attr}() are not supported in kernels")
        try:
            base = lw.py_value(func.value)
        except Exception:
            if quiet:
                return None
            raise
        module = getattr(base, "__name__", "") if isinstance(base, type(math)) else ""
        if module.startswith("kdsl") or module in ("math", "numpy"):
            name = _canonical(func.attr)
            if name in _KNOWN:
                return name
        try:
            return getattr(base, func.attr)
        except AttributeError:
            if quiet:
                return None
            raise lw.type_error(func, f"'{ast.unparse(func.value)}' has no attribute '{func.attr}'") from None
    if quiet:
        return None
    raise lw.syntax_error(func, f"cannot call '{ast.unparse(func)}' in a kernel")


def _canonical(name: str) -> str:
    return _ALIASES.get(name) or name


_MATH_NAMES = set(_FLOAT_FUNCS) | {"min", "max", "abs", "sign", "isnan", "isinf", "isfinite", "where", "clamp",
                                   "log10", "log1p", "expm1", "hypot", "sigmoid"}
_KNOWN = set(_STUBS) | _MATH_NAMES | {"float32", "float64", "int32", "uint32", "int64", "uint64", "int8",
                                      "uint8", "int16", "uint16", "float16", "bool_"}


def lower_call(lw, node: ast.Call) -> Expr:
    """Translate a call expression inside a kernel."""
    from .kernel_func import Func, call_func
    target = _intrinsic_name(lw, node.func)
    source = ast.unparse(node.func)
    if isinstance(target, Func):
        return call_func(lw, target, node)
    if isinstance(target, KType):
        return _cast_to(_Call(lw, node, source), target.dtype)
    if isinstance(target, type) and issubclass(target, np.generic):
        return _cast_to(_Call(lw, node, source), dtype_name(target))
    if target in (min, max, abs, int, float, bool, len, round, pow, range):
        return _python_builtin(_Call(lw, node, source), target)
    if not isinstance(target, str):
        raise lw.syntax_error(node.func, f"calling '{source}' is not supported in kernels: only kd.* "
                                         "intrinsics, math functions, casts and @kd.func helpers can be called")
    c = _Call(lw, node, source)
    if target in ("float32", "float64", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int16",
                  "uint16", "float16", "bool_"):
        return _cast_to(c, dtype_name(target))
    if target in _BUILTIN_IDS or target == "grid_size":
        return _builtin_id(c, target)
    if target in ("shared", "local_array"):
        raise lw.syntax_error(node, f"kd.{target}(...) must be assigned to a name: tile = kd.{target}(...)")
    if target == "barrier":
        return _barrier(c)
    if target.startswith("atomic_"):
        return _atomic(c, target[len("atomic_"):])
    if target.startswith("subgroup_"):
        return _subgroup(c, target[len("subgroup_"):])
    return _math(c, target)


__all__ = [*list(_STUBS), "float_call", "lower_call", "array_constructor"]
