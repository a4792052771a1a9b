"""Derivative rules of reductions (``sum``, ``prod``, ``max``, ``min``), scans (``cumsum``, ``cumprod``) and
matrix products.

* ``max``/``min`` split the cotangent evenly among tied extrema (as JAX and PyTorch's ``amax`` do).
* ``prod`` uses exclusive prefix and suffix products, so zeros in the input are exact (no division).
* ``cumprod`` divides only before the first zero of a line; the first zero's derivative is computed with that
  zero replaced by one, and everything after it has zero derivative: exact with zeros too.
* ``mean``, ``var``, ``std`` and ``logsumexp``-style compositions are built from these and need no rule.

Example:
    >>> import kdsl as kd
    >>> kd.grad(lambda x: x.prod())(kd.asarray([2.0, 0.0, 3.0])).tolist()
    [0.0, 6.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kdsl.autodiff.registry import arr, conj, rule, zeros
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import iota, ones
from kdsl.frontend.array.cumulative import cumprod, cumsum
from kdsl.frontend.array.linalg import matmul
from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate, flip
from kdsl.ir.graph import Node


def _kept(g: Array, src: Node, axes: tuple[int, ...]) -> Array:
    """``g`` (a reduction's cotangent) with the reduced axes back as size 1."""
    return g.reshape(tuple(1 if k in axes else n for k, n in enumerate(src.shape)))


def _sum_vjp(g: Array, src: Node, axes: tuple[int, ...]) -> Array:
    return broadcast_values_to(_kept(g, src, axes), src.shape)


def _extremum_vjp(node: Node, g: Array, src: Node, axes: tuple[int, ...]) -> Array:
    x, y = arr(src), _kept(arr(node), src, axes)
    hit = x == y
    if src.dtype.is_float:  # a NaN result comes from the NaN inputs
        hit = hit | (km.isnan(x) & km.isnan(y))
    count = hit.astype(src.dtype).sum(axis=axes, keepdims=True, dtype=src.dtype)
    return km.where(hit, _kept(g, src, axes) / count, 0)


def _prod_vjp(g: Array, src: Node, axes: tuple[int, ...]) -> Array:
    if src.size == 0:
        return zeros(src.shape, src)
    kept = [k for k in range(len(src.shape)) if k not in axes]
    lead = tuple(src.shape[k] for k in kept)
    perm = tuple(kept) + tuple(axes)
    lines = arr(src).transpose(perm).reshape(lead + (-1,))
    one = ones(lead + (1,), dtype=src.dtype, device=src.device)
    before = concatenate([one, cumprod(lines, axis=-1)[..., :-1]], axis=-1)
    after = concatenate([flip(cumprod(flip(lines, -1), axis=-1), -1)[..., 1:], one], axis=-1)
    d = before * after * g.reshape(lead + (1,))
    inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
    return d.reshape(tuple(src.shape[k] for k in perm)).transpose(inverse)


def _holomorphic(vjp: Callable[[Array], Array], g: Array) -> Array:
    """The vjp of a holomorphic map from the transpose product ``vjp`` its real formula computes on complex
    values: ``J^H g = conj(J^T conj(g))``; for real values ``vjp(g)`` itself (no extra node)."""
    if not g.dtype.is_complex:
        return vjp(g)
    return conj(vjp(conj(g)))


@rule("reduce", complex_ok=True)
def _reduce(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    op, axes = arg
    src = srcs[0]
    if op == "sum":
        return [_sum_vjp(g, src, axes)]
    if op in ("max", "min"):
        if src.dtype.is_complex:  # NumPy's lexicographic order on complex values: not differentiated yet
            raise NotImplementedError(f"kd.grad does not differentiate {op} of complex values yet")
        return [_extremum_vjp(node, g, src, axes)]
    if op == "prod":
        return [_holomorphic(lambda h: _prod_vjp(h, src, axes), g)]
    return [None]  # argmax / argmin: integer results


def _rev_cumsum(x: Array, axis: int) -> Array:
    return flip(cumsum(flip(x, axis), axis=axis, dtype=x.dtype), axis)


def _cumprod_vjp(node: Node, g: Array, src: Node, axis: int) -> Array:
    x, y = arr(src), arr(node)
    n = src.shape[axis]
    pos = iota(src.shape, axis, src.device)
    zero = (x == 0).astype(pos.dtype)
    first = km.where(zero.max(axis=axis, keepdims=True) > 0, zero.argmax(axis=axis, keepdims=True), n)
    before, at = pos < first, pos == first
    part1 = _rev_cumsum(g * y, axis) / km.where(before, x, 1)
    y1 = cumprod(km.where(at, 1, x), axis=axis, dtype=src.dtype)
    part2 = _rev_cumsum(g * y1, axis)
    return km.where(before, part1, km.where(at, part2, 0))


@rule("scan", complex_ok=True)
def _scan(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    op, axis = arg
    if op == "sum":
        return [_rev_cumsum(g, axis)]
    return [_holomorphic(lambda h: _cumprod_vjp(node, h, srcs[0], axis), g)]


@rule("matmul", complex_ok=True)
def _matmul(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``g @ b^H`` and ``a^H @ g`` (plain transposes for real operands)."""
    a, b = conj(arr(srcs[0])), conj(arr(srcs[1]))
    ga = matmul(g, b.transpose(0, 2, 1)) if need[0] else None
    gb = matmul(a.transpose(0, 2, 1), g) if need[1] else None
    return [ga, gb]
