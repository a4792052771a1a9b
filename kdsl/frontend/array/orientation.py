"""Turning arrays round: ``fliplr flipud rot90 rollaxis``, NumPy's names and semantics. All are zero-copy
views (reversed strides and permuted axes), as in NumPy.

Example:
    >>> import kdsl as kd
    >>> m = kd.arange(4).reshape(2, 2)
    >>> kd.fliplr(m).tolist(), kd.flipud(m).tolist(), kd.rot90(m).tolist()
    ([[1, 0], [3, 2]], [[2, 3], [0, 1]], [[1, 3], [0, 2]])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.shape_ops import flip, swapaxes


def fliplr(m: Any) -> Array:
    """``m`` with its columns (axis 1) in reverse order; ``m`` needs at least two dimensions.

    >>> import kdsl as kd
    >>> kd.fliplr(kd.asarray([[1, 2, 3]])).tolist()
    [[3, 2, 1]]
    """
    x = as_array(m)
    if x.ndim < 2:
        raise ValueError(f"Input must be >= 2-d (fliplr reverses axis 1; got {x.ndim}-d): use kd.flip(m) for 1-d")
    return flip(x, 1)


def flipud(m: Any) -> Array:
    """``m`` with its rows (axis 0) in reverse order; ``m`` needs at least one dimension.

    >>> import kdsl as kd
    >>> kd.flipud(kd.asarray([1, 2, 3])).tolist()
    [3, 2, 1]
    """
    x = as_array(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d (flipud reverses axis 0 and a 0-d array has none)")
    return flip(x, 0)


def _rot_axes(axes: Any, ndim: int) -> tuple[int, int]:
    """rot90's plane: two different axes of an array of ``ndim`` dimensions, as non-negative ints."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError(f"len(axes) must be 2 (the plane to rotate in), got axes={axes}")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == ndim:
        raise ValueError(f"Axes must be different (got axes={axes} for a {ndim}-d array)")
    if not all(-ndim <= k < ndim for k in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={ndim}.")
    return axes[0] % ndim, axes[1] % ndim


def rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> Array:
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``, from the first axis towards the second
    (counter-clockwise for a matrix shown row by row); negative ``k`` turns the other way.

    >>> import kdsl as kd
    >>> m = kd.asarray([[1, 2], [3, 4]])
    >>> kd.rot90(m, 2).tolist(), kd.rot90(m, -1).tolist()
    ([[4, 3], [2, 1]], [[3, 1], [4, 2]])
    """
    x = as_array(m)
    a0, a1 = _rot_axes(axes, x.ndim)
    # NumPy's k % 4 takes a float k too: 1.0 is one turn, and a fractional one (1.5) takes the three-turn branch
    turns = k % 4 if isinstance(k, (float, np.floating)) else operator.index(k) % 4
    if turns == 0:
        return x[...]
    if turns == 2:
        return flip(flip(x, a0), a1)
    if turns == 1:  # reverse the second axis, then exchange the two
        return swapaxes(flip(x, a1), a0, a1)
    return flip(swapaxes(x, a0, a1), a1)  # three turns: exchange, then reverse the second axis


def rollaxis(a: Any, axis: int, start: int = 0) -> Array:
    """``a`` with ``axis`` moved to lie before position ``start`` (NumPy keeps this for old code; prefer
    :func:`kdsl.moveaxis`).

    >>> import kdsl as kd
    >>> a = kd.ones((3, 4, 5, 6))
    >>> kd.rollaxis(a, 3, 1).shape, kd.rollaxis(a, 2).shape, kd.rollaxis(a, 1, 4).shape
    ((3, 6, 4, 5), (5, 3, 4, 6), (3, 5, 6, 4))
    """
    x = as_array(a)
    n = x.ndim
    ax = mv.normalize_axis(axis, n)
    start = operator.index(start)
    if not -n <= start <= n:
        raise np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    start = start + n if start < 0 else start
    if ax < start:  # removing the axis first shifts the later positions down by one
        start -= 1
    order = [i for i in range(n) if i != ax]
    order.insert(start, ax)
    return x.transpose(tuple(order)) if order != list(range(n)) else x[...]
