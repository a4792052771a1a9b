"""Multidimensional histograms: ``histogramdd`` and ``histogram2d`` (NumPy's), binned on the device.

Each coordinate finds its bin with :func:`searchsorted` on the edges (NumPy's rule: half-open bins, the last
one closed), the bins combine into one flat index per sample (with an outlier bin at each end of every axis,
so values outside the edges and NaN fall there), and :mod:`histogram`'s ``bincount`` (atomics or sorted runs)
counts them or sums their weights.

Synchronisation: edges of integer ``bins`` without a ``range`` need the data's minimum and maximum per
dimension (one read back for all); edges given as a kdsl array are checked to increase (one read back).

Example:
    >>> import kdsl as kd
    >>> h, xe, ye = kd.histogram2d(kd.asarray([0.0, 0.5, 1.0]), kd.asarray([0.0, 0.0, 1.0]), bins=2)
    >>> h.tolist(), xe.tolist()
    ([[1.0, 0.0], [1.0, 1.0]], [0.0, 0.5, 1.0])
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.histogram import bounded_bincount, outer_edges
from kdsl.frontend.array.joining import diff
from kdsl.frontend.array.reductions import any as kany
from kdsl.frontend.array.reductions import max as kmax
from kdsl.frontend.array.reductions import min as kmin
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_ops import stack
from kdsl.frontend.array.sorting import searchsorted

_range = range  # the builtin; ``range`` is NumPy's parameter name below


def _samples(sample: Any) -> Array:
    """The ``(N, D)`` array of ``N`` points in ``D`` dimensions (NumPy's reading: an ``(N, D)`` array, or a
    sequence of ``D`` coordinate arrays, or a 1-D array of ``N`` points in one dimension)."""
    if isinstance(sample, (Array, np.ndarray)):
        s = sample if isinstance(sample, Array) else asarray(sample)
        if s.ndim > 2:
            raise ValueError(f"histogramdd: sample must be an (N, D) array or a sequence of D 1-D arrays, not of "
                             f"shape {s.shape}")
        return s if s.ndim == 2 else s.reshape(-1, 1)
    items = list(sample)
    if any(isinstance(c, Array) for c in items):
        device = next(c.device for c in items if isinstance(c, Array))
        return stack([(c if isinstance(c, Array) else asarray(c, device=device)).reshape(-1) for c in items],
                     axis=1)
    host = np.atleast_2d(np.asarray(items)).T
    if host.ndim != 2:
        raise ValueError("histogramdd: sample must be an (N, D) array or a sequence of D 1-D arrays")
    return asarray(host)


def _float_edges(device: Any) -> dt.DType:
    return dt.float64 if device.supports(dt.float64) else dt.float32


def _fit(d: np.dtype, device: Any) -> dt.DType:
    out = dt.as_dtype(d)
    return out if device.supports(out) else dt.float32


def _comparable(column: Array, edges: Array) -> Array:
    """The sample's column as it meets the edges: itself (compared in NumPy's common dtype), or in the edges'
    float32 where that common dtype is one the device lacks (integer data on a device without float64)."""
    common = dt.as_dtype(np.result_type(column.dtype.np, edges.dtype.np))
    return column if column.device.supports(common) else column.astype(edges.dtype)


def _data_ranges(s: Array, dims: list[int]) -> dict[int, tuple[Any, Any]]:
    """The minimum and maximum of the sample's columns ``dims``, read back together (NumPy scalars)."""
    if not dims or s.shape[0] == 0:
        return {}
    lo, hi = kmin(s, axis=0), kmax(s, axis=0)
    realize(lo, hi)
    los, his = lo.numpy(), hi.numpy()
    return {i: (los[i], his[i]) for i in dims}


def _given_edges(b: Any, i: int, device: Any) -> Array:
    """Edges given as a 1-D array, checked to increase (a kdsl array's check reads back one bool)."""
    if isinstance(b, Array):
        e = b
        bad = e.shape[0] > 1 and bool(kany(e[:-1] > e[1:]))
    else:
        host = np.asarray(b)
        bad = bool(np.any(host[:-1] > host[1:]))
        e = asarray(host, dtype=_fit(host.dtype, device) if host.dtype.kind == "f" else None, device=device)
    if bad:
        raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
    return e


