"""Movement ops: reshape, transpose, broadcast, squeeze, slicing... all zero-copy views of the same node.

Each op rewrites the :class:`View` of a ``"view"`` node (or starts one over any other node); views never stack
except when a reshape of a strided view needs a copy, and even then the kernel that reads it just unravels the
index twice.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(6, dtype=np.float32)).reshape(2, 3)
    >>> kd.transpose(x).shape, x[:, ::-1].numpy().tolist()
    ((3, 2), [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]])
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl.errors import reshape_target_text
from kdsl.ir.graph import Node
from kdsl.ir.view import View


def view_base(node: Node) -> tuple[Node, View]:
    """(the node whose buffer ``node`` reads, the view of it): a view node's source, else the node itself."""
    if node.op == "view":
        return node.srcs[0], node.arg
    return node, View.contiguous(node.shape)


def view_node(base: Node, view: View) -> Node:
    """A view node reading ``base`` through ``view`` (``base`` itself when the view is all of it, in order)."""
    if view.shape == base.shape and view.canonical() == View.contiguous(base.shape):
        return base
    return Node("view", (base,), base.dtype, view.shape, view.canonical())


def reshape_node(node: Node, shape: tuple[int, ...]) -> Node:
    shape = tuple(shape)
    if shape == node.shape:
        return node
    if node.op != "view":  # (the usual case, e.g. matmul's operands and result: what the general path gives)
        return Node("view", (node,), node.dtype, shape, View.contiguous(shape))
    base, view = view_base(node)
    new = view.reshape(shape)
    if new is None:  # a strided view that no single view can reshape: stack a view (the kernel unravels)
        return Node("view", (node,), node.dtype, tuple(shape), View.contiguous(tuple(shape)))
    return view_node(base, new)


def permute_node(node: Node, axes: tuple[int, ...]) -> Node:
    if tuple(axes) == tuple(range(len(axes))):
        return node
    base, view = view_base(node)
    return view_node(base, view.permute(tuple(axes)))


def expand_node(node: Node, shape: tuple[int, ...]) -> Node:
    """Broadcast size-1 dims of ``node`` (same ndim) to ``shape``."""
    if tuple(shape) == node.shape:
        return node
    base, view = view_base(node)
    return view_node(base, view.expand(tuple(shape)))


def broadcast_node(node: Node, shape: tuple[int, ...]) -> Node:
    """NumPy broadcasting of ``node`` to ``shape`` (leading dims added, size-1 dims stretched)."""
    shape = tuple(shape)
    if node.shape == shape:
        return node
    mismatch = any(a not in (1, b) for a, b in zip(node.shape[::-1], shape[::-1], strict=False))
    if len(node.shape) > len(shape) or mismatch:
        raise ValueError(f"cannot broadcast an array of shape {node.shape} to shape {shape}")
    padded = (1,) * (len(shape) - len(node.shape)) + node.shape
    return expand_node(reshape_node(node, padded), shape)


def slice_node(node: Node, axis: int, start: int, step: int, length: int) -> Node:
    base, view = view_base(node)
    return view_node(base, view.slice(axis, start, step, length))


def index_node(node: Node, axis: int, i: int) -> Node:
    base, view = view_base(node)
    return view_node(base, view.index(axis, i))


def normalize_axis(axis: int, ndim: int, msg_prefix: str | None = None) -> int:
    """``axis`` in ``range(ndim)``, or NumPy's AxisError (its message led by ``msg_prefix``: ``"axis2: ..."``)."""
    if axis.__class__ is not int:
        axis = _axis_index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim, msg_prefix)
    return axis % ndim


def _axis_index(axis: Any) -> int:
    """An axis given as any integer NumPy takes (``np.int64``, a 0-d integer array: ``__index__``), not bool."""
    if isinstance(axis, (bool, np.bool_)):
        raise TypeError(f"axis must be an int, got {type(axis).__name__}")
    try:
        return operator.index(axis)
    except TypeError:
        raise TypeError(f"axis must be an int, got {type(axis).__name__}") from None


DUPLICATE_AXES = "duplicate value in 'axis'"  # NumPy's message for the ufunc reductions and squeeze (not "repeated")


def normalize_axes(axis, ndim: int, duplicate: str | None = None) -> tuple[int, ...]:
    """``None`` -> all axes; int or tuple -> sorted non-negative axes (duplicates are an error: ``duplicate``
    is its message where NumPy's differs, such as the ufunc reductions' "duplicate value in 'axis'")."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    out = tuple(normalize_axis(a, ndim) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(duplicate or f"repeated axis in {axis}")
    return tuple(sorted(out))


def length_index(n: Any) -> int:
    """A length or axis as an int (``operator.index``), refusing booleans as NumPy 2 does: ``reshape(True, -1)``
    and ``zeros((True, 2))`` are TypeErrors, not the length 1.

    >>> length_index(3), length_index(np.int64(2))
    (3, 2)
    """
    if isinstance(n, (bool, np.bool_)):
        raise TypeError(f"an integer is required for a length, got {type(n).__name__} {n!r} (NumPy 2 refuses "
                        "booleans in shapes); pass int(n)")
    return operator.index(n)


def resolve_shape(shape, size: int) -> tuple[int, ...]:
    """A reshape target with at most one unknown length filled in; ValueError when sizes do not match. Any
    negative length is the unknown one, as NumPy's (``reshape(-2, 3)`` is ``reshape(-1, 3)``).

    >>> resolve_shape((-2, 3), 6)
    (2, 3)
    """
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(length_index(n) for n in shape)  # NumPy: TypeError for reshape(2.0, 2)
    if sum(n < 0 for n in shape) > 1:
        raise ValueError("can only specify one unknown dimension (-1)")
    shape = tuple(-1 if n < 0 else n for n in shape)
    if -1 in shape:
        known = math.prod(n for n in shape if n != -1)
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {reshape_target_text(shape)}")
        shape = tuple(size // known if n == -1 else n for n in shape)
    if math.prod(shape) != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {reshape_target_text(shape)}")
    return shape


def transpose_axes(axes: Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    if axes is None:
        return tuple(reversed(range(ndim)))
    if len(axes) != ndim:
        raise ValueError(f"axes don't match array: {len(axes)} axes {tuple(axes)} for an array of dimension {ndim}")
    axes = tuple(normalize_axis(a, ndim) for a in axes)
    if len(set(axes)) != ndim:  # NumPy's words: the permutation names an axis twice
        raise ValueError(f"repeated axis in transpose: axes {axes}")
    return axes
