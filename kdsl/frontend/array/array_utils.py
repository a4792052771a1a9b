"""``kd.lib.array_utils``: NumPy 2's ``np.lib.array_utils`` (``normalize_axis_index``, ``normalize_axis_tuple``,
``byte_bounds``), also importable as ``kdsl.lib.array_utils``.

A kdsl array lives in device memory, so it has no host address: ``byte_bounds`` gives each array that owns its
data a range of its own in a made-up address space (distinct owners never overlap; the same owner always gets
the same range while it lives), and a view the part of its owner's range NumPy's view would span. So the usual
uses work as with NumPy: comparing the bounds of two arrays tells whether they may overlap, and
``high - low == a.nbytes`` whether a view is contiguous. A NumPy array (or anything with
``__array_interface__``) gets its real addresses, from NumPy.

Example:
    >>> import kdsl as kd
    >>> normalize_axis_index(-1, 3), normalize_axis_tuple([0, -1], 3)
    (2, (0, 2))
    >>> a = kd.zeros((3, 4), dtype=kd.float32)
    >>> low, high = byte_bounds(a)
    >>> high - low, [b - low for b in byte_bounds(a[1:, ::2])]
    (48, [16, 44])
"""

from __future__ import annotations

import itertools
import operator
import weakref
from typing import Any

import numpy as np


def normalize_axis_index(axis: Any, ndim: Any, msg_prefix: str | None = None) -> int:
    """``axis`` as an index in ``range(ndim)`` (a negative one counts from the end), or NumPy's ``AxisError``
    (a ValueError and an IndexError) whose message starts with ``msg_prefix``.

    >>> normalize_axis_index(-3, 3), normalize_axis_index(1, 2)
    (0, 1)
    >>> normalize_axis_index(2, 2, msg_prefix="axes")
    Traceback (most recent call last):
    ...
    numpy.exceptions.AxisError: axes: axis 2 is out of bounds for array of dimension 2
    """
    if isinstance(axis, float):  # NumPy's message for a Python float (or np.float64, a float subclass)
        raise TypeError("integer argument expected, got float")
    index, n = operator.index(axis), operator.index(ndim)
    if not -n <= index < n:
        raise np.exceptions.AxisError(index, n, msg_prefix)
    return index + n if index < 0 else index


def normalize_axis_tuple(axis: Any, ndim: int, argname: str | None = None,
                         allow_duplicate: bool = False) -> tuple[int, ...]:
    """``axis`` (an int or an iterable of ints) as a tuple of indices in ``range(ndim)``; ``AxisError`` for one
    out of range and ``ValueError`` for one given twice (unless ``allow_duplicate``), their messages naming
    ``argname``.

    >>> normalize_axis_tuple(-1, 2), normalize_axis_tuple((0, 0), 2, allow_duplicate=True)
    ((1,), (0, 0))
    >>> normalize_axis_tuple((1, -1), 2, argname="axes")
    Traceback (most recent call last):
    ...
    ValueError: repeated axis in `axes` argument
    """
    if not isinstance(axis, (tuple, list)):
        try:
            axis = (operator.index(axis),)
        except TypeError:  # an iterable of axes (a range, an array); anything else fails on iteration below
            pass
    axes = tuple(normalize_axis_index(ax, ndim, argname) for ax in axis)
    if not allow_duplicate and len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    return axes


_GAP = 1 << 12  # made-up addresses: owners lie this far apart (and start aligned to it)
_next_address = itertools.count(1 << 44, _GAP)
_addresses: dict[int, int] = {}  # id(owner) -> its made-up address, while the owner lives


def _address(owner: Any) -> int:
    """The made-up address of the kdsl array ``owner``'s first byte."""
    key = id(owner)
    found = _addresses.get(key)
    if found is None:
        found = next(_next_address)
        for _ in range(max(owner.nbytes, 1) // _GAP):  # a large owner takes as many gaps as its bytes need
            next(_next_address)
        _addresses[key] = found
        weakref.finalize(owner, _addresses.pop, key, None)
    return found


def byte_bounds(a: Any) -> tuple[int, int]:
    """``(low, high)``: the address of the first byte of ``a``'s data and one past its last (NumPy's
    ``byte_bounds``); for a kdsl array in a made-up address space (see the module docstring).

    >>> import kdsl as kd
    >>> x = kd.arange(10, dtype=kd.int32)
    >>> low, high = byte_bounds(x[::-2])
    >>> low - byte_bounds(x)[0], high - low
    (4, 36)
    """
    from kdsl.frontend.array.array import Array  # cycle: the array package imports this module's namespace
    from kdsl.frontend.array.array_flags import base_of
    from kdsl.frontend.array.constant_layout import layout

    if not isinstance(a, Array):
        return _numpy_byte_bounds(a)
    node = a._n
    if node.op in ("real", "imag") and a._parent is not None:  # a complex array's parts: every other word of it
        low, high = byte_bounds(a._parent[0])
        part = a.dtype.itemsize
        return (low, high - part) if node.op == "real" else (low + part, high)
    base = base_of(a)
    owner = a if base is None else base
    start, size = _address(owner), a.dtype.itemsize
    view = layout(a)
    if view is None:  # an owner, or a view that starts at the owner's first element in C order
        return start, start + a.size * size
    if a.size == 0:
        return start + view.offset * size, start + view.offset * size
    reach = [s * (n - 1) for n, s in zip(a.shape, view.strides, strict=True)]
    low = view.offset + sum(r for r in reach if r < 0)
    high = view.offset + sum(r for r in reach if r > 0) + 1
    return start + low * size, start + high * size


def _numpy_byte_bounds(a: Any) -> tuple[int, int]:
    """NumPy's answer for a NumPy array or anything with ``__array_interface__``."""
    lib: Any = getattr(np.lib, "array_utils", np)  # NumPy 2, or 1.x's np.byte_bounds
    return lib.byte_bounds(a)


__all__ = ["byte_bounds", "normalize_axis_index", "normalize_axis_tuple"]
