"""``MaskedArray``'s value helpers, as ``numpy.ma``'s: ``x.fill(v)`` writes ``v`` into the data and keeps the mask;
``x.real``/``x.imag`` are the parts of the data with the mask; ``x.set_fill_value(v)``/``x.get_fill_value()`` and
``kd.ma.set_fill_value(x, v)`` (which leaves anything but a masked array alone, as NumPy's) set and read the value
``filled()`` uses; ``common_fill_value``, ``harden_mask``/``soften_mask`` and ``is_mask`` as functions.

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

import numpy as np

import kdsl as kd
from kdsl.ma.constants import default_fill_value, numpy_dtype
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

def common_fill_value(a: Any, b: Any) -> Any:
    """NumPy's ``np.ma.common_fill_value``: the fill value of ``a`` and ``b`` when they agree (an unmasked
    array's is its dtype's default), else None."""
    first, second = (x.fill_value if isinstance(x, MaskedArray) else default_fill_value(kd.asarray(x).dtype)
                     for x in (a, b))
    return first if first == second else None


def harden_mask(a: Any) -> MaskedArray:
    """NumPy's ``np.ma.harden_mask``: ``a.harden_mask()`` (assigning a value no longer unmasks); ``a`` (a plain
    ``a``: a masked array of it, as NumPy's)."""
    return (a if isinstance(a, MaskedArray) else MaskedArray(a)).harden_mask()


def soften_mask(a: Any) -> MaskedArray:
    """NumPy's ``np.ma.soften_mask``: ``a.soften_mask()`` (assigning a value unmasks again); ``a`` (a plain
    ``a``: a masked array of it, as NumPy's)."""
    return (a if isinstance(a, MaskedArray) else MaskedArray(a)).soften_mask()


def is_mask(m: Any) -> bool:
    """NumPy's ``np.ma.is_mask``: whether ``m`` is ``nomask`` or an array of the mask dtype (bool)."""
    dtype = getattr(m, "dtype", None)
    return dtype is not None and numpy_dtype(dtype) == np.dtype(bool)


__all__ = ["common_fill_value", "harden_mask", "is_mask", "set_fill_value", "soften_mask"]
