"""A masked array's conversions to host values and its printing (the base of
:class:`kdsl.ma.masked_array.MaskedArray`): each reads the data to the host, as kdsl's own printing does.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.MaskedArray([1.0, 2.0], mask=[False, True])
    >>> x.tolist(), x.tolist(-1.0), x.to_numpy().mask.tolist()
    ([1.0, None], [1.0, -1.0], [False, True])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.ma.constants import nomask
from kdsl.ma.printing import masked_text


class HostConversions:
    """``to_numpy``/``numpy``, ``__array__``, ``tolist``, ``item``, ``in``, ``searchsorted``, ``repr``/``str`` and the
    Python scalar conversions of a masked array (its ``_data``, ``_mask`` and ``_fill_value``)."""

    _data: Any
    _mask: Any
    _fill_value: Any
    filled: Callable[..., Any]

    def to_numpy(self) -> np.ma.MaskedArray:
        """A NumPy ``np.ma.MaskedArray`` copy on the host (data, mask and fill value)."""
        mask = nomask if self._mask is nomask else self._mask.numpy()
        out = np.ma.MaskedArray(self._data.numpy(), mask=mask)
        if self._fill_value is not None:
            out.fill_value = self._fill_value
        return out

    numpy = to_numpy

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # as NumPy's np.asarray(masked_array): the data, masked entries included; copy=False is the kdsl
        # array's ValueError (a download cannot avoid the copy)
        return self._data.__array__(dtype, copy)

    def tolist(self, fill_value: Any = None) -> Any:
        """Nested lists of Python scalars, ``None`` for masked entries (``fill_value`` for them where given, as
        NumPy's ``x.tolist(-1)``)."""
        if fill_value is not None:
            return self.filled(fill_value).tolist()
        return self.to_numpy().tolist()

    def item(self, *args: Any) -> Any:
        """NumPy's ``MaskedArray.item`` (ndarray's): the data's element as a Python scalar, masked or not; one
        int is a flat index (``x.item(0)`` of a 2-d array), a tuple or several ints an index."""
        return self._data.item(*args)

    def __contains__(self, value: Any) -> bool:
        """``value in x`` as NumPy's (ndarray's ``(x == value).any()``, through numpy.ma's comparison): masked
        entries never match, whatever their data; any shape (Python's fallback iterated the rows of a 2-d array
        and asked a row's truth value: ValueError).

        >>> import kdsl as kd
        >>> x = kd.ma.masked_equal(kd.asarray([[0.0, 1.0], [2.0, 3.0]]), 1.0)
        >>> 3.0 in x, 1.0 in x, 7 in x
        (True, False, False)
        """
        matches: Any = self == value  # a masked bool array: its any() leaves the masked entries out
        return bool(matches.any())

    def __delitem__(self, key: Any) -> None:
        """``del x[i]``: NumPy's ValueError, as for its arrays (``x[keep]`` makes a smaller copy)."""
        raise ValueError("cannot delete array elements")

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> Any:
        """NumPy's ``MaskedArray.searchsorted`` (ndarray's): positions in the data, the mask aside."""
        return self._data.searchsorted(getattr(v, "_data", v), side=side, sorter=sorter)

    def __repr__(self) -> str:
        return masked_text(self, repr)

    def __str__(self) -> str:
        return masked_text(self, str)

    def __bool__(self) -> bool:
        return bool(self.to_numpy())

    def __float__(self) -> float:
        return float(self.to_numpy())

    def __int__(self) -> int:
        return int(self.to_numpy())
