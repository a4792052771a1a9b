"""NumPy's ``tensorinv`` and ``tensorsolve``: the tensor problems reshaped to one square matrix and handed
to :func:`kdsl.linalg.inv` / :func:`kdsl.linalg.solve` (LU on the device; metadata work only here).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.eye(6).reshape(6, 2, 3))
    >>> tensorinv(a, ind=1).shape
    (2, 3, 6)
"""

from __future__ import annotations

import math
from typing import Any

import kdsl as kd
from kdsl.linalg.common import LinAlgError, as_array
from kdsl.linalg.derivatives import inv, solve  # (differentiable)


def tensorinv(a: Any, ind: int = 2) -> kd.Array:
    """The inverse of ``a`` for ``tensordot(.., ind)``: ``a`` reshaped to a square matrix of its first
    ``ind`` axes by the rest, inverted, and shaped ``a.shape[ind:] + a.shape[:ind]``. Raises
    :class:`LinAlgError` when the matrix is not square or singular."""
    x = as_array(a)
    if not isinstance(ind, int) or ind <= 0:
        raise ValueError(f"Invalid ind argument: {ind!r}; give a positive number of leading axes")
    rows = math.prod(x.shape[ind:])
    if rows == 0 or x.size % rows:
        raise LinAlgError(f"tensorinv: a of shape {x.shape} does not reshape to a square matrix with ind={ind}")
    matrix = x.reshape(rows, x.size // rows)
    if matrix.shape[0] != matrix.shape[1]:
        raise LinAlgError(f"tensorinv: prod(a.shape[:ind]) must equal prod(a.shape[ind:]); got shape {x.shape} "
                          f"with ind={ind}")
    return inv(matrix).reshape(x.shape[ind:] + x.shape[:ind])


def tensorsolve(a: Any, b: Any, axes: Any = None) -> kd.Array:
    """The ``x`` with ``tensordot(a, x, axes=x.ndim) == b``: ``a``'s axes ``axes`` (if given) are moved
    to the end first, then ``a`` is solved as a square matrix of ``b.shape`` by the remaining axes."""
    x, y = as_array(a), as_array(b)
    if axes is not None:
        order = list(range(x.ndim))
        for k in axes:
            order.remove(k % x.ndim)
            order.append(k % x.ndim)
        x = kd.permute_dims(x, tuple(order))
    shape = x.shape[y.ndim:]
    size = math.prod(shape)
    if x.size != size * size:
        raise LinAlgError("Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == "
                          f"prod(a.shape[:b.ndim]); got a of shape {x.shape} and b of shape {y.shape}")
    return solve(x.reshape(size, size), y.reshape(-1)).reshape(shape)


__all__ = ["tensorinv", "tensorsolve"]
