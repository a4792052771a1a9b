"""The indices of the lower and upper triangles of a matrix: NumPy's ``tril_indices``, ``triu_indices`` and their
``*_from`` forms. The result has a length known on the host (it depends only on the shape and ``k``), so nothing
is read back: row ``i`` holds ``count[i]`` consecutive columns from ``first[i]``, and output position ``p``
finds its row by a binary search in the running count (all lazy, on the device).

Example:
    >>> import kdsl as kd
    >>> rows, cols = kd.triu_indices(3, k=1)
    >>> rows.tolist(), cols.tolist()
    ([0, 0, 1], [1, 2, 2])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl.device import device as current_device
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import arange
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.sorting import searchsorted
from kdsl.frontend.array.take import take


def _count(n: int, k: int, m: int, lower: bool) -> int:
    """The number of elements of the triangle (host arithmetic on the shape: no data involved)."""
    i = np.arange(n, dtype=np.int64)
    per_row = np.clip(i + k + 1, 0, m) if lower else m - np.clip(i + k, 0, m)
    return int(per_row.sum())


def _triangle(n: Any, k: Any, m: Any, lower: bool, device) -> tuple[Array, Array]:
    n, k = operator.index(n), operator.index(k)
    m = n if m is None else operator.index(m)
    n, m = max(n, 0), max(m, 0)  # NumPy: a negative size is an empty triangle
    d = index_dtype(device)
    total = _count(n, k, m, lower)
    if total == 0:
        return arange(0, dtype=d, device=device), arange(0, dtype=d, device=device)
    i = arange(n, dtype=d, device=device)
    first = None if lower else km.clip(i + k, 0, m).astype(d)  # the row's first column (lower: 0)
    count = km.clip(i + k + 1, 0, m).astype(d) if lower else m - first
    ends = cumsum(count, dtype=d)  # row i's elements are positions [ends[i] - count[i], ends[i])
    p = arange(total, dtype=d, device=device)
    row = searchsorted(ends, p, side="right").astype(d)
    col = p - take(ends - count, row, mode="clip")
    return row, col if first is None else col + take(first, row, mode="clip")


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """The (rows, columns) of the lower triangle of an ``(n, m)`` matrix (``m`` defaults to ``n``): the elements
    on and below diagonal ``k`` (``k`` > 0 above the main one), row by row; int64 arrays (NumPy's intp).

    >>> import kdsl as kd
    >>> rows, cols = kd.tril_indices(3)
    >>> rows.tolist(), cols.tolist()
    ([0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2])
    """
    return _triangle(n, k, m, True, current_device())


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """The (rows, columns) of the upper triangle of an ``(n, m)`` matrix (``m`` defaults to ``n``): the elements
    on and above diagonal ``k``, row by row; int64 arrays (NumPy's intp).

    >>> import kdsl as kd
    >>> rows, cols = kd.triu_indices(2, m=3)
    >>> rows.tolist(), cols.tolist()
    ([0, 0, 0, 1, 1], [0, 1, 2, 1, 2])
    """
    return _triangle(n, k, m, False, current_device())


def _matrix_shape(arr: Any) -> tuple[tuple[int, ...], Any]:
    shape = tuple(arr.shape) if isinstance(arr, Array) else np.shape(arr)
    if len(shape) != 2:
        raise ValueError(f"input array must be 2-d (got shape {shape})")
    return shape, arr.device if isinstance(arr, Array) else current_device()


def tril_indices_from(arr: Any, k: int = 0) -> tuple[Array, Array]:
    """:func:`tril_indices` for the shape of the 2-D ``arr`` (only its shape is read).

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> a[kd.tril_indices_from(a, k=1)].tolist()
    [0, 1, 3, 4, 5]
    """
    (n, m), dev = _matrix_shape(arr)
    return _triangle(n, k, m, True, dev)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[Array, Array]:
    """:func:`triu_indices` for the shape of the 2-D ``arr`` (only its shape is read).

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> a[kd.triu_indices_from(a)].tolist()
    [0, 1, 2, 4, 5]
    """
    (n, m), dev = _matrix_shape(arr)
    return _triangle(n, k, m, False, dev)
