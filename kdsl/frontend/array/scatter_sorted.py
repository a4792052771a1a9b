"""The sort-based, deterministic path of NumPy's unbuffered ``ufunc.at`` (``kd.add.at`` and friends), of
``bincount`` and ``histogram``: no atomics, every write a *gather* composed of existing lazy ops.

The indices are sorted once (stable ``argsort``), and each position ``p`` of the target finds its run
``[lo, hi)`` of equal sorted indices with two ``searchsorted`` calls. A position with an empty run keeps its
value; the others combine with their run's total (``add``/``subtract``), its last element when the run is also
sorted by value (``maximum``; ``minimum`` takes the first), or the value of the last occurrence in index order
(``a[idx] = v``).

Integer run totals are differences of an inclusive ``cumsum`` of the sorted values (exact, wrapping as NumPy's
sequential adds do). Float runs are summed each on its own, starting from the target's value as NumPy's sequential
``x[i] += v`` does: a segmented scan (:mod:`segmented_scan`) over the target's value followed by its run, in float64
where the device has it, so one bin's sum never depends on another bin's values (a running sum across runs lost
``eps * |all the sums before|``: ``add.at(zeros(3), [0, 1, 2], [1e16, 1, 3])`` gave ``[1e16, 0, 4]``). NaN and
infinities poison only their own run, as in NumPy. The result does not depend on the device or on timing.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0, 3.0])
    >>> combined("add", x, kd.asarray([0, 2, 2]), kd.asarray([1.0, 1.0, 1.0]), 3).tolist()
    [2.0, 2.0, 5.0]
"""

from __future__ import annotations

from typing import NamedTuple

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange, ones, zeros
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.joining import concatenate
from kdsl.frontend.array.segmented_scan import segmented_scan
from kdsl.frontend.array.shape_ops import stack
from kdsl.frontend.array.sorting import argsort, searchsorted
from kdsl.frontend.array.take import take


class _Runs(NamedTuple):
    """The sorted indices' runs: ``order`` sorts the (flattened) indices stably; position ``p`` of the target
    owns sorted positions ``[lo[p], hi[p])`` (empty when ``p`` is not indexed)."""

    order: Array
    lo: Array
    hi: Array


def runs_of(idx: Array, n: int, order: Array | None = None) -> _Runs:
    """The runs of the wrapped indices ``idx`` (1-D) over a target axis of ``n``; ``order`` may be any
    permutation sorting ``idx`` (default: its stable argsort)."""
    if order is None:
        order = argsort(idx, kind="stable")
    s = take(idx, order, mode="clip")
    p = arange(n, dtype=idx.dtype, device=idx.device)
    return _Runs(order, searchsorted(s, p, "left"), searchsorted(s, p, "right"))


def at(x: Array, i: Array) -> Array:
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
    ``c`` the exclusive prefix sum (exact for integers only)."""
    c = concatenate([zeros(1, dtype=x.dtype, device=x.device), cumsum(x, dtype=x.dtype)])
    return at(c, runs.hi) - at(c, runs.lo)


def _float_sums(x: Array, v_sorted: Array, runs: _Runs, idx_sorted: Array) -> Array:
    """Per target position, ``x[p] + v1 + v2 + ...`` over its run (NumPy's order of operands: the target's
    value first), each run scanned on its own in the accumulation dtype. The target's value enters in front of
    each run's first value; the other slots get ``-0.0``, the exact additive identity (``+0.0 + -0.0`` is
    ``+0.0``), so the pairs interleave into one sequence of twice the length."""
    acc = _acc_dtype(x.dtype, x.device)
    m = v_sorted.shape[0]
    first = ones(min(m, 1), dtype=dt.bool_, device=x.device)
    starts = concatenate([first, idx_sorted[1:] != idx_sorted[:-1]])
    front = km.where(starts, at(x, idx_sorted).astype(acc), -0.0).astype(acc)
    pairs = stack([front, v_sorted.astype(acc)], axis=1).reshape(-1)
    keys = stack([idx_sorted, idx_sorted], axis=1).reshape(-1)
    folded = segmented_scan(km.add, pairs, keys)
    return at(folded, 2 * km.maximum(runs.hi - 1, 0) + 1)


def combined(name: str, x: Array, idx: Array, v: Array, n: int) -> Array:
    """The 1-D ``x`` after ``name.at(x, idx, v)`` (flat, wrapped, in-range indices)."""
    if name in ("add", "subtract"):
        runs = runs_of(idx, n)
        v_sorted = at(v, runs.order)
        hit = runs.hi > runs.lo
        if x.dtype.is_float:  # x - v1 - v2 is x + (-v1) + (-v2) exactly: negation does not round
            signed = v_sorted if name == "add" else -v_sorted
            return km.where(hit, _float_sums(x, signed, runs, at(idx, runs.order)).astype(x.dtype), x)
        acc = _acc_dtype(x.dtype, x.device)
        total = _prefix_diff(v_sorted.astype(acc), runs)
        wide = x.astype(acc)
        new = (wide + total) if name == "add" else (wide - total)
        return km.where(hit, new.astype(x.dtype), x)
    # sort by value, then stably by index: each run is sorted by value (NaN last, as argsort puts them)
    by_value = argsort(v, kind="stable")
    order = at(by_value, argsort(at(idx, by_value), kind="stable"))
    runs = runs_of(idx, n, order)
    hit = runs.hi > runs.lo
    last = at(v, at(order, km.maximum(runs.hi - 1, 0)))
    if name == "maximum":
        return km.where(hit, km.maximum(x, last), x)
    first = at(v, at(order, km.minimum(runs.lo, idx.size - 1)))
    if v.dtype.is_float:  # a NaN sorts last; minimum propagates it as NumPy does
        first = km.where(km.isnan(last), last, first)
    return km.where(hit, km.minimum(x, first), x)
