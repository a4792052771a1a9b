"""NumPy's index-expression helpers: ``mgrid ogrid r_ c_ s_ index_exp``.

``kd.mgrid[0:3, 0:1:5j]`` and ``kd.ogrid[...]`` build coordinate grids from slice syntax (a complex step
``5j`` means 5 points, end included, as ``linspace``); ``kd.r_[...]`` and ``kd.c_[...]`` concatenate arrays,
lists, scalars and slices (row-wise / as columns), including the string directives ``'1'``, ``'0,2'``,
``'-1,2,0'`` (axis, minimum ndim, where the original axes go). ``kd.s_`` and ``kd.index_exp`` return the index
expression itself. Dtypes are NumPy's: integer slices give int64, float ones or complex steps float64; the
results are kdsl arrays computed lazily (``arange(n) * step + start``; ``linspace`` for one complex-step slice).

Example:
    >>> import kdsl as kd
    >>> kd.mgrid[0:2, 0:3].shape, kd.r_[1:4, 0, kd.asarray([7, 8])].tolist(), kd.s_[::2]
    ((2, 2, 3), [1, 2, 3, 0, 7, 8], slice(None, None, 2))
    >>> kd.c_[kd.asarray([1, 2]), kd.asarray([3, 4])].tolist()
    [[1, 3], [2, 4]]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange, asarray
from kdsl.frontend.array.linspace import linspace
from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate, stack

_PYNUM = (bool, int, float, complex, np.generic)


def _slice_parts(s: slice) -> tuple[Any, Any, Any, int]:
    """start, stop, step (complex steps resolved to a real spacing) and the number of points of a grid slice."""
    if not isinstance(s, slice):
        raise TypeError(f"grid indices must be slices such as 0:5 or 0:1:5j, not {type(s).__name__}")
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if s.stop is None:
        raise ValueError("a grid slice needs a stop value (0:5, not 0:)")
    if isinstance(step, (complex, np.complexfloating)):
        num = int(abs(complex(step)))
        spacing = (s.stop - start) / (num - 1) if num > 1 else 0.0
        return float(start), float(s.stop), spacing, num
    if step == 0:
        raise ValueError("a grid slice cannot have step 0")
    return start, s.stop, step, max(0, math.ceil((s.stop - start) / step))


def _runs_backwards(s: slice) -> bool:
    """Whether a real-stepped grid slice counts a negative number of points (``2:0``, ``0:3:-1``)."""
    step = 1 if s.step is None else s.step
    return not isinstance(step, (complex, np.complexfloating)) and (s.stop - (s.start or 0)) / step <= -1


def _grid_dtype(parts: list[tuple[Any, Any, Any, int]]) -> dt.DType:
    values = [v for p in parts for v in p[:3]]
    return dt.as_dtype(np.result_type(*values))  # NumPy's rule: Python ints -> int64, floats -> float64


def _axis(part: tuple[Any, Any, Any, int], dtype: dt.DType) -> Array:
    start, _, step, num = part
    return arange(num, dtype=dtype) * step + start if num else arange(0, dtype=dtype)


def _one_slice(s: slice) -> Array:
    part = _slice_parts(s)
    if isinstance(s.step, (complex, np.complexfloating)):
        return linspace(part[0], part[1], part[3], dtype=_grid_dtype([part]))
    # NumPy's one slice is np.arange(start, stop, step), whose dtype NumPy scalars do not set: int64 or float64
    python_values = [v.item() if isinstance(v, np.generic) else v for v in part[:3]]
    return _axis(part, dt.as_dtype(np.result_type(*python_values)))


class _Grid:
    """``mgrid`` (dense) and ``ogrid`` (open: broadcastable) grids from slice syntax."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: slice | tuple[slice, ...]) -> Array | tuple[Array, ...]:
        if not isinstance(key, tuple):
            return _one_slice(key)
        parts = [_slice_parts(s) for s in key]
        if not self.sparse and any(_runs_backwards(s) for s in key):
            # NumPy's dense grid makes an array of the raw lengths (its open grid makes empty aranges)
            raise ValueError("negative dimensions are not allowed")
        dtype = _grid_dtype(parts) if parts else dt.int64
        shape = tuple(p[3] for p in parts)
        axes = []
        for k, part in enumerate(parts):
            ones = [1] * len(parts)
            ones[k] = part[3]
            axes.append(_axis(part, dtype).reshape(tuple(ones)))
        if self.sparse:
            return tuple(axes)
        if not axes:
            return arange(0, dtype=dtype)
        return stack([broadcast_values_to(a, shape) for a in axes])

    def __len__(self) -> int:
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


