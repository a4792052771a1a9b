"""The core axes of ``vecdot`` (signature ``(n),(n)->()``) from NumPy's gufunc keywords ``axis``, ``axes`` and
``keepdims``, checked as NumPy checks them: the axis of each input and, with ``keepdims``, where the output keeps
its size-1 axis."""
from __future__ import annotations

import operator
from typing import Any

import numpy as np


def _one_axis(entry: Any, operand: int, core: int) -> Any:
    """An ``axes`` entry of an operand with ``core`` core dimensions: an int, a tuple of ``core`` ints, or ``()``
    for none."""
    if isinstance(entry, tuple):
        if len(entry) != core:
            raise np.exceptions.AxisError(f"vecdot: operand {operand} has {core} core dimensions, but {len(entry)} "
                                          "dimensions are specified by axes tuple.")
        return operator.index(entry[0]) if core else None
    if core != 1:
        raise np.exceptions.AxisError(f"vecdot: operand {operand} has {core} core dimensions, but the axes item is "
                                      "a single integer.")
    return operator.index(entry)


def vecdot_axes(axis: Any, axes: Any, keepdims: bool) -> tuple[int, int, int]:
    """``(axis of x1, axis of x2, axis the output keeps with keepdims)``: all ``-1`` by default, all ``axis`` when
    it is given, else ``axes``' entries (the output's entry only with ``keepdims``, NumPy's rule)."""
    if axis is not None and axes is not None:
        raise TypeError("cannot specify both 'axis' and 'axes'")
    if axis is not None:
        a = operator.index(axis)
        return a, a, a
    if axes is None:
        return -1, -1, -1
    if not isinstance(axes, list):
        raise TypeError("axes should be a list.")
    out_core = 1 if keepdims else 0  # keepdims gives the output the core axis the inputs lose
    if len(axes) not in (2, 3):
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs "
                         "can only be omitted if none of them has core axes.")
    a1, a2 = _one_axis(axes[0], 0, 1), _one_axis(axes[1], 1, 1)
    out = _one_axis(axes[2], 2, out_core) if len(axes) == 3 else -1
    return a1, a2, (-1 if out is None else out)
