"""``kd.ma.putmask``, as ``numpy.ma``'s: ``values`` (broadcast, as NumPy's ``copyto``) written into ``a`` where
``mask`` holds, in place. Their mask comes with them: a soft mask takes the values' mask there (unmasking where
they are unmasked), a hard mask only gains theirs.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1, 2, 3], mask=[True, False, False])
    >>> kd.ma.putmask(x, kd.asarray([True, False, True]), kd.ma.array(9, mask=False))
    >>> x.tolist()
    [9, 2, 9]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import parts


def putmask(a: MaskedArray, mask: Any, values: Any) -> None:
    """NumPy's ``np.ma.putmask``: see the module docstring (``a`` must be a kd.ma masked array)."""
    if not isinstance(a, MaskedArray):
        raise TypeError("kd.ma.putmask: a must be a kd.ma masked array (it is changed in place)")
    where = kd.broadcast_to(kd.asarray(mask).astype(kd.bool_), a.shape)
    vdata, vmask = parts(values)
    if vmask is not nomask or (a._mask is not nomask and not a._hardmask):
        given = kd.zeros(a.shape, dtype=kd.bool_) if vmask is nomask else kd.broadcast_to(kd.asarray(vmask), a.shape)
        if a._mask is nomask:
            a._mask = kd.where(where, given, False)
        elif a._hardmask:
            a._mask = a._mask | (where & given)
        else:
            a._mask = kd.where(where, given, a._mask)
    kd.copyto(a._data, kd.asarray(vdata, dtype=a._data.dtype), where=where)


__all__ = ["putmask"]
