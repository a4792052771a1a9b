"""A boolean mask after slices, ``a[:, mask]`` and ``a[1:, mask, 0] = v``: NumPy's one advanced index that is
not on the leading axes. Both move the mask's axes first, use the leading-mask operations of :mod:`masks`
(``a[mask]``, ``a[mask] = v``) there, and move the axes back; the selected axis stays where the mask was.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(8.0).reshape(2, 4))
    >>> keep = np.array([True, False, True, False])
    >>> a[:, keep].tolist()
    [[0.0, 2.0], [4.0, 6.0]]
    >>> a[:, keep] = [[-1.0], [-2.0]]   # one value per row, broadcast over the selected columns
    >>> a.tolist()
    [[-1.0, 1.0, -1.0, 3.0], [-2.0, 5.0, -2.0, 7.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array import masks
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.stored_values import checked_value


def _mask_axes(b: Array, k: int, mask: Any) -> tuple[int, ...]:
    """The order that moves the mask's axes (``k`` on) of ``b`` first, after checking them as NumPy does."""
    shape = tuple(mask.shape) if isinstance(mask, Array) else np.shape(mask)
    depth = len(shape)
    if k + depth > b.ndim:
        raise IndexError(f"too many indices for array: array is {b.ndim}-dimensional, but {k + depth} were indexed")
    for i, (n, m) in enumerate(zip(b.shape[k:k + depth], shape, strict=True)):
        if n != m:
            raise IndexError(f"boolean index did not match indexed array along axis {k + i}; size of axis is {n} "
                             f"but size of corresponding boolean axis is {m}")
    return tuple(range(k, k + depth)) + tuple(range(k)) + tuple(range(k + depth, b.ndim))


def get(a: Array, lead: tuple, mask: Any, rest: tuple) -> Array:
    """``a[*lead, mask, *rest]`` for slices ``lead``: a copy whose selected axis sits where the mask was."""
    k = len(lead)
    b = a[lead]
    picked = masks.getmask(b.transpose(_mask_axes(b, k, mask)), mask, ())  # (count, lead axes, axes after)
    out = picked.transpose(tuple(range(1, k + 1)) + (0,) + tuple(range(k + 1, picked.ndim)))
    return out[(slice(None),) * (k + 1) + rest] if rest else out


def set(a: Array, lead: tuple, mask: Any, rest: tuple, value: Any) -> Array:  # noqa: A001 - get/set pair
    """``a`` with ``a[*lead, mask, *rest] = value`` (NumPy's broadcasting of ``value`` to the selection's shape
    ``(lead axes, count, axes after)``); lazy unless each selected element has a value of its own (then the
    mask is counted once, as ``a[mask] = v`` does)."""
    from kdsl.frontend.array.indexing import setitem  # cycle: indexing imports this module

    k = len(lead)
    depth = mask.ndim if isinstance(mask, Array) else np.ndim(mask)
    key = lead + (slice(None),) * depth + rest
    region = a[key]
    order = _mask_axes(region, k, mask)
    selected = region.ndim - depth + 1  # ndim of the selection: (lead axes, count, axes after)
    v = checked_value(value, region)
    vshape = v.shape  # NumPy's errors name the value's shape as given, not with its count axis moved first
    if v.ndim > selected:  # NumPy drops leading length-1 axes of a value with more axes than the selection
        if any(n != 1 for n in v.shape[:v.ndim - selected]):
            raise masks.mismatch(vshape, _selection(region, k, depth, mask))
        v = v.reshape(v.shape[v.ndim - selected:])
    v = v.reshape((1,) * (selected - v.ndim) + v.shape)
    v = v.transpose((k,) + tuple(range(k)) + tuple(range(k + 1, selected)))  # the count axis first
    try:
        moved = masks.setmask(region.transpose(order), mask, v)
    except ValueError as err:
        if not getattr(err, "selection_mismatch", False):
            raise
        raise masks.mismatch(vshape, _selection(region, k, depth, mask)) from None
    return setitem(a, key, moved.transpose(tuple(int(i) for i in np.argsort(order))))


def _selection(region: Array, k: int, depth: int, mask: Any) -> tuple[int, ...]:
    """The shape of ``region[*k slices, mask]``: (lead axes, count, axes after), for an error message (the
    count read back: an error pays one synchronisation)."""
    host = mask.numpy() if isinstance(mask, Array) else np.asarray(mask)
    return region.shape[:k] + (int(np.count_nonzero(host)),) + region.shape[k + depth:]
