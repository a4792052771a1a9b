"""What a kernel can call: thread indices, barriers, shared memory, atomics, subgroup operations, math
functions, casts and Python's ``min``/``max``/``abs``/``int``/``float``/``len``/``round``.

Each name below is also a Python function: called outside a kernel it raises, saying it belongs inside one.
Inside a kernel, calls are resolved by *name* on any ``kdsl`` module (``kd.sin``, ``kd.atomic_add``), on
``math`` and on ``numpy`` (``math.sqrt``, ``np.float32``), so the DSL's array functions double as kernel
intrinsics.

This module resolves a call and dispatches it; the translators live with their concept: math functions, casts
and Python builtins in :mod:`~kdsl.frontend.kernels.math`, atomics in :mod:`~kdsl.frontend.kernels.atomics`,
subgroup operations in :mod:`~kdsl.frontend.kernels.subgroup` (argument checks: :mod:`~kdsl.frontend.kernels.call`).

Example:
    >>> global_id(0)
    Traceback (most recent call last):
    ...
    RuntimeError: kd.global_id() can only be called inside a @kd.kernel function
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import DType
from kdsl.frontend.kernels.atomics import atomic_call
from kdsl.frontend.kernels.call import IntrinsicCall
from kdsl.frontend.kernels.ir import VOID, Expr
from kdsl.frontend.kernels.math import MATH_NAMES, cast_to, math_call, python_builtin
from kdsl.frontend.kernels.subgroup import subgroup_call
from kdsl.frontend.kernels.types import as_kernel_dtype

if TYPE_CHECKING:  # ast imports this module (through ast_expr's calls)
    from kdsl.frontend.kernels.ast import Lowerer


def _kernel_only(name: str, doc: str) -> Callable[..., Any]:
    def stub(*args: Any, **kwargs: Any) -> Any:
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
global_id, local_id, group_id = _kernel_only("global_id", _STUBS["global_id"]), \
    _kernel_only("local_id", _STUBS["local_id"]), _kernel_only("group_id", _STUBS["group_id"])
num_groups, grid_size = _kernel_only("num_groups", _STUBS["num_groups"]), \
    _kernel_only("grid_size", _STUBS["grid_size"])
block_size, shared = _kernel_only("block_size", _STUBS["block_size"]), _kernel_only("shared", _STUBS["shared"])
local_array, barrier = _kernel_only("local_array", _STUBS["local_array"]), \
    _kernel_only("barrier", _STUBS["barrier"])
atomic_add, atomic_sub, atomic_min, atomic_max, atomic_and, atomic_or, atomic_xor, atomic_exchange, atomic_cas = (
    _kernel_only(f"atomic_{op}", _STUBS[f"atomic_{op}"])
    for op in ("add", "sub", "min", "max", "and", "or", "xor", "exchange", "cas"))
(subgroup_add, subgroup_mul, subgroup_min, subgroup_max, subgroup_and, subgroup_or, subgroup_xor,
 subgroup_inclusive_add, subgroup_exclusive_add, subgroup_broadcast_first, subgroup_shuffle, subgroup_size,
 subgroup_invocation_id, subgroup_id, subgroup_elect, subgroup_barrier) = (
    _kernel_only(f"subgroup_{op}", _STUBS[f"subgroup_{op}"])
    for op in ("add", "mul", "min", "max", "and", "or", "xor", "inclusive_add", "exclusive_add",
               "broadcast_first", "shuffle", "size", "invocation_id", "id", "elect", "barrier"))

_AXES = "xyz"
_BUILTIN_IDS = {"global_id": "gl_GlobalInvocationID", "local_id": "gl_LocalInvocationID",
                "group_id": "gl_WorkGroupID", "num_groups": "gl_NumWorkGroups", "block_size": "gl_WorkGroupSize"}
# Other spellings of the same functions (NumPy's, math's): kd.arcsin and math.asin both mean asin.
_ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2", "arcsinh": "asinh",
            "arccosh": "acosh", "arctanh": "atanh", "absolute": "abs", "fabs": "abs", "minimum": "min",
            "maximum": "max", "power": "pow", "fmin": "min", "fmax": "max", "sign": "sign", "copysign": None}


def _builtin_id(c: IntrinsicCall, name: str) -> Expr:
    axis = c.axis()
    if name == "grid_size":
        return Expr(f"int(pc.grid_{_AXES[axis]})", dt.int32, nonneg=True)
    return Expr(f"int({_BUILTIN_IDS[name]}.{_AXES[axis]})", dt.int32, nonneg=True)


def _barrier(c: IntrinsicCall) -> Expr:
    c.nargs(0)
    c.lw.program.uses_barrier = True
    c.lw.emit("memoryBarrierShared();")
    return Expr("barrier()", VOID)


def array_constructor(lw: Lowerer, node: ast.expr) -> tuple | None:
    """``("shared" | "local", shape, dtype)`` when ``node`` is ``kd.shared(...)`` / ``kd.local_array(...)``."""
    if not isinstance(node, ast.Call):
        return None
    name = _intrinsic_name(lw, node.func, quiet=True)
    if name not in ("shared", "local_array"):
        return None
    c = IntrinsicCall(lw, node, name)
    shape_node, dtype_node = c.nargs(2)
    items = shape_node.elts if isinstance(shape_node, ast.Tuple) else [shape_node]
    shape = tuple(lw.const_int(i) for i in items)
    if not shape or any(n <= 0 for n in shape):
        raise c.error(f"{name} shape must be positive constant integers, got {shape}", shape_node)
    try:
        dtype = as_kernel_dtype(lw.py_value(dtype_node))
    except ValueError:
        raise c.error(f"{ast.unparse(dtype_node)} is not a dtype; use e.g. kd.f32", dtype_node) from None
    if dtype is not dtype.value:
        raise c.error(f"{name} arrays hold bool, int32, uint32, int64, uint64, float32 or float64, not "
                      f"{dtype.name}", dtype_node)
    return ("shared" if name == "shared" else "local", shape, dtype)


def _intrinsic_name(lw: Lowerer, func: ast.expr, quiet: bool = False) -> Any:
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


_KNOWN = set(_STUBS) | MATH_NAMES | {"float32", "float64", "int32", "uint32", "int64", "uint64", "int8",
                                     "uint8", "int16", "uint16", "float16", "bool_"}


def lower_call(lw: Lowerer, node: ast.Call) -> Expr:
    """Translate a call expression inside a kernel."""
    from kdsl.frontend.kernels.func import Func, call_func  # func lowers helpers with ast, which imports us
    target = _intrinsic_name(lw, node.func)
    source = ast.unparse(node.func)
    if isinstance(target, Func):
        return call_func(lw, target, node)
    if isinstance(target, DType):
        return cast_to(IntrinsicCall(lw, node, source), target)
    if isinstance(target, type) and issubclass(target, np.generic):
        return cast_to(IntrinsicCall(lw, node, source), as_kernel_dtype(target))
    if target in (min, max, abs, int, float, bool, len, round, pow, range):
        return python_builtin(IntrinsicCall(lw, node, source), target)
    if not isinstance(target, str):
        raise lw.syntax_error(node.func, f"calling '{source}' is not supported in kernels: only kd.* "
                                         "intrinsics, math functions, casts and @kd.func helpers can be called")
    c = IntrinsicCall(lw, node, source)
    if target in ("float32", "float64", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int16",
                  "uint16", "float16", "bool_"):
        return cast_to(c, as_kernel_dtype(target))
    if target in _BUILTIN_IDS or target == "grid_size":
        return _builtin_id(c, target)
    if target in ("shared", "local_array"):
        raise lw.syntax_error(node, f"kd.{target}(...) must be assigned to a name: tile = kd.{target}(...)")
    if target == "barrier":
        return _barrier(c)
    if target.startswith("atomic_"):
        return atomic_call(c, target[len("atomic_"):])
    if target.startswith("subgroup_"):
        return subgroup_call(c, target[len("subgroup_"):])
    return math_call(c, target)


__all__ = [*list(_STUBS), "lower_call", "array_constructor"]
