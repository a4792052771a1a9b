"""The main diagonal of square (hyper)arrays: NumPy's ``diag_indices``, ``diag_indices_from`` and
``fill_diagonal`` (which changes its array in place, as NumPy's does).

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros((3, 3), dtype=kd.int32)
    >>> kd.fill_diagonal(a, 5)
    >>> rows, cols = kd.diag_indices_from(a)
    >>> a[rows, cols].tolist(), a.sum().item()
    ([5, 5, 5], 15)
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl.device import device as current_device
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import arange
from kdsl.frontend.array.inplace import store_inplace
from kdsl.frontend.array.stored_values import checked_value
from kdsl.frontend.array.take import take


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    """The indices of the main diagonal of an ``(n,) * ndim`` array: ``ndim`` times the same
    ``arange(n)`` (int64, NumPy's intp), as NumPy returns them.

    >>> import kdsl as kd
    >>> [i.tolist() for i in kd.diag_indices(2, 3)]
    [[0, 1], [0, 1], [0, 1]]
    """
    n, ndim = operator.index(n), operator.index(ndim)
    dev = current_device()
    idx = arange(n, dtype=index_dtype(dev), device=dev)
    return (idx,) * ndim


def _square_shape(arr: Any) -> tuple[int, ...]:
    shape = tuple(arr.shape) if isinstance(arr, Array) else np.shape(arr)
    if len(shape) < 2:
        raise ValueError(f"input array must be at least 2-d (got shape {shape})")
    if any(n != shape[0] for n in shape):
        raise ValueError(f"All dimensions of input must be of equal length (got shape {shape})")
    return shape


def diag_indices_from(arr: Any) -> tuple[Array, ...]:
    """The indices of the main diagonal of the square (hyper)array ``arr`` (:func:`diag_indices` of its shape;
    only its shape is read).

    >>> import kdsl as kd
    >>> [i.tolist() for i in kd.diag_indices_from(kd.ones((2, 2)))]
    [[0, 1], [0, 1]]
    """
    shape = _square_shape(arr)
    dev = arr.device if isinstance(arr, Array) else current_device()
    idx = arange(shape[0], dtype=index_dtype(dev), device=dev)
    return (idx,) * len(shape)


def fill_diagonal(a: Array, val: Any, wrap: bool = False) -> None:
    """Set the main diagonal of ``a`` to ``val``, in place (NumPy's ``fill_diagonal``).

    ``a`` is at least 2-D; beyond 2-D all its axes have the same length. ``val`` (a scalar or an array,
    flattened) repeats along the diagonal. A tall 2-D ``a`` stops at its top square unless ``wrap=True``, which
    restarts the diagonal below it after one skipped row, as NumPy does. Lazy: one strided assignment.

    >>> import kdsl as kd
    >>> a = kd.zeros((5, 2), dtype=kd.int32)
    >>> kd.fill_diagonal(a, [1, 2], wrap=True)
    >>> a.tolist()
    [[1, 0], [0, 2], [0, 0], [1, 0], [0, 2]]
    """
    if not isinstance(a, Array):
        raise TypeError(f"fill_diagonal changes a kdsl Array in place, not a {type(a).__name__}; convert it with "
                        "kd.asarray first (and keep that array)")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:  # the next diagonal element is one row and one column further on
        step = a.shape[1] + 1
        end = a.size if wrap else min(a.size, a.shape[1] * a.shape[1])
    else:
        _square_shape(a)
        n = a.shape[0]
        step = sum(n ** k for k in range(a.ndim))  # 1 + n + n**2 + ...: one step along every axis
        end = a.size
    count = len(range(0, end, step))
    vals = checked_value(val, a).reshape(-1)
    if count == 0 or vals.size == 0:  # NumPy: no values, nothing written
        return
    if vals.size != count:  # a.flat[...] = val repeats val
        vals = take(vals, arange(count, dtype=index_dtype(a.device), device=a.device), mode="wrap")
    flat = a.flatten()  # not a view of a: the result is stored below
    flat[0:end:step] = vals
    store_inplace(a, flat.reshape(a.shape))
