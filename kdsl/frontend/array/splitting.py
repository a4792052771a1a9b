"""Splitting an array into pieces (views): ``split``, ``array_split`` (unequal pieces allowed), ``hsplit``,
``vsplit``, ``dsplit``, and the array API's ``unstack``.

Example:
    >>> import kdsl as kd
    >>> [p.tolist() for p in array_split(kd.arange(5), 2)], len(unstack(kd.zeros((3, 2))))
    ([[0, 1, 2], [3, 4]], 3)
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.joining import take_slice
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.frontend.array.shape_ops import moveaxis

__all__ = ["split", "array_split", "hsplit", "vsplit", "dsplit", "unstack"]


class ZeroSectionsError(ValueError, ZeroDivisionError):
    """``split(a, 0)``: NumPy's ``split`` fails with ZeroDivisionError (its ``n % 0``), ``array_split`` with
    ValueError; one class that is both keeps either ``except`` working and says what is wrong."""


def _split_index(i: Any) -> int:
    """One split index: an integer (NumPy slices at it, so a float is its TypeError)."""
    try:
        return operator.index(i)
    except TypeError:
        raise TypeError(f"slice indices must be integers or None or have an __index__ method; split index {i!r} "
                        "is not an integer") from None


def _bounds(n: int, indices_or_sections: Any, equal: bool) -> list[tuple[int, int]]:
    indices_or_sections = host_length(indices_or_sections)
    count = indices_or_sections
    if not isinstance(count, (int, np.integer)) and not hasattr(count, "__len__"):
        # NumPy takes a count that is no sequence as int(count) (2.0 is 2, None its TypeError), split after its
        # own test n % count on the value given (split(arange(5), 2.5) gives 2 pieces)
        if equal and count == 0:
            raise ZeroSectionsError("number sections must be larger than 0.")
        if equal and n % count:
            raise ValueError(f"array split does not result in an equal division: {n} into {count}")
        indices_or_sections, equal = int(count), False
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise (ZeroSectionsError if equal and sections == 0 else ValueError)(
                "number sections must be larger than 0.")
        if equal and n % sections:
            raise ValueError(f"array split does not result in an equal division: {n} into {sections}")
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        cuts = [0, *np.cumsum(sizes).tolist()]
    else:
        idx = [_split_index(i) for i in indices_or_sections]
        cuts = [0, *idx, n]
    out = []
    for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
        lo2 = min(max(lo + n if lo < 0 else lo, 0), n)
        hi2 = min(max(hi + n if hi < 0 else hi, 0), n)
        out.append((lo2, max(hi2, lo2)))
    return out



def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """Split into pieces (views) along ``axis``: ``n`` pieces as equal as possible (the first ones one longer),
    or at the given indices.

    >>> import kdsl as kd
    >>> [p.tolist() for p in kd.array_split(kd.arange(5), 3)]
    [[0, 1], [2, 3], [4]]
    """
    a = as_array(ary)
    ax = mv.normalize_axis(axis, a.ndim)
    return [take_slice(a, ax, lo, hi) for lo, hi in _bounds(a.shape[ax], indices_or_sections, equal=False)]



def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """Like :func:`array_split`, but ``n`` sections must divide the axis exactly (ValueError otherwise)."""
    a = as_array(ary)
    ax = mv.normalize_axis(axis, a.ndim)
    return [take_slice(a, ax, lo, hi) for lo, hi in _bounds(a.shape[ax], indices_or_sections, equal=True)]



def hsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """:func:`split` along axis 1 (axis 0 for 1-d arrays)."""
    a = as_array(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, axis=1 if a.ndim > 1 else 0)



def vsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """:func:`split` along axis 0 of an array of at least 2 dimensions."""
    a = as_array(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, axis=0)



def dsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """:func:`split` along axis 2 of an array of at least 3 dimensions."""
    a = as_array(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, axis=2)



def unstack(x: Any, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis`` (views), as a tuple (the array API standard's ``unstack``).

    >>> import kdsl as kd
    >>> [u.tolist() for u in kd.unstack(kd.arange(4).reshape(2, 2), axis=1)]
    [[0, 2], [1, 3]]
    """
    a = as_array(x)
    if a.ndim == 0:
        raise ValueError("unstack needs an array of at least one dimension")
    m = moveaxis(a, mv.normalize_axis(axis, a.ndim), 0)
    return tuple(m[i] for i in range(m.shape[0]))
