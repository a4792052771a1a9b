"""The kdsl kernel language (grammar in ``kdsl.lark``) and ``kd.compute``: index-notation tensor expressions.

``kd.compute("c[i, j] = sum(k, a[i, k] * b[k, j])", a=A, b=B)`` infers each index's range from the operands,
lines every operand up on one set of axes (transpose + reshape), combines them with the array functions and
reduces the summed indices with ``.sum(axis, keepdims=True)``. Everything lowers onto the public, NumPy-like
array API, so the result is a lazy kdsl array that fuses with the code around it; with ``xp=numpy`` the same
lowering evaluates eagerly with NumPy (what the tests compare against).

Errors (syntax, an unknown operand, an index bound to two sizes, a wrong number of indices) raise
:class:`KdslError` with a caret under the offending column.

Example:
    >>> import numpy as np
    >>> a, b = np.arange(6.).reshape(2, 3), np.arange(3.)
    >>> compute("y[i] = sum(j, a[i, j] * b[j])", a=a, b=b, xp=np)
    array([ 5., 14.])
    >>> compute("y[i] = sum(j, a[i, j] * c[j])", a=a, b=b, xp=np)
    Traceback (most recent call last):
    ...
    kdsl.frontend.lang.KdslError: unknown operand 'c' (operands are a, b)
        y[i] = sum(j, a[i, j] * c[j])
                                ^
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
from lark import Lark, Token, Tree, UnexpectedInput

from .kernel_errors import caret_block

REDUCTIONS = ("sum", "prod", "max", "min", "mean")
_FUNCS1 = ("exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "arcsin",
           "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc",
           "abs", "sign", "square", "isnan", "isinf", "isfinite", "rint")
_ALIAS1 = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
           "atanh": "arctanh", "fabs": "abs", "round": "rint"}
_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "true": True, "false": False,
              "True": True, "False": False}


_TERMINAL_WORDS = {"ASSIGN": "'='", "NAME": "a name", "INT": "an integer", "NUMBER": "a number"}


class KdslError(ValueError):
    """An error in kdsl-language text; ``column`` is 1-based, ``text`` the full source."""

    def __init__(self, msg: str, text: str, column: int, line: int = 1):
        self.msg, self.text, self.column, self.line = msg, text, column, line
        src_line = text.splitlines()[line - 1] if text.splitlines() else ""
        super().__init__(f"{msg}\n{_indent(caret_block(src_line, column - 1))}")


class KdslSyntaxError(KdslError):
    """Text that does not parse."""


def _indent(block: str) -> str:
    return "\n".join("    " + line for line in block.splitlines())


@functools.cache
def parser() -> Lark:
    grammar = (Path(__file__).with_name("kdsl.lark")).read_text()
    return Lark(grammar, start="program", parser="lalr", propagate_positions=True)


def parse(text: str) -> Tree:
    """Parse kdsl-language text (one or more ``target = expr`` statements) into a lark tree."""
    if not isinstance(text, str):
        raise TypeError(f"kdsl expressions are strings, got {type(text).__name__}")
    try:
        return parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None


def _syntax_error(exc: UnexpectedInput, text: str) -> KdslSyntaxError:
    token = getattr(exc, "token", None)
    lines = text.splitlines() or [""]
    line = max(getattr(exc, "line", 1) or 1, 1)
    if token is not None and token.type == "$END":
        what, line = "unexpected end of text", len(lines)
        column = len(lines[-1]) + 1
    elif token is not None:
        what, column = f"unexpected {str(token)!r}", exc.column
    else:
        column = exc.column
        what = f"unexpected character {text[exc.pos_in_stream]!r}"
    expected = sorted(_friendly(t) for t in (getattr(exc, "expected", None) or getattr(exc, "allowed", None)
                                              or ()))
    if 0 < len(expected) <= 4:
        what += f"; expected {' or '.join(expected)}"
    return KdslSyntaxError(f"syntax error: {what}", text, column, line)


def _friendly(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    return repr(pattern.value) if pattern.type == "str" else terminal.lower()


def column_of(node) -> tuple[int, int]:
    """(column, line) of a token or tree (1-based)."""
    if isinstance(node, Token):
        return node.column, node.line
    meta = node.meta
    return (meta.column, meta.line) if not meta.empty else (1, 1)


class Evaluator:
    """Evaluates expression trees over ``xp`` (kdsl or NumPy). ``env`` maps names to arrays or numbers."""

    def __init__(self, text: str, env: dict, xp, casts: dict | None = None):
        self.text, self.env, self.xp, self.casts = text, env, xp, casts or {}

    def error(self, node, msg: str) -> KdslError:
        column, line = column_of(node)
        return KdslError(msg, self.text, column, line)

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
        if all(_is_scalar(v) for v in values):
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
        if _is_scalar(cond):
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
            if _is_scalar(x):
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
                result = (max if fn is xp.maximum else min)(result, v) if _is_scalar(result) and _is_scalar(v) \
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


def _is_scalar(v) -> bool:
    return isinstance(v, (bool, int, float, np.generic))


def _scalar_math(name: str, x):
    with np.errstate(all="ignore"):
        return getattr(np, name)(x).item()


class _IndexEvaluator(Evaluator):
    """kd.compute: every value is a number or an array of rank ``len(axes)`` laid out on the shared axes."""

    def __init__(self, text, operands, xp, axes: dict[str, int], sizes: dict[str, int], outputs: set[str]):
        super().__init__(text, operands, xp)
        self.axes, self.sizes = axes, sizes
        self.in_scope = set(outputs)  # output indices, plus those of the reductions we are inside

    def check_scope(self, tok) -> None:
        if str(tok) not in self.in_scope:
            raise self.error(tok, f"index '{tok}' is used outside the reduction over it")

    def layout_shape(self, names) -> list[int]:
        shape = [1] * len(self.axes)
        for n in names:
            shape[self.axes[n]] = self.sizes[n]
        return shape

    def e_access(self, node):
        name_tok, indices = node.children[0], [c.children[0] for c in node.children[1:]]
        value = self.xp.asarray(self.env[str(name_tok)])
        names, take = [], []
        for tok in indices:
            if tok.type == "INT":
                take.append(int(tok))
            else:
                self.check_scope(tok)
                take.append(slice(None))
                names.append(str(tok))
        if any(isinstance(t, int) for t in take):
            value = value[tuple(take)]
        order = sorted(range(len(names)), key=lambda k: self.axes[names[k]])
        if order != list(range(len(names))):
            value = value.transpose(tuple(order))
        return value.reshape(tuple(self.layout_shape(names)))

    def e_name(self, node):
        name = str(node.children[0])
        if name in self.axes:  # an index used as a value: 0, 1, ... along its axis
            self.check_scope(node.children[0])
            return self.xp.arange(self.sizes[name]).reshape(tuple(self.layout_shape([name])))
        value = super().e_name(node)
        if not _is_scalar(value):
            raise self.error(node, f"'{name}' is an array; index it, e.g. {name}[i]")
        return value

    def call(self, node, name: str, arg_nodes: list):
        if name in REDUCTIONS and len(arg_nodes) >= 2 and all(_is_reduction_index(n, self.axes) for n in
                                                              arg_nodes[:-1]):
            return self.reduce(name, [str(n.children[0]) for n in arg_nodes[:-1]], arg_nodes[-1])
        return super().call(node, name, arg_nodes)

    def reduce(self, name: str, indices: list[str], body):
        outer = set(self.in_scope)
        self.in_scope |= set(indices)
        value = self.eval(body)
        self.in_scope = outer
        axes = tuple(sorted(self.axes[i] for i in indices))
        shape = list(getattr(value, "shape", [1] * len(self.axes)))
        for i in indices:
            shape[self.axes[i]] = self.sizes[i]
        value = self.xp.broadcast_to(self.xp.asarray(value), tuple(shape))
        method = {"sum": "sum", "prod": "prod", "max": "max", "min": "min", "mean": "mean"}[name]
        return getattr(value, method)(axis=axes, keepdims=True)


def _is_reduction_index(node, axes) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) in axes


class _Analysis:
    """Binds each index to a size and checks operands, before anything is evaluated."""

    def __init__(self, text: str, operands: dict):
        self.text, self.operands = text, operands
        self.sizes: dict[str, int] = {}
        self.where: dict[str, str] = {}
        self.order: list[str] = []
        self.reduced: set[str] = set()
        self.first_use: dict[str, Token] = {}

    def error(self, node, msg: str) -> KdslError:
        column, line = column_of(node)
        return KdslError(msg, self.text, column, line)

    def bind(self, tok: Token, size: int, where: str) -> None:
        name = str(tok)
        if name in self.sizes and self.sizes[name] != size:
            raise self.error(tok, f"index '{name}' is bound to size {self.sizes[name]} by {self.where[name]} "
                                  f"and to size {size} by {where}")
        if name not in self.sizes:
            self.sizes[name], self.where[name] = size, where
        if name not in self.order:
            self.order.append(name)
        self.first_use.setdefault(name, tok)

    def walk(self, node) -> None:
        if not isinstance(node, Tree):
            return
        if node.data == "access":
            self.access(node)
        elif node.data == "call" and str(node.children[0]) in REDUCTIONS:
            args = [a for a in node.children[1:] if a is not None]
            for a in args[:-1]:
                if isinstance(a, Tree) and a.data == "name":
                    self.reduced.add(str(a.children[0]))
        for child in node.children:
            self.walk(child)

    def access(self, node) -> None:
        name_tok = node.children[0]
        name = str(name_tok)
        if name not in self.operands:
            known = ", ".join(sorted(self.operands)) or "none"
            raise self.error(name_tok, f"unknown operand '{name}' (operands are {known})")
        value = self.operands[name]
        shape = tuple(getattr(value, "shape", ()))
        indices = [c.children[0] for c in node.children[1:]]
        if len(indices) != len(shape):
            raise self.error(node, f"'{name}' has {len(shape)} dimension(s) but {len(indices)} index(es) "
                                   "were given")
        seen = set()
        where = f"{name}[{', '.join(str(t) for t in indices)}]"
        for axis, tok in enumerate(indices):
            if tok.type == "INT":
                if not int(tok) < shape[axis]:
                    raise self.error(tok, f"index {tok} is out of range for axis {axis} of '{name}' "
                                          f"(size {shape[axis]})")
                continue
            if str(tok) in seen:
                raise self.error(tok, f"index '{tok}' appears twice in {where}; diagonals are not supported")
            seen.add(str(tok))
            self.bind(tok, shape[axis], where)


def compute(expression: str, xp=None, **operands):
    """Evaluate one index-notation statement, e.g. ``"c[i, j] = sum(k, a[i, k] * b[k, j])"``.

    Operands are keyword arguments (kd arrays, NumPy arrays, numbers). Reductions: ``sum``, ``prod``,
    ``max``, ``min``, ``mean`` over one or more indices (``sum(k, l, expr)``); the other functions are
    elementwise (``exp``, ``sqrt``, ``max(a, b)``, ``where(c, a, b)``...). Returns a lazy kdsl array (NumPy
    with ``xp=numpy``) shaped by the output's indices.
    """
    xp = _default_xp() if xp is None else xp
    tree = parse(expression)
    stmts = tree.children
    if len(stmts) != 1:
        raise KdslError("kd.compute takes exactly one statement", expression, column_of(stmts[1])[0]
                        if len(stmts) > 1 else 1)
    target, assign, body = stmts[0].children
    if str(assign) != "=":
        raise KdslError("kd.compute assigns with '='", expression, assign.column)
    out_names = [t for t in target.children[1:] if t is not None] if target.data == "indexed_target" else []
    if str(target.children[0]) in operands:
        raise KdslError(f"the output '{target.children[0]}' must not also be an operand", expression,
                        target.children[0].column)
    analysis = _Analysis(expression, operands)
    analysis.walk(body)
    seen = set()
    for tok in out_names:
        if str(tok) in seen:
            raise KdslError(f"output index '{tok}' appears twice", expression, tok.column)
        seen.add(str(tok))
        if str(tok) not in analysis.sizes:
            raise KdslError(f"cannot infer the range of index '{tok}': it indexes no operand", expression,
                            tok.column)
        if str(tok) in analysis.reduced:
            raise KdslError(f"index '{tok}' is both an output index and reduced over", expression, tok.column)
    for name in analysis.order:
        if name not in seen and name not in analysis.reduced:
            tok = analysis.first_use[name]
            raise KdslError(f"index '{name}' is not an output index; reduce over it, e.g. sum({name}, ...)",
                            expression, tok.column, tok.line)
    names = [str(t) for t in out_names] + [n for n in analysis.order if n not in seen]
    axes = {n: k for k, n in enumerate(names)}
    evaluator = _IndexEvaluator(expression, operands, xp, axes, analysis.sizes, seen)
    value = evaluator.eval(body)
    full = tuple(analysis.sizes[str(t)] for t in out_names) + (1,) * (len(names) - len(out_names))
    value = xp.broadcast_to(xp.asarray(value), full)
    return value.reshape(full[:len(out_names)])


def _default_xp():
    import kdsl
    return kdsl
