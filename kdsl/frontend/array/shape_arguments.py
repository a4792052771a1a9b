"""Shape and length arguments as NumPy reads them: ints or sequences of ints (``operator.index``: floats are
refused), and 0-d integer arrays (``k = y.max() + 1``, kdsl's or NumPy's) as the Python ints they hold.

Example:
    >>> import kdsl as kd
    >>> as_shape(3), int_tuple([2, kd.asarray(4)]), host_length(kd.asarray(5))
    ((3,), (2, 4), 5)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.movement import length_index

# NumPy's sizes are C ``npy_intp``s: no length, element count or byte count may pass this
MAX_SIZE = int(np.iinfo(np.intp).max)


def as_shape(shape) -> tuple[int, ...]:
    """A shape argument as a tuple of ints (ints only, as NumPy: ``zeros(1.5)`` and ``zeros("3")`` are errors)."""
    if shape.__class__ is int and 0 <= shape <= MAX_SIZE:  # ``zeros(n)``: no conversions to make
        return (shape,)
    try:
        shape = int_tuple(shape)  # (a 0-d integer array is one length, as NumPy's scalars are)
    except TypeError:
        raise TypeError(f"shape must be an int or a tuple of ints, got {shape!r}") from None
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    if any(n > MAX_SIZE for n in shape):
        raise ValueError("Maximum allowed dimension exceeded")
    return shape


def check_nbytes(shape: tuple[int, ...], itemsize: int) -> None:
    """NumPy's ValueError for an array whose byte count passes ``MAX_SIZE`` (``zeros([975] * 7, int8)``): kdsl
    makes such constants lazily, so without this the error came from some later kernel, or never. As NumPy's
    check, the lengths other than 0 count: ``zeros((2**62, 0, 2**62))`` is too big there too."""
    total = itemsize
    for n in shape:
        total *= n or 1
        if total > MAX_SIZE:
            raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                             "possible size.")



def int_tuple(value: Any, *, bools: bool = False) -> tuple[int, ...]:
    """An int, or a sequence of them, as a tuple of ints (``operator.index``: TypeError for floats). A 0-d
    integer array (``kd.sum(mask)``, NumPy's too) is one int, as NumPy reads it: iterating it would fail.
    Booleans are a TypeError, as in NumPy's shapes, unless ``bools`` (``tile``'s counts take them, as NumPy's)."""
    value = host_length(value)
    scalar = not isinstance(value, Iterable) or getattr(value, "ndim", None) == 0
    index = _count if bools else length_index
    return (index(value),) if scalar else tuple(index(n) for n in value)



def _count(n: Any) -> int:
    return int(n) if isinstance(n, np.bool_) else operator.index(n)  # np.bool_ has no __index__; NumPy counts it


def host_ints(value: Any) -> Any:
    """A 1-d array (NumPy's or kdsl's) given where a sequence of ints goes (``a.reshape(dims)``,
    ``a.transpose(order)``, ``np.moveaxis(a, src, dst)``) as a list of its elements, read back at once (a kdsl
    array's values decide a shape: a host read); anything else as it is (the caller checks it).

    >>> import kdsl as kd
    >>> host_ints(kd.asarray([2, 3])), host_ints((2, 3)), host_ints(4)
    ([2, 3], (2, 3), 4)
    """
    if isinstance(value, (Array, np.ndarray)) and value.ndim == 1:
        return value.tolist()
    return value



def host_length(v: Any) -> Any:
    """A length given as a 0-d integer array (kdsl's ``k = y.max() + 1``, read back as NumPy's scalar would be,
    or NumPy's) as a Python int; anything else as it is (the caller checks it)."""
    if isinstance(v, Array) and v.ndim == 0 and v.dtype.is_int and v.dtype is not dt.bool_:
        return operator.index(v)
    if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iu":
        return operator.index(v)
    return v
