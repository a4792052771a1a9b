"""Writes through integer indices, deterministic and without atomics: NumPy's unbuffered ``ufunc.at``
(``kd.add.at``, ``kd.subtract.at``, ``kd.maximum.at``, ``kd.minimum.at``), buffered assignment ``a[idx] = v`` /
``a[idx] += v`` and ``a[rows, cols] = v`` (integer arrays on the leading axes; the hook in :mod:`indexing`),
``bincount`` and ``histogram``.

Every write is a *gather* composed of existing lazy ops, so no new kernel and no atomics: the indices are sorted
once (stable ``argsort``), and each position ``p`` of the target finds its run ``[lo, hi)`` of equal sorted
indices with two ``searchsorted`` calls. A position with an empty run keeps its value; the others combine with
their run's total (``add``/``subtract``), its last element when the run is also sorted by value (``maximum``;
``minimum`` takes the first), or the value of the last occurrence in index order (``a[idx] = v``).

Run totals are differences of an inclusive ``cumsum`` of the sorted values: exact for integers (wrapping as
NumPy's sequential adds do), and for floats accumulated in float64 where the device has it, so a float32 total's
error stays far below float32 rounding (float64 inputs may lose ``eps * |sum of the runs before|``; a segmented
scan restarting at run starts would avoid that). NaN and infinities are counted separately (integer prefix sums)
so one NaN poisons only its own run, as in NumPy.

Synchronisation: host indices are checked on the host; device indices read back their minimum and maximum
once (IndexError before anything is written). ``bincount`` reads back ``max(x)`` (the result's length) and
``histogram`` without ``range`` reads back ``min(a)``/``max(a)``. Nothing else synchronises.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.zeros(4, dtype=kd.int32)
    >>> kd.add.at(a, [0, 2, 2, -1], 5)
    >>> a.tolist()
    [5, 0, 10, 5]
    >>> a[[1, 1]] = kd.asarray([7, 8], dtype=kd.int32)
    >>> a.tolist()
    [5, 8, 10, 5]
    >>> kd.bincount(kd.asarray([1, 3, 3])).tolist()
    [0, 1, 0, 2]
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array, _store_inplace, realize
from kdsl.frontend.array.creation import arange, asarray, zeros
from kdsl.frontend.array.joining import concatenate
from kdsl.frontend.array.reductions import cumsum
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.reductions import min as amin
from kdsl.frontend.array.shape_ops import broadcast_to
from kdsl.frontend.array.sorting import argsort, searchsorted, take


class _Runs(NamedTuple):
    """The sorted indices' runs: ``order`` sorts the (flattened) indices stably; position ``p`` of the target
    owns sorted positions ``[lo[p], hi[p])`` (empty when ``p`` is not indexed)."""

    order: Array
    lo: Array
    hi: Array


def _index_dtype(device) -> dt.DType:
    return dt.int64 if device.supports(dt.int64) else dt.int32


def _checked_indices(indices: Any, n: int, device, axis: int = 0) -> Array:
    """``indices`` as a device integer array with negative indices wrapped; IndexError (naming the index, the
    axis and its size) for one outside ``[-n, n)``. Device indices are checked with one synchronisation."""
    if isinstance(indices, Array):
        if indices.device is not device:
            raise ValueError("the index array lives on another device than the array; move it with kd.asarray")
        if not indices.dtype.is_int or indices.dtype is dt.bool_:
            raise IndexError(f"arrays used as indices must be of integer type, not {indices.dtype.name}")
        idx = indices.astype(_index_dtype(device))
        if idx.size:
            lo, hi = amin(idx), amax(idx)
            realize(idx, lo, hi)
            _check_range(int(lo), int(hi), n, axis)
    else:
        host = np.asarray(indices)
        if host.size == 0:  # NumPy reads [] as no indices
            host = host.astype(np.int64)
        if host.dtype.kind not in "iu":
            raise IndexError(f"arrays used as indices must be of integer type, not {host.dtype}")
        if host.size:
            _check_range(int(host.min()), int(host.max()), n, axis)
        idx = asarray(host.astype(_index_dtype(device).np), device=device)
    return km.where(idx < 0, idx + n, idx) if idx.size else idx


def _check_range(lo: int, hi: int, n: int, axis: int = 0) -> None:
    bad = hi if hi >= n else lo if lo < -n else None
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")


def _runs(idx: Array, n: int, order: Array | None = None) -> _Runs:
    """The runs of the wrapped indices ``idx`` (1-D) over a target axis of ``n``; ``order`` may be any
    permutation sorting ``idx`` (default: its stable argsort)."""
    if order is None:
        order = argsort(idx, kind="stable")
    s = take(idx, order, mode="clip")
    p = arange(n, dtype=idx.dtype, device=idx.device)
    return _Runs(order, searchsorted(s, p, "left"), searchsorted(s, p, "right"))


def _at(x: Array, i: Array) -> Array:
    """``x[i]`` for indices known to be in range (no check, no synchronisation)."""
    return take(x, i, axis=0, mode="clip")


def _acc_dtype(d: dt.DType, device) -> dt.DType:
    """The dtype run totals accumulate in: int64 / uint64 for integers, float64 for floats (where present)."""
    if d.is_float:
        return dt.float64 if device.supports(dt.float64) else d
    if d is dt.bool_:
        return dt.int32
    wide = dt.uint64 if d.kind == "u" else dt.int64
    return wide if device.supports(wide) else d


def _prefix_diff(x: Array, runs: _Runs) -> Array:
    """Per target position, the sum of ``x`` (already in sorted order) over its run: ``c[hi] - c[lo]`` with
    ``c`` the exclusive prefix sum."""
    c = concatenate([zeros(1, dtype=x.dtype, device=x.device), cumsum(x, dtype=x.dtype)])
    return _at(c, runs.hi) - _at(c, runs.lo)


def _run_totals(v_sorted: Array, runs: _Runs) -> Array:
    """The sum of each run of ``v_sorted``, in the accumulation dtype. Non-finite float values are counted
    apart (exact integer prefix sums) so that they poison only their own run: NaN if the run holds a NaN or
    both infinities, else the infinity it holds."""
    acc = _acc_dtype(v_sorted.dtype, v_sorted.device)
    v = v_sorted.astype(acc)
    if not acc.is_float:
        return _prefix_diff(v, runs)
    count = dt.int64 if v.device.supports(dt.int64) else dt.int32
    finite = km.isfinite(v)
    total = _prefix_diff(km.where(finite, v, 0.0).astype(acc), runs)
    nans = _prefix_diff(km.isnan(v).astype(count), runs) > 0
    pos = _prefix_diff((v == float("inf")).astype(count), runs) > 0
    neg = _prefix_diff((v == float("-inf")).astype(count), runs) > 0
    inf = km.where(pos, float("inf"), float("-inf")).astype(acc)
    total = km.where(pos | neg, inf, total)
    return km.where(nans | (pos & neg), float("nan"), total).astype(acc)


# ----- unbuffered ufunc.at

def _values(values: Any, shape: tuple[int, ...], a: Array, name: str) -> Array:
    """``values`` broadcast to ``shape`` and flattened, in ``a``'s dtype; NumPy's same_kind rule for the
    cast (``np.add.at(int_array, i, 1.5)`` is a TypeError)."""
    v = values if isinstance(values, Array) else asarray(values, device=a.device) \
        if not isinstance(values, (bool, int, float)) else None
    if v is None:
        vd = np.result_type(a.dtype.np, values)
    else:
        if v.device is not a.device:
            raise ValueError("the values live on another device than the array; move them with kd.asarray")
        vd = np.result_type(a.dtype.np, v.dtype.np)
    if not np.can_cast(vd, a.dtype.np, "same_kind"):
        raise TypeError(f"Cannot cast ufunc {name!r} output from dtype('{vd}') to dtype('{a.dtype.np}') with "
                        "casting rule 'same_kind'")
    if v is None:
        v = Array(ops.const_node(values, a.dtype, a.device))
    try:
        full = broadcast_to(v.astype(a.dtype), shape)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together: values of shape {v.shape} for indices of "
                         f"shape {shape}") from None
    return full.reshape(-1)


def _target(a: Any, name: str) -> Array:
    if not isinstance(a, Array):
        raise TypeError(f"{name}.at needs a kdsl Array to update in place, not {type(a).__name__}")
    if a.ndim == 0:
        raise ValueError(f"{name}.at needs an array of at least one dimension (got a 0-d array)")
    return a


def _flat_indices(x: Array, indices: Any) -> tuple[Array, tuple[int, ...]]:
    """(the flat positions in ``x.reshape(-1)`` that ``ufunc.at``'s ``indices`` select, the shape the values
    broadcast to). ``indices``: one integer array (whole sub-arrays along axis 0) or a tuple of integer arrays
    and ints on the leading axes, broadcast together (NumPy's ``np.add.at(a, (i, j), v)``)."""
    items = indices if isinstance(indices, tuple) else (indices,)
    k = len(items)
    if k > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {k} were indexed")
    for it in items:
        if it is None or it is Ellipsis or isinstance(it, slice):
            raise IndexError("ufunc.at in kdsl takes integer arrays (or ints) for the leading axes only, not "
                             f"{it!r}; move the indexed axes first (kd.moveaxis) and index them with arrays")
    checked = [_checked_indices(it, x.shape[m], x.device, axis=m) for m, it in enumerate(items)]
    shape = ops.broadcast_shapes(*[c.shape for c in checked])
    block = 1
    for n in x.shape[k:]:
        block *= n
    flat, stride = None, block
    for m in reversed(range(k)):
        term = broadcast_to(checked[m], shape) * stride
        flat = term if flat is None else flat + term
        stride *= x.shape[m]
    assert flat is not None  # k >= 1: a tuple of no indices is refused by NumPy too
    if block > 1:  # each selected sub-array: its block of consecutive flat positions
        flat = flat.reshape(shape + (1,)) + arange(block, dtype=flat.dtype, device=x.device)
    return flat.reshape(-1), shape + x.shape[k:]


def _ufunc_at(name: str, a: Any, indices: Any, values: Any) -> None:
    x = _target(a, name)
    if isinstance(indices, tuple) and len(indices) == 0:
        raise IndexError(f"{name}.at needs at least one index array")
    if x.ndim == 1 and not isinstance(indices, tuple):
        host_shape = indices.shape if isinstance(indices, Array) else np.shape(indices)
        idx = _checked_indices(indices, x.shape[0], x.device).reshape(-1)
        shape = tuple(host_shape)
    else:
        idx, shape = _flat_indices(x, indices)
    v = _values(values, shape, x, name)
    n = x.size
    if idx.size == 0 or n == 0:
        return
    flat = x.reshape(-1)
    _store_inplace(x, _combined(name, flat, idx, v, n).reshape(x.shape))  # a view writes through to its base


def _combined(name: str, x: Array, idx: Array, v: Array, n: int) -> Array:
    """The 1-D ``x`` after ``name.at(x, idx, v)`` (flat, wrapped, in-range indices)."""
    if name in ("add", "subtract"):
        runs = _runs(idx, n)
        total = _run_totals(_at(v, runs.order), runs)
        hit = runs.hi > runs.lo
        wide = x.astype(total.dtype)
        new = (wide + total) if name == "add" else (wide - total)
        return km.where(hit, new.astype(x.dtype), x)
    # sort by value, then stably by index: each run is sorted by value (NaN last, as argsort puts them)
    by_value = argsort(v, kind="stable")
    order = _at(by_value, argsort(_at(idx, by_value), kind="stable"))
    runs = _runs(idx, n, order)
    hit = runs.hi > runs.lo
    last = _at(v, _at(order, km.maximum(runs.hi - 1, 0)))
    if name == "maximum":
        return km.where(hit, km.maximum(x, last), x)
    first = _at(v, _at(order, km.minimum(runs.lo, idx.size - 1)))
    if v.dtype.is_float:  # a NaN sorts last; minimum propagates it as NumPy does
        first = km.where(km.isnan(last), last, first)
    return km.where(hit, km.minimum(x, first), x)


class _WithAt:
    """An elementwise function that also has NumPy's ``.at`` (``kd.add(x, y)`` and ``kd.add.at(a, i, v)``)."""

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        self._fn, self._name = fn, name
        self.__name__ = self.__qualname__ = getattr(fn, "__name__", name)
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def at(self, a: Array, indices: Any, b: Any = None) -> None:
        """Unbuffered in-place ``a[indices] = op(a[indices], b)``: repeated indices all apply (NumPy's
        ``ufunc.at``). ``a`` is a kdsl Array; ``indices`` an integer array (sub-arrays along axis 0) or a
        tuple of integer arrays and ints on the leading axes, broadcast together (negative ones count from
        the end); ``b`` broadcasts to the selection's shape. Deterministic, no atomics; see
        :mod:`kdsl.frontend.array.scatter`.

        >>> import kdsl as kd
        >>> a = kd.asarray([1.0, 5.0, 2.0])
        >>> kd.maximum.at(a, [0, 0, 2], [4.0, 3.0, 1.0])
        >>> a.tolist()
        [4.0, 5.0, 2.0]
        >>> m = kd.zeros((2, 3), dtype=kd.int32)
        >>> kd.add.at(m, ([0, 1, 1], [2, 0, 0]), 1)
        >>> m.tolist()
        [[0, 0, 1], [2, 0, 0]]
        """
        if b is None:
            raise TypeError(f"{self._name}.at needs the values: {self._name}.at(a, indices, b)")
        _ufunc_at(self._name, a, indices, b)

    def __repr__(self) -> str:
        return f"<kdsl function {self._name} (with .at)>"


add = _WithAt(km.add, "add")
subtract = _WithAt(km.subtract, "subtract")
maximum = _WithAt(km.maximum, "maximum")
minimum = _WithAt(km.minimum, "minimum")


# ----- buffered assignment a[idx] = v (the hook in indexing.setitem)

def int_array_key(key: Any) -> tuple | None:
    """The leading index items of a key made of integer arrays and ints on the leading axes (at least one
    array), then only full slices ``:`` and ``...``: ``a[idx]``, ``a[idx, :]``, ``a[rows, cols]``,
    ``a[0, idx]``; None for other keys."""
    items = key if isinstance(key, tuple) else (key,)
    lead = 0
    while lead < len(items) and (_int_array(items[lead]) or _int(items[lead])):
        lead += 1
    rest = items[lead:]
    if not any(_int_array(k) for k in items[:lead]) or sum(k is Ellipsis for k in rest) > 1:
        return None
    if not all(k is Ellipsis or (isinstance(k, slice) and k == slice(None)) for k in rest):
        return None
    return tuple(items[:lead])


def _int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def _int_array(k: Any) -> bool:
    if isinstance(k, Array):
        return k.dtype.is_int and k.dtype is not dt.bool_
    if isinstance(k, (list, np.ndarray)):
        host = np.asarray(k)
        return host.dtype.kind in "iu" or (host.size == 0 and host.dtype.kind == "f")
    return False


def assign_rows(a: Array, keys: tuple, value: Any) -> Array:
    """``a`` with ``a[keys] = value`` (``keys``: integer arrays and ints on the leading axes, broadcast
    together) in NumPy's buffered semantics: where indices repeat, the last occurrence wins. ``value``
    broadcasts to the indices' shape followed by the remaining axes of ``a``.

    >>> import kdsl as kd
    >>> a = kd.zeros((3, 2), dtype=kd.int32)
    >>> a[[2, 0, 2]] = kd.asarray([[1, 1], [2, 2], [3, 3]], dtype=kd.int32)
    >>> a[kd.arange(3), [1, 1, 0]] = 9
    >>> a.tolist()
    [[2, 9], [0, 9], [9, 3]]
    """
    k = len(keys)
    if k > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {k} were indexed")
    idxs = [_checked_indices(ix, n, a.device, axis) for axis, (ix, n) in enumerate(zip(keys, a.shape, strict=False))]
    try:
        shape = ops.broadcast_shapes(*(ix.shape for ix in idxs))
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         f"{' '.join(str(ix.shape) for ix in idxs)}") from None
    rest = a.shape[k:]
    v = _assigned(value, a, shape + rest)
    lead = int(np.prod(a.shape[:k], dtype=np.int64))
    if v.size == 0 or a.size == 0:
        return a
    flat, stride = None, 1
    for ix, n in zip(reversed(idxs), reversed(a.shape[:k]), strict=True):  # row-major flat index
        term = broadcast_to(ix, shape) * stride
        flat, stride = term if flat is None else flat + term, stride * n
    assert flat is not None
    idx = flat.reshape(-1)
    runs = _runs(idx, lead)
    # the last occurrence of p in index order is the last of its run: the sort is stable
    src = _at(runs.order, km.maximum(runs.hi - 1, 0))
    rows = _at(v.reshape((idx.size,) + rest), src)
    hit = (runs.hi > runs.lo).reshape((lead,) + (1,) * len(rest))
    return km.where(hit, rows, a.reshape((lead,) + rest)).reshape(a.shape)


