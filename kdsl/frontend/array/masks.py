"""Boolean masks and data-dependent shapes, NumPy's semantics: ``nonzero``, ``flatnonzero``, ``argwhere``,
``where(cond)`` with one argument, ``compress``, ``extract``, and the mask reads and writes ``a[mask]`` and
``a[mask] = v`` (through :mod:`kdsl.frontend.array.indexing`).

How a compaction runs on the device: the mask becomes 0/1 int32 flags, counted per tile of the scan below, and
the sum of those counts, the number of selected elements, is read back - one synchronisation, since the
result's shape depends on it. Then one workgroup scan of the flags (the tile counts' scan, and a pass that
scans each tile again, :mod:`kdsl.codegen.scan_blocked` or :mod:`kdsl.codegen.scan_workgroup`) writes each
selected element - its position for ``nonzero``, its value for a 1-D ``a[mask]`` - straight to its output
slot: the mask is read twice, the values once, and only the result is written. ``a[mask]`` over leading axes
gathers the selected rows with ``kd.take``.

Which functions synchronise (read one number back): ``nonzero``, ``flatnonzero``, ``argwhere``, ``where(cond)``,
``compress``, ``extract``, ``a[mask]`` with a kdsl mask (a NumPy or list mask is compacted on the host instead)
and ``a[mask] = values`` when ``values`` has one row per selected element. ``a[mask] = scalar`` (or a value that
broadcasts to one selected row, such as ``grad[h <= 0] = 0``) is a lazy ``kd.where`` and does not synchronise.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([[0, 3], [5, 0]], np.int32))
    >>> [i.tolist() for i in kd.nonzero(a)], kd.flatnonzero(a).tolist()
    ([[0, 1], [1, 0]], [1, 2])
    >>> a[a > 1].tolist(), kd.argwhere(a).tolist()
    ([3, 5], [[0, 1], [1, 0]])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.engine.lower_scan import compact_tile
from kdsl.errors import shape_text
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import arange, as_array, asarray
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.movement import normalize_axis
from kdsl.frontend.array.reduction_where import into
from kdsl.frontend.array.shape_ops import stack
from kdsl.frontend.array.stored_values import checked_value
from kdsl.frontend.array.take import take
from kdsl.ir.graph import Node

# Up to this many elements a compaction is one fused scan (int32 positions); longer ones use the running count.
FUSED_LIMIT = 2**31 - 2**16


def _flags(flat: Array) -> Array:
    """The 0/1 int32 flags of the non-zero elements of ``flat`` (lazy: they fuse into the kernels reading them)."""
    return ops.where(flat != 0, 1, 0).astype(dt.int32)


def _running_count(flat: Array) -> tuple[Array, int]:
    """(the inclusive running count of the non-zero elements of the 1-D ``flat``, their total): the one
    synchronisation of a compaction reads back the total only. The count is int32 when it fits."""
    d = dt.int32 if flat.shape[0] < FUSED_LIMIT else index_dtype(flat.device)
    csum = cumsum(_flags(flat), dtype=d)
    if flat.shape[0] == 0:
        return csum, 0
    realize(csum)  # the gather below reads it again: computed once, kept on the device
    # a one-element copy: reading a view of a realised buffer downloads the whole buffer (2 GB for 2**28)
    return csum, int((csum[-1:] + 0).numpy()[0])


def _compacted(flat: Array, values: Array | None = None) -> Array:
    """``values[flat != 0]`` for the 1-D ``flat`` and ``values`` (None: the positions, ascending, NumPy's intp):
    one count of the flags read back (the synchronisation, :func:`count_tiles`), then one scan of the flags that
    writes each selected element to its place (phase "compact" of a workgroup scan)."""
    d = index_dtype(flat.device) if values is None else values.dtype
    n = flat.shape[0]
    if n >= FUSED_LIMIT:  # positions past int32: the running count and a binary-search-free scatter
        src = _selected_by_count(flat)
        return src if values is None else take(values, src, axis=0, mode="clip")
    count, tiles = count_tiles(flat)
    flags = _flags(flat)
    if count == 0:
        return asarray(np.zeros(0, d.np), device=flat.device)
    if count == n and values is None:
        return arange(count, dtype=d, device=flat.device)
    srcs: tuple[Node, ...] = (flags._node,) if values is None else (flags._node, values._node)
    if tiles is not None:
        srcs += (tiles._node,)
    return Array(Node("compact", srcs, d, (count,), "flags" if tiles is None else "flags+tiles", device=flat.device))


def count_tiles(flat: Array) -> tuple[int, Array | None]:
    """(the number of non-zero elements of the 1-D ``flat``, the per-tile counts the compaction scans or None):
    one pass over the mask writes the counts of the tiles the compaction will use
    (:func:`kdsl.engine.lower_scan.compact_tile`), and the one number read back is their sum. So the mask is
    read twice in all (these counts, the final pass). A line of one tile: a plain sum."""
    n = flat.shape[0]
    if n == 0:
        return 0, None
    # The flags are an expression of their own: had they been the node the compaction reads, realising the
    # counts would have written them out (an int32 per element) and the scans would have read that back.
    tile = compact_tile(n, flat.device)
    if n <= tile:
        return int(_flags(flat).sum().numpy()), None
    tiles = Array(Node("compact", (_flags(flat)._node,), dt.int32, (-(-n // tile),), ("tiles", tile),
                       device=flat.device))
    # One submission computes the counts (kept: ``tiles`` holds them, and the compaction reads them again),
    # their sum, and copies the sum to the host.
    return int(tiles.sum().numpy()), tiles


def _selected(flat: Array) -> Array:
    """The positions of the non-zero elements of the 1-D ``flat``, ascending (a lazy int64 array whose length was
    read back)."""
    return _compacted(flat)


def _selected_by_count(flat: Array) -> Array:
    """:func:`_selected` through the realised running count (arrays of 2**31 elements or more)."""
    d = index_dtype(flat.device)
    csum, count = _running_count(flat)
    if count == 0:
        return asarray(np.zeros(0, d.np), device=flat.device)
    if count == flat.shape[0]:
        return arange(count, dtype=d, device=flat.device)
    # each position where the count steps up writes itself to slot csum - 1: a scatter kernel as fast as a copy
    return Array(Node("compact", (csum._node,), d, (count,), device=flat.device))


def flatnonzero(a: Any) -> Array:
    """Indices of the non-zero elements of the flattened ``a`` (NumPy's ``flatnonzero``). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> kd.flatnonzero(kd.asarray([[0.0, -2.0], [float("nan"), 0.0]])).tolist()
        [1, 2]
    """
    return _selected(as_array(a).reshape(-1))


def nonzero(a: Any) -> tuple[Array, ...]:
    """The indices of the non-zero elements of ``a``, one int64 array per axis, in C order (NumPy's
    ``nonzero``; 0-d arrays raise, as in NumPy 2). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> rows, cols = kd.nonzero(kd.eye(3)[:, ::-1])
        >>> rows.tolist(), cols.tolist()
        ([0, 1, 2], [2, 1, 0])
    """
    x = as_array(a)
    if x.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use kd.atleast_1d(scalar).nonzero() "
                         "instead. If the context of this function is of the form `arr[nonzero(cond)]`, just use "
                         "`arr[cond]`.")
    flat = _selected(x.reshape(-1))
    return _unravel(flat, x.shape)


def _unravel(flat: Array, shape: tuple[int, ...]) -> tuple[Array, ...]:
    """The C-order multi-index of each flat index (one array per axis)."""
    if len(shape) == 1:
        return (flat,)
    out = []
    for axis, n in enumerate(shape):
        stride = math.prod(shape[axis + 1:])
        idx = flat // stride if stride > 1 else flat
        out.append(idx % n if axis else idx)
    return tuple(out)


def argwhere(a: Any) -> Array:
    """The indices of the non-zero elements of ``a`` as rows of a (count, a.ndim) array (NumPy's
    ``argwhere``). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> kd.argwhere(kd.asarray([[1, 0], [0, 1]])).tolist()
        [[0, 0], [1, 1]]
    """
    x = as_array(a)
    d = index_dtype(x.device)
    if x.ndim == 0:  # NumPy: one empty row when the scalar is non-zero
        return asarray(np.zeros((int(bool(x.item())), 0), d.np), device=x.device)
    return stack(nonzero(x), axis=1)


def compress(condition: Any, a: Any, axis: int | None = None, out: Any = None) -> Array:
    """The slices of ``a`` along ``axis`` (``None``: of the flattened ``a``) where the 1-D ``condition`` is true
    (NumPy's ``compress``; a shorter condition counts as False beyond its end). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> kd.compress([False, True], kd.asarray([[1, 2], [3, 4]]), axis=0).tolist()
        [[3, 4]]
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        return into(compress(condition, a, axis), out)
    x = as_array(a)
    cond = condition if isinstance(condition, Array) else asarray(np.asarray(condition))
    if cond.ndim != 1:
        raise ValueError(f"condition must be a 1-d array, not one of shape {cond.shape}")
    if axis is None:
        x, axis = x.reshape(-1), 0
    x = x.reshape(1) if x.ndim == 0 else x  # NumPy's compress sees a 0-d array as 1-d (axis 0 or -1)
    axis = normalize_axis(axis, x.ndim)  # NumPy's AxisError for an axis the array lacks
    n = x.shape[axis]
    # a True beyond the axis raises IndexError, as NumPy's take does; take checks it (one more read-back)
    mode = "clip" if cond.shape[0] <= n else "raise"
    return take(x, _selected(cond), axis=axis, mode=mode)


def extract(condition: Any, arr: Any) -> Array:
    """The elements of the flattened ``arr`` where the flattened ``condition`` is non-zero (NumPy's
    ``extract``). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> a = kd.arange(6).reshape(2, 3)
        >>> kd.extract(a % 2 == 0, a).tolist()
        [0, 2, 4]
    """
    cond = as_array(condition).reshape(-1)
    return compress(cond, as_array(arr), axis=None)


# ----- a[mask] and a[mask] = v (called from indexing.py)

def is_mask(k: Any) -> bool:
    """Whether an index is a boolean array (kdsl, NumPy or a list of bools), not a bool scalar."""
    if isinstance(k, Array):
        return k.dtype is dt.bool_ and k.ndim > 0
    if isinstance(k, np.ndarray):
        return k.dtype == np.bool_ and k.ndim > 0
    if isinstance(k, list):
        return len(k) > 0 and np.asarray(k).dtype == np.bool_
    return False


def _mask_rows(a: Array, mask: Any) -> tuple[Array, Any]:
    """(``a`` viewed as (rows of the mask's axes, rest), the mask as a flat kdsl or NumPy array), checking that the
    mask's shape is that of ``a``'s leading axes as NumPy does."""
    shape = tuple(mask.shape) if isinstance(mask, Array) else np.shape(mask)
    k = len(shape)
    if k > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {k} were indexed")
    # NumPy lets a boolean axis of length 0 stand for an axis of any length: the mask selects nothing
    axis = next((i for i in range(k) if shape[i] not in (a.shape[i], 0)), None)
    if axis is not None:
        raise IndexError(f"boolean index did not match indexed array along axis {axis}; size of axis is "
                         f"{a.shape[axis]} but size of corresponding boolean axis is {shape[axis]}")
    rows = a.reshape((math.prod(a.shape[:k]),) + a.shape[k:])
    if tuple(a.shape[:k]) != shape:  # an empty mask of another shape: no rows
        rows = rows[:0]
    flat = mask.reshape(-1) if isinstance(mask, Array) else np.asarray(mask, bool).reshape(-1)
    return rows, flat


def getmask(a: Array, mask: Any, rest: tuple) -> Array:
    """``a[mask]`` (then ``[:, *rest]``): the rows of ``a``'s leading axes where ``mask`` is true, a copy.
    A kdsl mask synchronises once; a host mask is compacted on the host."""
    if isinstance(mask, Array) and mask.device is not a.device:
        raise ValueError("the mask lives on another device than the array; move it with kd.asarray")
    rows, flat = _mask_rows(a, mask)
    if isinstance(flat, np.ndarray):
        src = asarray(np.flatnonzero(flat).astype(index_dtype(a.device).np), device=a.device)
        out = take(rows, src, axis=0, mode="clip")
    elif rows.ndim == 1:  # the values themselves, in the scan's pass
        out = _compacted(flat, rows)
    else:
        out = take(rows, _selected(flat), axis=0, mode="clip")
    return out[(slice(None),) + rest] if rest else out


def mismatch(vshape: tuple[int, ...], selected: tuple[int, ...]) -> ValueError:
    """NumPy's error for a value that does not broadcast to a boolean selection of shape ``selected`` (marked
    ``selection_mismatch``, so a caller that moved the value's axes can name the shapes as given instead).

    >>> print(mismatch((2, 5), (2, 4)))
    shape mismatch: value array of shape (2,5) could not be broadcast to indexing result of shape (2,4)
    """
    err = ValueError(f"shape mismatch: value array of shape {shape_text(vshape)} could not be broadcast to "
                     f"indexing result of shape {shape_text(selected)}")
    err.selection_mismatch = True  # type: ignore[attr-defined]  # (NumPy's exact class, ValueError, kept)
    return err


def setmask(a: Array, mask: Any, value: Any) -> Array:
    """The array equal to ``a`` with ``a[mask]`` replaced by ``value``, NumPy's rule: ``value`` broadcasts to
    (count,) + the remaining axes. A value that broadcasts to one selected row is a lazy ``kd.where`` (no
    synchronisation); one row per selected element is read through the running count (one synchronisation)."""

    dev = a.device
    m = mask if isinstance(mask, Array) else asarray(np.asarray(mask, bool), device=dev)
    rows, flat = _mask_rows(a, m)
    rest = rows.shape[1:]
    v = checked_value(value, a)
    vshape = v.shape
    if m.ndim and tuple(m.shape) == tuple(a.shape) and v.ndim > 1:  # a mask of a's shape: NumPy's boolean
        # assignment fast path, which takes a 0-d or 1-d value only
        raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has "
                        f"{v.ndim} dimensions")
    if m.size == 0:  # nothing selected (NumPy accepts an empty mask of any shape): only check the value's shape
        lead = vshape[:max(0, len(vshape) - len(rest) - 1)]  # NumPy drops leading 1s of the value
        tail = zip(vshape[::-1], (0, *rest)[::-1], strict=False)  # the value may have fewer axes
        if any(n != 1 for n in lead) or any(n not in (1, r) for n, r in tail):
            raise mismatch(vshape, (0, *rest))
        return a
    lead_one = len(vshape) <= len(rest) or all(n == 1 for n in vshape[:len(vshape) - len(rest)])
    if lead_one:  # the same value(s) for every selected row
        inner = vshape[max(0, len(vshape) - len(rest)):]
        try:
            ops.broadcast_shapes(inner, rest)
        except ValueError:
            raise mismatch(vshape, (_running_count(flat)[1], *rest)) from None
        sel = m.reshape(m.shape + (1,) * len(rest))
        return ops.where(sel, v.reshape(inner), a).astype(a.dtype)
    csum, count = _running_count(flat)
    extra = len(vshape) - len(rest) - 1
    if extra > 0 and any(n != 1 for n in vshape[:extra]):
        raise mismatch(vshape, (count, *rest))
    vals = v.reshape(vshape[extra:]) if extra > 0 else v
    if vals.shape[0] != count and tuple(m.shape) == tuple(a.shape):  # NumPy's words for a whole-array mask
        raise ValueError(f"NumPy boolean array indexing assignment cannot assign {vals.shape[0]} input values to "
                         f"the {count} output values where the mask is true")
    if vals.shape[0] != count:
        raise mismatch(vshape, (count, *rest))
    if count == 0:
        return a
    try:
        vals = Array(ops.movement.broadcast_node(vals._node, (count,) + rest))
    except ValueError:
        raise mismatch(vshape, (count, *rest)) from None
    # selected element i takes value row csum[i] - 1 (its position among the selected)
    pos = ops.where(csum > 0, csum - 1, 0)
    picked = take(vals, pos, axis=0, mode="clip")
    sel = flat.reshape((flat.shape[0],) + (1,) * len(rest))
    return ops.where(sel, picked, rows).reshape(a.shape)
