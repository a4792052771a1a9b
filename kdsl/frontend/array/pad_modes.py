"""NumPy ``pad``'s remaining modes and forms, on kdsl arrays: the statistic modes (``maximum minimum mean
median`` with ``stat_length``), ``linear_ramp`` (``end_values``), ``reflect``/``symmetric`` with
``reflect_type='odd'``, a callable mode, and ``pad_width`` as a dict ``{axis: width}`` (NumPy 2.3).

Each axis is padded in turn on the array padded so far, as NumPy's (so the corners of a later axis see the
pads of earlier ones). Statistics are kdsl reductions over the edge region (rounded half to even for integer
arrays, as NumPy's); ramps are NumPy's ``linspace`` formula (``i * (edge - end) / width + end``, floored for
integers) in float64, as NumPy's (float32 on a device without float64); odd reflections repeat NumPy's chunked
reflection (each chunk ``2 * edge - mirror``, growing until the pad is filled), so wide pads match too. A callable mode
runs once per 1-D line on views of the zero-padded result (a Python loop over lines, as NumPy's).

    >>> import kdsl as kd
    >>> a = kd.asarray([1, 2, 3, 4, 5])
    >>> kd.pad(a, (2, 3), "linear_ramp", end_values=(5, -4)).tolist()
    [5, 3, 1, 2, 3, 4, 5, 2, -1, -4]
    >>> kd.pad(a, (2,), "mean").tolist(), kd.pad(a, (2, 3), "reflect", reflect_type="odd").tolist()
    ([3, 3, 1, 2, 3, 4, 5, 3, 3], [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    >>> kd.pad(kd.ones((2, 2), dtype=kd.int32), {1: (1, 0)}).tolist()
    [[0, 1, 1], [0, 1, 1]]
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate, moveaxis

STAT_MODES = ("maximum", "minimum", "mean", "median")


def dict_widths(pad_width: dict, ndim: int) -> list[tuple[int, int]]:
    """``{axis: width}`` (NumPy 2.3's dict form) as one ``(before, after)`` per axis; missing axes get none."""
    pairs = [(0, 0)] * ndim
    for axis, width in pad_width.items():
        try:
            ax = operator.index(axis)
            if not -ndim <= ax < ndim:
                raise IndexError
        except (TypeError, IndexError):
            raise ValueError(f"pad_width has axis {axis!r}, which an array of {ndim} dimensions does not have") \
                from None
        if isinstance(width, (int, np.integer)) and not isinstance(width, bool):
            pairs[ax] = (int(width), int(width))
        elif isinstance(width, tuple) and len(width) == 2 and all(isinstance(w, (int, np.integer)) for w in width):
            pairs[ax] = (int(width[0]), int(width[1]))
        else:
            raise TypeError(f"`pad_width` for axis={axis} must be an integer or a tuple of two integers, "
                            f"got {width!r}.")
    if any(w < 0 for pair in pairs for w in pair):
        raise ValueError("index can't contain negative values")
    return pairs


def _pairs(value: Any, ndim: int, name: str) -> np.ndarray:
    """A keyword (``stat_length``, ``end_values``) as one (before, after) pair per axis, NumPy's broadcast."""
    try:
        return np.broadcast_to(np.asarray(value, dtype=object), (ndim, 2))
    except ValueError:
        raise ValueError(f"{name}={value!r} does not fit an array of {ndim} dimensions; use a scalar, "
                         "(before, after) or one (before, after) per axis") from None


def _take(x: Array, ax: int, start: int | None, stop: int | None, step: int = 1) -> Array:
    idx = [slice(None)] * x.ndim
    idx[ax] = slice(start, stop, step)
    return x[tuple(idx)]


def _spread(x: Array, ax: int, piece: Array, n: int) -> Array:
    """``piece`` (size 1 along ``ax``) repeated ``n`` times along ``ax``."""
    return broadcast_values_to(piece, x.shape[:ax] + (n,) + x.shape[ax + 1:])


def pad_stat(x: Array, widths: list[tuple[int, int]], mode: str, stat_length: Any) -> Array:
    """The ``maximum``/``minimum``/``mean``/``median`` modes: each side filled with the statistic of the first
    (last) ``stat_length`` elements along the axis (the whole axis by default)."""
    from kdsl.frontend.array.quantiles import median
    from kdsl.frontend.array.reductions import max as amax
    from kdsl.frontend.array.reductions import mean
    from kdsl.frontend.array.reductions import min as amin

    func: Any = {"maximum": amax, "minimum": amin, "mean": mean, "median": median}[mode]
    lengths = _pairs(stat_length, x.ndim, "stat_length")
    zero = any(k is not None and round(k) == 0 for pair in lengths for k in pair)
    if x.size and zero and mode in ("maximum", "minimum"):  # NumPy checks the axes it does not pad too
        raise ValueError("stat_length of 0 yields no value for padding")
    for ax, (before, after) in enumerate(widths):
        if not before and not after:
            continue
        n = x.shape[ax]
        sides = []
        for side, length in enumerate(lengths[ax]):
            k = n if length is None else int(np.round(length))
            if k < 0:
                raise ValueError("index can't contain negative values")
            k = min(k, n)
            if k == 0 and mode in ("maximum", "minimum"):  # (NumPy: the mean or median of nothing is NaN)
                raise ValueError("stat_length of 0 yields no value for padding")
            region = _take(x, ax, 0, k) if side == 0 else _take(x, ax, n - k, n)
            stat = func(region, axis=ax, keepdims=True)
            if x.dtype.kind in "iu" and stat.dtype.kind == "f":
                stat = stat.round()  # NumPy rounds half to even before writing into an integer array
            sides.append(stat.astype(x.dtype))
        x = concatenate([_spread(x, ax, sides[0], before), x, _spread(x, ax, sides[1], after)], axis=ax)
    return x


def pad_linear_ramp(x: Array, widths: list[tuple[int, int]], end_values: Any) -> Array:
    """``linear_ramp``: each side runs from its end value towards the edge value, as ``np.linspace(end, edge,
    width, endpoint=False)`` (the right side reversed)."""
    ends = _pairs(end_values, x.ndim, "end_values")
    # NumPy's linspace reads the end value as a float64 array (``asanyarray(end) * 1.0``), so every ramp is
    # computed in float64 (complex128) and rounded once to the array's dtype; float32 steps differ by an ulp
    wide = x.device.supports(dt.float64)
    work = (dt.complex128 if wide else x.dtype) if x.dtype.kind == "c" else dt.float64 if wide else (
        x.dtype if x.dtype.kind == "f" else dt.float32)
    for ax, (before, after) in enumerate(widths):
        if not before and not after:
            continue
        n = x.shape[ax]
        left = _ramp(x, ax, _take(x, ax, 0, 1), ends[ax][0], before, work)
        right = _ramp(x, ax, _take(x, ax, n - 1, n), ends[ax][1], after, work)
        x = concatenate([left, x, _take(right, ax, None, None, -1)], axis=ax)
    return x


def _ramp(x: Array, ax: int, edge: Array, end: Any, width: int, work: dt.DType) -> Array:
    from kdsl.frontend.array.creation import arange
    from kdsl.frontend.array.math import floor
    from kdsl.frontend.array.ops import where
    from kdsl.frontend.array.reductions import any as reduce_any

    shape = [1] * x.ndim
    shape[ax] = width
    i = arange(width, dtype=work).reshape(tuple(shape))
    start = np.asarray(end).item()
    delta = edge.astype(work) - start
    step = delta / width
    # NumPy's linspace: y = i * step + start, but (i / width) * delta for every line when any step is 0
    ramp = where(reduce_any(step == 0), i / width * delta, i * step) + start
    if x.dtype.kind in "iu":  # NumPy's linspace floors for integer dtypes; bool takes any nonzero as True
        ramp = floor(ramp)
    return ramp.astype(x.dtype)


def pad_reflect_odd(x: Array, widths: list[tuple[int, int]], mode: str) -> Array:
    """``reflect``/``symmetric`` with ``reflect_type='odd'``: NumPy's chunked reflection, each chunk the mirror
    image of the values padded so far, ``2 * edge - mirror``; a single-element axis repeats its edge."""
    for ax, (before, after) in enumerate(widths):
        if not before and not after:
            continue
        n = x.shape[ax]
        if n == 1:
            x = concatenate([_spread(x, ax, x, before), x, _spread(x, ax, x, after)], axis=ax)
            continue
        x = _reflect_axis(x, ax, before, after, n, mode == "symmetric")
    return x


def _reflect_axis(x: Array, ax: int, left: int, right: int, period: int, include_edge: bool) -> Array:
    """NumPy's loop: each round adds one chunk per side, at most as long as the whole periods padded so far."""
    while left > 0 or right > 0:
        length = x.shape[ax]
        if include_edge:
            usable, offset = length // period * period, 1
        else:
            usable, offset = (length - 1) // (period - 1) * (period - 1), 0
        if left > 0:
            k = min(usable, left)
            chunk = _take(x, ax, k - offset, None if offset else 0, -1)
            # each chunk is written into the padded array as NumPy's is: bool arithmetic's ints go back to bool
            x = concatenate([(2 * _take(x, ax, 0, 1) - chunk).astype(x.dtype), x], axis=ax)
            left -= k
        if right > 0:
            k = min(usable, right)
            v = x.shape[ax]
            stop = v - 1 + offset - k - 1
            chunk = _take(x, ax, v - 2 + offset, stop if stop >= 0 else None, -1)
            x = concatenate([x, (2 * _take(x, ax, v - 1, v) - chunk).astype(x.dtype)], axis=ax)
            right -= k
    return x


def pad_callable(x: Array, widths: list[tuple[int, int]], function: Callable, kwargs: dict) -> Array:
    """A callable mode: ``function(line, (before, after), axis, kwargs)`` on every 1-D line of the zero-padded
    array, along each axis in turn; it writes into ``line`` (a kdsl view), as NumPy's."""
    from kdsl.frontend.array.padding import pad

    padded = pad(x, widths, mode="constant")
    for ax in range(padded.ndim):
        view = moveaxis(padded, ax, -1)
        for index in itertools.product(*(range(n) for n in view.shape[:-1])):
            function(view[index + (Ellipsis,)], widths[ax], ax, kwargs)
    return padded