def _edges(s: Array, bins: Any, range: Any) -> list[Array]:  # noqa: A002 - NumPy's name
    """Every dimension's bin edges (NumPy's rules for ``bins`` and ``range``)."""
    d = s.shape[1]
    try:
        if len(bins) != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
        per_dim = list(bins)
    except TypeError:
        per_dim = [bins] * d
    if range is None:
        range = (None,) * d
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    counted = [i for i in _range(d) if np.ndim(per_dim[i]) == 0]
    data = _data_ranges(s, [i for i in counted if range[i] is None])
    edges = []
    for i in _range(d):
        b = per_dim[i]
        if np.ndim(b) == 0:
            if b < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            first, last = outer_edges(range[i], data.get(i))
            try:
                n = operator.index(b)
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            # NumPy's edges: linspace on the host (they depend only on the range), in the dtype of the range's
            # scalars (the data's dtype when read from the data)
            host = np.linspace(first, last, n + 1)
            edges.append(asarray(host, dtype=_fit(host.dtype, s.device), device=s.device))
        elif np.ndim(b) == 1:
            edges.append(_given_edges(b, i, s.device))
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    return edges


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, density: bool | None = None,  # noqa: A002
                weights: Any = None) -> tuple[Array, list[Array]]:
    """``(hist, edges)``: how many of the ``N`` points of ``sample`` (``(N, D)``, or ``D`` coordinate arrays)
    fall in each bin of a ``D``-dimensional grid. ``bins``: one count for every dimension, or per dimension a
    count or an array of increasing edges; ``range``: per dimension ``(low, high)`` or None (the data's
    extent). Every bin is half-open but the last, which is closed; points outside (and NaN) are not counted.
    ``hist`` is float64 (float32 without float64) holding counts, weight sums with ``weights``, or with
    ``density=True`` a density that integrates to one.

    >>> import kdsl as kd
    >>> h, edges = kd.histogramdd(kd.asarray([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), bins=(2, [0.0, 1.0]))
    >>> h.tolist(), [e.tolist() for e in edges]
    ([[1.0], [2.0]], [[0.0, 0.5, 1.0], [0.0, 1.0]])
    """
    s = _samples(sample)
    n, d = s.shape
    edges = _edges(s, bins, range)
    nbin = [e.shape[0] + 1 for e in edges]  # an outlier bin at each end
    flat = None
    for i, e in enumerate(edges):
        column = _comparable(s[:, i], e)
        k = searchsorted(e, column, side="right")
        if e.shape[0]:
            k = k - (column == e[-1]).astype(k.dtype)  # the last edge belongs to the last bin
        flat = k if flat is None else flat * nbin[i] + k
    w = None
    if weights is not None:
        w = weights if isinstance(weights, Array) else asarray(np.asarray(weights), device=s.device)
    total = math.prod(nbin)
    if flat is None:  # no dimensions
        flat = asarray(np.zeros(n, np.int64), device=s.device)
    hist = bounded_bincount(flat, w, total).reshape(tuple(nbin)).astype(_float_edges(s.device))
    hist = hist[(slice(1, -1),) * d]
    if density:
        scale = ksum(hist)
        for i, e in enumerate(edges):
            widths = diff(e).reshape(tuple(-1 if j == i else 1 for j in _range(d)))
            hist = hist / widths
        hist = hist / scale
    return hist, edges


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: bool | None = None,  # noqa: A002
                weights: Any = None) -> tuple[Array, Array, Array]:
    """``(hist, xedges, yedges)``: the 2-D histogram of the points ``(x[i], y[i])``; ``bins`` is a count, a
    pair of counts or of edge arrays, or one edge array for both. See :func:`histogramdd`.

    >>> import kdsl as kd
    >>> h, _, _ = kd.histogram2d(kd.asarray([1, 2, 2]), kd.asarray([1, 1, 2]), bins=[[0, 1.5, 3], [0, 3]])
    >>> h.tolist()
    [[1.0], [2.0]]
    """
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):  # one edge array for both axes
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


__all__ = ["histogram2d", "histogramdd"]
