"""Editing arrays into new ones: ``append delete insert resize ediff1d``, NumPy's names and semantics.

Every result is a new lazy array built from views of the input: contiguous runs are slices joined by
:func:`kdsl.concatenate`, scattered positions one :func:`kdsl.take` with an index array made on the host (the
positions decide the result's shape, so they are host data; a kdsl ``obj`` is read back for them).

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(5)
    >>> kd.append(a, [7]).tolist(), kd.delete(a, [0, 2]).tolist(), kd.insert(a, 1, 9).tolist()
    ([0, 1, 2, 3, 4, 7], [1, 3, 4], [0, 9, 1, 2, 3, 4])
    >>> kd.resize(a, (2, 4)).tolist(), kd.ediff1d(a * a, to_begin=-1).tolist()
    ([[0, 1, 2, 3], [4, 0, 1, 2]], [-1, 1, 3, 5, 7])
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, asarray, number_constant, zeros
from kdsl.frontend.array.joining import tile
from kdsl.frontend.array.shape_arguments import host_ints
from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate, moveaxis
from kdsl.frontend.array.take import take

_MAX_RUNS = 8  # up to this many kept runs are joined as slices (they fuse); more become one gather


def _along(x: Array, ax: int, start: int, stop: int) -> Array:
    return x[(slice(None),) * ax + (slice(start, stop),)]


def _flat_or_axis(x: Array, axis: Any) -> tuple[Array, int]:
    """NumPy's ``axis=None``: the flattened array along axis 0; else the normalised axis."""
    if axis is None:
        return x.reshape(-1), 0
    return x, mv.normalize_axis(axis, x.ndim)


def _host(obj: Any) -> np.ndarray:
    """Positions as host data (a kdsl array is read back: the positions decide the result's shape)."""
    return obj.numpy() if isinstance(obj, Array) else np.asarray(obj)


def append(arr: Any, values: Any, axis: int | None = None) -> Array:
    """``values`` joined after ``arr`` along ``axis``; with ``axis=None`` both are flattened first.

    >>> import kdsl as kd
    >>> kd.append(kd.asarray([[1, 2]]), [[3, 4]], axis=0).tolist(), kd.append(kd.asarray([[1, 2]]), 3).tolist()
    ([[1, 2], [3, 4]], [1, 2, 3])
    """
    x = as_array(arr)
    v = number_constant(values, x.device, _wide(x)) if axis is None else None
    v = as_array(values, x.device) if v is None else v
    if axis is None:
        return concatenate((x.reshape(-1), v.reshape(-1)), axis=0)
    return concatenate((x, v), axis=axis)


def _wide(x: Array) -> bool:
    """Whether a list of Python floats joins ``x`` at float64/complex128 (:func:`creation.at_array_precision`)."""
    return x.dtype.name in ("float64", "complex128")


def _kept(x: Array, ax: int, keep: np.ndarray) -> Array:
    """The positions of axis ``ax`` where ``keep`` is True, in order: joined slices, or one gather."""
    edges = np.flatnonzero(np.diff(np.concatenate(([False], keep, [False])).astype(np.int8)))
    runs = list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))
    if len(runs) <= 1:  # a slice: detached from ``x``, so writes to the result do not reach the input
        return Array(_along(x, ax, *(runs[0] if runs else (0, 0)))._node)
    if len(runs) <= _MAX_RUNS:
        return concatenate([_along(x, ax, a, b) for a, b in runs], axis=ax)
    return take(x, np.flatnonzero(keep), axis=ax)


def _delete_mask(obj: Any, n: int, ax: int) -> np.ndarray:
    """Which of the ``n`` positions survive deleting ``obj`` (a slice, ints, or a boolean mask)."""
    keep = np.ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[np.arange(*obj.indices(n))] = False
        return keep
    idx = _host(obj)
    if idx.dtype == np.bool_:
        if idx.shape != (n,):
            raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the axis "
                             f"length of {n}")
        return ~idx
    if idx.size == 0 and not isinstance(obj, (np.ndarray, Array)):
        idx = idx.astype(np.int64)  # NumPy reads [] as no positions
    if idx.dtype.kind not in "iu":
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, got {idx.dtype}")
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise IndexError(f"index {bad.reshape(-1)[0]} is out of bounds for axis {ax} with size {n}")
    keep[idx] = False  # negative positions count from the end, as in NumPy
    return keep


