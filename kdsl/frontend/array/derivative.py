"""A result with its own derivative: kdsl functions whose insides autodiff cannot walk (bit tricks such as
``kd.cbrt``'s, which pass through integer nodes) give it the derivative directly (:mod:`kdsl.ir.composite`).

Example:
    >>> import kdsl as kd
    >>> def cube_root(x):
    ...     y = kd.exp(kd.log(x) / 3)
    ...     return with_derivative(y, (x,), lambda g: (g / (3 * y * y),))
    >>> float(kd.grad(cube_root)(kd.asarray(8.0)))
    0.0833333358168602
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kdsl.frontend.array.array import Array
from kdsl.ir import composite
from kdsl.ir.graph import Node


def with_derivative(out: Array, inputs: Sequence[Array], vjp: Callable[[Array], Sequence[Array | None]]) -> Array:
    """``out``, computed from ``inputs``, differentiated by ``vjp`` (its cotangent -> one cotangent or None per
    input) when a gradient is being traced; ``out`` itself otherwise (no cost)."""
    if not composite.tracing():
        return out
    node = Node("copy", (out._node,), out.dtype, out.shape)
    composite.mark(node, tuple(x._node for x in inputs), lambda index, g: tuple(vjp(g)))
    return Array(node)


__all__ = ["with_derivative"]
