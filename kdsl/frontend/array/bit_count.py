"""``bitwise_count``: the number of 1 bits of ``|x|`` (NumPy 2's popcount ufunc), by SWAR arithmetic.

The bits are summed in parallel inside the integer itself (pairs, then nibbles, then bytes), and a multiply by
``0x0101...`` adds the byte counts into the top byte: a handful of lazy integer ops, fused, no loop.

Example:
    >>> import kdsl as kd
    >>> kd.bitwise_count(kd.asarray([0, 7, -8, 255])).tolist()
    [0, 3, 1, 8]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.dtype import promotion
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.bitcast import UNSIGNED
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.ops import where


def _repeat_byte(byte: int, size: int) -> int:
    """``byte`` repeated in each of ``size`` bytes (``0x55`` -> ``0x5555`` for 2)."""
    return int.from_bytes(bytes([byte]) * size, "little")


def bitwise_count(x: Any) -> Array:
    """How many bits are 1 in ``|x|`` (a uint8 array; ``-128`` of int8 counts 1). Floats raise TypeError,
    as NumPy.

    >>> import kdsl as kd, numpy as np
    >>> kd.bitwise_count(kd.asarray(np.array([-1, 2**62], np.int64))).tolist()
    [1, 1]
    """
    a = x if isinstance(x, Array) else asarray(x)
    d = promotion.result_dtype(np.bitwise_count, a.dtype)  # NumPy's TypeError for floats and complex
    n = a.dtype.itemsize
    u = a.device.check(UNSIGNED[n])
    v = (where(a < 0, -a, a) if a.dtype.kind == "i" else a).astype(u)  # -INT_MIN wraps: its bits are |INT_MIN|
    v = v - ((v >> 1) & _repeat_byte(0x55, n))  # 2-bit sums
    v = (v & _repeat_byte(0x33, n)) + ((v >> 2) & _repeat_byte(0x33, n))  # 4-bit sums
    v = (v + (v >> 4)) & _repeat_byte(0x0F, n)  # byte sums
    if n > 1:
        v = (v * _repeat_byte(0x01, n)) >> (8 * n - 8)  # all bytes added into the top one
    return v.astype(d)
