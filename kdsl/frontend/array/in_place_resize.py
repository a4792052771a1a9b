"""NumPy's ``ndarray.resize(new_shape)``: the array itself takes the new shape, its elements read in C order,
cut short or followed by zeros (lazy: a flatten, a slice or a zero pad, a reshape).

NumPy's ``refcheck`` (refuse when other references to the array exist) is simplified: kdsl cannot see who
references an array, so ``refcheck`` is accepted and ignored; like NumPy, an array that does not own its data
(a view: ``a.base is not None``) cannot be resized (ValueError), nor can a read-only one.

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(4)
    >>> a.resize((2, 3))
    >>> a.tolist()
    [[0, 1, 2], [3, 0, 0]]
"""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def _shape(new_shape: tuple[Any, ...]) -> tuple[int, ...]:
    given = new_shape[0] if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)) else new_shape
    shape = tuple(operator.index(n) for n in given)
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions not allowed")
    return shape


def resize(a: Array, *new_shape: Any, refcheck: bool = True) -> None:
    """Give ``a`` the shape ``new_shape`` in place (C order; new elements are zero)."""
    from kdsl.frontend.array.array_flags import check_writeable
    from kdsl.frontend.array.padding import pad  # cycle: that module builds Arrays

    if not new_shape or new_shape == (None,):  # NumPy's a.resize() and a.resize(None): nothing to do
        return
    shape = _shape(new_shape)
    if a._parent is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    check_writeable(a, "cannot resize this array: it is read-only")
    size = math.prod(shape)
    flat = a.reshape(a.size)
    flat = flat[:size] if size <= a.size else pad(flat, (0, size - a.size))
    a._node = flat.reshape(shape)._node


__all__ = ["resize"]
