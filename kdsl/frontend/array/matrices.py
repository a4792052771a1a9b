"""Building matrices: ``diagflat tri vander block``, NumPy's names and semantics. ``tri`` is a lazy generator
(nothing uploaded); ``vander`` a running product along each row; ``block`` joins nested lists of arrays with
:func:`kdsl.concatenate`, innermost lists along the last axis.

Example:
    >>> import kdsl as kd
    >>> kd.tri(3, dtype=kd.int32).tolist(), kd.vander(kd.asarray([1, 2, 3]), 3).tolist()
    ([[1, 0, 0], [1, 1, 0], [1, 1, 1]], [[1, 1, 1], [4, 2, 1], [9, 3, 1]])
    >>> a = kd.ones((2, 2), dtype=kd.int32)
    >>> kd.block([[a, 2 * a], [3 * a, 4 * a]]).tolist()
    [[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]]
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.constructors import diag
from kdsl.frontend.array.creation import as_array, iota, ones
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate, flip


def diagflat(v: Any, k: int = 0) -> Array:
    """A 2-d array with the flattened ``v`` on diagonal ``k`` (above the main one for ``k > 0``), zeros
    elsewhere.

    >>> import kdsl as kd
    >>> kd.diagflat(kd.asarray([[1, 2], [3, 4]])).tolist()
    [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 4]]
    """
    return diag(as_array(v).reshape(-1), operator.index(k))


def _dim(v: Any, name: str) -> int:
    v = host_length(v)
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"tri: {name} must be an int, got {type(v).__name__}")
    return max(int(v), 0)  # NumPy's tri counts rows and columns with arange: a negative size is empty


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = float, *,  # noqa: N803 - NumPy's names
        device: Any = None, like: Any = None) -> Array:
    """An ``N`` x ``M`` array with ones at and below diagonal ``k`` and zeros above (a lazy generator).
    ``dtype=float`` is kdsl's default float, float32 (NumPy's is float64), as for :func:`kdsl.eye`.

    >>> import kdsl as kd
    >>> kd.tri(2, 3, k=1).tolist()
    [[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
    """
    n = _dim(N, "N")
    m = n if M is None else _dim(M, "M")
    rows, cols = iota((n, m), 0, device), iota((n, m), 1, device)
    return ops.apply("le", cols - rows, operator.index(host_length(k))).astype(float if dtype is None else dtype)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Array:  # noqa: N803 - NumPy's name
    """The Vandermonde matrix of the 1-d ``x``: column ``j`` holds ``x ** (N - 1 - j)`` (``x ** j`` when
    ``increasing``), computed as NumPy does, by repeated multiplication. The dtype is ``x``'s promoted with
    kdsl's default int (int32; NumPy's is int64): float32 gives float64, as in NumPy, int8 gives int32.

    >>> import kdsl as kd
    >>> kd.vander(kd.asarray([2, 3]), increasing=True).tolist()
    [[1, 2], [1, 3]]
    """
    v = as_array(x)
    if v.ndim != 1:
        raise ValueError(f"x must be a one-dimensional array or sequence (got {v.ndim} dimensions)")
    n = v.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError(f"negative dimensions are not allowed: vander's N is {n}")
    d = promotion.promote(v.dtype, dt.default_int)
    if n == 0:
        return ones((v.shape[0], 0), dtype=d, device=v.device)
    first = ones((v.shape[0], 1), dtype=d, device=v.device)
    rest = broadcast_values_to(v.astype(d).reshape(-1, 1), (v.shape[0], n - 1))
    # x ** 0 stays out of the running product, as in NumPy: (1 + 0j) * (inf + 1j) would be inf + nanj, not x
    powers = concatenate([first, rest.cumprod(axis=1, dtype=d)], axis=1)
    return powers if increasing else flip(powers, 1)


def _bottom(arrays: Any, path: list[Any]) -> list[Any]:
    """The index path of a block at the bottom of the nested lists ``arrays`` (at ``path``): its length is the
    nesting depth. An empty list's path ends in None and is the one returned, the last one found, so that
    :func:`block` names it; lists nested unequally deep raise NumPy's ValueError at the first mismatch, in order."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_where(path)} is a tuple. Only lists can be used to arrange blocks, and kd.block does "
                        "not allow implicit conversion from tuple to array; use a list")
    if not isinstance(arrays, list):
        return path
    if not arrays:
        return path + [None]
    first = bottom = _bottom(arrays[0], path + [0])
    for i, a in enumerate(arrays[1:], 1):
        index = _bottom(a, path + [i])
        if len(index) != len(first):
            raise ValueError(f"List depths are mismatched. First element was at depth {len(first)}, but there is "
                             f"an element at depth {len(index)} ({_where(index)})")
        if index[-1] is None:
            bottom = index
    return bottom


def _where(path: list[Any]) -> str:
    """NumPy's name for a place in the nested lists: ``arrays[1][0]``."""
    return "arrays" + "".join(f"[{i}]" for i in path if i is not None)


def _assemble(arrays: Any, depth: int, ndim: int) -> Array:
    """Join one level of the nested lists: the outermost along axis ``-depth`` of the ``ndim``-d result."""
    if not isinstance(arrays, list):
        a = arrays
        return a.reshape((1,) * (ndim - a.ndim) + a.shape)
    parts = [_assemble(a, depth - 1, ndim) for a in arrays]
    return concatenate(parts, axis=-depth)


def block(arrays: Any) -> Array:
    """An array assembled from nested lists of blocks: the innermost lists are joined along the last axis,
    the next along the second-to-last, and so on; blocks with fewer dimensions get leading size-1 axes.

    >>> import kdsl as kd
    >>> kd.block([kd.asarray([1, 2]), kd.asarray([3])]).tolist()
    [1, 2, 3]
    """
    bottom = _bottom(arrays, [])
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_where(bottom)} cannot be empty")
    depth = len(bottom)
    blocks = _as_arrays(arrays, ops.device_of(_leaves(arrays)))
    ndim = max(depth, *(a.ndim for a in _leaves(blocks)))
    out = _assemble(blocks, depth, ndim)
    return Array(out._node) if depth == 0 else out  # one block: a new array, as NumPy copies it


def _as_arrays(arrays: Any, device: Any) -> Any:
    """The nested lists with every block an Array (host data uploaded once, to ``device``)."""
    return [_as_arrays(a, device) for a in arrays] if isinstance(arrays, list) else as_array(arrays, device)


def _leaves(arrays: Any) -> list[Any]:
    return [leaf for a in arrays for leaf in _leaves(a)] if isinstance(arrays, list) else [arrays]
