"""A boolean mask in a key with ``...`` or ``None`` (``X[..., keep]``, ``img[..., alpha > 0] = 0``,
``a[None, mask]``): the Ellipsis becomes the full slices it stands for (a mask spans ``mask.ndim`` axes) and each
``None`` a new axis of the array (a view), so the key reaches the mask paths (``a[:, mask]``...) as NumPy
reads it.

Example:
    >>> import kdsl as kd
    >>> x = kd.arange(12).reshape(2, 6)
    >>> x[..., kd.asarray([True, False, True, False, False, True])].tolist()
    [[0, 2, 5], [6, 8, 11]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array import masks
from kdsl.frontend.array.array import Array


def _consumed(k: Any) -> int:
    """How many axes of the array one key item indexes (a mask: its dimensions)."""
    return int(np.ndim(k)) if masks.is_mask(k) else 1


def expand(a: Array, key: Any) -> tuple[Array, tuple] | None:
    """``(b, k)`` with ``b[k]`` equal to ``a[key]`` and neither ``...`` nor ``None`` in ``k`` (``b`` is ``a``,
    or a view of it with the new axes), when the key holds a boolean mask and ``...`` or ``None``; None for
    other keys (and for those NumPy refuses: the usual path raises its IndexError)."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(map(masks.is_mask, items)) or not any(k is Ellipsis or k is None for k in items):
        return None
    spare = a.ndim - sum(_consumed(k) for k in items if k is not Ellipsis and k is not None)
    if sum(k is Ellipsis for k in items) > 1 or spare < 0:
        return None
    full: list = []
    for k in items:
        full.extend([slice(None)] * spare if k is Ellipsis else [k])
    if not any(k is None for k in full):
        return a, tuple(full)
    axes: list = []
    for k in full:  # each None a new axis of length 1, the other items' axes kept whole
        axes.extend([None] if k is None else [slice(None)] * _consumed(k))
    return a[tuple(axes)], tuple(slice(None) if k is None else k for k in full)
