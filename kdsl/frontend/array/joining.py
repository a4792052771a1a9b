"""Joining, tiling and repeating: ``atleast_1d/2d/3d vstack hstack dstack column_stack tile repeat roll meshgrid
diff``, NumPy's names and semantics (splitting is in splitting.py, ``pad`` in padding.py).

``meshgrid`` and the broadcasts inside ``tile``/``repeat`` are zero-copy views; joins go
through :func:`kdsl.concatenate` (one new buffer, each piece fused into the kernel that writes it).

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.vstack([a, a]).shape, kd.tile(a, (2, 1)).shape, [p.shape for p in kd.split(a, 3, axis=1)]
    ((4, 3), (4, 3), [(2, 1), (2, 1), (2, 1)])
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.broadcast_views import following
from kdsl.frontend.array.creation import as_array, as_array_beside
from kdsl.frontend.array.shape_arguments import int_tuple
from kdsl.frontend.array.shape_ops import broadcast_to, broadcast_values_to, concatenate, stack_operands
from kdsl.frontend.array.take import take


def take_slice(a: Array, axis: int, start: int, stop: int | None, step: int = 1) -> Array:
    """``a[..., start:stop:step, ...]`` on ``axis`` (a view): the pieces that roll, diff and pad join."""
    key = (slice(None),) * axis + (slice(start, stop, step),)
    return a[key]


def atleast_1d(*arys: Any) -> Any:
    """Arrays with at least one dimension (0-d ones become shape (1,)); one array for one argument."""
    out = [x if x.ndim >= 1 else x.reshape(1) for x in map(as_array, arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: Any) -> Any:
    """Arrays with at least two dimensions (shape (n,) becomes (1, n))."""
    out = [x.reshape((1,) * (2 - x.ndim) + x.shape) if x.ndim < 2 else x for x in map(as_array, arys)]
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys: Any) -> Any:
    """Arrays with at least three dimensions ((n,) -> (1, n, 1), (m, n) -> (m, n, 1))."""
    out = []
    for a in map(as_array, arys):
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, a.shape[0], 1)
        elif a.ndim == 2:
            a = a.reshape(a.shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else out


def _seq(tup: Any) -> list[Array]:
    """The arrays to stack: the items of a list, a tuple or an array (its rows), as NumPy's; converted together
    as concatenate's (``hstack((a64, [0.1]))`` keeps 0.1 in float64, a one-number list is a push constant)."""
    return stack_operands(tup)


def vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """Stack arrays row-wise (1-d arrays become rows).

    >>> import kdsl as kd
    >>> kd.vstack([kd.asarray([1, 2]), kd.asarray([3, 4])]).tolist()
    [[1, 2], [3, 4]]
    """
    return concatenate([atleast_2d(x) for x in _seq(tup)], axis=0, dtype=dtype, casting=casting)


def hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """Stack arrays column-wise (1-d arrays are joined end to end).

    >>> import kdsl as kd
    >>> kd.hstack([kd.asarray([1, 2]), kd.asarray([3])]).tolist()
    [1, 2, 3]
    """
    arrs = [atleast_1d(x) for x in _seq(tup)]
    return concatenate(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def dstack(tup: Sequence[Any]) -> Array:
    """Stack arrays along the third axis (after making them at least 3-d)."""
    return concatenate([atleast_3d(x) for x in _seq(tup)], axis=2)


def column_stack(tup: Sequence[Any]) -> Array:
    """Stack 1-d arrays as the columns of a 2-d array (2-d arrays are joined as they are)."""
    arrs = [x.reshape(-1, 1) if x.ndim < 2 else x for x in _seq(tup)]
    return concatenate(arrs, axis=1)


def tile(A: Any, reps: Any) -> Array:  # noqa: N803 - NumPy's parameter name
    """``A`` repeated ``reps`` times along each axis (a broadcast view, copied once by whatever reads it).

    >>> import kdsl as kd
    >>> kd.tile(kd.asarray([1, 2]), (2, 2)).tolist()
    [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    a = as_array(A)
    reps_t = int_tuple(reps, bools=True)  # an int, np.int64 or 0-d integer array repeats every axis; floats: TypeError
    if any(r < 0 for r in reps_t):
        raise ValueError(f"tile: repetitions must be non-negative, got {reps_t}")
    nd = max(a.ndim, len(reps_t))
    shape = (1,) * (nd - a.ndim) + a.shape
    reps_t = (1,) * (nd - len(reps_t)) + reps_t
    inter = tuple(v for pair in zip((1,) * nd, shape, strict=True) for v in pair)
    big = tuple(v for pair in zip(reps_t, shape, strict=True) for v in pair)
    return broadcast_values_to(a.reshape(inter), big).reshape(tuple(r * n for r, n in zip(reps_t, shape, strict=True)))


MANY_RUNS = 32  # runs of equal repeat counts past which repeat gathers rather than joining a piece per run


def _integer_counts(counts: np.ndarray) -> np.ndarray:
    """Host repeat counts (the result's shape) as NumPy reads them: float counts truncated toward zero (its forced
    cast to intp: ``np.repeat(a, 1.5)`` repeats once); NaN or inf raise as Python's ``int()`` of them does.

    >>> _integer_counts(np.asarray([1.7, 2.2, -0.5])).tolist()
    [1, 2, 0]
    """
    if counts.dtype.kind in "iub":
        return counts
    if counts.dtype.kind != "f":
        raise TypeError(f"repeat counts must be integers, got dtype {counts.dtype}")
    if np.isnan(counts).any():
        raise ValueError("cannot convert float NaN to integer (a repeat count)")
    if np.isinf(counts).any():
        raise OverflowError("cannot convert float infinity to integer (a repeat count)")
    return np.trunc(counts).astype(np.int64)


def repeat(a: Any, repeats: Any, axis: int | None = None) -> Array:
    """Each element repeated ``repeats`` times along ``axis`` (the flattened array when None); ``repeats`` is
    an int or one count per element (known on the host: it decides the shape).

    >>> import kdsl as kd
    >>> kd.repeat(kd.asarray([1, 2]), 2).tolist(), kd.repeat(kd.asarray([1, 2, 3]), [0, 2, 1]).tolist()
    ([1, 1, 2, 2], [2, 2, 3])
    """
    x = as_array(a)
    if axis is None or x.ndim == 0:  # (NumPy repeats a 0-d array along axis 0 or -1 as one of one element)
        x, axis = x.reshape(-1), 0 if axis is None else axis
    ax = mv.normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    counts = _integer_counts(np.asarray(repeats.numpy() if isinstance(repeats, Array) else repeats))
    if (counts < 0).any():
        raise ValueError("repeat counts must be non-negative")
    if counts.ndim == 0 or counts.size == 1:
        r = int(counts.reshape(-1)[0]) if counts.size else 0
        return _repeat_each(x, ax, r)
    if counts.shape != (n,):
        raise ValueError(f"repeat: {counts.size} counts for an axis of length {n}")
    if np.count_nonzero(counts[1:] != counts[:-1]) >= MANY_RUNS:
        # run-length decoding, ``np.repeat(values, lengths)``: a piece per run was a kernel per run (10 000 runs
        # took seconds); one gather reads each output's source element instead
        source = np.repeat(np.arange(n, dtype=np.int64 if n > 2**31 - 1 else np.int32), counts)
        return take(x, source, axis=ax)
    # Runs of equal counts repeat as one broadcast piece: few pieces for typical counts.
    pieces, start = [], 0
    for i in range(1, n + 1):
        if i == n or counts[i] != counts[start]:
            if counts[start]:
                pieces.append(_repeat_each(take_slice(x, ax, start, i), ax, int(counts[start])))
            start = i
    if not pieces:
        return take_slice(x, ax, 0, 0)
    return concatenate(pieces, axis=ax)


def _repeat_each(x: Array, ax: int, r: int) -> Array:
    """Every element of axis ``ax`` repeated ``r`` times in place: (.., n, 1, ..) broadcast to (.., n, r, ..)."""
    s = x.shape
    wide = x.reshape(s[:ax + 1] + (1,) + s[ax + 1:])
    return broadcast_values_to(wide, s[:ax + 1] + (r,) + s[ax + 1:]).reshape(s[:ax] + (s[ax] * r,) + s[ax + 1:])


def roll(a: Any, shift: Any, axis: Any = None) -> Array:
    """Elements shifted ``shift`` places along ``axis`` (wrapping round); the flattened array when None.

    >>> import kdsl as kd
    >>> kd.roll(kd.arange(5), 2).tolist(), kd.roll(kd.arange(4).reshape(2, 2), -1, axis=(0, 1)).tolist()
    ([3, 4, 0, 1, 2], [[3, 2], [1, 0]])
    """
    x = as_array(a)
    if axis is None:
        return roll(x.reshape(-1), shift, 0).reshape(x.shape)
    total: dict[int, int] = {}
    if shift.__class__ is int and axis.__class__ is int:  # the usual call (a loop's): no NumPy broadcasting
        total[mv.normalize_axis(axis, x.ndim)] = shift
    else:
        given = np.asarray(axis)  # (an empty tuple reads as float64: no axis, nothing rolled, as NumPy's)
        if given.size and given.dtype.kind not in "biu":  # int('1') and int(1.0) would take them; NumPy's TypeError
            raise TypeError(f"roll: axis must be an integer or a tuple of integers, not {axis!r}")
        shifts, axes = np.broadcast_arrays(np.asarray(shift), np.asarray(axis))  # NumPy broadcasts them
        for s, ax in zip(shifts.reshape(-1).tolist(), axes.reshape(-1).tolist(), strict=True):
            k = mv.normalize_axis(int(ax), x.ndim)
            total[k] = total.get(k, 0) + int(s)
    rolled = x
    for k, s in total.items():
        n = rolled.shape[k]
        if n and s % n:
            s %= n
            rolled = concatenate([take_slice(rolled, k, n - s, n), take_slice(rolled, k, 0, n - s)], axis=k)
    # nothing moved (shifts of whole turns): still a new array, as NumPy's, not ``a`` itself or a view of it
    return Array(rolled._node) if rolled is x else rolled


def meshgrid(*arrays: Any, indexing: str = "xy", sparse: bool = False, copy: bool = True) -> list[Array]:
    """Coordinate arrays from 1-d coordinate vectors (``indexing='xy'`` swaps the first two axes, as NumPy
    does). Returns a list, as the array API standard does (NumPy 2: a tuple). As NumPy's, ``copy=True`` gives
    arrays of their own, ``copy=False`` views of the vectors (writes into a vector show in them).

    >>> import kdsl as kd
    >>> X, Y = kd.meshgrid(kd.asarray([1, 2, 3]), kd.asarray([4, 5]))
    >>> X.tolist(), Y.shape
    ([[1, 2, 3], [1, 2, 3]], (2, 3))
    """
    if indexing not in ("xy", "ij"):
        # NumPy's sentence first, then the value that was given
        raise ValueError(f"Valid values for `indexing` are 'xy' and 'ij'. (got {indexing!r})")
    dev = ops.device_of(arrays)
    vecs = [as_array(a, dev).reshape(-1) for a in arrays]
    nd = len(vecs)
    out = []
    for i, v in enumerate(vecs):
        shape = [1] * nd
        shape[i] = v.shape[0]
        if indexing == "xy" and nd > 1 and i < 2:
            shape[0], shape[1] = shape[1], shape[0]
        out.append(v.reshape(tuple(shape)))  # a view of the vector: it follows it, and writes reach it
    if sparse:
        return [o.copy() for o in out] if copy else out
    full = ops.broadcast_shapes(*(o.shape for o in out))
    return [broadcast_values_to(o, full) if copy else following(broadcast_to(o, full), o) for o in out]


def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Array:
    """The ``n``-th difference along ``axis`` (``x[1:] - x[:-1]``; ``!=`` for bool, as NumPy).

    >>> import kdsl as kd
    >>> kd.diff(kd.asarray([1, 4, 9, 16])).tolist(), kd.diff(kd.asarray([1, 4, 9, 16]), n=2).tolist()
    ([3, 5, 7], [2, 2])
    """
    x = as_array(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:
        return x
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = mv.normalize_axis(axis, x.ndim)
    parts: list[Array | None] = []
    for extra in (prepend, append):
        if extra is None:
            parts.append(None)
            continue
        e = as_array_beside(extra, x, x.device)  # diff(a64, prepend=0.1): 0.1 in float64, as NumPy's
        if e.ndim == 0:
            e = broadcast_values_to(e, x.shape[:ax] + (1,) + x.shape[ax + 1:])
        parts.append(e)
    if parts[0] is not None or parts[1] is not None:
        x = concatenate([p for p in (parts[0], x, parts[1]) if p is not None], axis=ax)
    for _ in range(n):
        m = x.shape[ax]
        hi, lo = take_slice(x, ax, 1, max(m, 1)), take_slice(x, ax, 0, max(m - 1, 0))
        x = (hi != lo) if x.dtype is dt.bool_ else hi - lo
    return x


__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "vstack", "hstack", "dstack", "column_stack", "tile", "repeat",
           "roll", "meshgrid", "diff"]


def row_stack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """:func:`vstack` under its old name; NumPy 2 deprecates it, so it warns as NumPy's does.

    >>> import kdsl as kd, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     kd.row_stack([kd.asarray([1]), kd.asarray([2])]).tolist()
    [[1], [2]]
    """
    warnings.warn("`row_stack` alias is deprecated. Use `kd.vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)
