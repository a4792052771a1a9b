"""``kd.ma``'s index tricks, as ``numpy.ma``'s: ``mr_`` (``kd.r_`` joining masked arrays, their masks with
them), ``ndenumerate`` (each unmasked entry with its index; masked ones as ``masked`` when asked), and
``indices`` / ``fromfunction`` (``kd.indices`` / ``kd.fromfunction`` with nothing masked).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1, 2, 3], mask=[0, 1, 0])
    >>> kd.ma.mr_[x, 0, kd.asarray([4, 5])].tolist()
    [1, None, 3, 0, 4, 5]
    >>> [(i, int(v)) for i, v in kd.ma.ndenumerate(x)]
    [((0,), 1), ((2,), 3)]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import masked, nomask
from kdsl.ma.functions import asarray, getmaskarray
from kdsl.ma.masked_array import MaskedArray


class _MaskedConcatenator:
    """``kd.ma.mr_``: ``kd.r_``'s item syntax (arrays, scalars, ``start:stop:step`` ranges, a leading
    ``'axis'`` string) run twice, on the items' data and on their masks (False for everything unmasked)."""

    def __getitem__(self, key: Any) -> MaskedArray:
        items = key if isinstance(key, tuple) else (key,)
        if items and isinstance(items[0], str) and items[0] in ("r", "c"):
            raise ValueError(f"kd.ma.mr_[{items[0]!r}, ...] makes a matrix in NumPy; kdsl has no matrix type: "
                             "join with kd.ma.mr_[...] and reshape, or use kd.ma.vstack / kd.ma.column_stack")
        data = kd.r_[tuple(_data(v) for v in items)]
        if not any(isinstance(v, MaskedArray) and v._mask is not nomask for v in items):
            return MaskedArray.wrap(data)
        return MaskedArray.wrap(data, kd.r_[tuple(_mask(v) for v in items)].astype(kd.bool_))

    def __len__(self) -> int:
        return 0


def _data(item: Any) -> Any:
    """An item of ``mr_`` as ``kd.r_`` takes it: a masked array's data, anything else unchanged."""
    return item._data if isinstance(item, MaskedArray) else item


def _mask(item: Any) -> Any:
    """An item's mask in the place ``kd.r_`` gives it: its mask, or False of its shape (a range's length)."""
    if isinstance(item, str):
        return item
    if isinstance(item, MaskedArray):
        return getmaskarray(item)
    shape = kd.r_[item].shape if isinstance(item, slice) else np.shape(item) if not isinstance(item, kd.Array) \
        else item.shape
    return kd.zeros(shape, dtype=kd.bool_) if shape else False


mr_ = _MaskedConcatenator()


def ndenumerate(a: Any, compressed: bool = True) -> Iterator[tuple[tuple[int, ...], Any]]:
    """NumPy's ``np.ma.ndenumerate``: ``(index, value)`` of each entry in C order, the masked ones left out
    (``compressed``) or given as ``masked``. The data and the mask are read back once."""
    x = a if isinstance(a, MaskedArray) else asarray(a)
    mask = np.asarray(getmaskarray(x).numpy()) if x._mask is not nomask else None
    for index, value in kd.ndenumerate(x._data):
        if mask is not None and mask[index]:
            if not compressed:
                yield index, masked
            continue
        yield index, value


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False) -> Any:
    """NumPy's ``np.ma.indices``: ``kd.indices`` with nothing masked (each array of a ``sparse`` tuple)."""
    grid = kd.indices(dimensions, dtype=dtype, sparse=sparse)
    return tuple(MaskedArray.wrap(g) for g in grid) if sparse else MaskedArray.wrap(grid)


def fromfunction(function: Any, shape: Any, *, dtype: Any = float, **kwargs: Any) -> Any:
    """NumPy's ``np.ma.fromfunction``: ``kd.fromfunction``, its array result with nothing masked."""
    out = kd.fromfunction(function, shape, dtype=dtype, **kwargs)
    return MaskedArray.wrap(out) if isinstance(out, kd.Array) else out


__all__ = ["fromfunction", "indices", "mr_", "ndenumerate"]
