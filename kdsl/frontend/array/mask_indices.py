"""NumPy's ``mask_indices``: the indices where a masking function (``kd.triu``, ``kd.tril``, ...) keeps the
entries of an ``n x n`` array of ones.

The mask is lazy; its indices come from :func:`kdsl.nonzero`, which reads back how many there are (the result's
length depends on the function).

Example:
    >>> import kdsl as kd
    >>> rows, cols = kd.mask_indices(3, kd.triu, 1)
    >>> rows.tolist(), cols.tolist()
    ([0, 0, 1], [1, 2, 2])
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, ones
from kdsl.frontend.array.masks import nonzero


def mask_indices(n: int, mask_func: Callable[[Array, Any], Any], k: Any = 0) -> tuple[Array, ...]:
    """The indices of the nonzero entries of ``mask_func(ones((n, n)), k)`` (NumPy's ``np.mask_indices``;
    int64 index arrays, usable as ``a[kd.mask_indices(n, kd.triu)]``).

    >>> import kdsl as kd
    >>> [x.tolist() for x in kd.mask_indices(2, kd.tril)]
    [[0, 1, 1], [0, 0, 1]]
    """
    n = operator.index(n)
    mask = asarray(mask_func(ones((n, n), dtype=dt.int64), k))
    return nonzero(mask != 0)
