"""Arrays from Python functions: ``fromfunction apply_along_axis apply_over_axes``, NumPy's names and
semantics.

``fromfunction`` calls the function once, with lazy index arrays, so the whole result is one fused
computation on the device. ``apply_along_axis`` calls the function once per 1-d slice, in a loop on the host:
each call builds lazy operations on a view, and the results are joined with one :func:`kdsl.stack` - cheap
for tens or hundreds of slices, slow for millions (write the operation on the whole array with ``axis=``
instead, as most kdsl functions take it).

Example:
    >>> import kdsl as kd
    >>> kd.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=kd.int32).tolist()
    [[0, 1, 2], [10, 11, 12]]
    >>> kd.apply_along_axis(lambda r: r.max() - r.min(), 1, kd.asarray([[1, 5], [2, 9]])).tolist()
    [4, 7]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, iota
from kdsl.frontend.array.shape_arguments import as_shape
from kdsl.frontend.array.shape_ops import expand_dims, moveaxis, stack


def fromfunction(function: Callable[..., Any], shape: Any, *, dtype: Any = float, like: Any = None,
                 **kwargs: Any) -> Any:
    """``function(i0, i1, ...)`` called once with one index array per axis of ``shape`` (``i_k`` holds each
    element's index along axis ``k``, as ``dtype``; ``dtype=float`` is kdsl's float32); returns what it
    returns. The index arrays are lazy generators: nothing is uploaded.

    >>> import kdsl as kd
    >>> kd.fromfunction(lambda i, j: i == j, (2, 2)).tolist()
    [[True, False], [False, True]]
    """
    dims = as_shape(shape)
    return function(*(iota(dims, k).astype(dtype) for k in range(len(dims))), **kwargs)


def _result(value: Any, device: Any) -> Array:
    return value if isinstance(value, Array) else asarray(value, device=device)


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any, **kwargs: Any) -> Array:
    """``func1d(slice, *args, **kwargs)`` for every 1-d slice of ``arr`` along ``axis``; the results (all of one
    shape) take that axis's place: a scalar result removes it, an n-d result puts its n axes there. The dtype
    is the first result's. A loop on the host (one call per slice, see the module docstring).

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.apply_along_axis(lambda r: r[::-1], 1, a).tolist(), kd.apply_along_axis(kd.sum, 0, a).tolist()
    ([[2, 1, 0], [5, 4, 3]], [3, 5, 7])
    """
    x = arr if isinstance(arr, Array) else asarray(arr)
    ax = mv.normalize_axis(axis, x.ndim)
    lines = moveaxis(x, ax, -1)
    outer = lines.shape[:-1]
    if math.prod(outer) == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    results = [_result(func1d(lines[idx], *args, **kwargs), x.device) for idx in itertools.product(*map(range, outer))]
    first = results[0]
    if any(r.shape != first.shape for r in results):
        shapes = sorted({r.shape for r in results})
        raise ValueError(f"apply_along_axis: func1d returned arrays of different shapes {shapes}; every call "
                         "must return the same shape")
    out = stack([r.astype(first.dtype) for r in results]).reshape(outer + first.shape)
    # The result's own axes sit where ``axis`` was.
    return moveaxis(out, tuple(range(len(outer), out.ndim)), tuple(range(ax, ax + first.ndim)))


def apply_over_axes(func: Callable[[Array, int], Any], a: Any, axes: Any) -> Array:
    """``func(a, axis)`` applied over each axis in ``axes`` in turn, keeping the number of dimensions (NumPy's
    ``np.apply_over_axes``: a result one dimension short gets the axis back as length 1). One lazy call per
    axis; ``func`` is typically a reduction such as :func:`kdsl.sum`.

    >>> import kdsl as kd
    >>> kd.apply_over_axes(kd.sum, kd.arange(24).reshape(2, 3, 4), [0, 2]).tolist()
    [[[60], [92], [124]]]
    """
    out = asarray(a)
    for axis in [axes] if isinstance(axes, int) else list(axes):
        k = axis + out.ndim if axis < 0 else axis
        res = asarray(func(out, k))
        if res.ndim == out.ndim - 1:
            res = expand_dims(res, k)
        elif res.ndim != out.ndim:
            raise ValueError("function is not returning an array of the correct shape")
        out = res
    return out
