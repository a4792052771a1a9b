"""``unique`` (NumPy's, of the flattened array) and the array API's ``unique_values``, ``unique_counts``,
``unique_inverse`` and ``unique_all``, composed of existing device ops.

How it runs: a stable ``argsort`` of the flattened input gives ``order`` and the sorted values ``s``; a value
starts a run where ``s[i] != s[i - 1]`` (with ``equal_nan`` two NaNs are equal, so all NaNs, sorted last, form
one run; -0.0 and 0.0 are always equal); ``flatnonzero`` of that mask gives the run starts - the one
synchronisation, since the number of unique values is the result's length. Then, all lazily on the device:
values are ``s`` at the run starts, ``indices`` (first occurrences, as NumPy's) are ``order`` at the run starts,
``counts`` the differences of the run starts (with ``n`` appended), and ``inverse`` the running count of run
starts minus one, moved back to input order through the inverse permutation of ``order`` (its ``argsort``: a
second sort, only when an inverse is asked for).

NumPy 2 is the oracle: ``unique`` collapses NaNs (``equal_nan=True``), the array API functions keep every NaN
(as NumPy's ``unique_*`` do), and the inverse has the input's shape. kdsl always returns sorted values
(``sorted=False`` allows any order, so sorted is a valid answer). ``axis=k`` gives the unique sub-arrays along
axis ``k`` (one stable sort per column of the rows they flatten to).

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([[3, 1], [3, 2]])
    >>> kd.unique(a).tolist()
    [1, 2, 3]
    >>> values, index, inverse, counts = kd.unique(a, True, True, True)
    >>> index.tolist(), inverse.tolist(), counts.tolist()
    ([1, 3, 0], [[2, 0], [2, 1]], [1, 1, 2])
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import arange, asarray, ones
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.lexicographic import lexsort
from kdsl.frontend.array.masks import flatnonzero
from kdsl.frontend.array.math import isnan
from kdsl.frontend.array.movement import normalize_axis
from kdsl.frontend.array.reductions import any as reduce_any
from kdsl.frontend.array.shape_ops import concatenate, moveaxis
from kdsl.frontend.array.sorting import argsort
from kdsl.frontend.array.take import take


class UniqueAllResult(NamedTuple):
    """The array API's ``unique_all`` result."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """The array API's ``unique_counts`` result."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """The array API's ``unique_inverse`` result."""

    values: Array
    inverse_indices: Array


class _Parts(NamedTuple):
    values: Array
    first: Array  # the index of each value's first occurrence ("index" would hide tuple.index)
    inverse: Array
    counts: Array


def _run_starts(s: Array, equal_nan: bool) -> Array:
    """The bool mask of the sorted 1-D ``s`` that is True where a run of equal values starts (``s`` non-empty)."""
    new = s[1:] != s[:-1]
    if equal_nan and s.dtype.kind in "fc":  # NaN != NaN, yet NumPy's unique puts all NaNs in one run
        new = new & ~(isnan(s[1:]) & isnan(s[:-1]))
    return concatenate([ones(1, dtype=dt.bool_, device=s.device), new])


def _empty(x: Array, d: dt.DType) -> _Parts:
    none = asarray(np.zeros(0, d.np), device=x.device)
    return _Parts(asarray(np.zeros(0, x.dtype.np), device=x.device), none, none.reshape(x.shape), none)


def _unique(a: Any, want_inverse: bool, equal_nan: bool) -> _Parts:
    """Every part of the result; the lazy ones nobody reads cost nothing, the inverse's sort only if asked."""
    x = a if isinstance(a, Array) else asarray(a)
    d = index_dtype(x.device)
    n = x.size
    if n == 0:
        return _empty(x, d)
    flat = x.reshape(-1)
    # stable: the first of a run is its first occurrence, as NumPy's return_index; complex numbers in NumPy's
    # order (real part, then imaginary part, NaNs last), which a plain argsort refuses
    order = lexsort((flat,)) if flat.dtype.kind == "c" else argsort(flat)
    s = take(flat, order, mode="clip")  # in range by construction: clip skips the read-back of raise
    first = _run_starts(s, equal_nan)
    starts = flatnonzero(first)  # the one synchronisation: reads back the number of unique values
    values = take(s, starts, mode="clip")
    index = take(order, starts, mode="clip")
    ends = concatenate([starts[1:], asarray(np.array([n], d.np), device=x.device)])
    counts = ends - starts
    inverse = index  # placeholder of the right type when not asked for (never returned then)
    if want_inverse:
        rank = cumsum(first.astype(dt.int32), dtype=d) - 1  # the run of each sorted position
        inverse = take(rank, argsort(order), mode="clip").reshape(x.shape)
    return _Parts(values, index, inverse, counts)


