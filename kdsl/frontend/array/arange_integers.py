"""NumPy's rule for an ``arange`` of an integer dtype: its first two values, ``start`` and ``start + step``, are
converted to the dtype (floats truncated), and their difference is the step of every later value.

NumPy converts those two values as Python integers, so one outside the dtype's range raises its
``OverflowError`` ("Python integer -3 out of bounds for uint8") instead of wrapping, while later values wrap:
``arange(250, 260, dtype=uint8)`` holds ``250 ... 255, 0 ... 3``, but ``arange(-3, 3, dtype=uint8)`` and
``arange(255, 258, dtype=uint8)`` (the second value, 256) are errors. A value the range never holds is not
checked: ``arange(-3, -5, dtype=uint8)`` is empty and ``arange(0, 10, 300, dtype=uint8)`` is ``[0]``.

    >>> first_and_step(250, 1, 10, "uint8")
    (250, 1)
    >>> first_and_step(-3, 1, 6, "uint8")
    Traceback (most recent call last):
    ...
    OverflowError: Python integer -3 out of bounds for uint8
"""

from __future__ import annotations

from typing import Any

import numpy as np


def first_and_step(start: Any, step: Any, n: int, dtype: Any) -> tuple[int, int]:
    """``(first value, step)`` of an integer ``arange`` of ``n`` values by NumPy's rule (the module docstring),
    with NumPy's ``OverflowError`` for a first or second value outside ``dtype``'s range (``dtype``: anything
    ``np.dtype`` takes; a non-integer dtype, bool, is not range-checked)."""
    first = int(start)
    second = int(start + step)
    kind = np.dtype(dtype)
    if kind.kind in "iu":
        info = np.iinfo(kind)
        for value in (first, second)[: min(n, 2)]:  # only the values the range holds are converted
            if not info.min <= value <= info.max:
                raise OverflowError(f"Python integer {value} out of bounds for {kind.name}")
    return first, second - first
