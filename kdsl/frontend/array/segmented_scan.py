"""The segmented inclusive scan: each run of equal (sorted) keys scanned on its own, so a run's fold depends on
its own values only (the scatter paths of ``ufunc.at`` and ``bincount``'s weighted sums build on it).

Example:
    >>> import kdsl as kd
    >>> segmented_scan(kd.add, kd.asarray([1.0, 2.0, 3.0]), kd.asarray([0, 0, 1])).tolist()
    [1.0, 3.0, 3.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.joining import concatenate


def segmented_scan(fn: Callable[..., Any], values: Array, keys: Array) -> Array:
    """The inclusive scan by ``fn`` of each run of equal ``keys`` (sorted, 1-D) over ``values``, earlier values
    on the left: Hillis-Steele doubling, one lazy step per power of two below the length.

    >>> import kdsl as kd
    >>> segmented_scan(kd.multiply, kd.asarray([2, 3, 4, 5]), kd.asarray([0, 0, 1, 1])).tolist()
    [2, 6, 4, 20]
    """
    y, k, m = values, 1, values.shape[0]
    while k < m:
        same = keys[k:] == keys[:-k]
        y = concatenate([y[:k], km.where(same, fn(y[:-k], y[k:]), y[k:]).astype(y.dtype)])
        k *= 2
    return y


__all__ = ["segmented_scan"]