def delete(arr: Any, obj: Any, axis: int | None = None) -> Array:
    """``arr`` without the entries ``obj`` (an int, a slice, ints, or a boolean mask of the axis's length) along
    ``axis``; with ``axis=None`` the flattened array. A kdsl ``obj`` is read back to the host (the result's
    shape depends on it).

    >>> import kdsl as kd
    >>> m = kd.arange(12).reshape(3, 4)
    >>> kd.delete(m, 1, axis=0).tolist(), kd.delete(m, slice(None, None, 2), axis=1).tolist()
    ([[0, 1, 2, 3], [8, 9, 10, 11]], [[1, 3], [5, 7], [9, 11]])
    """
    x, ax = _flat_or_axis(as_array(arr), axis)
    return _kept(x, ax, _delete_mask(obj, x.shape[ax], ax))


def _insert_positions(obj: Any, n: int) -> np.ndarray:
    """``obj`` of :func:`insert` as host ints (a slice: its positions; a boolean array: where it is True, as in
    NumPy)."""
    if isinstance(obj, slice):
        return np.arange(*obj.indices(n))
    idx = _host(obj)
    if idx.dtype == np.bool_ and idx.ndim == 1:
        return np.flatnonzero(idx)
    if idx.size == 0 and not isinstance(obj, (np.ndarray, Array)):
        idx = idx.astype(np.int64)
    if idx.dtype.kind not in "biu":  # NumPy: IndexError for an array of positions, TypeError for the rest
        error = IndexError if isinstance(obj, (np.ndarray, Array)) else TypeError
        raise error(f"insert: positions must be integers, got dtype {idx.dtype}; arrays used as indices must be "
                    "of integer (or boolean) type (convert with .astype(int))")
    if idx.ndim > 1:
        raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    return idx.astype(np.int64)


def _slot(v: Array, x: Array, ax: int, count: int) -> Array:
    """The inserted values broadcast to ``x``'s shape with ``count`` entries along ``ax`` (extra leading size-1
    axes dropped first, as NumPy's assignment does; ValueError when they do not fit)."""
    shape = x.shape[:ax] + (count,) + x.shape[ax + 1:]
    while v.ndim > len(shape) and v.shape[0] == 1:
        v = v.reshape(v.shape[1:])
    return broadcast_values_to(v, shape)


def _scattered_sources(idx: np.ndarray, n: int, obj: Any, ax: int) -> np.ndarray:
    """For each output position, its index into ``concat(x, inserted)``: NumPy's placement of several
    insertions (negative positions count from the end once; equal ones keep their order)."""
    k, total = idx.size, n + idx.size
    pos = np.where(idx < 0, idx + n, idx)
    order = np.argsort(pos, kind="stable")
    pos[order] += np.arange(k)  # each insertion shifts the later ones by one
    if ((pos < -total) | (pos >= total)).any():
        raise IndexError(f"index {obj} is out of bounds for axis {ax} with size {n}")
    pos %= total
    old = np.ones(total, dtype=bool)
    old[pos] = False
    if old.sum() != n:
        raise ValueError(f"insert: positions {obj} land on one place twice (after negative positions count from "
                         f"the end); NumPy cannot place them either")
    source = np.empty(total, dtype=np.int64)
    source[pos] = n + np.arange(k)
    source[old] = np.arange(n)
    return source


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> Array:
    """``arr`` with ``values`` inserted before the positions ``obj`` (an int, a slice or ints) along ``axis``;
    with ``axis=None`` into the flattened array. ``values`` take ``arr``'s dtype and broadcast as NumPy's do:
    for one position they fill a new slab as thick as ``values`` along ``axis`` (for an int position, the
    values' first axis is moved there); for several, one entry each.

    >>> import kdsl as kd
    >>> m = kd.zeros((2, 2), dtype=kd.int32)
    >>> kd.insert(m, 1, [5, 6], axis=1).tolist(), kd.insert(m, [0, 2], 7, axis=0).tolist()
    ([[0, 5, 0], [0, 6, 0]], [[7, 7], [0, 0], [0, 0], [7, 7]])
    """
    x, ax = _flat_or_axis(as_array(arr), axis)
    n = x.shape[ax]
    idx = _insert_positions(obj, n)
    v = values.astype(x.dtype) if isinstance(values, Array) else asarray(values, dtype=x.dtype, device=x.device)
    v = v.reshape((1,) * (x.ndim - v.ndim) + v.shape)  # NumPy's ndmin=arr.ndim
    if idx.size == 1:  # one position: a slab as thick as the values along ``axis`` (NumPy's rule)
        i = int(idx.reshape(-1)[0])
        if not -n <= i <= n:
            raise IndexError(f"index {obj} is out of bounds for axis {ax} with size {n}")
        i = i + n if i < 0 else i
        if idx.ndim == 0:  # a scalar position: the values' first axis is the slab's thickness
            v = moveaxis(v, 0, ax)
        slab = _slot(v, x, ax, v.shape[ax])
        return concatenate([_along(x, ax, 0, i), slab, _along(x, ax, i, n)], axis=ax)
    source = _scattered_sources(idx, n, obj, ax)
    return take(concatenate([x, _slot(v, x, ax, idx.size)], axis=ax), source, axis=ax)


