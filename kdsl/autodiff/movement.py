"""Derivative rules of views (slices, transposes, reshapes, broadcasts, squeezes: every ``"view"`` node) and of
``"assemble"`` (concatenate, stack, ``a[key] = v``).

A view's cotangent is summed over its broadcast axes and then put back where the view read: a reshape or a
permutation (flips included) is a view again; anything else (a slice, an integer index) is written into zeros
by an ``assemble``. An assembled piece's cotangent is the cotangent read through its region, minus what later
regions overwrote.

Example:
    >>> import kdsl as kd
    >>> kd.grad(lambda x: (x[1:] * x[:-1]).sum())(kd.asarray([1.0, 2.0, 3.0])).tolist()
    [2.0, 4.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kdsl.autodiff.registry import rule, zeros
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node
from kdsl.ir.view import View


def _full_strides(shape: tuple[int, ...]) -> list[int]:
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    return strides[::-1]


def view_through(g: Array, region: View) -> Array:
    """The elements of ``g`` that ``region`` (a view of ``g``'s C-order index space) selects."""
    region = region.canonical()
    if region.shape == g.shape and region == View.contiguous(g.shape):
        return g
    return Array(Node("view", (g._node,), g.dtype, region.shape, region))


def write_into(g: Array, region: View, shape: tuple[int, ...]) -> Array:
    """An array of ``shape``, zero except ``region`` (a view of its C-order index space), which holds ``g``."""
    whole = View.contiguous(shape)
    z = zeros(shape, g._node)
    return Array(Node("assemble", (z._node, g._node), g.dtype, shape, (whole, region.canonical()), device=g.device))


def _permutation(v: View, shape: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
    """When ``v`` (size-1 axes dropped) visits every position of ``shape``'s index space once as a permuted,
    possibly flipped, C-order layout: (the axes in decreasing stride order, the axes with negative strides)."""
    dims = [(k, n, s) for k, (n, s) in enumerate(zip(v.shape, v.strides, strict=True)) if n != 1]
    order = sorted(dims, key=lambda d: -abs(d[2]))
    acc = 1
    for _, n, s in reversed(order):
        if abs(s) != acc:
            return None
        acc *= n
    if acc != max(1, v.size) or acc != max(1, _size(shape)):
        return None
    flipped = [k for k, n, s in dims if s < 0]
    if v.offset != sum((n - 1) * -s for _, n, s in dims if s < 0):
        return None
    return [k for k, _, _ in order], flipped


def _size(shape: tuple[int, ...]) -> int:
    out = 1
    for n in shape:
        out *= n
    return out


def view_vjp(g: Array, v: View, shape: tuple[int, ...]) -> Array:
    """The cotangent of the source (of ``shape``) of a view ``v`` given the view's cotangent ``g``."""
    bcast = tuple(k for k, (n, s) in enumerate(zip(v.shape, v.strides, strict=True)) if s == 0 and n > 1)
    if bcast:
        g = g.sum(axis=bcast, keepdims=True, dtype=g.dtype)
        v = View(g.shape, v.strides, v.offset)
    if v.size == 0:
        return zeros(shape, g._node)
    perm = _permutation(v, shape)
    if perm is None:
        return write_into(g, v, shape)
    order, flipped = perm
    kept = [k for k, n in enumerate(v.shape) if n != 1]
    h = g.reshape(tuple(v.shape[k] for k in kept))
    if flipped:
        h = h[tuple(slice(None, None, -1) if k in flipped else slice(None) for k in kept)]
    h = h.transpose(tuple(kept.index(k) for k in order))
    return h.reshape(shape)


@rule("view", complex_ok=True)
def _view(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    return [view_vjp(g, arg, srcs[0].shape)]


def _box(region: View, shape: tuple[int, ...]) -> list[tuple[int, int]] | None:
    """Per axis of ``shape``, the coordinate range a region reaches, when the region is a slice of each axis in
    order (concatenate's and most assignments' regions); None otherwise."""
    if len(region.shape) != len(shape):
        return None
    full = _full_strides(shape)
    rest, box = region.offset, []
    for n, s, c, m in zip(region.shape, region.strides, full, shape, strict=True):
        start, rest = divmod(rest, c)
        if n > 1 and s % c:
            return None
        end = start + (n - 1) * (s // c if n > 1 else 0)
        lo, hi = min(start, end), max(start, end)
        if lo < 0 or hi >= m:
            return None
        box.append((lo, hi))
    return box


def _disjoint(a: View, b: View, shape: tuple[int, ...]) -> bool:
    ba, bb = _box(a, shape), _box(b, shape)
    if ba is None or bb is None:
        return False
    return any(x[1] < y[0] or y[1] < x[0] for x, y in zip(ba, bb, strict=True))


@rule("assemble", complex_ok=True)
def _assemble(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    out: list[Array | None] = []
    for i, (src, region) in enumerate(zip(srcs, arg, strict=True)):
        if not need[i]:
            out.append(None)
            continue
        later = [r for r in arg[i + 1:] if not _disjoint(region, r, node.shape)]
        gi = g
        if later:  # what later regions overwrote gets no cotangent
            whole = View.contiguous(node.shape)
            pieces = [zeros(r.shape, node)._node for r in later]
            gi = Array(Node("assemble", (g._node, *pieces), g.dtype, node.shape, (whole, *later), device=g.device))
        gi = view_through(gi, region)
        out.append(gi.reshape(src.shape) if gi.shape != src.shape else gi)
    return out
