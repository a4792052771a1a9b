"""Python AST -> kernel IR, expressions: the base of the half of :class:`~kdsl.frontend.kernels.ast.Lowerer`
that turns expression nodes into typed :class:`~kdsl.frontend.kernels.ir.Expr` values: the state the lowering
shares, errors and output lines, the dispatch on the node's kind, literals and names.

Names resolve to kernel variables, arrays (which can only be indexed: :mod:`kdsl.frontend.kernels.ast_indexing`)
or Python values frozen into the kernel (constexpr arguments, global numbers). Operators are
:mod:`kdsl.frontend.kernels.ast_operators`; calls go to :mod:`kdsl.frontend.kernels.intrinsics`.

Example:
    >>> UNSUPPORTED["Lambda"], UNSUPPORTED["ListComp"]
    ('lambda expressions', 'list comprehensions')
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any
from typing import cast as typed

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import DType
from kdsl.frontend.kernels.errors import KernelSyntaxError, KernelTypeError
from kdsl.frontend.kernels.glsl import literal
from kdsl.frontend.kernels.ir import VOID, Expr, KernelProgram
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


class ExpressionLowerer:
    """Expression methods of :class:`~kdsl.frontend.kernels.ast.Lowerer` (the base the operator and indexing
    methods build on) and the state they share with the statement methods (set by the Lowerer's constructor)."""

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

    def expr_Tuple(self, node: ast.Tuple) -> Expr:
        raise self.syntax_error(node, "tuples are only allowed in indices, shapes and unpacking assignments")

    def expr_Call(self, node: ast.Call) -> Expr:
        from kdsl.frontend.kernels.intrinsics import lower_call  # intrinsics -> math -> ast_operators -> this module
        return lower_call(typed("Lowerer", self), node)
