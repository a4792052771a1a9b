"""Integer index arrays after slices: ``a[:, idx]``, ``a[1:, rows, cols]``, ``a[idx, 1:] = v``, ``a[i, :, j]``.

NumPy's advanced indexing anywhere in a key. The key is split into a basic key (each index array replaced by
``:``), applied first as a view; the indexed axes of that view are moved first, gathered with the leading-axes
:func:`kdsl.frontend.array.index_gather.gather` (or written with
:func:`kdsl.frontend.array.index_assignment.assign_rows`), and the axes of the index result are moved to where
NumPy puts them: in place of the index arrays when the advanced indices (arrays and ints) are adjacent in the key,
else first.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(12).reshape(3, 4))
    >>> a[:, [0, 2]].tolist(), a[1:, [3, 0]].tolist()
    ([[0, 2], [4, 6], [8, 10]], [[7, 4], [11, 8]])
    >>> a[:, [1, 3]] = -1
    >>> a.tolist()
    [[0, -1, 2, -1], [4, -1, 6, -1], [8, -1, 10, -1]]
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from kdsl.errors import shape_text
from kdsl.frontend.array import index_assignment
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.index_gather import gather
from kdsl.frontend.array.stored_values import checked_value


class Plan(NamedTuple):
    """How a key with inner index arrays runs."""
    basic: tuple  # the key with each index array replaced by ``:`` (a view of ``a``)
    axes: tuple[int, ...]  # the axes of that view the index arrays index, in key order
    indices: tuple  # the index arrays
    position: int  # where the index result's axes go in the output (0: first)
    dims: tuple[int, ...] = ()  # the axes of ``a`` the index arrays index (for NumPy's error messages)


def _index_array(k: Any) -> bool:
    return index_assignment.is_int_index_array(k)  # the same test a[idx] = v uses


def _int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def _expanded(items: tuple, ndim: int) -> tuple | None:
    """``items`` with ``...`` replaced by full slices, or None when an item is neither an integer array, an int,
    a slice, ``None`` nor ``...`` (masks and other keys stay with indexing's error messages)."""
    if not all(_index_array(k) or _int(k) or k is None or k is Ellipsis or isinstance(k, slice) for k in items):
        return None
    if sum(k is Ellipsis for k in items) > 1:
        return None
    used = sum(1 for k in items if k is not None and k is not Ellipsis)
    if used > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {used} were indexed")
    dots = [i for i, k in enumerate(items) if k is Ellipsis]  # not `in`: that compares the arrays with ...
    if not dots:
        return items
    i = dots[0]
    return items[:i] + (slice(None),) * (ndim - used) + items[i + 1:]


def plan(key: Any, ndim: int) -> Plan | None:
    """The plan of a key holding integer arrays (lists, NumPy or kdsl arrays) anywhere; None for other keys.

    >>> plan((slice(None), [0, 2]), 2)
    Plan(basic=(slice(None, None, None), slice(None, None, None)), axes=(1,), indices=([0, 2],), position=1, dims=(1,))
    """
    raw = key if isinstance(key, tuple) else (key,)
    items = _expanded(raw, ndim)
    if items is None or not any(map(_index_array, items)):
        return None
    # NumPy's adjacency is that of the key as written: an ``...`` standing for no axes still separates
    # (x[:, idx, ..., 0] of a 3-d x puts the index axes first)
    spread = [i for i, k in enumerate(raw) if _index_array(k) or _int(k)]
    basic, axes, indices, advanced, dims = [], [], [], [], []
    axis = 0
    for pos, k in enumerate(items):
        if _index_array(k):
            basic.append(slice(None))
            axes.append(axis)
            dims.append(sum(1 for j in items[:pos] if j is not None))
            indices.append(k)
            advanced.append(pos)
            axis += 1
        elif _int(k):
            basic.append(k)
            advanced.append(pos)
        else:
            basic.append(k)
            axis += 1  # a slice keeps its axis, None adds one
    adjacent = spread == list(range(spread[0], spread[-1] + 1))
    position = sum(1 for k in items[:advanced[0]] if not _int(k)) if adjacent else 0
    return Plan(tuple(basic), tuple(axes), tuple(indices), position, tuple(dims))


def _order(p: Plan, ndim: int) -> tuple[int, ...]:
    """The axes of the basic view with the indexed ones first."""
    return p.axes + tuple(i for i in range(ndim) if i not in p.axes)


def _index_shape(p: Plan) -> tuple[int, ...]:
    shapes = [tuple(k.shape) if isinstance(k, Array) else np.shape(k) for k in p.indices]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         f"{' '.join(map(shape_text, shapes))}") from None


def _block_to(x: Array, k: int, position: int) -> Array:
    """``x`` with its first ``k`` axes moved to start at ``position``."""
    rest = tuple(range(k, x.ndim))
    return x.transpose(rest[:position] + tuple(range(k)) + rest[position:]) if position else x


def _block_from(x: Array, k: int, position: int) -> Array:
    """``x`` with the ``k`` axes at ``position`` moved first (the inverse of :func:`_block_to`)."""
    if not position:
        return x
    block = tuple(range(position, position + k))
    return x.transpose(block + tuple(i for i in range(x.ndim) if i not in block))


@contextlib.contextmanager
def _axes_named(p: Plan) -> Iterator[None]:
    """An out-of-bounds error names the axis of ``a`` (NumPy's message), not that of the moved view."""
    try:
        yield
    except IndexError as exc:
        found = re.search(r"for axis (\d+) with", str(exc))
        if found is None or int(found.group(1)) >= len(p.dims):
            raise
        raise IndexError(str(exc).replace(found.group(0), f"for axis {p.dims[int(found.group(1))]} with")) from None


def get(a: Array, p: Plan) -> Array:
    """``a[key]`` (a copy, as NumPy's advanced indexing)."""

    view = a[p.basic]
    with _axes_named(p):
        picked = gather(view.transpose(_order(p, view.ndim)), *p.indices)
    return _block_to(picked, len(_index_shape(p)), p.position)


def set(a: Array, p: Plan, value: Any) -> Array:  # noqa: A001 - get/set pair, as inner_mask's
    """``a`` with ``a[key] = value``: ``value`` broadcasts to ``a[key]``'s shape; where indices repeat, the last
    value wins (NumPy's buffered assignment)."""
    from kdsl.frontend.array.indexing import setitem  # cycle: indexing imports this module

    region = a[p.basic]
    order = _order(p, region.ndim)
    index = _index_shape(p)
    others = tuple(n for i, n in enumerate(region.shape) if i not in p.axes)
    selection = others[:p.position] + index + others[p.position:]  # a[key]'s shape
    v = index_assignment.broadcast_values(checked_value(value, region), selection)
    with _axes_named(p):
        moved = index_assignment.assign_rows(region.transpose(order), p.indices, _block_from(v, len(index), p.position))
    return setitem(a, p.basic, moved.transpose(tuple(int(i) for i in np.argsort(order))))
