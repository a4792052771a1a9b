"""The kdsl kernel language (grammar in ``kdsl.lark``) and ``kd.compute``: index-notation tensor expressions.

``kd.compute("c[i, j] = sum(k, a[i, k] * b[k, j])", a=A, b=B)`` infers each index's range from the operands,
lines every operand up on one set of axes (transpose + reshape), combines them with the array functions and
reduces the summed indices with ``.sum(axis, keepdims=True)``. Everything lowers onto the public, NumPy-like
array API, so the result is a lazy kdsl array that fuses with the code around it; with ``xp=numpy`` the same
lowering evaluates eagerly with NumPy (what the tests compare against).

Errors (syntax, an unknown operand, an index bound to two sizes, a wrong number of indices) raise
:class:`KdslError` with a caret under the offending column.

This module holds ``kd.compute`` (index analysis and evaluation on shared axes). The language's parser and
errors are in :mod:`kdsl.frontend.lang.parse`, the expression evaluator it shares with ``kd.elementwise`` /
``kd.reduction`` in :mod:`kdsl.frontend.lang.evaluate`; their public names are importable from here too.

Example:
    >>> import numpy as np
    >>> a, b = np.arange(6.).reshape(2, 3), np.arange(3.)
    >>> compute("y[i] = sum(j, a[i, j] * b[j])", a=a, b=b, xp=np)
    array([ 5., 14.])
    >>> compute("y[i] = sum(j, a[i, j] * c[j])", a=a, b=b, xp=np)
    Traceback (most recent call last):
    ...
    kdsl.frontend.lang.compute.KdslError: unknown operand 'c' (operands are a, b)
        y[i] = sum(j, a[i, j] * c[j])
                                ^
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
from lark import Token, Tree

from kdsl.frontend.lang.evaluate import Evaluator, is_scalar
from kdsl.frontend.lang.parse import KdslError, KdslSyntaxError, column_of, parse, parser

REDUCTIONS = ("sum", "prod", "max", "min", "mean")


class _IndexEvaluator(Evaluator):
    """kd.compute: every value is a number or an array of rank ``len(axes)`` laid out on the shared axes."""

    def __init__(self, text, operands, xp, axes: dict[str, int], sizes: dict[str, int], outputs: set[str]):
        super().__init__(text, operands, xp)
        self.axes, self.sizes, self.outputs = axes, sizes, set(outputs)
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
        names: list[str] = []
        take: list[int | slice] = []
        for tok in indices:
            if tok.type == "INT":
                take.append(int(tok))
            else:
                self.check_scope(tok)
                take.append(slice(None))
                names.append(str(tok))
        if any(isinstance(t, int) for t in take):
            value = value[tuple(take)]
        own = dict(zip(names, value.shape, strict=True))  # size 1 where the operand broadcasts
        order = sorted(range(len(names)), key=lambda k: self.axes[names[k]])
        if order != list(range(len(names))):
            value = value.transpose(tuple(order))
        shape = [1] * len(self.axes)
        for n in names:
            shape[self.axes[n]] = own[n]
        return value.reshape(tuple(shape))

    def e_name(self, node):
        name = str(node.children[0])
        if name in self.axes:  # an index used as a value: 0, 1, ... along its axis
            self.check_scope(node.children[0])
            return self.xp.arange(self.sizes[name]).reshape(tuple(self.layout_shape([name])))
        value = super().e_name(node)
        if not is_scalar(value) and tuple(getattr(value, "shape", ())) == ():
            return self.xp.asarray(value)  # a 0-d array: a number
        if not is_scalar(value):
            raise self.error(node, f"'{name}' is an array; index it, e.g. {name}[i]")
        return value

    def call(self, node, name: str, arg_nodes: list):
        if name in REDUCTIONS and is_reduction(name, arg_nodes, self.axes, self.outputs):
            return self.reduce(node, name, arg_nodes[:-1], arg_nodes[-1])
        if name in REDUCTIONS and (name not in ("max", "min") or len(arg_nodes) < 2):
            if len(arg_nodes) < 2:
                raise self.error(node, f"{name}() reduces: give the indices to reduce over first, e.g. "
                                       f"{name}(i, x[i])" + (f" ({name}(a, b) is elementwise)"
                                                             if name in ("max", "min") else ""))
            for n in arg_nodes[:-1]:
                if not (isinstance(n, Tree) and n.data == "name"):
                    raise self.error(n, f"{name}(i, ..., expr) takes index names before the expression")
                if str(n.children[0]) in self.outputs:
                    raise self.error(n, f"index '{n.children[0]}' is both an output index and reduced over")
                raise self.error(n, f"cannot infer the range of index '{n.children[0]}': it indexes no operand")
        return super().call(node, name, arg_nodes)

    def reduce(self, node, name: str, index_nodes: list, body):
        indices = [str(n.children[0]) for n in index_nodes]
        for n in index_nodes:
            if str(n.children[0]) in self.in_scope:
                raise self.error(n, f"index '{n.children[0]}' is already reduced over by an enclosing reduction"
                                 if str(n.children[0]) not in self.outputs else
                                 f"index '{n.children[0]}' is both an output index and reduced over")
        if len(set(indices)) != len(indices):
            raise self.error(node, f"{name}() names an index twice")
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


def is_reduction(name: str, args: list, axes, outputs: set[str]) -> bool:
    """``sum(i, expr)``-style: leading bare index names, then the expression. ``max(i, x[i])`` with ``i`` an
    output index is the elementwise maximum instead."""
    if len(args) < 2 or not all(_is_reduction_index(n, axes) for n in args[:-1]):
        return False
    return name not in ("max", "min") or not any(str(n.children[0]) in outputs for n in args[:-1])


class _Analysis:
    """Binds each index to a size and checks operands, before anything is evaluated."""

    def __init__(self, text: str, operands: dict, outputs: Collection[str] = frozenset()):
        self.text, self.operands, self.outputs = text, operands, set(outputs)
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
        if name in self.sizes and self.sizes[name] != size and 1 not in (size, self.sizes[name]):
            raise self.error(tok, f"index '{name}' is bound to size {self.sizes[name]} by {self.where[name]} "
                                  f"and to size {size} by {where} (sizes must match, or be 1 to broadcast)")
        if name not in self.sizes or self.sizes[name] == 1:  # size 1 broadcasts against the other sizes
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
            name = str(node.children[0])
            if name in ("max", "min") and any(isinstance(a, Tree) and a.data == "name" and
                                              str(a.children[0]) in self.outputs for a in args[:-1]):
                args = []  # max(i, x[i]) with i an output index: elementwise
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
                raise self.error(tok, f"index '{tok}' appears twice in {where}; diagonals are not supported "
                                      "(write an @kd.kernel, or multiply by kd.eye(n) and sum)")
            seen.add(str(tok))
            self.bind(tok, shape[axis], where)


def compute(expression: str, xp=None, **operands):
    """Evaluate one index-notation statement, e.g. ``"c[i, j] = sum(k, a[i, k] * b[k, j])"``.

    Operands are keyword arguments (kd arrays, NumPy arrays, numbers). Reductions: ``sum``, ``prod``,
    ``max``, ``min``, ``mean`` over one or more indices (``sum(k, l, expr)``); the other functions are
    elementwise (``exp``, ``sqrt``, ``max(a, b)``, ``where(c, a, b)``...). Returns a lazy kdsl array (NumPy
    with ``xp=numpy``) shaped by the output's indices.
    """
    xp = default_xp() if xp is None else xp
    tree = parse(expression)
    stmts = tree.children
    if len(stmts) != 1:
        raise KdslError("kd.compute takes exactly one statement", expression, column_of(stmts[1])[0]
                        if len(stmts) > 1 else 1)
    target, assign, body = stmts[0].children
    if str(assign) != "=":
        raise KdslError("kd.compute assigns with '='", expression, column_of(assign)[0])
    out_names = [t for t in target.children[1:] if t is not None] if target.data == "indexed_target" else []
    if str(target.children[0]) in operands:
        raise KdslError(f"the output '{target.children[0]}' must not also be an operand", expression,
                        column_of(target.children[0])[0])
    operands = {k: _operand(k, v) for k, v in operands.items()}
    analysis = _Analysis(expression, operands, {str(t) for t in out_names})
    analysis.walk(body)
    for name in analysis.order:
        if name in operands:
            raise analysis.error(analysis.first_use[name], f"'{name}' is both an index and an operand; rename one")
    seen = set()
    for tok in out_names:
        if str(tok) in seen:
            raise KdslError(f"output index '{tok}' appears twice", expression, column_of(tok)[0])
        seen.add(str(tok))
        if str(tok) not in analysis.sizes:
            raise KdslError(f"cannot infer the range of index '{tok}': it indexes no operand", expression,
                            column_of(tok)[0])
        if str(tok) in analysis.reduced:
            raise KdslError(f"index '{tok}' is both an output index and reduced over", expression,
                            column_of(tok)[0])
    for name in analysis.order:
        if name not in seen and name not in analysis.reduced:
            tok = analysis.first_use[name]
            raise KdslError(f"index '{name}' is not an output index; reduce over it, e.g. sum({name}, ...)",
                            expression, *column_of(tok))
    names = [str(t) for t in out_names] + [n for n in analysis.order if n not in seen]
    axes = {n: k for k, n in enumerate(names)}
    evaluator = _IndexEvaluator(expression, operands, xp, axes, analysis.sizes, seen)
    value = evaluator.eval(body)
    full = tuple(analysis.sizes[str(t)] for t in out_names) + (1,) * (len(names) - len(out_names))
    value = xp.broadcast_to(xp.asarray(value), full)
    return value.reshape(full[:len(out_names)])


def _operand(name: str, value):
    if isinstance(value, (list, tuple)):
        return np.asarray(value)
    if not (is_scalar(value) or hasattr(value, "shape") and hasattr(value, "dtype")):
        raise TypeError(f"kd.compute operand '{name}' is a {type(value).__name__}; operands are arrays and "
                        "numbers")
    return value


def default_xp():
    import kdsl  # a real cycle: kdsl/__init__.py imports this package to export kd.compute

    return kdsl


__all__ = ["compute", "REDUCTIONS", "KdslError", "KdslSyntaxError", "parse", "parser", "column_of", "Evaluator"]
