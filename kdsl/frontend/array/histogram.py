"""``bincount`` and ``histogram`` (fixed bins): counts and weighted sums per bin through the scatter-add of
:mod:`scatter_atomic` (integer counts with int64 atomics, or 32-bit ones cast after; weighted sums where the
device has float atomics of the result's dtype), else through the sorted runs of :mod:`scatter_sorted`, each
run's weights summed by a segmented scan (:func:`run_sums`).

Synchronisation: ``bincount`` reads back ``min(x)`` and ``max(x)`` (the check and the result's length);
``histogram`` without ``range`` reads back ``min(a)`` / ``max(a)``. Nothing else synchronises.

Example:
    >>> import kdsl as kd
    >>> kd.bincount(kd.asarray([1, 3, 3])).tolist()
    [0, 1, 0, 2]
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.complex_math import complex_from_parts, imag, real
from kdsl.frontend.array.creation import as_array_beside, asarray, ones_like, zeros
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.reductions import min as amin
from kdsl.frontend.array.scatter_atomic import scatter_add, work_dtype
from kdsl.frontend.array.scatter_sorted import at, runs_of
from kdsl.frontend.array.segmented_scan import segmented_scan
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.frontend.array.sorting import searchsorted


def bincount(x: Any, weights: Any = None, minlength: int = 0, *, deterministic: bool = False) -> Array:
    """How often each value ``0, 1, ..., max(x)`` occurs in the non-negative 1-D integers ``x`` (at least
    ``minlength`` bins), or the sums of ``weights`` per value (float64 as NumPy's, float32 on devices without
    float64; an empty ``x`` gives int64 zeros whatever the weights, as NumPy's). Reads back ``max(x)`` for the
    length (one synchronisation). Counts use atomics (exact); weighted sums too where the device has float
    atomics of the result's dtype, in an undefined order (rounding may differ between runs) unless
    ``deterministic=True`` (a kdsl extension: the sort-based path).

    >>> import kdsl as kd
    >>> kd.bincount(kd.asarray([0, 2, 2]), weights=kd.asarray([0.5, 1.0, 2.0]), minlength=4).tolist()
    [0.5, 0.0, 3.0, 0.0]
    """
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    xs = x if isinstance(x, Array) else asarray(np.asarray(x) if np.size(x) else np.zeros(0, np.int64))
    if xs.ndim != 1:
        raise ValueError(f"bincount needs a 1-D array, not one of shape {xs.shape}")
    if not (xs.dtype.is_int or xs.dtype is dt.bool_):
        raise TypeError(f"Cannot cast array data from dtype('{xs.dtype.np}') to dtype('int64') according to the "
                        "rule 'safe'")
    if xs.dtype is dt.bool_:  # False and True count as 0 and 1 (NumPy casts them safely to its index type)
        xs = xs.astype(dt.uint8)
    if xs.size == 0:  # NumPy returns int64 zeros for an empty list whatever the weights (it never reads them)
        return zeros(minlength, dtype=index_dtype(xs.device), device=xs.device)
    length = minlength
    if xs.size:
        lo, hi = amin(xs), amax(xs)
        realize(lo, hi)
        if int(lo) < 0:
            raise ValueError("'list' argument must have no negative elements")
        length = max(length, int(hi) + 1)
    return bounded_bincount(xs, weights, length, deterministic)


def bounded_bincount(xs: Array, weights: Any, length: int, deterministic: bool = False, dropped: bool = False) -> Array:
    """bincount of indices known to be in ``[0, length)`` (``dropped``: or equal to ``length``, not counted)."""
    dev = xs.device
    w = None
    if weights is not None:
        w = weights if isinstance(weights, Array) else _host_weights(weights, dev)
        if w.shape != xs.shape:
            raise ValueError(f"The weights and list don't have the same length: {w.shape} and {xs.shape}")
        if w.dtype.is_complex:  # NumPy's refusal (summing only the real parts would be silently wrong)
            raise TypeError(f"Cannot cast array data from dtype('{w.dtype.np}') to dtype('float64') according to "
                            "the rule 'safe': bincount sums real weights; sum kd.real(w) and kd.imag(w) apart")
    out_dtype = index_dtype(dev) if w is None else (dt.float64 if dev.supports(dt.float64) else dt.float32)
    if xs.size == 0 or length == 0:
        return zeros(length, dtype=out_dtype, device=dev)
    # counts in the result's dtype where it has atomics (int64_atomics: no cast pass after), else in 32-bit
    # atomics (core Vulkan, exact below 2**32 values) cast after; sums in the result's dtype
    work = out_dtype
    if w is None and work_dtype("add", out_dtype, dev) is not out_dtype and xs.size < 1 << 32:
        work = dt.uint32
    if work_dtype("add", work, dev, deterministic) is work:  # an index of ``length`` is skipped by the kernel
        ones = ones_like(xs, dtype=work) if w is None else w
        return scatter_add(zeros(length, dtype=work, device=dev), xs, ones).astype(out_dtype)
    keys = xs.astype(index_dtype(dev))
    runs = runs_of(keys, length + dropped)
    if w is None:  # a run's length is its count: no sums at all
        out = (runs.hi - runs.lo).astype(out_dtype)
    else:
        out = run_sums(at(w.astype(out_dtype), runs.order), at(keys, runs.order), runs)
    return out[:length] if dropped else out


def run_sums(values: Array, keys: Array, runs: Any) -> Array:
    """The sum of each run of the sorted ``values`` (``keys``: their sorted bins), 0 for an empty run, by a
    segmented scan that restarts at every run: each sum's rounding depends on its own run only, as NumPy's
    sequential double sums (prefix-sum differences, which ``add.at`` once used too, lose ``eps * |all the
    sums before|`` when nothing wider than the weights' dtype exists: ``bincount([0, 1], [1e16, 1.0])`` gave
    a 0)."""
    folded = segmented_scan(km.add, values, keys)
    total = at(folded, km.maximum(runs.hi - 1, 0))  # a run's last inclusive prefix: its whole sum
    return km.where(runs.hi > runs.lo, total, 0).astype(values.dtype)


def _host_weights(weights: Any, dev: Any) -> Array:
    """Host weights uploaded in the sums' dtype (float64 where the device has it), as NumPy casts them to double:
    a list of Python floats is not rounded to kdsl's float32 default first (``0.3 + 0.2`` summed to
    0.50000001). Complex host weights keep their dtype, for bincount's refusal."""
    host = np.asarray(weights)
    if host.dtype.kind in "cOUSV":
        return asarray(weights, device=dev)
    return asarray(host, dtype=dt.float64 if dev.supports(dt.float64) else dt.float32, device=dev)


