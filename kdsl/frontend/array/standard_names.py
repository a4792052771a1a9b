"""The array API standard's spellings of functions kdsl has under NumPy's names (``acos`` is ``arccos``,
``concat`` is ``concatenate``, ``permute_dims`` is ``transpose``, ...): the same functions, not copies.

Example:
    >>> import kdsl as kd
    >>> kd.acos is kd.arccos, kd.permute_dims(kd.ones((2, 3)), (1, 0)).shape
    (True, (3, 2))
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array import math as m
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.shape_ops import concatenate, transpose

acos, acosh, asin, asinh = m.arccos, m.arccosh, m.arcsin, m.arcsinh
atan, atan2, atanh = m.arctan, m.arctan2, m.arctanh
bitwise_invert, bitwise_left_shift, bitwise_right_shift = m.invert, m.left_shift, m.right_shift
pow = m.power  # noqa: A001 - the standard's name


def concat(arrays: Any, /, axis: int | None = 0, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Array:
    """Join arrays along ``axis`` (the standard's name for :func:`kdsl.concatenate`; None flattens first)."""
    return concatenate(arrays, axis, out, dtype=dtype, casting=casting)


def permute_dims(a: Any, axes: tuple[int, ...] | None = None) -> Array:
    """``a`` with its axes in the order ``axes`` (a view; the standard's name for :func:`kdsl.transpose`)."""
    return transpose(a, axes)
