"""``MaskedArray``'s value helpers, as ``numpy.ma``'s: ``x.fill(v)`` writes ``v`` into the data and keeps the mask;
``x.real``/``x.imag`` are the parts of the data with the mask; ``x.set_fill_value(v)``/``x.get_fill_value()`` and
``kd.ma.set_fill_value(x, v)`` (which leaves anything but a masked array alone, as NumPy's) set and read the value
``filled()`` uses.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    >>> kd.ma.set_fill_value(x, -1.0)
    >>> x.filled().tolist(), x.get_fill_value()
    ([1.0, -1.0, 3.0], np.float32(-1.0))
    >>> x.fill(0.5)
    >>> x.tolist()
    [0.5, None, 0.5]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.masked_array import MaskedArray


def _fill(self: MaskedArray, value: Any) -> None:
    """NumPy's ``MaskedArray.fill``: every data entry set to ``value`` (the mask unchanged)."""
    self._data[...] = value


def _part(name: str) -> property:
    def get(self: MaskedArray) -> MaskedArray:
        return MaskedArray.wrap(getattr(kd, name)(self._data), self._mask)
    return property(get, doc=f"NumPy's ``MaskedArray.{name}``: the data's {name} part, with the mask.")


def set_fill_value(a: Any, fill_value: Any) -> None:
    """NumPy's ``np.ma.set_fill_value``: ``a``'s fill value set (nothing happens for anything but a masked array)."""
    if isinstance(a, MaskedArray):
        a.fill_value = fill_value


MaskedArray.fill = _fill  # type: ignore[attr-defined]
MaskedArray.real = _part("real")  # type: ignore[attr-defined]
MaskedArray.imag = _part("imag")  # type: ignore[attr-defined]
MaskedArray.set_fill_value = set_fill_value  # type: ignore[attr-defined]
MaskedArray.get_fill_value = lambda self: self.fill_value  # type: ignore[attr-defined]

__all__ = ["set_fill_value"]
