"""``MaskedArray``'s remaining numpy.ma methods about its mask and parts: ``x.shrink_mask()`` (the mask becomes
``nomask`` when nothing is masked: one bool read back), ``x.unshare_mask()`` (the array gets its own copy of the
mask), ``x.get_real()``/``x.get_imag()`` (``x.real``/``x.imag``), ``x.ids()`` (``kd.ma.ids(x)``) and
``x.iscontiguous()`` (the data's C-contiguity). The first two return ``x``, as NumPy's.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, 2.0, 3.0], mask=[False, False, False])
    >>> x.shrink_mask().mask is kd.ma.nomask
    True
    >>> y = kd.ma.array([1.0, 2.0], mask=[False, True]).shrink_mask()
    >>> y.mask.tolist(), y.unshare_mask().get_imag().tolist()
    ([False, True], [0.0, None])
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.functions import ids
from kdsl.ma.masked_array import MaskedArray


def _shrink_mask(self: MaskedArray) -> MaskedArray:
    """NumPy's ``MaskedArray.shrink_mask``: ``nomask`` in place of a mask with nothing masked; ``self``."""
    if self._mask is not nomask and not bool(kd.any(self._mask)):  # the read back NumPy's m.any() is
        self._mask = nomask
    return self


def _unshare_mask(self: MaskedArray) -> MaskedArray:
    """NumPy's ``MaskedArray.unshare_mask``: later writes to this array's mask reach no other array; ``self``."""
    if self._mask is not nomask:
        self._mask = self._mask.copy()
    return self


def _iscontiguous(self: MaskedArray) -> Any:
    """NumPy's ``MaskedArray.iscontiguous``: whether the data is C-contiguous (``flags['CONTIGUOUS']``)."""
    return self._data.flags["C_CONTIGUOUS"]


MaskedArray.shrink_mask = _shrink_mask  # type: ignore[attr-defined]
MaskedArray.unshare_mask = _unshare_mask  # type: ignore[attr-defined]
MaskedArray.get_real = lambda self: self.real  # type: ignore[attr-defined]
MaskedArray.get_imag = lambda self: self.imag  # type: ignore[attr-defined]
MaskedArray.ids = ids  # type: ignore[attr-defined]
MaskedArray.iscontiguous = _iscontiguous  # type: ignore[attr-defined]
