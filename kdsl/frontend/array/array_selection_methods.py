"""Array's indexing, sorting and selection methods: ``a[key]`` and ``a[key] = value``, ``a.sort()`` and
``a.partition()`` (in place), ``a.argsort()``, ``a.searchsorted()``, ``a.take()``, ``a.put()``, ``a.choose()``,
``a.repeat()``, ``a.diagonal()``, ``a.trace()``, ``a.compress()``. These functions are :class:`Array`'s methods;
each imports its module when called (those modules build Arrays).

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([3, 1, 2])
    >>> a.argsort().tolist(), a.take([0, 2]).tolist()
    ([1, 2, 0], [3, 2])
    >>> a.sort(); a.tolist()
    [1, 2, 3]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def repeat(self, repeats, axis: int | None = None) -> Array:
    from kdsl.frontend.array.joining import repeat  # cycle: that module builds Arrays

    return repeat(self, repeats, axis)


def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    from kdsl.frontend.array.constructors import diagonal  # cycle: that module builds Arrays

    return diagonal(self, offset, axis1, axis2)


def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None, out=None) -> Array:
    from kdsl.frontend.array.constructors import trace  # cycle: that module builds Arrays

    return trace(self, offset, axis1, axis2, dtype, out)


def compress(self, condition, axis: int | None = None, out=None) -> Array:
    from kdsl.frontend.array.masks import compress  # cycle: that module builds Arrays

    return compress(condition, self, axis, out)


def sort(self, axis: int | None = -1, kind=None, order=None, *, stable=None, descending: bool = False) -> None:
    """Sort in place along ``axis`` (stable, NaNs last), as ``ndarray.sort``; ``descending`` as the array
    API's (and newer NumPy's)."""
    from kdsl.frontend.array.sorting import sort  # cycle: that module builds Arrays

    if axis is None:
        raise np.exceptions.AxisError("axis=None sorts a flattened copy: use kd.sort(a, axis=None)")
    self[...] = sort(self, axis, kind, order, stable=stable, descending=descending)


def argsort(self, axis: int | None = -1, kind=None, order=None, *, stable=None, descending: bool = False) -> Array:
    from kdsl.frontend.array.sorting import argsort  # cycle: that module builds Arrays

    return argsort(self, axis, kind, order, stable=stable, descending=descending)


def partition(self, kth, axis: int = -1, kind: str = "introselect", order=None) -> None:
    """Partition in place around ``kth`` (see :func:`kdsl.partition`)."""
    from kdsl.frontend.array.sorting import partition  # cycle: that module builds Arrays

    self[...] = partition(self, kth, axis, kind, order)


def argpartition(self, kth, axis: int | None = -1, kind: str = "introselect", order=None) -> Array:
    from kdsl.frontend.array.sorting import argpartition  # cycle: that module builds Arrays

    return argpartition(self, kth, axis, kind, order)


def searchsorted(self, v, side: str = "left", sorter=None) -> Array:
    from kdsl.frontend.array.sorting import searchsorted  # cycle: that module builds Arrays

    return searchsorted(self, v, side, sorter)


def take(self, indices, axis: int | None = None, out=None, mode: str = "raise") -> Array:
    from kdsl.frontend.array.take import take  # cycle: that module builds Arrays

    return take(self, indices, axis, out, mode)


def put(self, indices, values, mode: str = "raise") -> None:
    """``kd.put(self, indices, values, mode)``: replace elements of the flattened array, in place."""
    from kdsl.frontend.array.put import put  # cycle: that module builds Arrays

    put(self, indices, values, mode)


def choose(self, *choices, out=None, mode: str = "raise") -> Array:
    """``kd.choose(self, choices, out, mode)``: this array's integers pick among ``choices``. As NumPy's
    method, several positional arguments are the choices themselves (``a.choose(c0, c1, c2)``); ``out`` and
    ``mode`` then go by keyword."""
    from kdsl.frontend.array.choose import choose  # cycle: that module builds Arrays

    if not choices:
        raise TypeError("choose() takes exactly 1 argument (0 given)")
    return choose(self, choices[0] if len(choices) == 1 else choices, out, mode)


def __getitem__(self, key) -> Array:
    from kdsl.frontend.array.indexing import getitem  # cycle: that module builds Arrays

    return getitem(self, key)


def __setitem__(self, key, value) -> None:
    from kdsl.frontend.array.array_flags import check_writeable
    from kdsl.frontend.array.indexing import setitem  # cycle: that module builds Arrays

    check_writeable(self)
    self._node = setitem(self, key, value)._n
    self._stored()  # a[0][1] = v, a.T[0] = v, row = a[0]; row[1] = v all reach a
