"""Python loops over arrays: NumPy's ``ndindex``, ``ndenumerate`` and ``iterable``.

``ndindex`` needs no data: it counts index tuples on the host. ``ndenumerate`` yields each value, so it reads
the whole array back to the host once, at the start (one download, not one per element), and yields NumPy
scalars as NumPy's does. Loops like these are for small arrays; for work on the values, whole-array kdsl
expressions run on the device.

Example:
    >>> import kdsl as kd
    >>> list(kd.ndindex(2, 2))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    >>> [(i, int(v)) for i, v in kd.ndenumerate(kd.asarray([[5, 6]]))]
    [((0, 0), 5), ((0, 1), 6)]
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array


class ndindex:  # noqa: N801 - NumPy's name
    """Every index of an array of ``shape``, in C order (NumPy's ``np.ndindex``: ``ndindex(2, 3)`` or
    ``ndindex((2, 3))``; a 0-d shape gives one empty tuple).

    >>> import kdsl as kd
    >>> list(kd.ndindex((1, 3)))
    [(0, 0), (0, 1), (0, 2)]
    """

    def __init__(self, *shape: Any) -> None:
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        dims = tuple(operator.index(n) for n in shape)
        if any(n < 0 for n in dims):
            raise ValueError(f"negative dimensions are not allowed: {dims}")
        self.shape = dims
        self._it = itertools.product(*[range(n) for n in dims])

    def __iter__(self) -> ndindex:
        return self

    def __next__(self) -> tuple[int, ...]:
        return next(self._it)


class ndenumerate:  # noqa: N801 - NumPy's name
    """``(index, value)`` pairs of an array in C order (NumPy's ``np.ndenumerate``); a kdsl array is read back
    once when the iterator is made.

    >>> import kdsl as kd
    >>> next(iter(kd.ndenumerate(kd.arange(3) * 2)))
    ((0,), np.int32(0))
    """

    def __init__(self, arr: Any) -> None:
        self._it: Iterator[tuple[tuple[int, ...], Any]] = np.ndenumerate(
            arr.numpy() if isinstance(arr, Array) else np.asarray(arr))

    def __iter__(self) -> ndenumerate:
        return self

    def __next__(self) -> tuple[tuple[int, ...], Any]:
        return next(self._it)


def iterable(y: Any) -> bool:
    """Whether ``iter(y)`` works (NumPy's ``np.iterable``): True for lists and arrays with axes, False for
    scalars and 0-d arrays.

    >>> import kdsl as kd
    >>> kd.iterable(kd.arange(3)), kd.iterable(kd.asarray(1.0)), kd.iterable([1]), kd.iterable(2)
    (True, False, True, False)
    """
    try:
        iter(y)
    except TypeError:
        return False
    return True
