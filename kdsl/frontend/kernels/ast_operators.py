"""Python AST -> kernel IR, operators: unary, binary, boolean and comparison operators and ``a if c else b``,
with the arrays' typing rules. Result dtypes come from :func:`kdsl.codegen.ops.signature` (NumPy 2, NEP 50:
Python literals are *weak*, ``x * 2`` keeps x's dtype; one GPU exception, :func:`kernel_signature`) and the GLSL
of every operator from :func:`kdsl.codegen.ops.render_op`, so ``//``, ``%``, ``**``, division by zero and NaN
handling are NumPy's. Integer constants fold on the host (Python's exact integers for literals).

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
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.codegen.ops import SIGNATURES, render_op, signature
from kdsl.dtype import DType, promotion
from kdsl.frontend.kernels.ast_expr import ExpressionLowerer
from kdsl.frontend.kernels.glsl import cast, literal
from kdsl.frontend.kernels.ir import Expr

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


class OperatorLowerer(ExpressionLowerer):
    """The operator methods of :class:`~kdsl.frontend.kernels.ast.Lowerer`."""

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
            if a.weak and not promotion.can_hold(t, a.const):
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
