"""Set operations on 1-D arrays: ``union1d``, ``intersect1d``, ``setdiff1d``, ``setxor1d``, NumPy 2's
semantics (sorted unique results; inputs are flattened).

How they run: :func:`unique` (a stable ``argsort``, run starts, one read-back of the number of values) gives
the sorted unique inputs; then a stable sort of the two joined inputs puts equal values side by side, so
"in both" is ``aux[i] == aux[i + 1]`` and "in one only" is "equal to neither neighbour"; ``setdiff1d`` looks
``ar1``'s values up in the sorted ``ar2`` with ``searchsorted``. Every selection is a device compaction with
one read-back of its count (the result's length depends on the data). NaN is never equal to NaN here, as in
NumPy: a NaN is never in an intersection and stays in a difference.

Example:
    >>> import kdsl as kd
    >>> a, b = kd.asarray([1, 4, 3, 3]), kd.asarray([3, 5, 1])
    >>> kd.union1d(a, b).tolist(), kd.intersect1d(a, b).tolist()
    ([1, 3, 4, 5], [1, 3])
    >>> kd.setdiff1d(a, b).tolist(), kd.setxor1d(a, b).tolist()
    ([4], [4, 5])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_arrays, asarray, ones, zeros
from kdsl.frontend.array.lexicographic import lexsort
from kdsl.frontend.array.masks import compress, flatnonzero
from kdsl.frontend.array.math import minimum
from kdsl.frontend.array.shape_ops import concatenate
from kdsl.frontend.array.sorting import argsort, searchsorted, sort
from kdsl.frontend.array.take import take
from kdsl.frontend.array.unique import unique


def _flat(x: Any, device: Any = None) -> Array:
    return (x if isinstance(x, Array) else asarray(x, device=device)).reshape(-1)


def _pair(ar1: Any, ar2: Any) -> tuple[Array, Array]:
    dev = next((v.device for v in (ar1, ar2) if isinstance(v, Array)), None)
    a, b = as_arrays(ar1, ar2, device=dev)  # together: setdiff1d(a64, [0.1]) compares 0.1, not its float32
    return a.reshape(-1), b.reshape(-1)


def _joined(a: Array, b: Array) -> Array:
    """``a`` then ``b`` in one 1-D array of their common dtype (NumPy's ``concatenate`` promotion)."""
    common = dt.as_dtype(np.result_type(a.dtype.np, b.dtype.np))
    return concatenate([a.astype(common), b.astype(common)])


def union1d(ar1: Any, ar2: Any) -> Array:
    """The sorted unique values found in ``ar1`` or ``ar2`` (flattened; NaNs count once, as in ``unique``).
    Synchronises once (the number of values).

    Example:
        >>> import kdsl as kd
        >>> kd.union1d([-1, 0, 1], [-2, 0, 2]).tolist()
        [-2, -1, 0, 1, 2]
    """
    return unique(_joined(*_pair(ar1, ar2)))


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False) -> Any:
    """The sorted values found in both ``ar1`` and ``ar2`` (flattened). ``assume_unique=True`` skips making
    the inputs unique (wrong results if they are not, as in NumPy). ``return_indices=True`` also returns
    where those values first occur in each flattened input. Synchronises once per ``unique`` and once for
    the result's length.

    Example:
        >>> import kdsl as kd
        >>> values, i1, i2 = kd.intersect1d([1, 1, 3, 4, 3], [3, 1, 2, 1], return_indices=True)
        >>> values.tolist(), i1.tolist(), i2.tolist()
        ([1, 3], [0, 2], [1, 0])
    """
    a, b = _pair(ar1, ar2)
    first1 = first2 = None
    if not assume_unique:
        if return_indices:
            a, first1 = unique(a, return_index=True)
            b, first2 = unique(b, return_index=True)
        else:
            a, b = unique(a), unique(b)
    aux = _joined(a, b)
    order = argsort(aux)  # stable: of two equal values the one from ``a`` comes first
    s = take(aux, order, mode="clip")
    if s.shape[0] < 2:
        picks = zeros(0, dtype=order.dtype, device=aux.device)
    else:
        picks = flatnonzero(s[1:] == s[:-1])  # the one synchronisation: the intersection's size
    values = take(s, picks, mode="clip")
    if not return_indices:
        return values
    i1 = take(order, picks, mode="clip")
    i2 = take(order, picks + 1, mode="clip") - a.shape[0]
    if first1 is not None and first2 is not None:
        i1, i2 = take(first1, i1, mode="clip"), take(first2, i2, mode="clip")
    return values, i1, i2


def contained(values: Array, sorted_ref: Array) -> Array:
    """Whether each of ``values`` (unique, where complex) equals an element of the sorted 1-D ``sorted_ref`` (NaN
    never does): one binary search per value (real data), or a merge (complex data)."""
    m = sorted_ref.shape[0]
    if m == 0:
        return zeros(values.shape, dtype=dt.bool_, device=values.device)
    if values.dtype.kind == "c":
        return _contained_by_merge(values, sorted_ref)
    at = minimum(searchsorted(sorted_ref, values), m - 1)
    return take(sorted_ref, at, mode="clip") == values


def _contained_by_merge(values: Array, ref: Array) -> Array:
    """:func:`contained` for complex data, which has no ``searchsorted``: a stable lexicographic sort of
    ``values`` then ``ref`` puts each value just before an equal element of ``ref`` (NumPy's ``isin`` with
    ``assume_unique``; ``values`` are unique), read back into ``values``' order by the inverse permutation."""
    n = values.shape[0]
    order = lexsort((concatenate([values, ref]),))
    s = take(concatenate([values, ref]), order, mode="clip")
    equal_next = concatenate([s[1:] == s[:-1], zeros(1, dtype=dt.bool_, device=values.device)])
    return take(equal_next, argsort(order)[:n], mode="clip")


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """The values of ``ar1`` not in ``ar2``: sorted and unique, or with ``assume_unique=True`` the flattened
    ``ar1``'s in its own order. Keeps ``ar1``'s dtype. Synchronises once per ``unique`` and once for the
    result's length.

    Example:
        >>> import kdsl as kd
        >>> kd.setdiff1d([5, 1, 2, 2, 9], [2, 9]).tolist()
        [1, 5]
    """
    a, b = _pair(ar1, ar2)
    if assume_unique:
        ref = sort(b)
    else:
        a, ref = unique(a), unique(b)
    if a.shape[0] == 0:
        return a
    return compress(~contained(a, ref), a)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """The sorted values found in exactly one of ``ar1`` and ``ar2`` (flattened; with ``assume_unique`` the
    inputs are not made unique first). Synchronises once per ``unique`` and once for the result's length.

    Example:
        >>> import kdsl as kd
        >>> kd.setxor1d([1, 2, 3, 2, 4], [2, 3, 5, 7, 5]).tolist()
        [1, 4, 5, 7]
    """
    a, b = _pair(ar1, ar2)
    if not assume_unique:
        a, b = unique(a), unique(b)
    aux = sort(_joined(a, b))
    if aux.shape[0] == 0:
        return aux
    true = ones(1, dtype=dt.bool_, device=aux.device)
    differs = concatenate([true, aux[1:] != aux[:-1], true])  # from each neighbour, with sentinels
    return compress(differs[1:] & differs[:-1], aux)


__all__ = ["intersect1d", "setdiff1d", "setxor1d", "union1d"]
