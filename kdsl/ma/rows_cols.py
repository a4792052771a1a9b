"""``kd.ma``'s whole-row and whole-column helpers, as ``numpy.ma``'s: ``mask_rowcols`` (``mask_rows``,
``mask_cols``) masks every row and/or column of a 2-d array that holds a masked entry (lazy: no read back);
``compress_rowcols`` (``compress_rows``, ``compress_cols``) and ``compress_nd`` drop them, giving a plain kdsl array
(its shape depends on the mask, so the mask's row and column summaries are read back, as ``compressed`` reads its
length). As NumPy's, nothing masked gives the data itself and everything masked an empty float64 array.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], mask=[[0, 1, 0], [0, 0, 0], [0, 0, 0]])
    >>> kd.ma.compress_rows(x).tolist(), kd.ma.compress_cols(x).tolist()
    ([[4, 5, 6], [7, 8, 9]], [[1, 3], [4, 6], [7, 9]])
    >>> kd.ma.mask_rows(x).mask.tolist()[0], kd.ma.mask_cols(x).mask.tolist()[2]
    ([True, True, True], [False, True, False])
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray


def _masked(a: Any) -> MaskedArray:
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _two_d(x: MaskedArray, name: str) -> None:
    if x.ndim != 2:
        raise NotImplementedError(f"{name} works for 2D arrays only.")


def compress_nd(x: Any, axis: Any = None) -> Any:
    """NumPy's ``np.ma.compress_nd``: the data without every slice along ``axis`` (all axes for None) that holds
    a masked entry."""
    a = _masked(x)
    axes = tuple(range(a.ndim)) if axis is None else tuple(np.lib.array_utils.normalize_axis_tuple(axis, a.ndim))
    m = a._mask
    if m is nomask:
        return a._data
    some, every = (bool(v) for v in kd.stack([kd.any(m), kd.all(m)]).tolist())
    if not some:
        return a._data
    if every:
        return kd.asarray(np.array([]))
    data = a._data
    for ax in axes:
        others = tuple(i for i in range(a.ndim) if i != ax)
        data = data[(slice(None),) * ax + (~kd.any(m, axis=others),)]
    return data


def compress_rowcols(x: Any, axis: Any = None) -> Any:
    """NumPy's ``np.ma.compress_rowcols``: a 2-d array's data without the rows (``axis=0``), the columns
    (``axis=1``) or both (None) that hold a masked entry."""
    a = _masked(x)
    _two_d(a, "compress_rowcols")
    return compress_nd(a, axis=axis)


def compress_rows(a: Any) -> Any:
    """NumPy's ``np.ma.compress_rows``: the rows without a masked entry."""
    x = _masked(a)
    _two_d(x, "compress_rows")
    return compress_nd(x, axis=0)


def compress_cols(a: Any) -> Any:
    """NumPy's ``np.ma.compress_cols``: the columns without a masked entry."""
    x = _masked(a)
    _two_d(x, "compress_cols")
    return compress_nd(x, axis=1)


def mask_rowcols(a: Any, axis: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.mask_rowcols``: the rows (``axis=0``; NumPy's test ``if not axis`` also takes None),
    the columns (1, -1 or None) with a masked entry masked whole."""
    x = _masked(a)
    _two_d(x, "mask_rowcols")
    m = x._mask
    if m is nomask:
        return x
    out = m
    if not axis:
        out = out | kd.any(m, axis=1, keepdims=True)
    if axis in (None, 1, -1):
        out = out | kd.any(m, axis=0, keepdims=True)
    return MaskedArray.wrap(x._data, out, x._fill_value)


def mask_rows(a: Any, axis: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.mask_rows``: every row with a masked entry masked."""
    return mask_rowcols(a, 0)


def mask_cols(a: Any, axis: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.mask_cols``: every column with a masked entry masked."""
    return mask_rowcols(a, 1)


__all__ = ["compress_cols", "compress_nd", "compress_rowcols", "compress_rows", "mask_cols", "mask_rowcols",
           "mask_rows"]