def histogram(a: Any, bins: Any = 10, range: tuple[float, float] | None = None,  # noqa: A002 - NumPy's name
              density: bool | None = None, weights: Any = None, *,
              deterministic: bool = False) -> tuple[Array, Array]:
    """``(hist, bin_edges)`` of the values of ``a``: in ``bins`` equal bins over ``range`` (default: ``a``'s
    minimum and maximum, read back: one synchronisation), in the bins between the increasing edges ``bins``
    (an array), or in the equal bins of a NumPy estimator (``'auto'``, ``'fd'``, ...: see
    :func:`histogram_bin_edges`). Every bin is half-open but the last, which is closed (NumPy's rule); values
    outside the range (and NaN) are not counted. ``hist`` is int64 (the weights' dtype with ``weights``;
    float64, or float32 where the device has no float64, with ``density``, which divides by the total and the
    bin widths as NumPy does). Equal bins' edges are computed on the host, as NumPy computes them. Counted (and
    weights summed) as :func:`bincount` does; ``deterministic`` as there.

    >>> import kdsl as kd
    >>> hist, edges = kd.histogram(kd.asarray([0.0, 0.5, 1.0, 1.0, 3.0]), bins=3)
    >>> hist.tolist(), edges.tolist()
    ([2, 2, 1], [0.0, 1.0, 2.0, 3.0])
    >>> kd.histogram(kd.asarray([0.0, 0.5, 1.0, 1.0, 3.0]), bins=[0.0, 1.0, 4.0])[0].tolist()
    [2, 3]
    """
    counts, edges = _counts(sample_values(a), bins, range, weights, deterministic)
    if not density:
        return counts, edges
    ft = dt.float64 if counts.device.supports(dt.float64) else dt.float32
    widths = (edges[1:] - edges[:-1]).astype(ft)
    total = counts if counts.dtype.is_complex else counts.astype(ft)  # complex weights: a complex density
    return total / widths / total.sum(), edges


