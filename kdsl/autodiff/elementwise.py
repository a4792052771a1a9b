"""Derivative rules of the elementwise ops (:mod:`kdsl.codegen.ops`), ``cast``, ``copy`` and ``where``.

Non-differentiable points follow PyTorch: ``abs'(0) = 0``, ``sign``, ``floor``, ``ceil``, ``trunc``, ``rint``
have zero derivative; ``maximum``/``minimum`` split a tie evenly between two array operands (as PyTorch and JAX
do) but give it all to a Python-scalar bound, so ``relu'(0) = 0`` (``relu`` is ``maximum(x, 0)``) and ``clip``
has zero derivative on its bounds. ``x ** y``: the ``y`` derivative is 0 where ``x == 0`` and ``y >= 0``, the
``x`` derivative 0 where ``y == 0`` (PyTorch's masks).

Complex values follow PyTorch too: a holomorphic op's vjp is ``g * conj(f'(z))`` (``conj`` is skipped for real
values, so real gradients keep their graph); ``abs``, ``angle``, ``sign`` and the complex parts have their own.

Example:
    >>> import kdsl as kd
    >>> float(kd.grad(kd.tanh)(kd.asarray(0.0)))
    1.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from kdsl.autodiff.registry import arr, conj, rule, unbroadcast
from kdsl.frontend.array import complex_math as cm
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node

# op -> d(out)/d(x) from (x, out), both lazy Arrays
_UNARY: dict[str, Callable[[Array, Array], Array]] = {
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
# the complex derivatives where the real formula's function has no complex version (rsqrt) or differs (abs)
_COMPLEX: dict[str, Callable[[Array, Array], Array]] = {
    "arcsin": lambda x, y: 1 / km.sqrt(1 - x * x),
    "arccos": lambda x, y: -1 / km.sqrt(1 - x * x),
    "arcsinh": lambda x, y: 1 / km.sqrt(x * x + 1),
    "arccosh": lambda x, y: 1 / (km.sqrt(x - 1) * km.sqrt(x + 1)),  # the principal branch's
}
# holomorphic on complex values (kdsl's complex kernels have them): the vjp is g * conj(f'(z))
_HOLOMORPHIC = ("exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "square", "reciprocal", "sin",
                "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh")
# piecewise constant: zero derivative everywhere it exists (PyTorch's convention)
_STEPS = ("sign", "floor", "ceil", "trunc", "rint", "floordiv")


def _unary_rule(op: str) -> None:
    deriv, complex_deriv = _UNARY[op], _COMPLEX.get(op, _UNARY[op])

    @rule(op, complex_ok=op in _HOLOMORPHIC)
    def fn(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
        if node.dtype.is_complex:
            return [g * cm.conj(complex_deriv(arr(srcs[0]), arr(node)))]
        return [g * deriv(arr(srcs[0]), arr(node))]


for _op in _UNARY:
    _unary_rule(_op)


@rule("abs", complex_ok=True)
def _abs(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``|x|``: ``g * sign(x)``; of a complex ``z``, ``g * z / |z|`` (0 at 0, as PyTorch)."""
    x = arr(srcs[0])
    if not x.dtype.is_complex:
        return [g * km.sign(x)]
    return [km.where(x == 0, 0, g * (x / arr(node)))]


