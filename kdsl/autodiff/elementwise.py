"""Derivative rules of the elementwise ops (:mod:`kdsl.codegen.ops`), ``cast``, ``copy`` and ``where``.

Non-differentiable points follow PyTorch: ``abs'(0) = 0``, ``sign``, ``floor``, ``ceil``, ``trunc``, ``rint``
have zero derivative; ``maximum``/``minimum`` split a tie evenly between two array operands (as PyTorch and JAX
do) but give it all to a Python-scalar bound, so ``relu'(0) = 0`` (``relu`` is ``maximum(x, 0)``) and ``clip``
has zero derivative on its bounds. ``x ** y``: the ``y`` derivative is 0 where ``x == 0`` and ``y >= 0``, the
``x`` derivative 0 where ``y == 0`` (PyTorch's masks).

Example:
    >>> import kdsl as kd
    >>> float(kd.grad(kd.tanh)(kd.asarray(0.0)))
    1.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from kdsl.autodiff.registry import arr, rule, unbroadcast
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node

# op -> d(out)/d(x) from (x, out), both lazy Arrays
_UNARY: dict[str, Callable[[Array, Array], Array]] = {
    "abs": lambda x, y: km.sign(x),
    "exp": lambda x, y: y,
    "exp2": lambda x, y: y * math.log(2.0),
    "log": lambda x, y: 1 / x,
    "log2": lambda x, y: 1 / (x * math.log(2.0)),
    "log10": lambda x, y: 1 / (x * math.log(10.0)),
    "log1p": lambda x, y: 1 / (x + 1),
    "expm1": lambda x, y: y + 1,
    "sqrt": lambda x, y: 0.5 / y,
    "rsqrt": lambda x, y: -0.5 * y * y * y,
    "square": lambda x, y: 2 * x,
    "reciprocal": lambda x, y: -(y * y),
    "sin": lambda x, y: km.cos(x),
    "cos": lambda x, y: -km.sin(x),
    "tan": lambda x, y: 1 + y * y,
    "arcsin": lambda x, y: km.rsqrt(1 - x * x),
    "arccos": lambda x, y: -km.rsqrt(1 - x * x),
    "arctan": lambda x, y: 1 / (1 + x * x),
    "sinh": lambda x, y: km.cosh(x),
    "cosh": lambda x, y: km.sinh(x),
    "tanh": lambda x, y: 1 - y * y,
    "arcsinh": lambda x, y: km.rsqrt(x * x + 1),
    "arccosh": lambda x, y: km.rsqrt((x - 1) * (x + 1)),
    "arctanh": lambda x, y: 1 / (1 - x * x),
    "sigmoid": lambda x, y: y * (1 - y),
    "erf": lambda x, y: (2 / math.sqrt(math.pi)) * km.exp(-(x * x)),
}
# piecewise constant: zero derivative everywhere it exists (PyTorch's convention)
_STEPS = ("sign", "floor", "ceil", "trunc", "rint", "floordiv")


def _unary_rule(op: str) -> None:
    deriv = _UNARY[op]

    @rule(op)
    def fn(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
        return [g * deriv(arr(srcs[0]), arr(node))]


for _op in _UNARY:
    _unary_rule(_op)


@rule(*_STEPS)
def _step(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [None] * len(srcs)


@rule("neg")
def _neg(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [-g]


@rule("copy")
def _copy(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [g]


@rule("cast")
def _cast(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [g.astype(srcs[0].dtype) if srcs[0].dtype.is_float else None]


def _fit(g: Array | None, src: Node) -> Array | None:
    """A binary op's operand cotangent, summed to the operand's shape (a 0-d constant broadcast by the kernel)."""
    return None if g is None else unbroadcast(g, src.shape)


@rule("add")
def _add(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [_fit(g, srcs[0]), _fit(g, srcs[1])]


@rule("sub")
def _sub(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [_fit(g, srcs[0]), _fit(-g, srcs[1]) if need[1] else None]


@rule("mul")
def _mul(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b = arr(srcs[0]), arr(srcs[1])
    return [_fit(g * b, srcs[0]) if need[0] else None, _fit(g * a, srcs[1]) if need[1] else None]


@rule("div")
def _div(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    ga = g / arr(srcs[1])
    return [_fit(ga, srcs[0]) if need[0] else None, _fit(-ga * arr(node), srcs[1]) if need[1] else None]


@rule("pow")
def _pow(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b, y = arr(srcs[0]), arr(srcs[1]), arr(node)
    if srcs[1].op == "const":  # x ** c: the exponent is a Python number (x ** 2 in a loss), fold it
        c = srcs[1].arg
        if c == 0:
            return [None, None]
        return [g if c == 1 else g * (2 * a) if c == 2 else g * c * a ** (c - 1), None]
    ga = gb = None
    if need[0]:
        ga = _fit(km.where(b == 0, 0, g * b * a ** (b - 1)), srcs[0])
    if need[1]:
        gb = _fit(km.where((a == 0) & (b >= 0), 0, g * y * km.log(a)), srcs[1])
    return [ga, gb]


@rule("mod")
def _mod(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b = arr(srcs[0]), arr(srcs[1])
    return [_fit(g, srcs[0]), _fit(-g * km.floor(a / b), srcs[1]) if need[1] else None]


@rule("arctan2")
def _arctan2(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b = arr(srcs[0]), arr(srcs[1])
    gs = g / (a * a + b * b)
    return [_fit(gs * b, srcs[0]) if need[0] else None, _fit(-gs * a, srcs[1]) if need[1] else None]


@rule("maximum", "minimum")
def _extremum(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b = arr(srcs[0]), arr(srcs[1])
    if srcs[1].op == "const" or srcs[0].op == "const":  # a Python-scalar bound: ties go to the bound
        # read from the result (y > c exactly where x > c): relu's backward then needs only relu's output,
        # which the forward pass keeps anyway, not the pre-activation too
        k, c = (0, b) if srcs[1].op == "const" else (1, a)
        y = arr(node)
        beyond = (y > c) if node.op == "maximum" else (y < c)
        out: list[Array | None] = [None, None]
        out[k] = _fit(km.where(beyond, g, 0), srcs[k])
        return out
    wins = (a > b) if node.op == "maximum" else (a < b)
    tie = a == b
    share = km.where(tie, g * 0.5, g)
    ga = km.where(wins | tie, share, 0)
    gb = km.where(wins, 0, share)
    return [_fit(ga, srcs[0]) if need[0] else None, _fit(gb, srcs[1]) if need[1] else None]


@rule("where")
def _where(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    cond = arr(srcs[0])
    ga = _fit(km.where(cond, g, 0), srcs[1]) if need[1] else None
    gb = _fit(km.where(cond, 0, g), srcs[2]) if need[2] else None
    return [None, ga, gb]
