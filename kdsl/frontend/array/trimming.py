"""``trim_zeros``: slice off the leading and/or trailing zeros (NumPy 2's, with ``axis``: the smallest
bounding box of the non-zero values along the chosen axes).

How it runs: for every axis, ``any(a != 0)`` over the other axes marks the positions holding a non-zero;
``argmax`` of that mask and of its reverse give the first and last one. Those few integers are read back in
one synchronisation (the result's shape depends on them), then the result is a plain slice: a view of ``a``.

Example:
    >>> import kdsl as kd
    >>> kd.trim_zeros(kd.asarray([0, 0, 3, 0, 2, 0])).tolist()
    [3, 0, 2]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.reductions import any as reduce_any
from kdsl.frontend.array.reductions import argmax


def _bounds(nonzero: Array) -> tuple[list[int], list[int]] | None:
    """Per axis, the first non-zero position and one past the last; None when every value is zero. One
    synchronisation for all of them."""
    lazy = []
    for k in range(nonzero.ndim):
        others = tuple(j for j in range(nonzero.ndim) if j != k)
        line = reduce_any(nonzero, axis=others) if others else nonzero
        lazy += [argmax(line), argmax(line[::-1])]
    found = reduce_any(nonzero)
    realize(found, *lazy)
    if not bool(found):
        return None
    firsts = [int(v) for v in lazy[0::2]]
    stops = [n - int(v) for n, v in zip(nonzero.shape, lazy[1::2], strict=True)]
    return firsts, stops


def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Array:
    """``filt`` without its leading (``'f'`` in ``trim``) and trailing (``'b'``) zeros along ``axis``
    (``None``: every axis, giving the bounding box of the non-zero values; an int or a tuple of ints). An
    all-zero array gives an empty one. The result is a view of ``filt`` (a kdsl array even for list input,
    where NumPy returns a list). Synchronises once: the trimmed extents decide the result's shape.

    Example:
        >>> import kdsl as kd
        >>> kd.trim_zeros(kd.asarray([0, 1, 2, 0]), trim="b").tolist()
        [0, 1, 2]
        >>> kd.trim_zeros(kd.asarray([[0, 0, 0], [0, 4, 0]])).tolist()
        [[4]]
    """
    x = filt if isinstance(filt, Array) else asarray(filt)
    if not isinstance(trim, str):
        raise TypeError(f"trim must be a string of 'f' and/or 'b', not {type(trim).__name__}")
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(x.ndim)) if axis is None else tuple(np.lib.array_utils.normalize_axis_tuple(
        axis, x.ndim, argname="axis"))
    if not axes:
        return x
    bounds = _bounds(x != 0) if x.size else None
    if bounds is None:  # all zeros: NumPy empties every trimmed axis, whatever ``trim`` says
        starts, stops = [0] * x.ndim, [0] * x.ndim
    else:
        starts = bounds[0] if "f" in trim else [0] * x.ndim
        stops = bounds[1] if "b" in trim else list(x.shape)
    key = tuple(slice(starts[k], stops[k]) if k in axes else slice(None) for k in range(x.ndim))
    return x[key]


__all__ = ["trim_zeros"]
