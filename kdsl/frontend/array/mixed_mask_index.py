"""A boolean mask among integer index arrays (``X[rows[:, None], mask]``, ``a[mask, idx] = v``, two masks)
or after ints and slices (``a[0, :, mask]``): NumPy reads each mask as the integer indices of its true
elements (``mask.nonzero()``, one array per mask axis) and broadcasts them with the other index arrays (an int
among them is one too). The key is rewritten that way; indexing then goes the
integer-array paths. A kdsl mask's ``nonzero`` reads its count back (the result's shape depends on the data).

Example:
    >>> import kdsl as kd
    >>> X = kd.arange(12).reshape(3, 4)
    >>> X[kd.array([0, 2])[:, None], kd.array([True, False, True, False])].tolist()
    [[0, 2], [8, 10]]
"""

from __future__ import annotations

import numpy as np

from kdsl.frontend.array import masks
from kdsl.frontend.array.array import Array


def _is_index_array(k) -> bool:
    return isinstance(k, (Array, np.ndarray, list)) and not masks.is_mask(k)


def expand(key) -> tuple | None:
    """``key`` with each boolean mask replaced by its nonzero indices (NumPy's combined advanced indexing),
    for the keys with a mask that the mask paths before it leave (another index array or mask, or ints and
    slices before the mask); None for a key without a mask."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(map(masks.is_mask, items)):
        return None
    out: list = []
    for k in items:
        if not masks.is_mask(k):
            out.append(k)
        elif isinstance(k, Array):
            out.extend(masks.nonzero(k))
        else:  # a NumPy mask or a list of bools: its indices are host data, checked as index arrays are
            out.extend(np.nonzero(np.asarray(k)))
    return tuple(out)
