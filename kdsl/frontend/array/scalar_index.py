"""0-d integer arrays as indices: ``a[kd.asarray(2)]``, ``a[:, i]``, ``a[i, ..., j] = v`` with 0-d ``i``, ``j``.

NumPy treats a 0-d integer array in a key like the integer it holds (its broadcast shape ``()`` adds no axis),
so the result has the shape of the same key with ints. A NumPy 0-d array is read as that int on the host (a
copy, as NumPy's advanced indexing gives). A kdsl 0-d array stands for the NumPy scalar that element reads and
reductions give, so ``kdsl.frontend.array.indexing`` reads it as an int before it gets here (a view, as
indexing by a NumPy scalar is); given one, :func:`get` moves its axes first and gathers them lazily, the rest of
the key applying to what is left, and only the bounds check reads back one flag per index.

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(12).reshape(3, 4))
    >>> i, j = kd.asarray(2), kd.asarray(-1)
    >>> a[i].tolist(), a[:, j].tolist(), a[i, j].tolist(), a[i, None, 1:3].shape
    ([8, 9, 10, 11], [3, 7, 11], 11, (1, 2))
    >>> a[1, j] = 0
    >>> a[1].tolist()
    [4, 5, 6, 0]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from kdsl.frontend.array import index_assignment
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.index_gather import gather


class ScalarKey(NamedTuple):
    """A key split into the 0-d device indices (with the axes they index) and the basic key of the other axes."""
    axes: tuple[int, ...]
    indices: tuple[Array, ...]
    rest: tuple


def _is_0d_int(k: Any) -> bool:
    return isinstance(k, (Array, np.ndarray)) and k.ndim == 0 and k.dtype.kind in "iu"


def _is_basic(k: Any) -> bool:
    return k is None or k is Ellipsis or isinstance(k, slice) or \
        (isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)))


def split(key: Any, ndim: int) -> ScalarKey | None:
    """The parts of ``key`` when it holds a 0-d integer array and otherwise only basic items (ints, slices,
    ``...``, None); None for any other key (other paths handle those). NumPy 0-d arrays become ints."""
    items = tuple(int(k) if isinstance(k, np.ndarray) and _is_0d_int(k) else k
                  for k in (key if isinstance(key, tuple) else (key,)))
    if not all(_is_basic(k) or (isinstance(k, Array) and _is_0d_int(k)) for k in items):
        return None
    if not any(isinstance(k, np.ndarray) or isinstance(k, Array) for k in
               (key if isinstance(key, tuple) else (key,))):
        return None  # plain basic indexing: a view, not this module's business
    if sum(k is Ellipsis for k in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 for k in items if k is not None and k is not Ellipsis)
    if used > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {used} were indexed")
    axes: list[int] = []
    indices: list[Array] = []
    rest: list[Any] = []
    axis = 0
    for k in items:
        if k is Ellipsis:  # spelled out, so that rest lines up with the axes left after the gather
            rest += [slice(None)] * (ndim - used)
            axis += ndim - used
        elif k is None:
            rest.append(None)
        elif isinstance(k, Array):
            axes.append(axis)
            indices.append(k)
            axis += 1
        else:
            rest.append(k)
            axis += 1
    return ScalarKey(tuple(axes), tuple(indices), tuple(rest))


def _moved_first(a: Array, axes: tuple[int, ...]) -> tuple[Array, tuple[int, ...]]:
    """``a`` with ``axes`` moved to the front (other axes keep their order), and the permutation that undoes it."""
    perm = axes + tuple(i for i in range(a.ndim) if i not in axes)
    inverse = tuple(sorted(range(a.ndim), key=perm.__getitem__))
    return (a if perm == tuple(range(a.ndim)) else Array(a.transpose(perm)._n)), inverse


def get(a: Array, parts: ScalarKey) -> Array:
    """``a[key]`` for a key that :func:`split` took apart: a lazy gather of the 0-d indexed axes."""

    if not parts.indices:  # only NumPy 0-d arrays, now ints: a copy (a new array, not a view), as in NumPy
        return Array(a[parts.rest]._n)
    moved, _ = _moved_first(a, parts.axes)
    rows = gather(moved, *parts.indices)
    return rows[parts.rest] if parts.rest else rows


def set(a: Array, parts: ScalarKey, value: Any) -> Array:  # noqa: A001 - get/set of one concept
    """``a`` with ``a[key] = value`` for a key that :func:`split` took apart: the gathered sub-array with
    ``value`` written into ``sub[rest]``, scattered back lazily."""
    from kdsl.frontend.array.indexing import setitem  # cycle: indexing dispatches here

    if not parts.indices:  # only NumPy 0-d arrays, now ints
        return setitem(a, parts.rest, value)
    moved, inverse = _moved_first(a, parts.axes)
    if all(isinstance(k, slice) and k == slice(None) for k in parts.rest):
        new = value  # the whole sub-array: the scatter broadcasts and casts value itself
    else:
        new = get(moved, ScalarKey(tuple(range(len(parts.axes))), parts.indices, ()))
        new[parts.rest] = value
    out = index_assignment.assign_rows(moved, parts.indices, new)
    return out if inverse == tuple(range(a.ndim)) else Array(out.transpose(inverse)._n)

