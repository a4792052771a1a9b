"""Python AST -> kernel IR, expressions: the half of :class:`~kdsl.frontend.kernels.ast.Lowerer` that turns
expression nodes into typed :class:`~kdsl.frontend.kernels.ir.Expr` values.

Operators follow the arrays' rules: result dtypes come from :func:`kdsl.codegen.ops.signature` (NumPy 2,
NEP 50: Python literals are *weak*, ``x * 2`` keeps x's dtype; one GPU exception, :func:`kernel_signature`)
and the GLSL of every operator from :func:`kdsl.codegen.ops.render_op`, so ``//``, ``%``, ``**``, division
by zero and NaN handling are NumPy's.
Names resolve to kernel variables, arrays (which can only be indexed) or Python values frozen into the kernel
(constexpr arguments, global numbers). Indices are linearised row-major from the arrays' shapes; a negative
index counts from the end, as in Python; calls go to :mod:`kdsl.frontend.kernels.intrinsics`.

Example:
    >>> from kdsl import dtype as dt
    >>> weak_dtype(Expr("3", dt.int32, True, 3)), weak_dtype(Expr("3000000000", dt.int64, True, 3000000000))
    (kdsl.int32, kdsl.int64)
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from typing import cast as typed

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen.ops import SIGNATURES, render_op, signature
from kdsl.dtype import DType
from kdsl.frontend.kernels.errors import KernelSyntaxError, KernelTypeError
from kdsl.frontend.kernels.glsl import cast, literal, load
from kdsl.frontend.kernels.ir import VOID, ArrayRef, Expr, KernelProgram, PushField
from kdsl.frontend.kernels.source import FunctionSource

if TYPE_CHECKING:  # the Lowerer is built from this mixin
    from kdsl.frontend.kernels.ast import Lowerer

# Python constructs a kernel cannot contain, with the words used in the error message.
UNSUPPORTED = {
    "ClassDef": "class definitions", "Lambda": "lambda expressions", "Try": "try statements",
    "TryStar": "try statements", "With": "with statements", "AsyncWith": "with statements",
    "ListComp": "list comprehensions", "SetComp": "set comprehensions", "DictComp": "dict comprehensions",
    "GeneratorExp": "generator expressions", "List": "list literals", "Dict": "dict literals",
    "Set": "set literals", "JoinedStr": "f-strings", "Yield": "yield", "YieldFrom": "yield",
    "Await": "await", "Global": "global statements", "Nonlocal": "nonlocal statements",
    "Delete": "del statements", "Import": "import statements", "ImportFrom": "import statements",
    "Raise": "raise statements", "Assert": "assert statements", "FunctionDef": "nested function definitions "
    "(define helpers at module level with @kd.func)", "AsyncFunctionDef": "async functions",
    "AsyncFor": "async for", "NamedExpr": "assignment expressions (:=)", "Starred": "starred expressions",
    "Match": "match statements", "Slice": "slices (index one element at a time)",
}

BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
          ast.RShift: ">>", ast.MatMult: "@"}
# Python operator -> kdsl.codegen.ops op name (NumPy's ufunc semantics).
OP_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floordiv", "%": "mod", "**": "pow",
            "&": "and", "|": "or", "^": "xor", "<<": "shl", ">>": "shr"}
# Folded with Python's unbounded ints when both operands are literals (``1 << 40`` stays exact).
_FOLD: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "&": operator.and_, "|": operator.or_,
    "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift}
_COMPARE = {ast.Lt: ("<", "lt"), ast.LtE: ("<=", "le"), ast.Gt: (">", "gt"), ast.GtE: (">=", "ge"),
            ast.Eq: ("==", "eq"), ast.NotEq: ("!=", "ne")}
# Ops whose result is >= 0 when every operand is (an index built from them needs no wrapping).
_NONNEG_OPS = {"add", "mul", "floordiv", "mod", "and", "shr", "maximum", "minimum"}
# Calls that may have side effects: an argument holding one is evaluated once, into a temporary.
_SIDE_EFFECTS = re.compile(r"\b(?:atomic\w*|f_\w+|subgroup\w*|barrier)\(")


def weak_dtype(e: Expr) -> DType:
    """The dtype a Python literal gets on its own: bool, int32 (int64 when too big), float32."""
    if e.dtype is dt.bool_ or e.dtype.is_float:
        return e.dtype
    return dt.int32 if -(2 ** 31) <= int(e.const) < 2 ** 31 else dt.int64


def kernel_signature(name: str, keys: list[Any]) -> tuple[DType, list[DType]]:
    """:func:`kdsl.codegen.ops.signature` with one GPU rule on top: a kernel computes in float64 only when an
    operand is float64. NumPy makes float32 with int32 (``x[i] * i``), int / int and ``sin`` of an int float64;
    in a kernel that would silently run in double precision (slow on most GPUs, missing on many), so there the
    float32 operand wins, as in PyTorch, JAX and Triton.

    >>> kernel_signature("mul", [dt.float32, dt.int32])[0], kernel_signature("div", [dt.int32, dt.int32])[0]
    (kdsl.float32, kdsl.float32)
    >>> kernel_signature("mul", [dt.float64, dt.int32])[0]
    kdsl.float64
    """
    out, ins = signature(name, keys)
    if dt.float64 in keys:
        return out, ins
    narrow = {dt.float64: dt.float32}
    return narrow.get(out, out), [narrow.get(t, t) for t in ins]


def operand_key(e: Expr) -> Any:
    """What :func:`kdsl.codegen.ops.signature` takes for ``e``: its Python value if weak, else its dtype."""
    return e.const if e.weak else e.dtype


class ExpressionLowerer:
    """Expression methods of :class:`~kdsl.frontend.kernels.ast.Lowerer` and the state they share with the
    statement methods (set by the Lowerer's constructor)."""

    src: FunctionSource
    program: KernelProgram
    env: dict[str, tuple]
    locals: dict[str, DType]
    hints: dict[str, DType]
    lines: list[str]
    depth: int
    temp_count: int
    features: set[str] | None
    nonneg: set[str]

    # ----- errors, output ---------------------------------------------------------------------------
    def syntax_error(self, node: ast.AST, msg: str) -> KernelSyntaxError:
        return self.src.syntax_error(node, msg)

    def type_error(self, node: ast.AST, msg: str) -> KernelTypeError:
        return self.src.type_error(node, msg)

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def need(self, feature: str, node: ast.AST, what: str) -> None:
        """Record that the kernel needs a device feature; fail early when the device lacks it."""
        if self.features is not None and feature not in self.features:
            raise self.type_error(node, f"{what} needs the device feature '{feature}', which this device lacks")
        self.program.features.add(feature)

    def temp(self, dtype: DType) -> str:
        self.temp_count += 1
        name = f"t{self.temp_count}_"
        self.locals[name] = dtype
        return name

    def once(self, e: Expr) -> Expr:
        """``e`` itself, or a temporary holding it when its code has side effects (an atomic, a helper call)
        and is about to be pasted into a template that names its operand more than once."""
        if not _SIDE_EFFECTS.search(e.code):
            return e
        t = self.temp(e.dtype)
        self.emit(f"v_{t} = {e.code};")
        return Expr(f"v_{t}", e.dtype, nonneg=e.nonneg)

    def op(self, name: str, args: list[Expr], node: ast.AST, what: str = "") -> Expr:
        """Op ``name`` of kdsl.codegen.ops on ``args``: NumPy's result dtype and the shared GLSL."""
        try:
            out, ins = kernel_signature(name, [operand_key(a) for a in args])
        except (TypeError, OverflowError):
            kinds = " and ".join(a.dtype.name for a in args)
            raise self.type_error(node, f"{what or name} is not defined for {kinds} operands (NumPy has no such "
                                        "loop); cast an operand (e.g. kd.i32(x) or kd.f32(x))") from None
        for a, t in zip(args, ins, strict=True):
            if a.weak and not dt.can_hold(t, a.const):
                raise self.type_error(node, f"Python integer {a.const} out of bounds for {t.name} (NumPy raises "
                                            f"OverflowError too); write it as a typed value, e.g. kd.i64({a.const})")
        xs = [cast(a, t) for a, t in zip(args, ins, strict=True)]
        if all(x.const is not None for x in xs) and (out.is_int or out is dt.bool_) \
                and all(t.is_int or t is dt.bool_ for t in ins):
            return self.fold(name, out, xs, all(a.weak for a in args))
        codes = [x.code for x in xs]
        code = render_op(name, out, ins, codes)
        if any(code.count(c) > 1 and _SIDE_EFFECTS.search(c) for c in codes):
            codes = [self.once(x).code for x in xs]
            code = render_op(name, out, ins, codes)
        keeps_sign = name in _NONNEG_OPS and all(a.nonneg for a in args)
        return Expr(code, out, nonneg=keeps_sign and out.is_int)

    def fold(self, name: str, out: DType, xs: list[Expr], weak: bool) -> Expr:
        """An integer/bool op on constants, computed by NumPy itself (the GPU gives the same)."""
        ufunc = SIGNATURES[name][0]
        with np.errstate(all="ignore"):
            value = ufunc(*(np.array(x.const, dtype=x.dtype.np) for x in xs))
        v = np.asarray(value).astype(out.np)[()].item()
        return Expr(literal(v, out), out, weak, v, nonneg=out.is_int and v >= 0)

    def expr(self, node: ast.expr, allow_void: bool = False) -> Expr:
        kind = type(node).__name__
        method = getattr(self, f"expr_{kind}", None)
        if method is None:
            what = UNSUPPORTED.get(kind, f"'{kind}' expressions")
            raise self.syntax_error(node, f"{what} are not supported in kernels")
        e: Expr = method(node)
        if e.dtype is VOID and not allow_void:
            raise self.type_error(node, "this call returns no value")
        return e

    def expr_Constant(self, node: ast.Constant) -> Expr:
        v = node.value
        if isinstance(v, bool):
            return Expr(literal(v, dt.bool_), dt.bool_, True, v)
        if isinstance(v, int):
            dtype = dt.int32 if -(2 ** 31) <= v < 2 ** 31 else dt.int64
            return Expr(literal(v, dtype), dtype, True, v, nonneg=v >= 0)
        if isinstance(v, float):
            return Expr(literal(v, dt.float32), dt.float32, True, v)
        if isinstance(v, str):
            raise self.syntax_error(node, "strings are not supported in kernels")
        raise self.syntax_error(node, f"constants of type {type(v).__name__} are not supported in kernels")

    def expr_Name(self, node: ast.Name) -> Expr:
        name = node.id
        if name in self.locals:
            return Expr(f"v_{name}", self.locals[name], nonneg=name in self.nonneg)
        symbol = self.env.get(name)
        if symbol is not None:
            if symbol[0] == "var":
                return Expr(f"v_{name}", symbol[1])
            if symbol[0] == "const":
                return self.constant(symbol[1], node)
            raise self.type_error(node, f"array '{name}' cannot be used as a value; index it: {name}[i]")
        if name in self.hints and not name.startswith("<"):
            raise self.type_error(node, f"variable '{name}' is used before it is assigned")
        value = self.py_lookup(name, node)
        return self.constant(value, node)

    def constant(self, value: Any, node: ast.AST) -> Expr:
        """A Python value frozen into the kernel (a constexpr argument or a global number)."""
        if isinstance(value, (bool, np.bool_)):
            return Expr(literal(bool(value), dt.bool_), dt.bool_, True, bool(value))
        if isinstance(value, np.generic) and value.dtype.kind in "biuf":
            d = dt.as_dtype(value.dtype).value
            v = np.asarray(value).astype(d.np)[()].item()
            return Expr(literal(v, d), d, False, v)
        if isinstance(value, (int, float)):
            return self.expr_Constant(ast.Constant(value=value))
        if isinstance(value, np.ndarray):
            raise self.type_error(node, f"global array '{ast.unparse(node)}' cannot be used in a kernel; "
                                        "pass it as an argument")
        raise self.type_error(node, f"'{ast.unparse(node)}' is a {type(value).__name__}, which kernels cannot "
                                    "use as a value")

    def py_lookup(self, name: str, node: ast.AST | None = None) -> Any:
        try:
            return self.src.lookup(name)
        except KeyError:
            if node is None:
                return None
            raise self.type_error(node, f"name '{name}' is not defined") from None

    def py_value(self, node: ast.expr) -> Any:
        """The Python object a ``Name`` / ``Attribute`` chain denotes (``kd``, ``kd.f32``, ``math.pi``)."""
        if isinstance(node, ast.Name):
            if node.id in self.locals or node.id in self.env:
                raise self.type_error(node, f"'{node.id}' is a kernel value, not a Python object")
            return self.py_lookup(node.id, node)
        if isinstance(node, ast.Attribute):
            base = self.py_value(node.value)
            try:
                return getattr(base, node.attr)
            except AttributeError:
                raise self.type_error(node, f"'{ast.unparse(node.value)}' has no attribute '{node.attr}'") \
                    from None
        raise self.syntax_error(node, f"'{ast.unparse(node)}' is not a name")

    def expr_Attribute(self, node: ast.Attribute) -> Expr:
        array = self.array_of(node.value) if isinstance(node.value, ast.Name) else None
        if array is not None:
            if node.attr == "ndim":
                return Expr(str(array.ndim), dt.int32, True, array.ndim, nonneg=True)
            if node.attr == "size":
                dims = [self.dim(array, k) for k in range(array.ndim)] or ["1"]
                return Expr("(" + " * ".join(dims) + ")", dt.int32, nonneg=True)
            if node.attr == "shape":
                raise self.syntax_error(node, f"index the shape: {ast.unparse(node)}[0]")
            raise self.syntax_error(node, f"arrays in kernels have .shape, .ndim and .size, not .{node.attr}")
        return self.constant(self.py_value(node), node)

    def expr_Subscript(self, node: ast.Subscript) -> Expr:
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            array = self.array_of(value.value)
            if array is not None:
                axis = self.const_int(node.slice)
                if not -array.ndim <= axis < array.ndim:
                    raise self.type_error(node.slice, f"'{ast.unparse(value.value)}' has {array.ndim} "
                                                      f"dimension(s); shape[{axis}] does not exist")
                return Expr(self.dim(array, axis % array.ndim), dt.int32, nonneg=True)
        array = self.array_of(value)
        if array is None:
            raise self.type_error(value, f"'{ast.unparse(value)}' is not an array; only arrays can be indexed")
        index = self.index(array, node.slice)
        array.read = True
        return load(array, index)

    def array_of(self, node: ast.expr) -> ArrayRef | None:
        if isinstance(node, ast.Name):
            symbol = self.env.get(node.id)
            if symbol is not None and symbol[0] == "array":
                return symbol[1]
        return None

    def dim(self, array: ArrayRef, axis: int) -> str:
        """The extent of ``axis``; registers the push-constant field that carries it."""
        if array.kind == "buffer":
            field = PushField(f"{array.name}_shape{axis}", dt.int32, ("shape", array.name, axis))
            if field not in self.program.push:
                self.program.push.append(field)
        return array.dim(axis)

    def const_int(self, node: ast.expr) -> int:
        e = self.expr(node)
        if e.const is None or not isinstance(e.const, int) or isinstance(e.const, bool):
            raise self.type_error(node, f"'{ast.unparse(node)}' must be a constant integer here")
        return e.const

    def wrapped(self, e: Expr, dim: str) -> str:
        """An index as int: a negative one counts from the end, as in Python and NumPy. Literals and values
        known to be >= 0 (thread ids, ``range`` counters) cost nothing; other signed values one compare and
        select (``kd_wrap_i``). Out-of-range indices stay the caller's responsibility."""
        if e.const is not None:
            return f"({dim} - {-e.const})" if e.const < 0 else literal(e.const, dt.int32)
        code = cast(e, dt.int32).code
        if e.nonneg or e.dtype.kind == "u":
            return code
        return f"kd_wrap_i({code}, {dim})"

    def index(self, array: ArrayRef, slice_node: ast.expr) -> str:
        items = slice_node.elts if isinstance(slice_node, ast.Tuple) else [slice_node]
        if len(items) != array.ndim:
            raise self.type_error(slice_node, f"'{array.name}' has {array.ndim} dimension(s) but "
                                              f"{len(items)} index(es) were given")
        parts = []
        for axis, item in enumerate(items):
            if isinstance(item, ast.Slice):
                raise self.syntax_error(item, "slices are not supported in kernels (index one element at a time)")
            e = self.expr(item)
            if not e.dtype.is_int:
                raise self.type_error(item, f"array indices must be integers, got {e.dtype.name}")
            parts.append(self.wrapped(e, self.dim(array, axis)))
        linear = parts[0] if parts else "0"
        for axis in range(1, len(parts)):
            linear = f"({linear} * {self.dim(array, axis)} + {parts[axis]})"
        return linear

    def expr_Tuple(self, node: ast.Tuple) -> Expr:
        raise self.syntax_error(node, "tuples are only allowed in indices, shapes and unpacking assignments")

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Expr:
        e = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            b = cast(e, dt.bool_)
            return Expr(f"(!{b.code})", dt.bool_, const=None if b.const is None else not b.const)
        if isinstance(node.op, ast.UAdd):
            return e
        if isinstance(node.op, ast.USub):
            if e.dtype is dt.bool_:  # Python: -True == -1 (NumPy refuses negative() of bools)
                e = cast(Expr(e.code, dt.bool_, False, e.const), dt.int32)
            if e.const is not None and e.weak:
                return Expr(literal(-e.const, e.dtype), e.dtype, True, -e.const)
            return self.op("neg", [e], node, "unary -")
        if e.dtype is dt.bool_:
            return Expr(f"(!{e.code})", dt.bool_)
        if not e.dtype.is_int:
            raise self.type_error(node, f"~ needs an integer or bool operand, got {e.dtype.name}")
        return self.op("invert", [e], node, "~")

    def expr_BinOp(self, node: ast.BinOp) -> Expr:
        op = BINOPS[type(node.op)]
        return self.binary(op, self.expr(node.left), self.expr(node.right), node)

    def operand_dtype(self, a: Expr, b: Expr) -> DType:
        """The common dtype of two values (NumPy's promotion, literals weak): ``x * 2`` keeps x's dtype."""
        return kernel_signature("maximum", [operand_key(a), operand_key(b)])[0] if not (
            a.dtype is dt.bool_ and b.dtype is dt.bool_) else dt.bool_

    def binary(self, op: str, a: Expr, b: Expr, node: ast.AST) -> Expr:
        if op == "@":
            raise self.syntax_error(node, "the @ operator is not supported in kernels; write the loops")
        if a.weak and b.weak and op in _FOLD and a.dtype.is_int and b.dtype.is_int:
            value = _FOLD[op](a.const, b.const)  # Python's exact integers, as the literals would give
            return self.expr_Constant(ast.Constant(value=value))
        if op == "**":
            return self.power(a, b, node)
        return self.op(OP_NAMES[op], [a, b], node, f"'{op}'")

    def power(self, a: Expr, b: Expr, node: ast.AST) -> Expr:
        """``a ** b`` with NumPy's power (x ** 2 is x * x, which power gives bit for bit)."""
        out, _ = kernel_signature("pow", [operand_key(a), operand_key(b)])
        if out.is_int and b.const is not None and b.const < 0:
            raise self.type_error(node, "integers to negative integer powers are not allowed (NumPy raises too); "
                                        "make an operand a float: x ** -1.0 or 1.0 / x")
        if b.weak and b.const == 2 and not isinstance(b.const, bool):
            return self.op("square", [cast(a, out)], node, "'**'")
        return self.op("pow", [a, b], node, "'**'")

    def expr_BoolOp(self, node: ast.BoolOp) -> Expr:
        glsl = " && " if isinstance(node.op, ast.And) else " || "
        parts = [cast(self.expr(v), dt.bool_).code for v in node.values]
        return Expr("(" + glsl.join(parts) + ")", dt.bool_)

    def expr_Compare(self, node: ast.Compare) -> Expr:
        parts, left = [], self.expr(node.left)
        for op_node, right_node in zip(node.ops, node.comparators, strict=True):
            op = _COMPARE.get(type(op_node))
            if op is None:
                raise self.syntax_error(node, f"the '{type(op_node).__name__}' comparison is not supported in "
                                              "kernels (use ==, !=, <, <=, >, >=)")
            right = self.expr(right_node)
            parts.append(self.op(op[1], [left, right], node, f"'{op[0]}'").code)
            left = right
        return Expr(parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")", dt.bool_)

    def expr_IfExp(self, node: ast.IfExp) -> Expr:
        cond = cast(self.expr(node.test), dt.bool_)
        a, b = self.expr(node.body), self.expr(node.orelse)
        dtype = self.operand_dtype(a, b)
        return Expr(f"({cond.code} ? {cast(a, dtype).code} : {cast(b, dtype).code})", dtype)

    def expr_Call(self, node: ast.Call) -> Expr:
        from kdsl.frontend.kernels.intrinsics import lower_call  # intrinsics -> math -> this module
        return lower_call(typed("Lowerer", self), node)
