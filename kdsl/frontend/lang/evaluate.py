"""Evaluation of kdsl-language expressions: :class:`Evaluator` walks a parsed expression tree and computes it
with the array functions of ``xp`` (kdsl, for lazy arrays that fuse with the code around them, or NumPy).

Names are looked up in ``env`` (operands, parameters) and then in the constants (``pi``, ``inf``, ``true``...);
calls are the elementwise functions (``exp``, ``sqrt``, ``max(a, b)``, ``where(c, a, b)``, ``clip``...) and the
casts in ``casts``. Operations on plain numbers stay plain numbers. ``kd.compute`` (:mod:`kdsl.frontend.lang.compute`)
and ``kd.elementwise`` / ``kd.reduction`` (:mod:`kdsl.frontend.lang.factories`) build on it.

Example:
    >>> import numpy as np
    >>> from kdsl.frontend.lang.parse import parse
    >>> body = parse("y = where(x > 0, x, 0.1 * x) + pi").children[0].children[2]
    >>> Evaluator("...", {"x": np.array([-1.0, 2.0])}, np).eval(body)
    array([3.04159265, 5.14159265])
"""

from __future__ import annotations

import math

import numpy as np
from lark import Token

from kdsl.frontend.lang.parse import KdslError, column_of

_FUNCS1 = ("exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "arcsin",
           "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc",
           "abs", "sign", "square", "isnan", "isinf", "isfinite", "rint")
_ALIAS1 = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
           "atanh": "arctanh", "fabs": "abs", "round": "rint"}
_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "true": True, "false": False,
              "True": True, "False": False}


class Evaluator:
    """Evaluates expression trees over ``xp`` (kdsl or NumPy). ``env`` maps names to arrays or numbers."""

    def __init__(self, text: str, env: dict, xp, casts: dict | None = None, shift: int = 0):
        self.text, self.env, self.xp, self.casts = text, env, xp, casts or {}
        self.shift = shift  # columns of a prefix parsed before ``text`` on its first line ("_m = ")

    def error(self, node, msg: str) -> KdslError:
        column, line = column_of(node)
        return KdslError(msg, self.text, max(column - self.shift, 1) if line == 1 else column, line)

    def eval(self, node):
        if isinstance(node, Token):
            raise self.error(node, f"unexpected {node!r}")
        method = getattr(self, f"e_{node.data}", None)
        if method is None:  # transparent rules ("+" unary, parentheses)
            return self.eval(node.children[-1])
        return method(node)

    def e_number(self, node):
        text = str(node.children[0])
        return float(text) if any(c in text for c in ".eE") else int(text)

    def e_name(self, node):
        name = str(node.children[0])
        if name in self.env:
            return self.env[name]
        if name in _CONSTANTS:
            return _CONSTANTS[name]
        known = ", ".join(sorted(k for k in self.env if not k.startswith("_"))) or "none"
        raise self.error(node, f"unknown name '{name}' (known: {known})")

    def e_access(self, node):
        raise self.error(node, "indexing is only allowed in kd.compute expressions")

    def e_neg(self, node):
        return -self.eval(node.children[0])

    def e_invert(self, node):
        v = self.eval(node.children[0])
        return (not v) if isinstance(v, bool) else ~v

    def e_pow_(self, node):
        return self.eval(node.children[0]) ** self.eval(node.children[2])

    def e_binop(self, node):
        a, op, b = self.eval(node.children[0]), str(node.children[1]), self.eval(node.children[2])
        ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b,
               "//": lambda: a // b, "%": lambda: a % b, "<<": lambda: a << b, ">>": lambda: a >> b}
        return ops[op]()

    def e_bitor_(self, node):
        return self.eval(node.children[0]) | self.eval(node.children[1])

    def e_bitxor_(self, node):
        return self.eval(node.children[0]) ^ self.eval(node.children[1])

    def e_bitand_(self, node):
        return self.eval(node.children[0]) & self.eval(node.children[1])

    def e_compare(self, node):
        a, op, b = self.eval(node.children[0]), str(node.children[1]), self.eval(node.children[2])
        return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b}[op]()

    def _logical(self, name: str, *values):
        if all(is_scalar(v) for v in values):
            return {"and": lambda: bool(values[0]) and bool(values[1]),
                    "or": lambda: bool(values[0]) or bool(values[1]), "not": lambda: not values[0]}[name]()
        return getattr(self.xp, f"logical_{name}")(*values)

    def e_and_(self, node):
        return self._logical("and", self.eval(node.children[0]), self.eval(node.children[1]))

    def e_or_(self, node):
        return self._logical("or", self.eval(node.children[0]), self.eval(node.children[1]))

    def e_not_(self, node):
        return self._logical("not", self.eval(node.children[0]))

    def _where(self, cond, a, b):
        if is_scalar(cond):
            return a if cond else b
        return self.xp.where(cond, a, b)

    def e_c_ternary(self, node):
        c, a, b = (self.eval(n) for n in node.children)
        return self._where(c, a, b)

    def e_py_ternary(self, node):
        a, c, b = (self.eval(n) for n in node.children)
        return self._where(c, a, b)

    def e_call(self, node):
        name = str(node.children[0])
        args = [n for n in node.children[1:] if n is not None]
        return self.call(node, name, args)

    def call(self, node, name: str, arg_nodes: list):
        xp = self.xp
        if name in self.casts:
            (value,) = self._values(node, name, arg_nodes, 1)
            return self.casts[name](value)
        name = _ALIAS1.get(name, name)
        if name in _FUNCS1 or name == "sigmoid":
            (x,) = self._values(node, name, arg_nodes, 1)
            if is_scalar(x):
                x = np.float32(x) if isinstance(x, float) else x
                return _scalar_math(name, x)
            if name == "sigmoid":
                return 1 / (1 + xp.exp(-x))
            return getattr(xp, name)(x)
        if name in ("max", "min", "maximum", "minimum", "fmax", "fmin"):
            values = self._values(node, name, arg_nodes, None)
            fn = xp.maximum if name in ("max", "maximum", "fmax") else xp.minimum
            result = values[0]
            for v in values[1:]:
                result = (max if fn is xp.maximum else min)(result, v) if is_scalar(result) and is_scalar(v) \
                    else fn(result, v)
            return result
        if name in ("pow", "power"):
            a, b = self._values(node, name, arg_nodes, 2)
            return a ** b
        if name in ("atan2", "arctan2"):
            a, b = self._values(node, name, arg_nodes, 2)
            return xp.arctan2(a, b)
        if name == "where":
            c, a, b = self._values(node, name, arg_nodes, 3)
            return self._where(c, a, b)
        if name == "clip":
            x, lo, hi = self._values(node, name, arg_nodes, 3)
            return xp.minimum(xp.maximum(x, lo), hi)
        raise self.error(node, f"unknown function '{name}'")

    def _values(self, node, name: str, arg_nodes: list, count: int | None) -> list:
        if count is not None and len(arg_nodes) != count:
            raise self.error(node, f"{name}() takes {count} argument(s), got {len(arg_nodes)}")
        if count is None and len(arg_nodes) < 2:
            raise self.error(node, f"{name}() takes at least 2 arguments, got {len(arg_nodes)}")
        return [self.eval(n) for n in arg_nodes]


def is_scalar(v) -> bool:
    return isinstance(v, (bool, int, float, np.generic))


def _scalar_math(name: str, x):
    with np.errstate(all="ignore"):
        return getattr(np, name)(x).item()