def _assigned(value: Any, a: Array, shape: tuple[int, ...]) -> Array:
    """``value`` cast to ``a``'s dtype (as assignment casts) and broadcast to ``shape``."""
    if isinstance(value, str):
        raise ValueError(f"could not convert string {value!r} to {a.dtype.name}; assign numbers")
    if isinstance(value, (bool, int, float)):
        v = Array(ops.const_node(value, a.dtype, a.device))
    else:
        v = value if isinstance(value, Array) else asarray(value, dtype=a.dtype, device=a.device)
        v = v.astype(a.dtype)
    extra = v.ndim - len(shape)
    if extra > 0 and all(m == 1 for m in v.shape[:extra]):
        v = v.reshape(v.shape[extra:])
    try:
        return broadcast_to(v, shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {v.shape} could not be broadcast to indexing "
                         f"result of shape {shape}") from None


# ----- bincount and histogram

def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Array:
    """How often each value ``0, 1, ..., max(x)`` occurs in the non-negative 1-D integers ``x`` (at least
    ``minlength`` bins), or the sums of ``weights`` per value (float64 as NumPy's, float32 on devices without
    float64). Reads back ``max(x)`` for the length (one synchronisation).

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
    if not xs.dtype.is_int or xs.dtype is dt.bool_:
        raise TypeError(f"Cannot cast array data from dtype('{xs.dtype.np}') to dtype('int64') according to the "
                        "rule 'safe'")
    length = minlength
    if xs.size:
        lo, hi = amin(xs), amax(xs)
        realize(lo, hi)
        if int(lo) < 0:
            raise ValueError("'list' argument must have no negative elements")
        length = max(length, int(hi) + 1)
    return _bincount(xs, weights, length)


def _bincount(xs: Array, weights: Any, length: int) -> Array:
    """bincount of indices known to be in ``[0, length)``."""
    dev = xs.device
    idx = xs.astype(_index_dtype(dev))
    w = None
    if weights is not None:
        w = weights if isinstance(weights, Array) else asarray(weights, device=dev)
        if w.shape != xs.shape:
            raise ValueError(f"The weights and list don't have the same length: {w.shape} and {xs.shape}")
    out_dtype = _index_dtype(dev) if w is None else (dt.float64 if dev.supports(dt.float64) else dt.float32)
    if xs.size == 0 or length == 0:
        return zeros(length, dtype=out_dtype, device=dev)
    runs = _runs(idx, length)
    if w is None:  # a run's length is its count: no sums at all
        return (runs.hi - runs.lo).astype(out_dtype)
    return _run_totals(_at(w.astype(out_dtype), runs.order), runs).astype(out_dtype)


def histogram(a: Any, bins: int = 10, range: tuple[float, float] | None = None,  # noqa: A002 - NumPy's name
              density: None = None, weights: Any = None) -> tuple[Array, Array]:
    """``(hist, bin_edges)`` of the values of ``a`` in ``bins`` equal bins over ``range`` (default: ``a``'s
    minimum and maximum, read back: one synchronisation). Every bin is half-open but the last, which is closed
    (NumPy's rule); values outside the range (and NaN) are not counted. ``hist`` is int64 (the weights' dtype
    with ``weights``); ``bin_edges`` is computed on the host, as NumPy computes it.

    >>> import kdsl as kd
    >>> hist, edges = kd.histogram(kd.asarray([0.0, 0.5, 1.0, 1.0, 3.0]), bins=3)
    >>> hist.tolist(), edges.tolist()
    ([2, 2, 1], [0.0, 1.0, 2.0, 3.0])
    """
    if density:
        raise TypeError("histogram(density=True) is not supported; divide hist by its sum and the bin widths")
    if isinstance(bins, (str, Sequence, np.ndarray, Array)):
        raise TypeError("histogram supports an integer number of equal bins only; bin edge arrays and bin "
                        "estimators ('auto', ...) are not supported")
    nbins = operator.index(bins)
    if nbins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    x = (a if isinstance(a, Array) else asarray(a)).reshape(-1)
    if weights is not None:
        w = weights if isinstance(weights, Array) else asarray(weights, device=x.device)
        if w.shape != x.shape and w.size != x.size:
            raise ValueError("weights should have the same shape as a.")
        w = w.reshape(-1)
    first, last = _outer_edges(x, range)
    edge_type = np.result_type(first, last, np.empty(0, x.dtype.np))
    if edge_type.kind != "f":
        edge_type = np.result_type(edge_type, float)
    edges = asarray(np.linspace(first, last, nbins + 1, endpoint=True, dtype=edge_type), device=x.device)
    b = _bin_index(x, first, last, nbins, edges)
    # values outside the range go to one extra bin, dropped from the result
    counts = _bincount(b, None if weights is None else w, nbins + 1)[:nbins]
    if weights is not None and w.dtype != counts.dtype:
        counts = counts.astype(w.dtype)
    return counts, edges


def _outer_edges(x: Array, rng: tuple[Any, Any] | None) -> tuple[Any, Any]:
    """NumPy's ``_get_outer_edges``, with NumPy scalars of ``x``'s dtype for a range read from the data (the
    edges' dtype and the bin arithmetic depend on them as in NumPy); widened by 0.5 when empty."""
    if rng is not None:
        first, last = rng
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif x.size == 0:
        first, last = 0, 1
    else:
        lo, hi = amin(x), amax(x)
        realize(lo, hi)
        first, last = lo.numpy()[()], hi.numpy()[()]
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _bin_index(x: Array, first: Any, last: Any, nbins: int, edges: Array) -> Array:
    """The bin of each value, computed as NumPy's fast path does (the same dtypes, then its corrections
    against the edges); ``nbins`` for values outside ``[first, last]`` and for NaN."""
    keep = (x >= _py(first)) & (x <= _py(last))
    xe = x.astype(edges.dtype)
    rd = np.result_type(last, first)
    udt = {"i": np.dtype(f"u{rd.itemsize}")}.get(rd.kind, rd)
    denom = np.subtract(np.asarray(last, rd), np.asarray(first, rd), dtype=udt, casting="unsafe")[()]
    qd = dt.as_dtype(np.result_type(np.empty(0, edges.dtype.np), denom))
    num = (xe - _py(first)).astype(qd)
    i = (num / _py(denom) * nbins).astype(_index_dtype(x.device))
    i = km.where(i == nbins, nbins - 1, i)
    i = km.minimum(km.maximum(i, 0), nbins - 1)  # only dropped values leave [0, nbins); keep reads in range
    i = km.where(xe < _at(edges, i), i - 1, i)
    i = km.where((xe >= _at(edges, km.minimum(i + 1, nbins))) & (i != nbins - 1), i + 1, i)
    return km.where(keep, i, nbins)


def _py(value: Any) -> Any:
    """A NumPy or Python scalar as a Python one (kdsl treats it as a weak scalar, as NumPy 2 does)."""
    return value.item() if isinstance(value, np.generic) else value


__all__: Sequence[str] = ["add", "bincount", "histogram", "maximum", "minimum", "subtract"]