def _directive(text: str, defaults: tuple[int, int, int]) -> tuple[int, int, int]:
    """``'axis'``, ``'axis,ndmin'`` or ``'axis,ndmin,trans1d'`` -> the three numbers; those not given keep the
    concatenator's own (``c_['0', ...]`` still makes 1-d items columns: ndmin 2, trans1d 0, as NumPy's)."""
    if text in ("r", "c"):
        raise NotImplementedError(f"r_[{text!r}, ...] builds a np.matrix; kdsl has no matrix class: use 2-D arrays "
                                  f"(kd.r_['0,2', ...] or kd.c_[...])")
    parts = text.split(",")
    # NumPy's reading: the first two numbers, the third only when there are exactly three (a fourth is ignored)
    wanted = parts[:3] if len(parts) == 3 else parts[:2]
    try:
        numbers = [int(x) for x in wanted]
    except ValueError:
        raise ValueError(f"unknown special directive {text!r}: use 'axis', 'axis,ndmin' or "
                         f"'axis,ndmin,trans1d' with integers") from None
    axis, ndmin, trans1d = numbers + list(defaults[len(numbers):])
    return axis, ndmin, trans1d


def _promote_axes(a: Array, ndmin: int, trans1d: int) -> Array:
    """Give ``a`` at least ``ndmin`` axes, its own axes starting at ``trans1d`` (-1: at the end)."""
    extra = ndmin - a.ndim
    if extra <= 0:
        return a
    where = trans1d + extra + 1 if trans1d < 0 else trans1d
    if not 0 <= where <= extra:
        raise ValueError(f"trans1d={trans1d} does not fit {a.ndim}-d items promoted to {ndmin} dimensions")
    return a.reshape((1,) * where + a.shape + (1,) * (extra - where))


class _Concatenator:
    """``r_`` / ``c_``: concatenate the items of an index expression along ``axis``."""

    def __init__(self, axis: int, ndmin: int, trans1d: int) -> None:
        self.defaults = (axis, ndmin, trans1d)

    def _item(self, item: Any) -> tuple[Array | None, Any]:
        """An item as an array, or (None, the value) for a scalar: scalars do not decide the dtype (NumPy's rule)
        and are uploaded once the dtype is known."""
        if isinstance(item, slice):
            return _one_slice(item), None
        if isinstance(item, Array):
            return item, None
        if isinstance(item, _PYNUM):
            return None, item
        return asarray(np.asarray(item)), None  # lists and NumPy arrays: NumPy's dtype (int64, float64)

    def __getitem__(self, key: Any) -> Array:
        items = list(key) if isinstance(key, tuple) else [key]
        axis, ndmin, trans1d = self.defaults
        if items and isinstance(items[0], str):
            axis, ndmin, trans1d = _directive(items.pop(0), self.defaults)
        if any(isinstance(x, str) for x in items):
            raise ValueError("special directives must be the first entry.")
        converted = [self._item(x) for x in items]
        if not converted:
            raise ValueError("need at least one array to concatenate")
        dtype = np.result_type(*[a.dtype.np if a is not None else v for a, v in converted])
        arrays = []
        for a, v in converted:
            if a is None:  # np.asarray raises NumPy's OverflowError for a Python int the dtype cannot hold
                arrays.append(asarray(np.asarray(v, dtype=dtype).reshape((1,) * max(ndmin, 1))))
            else:
                arrays.append(_promote_axes(a, ndmin, trans1d).astype(dt.as_dtype(dtype)))
        return concatenate(arrays, axis=axis)

    def __len__(self) -> int:
        return 0


r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)


class _IndexExpression:
    """``s_`` / ``index_exp``: the index expression itself, as a slice or tuple to pass on."""

    def __init__(self, maketuple: bool) -> None:
        self.maketuple = maketuple

    def __getitem__(self, item: Any) -> Any:
        return (item,) if self.maketuple and not isinstance(item, tuple) else item


s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)