def sample_values(a: Any) -> Array:
    """``a`` as the flat kdsl array a histogram bins: booleans become uint8 with NumPy's RuntimeWarning (their
    0 and 1 have no subtraction for the bin arithmetic, NumPy's reason to convert them too).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     sample_values([True, False]).dtype.name
    'uint8'
    """
    x = (a if isinstance(a, Array) else asarray(a)).reshape(-1)
    if x.dtype is dt.bool_:
        warnings.warn(f"Converting input from {x.dtype.np} to {np.uint8} for compatibility.", RuntimeWarning,
                      stacklevel=3)
        x = x.astype(dt.uint8)
    return x


def _counts(a: Any, bins: Any, range: Any, weights: Any, deterministic: bool) -> tuple[Array, Array]:  # noqa: A002
    """histogram without ``density``."""
    bins = host_length(bins)  # a 0-d kdsl integer is a count, as NumPy's scalar
    if not isinstance(bins, (int, np.integer)):  # edges, an estimator's name, or what NumPy's checks refuse
        # (imported here: kdsl.frontend.array.binning builds on this module)
        from kdsl.frontend.array.binning import estimated_bins, histogram_bin_edges
        edges = histogram_bin_edges(a, bins, range, weights) if not isinstance(bins, str) else None
        if edges is None:  # an estimator's bins are equal: NumPy's fast path over the estimator's range
            _flat_weights(weights, a)  # NumPy checks their shape before refusing them for an estimator
            first, last, nbins = estimated_bins(a, bins, range, weights)
            return _equal_counts(a, first, last, nbins, weights, deterministic)
        return _counts_between(a, edges, weights, deterministic), edges
    nbins = operator.index(bins)
    if nbins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    x = (a if isinstance(a, Array) else asarray(a)).reshape(-1)
    first, last = data_outer_edges(x, range)
    return _equal_counts(x, first, last, nbins, weights, deterministic)


def _equal_counts(x: Array, first: Any, last: Any, nbins: int, weights: Any,
                  deterministic: bool) -> tuple[Array, Array]:
    """histogram of the flat ``x`` in ``nbins`` equal bins from ``first`` to ``last`` (NumPy's outer edges: the
    edges and the bin arithmetic take their dtypes, as NumPy's)."""
    w = _flat_weights(weights, x)
    edges = equal_edges(first, last, nbins, x)
    b = _bin_index(x, first, last, nbins, edges)
    # values outside the range get bin ``nbins``, which is not counted
    return binned_sums(b, w, nbins, deterministic), edges


def _flat_weights(weights: Any, x: Array) -> Array | None:
    """The weights as a flat kdsl array (None without), checked to hold one weight per sample."""
    if weights is None:
        return None
    w = as_array_beside(weights, x, x.device)  # a float list at a64's precision, as NumPy's float64
    if w.shape != x.shape and w.size != x.size:
        raise ValueError("weights should have the same shape as a.")
    return w.reshape(-1)


def _counts_between(a: Any, edges: Array, weights: Any, deterministic: bool) -> Array:
    """Counts (or summed weights) of ``a``'s values in the bins between the increasing ``edges``: bin ``i`` is
    ``[edges[i], edges[i + 1])``, the last one closed; values outside, and NaN, are not counted."""
    x = (a if isinstance(a, Array) else asarray(a, device=edges.device)).reshape(-1)
    n = edges.size - 1
    w = None
    if weights is not None:
        w = as_array_beside(weights, x, x.device).reshape(-1)
    b = searchsorted(edges, x, side="right").astype(dt.int32) - 1
    b = km.where(x == edges[-1], n - 1, b)  # the last bin is closed
    b = km.where((b < 0) | (b >= n), n, b)  # below, above, NaN: the uncounted bin n
    return binned_sums(b, w, n, deterministic)


def binned_sums(b: Array, w: Array | None, n: int, deterministic: bool) -> Array:
    """The counts of the bins ``b`` in ``[0, n]`` (bin ``n`` not counted), or the sums of the weights ``w`` in
    ``w``'s dtype; complex weights sum their real and imaginary parts apart, as NumPy's histogram does."""
    if w is not None and w.dtype.is_complex:
        re, im = (binned_sums(b, part(w), n, deterministic) for part in (real, imag))
        return complex_from_parts(re, im).astype(w.dtype)
    counts = bounded_bincount(b, w, n, deterministic, dropped=True)
    return counts if w is None or w.dtype == counts.dtype else counts.astype(w.dtype)


