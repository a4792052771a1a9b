"""NumPy's ``ndarray.byteswap``: every element's bytes in reverse order (each part of a complex number on its
own, as NumPy's), as a lazy bit-cast to bytes, a flip and a bit-cast back (one fused kernel). ``inplace=True``
writes the swapped values into the array (a view writes through to its base) and returns it.

Example:
    >>> import kdsl as kd, numpy as np
    >>> kd.asarray(np.array([1, 256], np.int16)).byteswap().tolist()
    [256, 1]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kdsl import dtype as dt

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def byteswap(a: Array, inplace: bool = False) -> Array:
    """``a`` with the bytes of each element (each real and imaginary part) reversed."""
    from kdsl.frontend.array.shape_ops import flip  # cycle: that module builds Arrays

    if a.dtype.itemsize == 1 or a.size == 0:
        swapped = a.copy()
    elif a.dtype.kind == "c":  # each part on its own (complex128 has no 16-byte integer to bit-cast through)
        from kdsl.frontend.array.complex_math import complex_from_parts

        swapped = complex_from_parts(byteswap(a.real), byteswap(a.imag))
    else:
        dense = a if a.flags.c_contiguous else a.copy()  # the bit-cast needs a contiguous last axis (a.real
        # of a complex array is a strided view in NumPy's layout)
        raw = dense.reshape(a.size).view(dt.uint8).reshape(a.size, a.dtype.itemsize)
        # the flipped bytes made dense before the bit-cast back: for one element (a 0-d array, z[0]) the
        # reshape of the flip is a reversed view, which a bit-cast to a wider dtype cannot read
        flipped = flip(raw, axis=-1).copy()
        swapped = flipped.reshape(a.size * a.dtype.itemsize).view(a.dtype).reshape(a.shape)
    if inplace:
        a[...] = swapped
        return a
    return swapped


__all__ = ["byteswap"]
