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
