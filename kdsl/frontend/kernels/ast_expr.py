"""Python AST -> kernel IR, expressions: the half of :class:`~kdsl.frontend.kernels.ast.Lowerer` that turns
expression nodes into typed :class:`~kdsl.frontend.kernels.ir.Expr` values.

Literals are *weak*: ``x * 2`` keeps x's dtype, ``i * 0.5`` with int i gives float32 (:meth:`operand_dtype`).
Names resolve to kernel variables, arrays (which can only be indexed) or Python values frozen into the kernel
(constexpr arguments, global numbers). Indices are linearised row-major from the arrays' shapes; ``//`` and
``%`` keep Python's semantics on signed integers; calls go to :mod:`kdsl.frontend.kernels.intrinsics`.

Example:
    >>> weak_dtype(Expr("3", "int32", True, 3)), weak_dtype(Expr("3000000000", "int64", True, 3000000000))
    ('int32', 'int64')
"""

from __future__ import annotations

import ast
import operator

from kdsl.frontend.kernels.glsl import cast, helper, literal, load
from kdsl.frontend.kernels.ir import ArrayRef, Expr, PushField
from kdsl.frontend.kernels.math import float_call
from kdsl.frontend.kernels.types import is_float, is_int, is_signed, promote

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
_FOLD = {"+": operator.add, "-": operator.sub, "*": operator.mul, "&": operator.and_, "|": operator.or_,
         "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift}
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


def weak_dtype(e: Expr) -> str:
    """The dtype a Python literal gets on its own: bool, int32 (int64 when too big), float32."""
    if e.dtype == "bool" or is_float(e.dtype):
        return e.dtype
    return "int32" if -(2 ** 31) <= int(e.const) < 2 ** 31 else "int64"


class ExpressionLowerer:
    """Expression methods of :class:`~kdsl.frontend.kernels.ast.Lowerer` (a mixin: it relies on the Lowerer's
    ``src``, ``program``, ``env``, ``locals``, ``hints`` and its ``emit`` / ``temp`` / error helpers)."""

    def expr(self, node: ast.expr, allow_void: bool = False) -> Expr:
        kind = type(node).__name__
        method = getattr(self, f"expr_{kind}", None)
        if method is None:
            what = UNSUPPORTED.get(kind, f"'{kind}' expressions")
            raise self.syntax_error(node, f"{what} are not supported in kernels")
        e = method(node)
        if e.dtype == "void" and not allow_void:
            raise self.type_error(node, "this call returns no value")
        return e

    def expr_Constant(self, node: ast.Constant) -> Expr:
        v = node.value
        if isinstance(v, bool):
            return Expr(literal(v, "bool"), "bool", True, v)
        if isinstance(v, int):
            dtype = "int32" if -(2 ** 31) <= v < 2 ** 31 else "int64"
            return Expr(literal(v, dtype), dtype, True, v)
        if isinstance(v, float):
            return Expr(literal(v, "float32"), "float32", True, v)
        if isinstance(v, str):
            raise self.syntax_error(node, "strings are not supported in kernels")
        raise self.syntax_error(node, f"constants of type {type(v).__name__} are not supported in kernels")

    def expr_Name(self, node: ast.Name) -> Expr:
        name = node.id
        if name in self.locals:
            return Expr(f"v_{name}", self.locals[name])
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

    def constant(self, value, node: ast.AST) -> Expr:
        """A Python value frozen into the kernel (a constexpr argument or a global number)."""
        import numpy as np
        if isinstance(value, (bool, np.bool_)):
            return Expr(literal(bool(value), "bool"), "bool", True, bool(value))
        if isinstance(value, np.generic) and value.dtype.name in ("float64", "float32", "int64", "uint64",
                                                                 "int32", "uint32"):
            d = value.dtype.name
            return Expr(literal(value.item(), d), d, False, value.item())
        if isinstance(value, (int, float)):
            return self.expr_Constant(ast.Constant(value=value))
        if isinstance(value, np.ndarray):
            raise self.type_error(node, f"global array '{ast.unparse(node)}' cannot be used in a kernel; "
                                        "pass it as an argument")
        raise self.type_error(node, f"'{ast.unparse(node)}' is a {type(value).__name__}, which kernels cannot "
                                    "use as a value")

    def py_lookup(self, name: str, node: ast.AST | None = None):
        try:
            return self.src.lookup(name)
        except KeyError:
            if node is None:
                return None
            raise self.type_error(node, f"name '{name}' is not defined") from None

    def py_value(self, node: ast.expr):
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
                return Expr(str(array.ndim), "int32", True, array.ndim)
            if node.attr == "size":
                dims = [self.dim(array, k) for k in range(array.ndim)] or ["1"]
                return Expr("(" + " * ".join(dims) + ")", "int32")
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
                return Expr(self.dim(array, axis % array.ndim), "int32")
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
            field = PushField(f"{array.name}_shape{axis}", "int32", ("shape", array.name, axis))
            if field not in self.program.push:
                self.program.push.append(field)
        return array.dim(axis)

    def const_int(self, node: ast.expr) -> int:
        e = self.expr(node)
        if e.const is None or not isinstance(e.const, int) or isinstance(e.const, bool):
            raise self.type_error(node, f"'{ast.unparse(node)}' must be a constant integer here")
        return e.const

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
            if not is_int(e.dtype):
                raise self.type_error(item, f"array indices must be integers, got {e.dtype}")
            if e.const is not None and e.const < 0:  # a literal negative index counts from the end
                parts.append(f"({self.dim(array, axis)} - {-e.const})")
            else:
                parts.append(cast(e, "int32").code)
        linear = parts[0] if parts else "0"
        for axis in range(1, len(parts)):
            linear = f"({linear} * {self.dim(array, axis)} + {parts[axis]})"
        return linear

    def expr_Tuple(self, node: ast.Tuple) -> Expr:
        raise self.syntax_error(node, "tuples are only allowed in indices, shapes and unpacking assignments")

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Expr:
        e = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            b = cast(e, "bool")
            return Expr(f"(!{b.code})", "bool", const=None if b.const is None else not b.const)
        if isinstance(node.op, ast.UAdd):
            return e
        if isinstance(node.op, ast.USub):
            if e.const is not None:
                return Expr(literal(-e.const, e.dtype if e.dtype != "bool" else "int32"),
                            e.dtype if e.dtype != "bool" else "int32", e.weak, -e.const)
            e = cast(e, "int32") if e.dtype == "bool" else e
            return Expr(f"(-{e.code})", e.dtype)
        if not is_int(e.dtype) and e.dtype != "bool":
            raise self.type_error(node, f"~ needs an integer or bool operand, got {e.dtype}")
        if e.dtype == "bool":
            return Expr(f"(!{e.code})", "bool")
        return Expr(f"(~{e.code})", e.dtype)

    def expr_BinOp(self, node: ast.BinOp) -> Expr:
        op = BINOPS.get(type(node.op))
        return self.binary(op, self.expr(node.left), self.expr(node.right), node)

    def operand_dtype(self, a: Expr, b: Expr) -> str:
        """Python literals are weak: ``x * 2`` keeps x's dtype, ``i * 0.5`` with int i gives float32."""
        if a.weak and not b.weak:
            a, b = b, a
        if b.weak and not a.weak:
            if is_float(b.dtype) and not is_float(a.dtype):
                return "float32"
            return "int32" if a.dtype == "bool" and b.dtype != "bool" else a.dtype
        if a.weak and b.weak:
            return promote(weak_dtype(a), weak_dtype(b))
        return promote(a.dtype, b.dtype)

    def binary(self, op: str, a: Expr, b: Expr, node: ast.AST) -> Expr:
        if op == "@":
            raise self.syntax_error(node, "the @ operator is not supported in kernels; write the loops")
        if op in ("&", "|", "^") and a.dtype == "bool" and b.dtype == "bool":
            glsl = {"&": "&&", "|": "||", "^": "^^"}[op]
            return Expr(f"({a.code} {glsl} {b.code})", "bool")
        dtype = self.operand_dtype(a, b)
        if op == "/":
            dtype = dtype if is_float(dtype) else "float32"
        if op == "**":
            return self.power(a, b, dtype, node)
        if op in ("&", "|", "^", "<<", ">>") and not is_int(dtype):
            raise self.type_error(node, f"'{op}' needs integer operands, got {a.dtype} and {b.dtype}")
        x, y = cast(a, dtype), cast(b, dtype)
        if x.const is not None and y.const is not None and op in _FOLD and is_int(dtype) and a.weak and b.weak:
            value = _FOLD[op](x.const, y.const)
            return Expr(literal(value, dtype), dtype, True, value)
        if op == "//":
            if is_float(dtype):
                return Expr(f"floor({x.code} / {y.code})", dtype)
            if is_signed(dtype):
                return self.call_helper("floordiv", dtype, x, y)
            op = "/"
        if op == "%":
            if is_float(dtype):
                return Expr(f"mod({x.code}, {y.code})", dtype)
            if is_signed(dtype):
                return self.call_helper("pymod", dtype, x, y)
        return Expr(f"({x.code} {op} {y.code})", dtype)

    def call_helper(self, kind: str, dtype: str, x: Expr, y: Expr) -> Expr:
        name, text = helper(kind, dtype)
        self.program.helpers.add((name, text))
        return Expr(f"{name}({x.code}, {y.code})", dtype)

    def power(self, a: Expr, b: Expr, dtype: str, node: ast.AST) -> Expr:
        if b.const is not None and isinstance(b.const, int) and 0 <= b.const <= 8 and not is_float(b.dtype):
            if b.const == 0:
                return Expr(literal(1, dtype), dtype)
            x = cast(a, dtype)
            if "(" in x.code or " " in x.code:  # evaluate once
                t = self.temp(dtype)
                self.emit(f"v_{t} = {x.code};")
                x = Expr(f"v_{t}", dtype)
            return Expr("(" + " * ".join([x.code] * b.const) + ")", dtype)
        ftype = dtype if is_float(dtype) else "float32"
        return float_call("pow", [cast(a, ftype), cast(b, ftype)], ftype)

    def expr_BoolOp(self, node: ast.BoolOp) -> Expr:
        glsl = " && " if isinstance(node.op, ast.And) else " || "
        parts = [cast(self.expr(v), "bool").code for v in node.values]
        return Expr("(" + glsl.join(parts) + ")", "bool")

    def expr_Compare(self, node: ast.Compare) -> Expr:
        parts, left = [], self.expr(node.left)
        for op_node, right_node in zip(node.ops, node.comparators, strict=False):
            op = _COMPARE.get(type(op_node))
            if op is None:
                raise self.syntax_error(node, f"the '{type(op_node).__name__}' comparison is not supported in "
                                              "kernels (use ==, !=, <, <=, >, >=)")
            right = self.expr(right_node)
            dtype = self.operand_dtype(left, right)
            parts.append(f"({cast(left, dtype).code} {op} {cast(right, dtype).code})")
            left = right
        return Expr(parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")", "bool")

    def expr_IfExp(self, node: ast.IfExp) -> Expr:
        cond = cast(self.expr(node.test), "bool")
        a, b = self.expr(node.body), self.expr(node.orelse)
        dtype = self.operand_dtype(a, b)
        return Expr(f"({cond.code} ? {cast(a, dtype).code} : {cast(b, dtype).code})", dtype)

    def expr_Call(self, node: ast.Call) -> Expr:
        from kdsl.frontend.kernels.intrinsics import lower_call
        return lower_call(self, node)
