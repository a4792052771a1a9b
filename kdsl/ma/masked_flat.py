"""``x.flat`` of a kd.ma array: numpy.ma's ``MaskedIterator``, a flat (C-order) view that reads, writes and
iterates.

``x.flat[k]`` reads the flattened masked array (``kd.ma.masked`` for a masked entry); ``x.flat[k] = v`` writes
``v``'s data into ``x``'s data and, when ``x`` has a mask, ``v``'s mask into it (so ``kd.ma.masked`` masks the
entry; with no mask only the data is written, as numpy.ma's iterator does); ``for v in x.flat`` yields the
entries. Writes reach ``x`` through the data's and the mask's own ``flat`` (transposed views included).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]])
    >>> x.flat[3] = 9.0
    >>> x.flat[0] = kd.ma.masked
    >>> x.tolist(), x.flat[2].item()
    ([[None, None], [3.0, 9.0]], 3.0)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import kdsl as kd
from kdsl.ma.constants import masked, nomask
from kdsl.ma.masked_array import MaskedArray


class MaskedIterator:
    """The object ``x.flat`` returns for a kd.ma array ``x`` (numpy.ma's ``MaskedIterator``)."""

    def __init__(self, ma: MaskedArray) -> None:
        self.ma = ma

    def __getitem__(self, key: Any) -> Any:
        return self.ma.ravel()[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        if value is masked:
            data, vmask = kd.zeros((), dtype=self.ma.dtype), kd.asarray(True)
        elif isinstance(value, MaskedArray):
            data = value._data
            vmask = kd.zeros(value.shape, dtype=kd.bool_) if value._mask is nomask else value._mask
        else:
            data, vmask = value, kd.asarray(False)
        self.ma._data.flat[key] = data
        if self.ma._mask is not nomask:  # numpy.ma's iterator leaves a missing mask missing
            self.ma._mask.flat[key] = vmask

    def __iter__(self) -> Iterator[Any]:
        flat = self.ma.ravel()
        return (flat[i] for i in range(flat.size))

    def __len__(self) -> int:
        return self.ma.size


def _set_flat(self: MaskedArray, value: Any) -> None:
    """``x.flat = value``: numpy.ma's ``x.ravel()[:] = value`` (a masked array's item assignment into the
    flattened view, so it reaches ``x`` where ravel is a view, and a mask it creates stays with the ravel)."""
    self.ravel()[:] = value


MaskedArray.flat = property(MaskedIterator, _set_flat,  # type: ignore[attr-defined]
                            doc="numpy.ma's flat iterator: reads and writes the array in C order.")
