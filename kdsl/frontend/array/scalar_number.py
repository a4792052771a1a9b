"""A 0-d array as the number protocols of ``statistics``, ``fractions`` and ``math`` see it: the methods a NumPy
scalar has beyond ``float()``/``int()``/``round()`` (``scalar_like.py``, ``array_host.py``).

* ``as_integer_ratio()`` of a real floating 0-d array (NumPy's floating scalars have it; its integers do not),
* ``is_integer()`` of a real floating or integer 0-d array (NumPy 2's scalars),
* ``numerator`` and ``denominator`` of an integer 0-d array (NumPy's integers are ``numbers.Integral``),
* ``Array(number)``: ``statistics`` converts its exact result back with ``type(x)(value)``, as it does for a
  ``np.float32``; a number (a ``Fraction`` included) gives a 0-d array of it (a non-integral ``Fraction`` as
  a float: NumPy's integer scalars truncate it, ``statistics.mean([np.int64(1), np.int64(2)])`` is 1; kdsl's
  is 1.5, as Python ints give).

On an array that is not 0-d, or of a dtype whose NumPy scalar lacks the method, the name raises
``AttributeError`` (so ``hasattr`` and ``statistics``' fallbacks see what they would see with NumPy).

Example:
    >>> import statistics, kdsl as kd
    >>> a = kd.asarray([1.5, 2.25, 4.0])
    >>> statistics.mean([a.min(), a.max()]).item(), a.max().is_integer(), a.min().as_integer_ratio()
    (2.75, True, (3, 2))
"""

from __future__ import annotations

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


def _as_integer_ratio(self: Any) -> Callable[[], tuple[int, int]]:
    """The exact ratio of integers of a 0-d floating array's value (``float.as_integer_ratio``; OverflowError
    for an infinity, ValueError for NaN)."""
    _check(self, "f", "as_integer_ratio")
    return lambda: self.item().as_integer_ratio()


def _is_integer(self: Any) -> Callable[[], bool]:
    """Whether a 0-d floating or integer array holds an integral value (NumPy 2's ``is_integer``)."""
    _check(self, "fiu", "is_integer")
    return lambda: self.dtype.kind != "f" or self.item().is_integer()


def _numerator(self: Any) -> int:
    """An integer 0-d array's value (``numbers.Integral``'s ``numerator``; a Python int, which ``Fraction``
    takes: NumPy's is the scalar itself, a registered ``numbers.Integral``)."""
    _check(self, "iu", "numerator")
    return self.item()


def _denominator(self: Any) -> int:
    """1, for an integer 0-d array (``numbers.Integral``'s ``denominator``)."""
    _check(self, "iu", "denominator")
    return 1


# Properties, so that where NumPy's scalar lacks the name ``hasattr`` is False (statistics tries one, then the other)
as_integer_ratio, is_integer = property(_as_integer_ratio), property(_is_integer)
numerator, denominator = property(_numerator), property(_denominator)


def number_node(value: Any) -> Node:
    """The node of ``Array(value)`` for a number ``value``: a 0-d array of it (``kd.asarray``'s dtype rules)."""
    from kdsl.frontend.array.creation import asarray  # cycle: creation builds Arrays

    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if not isinstance(value, (bool, int, float, complex, np.bool_, np.number)):
        raise TypeError(f"Array() takes a graph node or a number, not {type(value).__name__}; use kd.asarray(x) "
                        "to make an array")
    return asarray(value)._n


__all__ = ["as_integer_ratio", "denominator", "is_integer", "number_node", "numerator"]
