"""``kd.ma``'s constants: ``nomask``, ``masked``, ``MaskError``, ``MAError``, ``MaskType`` and NumPy's default,
minimum and maximum fill values.

``nomask`` and ``masked`` are NumPy's own objects (``kd.ma.masked is np.ma.masked``), so code written for
``numpy.ma`` that tests ``x is np.ma.masked`` or ``m is np.ma.nomask`` keeps working on kdsl's results.

Example:
    >>> import kdsl as kd
    >>> kd.ma.nomask == False, str(kd.ma.masked), default_fill_value(kd.float32)
    (np.True_, '--', 1e+20)
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd

nomask = np.ma.nomask  # NumPy's False of the mask dtype: "nothing is masked"
masked = np.ma.masked  # NumPy's masked constant: a masked scalar result
MaskError = np.ma.MaskError
MAError = np.ma.MAError  # MaskError's base class, NumPy's own
MaskType = kd.bool_  # the dtype of masks (NumPy: np.bool)
bool_ = kd.bool_  # (numpy.ma re-exports NumPy's bool type under this name)
masked_singleton = masked  # numpy.ma's other name of ``masked``
masked_print_option = np.ma.masked_print_option  # how a masked entry prints ('--'), NumPy's own object


def numpy_dtype(dtype: Any) -> np.dtype:
    """The NumPy dtype of a kdsl or NumPy dtype (metadata only)."""
    return np.dtype(getattr(dtype, "np", dtype))  # a kdsl DType carries its NumPy dtype as .np


def default_fill_value(obj: Any) -> Any:
    """NumPy's default fill value of ``obj``'s dtype (1e20 for floats, 999999 for integers, True for bool);
    ``obj`` is a dtype, an array (kdsl's, NumPy's, masked) or a scalar, as NumPy takes it.

    >>> import kdsl as kd
    >>> default_fill_value(1.0), default_fill_value(kd.asarray([1, 2])), default_fill_value(True)
    (1e+20, 999999, True)
    """
    return np.ma.default_fill_value(np.empty(0, _dtype_of(obj)))


def fill_scalar(value: Any, dtype: Any, checked: bool = False) -> Any:
    """``value`` as a Python scalar that fits ``dtype`` (wrapped as NumPy casts it), for ``kd.where``; text is
    NumPy's TypeError (a fill value of a numeric array is a number). ``checked`` (a fill value the user gave):
    a Python number ``dtype`` cannot hold (300 or -1 for uint8, NaN for an integer) is NumPy's TypeError, where
    NumPy scalars and arrays still wrap as NumPy casts them."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"Cannot set fill value of string with array of dtype {numpy_dtype(dtype)}; use a number")
    if checked and isinstance(value, (int, float)) and not isinstance(value, np.generic):
        try:
            with np.errstate(over="ignore"):  # 1e300 into float32 (kdsl's default float) is inf, not an error
                np.asarray(value, dtype=numpy_dtype(dtype))
        except (OverflowError, ValueError):
            raise TypeError(f"Cannot convert fill_value {value} to dtype {numpy_dtype(dtype)}") from None
    with np.errstate(all="ignore"):
        return np.asarray(value).astype(numpy_dtype(dtype)).item()


def extreme_fill(dtype: Any, largest: bool) -> Any:
    """The value a masked entry takes for ``min`` (``largest``) or ``max``: the dtype's extreme (inf for floats)."""
    d = numpy_dtype(dtype)
    if d.kind == "b":
        return largest
    if d.kind in "fc":
        return float("inf") if largest else float("-inf")
    info = np.iinfo(d)
    return int(info.max if largest else info.min)


def _dtype_of(obj: Any) -> np.dtype:
    """The NumPy dtype of an array (its ``dtype``), of a dtype, or of a scalar or list (NumPy's dtype for it:
    ``np.ma.default_fill_value(1.0)`` asks about a Python float)."""
    dtype = getattr(obj, "dtype", None)
    if dtype is not None:
        return numpy_dtype(dtype)
    try:
        return numpy_dtype(obj)
    except TypeError:  # "Cannot interpret '1.0' as a data type": a value, not a dtype
        return np.asarray(obj).dtype


def minimum_fill_value(obj: Any) -> Any:
    """NumPy's ``np.ma.minimum_fill_value``: what a masked entry takes for a minimum, the largest value of the
    dtype of ``obj`` (an array, a masked array or a dtype): inf for floats."""
    return np.ma.minimum_fill_value(np.empty(0, _dtype_of(obj)))


def maximum_fill_value(obj: Any) -> Any:
    """NumPy's ``np.ma.maximum_fill_value``: the smallest value of the dtype of ``obj``: -inf for floats."""
    return np.ma.maximum_fill_value(np.empty(0, _dtype_of(obj)))