# (one function per op: a node realised since it was traced is a "buffer" now, so ``node.op`` cannot tell them)
@rule("real", complex_ok=True)
def _real(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``real``'s vjp is ``g + 0j``."""
    return [cm.complex_from_parts(g, 0.0).astype(srcs[0].dtype)]


@rule("imag", complex_ok=True)
def _imag(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``imag``'s vjp is ``1j * g``."""
    return [cm.complex_from_parts(0.0, g).astype(srcs[0].dtype)]


@rule("conj", complex_ok=True)
def _conj(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [cm.conj(g)]


@rule("complex", complex_ok=True)
def _from_parts(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``complex(re, im)`` gives ``re`` the real part of ``g`` and ``im`` its imaginary part."""
    return [cm.real(g), cm.imag(g)]


@rule("angle", complex_ok=True)
def _angle(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``angle``'s vjp is ``g * 1j * z / |z|^2`` (0 at 0)."""
    z = arr(srcs[0])
    along = cm.complex_from_parts(-cm.imag(z), cm.real(z))  # 1j * z, exact (no complex multiply)
    return [km.where(z == 0, 0, g * along / (cm.real(z) * cm.real(z) + cm.imag(z) * cm.imag(z)))]


@rule(*[op for op in _STEPS if op != "sign"])
def _step(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [None] * len(srcs)


@rule("sign", complex_ok=True)
def _sign(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """Zero, except ``sign(z) = z / |z|`` of a complex ``z``: ``(g - Re(conj(s) g) s) / |z|`` (0 at 0), as
    PyTorch's ``sgn``."""
    if not node.dtype.is_complex:
        return [None]
    z, s = arr(srcs[0]), arr(node)
    along = cm.real(cm.conj(s) * g) * s
    return [km.where(z == 0, 0, (g - along) / km.abs(z))]


@rule("neg", complex_ok=True)
def _neg(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [-g]


@rule("copy", complex_ok=True)
def _copy(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [g]


@rule("cast", complex_ok=True)
def _cast(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """A real -> complex cast gives its input ``real(g)``; complex -> real (the real part) gives ``g + 0j``."""
    src = srcs[0]
    if not (src.dtype.is_float or src.dtype.is_complex):
        return [None]
    if g.dtype.is_complex and not src.dtype.is_complex:
        g = cm.real(g)
    return [g.astype(src.dtype)]


def _fit(g: Array | None, src: Node) -> Array | None:
    """A binary op's operand cotangent, summed to the operand's shape (a 0-d constant broadcast by the kernel)."""
    return None if g is None else unbroadcast(g, src.shape)


@rule("add", complex_ok=True)
def _add(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [_fit(g, srcs[0]), _fit(g, srcs[1])]


@rule("sub", complex_ok=True)
def _sub(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [_fit(g, srcs[0]), _fit(-g, srcs[1]) if need[1] else None]


@rule("mul", complex_ok=True)
def _mul(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b = conj(arr(srcs[0])), conj(arr(srcs[1]))
    return [_fit(g * b, srcs[0]) if need[0] else None, _fit(g * a, srcs[1]) if need[1] else None]


@rule("div", complex_ok=True)
def _div(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    ga = g / conj(arr(srcs[1]))
    return [_fit(ga, srcs[0]) if need[0] else None, _fit(-ga * conj(arr(node)), srcs[1]) if need[1] else None]


@rule("pow", complex_ok=True)
def _pow(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b, y = arr(srcs[0]), arr(srcs[1]), arr(node)
    if srcs[1].op == "const":  # x ** c: the exponent is a Python number (x ** 2 in a loss), fold it
        c = srcs[1].arg
        if c == 0:
            return [None, None]
        if isinstance(c, complex):
            c = c.conjugate()
        return [g if c == 1 else g * (2 * conj(a)) if c == 2 else g * c * conj(a) ** (c - 1), None]
    ga = gb = None
    if need[0]:
        ga = _fit(km.where(b == 0, 0, g * conj(b * a ** (b - 1))), srcs[0])
    if need[1]:  # PyTorch's mask: x == 0 with a non-negative (real part of the) exponent
        gb = _fit(km.where((a == 0) & (cm.real(b) >= 0), 0, g * conj(y * km.log(a))), srcs[1])
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


def _extremum_rule(op: str) -> None:
    @rule(op)  # one rule per op: a node realised since it was traced says "buffer", not which extremum it was
    def fn(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
        return _extremum(op, node, srcs, g, need)


def _extremum(op: str, node: Node, srcs: tuple[Node, ...], g: Array, need: Sequence[bool]) -> list[Array | None]:
    a, b = arr(srcs[0]), arr(srcs[1])
    if srcs[1].op == "const" or srcs[0].op == "const":  # a Python-scalar bound: ties go to the bound
        # read from the result (y > c exactly where x > c): relu's backward then needs only relu's output,
        # which the forward pass keeps anyway, not the pre-activation too
        k, c = (0, b) if srcs[1].op == "const" else (1, a)
        y = arr(node)
        beyond = (y > c) if op == "maximum" else (y < c)
        out: list[Array | None] = [None, None]
        out[k] = _fit(km.where(beyond, g, 0), srcs[k])
        return out
    wins = (a > b) if op == "maximum" else (a < b)
    tie = a == b
    share = km.where(tie, g * 0.5, g)
    ga = km.where(wins | tie, share, 0)
    gb = km.where(wins, 0, share)
    return [_fit(ga, srcs[0]) if need[0] else None, _fit(gb, srcs[1]) if need[1] else None]


_extremum_rule("maximum")
_extremum_rule("minimum")


@rule("where", complex_ok=True)
def _where(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    cond = arr(srcs[0])
    ga = _fit(km.where(cond, g, 0), srcs[1]) if need[1] else None
    gb = _fit(km.where(cond, 0, g), srcs[2]) if need[2] else None
    return [None, ga, gb]
