"""NumPy's limits on an index key: at most 64 dimensions in the result and at most 64 advanced indices.

``a[(None,) * 65]`` or ``a[(True,) * 65]`` would build arrays of more dimensions than NumPy (and kdsl's graph)
allows; NumPy raises IndexError before indexing, so kdsl checks the key the same way instead of failing later
with the ValueError of an oversized array.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.ir.graph import MAX_DIMS


def _scalar_bool(k: Any) -> bool:
    return isinstance(k, (bool, np.bool_))


def check(key: Any, ndim: int) -> None:
    """IndexError, as NumPy's, for a key with more than 64 scalar booleans (each one an advanced index) or one of
    ints, slices, ``None``, ``...`` and booleans whose result would have more than 64 dimensions."""
    entries = key if isinstance(key, tuple) else (key,)
    if ndim + len(entries) <= MAX_DIMS:  # the result has at most ndim + len(key) dimensions: the usual key
        return
    booleans = sum(1 for k in entries if _scalar_bool(k))
    if booleans > MAX_DIMS:
        raise IndexError(f"too many advanced (array) indices. This probably means you are indexing with too many "
                         f"booleans. (more than {MAX_DIMS} found)")
    simple = (slice, int, np.integer, bool, np.bool_)
    if not all(k is None or k is Ellipsis or isinstance(k, simple) for k in entries):
        return  # index arrays: their result shapes are checked where the arrays are read
    ints = sum(1 for k in entries if isinstance(k, (int, np.integer)) and not _scalar_bool(k))
    slices = sum(1 for k in entries if isinstance(k, slice))
    if ints + slices > ndim:
        return  # "too many indices": raised where the key is applied
    result = ndim - ints + sum(1 for k in entries if k is None) + (1 if booleans else 0)
    if result > MAX_DIMS:
        raise IndexError(f"number of dimensions must be within [0, {MAX_DIMS}], indexing result would have {result}")


def _dims_indexed(k: Any) -> int:
    """How many of the array's dimensions one key item indexes: a boolean array all of its own, ``None``, ``...``
    and scalar booleans none, anything else one."""
    if k is None or k is Ellipsis or _scalar_bool(k):
        return 0
    if isinstance(k, list):
        host = np.asarray(k) if k and not any(hasattr(x, "_node") for x in k) else None  # (no device reads)
        return host.ndim if host is not None and host.dtype == np.bool_ else 1
    if hasattr(k, "dtype") and hasattr(k, "ndim") and k.dtype == np.bool_:
        return int(k.ndim)
    return 1


def check_indexed(key: Any, shape: tuple[int, ...]) -> None:
    """NumPy's errors about a whole key, raised before any index array is read: more indexed dimensions than the
    array has (a mask counting its own, ``a[[0], mask, :]`` of a 2-d array: IndexError), then a slice of step 0
    (ValueError; after an int out of bounds or a mask of the wrong shape, which NumPy meets first), so that
    neither is hidden behind an index array's bounds or a value's shape.

    >>> check_indexed(([0], np.array([True, False]), slice(None)), (2, 2))
    Traceback (most recent call last):
    ...
    IndexError: too many indices for array: array is 2-dimensional, but 3 were indexed
    """
    entries = key if isinstance(key, tuple) else (key,)
    used = sum(map(_dims_indexed, entries))
    if used > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, but {used} were indexed")
    if any(isinstance(k, slice) and isinstance(k.step, (int, np.integer)) and k.step == 0 for k in entries):
        _check_ints_and_masks(entries, shape, used)
        raise ValueError("slice step cannot be zero")


def _check_ints_and_masks(entries: tuple, shape: tuple[int, ...], used: int) -> None:
    """NumPy's IndexError for an int out of bounds or a host mask of the wrong shape in ``entries``."""
    axis = 0
    for k in entries:
        if k is Ellipsis:
            axis += len(shape) - used
            continue
        n = _dims_indexed(k)
        host = np.asarray(k) if isinstance(k, (int, np.integer, np.ndarray, list)) and not _scalar_bool(k) else None
        if host is not None and n == 1 and host.ndim == 0 and not -shape[axis] <= int(host) < shape[axis]:
            raise IndexError(f"index {int(host)} is out of bounds for axis {axis} with size {shape[axis]}")
        if host is not None and n > 0 and host.dtype == np.bool_:
            for i, (m, size) in enumerate(zip(np.shape(host), shape[axis:axis + n], strict=True)):
                if m != size:
                    raise IndexError(f"boolean index did not match indexed array along axis {axis + i}; size of "
                                     f"axis is {size} but size of corresponding boolean axis is {m}")
        axis += n
