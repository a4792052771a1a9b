"""Host values checked against the dtype they are sent as (push constants, kernel arguments): a number or a
sequence of numbers becomes a 1-D NumPy array of that dtype, and what would change its value is refused.

Example:
    >>> checked_values([1, 2.0], "int32", "n")
    array([1, 2], dtype=int32)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def checked_values(value: Any, dtype: str, what: str) -> np.ndarray:
    """``value`` (a number or a sequence of numbers) as a 1-D array of ``dtype``, refusing what would change
    its value: TypeError for non-numbers and fractional values for integer types, OverflowError out of range.

    Example:
        >>> checked_values(3, "uint32", "n")
        array([3], dtype=uint32)
        >>> checked_values(-1, "uint32", "n")
        Traceback (most recent call last):
        ...
        OverflowError: n is uint32 (0 to 4294967295); -1 does not fit
    """
    target = np.dtype(dtype)
    try:
        items = np.asarray(value, dtype=object).ravel().tolist()
    except (TypeError, ValueError):
        raise TypeError(f"{what} takes {dtype} numbers, got {value!r}") from None
    out = []
    for v in items:
        if isinstance(v, np.generic) and v.dtype.kind in "biuf":
            v = v.item()
        if not isinstance(v, (bool, int, float)):
            raise TypeError(f"{what} takes {dtype} numbers, got {value!r} ({type(v).__name__})")
        if target.kind in "iu":
            if isinstance(v, float):
                if not v.is_integer():
                    raise TypeError(f"{what} is {dtype} but got {v!r}, which is not a whole number; round it "
                                    "(int(v)) or make the parameter a float")
                v = int(v)
            info = np.iinfo(target)
            if not info.min <= v <= info.max:
                raise OverflowError(f"{what} is {dtype} ({info.min} to {info.max}); {v!r} does not fit")
        elif target.kind == "f" and math.isfinite(v) and abs(v) > float(np.finfo(target).max):
            raise OverflowError(f"{what} is {dtype}, whose largest value is {float(np.finfo(target).max):g}; "
                                f"{v!r} does not fit")
        out.append(v)
    return np.array(out, dtype=target)
