"""``kd.ma.apply_along_axis`` (NumPy's ``np.ma.apply_along_axis``), and what ``kd.apply_along_axis`` and
``np.apply_along_axis`` run for a masked array or for a function that returns masked arrays: as NumPy's, the
function sees masked 1-d slices (``x.sum()`` skips the masked entries) and the result keeps the masks the
function returns. A loop on the host, one call per slice, as ``kd.apply_along_axis``.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], mask=[[0, 1, 0], [0, 0, 1]])
    >>> kd.apply_along_axis(lambda r: r.sum(), 1, x).tolist(), kd.apply_along_axis(lambda r: r * 2, 1, x).tolist()
    ([2.0, 7.0], [[0.0, None, 4.0], [6.0, 8.0, None]])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np

import kdsl as kd
from kdsl.ma.masked_array import MaskedArray


class MaskedResult(Exception):  # noqa: N818 - a signal between the two loops, not an error a user sees
    """Raised by :func:`watched`'s function at its first masked result: the plain loop stops there and
    :func:`along_axis` carries on from the results so far (``done``; the function is not called again)."""

    def __init__(self, done: list[Any]) -> None:
        super().__init__("func1d returned a masked array")
        self.done = done


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any, **kwargs: Any) -> MaskedArray:
    """``func1d(slice, *args, **kwargs)`` for every masked 1-d slice of ``arr`` along ``axis``, as
    ``kd.apply_along_axis`` but masked: the results' masks stay (NumPy's ``np.ma.apply_along_axis``)."""
    return along_axis(func1d, axis, arr, args, kwargs)


def along_axis(func1d: Callable[..., Any], axis: int, arr: Any, args: tuple, kwargs: dict,
               done: list[Any] | None = None) -> MaskedArray:
    """:func:`apply_along_axis`; ``done``: the results of the first slices, already computed by the plain loop."""
    x = arr if isinstance(arr, MaskedArray) else kd.ma.asarray(arr)
    if not -x.ndim <= axis < x.ndim:
        raise kd.exceptions.AxisError(axis, x.ndim)
    ax = axis % x.ndim
    lines = kd.moveaxis(x, ax, -1)
    outer = lines.shape[:-1]
    if math.prod(outer) == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    done = done or []
    results = [kd.ma.asarray(v) for v in done]
    for idx in itertools.islice(itertools.product(*map(range, outer)), len(done), None):
        results.append(kd.ma.asarray(func1d(lines[idx], *args, **kwargs)))
    head = results[0]
    if any(r.shape != head.shape for r in results):
        raise ValueError(f"apply_along_axis: func1d returned arrays of different shapes "
                         f"{sorted({r.shape for r in results})}; every call must return the same shape")
    # numpy.ma's result type: the largest of the results' dtypes (NumPy's max over them), so a float result after
    # an int one is not truncated (``masked`` counts as float64)
    dtype = np.asarray([np.dtype(r.dtype.np) for r in results], dtype=object).max()
    # concatenate, not stack: no result masked gives nomask, as NumPy's (its stack always has a mask array)
    out = kd.ma.concatenate([kd.ma.expand_dims(r.astype(dtype), 0) for r in results])
    out = out.reshape(outer + head.shape)
    # the result's own axes sit where ``axis`` was (kd.moveaxis of a masked array is kd.ma's: dispatch.py)
    moved = kd.moveaxis(out, tuple(range(len(outer), out.ndim)), tuple(range(ax, ax + head.ndim)))
    return cast("MaskedArray", moved)


def watched(func1d: Callable[..., Any]) -> Callable[..., Any]:
    """``func1d`` for the plain loop (which calls it slice by slice, in :func:`along_axis`'s order): a masked
    result stops it with the results so far (:class:`MaskedResult`)."""
    done: list[Any] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        value = func1d(*args, **kwargs)
        done.append(value)
        if isinstance(value, MaskedArray):
            raise MaskedResult(done)
        return value
    return call


def apply_over_axes(func: Callable[..., Any], a: Any, axes: Any) -> MaskedArray:
    """NumPy's ``np.ma.apply_over_axes``: ``func(a, axis)`` for each of ``axes`` in turn, each result taking
    the place of ``a`` (a result one dimension short gets it back at ``axis``, as a ``keepdims``)."""
    val = a if isinstance(a, MaskedArray) else kd.ma.asarray(a)
    n = val.ndim
    for axis in (axes,) if kd.ndim(axes) == 0 else tuple(axes):
        axis = int(axis) + n if int(axis) < 0 else int(axis)
        res = kd.ma.asarray(func(val, axis))
        if res.ndim != val.ndim:
            res = kd.ma.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val