def _unique_axis(a: Any, axis: int, want_inverse: bool) -> _Parts:
    """The unique sub-arrays along ``axis`` (NumPy's ``unique(axis=...)``): the sub-arrays, flattened to rows,
    are sorted lexicographically by :func:`lexsort` of their columns (the first most significant: one stable
    sort per column); a row starts a run where it differs from the row before (NaN differs from NaN, as in NumPy's
    ``unique`` along an axis); then as :func:`_unique`. Synchronises once."""
    x = a if isinstance(a, Array) else asarray(a)
    ax = normalize_axis(axis, x.ndim)
    d = index_dtype(x.device)
    moved = moveaxis(x, ax, 0)
    n = x.shape[ax]
    rows = moved.reshape(n, moved.size // n if n else 0)
    if n == 0:  # no sub-arrays: the values keep x's shape (axis ax stays where it was)
        none = asarray(np.zeros(0, d.np), device=x.device)
        return _Parts(x.copy(), none, none, none)
    # the rows in lexicographic order: the last column's key least significant (one row, or rows of no
    # elements: nothing to sort)
    order = lexsort(rows.T[::-1]) if n > 1 and rows.shape[1] else arange(n, dtype=d, device=x.device)
    s = take(rows, order, axis=0, mode="clip")
    new = reduce_any(s[1:] != s[:-1], axis=1)  # rows of no elements: all equal (any() of nothing)
    first = concatenate([ones(1, dtype=dt.bool_, device=x.device), new])
    starts = flatnonzero(first)  # the one synchronisation
    values = moveaxis(take(moved, take(order, starts, mode="clip"), axis=0, mode="clip"), 0, ax)
    index = take(order, starts, mode="clip")
    counts = concatenate([starts[1:], asarray(np.array([n], d.np), device=x.device)]) - starts
    inverse = index
    if want_inverse:
        rank = cumsum(first.astype(dt.int32), dtype=d) - 1
        inverse = take(rank, argsort(order), mode="clip")
    return _Parts(values, index, inverse, counts)


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False,
           axis: int | None = None, *, equal_nan: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    """The sorted unique values of the flattened ``ar`` (NumPy's ``unique``), and on request the index of each
    one's first occurrence, the inverse (``values[inverse]`` rebuilds ``ar``; it has ``ar``'s shape, as in
    NumPy 2) and the counts. NaNs count as one value unless ``equal_nan=False``. ``axis=k``: the unique
    sub-arrays along axis ``k``, sorted lexicographically (the inverse is then 1-D; NaNs never compare
    equal there, as in NumPy). ``sorted=False`` (NumPy >= 2.3) is accepted and the values still come sorted:
    NumPy's order is then its hash table's, which it leaves unspecified. Equal values of different
    bits (-0.0 and 0.0) give their first occurrence (NumPy's quicksort leaves which one unspecified). Synchronises
    once.

    Example:
        >>> import kdsl as kd
        >>> values, counts = kd.unique(kd.asarray([2.0, float("nan"), 2.0, float("nan")]), return_counts=True)
        >>> values.tolist(), counts.tolist()
        ([2.0, nan], [2, 2])
        >>> kd.unique(kd.asarray([[1, 2], [0, 5], [1, 2]]), axis=0).tolist()
        [[0, 5], [1, 2]]
    """
    if axis is not None:
        ar = ar if isinstance(ar, Array) else asarray(ar)
        if ar.ndim == 1:  # the sub-arrays are the elements: NumPy takes the flat path, equal_nan included
            normalize_axis(axis, 1)
            axis = None
    parts = _unique(ar, return_inverse, equal_nan) if axis is None else _unique_axis(ar, axis, return_inverse)
    extra = [part for part, want in ((parts.first, return_index), (parts.inverse, return_inverse),
                                     (parts.counts, return_counts)) if want]
    return (parts.values, *extra) if extra else parts.values


def unique_values(x: Any) -> Array:
    """The unique values of the flattened ``x`` (the array API's; every NaN is distinct). kdsl sorts them
    (NumPy >= 2.3 leaves the order unspecified). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> kd.unique_values(kd.asarray([3, 1, 3])).tolist()
        [1, 3]
    """
    return _unique(x, False, False).values


def unique_counts(x: Any) -> UniqueCountsResult:
    """``(values, counts)`` of the flattened ``x`` (the array API's; every NaN is distinct). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> kd.unique_counts(kd.asarray([3, 1, 3])).counts.tolist()
        [1, 2]
    """
    parts = _unique(x, False, False)
    return UniqueCountsResult(parts.values, parts.counts)


def unique_inverse(x: Any) -> UniqueInverseResult:
    """``(values, inverse_indices)``: ``values[inverse_indices]`` rebuilds ``x`` (inverse of ``x``'s shape;
    every NaN is distinct). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> kd.unique_inverse(kd.asarray([[3, 1], [3, 3]])).inverse_indices.tolist()
        [[1, 0], [1, 1]]
    """
    parts = _unique(x, True, False)
    return UniqueInverseResult(parts.values, parts.inverse)


def unique_all(x: Any) -> UniqueAllResult:
    """``(values, indices, inverse_indices, counts)`` of ``x`` (the array API's; first occurrences; every NaN
    is distinct). Synchronises once.

    Example:
        >>> import kdsl as kd
        >>> r = kd.unique_all(kd.asarray([3, 1, 3]))
        >>> r.values.tolist(), r.indices.tolist(), r.inverse_indices.tolist(), r.counts.tolist()
        ([1, 3], [1, 0], [1, 0, 1], [1, 2])
    """
    parts = _unique(x, True, False)
    return UniqueAllResult(parts.values, parts.first, parts.inverse, parts.counts)


__all__ = ["UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult", "unique", "unique_all",
           "unique_counts", "unique_inverse", "unique_values"]
