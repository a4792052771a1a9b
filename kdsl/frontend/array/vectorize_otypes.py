"""``vectorize``'s ``otypes`` cast with NumPy's checks for integer types.

NumPy's ``vectorize`` collects the function's values as Python objects and converts them to ``otypes`` with
``int(value)``'s rules: a value out of the integer type's range raises ``OverflowError`` (``Python integer 300
out of bounds for int8``), a NaN ``ValueError`` and an infinity ``OverflowError``, at the first such element in
C order; floats in range are truncated. kdsl's function values are whole arrays, whose ``astype`` wraps (C's
cast): so when the values' dtype does not fit ``otype``, one boolean, "is any value out of range", is read to
the host (the only way to match an error that depends on the data), and on the error path the first bad value.

Example:
    >>> import kdsl as kd
    >>> checked_cast(kd.asarray([1.7, -1.7]), kd.int8).tolist()
    [1, -1]
    >>> checked_cast(kd.asarray([1, 300]), kd.int8)
    Traceback (most recent call last):
    ...
    OverflowError: Python integer 300 out of bounds for int8
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.math import isnan, trunc

_C_LONG = "Python int too large to convert to C long"


def _fits(source: np.dtype, target: np.dtype) -> bool:
    """Whether every value of ``source`` converts to ``target`` without a range check (bool, float and complex
    targets take any real value; an integer target any narrower integer or bool)."""
    return target.kind not in "iu" or source.kind == "b" or (source.kind in "iu" and np.can_cast(source, target))


def host_error(value: Any, target: np.dtype) -> Exception | None:
    """The error NumPy's object-to-``target`` conversion raises for one value, or None where it converts.

    NumPy converts through a C long (values outside int64's range get CPython's message) except for uint32 and
    uint64, which take values from -2**63 up to 2**64 before their own range check.

    >>> host_error(300, np.dtype(np.int8))
    OverflowError('Python integer 300 out of bounds for int8')
    >>> host_error(float("nan"), np.dtype(np.int8))
    ValueError('cannot convert float NaN to integer')
    >>> host_error(127.9, np.dtype(np.int8)) is None
    True
    """
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return ValueError("cannot convert float NaN to integer")
        if math.isinf(value):
            return OverflowError("cannot convert float infinity to integer")
    number = int(value)
    info = np.iinfo(target)
    c_high = 2**64 if target.kind == "u" and target.itemsize >= 4 else 2**63
    if not -(2**63) <= number < c_high:
        return OverflowError(_C_LONG)
    if not info.min <= number <= info.max:
        return OverflowError(f"Python integer {number} out of bounds for {target}")
    return None


def _out_of_range(values: Array, target: np.dtype) -> Array:
    """Where ``values`` (integers or floats) do not convert to the integer ``target`` (NaN included)."""
    info = np.iinfo(target)
    if values.dtype.np.kind == "f":
        if values.dtype.np.itemsize < 4:  # float16 cannot hold int32's or int64's bounds: compare in float32
            values = values.astype(dt.float32)
        whole = trunc(values)  # int() truncates: -0.5 is 0 and converts to uint8
        # the bounds, -2**(n-1) or 0 and 2**(n-1) or 2**n, are powers of two: exact in float32 and float64
        return isnan(values) | (whole < float(info.min)) | (whole >= float(info.max + 1))
    source = np.iinfo(values.dtype.np)
    bad = values != values  # all False, of the values' shape
    if source.min < info.min:
        bad = bad | (values < info.min)
    if source.max > info.max:
        bad = bad | (values > info.max)
    return bad


def checked_cast(values: Array, otype: dt.DType) -> Array:
    """``values.astype(otype)``, raising NumPy's ``vectorize`` errors first where a value does not fit an
    integer ``otype`` (see the module docstring)."""
    target = otype.np
    if _fits(values.dtype.np, target) or values.dtype.np.kind == "c" or values.size == 0:
        return values.astype(otype)
    bad = _out_of_range(values, target)
    if bool(bad.any()):  # a host read: the error depends on the data
        flat = values.ravel()
        first = int(bad.ravel().argmax())
        error = host_error(flat[first].item(), target)
        assert error is not None, "the device's range check and the host's disagree"
        raise error
    return values.astype(otype)
