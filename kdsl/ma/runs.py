"""``kd.ma``'s runs and edges of the mask, as ``numpy.ma``'s: ``clump_masked``/``clump_unmasked`` (the slices of
a 1-d array's masked / unmasked runs: gaps in a time series), ``flatnotmasked_contiguous``/``notmasked_contiguous``
(slices of the unmasked runs, flat or along an axis) and ``flatnotmasked_edges``/``notmasked_edges`` (the first
and last unmasked index). Slices are host objects, so the mask is read back once and the answer is NumPy's own
function on a masked array of that mask; index arrays come back as kdsl arrays.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.masked_invalid(kd.asarray([1.0, float("nan"), float("nan"), 4.0, 5.0, float("nan")]))
    >>> [(int(s.start), int(s.stop)) for s in kd.ma.clump_masked(x)]
    [(1, 3), (5, 6)]
    >>> [x[s].tolist() for s in kd.ma.clump_unmasked(x)]
    [[1.0], [4.0, 5.0]]
    >>> kd.ma.flatnotmasked_edges(x).tolist()
    [0, 4]
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray


def _host_mask_array(a: Any) -> np.ma.MaskedArray:
    """A NumPy masked array of ``a``'s shape and mask (the data do not matter here: one download, the mask)."""
    x = a if isinstance(a, MaskedArray) else MaskedArray(a)
    mask = np.ma.nomask if x._mask is nomask else x._mask.numpy()
    return np.ma.array(np.zeros(x.shape, dtype=np.int8), mask=mask)


def _device(value: Any) -> Any:
    """NumPy's answer with its index arrays as kdsl arrays (lists, tuples and slices kept)."""
    if isinstance(value, np.ndarray):
        return kd.asarray(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_device(v) for v in value)
    return value


def clump_masked(a: Any) -> list[slice]:
    """NumPy's ``np.ma.clump_masked``: the slices of a 1-d array's masked runs."""
    return np.ma.clump_masked(_host_mask_array(a))


def clump_unmasked(a: Any) -> list[slice]:
    """NumPy's ``np.ma.clump_unmasked``: the slices of a 1-d array's unmasked runs."""
    return np.ma.clump_unmasked(_host_mask_array(a))


def flatnotmasked_contiguous(a: Any) -> list[slice]:
    """NumPy's ``np.ma.flatnotmasked_contiguous``: the slices of the flattened array's unmasked runs."""
    return np.ma.flatnotmasked_contiguous(_host_mask_array(a))


def notmasked_contiguous(a: Any, axis: Any = None) -> Any:
    """NumPy's ``np.ma.notmasked_contiguous``: the unmasked runs, flat (``axis=None``) or per line."""
    return np.ma.notmasked_contiguous(_host_mask_array(a), axis)


def flatnotmasked_edges(a: Any) -> Any:
    """NumPy's ``np.ma.flatnotmasked_edges``: the flat indices of the first and last unmasked entries (None when
    all are masked)."""
    return _device(np.ma.flatnotmasked_edges(_host_mask_array(a)))


def notmasked_edges(a: Any, axis: Any = None) -> Any:
    """NumPy's ``np.ma.notmasked_edges``: the first and last unmasked indices, flat or along ``axis``."""
    return _device(np.ma.notmasked_edges(_host_mask_array(a), axis))


__all__ = ["clump_masked", "clump_unmasked", "flatnotmasked_contiguous", "flatnotmasked_edges",
           "notmasked_contiguous", "notmasked_edges"]
