"""A boolean mask among integer index arrays (``X[rows[:, None], mask]``, ``a[mask, idx] = v``, two masks)
or after ints and slices (``a[0, :, mask]``): NumPy reads each mask as the integer indices of its true
elements (``mask.nonzero()``, one array per mask axis) and broadcasts them with the other index arrays (an int
among them is one too). The key is rewritten that way; indexing then goes the integer-array paths. So is a
key whose mask NumPy reads as *separated* from its other advanced indices by a slice, ``None`` or ``...``
(``x[:, mask, 1:, 0]``: the selection's axis goes first, not where the mask is). A kdsl mask's ``nonzero``
reads its count back (the result's shape depends on the data).

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


def _advanced(k) -> bool:
    return isinstance(k, (Array, np.ndarray, list)) or (isinstance(k, (int, np.integer)) and
                                                        not isinstance(k, (bool, np.bool_)))


def separated(key) -> bool:
    """Whether ``key`` holds a mask, its advanced indices (masks, index arrays and the ints among them) are not
    adjacent (a slice, ``None`` or ``...`` between two of them, even an ``...`` of no axes), and a slice, ``None``
    or ``...`` comes before the first: NumPy puts the selection's axes first there, where the mask paths keep
    them in the mask's place (``x[:, m, 1:5, 0]``: NumPy's shape ``(m.sum(), x.shape[0], 4)``).

    >>> import numpy as np
    >>> m = np.array([True, False, True])
    >>> separated((slice(None), m, slice(1, 5), 0)), separated((slice(None), m, 0)), separated((m, slice(None), 0))
    (True, False, False)
    """
    items = key if isinstance(key, tuple) else (key,)
    if not any(map(masks.is_mask, items)):
        return False
    at = [i for i, k in enumerate(items) if _advanced(k)]
    return at != list(range(at[0], at[-1] + 1)) and not all(map(_advanced, items[:at[0]]))


def _check_shapes(items: tuple, shape: tuple[int, ...]) -> None:
    """NumPy's IndexError for a mask whose shape is not that of the axes it indexes (a boolean axis of length 0
    stands for any length, as in NumPy): its nonzero indices would otherwise index them silently."""
    spare = len(shape) - sum(int(np.ndim(k)) if masks.is_mask(k) else 1 for k in items
                             if k is not None and k is not Ellipsis)
    axis = 0
    for k in items:
        if k is Ellipsis:
            axis += max(spare, 0)
        elif masks.is_mask(k):
            dims = tuple(k.shape) if isinstance(k, Array) else np.shape(k)
            for i, m in enumerate(dims):
                n = shape[axis + i] if axis + i < len(shape) else None
                if n is not None and m not in (n, 0):
                    raise IndexError(f"boolean index did not match indexed array along axis {axis + i}; size of "
                                     f"axis is {n} but size of corresponding boolean axis is {m}")
            axis += len(dims)
        elif k is not None:
            axis += 1


def expand(key, shape: tuple[int, ...]) -> tuple | None:
    """``key`` with each boolean mask replaced by its nonzero indices (NumPy's combined advanced indexing),
    for the keys with a mask that the mask paths before it leave (another index array or mask, or ints and
    slices before the mask); None for a key without a mask. Each mask must have the shape of the axes of
    ``shape`` (the indexed array's) it stands for, as NumPy checks."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(map(masks.is_mask, items)):
        return None
    _check_shapes(items, shape)
    out: list = []
    for k in items:
        if not masks.is_mask(k):
            out.append(k)
        elif isinstance(k, Array):
            out.extend(masks.nonzero(k))
        else:  # a NumPy mask or a list of bools: its indices are host data, checked as index arrays are
            out.extend(np.nonzero(np.asarray(k)))
    return tuple(out)
