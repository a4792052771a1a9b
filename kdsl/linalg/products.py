"""The linalg extension's products and views, built on kdsl's array operations (the matmul kernel, fused
elementwise and reduction kernels): ``matmul``, ``matrix_transpose``, ``outer``, ``tensordot``, ``vecdot``,
``cross``, ``diagonal``, ``trace``, ``matrix_power``, ``multi_dot``. ``diagonal`` and ``trace`` act on the
last two axes (the array API's rule; ``kd.diagonal``/``kd.trace`` follow NumPy's axes 0 and 1).

Example:
    >>> import kdsl as kd
    >>> cross(kd.asarray([1.0, 0.0, 0.0]), kd.asarray([0.0, 1.0, 0.0])).tolist()
    [0.0, 0.0, 1.0]
    >>> matrix_power(kd.asarray([[1, 1], [0, 1]]), 3).tolist()
    [[1, 3], [0, 1]]
"""

from __future__ import annotations

import operator

import numpy as np

import kdsl as kd
from kdsl.linalg.common import LinAlgError, as_array, check_matrices
from kdsl.linalg.derivatives import inv  # (differentiable: negative powers get gradients)


def matmul(x1, x2, /) -> kd.Array:
    """Matrix product (NumPy's ``matmul`` rules), as ``x1 @ x2``."""
    return kd.matmul(x1, x2)


def matrix_transpose(x, /) -> kd.Array:
    """Swap the last two axes of a stack of matrices."""
    a = as_array(x)
    if a.ndim < 2:  # NumPy's message
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {a.ndim}")
    return kd.matrix_transpose(a)


def outer(x1, x2, /) -> kd.Array:
    """Outer product of two 1-d arrays (the array API requires 1-d; NumPy's flattens)."""
    a, b = as_array(x1), as_array(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={a.ndim} and "
                         f"x2.ndim={b.ndim}.")  # NumPy's message (kd.outer flattens instead)
    return kd.outer(a, b)


def tensordot(x1, x2, /, *, axes=2) -> kd.Array:
    """Sum of products over the last ``axes`` axes of ``x1`` and the first of ``x2`` (or given axis pairs)."""
    return kd.tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis: int = -1) -> kd.Array:
    """Dot products of vectors along ``axis``, broadcasting the others."""
    return kd.vecdot(x1, x2, axis=axis)


def cross(x1, x2, /, *, axis: int = -1) -> kd.Array:
    """Cross product of 3-element vectors along ``axis``, broadcasting the other axes."""
    a, b = as_array(x1), as_array(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("cross: inputs must have at least one dimension")
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{a.shape[axis]} and {b.shape[axis]} dimensional instead.")  # NumPy's message
    a, b = kd.moveaxis(a, axis, -1), kd.moveaxis(b, axis, -1)
    a, b = kd.broadcast_arrays(a, b)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = kd.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return kd.moveaxis(out, -1, axis)


def _at_least_2d(a: kd.Array) -> kd.Array:
    """``a``, or NumPy's ValueError (not LinAlgError: its ``diagonal`` and ``trace`` are ``np.diagonal``'s) for
    fewer than two dimensions."""
    if a.ndim < 2:
        raise ValueError(f"diag requires an array of at least two dimensions; this one has {a.ndim}: pass a "
                         f"matrix or a stack of them")
    return a


def diagonal(x, /, *, offset: int = 0) -> kd.Array:
    """The ``offset`` diagonal of each matrix of the stack ``x`` (last two axes)."""
    a = _at_least_2d(as_array(x))
    check_matrices(a, "diagonal", square=False)
    return kd.diagonal(a, offset, -2, -1)


def trace(x, /, *, offset: int = 0, dtype=None) -> kd.Array:
    """Sum of the ``offset`` diagonal of each matrix of the stack ``x`` (last two axes)."""
    a = _at_least_2d(as_array(x))
    check_matrices(a, "trace", square=False)
    return kd.sum(kd.diagonal(a, offset, -2, -1), axis=-1, dtype=dtype)


def matrix_power(a, n: int) -> kd.Array:
    """``x`` multiplied by itself ``n`` times (binary powering); ``n = 0`` gives identities, ``n < 0`` powers
    of the inverse."""
    if isinstance(n, (bool, np.bool_)) or not hasattr(n, "__index__"):
        raise TypeError(f"matrix_power: exponent must be an integer, got {type(n).__name__}")
    try:
        n = operator.index(n)  # np.int64, a 0-d integer array, as NumPy takes them
    except TypeError:
        raise TypeError(f"matrix_power: exponent must be an integer, got {type(n).__name__}") from None
    a = as_array(a)
    check_matrices(a, "matrix_power")
    if n == 0:
        return kd.asarray(kd.broadcast_to(kd.eye(a.shape[-1], dtype=a.dtype), a.shape), copy=True)
    if n < 0:
        a, n = inv(a), -n
    while not n & 1:  # a**(2k) = (a*a)**k
        a, n = kd.matmul(a, a), n >> 1
    result, n = a, n >> 1
    while n:
        a = kd.matmul(a, a)
        if n & 1:
            result = kd.matmul(result, a)
        n >>= 1
    return result


def multi_dot(arrays, *, out=None) -> kd.Array:
    """The product of a chain of matrices in the cheapest order (dynamic programming over the split points,
    as NumPy); the first and last may be 1-d. As NumPy's, two arrays are ``dot``'s, and a chain of three or more
    that is not 2-d raises LinAlgError.

    >>> import kdsl as kd
    >>> kd.linalg.multi_dot([kd.ones((2, 3)), kd.ones((3, 4)), kd.ones(4)]).tolist()
    [12.0, 12.0]
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array of its shape
        result = multi_dot(arrays)
        if not isinstance(out, kd.Array) or out.shape != result.shape:
            raise ValueError(f"multi_dot: out must be a kdsl array of shape {result.shape}, got {out!r:.60}")
        out[...] = result
        return out
    mats = [as_array(a) for a in arrays]
    if len(mats) < 2:
        raise ValueError("multi_dot: expecting at least two arrays")
    if len(mats) == 2:  # NumPy's multi_dot of two arrays is their dot, whatever their dimensions
        return kd.dot(mats[0], mats[1])
    first_1d, last_1d = mats[0].ndim == 1, mats[-1].ndim == 1
    if first_1d:
        mats[0] = mats[0][None, :]
    if last_1d:
        mats[-1] = mats[-1][:, None]
    for i, m in enumerate(mats):
        if m.ndim != 2:
            raise LinAlgError(f"{m.ndim}-dimensional array given. Array must be two-dimensional (multi_dot: "
                              f"array {i}; only the first and last may be 1-d)")
    result = _chain(mats, _order([m.shape[0] for m in mats] + [mats[-1].shape[1]]), 0, len(mats) - 1)
    if first_1d:
        result = result[0]
    if last_1d:
        result = result[..., 0]
    return result


def _order(dims: list[int]) -> list[list[int]]:
    """Split points of the cheapest parenthesisation (the textbook matrix-chain dynamic programme)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(mats: list[kd.Array], split: list[list[int]], i: int, j: int) -> kd.Array:
    if i == j:
        return mats[i]
    k = split[i][j]
    return kd.dot(_chain(mats, split, i, k), _chain(mats, split, k + 1, j))  # NumPy's errors: dot's


__all__ = ["cross", "diagonal", "matmul", "matrix_power", "matrix_transpose", "multi_dot", "outer", "tensordot",
           "trace", "vecdot"]
