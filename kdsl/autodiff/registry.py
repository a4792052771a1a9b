"""The derivative rules, one per graph node kind (``Node.op``), and the helpers they share.

A rule receives the node (its value, for rules such as ``exp`` that reuse it), the node's sources and ``arg`` as
they were when the function was traced, the cotangent ``g`` (a lazy Array of the node's shape and dtype) and
which sources need a cotangent; it returns one lazy Array (or None: no contribution) per source. Rules build
ordinary graph nodes, so backward passes fuse with the forward pass and can themselves be differentiated.

Example:
    >>> "exp" in RULES and "matmul" in RULES and "view" in RULES
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kdsl.frontend.array import complex_math as km
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node

Rule = Callable[[Node, tuple[Node, ...], Any, Array, Sequence[bool]], Sequence["Array | None"]]
RULES: dict[str, Rule] = {}
# Node kinds whose rule is right for complex values too (PyTorch's convention: the cotangent of a complex z is
# dL/dRe(z) + i dL/dIm(z), a holomorphic op's vjp is g * conj(f'(z))). The others raise on a complex node
# rather than give a wrong gradient (:func:`kdsl.autodiff.tape.backward`).
COMPLEX_RULES: set[str] = set()

# Node kinds that never carry a gradient: data leaves, and integer/bool results (indices, counts, comparisons
# are caught by their dtype anyway).
NO_GRADIENT = ("buffer", "const", "iota", "rand", "search", "compact")


def rule(*ops_: str, complex_ok: bool = False) -> Callable[[Rule], Rule]:
    """Register the decorated function as the rule of the node kinds ``ops_`` (``complex_ok``: it is right
    for complex values too, :data:`COMPLEX_RULES`)."""
    def register(fn: Rule) -> Rule:
        for op in ops_:
            RULES[op] = fn
            if complex_ok:
                COMPLEX_RULES.add(op)
        return fn
    return register


def conj(x: Array) -> Array:
    """The complex conjugate of ``x``; a real ``x`` itself (no graph node: real gradients keep their graph).

    >>> import kdsl as kd
    >>> x = kd.asarray([1.0]); conj(x) is x
    True
    """
    return km.conj(x) if x.dtype.is_complex else x


def real_part(g: Array, like: Node) -> Array:
    """The cotangent ``g`` of a value of ``like``'s dtype: its real part when ``like`` is real (a real input's
    cotangent is dL/dx, the real part of a complex cotangent), ``g`` itself otherwise."""
    return km.real(g) if g.dtype.is_complex and not like.dtype.is_complex else g


def arr(node: Node) -> Array:
    """A lazy Array over ``node`` (rules compute with Arrays, which broadcast and promote as NumPy does)."""
    return Array(node)


def const(value: float, like: Node) -> Array:
    """A 0-d constant of ``like``'s dtype and device."""
    return Array(ops.const_node(value, like.dtype, like.device))


def zeros(shape: tuple[int, ...], like: Node) -> Array:
    """A lazy zero array (a broadcast constant: no memory, fuses into its reader)."""
    return Array(mv.broadcast_node(ops.const_node(0, like.dtype, like.device), shape))


def unbroadcast(g: Array, shape: tuple[int, ...]) -> Array:
    """``g`` summed down to ``shape`` (the cotangent of a value NumPy broadcast to ``g.shape``)."""
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + k for k, n in enumerate(shape) if n == 1 and g.shape[lead + k] != 1)
    out = g.sum(axis=axes, dtype=g.dtype) if axes else g
    return out.reshape(shape)
