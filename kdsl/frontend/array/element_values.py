"""Sequences NumPy refuses in a basic store: ``a[i, j] = v`` with an integer for every axis stores one scalar (a
list or an array of one or more dimensions is NumPy's error there, not a broadcast), and a Python list stored into
a basic view may not nest deeper than the view has dimensions (``a[0:1] = [[3]]`` is NumPy's ValueError; the
array ``np.array([[3]])`` broadcasts).

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros((2, 2))
    >>> a[0, 1] = [3]
    Traceback (most recent call last):
    ...
    ValueError: setting an array element with a sequence. a[i, j] = v with an integer for every axis stores one \
scalar; store v[0] (or v.item()), or index with a slice (a[i, j:j+1] = v) to broadcast
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array

_HINT = ("a[i, j] = v with an integer for every axis stores one scalar; store v[0] (or v.item()), or index with "
         "a slice (a[i, j:j+1] = v) to broadcast")


def _is_int_index(k: Any) -> bool:
    """An integer that picks one position: a Python or NumPy int, or a 0-d integer array (NumPy takes those as
    ints when every index is one)."""
    if isinstance(k, (bool, np.bool_)):
        return False
    if isinstance(k, (int, np.integer)):
        return True
    return isinstance(k, (np.ndarray, Array)) and k.ndim == 0 and k.dtype.kind in "iu"


def is_element_key(key: Any, ndim: int) -> bool:
    """Whether ``key`` picks one element by integers alone (``a[1, 2]`` of a 2-d array, ``b[()]`` of a 0-d one;
    not ``a[..., 1, 2]``, whose 0-d result is a view NumPy broadcasts into)."""
    items = key if key.__class__ is tuple else (key,)
    return len(items) == ndim and all(map(_is_int_index, items))


def as_ints(key: Any) -> tuple:
    """An element key as a tuple of Python ints (a 0-d kdsl array is read back once)."""
    return tuple(int(k) for k in (key if key.__class__ is tuple else (key,)))


def is_sequence(value: Any) -> bool:
    """Whether ``value`` is a Python sequence or an array of one or more dimensions: what an element store
    checks (scalars and 0-d arrays store as they are)."""
    return isinstance(value, (list, tuple)) or (isinstance(value, (np.ndarray, Array)) and value.ndim > 0)


def element_value(value: Any, a: Array) -> Any:
    """``value`` stored into one element of ``a``, as NumPy converts it to a scalar of ``a``'s dtype: a bool array
    takes a Python sequence's truth value (``bool([0])`` is True) and a one-element array's value; any other
    sequence is NumPy's error (int and complex arrays: TypeError for what ``int()``/``complex()`` refuse).

    >>> import kdsl as kd, numpy as np
    >>> element_value([0], kd.zeros(2, dtype=kd.bool_)), element_value(np.array([2]), kd.zeros(2, dtype=kd.bool_))
    (True, array([2]))
    """
    kind, name = a.dtype.kind, type(value).__name__
    if isinstance(value, (list, tuple)):
        if kind == "b":  # NumPy's bool() of the object, as Python's truth of a sequence
            return bool(value)
        if kind in "iu":
            raise TypeError(f"int() argument must be a string, a bytes-like object or a real number, not '{name}'; "
                            + _HINT)
        if kind == "c":
            raise TypeError(f"must be real number, not {name}; " + _HINT)
        raise ValueError("setting an array element with a sequence. " + _HINT)
    if kind == "b" and value.size == 1:  # NumPy takes the truth of a one-element array
        return value
    if kind == "c":
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars; " + _HINT)
    raise ValueError("setting an array element with a sequence. " + _HINT)


def _depth(value: Any) -> int:
    """How deep a Python value nests: lists and tuples count a level each, an array inside its dimensions."""
    if isinstance(value, (list, tuple)):
        return 1 + (_depth(value[0]) if value else 0)
    return value.ndim if isinstance(value, (np.ndarray, Array)) else 0


def check_depth(value: Any, ndim: int) -> None:
    """NumPy's ValueError for a Python sequence stored into a basic view of ``ndim`` dimensions that nests
    deeper than that (NumPy converts it with at most ``ndim`` dimensions; an array value broadcasts instead).

    >>> check_depth([[1, 2]], 1)
    Traceback (most recent call last):
    ...
    ValueError: setting an array element with a sequence. The requested array would exceed the maximum number of \
dimension of 1. (a list stored into a view nests at most as deep as the view: drop its outer brackets)
    """
    if isinstance(value, (list, tuple)) and _depth(value) > ndim:
        raise ValueError(f"setting an array element with a sequence. The requested array would exceed the maximum "
                         f"number of dimension of {ndim}. (a list stored into a view nests at most as deep as the "
                         "view: drop its outer brackets)")
