"""Bit packing: ``packbits`` (truth values, eight to a uint8) and ``unpackbits`` (uint8 to eight 0/1 bits),
NumPy's, as fused shifts, masks and eight-term sums on the device.

Example:
    >>> import kdsl as kd
    >>> packed = kd.packbits(kd.asarray([1, 0, 1, 1, 0, 0, 0, 0, 1]))
    >>> packed.tolist(), kd.unpackbits(packed, count=9).tolist()
    ([176, 128], [1, 0, 1, 1, 0, 0, 0, 0, 1])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, asarray
from kdsl.frontend.array.padding import pad
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_ops import moveaxis


def _bit_weights(bitorder: str, device: Any) -> Array:
    """The eight bit positions, most significant first (``'big'``) or last (``'little'``), as uint8."""
    shifts = np.arange(7, -1, -1) if bitorder == "big" else np.arange(8)
    return asarray(shifts.astype(np.uint8), device=device)


def _pack_order(bitorder: Any) -> str:
    """``packbits``' bitorder as NumPy reads it: a str starting with ``'big'`` or ``'little'``."""
    _check_str(bitorder, "pack() argument 3")
    for order in ("big", "little"):
        if bitorder.startswith(order):
            return order
    raise ValueError("'order' must be either 'little' or 'big'")


def _unpack_order(bitorder: Any) -> str:
    """``unpackbits``' bitorder as NumPy reads it: a str whose first letter is ``'b'`` or ``'l'``."""
    _check_str(bitorder, "unpack() argument 4")
    if bitorder[:1] not in ("b", "l"):
        raise ValueError("'order' must begin with 'l' or 'b'")
    return "big" if bitorder[0] == "b" else "little"


def _check_str(bitorder: Any, what: str) -> None:
    if not isinstance(bitorder, str):
        raise TypeError(f"{what} must be str, not {'None' if bitorder is None else type(bitorder).__name__}")


def _along_last(x: Array, axis: int | None) -> tuple[Array, int | None]:
    """``x`` with ``axis`` moved last (flattened for None), and that axis (None: flattened); a 0-d array
    counts as 1-D, as in NumPy."""
    if axis is None or x.ndim == 0:
        x = x.reshape(-1)
    if axis is None:
        return x, None
    ax = mv.normalize_axis(operator.index(axis), x.ndim)
    return moveaxis(x, ax, -1), ax


def packbits(a: Any, /, axis: int | None = None, bitorder: str = "big") -> Array:
    """Each run of eight truth values (nonzero elements) along ``axis`` as the bits of one uint8; the last
    byte is padded with zero bits. ``axis=None`` packs the flattened array.

    >>> import kdsl as kd
    >>> kd.packbits(kd.asarray([[1, 1], [0, 1]]), axis=0, bitorder="little").tolist()
    [[1, 3]]
    """
    x = as_array(a)
    if not (x.dtype.is_int or x.dtype is dt.bool_):
        raise TypeError("Expected an input array of integer or boolean data type")
    weights = _bit_weights(_pack_order(bitorder), x.device)
    x, ax = _along_last(x, axis)
    n = x.shape[-1]
    bits = (x != 0).astype(dt.uint8)
    if n % 8:
        bits = pad(bits, [(0, 0)] * (x.ndim - 1) + [(0, -n % 8)])
    groups = bits.reshape(x.shape[:-1] + ((n + 7) // 8, 8))
    # distinct bits: the sum of eight shifted bits never carries, so it fits a uint8
    packed = ksum(groups << weights, axis=-1, dtype=dt.uint8)
    return packed if ax is None else moveaxis(packed, -1, ax)


def unpackbits(a: Any, /, axis: int | None = None, count: int | None = None, bitorder: str = "big") -> Array:
    """The bits of each uint8 along ``axis`` as eight 0/1 uint8 elements; ``count`` keeps the first ``count``
    (pads with zeros past the end; negative: drops that many at the end). ``axis=None`` flattens first.

    >>> import kdsl as kd
    >>> kd.unpackbits(kd.asarray([[6]], dtype=kd.uint8), axis=1, bitorder="little").tolist()
    [[0, 1, 1, 0, 0, 0, 0, 0]]
    """
    x = as_array(a)
    if x.dtype is not dt.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = _bit_weights(_unpack_order(bitorder), x.device)
    x, ax = _along_last(x, axis)
    total = 8 * x.shape[-1]
    bits = ((x[..., None] >> shifts) & 1).reshape(x.shape[:-1] + (total,))
    bits = _count(bits, total, count)
    return bits if ax is None else moveaxis(bits, -1, ax)


def _count(bits: Array, total: int, count: int | None) -> Array:
    """The first ``count`` bits (NumPy's rules for ``count``: None all, negative from the end, zero-padded)."""
    if count is None:
        return bits
    count = operator.index(count)
    if count < 0:
        if -count > total:
            raise ValueError("-count larger than number of elements")
        count += total
    if count <= total:
        return bits[..., :count]
    return pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, count - total)])


__all__ = ["packbits", "unpackbits"]
