"""``arange``'s arguments as NumPy reads them: the positional and keyword forms (:func:`bounds`), the length
(:func:`length`, NumPy's errors for NaN and infinite ranges) and the dtype typed NumPy bounds give
(:func:`typed_dtype`) or an integer range needs (:func:`int_dtype`).

Example:
    >>> bounds((2, 11, 3), NOT_GIVEN, NOT_GIVEN, NOT_GIVEN, NOT_GIVEN), length(2, 11, 3)
    ((2, 11, 3, None), 3)
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.shape_arguments import MAX_SIZE


def length(start, stop, step) -> int:
    """``ceil((stop - start) / step)``, at least 0, with NumPy's ValueErrors where that is NaN ("cannot compute
    length") or infinite ("Maximum allowed size exceeded"); an infinite step alone gives one value, as NumPy's."""
    if any(isinstance(v, (float, np.floating)) for v in (start, stop, step)):
        with np.errstate(all="ignore"):
            q = (np.float64(stop) - np.float64(start)) / np.float64(step)
        if math.isnan(q):
            raise ValueError("arange: cannot compute length")
        if math.isinf(q):
            raise ValueError("Maximum allowed size exceeded")
        n = max(0, math.ceil(q))
    else:
        # ceil((stop - start) / step) exactly, in Python ints (NumPy integer bounds would wrap and leak into shapes)
        n = max(0, -((int(start) - int(stop)) // int(step)))
    if n > MAX_SIZE:  # arange(2**64): NumPy's length is an intp
        raise ValueError("Maximum allowed size exceeded")
    return n


def typed_dtype(values: tuple) -> dt.DType | None:
    """NumPy's dtype for an arange with typed NumPy bounds (np.float64(2.0), np.int8(3), 0-d arrays): the result
    type of the bounds as arrays (Python ints count as int64, floats as float64: ``arange(np.float32(1), 3)`` is
    float64); None for plain Python numbers and kdsl arrays, which keep kdsl's defaults."""
    if not any(isinstance(v, (np.generic, np.ndarray)) for v in values):
        return None
    return dt.as_dtype(np.result_type(*(v.dtype.np if isinstance(v, Array) else np.asarray(v) for v in values)))


NOT_GIVEN: Any = object()  # tells ``arange(start=4)`` (an error) from ``arange(4)``


def bounds(args: tuple, start: Any, stop: Any, step: Any, dtype: Any) -> tuple[Any, Any, Any, Any]:
    """``(start, stop, step, dtype)`` from arange's NumPy forms: ``arange([start,] stop[, step][, dtype])``
    positionally or by keyword. One bound alone is the stop, but only when it is positional or named ``stop``
    (NumPy's TypeError for ``arange(start=4)``)."""
    if len(args) > 4:
        raise TypeError(f"arange() takes from 0 to 4 positional arguments but {len(args)} were given")
    given = [start, stop, step, dtype]
    for i, v in enumerate(args):
        if given[i] is not NOT_GIVEN:
            name = ("start", "stop", "step", "dtype")[i]
            raise TypeError(f"argument for arange() given by name ('{name}') and position (position {i})")
        given[i] = v
    start, stop, step, dtype = (None if v is NOT_GIVEN else v for v in given)
    if stop is None:
        if start is None or not args:  # nothing, or only ``start=`` by keyword
            raise TypeError("arange() requires stop to be specified.")
        start, stop = 0, start
    start, step = (0 if start is None else start), (1 if step is None else step)
    _refuse_dates((start, stop, step), dtype)
    for v in (start, stop, step):  # (before any int() of a bound: arange("a") is NumPy's TypeError)
        if not isinstance(v, (numbers.Number, np.generic, np.ndarray, Array)) or isinstance(v, (str, bytes)):
            raise TypeError(f"arange() not supported for inputs of type {type(v).__name__}; give numbers")
    return start, stop, step, dtype


def _refuse_dates(values: tuple, dtype: Any) -> None:
    """A range of dates (numpy-100 #34, ``arange('2016-07', '2016-08', dtype='datetime64[D]')``, or datetime64
    bounds) raises the datetime dtype's TypeError, which names the kdsl way (int64 counts of a unit)."""
    dated = [v.dtype for v in values if isinstance(v, (np.datetime64, np.timedelta64))]
    if isinstance(dtype, (str, np.dtype)) or (isinstance(dtype, type) and issubclass(dtype, np.generic)):
        try:
            npd = np.dtype(dtype)
        except TypeError:  # not a NumPy dtype name: as_dtype below reports it
            npd = None
        if npd is not None and npd.kind in "mM":
            dated.insert(0, npd)
    if dated:
        dt.as_dtype(dated[0])  # raises


def int_dtype(d: dt.DType | None, values: tuple, device) -> dt.DType:
    """The default integer dtype of an arange: int32, or int64 when a bound or the step is past int32's range
    (NumPy's default integer is int64, so its ranges there hold the exact values)."""
    if d is not None:
        return d
    if any(abs(int(v)) >= 1 << 31 for v in values):
        return current_device(device).check(dt.int64)
    return dt.default_int
