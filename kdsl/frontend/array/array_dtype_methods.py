"""Array's methods about its element type and bytes: ``a.astype(dtype)`` (NumPy's casting rules),
``a.view(dtype)`` (the bytes read as another dtype), ``a.byteswap()``, ``a.getfield()`` / ``a.setfield()``. These
functions are :class:`Array`'s methods.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([1.5, -2.5])
    >>> a.astype(kd.int32).tolist(), a.astype(kd.float32).view(kd.uint32).dtype.name
    ([1, -2], 'uint32')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kdsl.dtype.byte_order import native_only
from kdsl.frontend.array import ops

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def astype(self, dtype, order: str = "K", casting: str = "unsafe", subok: bool = True,
           copy: bool = True) -> Array:
    """This array as ``dtype`` (lazy), NumPy's ``ndarray.astype``: ``casting`` is NumPy's rule (TypeError
    when it forbids the change), ``copy=False`` returns this array itself when the dtype is already right.
    See :func:`kdsl.frontend.array.conversion.array_astype`.

    >>> import kdsl as kd
    >>> a = kd.asarray([1.5, -2.5])
    >>> a.astype(kd.int32).tolist(), a.astype(kd.float32, copy=False) is a
    ([1, -2], True)
    """
    native_only(dtype, "astype")  # kdsl arrays have no byte order: '>i2' would give little-endian bytes
    if order == "K" and casting == "unsafe" and copy is True:  # the common call, without the checks
        return ops.astype(self, dtype)
    from kdsl.frontend.array.conversion import array_astype  # cycle: that module imports this one

    return array_astype(self, dtype, order, casting, subok, copy)


def view(self, dtype=None, type=None) -> Array:  # noqa: A002 - NumPy's name
    """This array's bytes read as ``dtype`` (NumPy's ``ndarray.view``: same itemsize, same shape; another
    itemsize scales the last axis, which must be contiguous); with no dtype, a new Array of the same data.
    Lazy: the bit-cast fuses with the work around it. See :mod:`kdsl.frontend.array.bitcast`.

    >>> import kdsl as kd, numpy as np
    >>> kd.asarray(np.array([1.0, -2.0], np.float32)).view(np.int32).tolist()
    [1065353216, -1073741824]
    """
    from kdsl.frontend.array.bitcast import view  # cycle: that module builds Arrays

    return view(self, dtype, type)


def byteswap(self, inplace: bool = False) -> Array:
    """Each element's bytes reversed (``byte_swap.py``)."""
    from kdsl.frontend.array.byte_swap import byteswap

    return byteswap(self, inplace)


def getfield(self, dtype, offset: int = 0) -> Array:
    """The ``dtype`` value at byte ``offset`` of each element (``fields.py``)."""
    from kdsl.frontend.array.fields import getfield

    return getfield(self, dtype, offset)


def setfield(self, val, dtype, offset: int = 0) -> None:
    """Write ``val`` as ``dtype`` at byte ``offset`` of each element, in place (``fields.py``)."""
    from kdsl.frontend.array.fields import setfield

    setfield(self, val, dtype, offset)
