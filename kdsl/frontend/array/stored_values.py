"""A value stored into an array (``a[...] = v``, ``a.fill(v)``, ``put``, ``place``...), as NumPy checks and casts
it: Python scalars must fit the array's dtype (a float into an int array finite and in range, NumPy's
``OverflowError``/``ValueError``), a Python complex into a real array is a TypeError, NumPy scalars follow their
own rules, and complex values into a real array warn ``ComplexWarning``.

Example:
    >>> import kdsl as kd
    >>> checked_value(2.0, kd.zeros(3, dtype=kd.int8)).tolist()
    2
    >>> checked_value(300.5, kd.zeros(3, dtype=kd.int8))
    Traceback (most recent call last):
    ...
    OverflowError: Python integer 300 out of bounds for int8
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from kdsl.dtype import promotion
from kdsl.frontend.array import complex_math, ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray


def checked_value(value, a: Array, basic: bool = False) -> Array:
    """An assigned value as an Array of ``a``'s dtype on its device (NumPy's assignment rules for scalars).
    ``basic``: the store is by a basic index (ints, slices: ``a[0] = v``, ``a[:] = v``, ``a.fill(v)``), where
    NumPy also checks a NumPy integer scalar against a signed integer array (its masks, index arrays, ``put``
    and unsigned arrays wrap it)."""
    dev = a.device
    value = stored_scalar(value, a, basic)
    python = not isinstance(value, np.generic)
    if python and isinstance(value, (bool, int, float)):
        return Array(ops.const_node(value, a.dtype, dev))
    if python and isinstance(value, complex):  # NumPy: TypeError storing a Python complex into a real array
        if a.dtype.kind != "c":
            raise TypeError(f"cannot store the complex number {value!r} in a {a.dtype.name} array; store its real "
                            "part (value.real) or make the array complex")
        return Array(ops.const_node(value, a.dtype, dev))
    if isinstance(value, (list, tuple)):  # Python data converts straight to a's dtype (NumPy refuses 2**40)
        value = asarray(value, dtype=a.dtype, device=dev)
    v = ops.as_operand(value, dev)
    complex_math.warn_discarded_imag(v.dtype, a.dtype)  # a real a[...] = complex values: NumPy's ComplexWarning
    return Array(ops.cast_node(v._node, a.dtype))


def stored_scalar(value, a: Array, basic: bool = False):
    """A scalar ``value`` (anything else as it is) as NumPy stores it into ``a``, checked as NumPy checks it
    (:func:`checked_value`'s rules; nothing is built or uploaded): text parsed, None as NaN/False, NaN, inf and
    out-of-range numbers into integers NumPy's errors.

    >>> import kdsl as kd, numpy as np
    >>> stored_scalar(None, kd.zeros(2)), stored_scalar(np.int64(300), kd.zeros(2, dtype=kd.uint8))
    (nan, np.int64(300))
    """
    if isinstance(value, (str, bytes)):  # NumPy parses text ('5', b'1e3'; 'a' is its ValueError): NumPy does it
        value = _parsed_text(value, a)
    # np.float64 / np.complex128 subclass float / complex, but NumPy stores NumPy scalars by their own rules: a
    # float scalar into a signed int array is checked as a Python float, into an unsigned one cast unsafely (a
    # uint8 a[...] = np.float64(300.5) stores 44, as astype); both then take the typed path of checked_value
    if value is None:  # NumPy converts None as float(None) would: NaN, False for bools, a TypeError for ints
        value = _none_value(a)
    python = not isinstance(value, np.generic)
    if python and isinstance(value, numbers.Number) and not isinstance(value, (bool, int, float, complex)):
        value = _plain_number(value, a)  # a Fraction, a Decimal: NumPy converts the object itself
    if python and isinstance(value, complex) and a.dtype.kind == "b":
        value = bool(value)  # NumPy stores a complex number's truth into a bool array (0j: False)
    if not python and isinstance(value, np.floating) and a.dtype.kind == "i":
        _checked_scalar(float(value), a)
    if not python and basic and isinstance(value, np.integer) and a.dtype.kind == "i":
        _in_range(int(value), a)  # NumPy's signed setitem converts the scalar to a Python int first
    if python and isinstance(value, (bool, int, float)):
        return _checked_scalar(value, a)
    return value


def _plain_number(value: numbers.Number, a: Array) -> bool | int | float | complex:
    """A number of another Python type (``Fraction``, ``Decimal``) as NumPy stores the object into ``a``: its
    ``int()`` into integer arrays (truncated; ``Decimal('NaN')`` is Python's ValueError), ``float()`` into float
    arrays, ``complex()`` into complex ones, its truth into bool ones.

    >>> import kdsl as kd
    >>> from fractions import Fraction
    >>> _plain_number(Fraction(7, 2), kd.zeros(2, dtype=kd.int8)), _plain_number(Fraction(7, 2), kd.zeros(2))
    (3, 3.5)
    """
    kind = a.dtype.kind
    convert: Any = bool if kind == "b" else int if kind in "iu" else complex if kind == "c" else float
    return convert(value)


def _parsed_text(value: str | bytes, a: Array) -> np.generic:
    """A string stored into ``a`` as NumPy stores it: parsed into a scalar of ``a``'s dtype (``'5'`` is 5, a bool
    array takes the string's truth), with NumPy's ValueError/OverflowError for text that is no such number.

    >>> import kdsl as kd
    >>> _parsed_text(" 7 ", kd.zeros(2, dtype=kd.int32)), _parsed_text("", kd.zeros(2, dtype=kd.bool_))
    (np.int32(7), np.False_)
    """
    host = np.zeros(1, a.dtype.np)
    host[0] = value  # NumPy's own parsing and errors
    return host[0]


def _checked_scalar(value, a: Array):
    """A Python float stored into an int array must be a finite number in range (NumPy's errors)."""
    if isinstance(value, float) and a.dtype.is_int:
        if math.isnan(value):
            raise ValueError(f"cannot convert float NaN to integer (storing into a {a.dtype.name} array)")
        if math.isinf(value):
            raise OverflowError(f"cannot convert float infinity to integer (storing into a {a.dtype.name} array)")
        _in_range(int(value), a)  # NumPy converts to a Python int, then checks it
    return value


def _in_range(value: int, a: Array) -> None:
    """NumPy's OverflowError for an int that ``a``'s integer dtype cannot hold."""
    if not promotion.can_hold(a.dtype, value):
        raise OverflowError(f"Python integer {value} out of bounds for {a.dtype.name}")


def _none_value(a: Array):
    """``a[i] = None`` as NumPy stores it: NaN into float and complex arrays, False into bool ones; integers
    have no NaN (NumPy's TypeError)."""
    if a.dtype.kind == "c":
        return complex(math.nan, math.nan)
    if a.dtype.kind == "f":
        return math.nan
    if a.dtype.kind == "b":
        return False
    raise TypeError(f"int() argument must be a string, a bytes-like object or a real number, not 'NoneType' "
                    f"(storing None into a {a.dtype.name} array; use a float array for missing values)")


def check_fill_value(value, a: Array) -> None:
    """``a.fill(value)`` takes one scalar, as NumPy's (it does not broadcast): a sequence or an array of size
    more than one is its ValueError ("setting an array element with a sequence"; a Python sequence into an
    integer or complex array: TypeError, NumPy's int() / complex() of it).

    >>> import kdsl as kd
    >>> check_fill_value([1, 2], kd.zeros(3))
    Traceback (most recent call last):
    ...
    ValueError: setting an array element with a sequence. a.fill takes one scalar; use a[...] = values to broadcast
    """
    python = isinstance(value, (list, tuple))
    if not python and (np.ndim(value) == 0 or a.dtype.kind == "b" and np.size(value) == 1):
        return  # NumPy also takes a one-element array into a bool array (its truth value)
    if python and a.dtype.kind == "b":
        return  # NumPy stores the sequence's truth value (bool([1, 2])): the store below broadcasts it
    if a.dtype.kind == "c" or python and a.dtype.kind in "iu":
        raise TypeError(f"{'complex' if a.dtype.kind == 'c' else 'int'}() argument must be a number, not "
                        f"'{type(value).__name__}'; a.fill takes one scalar (a[...] = values broadcasts)")
    raise ValueError("setting an array element with a sequence. a.fill takes one scalar; use a[...] = values to "
                     "broadcast")