def data_outer_edges(x: Array, rng: tuple[Any, Any] | None) -> tuple[Any, Any]:
    """NumPy's ``_get_outer_edges``, with NumPy scalars of ``x``'s dtype for a range read from the data (the
    edges' dtype and the bin arithmetic depend on them as in NumPy); widened by 0.5 when empty."""
    data = None
    if rng is None and x.size:
        lo, hi = amin(x), amax(x)
        realize(lo, hi)
        data = (lo.numpy()[()], hi.numpy()[()])
    return outer_edges(rng, data)


def outer_edges(rng: Any, data: tuple[Any, Any] | None) -> tuple[Any, Any]:
    """The first and last edge of one dimension from a given range ``rng`` or else the data's ``(min, max)``
    (``None``: no samples), by NumPy's rules: checked finite and ordered, widened by 0.5 when they are equal."""
    if rng is not None:
        first, last = rng
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif data is None:  # no samples
        first, last = 0, 1
    else:
        first, last = data
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def equal_edges(first: Any, last: Any, nbins: int, x: Array) -> Array:
    """NumPy's ``nbins + 1`` equal-width edges from ``first`` to ``last`` for the data ``x``, computed on the
    host in NumPy's dtype (the promotion of the data's and the range's, floating; float32 on a device without
    float64) and uploaded; ValueError, as NumPy's, where the dtype's rounding leaves a bin of no width (a range
    of a few ulps cut into more bins than it holds)."""
    edge_type = np.result_type(first, last, np.empty(0, x.dtype.np))
    if edge_type.kind in "biu":  # NumPy widens integer edges to float; complex ones keep their dtype
        edge_type = np.result_type(edge_type, float)
    edges = np.linspace(first, last, nbins + 1, endpoint=True, dtype=edge_type)
    if np.any(edges[:-1] >= edges[1:]):
        raise ValueError(f"Too many bins for data range. Cannot create {nbins} finite-sized bins.")
    return asarray(edges, dtype=_on_device(dt.as_dtype(edge_type), x.device), device=x.device)


def _on_device(d: dt.DType, device: Any) -> dt.DType:
    """``d``, or float32 where the device lacks it (float64): the nearest precision it can hold."""
    return d if device.supports(d) else dt.float32


def in_range(x: Array, first: Any, last: Any) -> Array:
    """``(x >= first) & (x <= last)`` compared in NumPy's dtype: a NumPy scalar edge (from a range array) is
    strong, so float16 data meets a float32 edge in float32 (a weak compare would round the edge to the data's
    precision and count values outside the range); Python edges are weak. A device without that dtype
    (float64) compares in the data's own."""
    cmp = dt.as_dtype(np.result_type(np.empty(0, x.dtype.np), first, last))
    xs = x if cmp is x.dtype else x.astype(_on_device(cmp, x.device))
    return (xs >= _py(first)) & (xs <= _py(last))


def _bin_index(x: Array, first: Any, last: Any, nbins: int, edges: Array) -> Array:
    """The bin of each value, computed as NumPy's fast path does (the same dtypes, then its corrections
    against the edges); ``nbins`` for values outside ``[first, last]`` and for NaN."""
    keep = in_range(x, first, last)
    xe = x.astype(edges.dtype)
    rd = np.result_type(last, first)
    udt = {"i": np.dtype(f"u{rd.itemsize}")}.get(rd.kind, rd)
    denom = np.subtract(np.asarray(last, rd), np.asarray(first, rd), dtype=udt, casting="unsafe")[()]
    qd = _on_device(dt.as_dtype(np.result_type(np.empty(0, edges.dtype.np), denom)), x.device)
    num = (xe - _py(first)).astype(qd)
    i = (num / _py(denom) * nbins).astype(index_dtype(x.device))
    i = km.where(i == nbins, nbins - 1, i)
    i = km.minimum(km.maximum(i, 0), nbins - 1)  # only dropped values leave [0, nbins); keep reads in range
    i = km.where(xe < at(edges, i), i - 1, i)
    i = km.where((xe >= at(edges, km.minimum(i + 1, nbins))) & (i != nbins - 1), i + 1, i)
    return km.where(keep, i, nbins)


def _py(value: Any) -> Any:
    """A NumPy or Python scalar as a Python one (kdsl treats it as a weak scalar, as NumPy 2 does)."""
    return value.item() if isinstance(value, np.generic) else value
