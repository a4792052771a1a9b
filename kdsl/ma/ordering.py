"""``kd.ma``'s sorting, as ``numpy.ma``'s: ``argsort`` sorts the data with masked entries filled so that they
sort last (``endwith=True``: NaN for floats, which sorts after inf; the dtype's largest value otherwise) or first
(``endwith=False``), or filled with ``fill_value``; ``sort`` moves data and mask together (``x.sort()`` in place,
``kd.ma.sort(x)`` a sorted copy, flattened for ``axis=None``). kdsl's sorts are stable (NumPy's default
quicksort orders ties in no promised order); ``stable=True`` is refused, as NumPy refuses it for masked arrays.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([3, 1, 5, 4, 2], mask=[0, 1, 0, 1, 0])
    >>> kd.ma.argsort(x).tolist(), kd.ma.sort(x).tolist()
    ([4, 0, 2, 1, 3], [2, 3, 5, None, None])
    >>> x.sort(endwith=False)
    >>> x.tolist()
    [None, None, 2, 3, 5]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import extreme_fill, nomask, numpy_dtype
from kdsl.ma.masked_array import MaskedArray

_NO_AXIS: Any = object()  # NumPy's np._NoValue: argsort's default axis (-1 for 1-d, None with a warning else)


def _fill_for_order(x: MaskedArray, endwith: bool, fill_value: Any) -> Any:
    if fill_value is not None:
        return fill_value
    if endwith:
        return float("nan") if numpy_dtype(x.dtype).kind == "f" else extreme_fill(x.dtype, True)
    return extreme_fill(x.dtype, False)


def _default_axis(x: MaskedArray) -> Any:
    """NumPy's default for ``argsort``'s axis (gh-8701, kept by NumPy for compatibility): -1 for 1-d arrays,
    None (the flattened array) with a FutureWarning for more dimensions."""
    if x.ndim <= 1:
        return -1
    warnings.warn("In the future the default for argsort will be axis=-1, not the current None, to match its "
                  "documentation and np.argsort. Explicitly pass -1 or None to silence this warning.",
                  np.ma.core.MaskedArrayFutureWarning, stacklevel=3)
    return None


def argsort(a: Any, axis: Any = _NO_AXIS, kind: Any = None, order: Any = None, endwith: bool = True,
            fill_value: Any = None, *, stable: Any = None) -> Any:
    """NumPy's ``np.ma.argsort``: the indices that sort the data, masked entries last (``endwith``) or first.

    >>> import kdsl as kd
    >>> kd.ma.argsort(kd.ma.array([2.0, 9.0, 1.0], mask=[0, 0, 1]), endwith=False).tolist()
    [2, 0, 1]
    """
    if stable:
        raise ValueError("`stable` parameter is not supported for masked arrays.")
    if order is not None:
        raise ValueError("kd.ma.argsort: order= needs a structured dtype; kdsl arrays hold numbers")
    x = a if isinstance(a, MaskedArray) else MaskedArray(a)
    if axis is _NO_AXIS:
        axis = _default_axis(x)
    data = x._data if x._mask is nomask else x.filled(_fill_for_order(x, endwith, fill_value))
    return kd.argsort(data, axis=axis, kind=kind)


def _sort_in_place(self: MaskedArray, axis: int = -1, kind: Any = None, order: Any = None, endwith: bool = True,
                   fill_value: Any = None, *, stable: Any = None) -> None:
    """NumPy's ``MaskedArray.sort``: sorts in place along ``axis``, data and mask together."""
    if stable:
        raise ValueError("`stable` parameter is not supported for masked arrays.")
    if self._mask is nomask:
        self._data[...] = kd.sort(self._data, axis=axis, kind=kind)
        return
    idx = argsort(self, axis=axis, kind=kind, order=order, endwith=endwith, fill_value=fill_value)
    data, mask = kd.take_along_axis(self._data, idx, axis=axis), kd.take_along_axis(self._mask, idx, axis=axis)
    self[...] = MaskedArray.wrap(data, mask)


def sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, endwith: bool = True, fill_value: Any = None,
         *, stable: Any = None) -> Any:
    """NumPy's ``np.ma.sort``: a sorted copy (the flattened array for ``axis=None``); a plain (not masked) ``a``
    gives ``kd.sort``'s plain array, as NumPy's gives an ndarray.

    >>> import kdsl as kd
    >>> kd.ma.sort(kd.ma.array([[4, 2], [3, 1]], mask=[[0, 0], [1, 0]]), axis=None).tolist()
    [1, 2, 4, None]
    """
    if not isinstance(a, MaskedArray):  # NumPy's sorts a plain array as np.sort (an ndarray; endwith unused)
        return kd.sort(a if isinstance(a, kd.Array) else kd.asarray(a), axis=axis, kind=kind, order=order,
                       stable=stable)
    x = a.copy()
    if x._mask is not nomask:
        x._mask = x._mask.copy()  # the in-place sort writes the mask too
    if axis is None:
        x, axis = x.ravel(), 0
    _sort_in_place(x, axis=axis, kind=kind, order=order, endwith=endwith, fill_value=fill_value, stable=stable)
    return x


def _argsort_method(self: MaskedArray, axis: Any = _NO_AXIS, kind: Any = None, order: Any = None,
                    endwith: bool = True, fill_value: Any = None, *, stable: Any = None) -> Any:
    """NumPy's ``MaskedArray.argsort`` (see :func:`argsort`)."""
    return argsort(self, axis, kind, order, endwith, fill_value, stable=stable)


MaskedArray.argsort = _argsort_method  # type: ignore[attr-defined]
MaskedArray.sort = _sort_in_place  # type: ignore[attr-defined]

__all__ = ["argsort", "sort"]