def resize(a: Any, new_shape: Any) -> Array:
    """An array of ``new_shape`` filled with ``a``'s elements (C order), repeated as often as needed (NumPy's
    ``np.resize``; unlike ``ndarray.resize``, which pads with zeros). An empty ``a`` gives zeros.

    >>> import kdsl as kd
    >>> kd.resize(kd.asarray([1, 2, 3]), 5).tolist(), kd.resize(kd.asarray([[1, 2], [3, 4]]), (1, 3)).tolist()
    ([1, 2, 3, 1, 2], [[1, 2, 3]])
    """
    x = as_array(a).reshape(-1)
    new_shape = host_ints(new_shape)  # np.resize(a, dims_array), as NumPy's
    shape = (operator.index(new_shape),) if not isinstance(new_shape, (tuple, list)) else \
        tuple(operator.index(s) for s in new_shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"all elements of `new_shape` must be non-negative, got {shape}")
    total = math.prod(shape)
    if x.size == 0 or total == 0:
        return zeros(shape, dtype=x.dtype, device=x.device)
    reps = -(-total // x.size)
    return Array(tile(x, reps)[:total].reshape(shape)._node)  # a new array: writes do not reach ``a``


def _edge(values: Any, d: dt.DType, which: str, device: Any) -> Array:
    """``to_begin``/``to_end`` of :func:`ediff1d`, flattened, in the input's dtype (NumPy's same_kind rule)."""
    src = values.dtype.np if isinstance(values, Array) else np.asarray(values).dtype
    if not np.can_cast(src, d.np, casting="same_kind"):
        raise TypeError(f"dtype of `{which}` must be compatible with input `ary` under the `same_kind` rule "
                        f"({src} to {d.name})")
    # past the check NumPy writes the values into the result, wrapping what does not fit (2**16 in int16 is 0)
    v = values.astype(d) if isinstance(values, Array) else asarray(np.asarray(values).astype(d.np), device=device)
    return v.reshape(-1)


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Array:
    """The differences between consecutive elements of the flattened ``ary`` (in its dtype), with ``to_begin``
    before them and ``to_end`` after.

    >>> import kdsl as kd
    >>> kd.ediff1d(kd.asarray([[1, 4], [9, 16]]), to_end=[0, 0]).tolist()
    [3, 5, 7, 0, 0]
    """
    x = as_array(ary).reshape(-1)
    if x.dtype is dt.bool_:
        raise TypeError("ediff1d: boolean subtract is not supported (NumPy's rule); use kd.diff(a) (it takes "
                        "logical_xor for bools) or a.astype(kd.int8)")
    pieces = [x[1:] - x[:-1]]
    if to_begin is not None:
        pieces.insert(0, _edge(to_begin, x.dtype, "to_begin", x.device))
    if to_end is not None:
        pieces.append(_edge(to_end, x.dtype, "to_end", x.device))
    return concatenate(pieces).astype(x.dtype) if len(pieces) > 1 else pieces[0].astype(x.dtype)
