"""A 0-d array as the number protocols of ``statistics``, ``fractions`` and ``math`` see it: the methods a NumPy
scalar has beyond ``float()``/``int()``/``round()`` (``scalar_like.py``, ``array_host.py``).

* ``as_integer_ratio()`` of a real floating 0-d array (NumPy's floating scalars have it; its integers do not),
* ``is_integer()`` of a real floating or integer 0-d array (NumPy 2's scalars),
* ``numerator`` and ``denominator`` of an integer 0-d array (NumPy's integers are ``numbers.Integral``),
* ``bit_count()`` of an integer 0-d array (NumPy's integer scalars, as Python's ``int.bit_count``: the ones of
  the absolute value, ``-5`` has 2),
* ``Array(number)``: ``statistics`` converts its exact result back with ``type(x)(value)``, as it does for a
  ``np.float32``. ``type(x)`` is the same class for every dtype, so the dtype is the one of the last 0-d array
  whose exact value (``as_integer_ratio``, ``numerator``) was read in this thread: ``statistics`` reads every
  data point's before it converts its result, so ``statistics.mean`` of float64 0-d arrays is float64, of
  float32 ones float32, and of int64 ones int64, truncated as NumPy's integer scalar truncates the exact mean
  (``statistics.mean([np.int64(1), np.int64(2)])`` is 1). With none read yet, ``kd.asarray``'s dtype.

On an array that is not 0-d, or of a dtype whose NumPy scalar lacks the method, the name raises
``AttributeError`` (so ``hasattr`` and ``statistics``' fallbacks see what they would see with NumPy).

Example:
    >>> import statistics, kdsl as kd
    >>> a = kd.asarray([1.5, 2.25, 4.0])
    >>> statistics.mean([a.min(), a.max()]).item(), a.max().is_integer(), a.min().as_integer_ratio()
    (2.75, True, (3, 2))
    >>> kd.asarray([3, 4]).sum().bit_count()
    3
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from kdsl.ir.graph import Node


def _check(self: Any, kinds: str, name: str) -> None:
    """The AttributeError of a missing attribute unless ``self`` is a 0-d array of a dtype kind in ``kinds``."""
    if self.ndim != 0 or self.dtype.kind not in kinds:
        what = f"{self.dtype.name} array" if self.ndim == 0 else f"{self.ndim}-d array"
        raise AttributeError(f"'Array' object ({what}) has no attribute {name!r}; NumPy's scalar of this kind has "
                             "none either (a 0-d floating array has as_integer_ratio, an integer one numerator)")


_last = threading.local()  # .dtype: the dtype of the last 0-d array whose exact value was read (Array(number))


def _as_integer_ratio(self: Any) -> Callable[[], tuple[int, int]]:
    """The exact ratio of integers of a 0-d floating array's value (``float.as_integer_ratio``; OverflowError
    for an infinity, ValueError for NaN)."""
    _check(self, "f", "as_integer_ratio")

    def ratio() -> tuple[int, int]:
        _last.dtype = self.dtype
        return self.item().as_integer_ratio()

    return ratio


def _is_integer(self: Any) -> Callable[[], bool]:
    """Whether a 0-d floating or integer array holds an integral value (NumPy 2's ``is_integer``)."""
    _check(self, "fiu", "is_integer")
    return lambda: self.dtype.kind != "f" or self.item().is_integer()


def _bit_count(self: Any) -> Callable[[], int]:
    """The number of ones in the binary absolute value of an integer 0-d array (``a.sum().bit_count()``)."""
    _check(self, "iu", "bit_count")
    return lambda: int(self.item()).bit_count()


def _numerator(self: Any) -> int:
    """An integer 0-d array's value (``numbers.Integral``'s ``numerator``; a Python int, which ``Fraction``
    takes: NumPy's is the scalar itself, a registered ``numbers.Integral``)."""
    _check(self, "iu", "numerator")
    _last.dtype = self.dtype
    return self.item()


def _denominator(self: Any) -> int:
    """1, for an integer 0-d array (``numbers.Integral``'s ``denominator``)."""
    _check(self, "iu", "denominator")
    return 1


# Properties, so that where NumPy's scalar lacks the name ``hasattr`` is False (statistics tries one, then the other)
as_integer_ratio, is_integer = property(_as_integer_ratio), property(_is_integer)
bit_count = property(_bit_count)
numerator, denominator = property(_numerator), property(_denominator)


def number_node(value: Any) -> Node:
    """The node of ``Array(value)`` for a number ``value``: a 0-d array of it (``kd.asarray``'s dtype rules)."""
    from kdsl.frontend.array.creation import asarray  # cycle: creation builds Arrays

    if not isinstance(value, (bool, int, float, complex, Fraction, np.bool_, np.number)):
        raise TypeError(f"Array() takes a graph node or a number, not {type(value).__name__}; use kd.asarray(x) "
                        "to make an array")
    dtype = getattr(_last, "dtype", None)
    if dtype is not None and dtype.kind in "iuf" and isinstance(value, (int, float, Fraction)):
        # the data's dtype (see the module docstring); an integer one truncates, as NumPy's integer scalars do
        try:
            return asarray(int(value) if dtype.kind in "iu" else float(value), dtype=dtype)._n
        except OverflowError:  # out of the integer dtype's range: asarray's dtype below
            pass
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    return asarray(value)._n


__all__ = ["as_integer_ratio", "bit_count", "denominator", "is_integer", "number_node", "numerator"]
