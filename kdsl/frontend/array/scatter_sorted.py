"""The sort-based, deterministic path of NumPy's unbuffered ``ufunc.at`` (``kd.add.at`` and friends), of
``bincount`` and ``histogram``: no atomics, every write a *gather* composed of existing lazy ops.

The indices are sorted once (stable ``argsort``), and each position ``p`` of the target finds its run
``[lo, hi)`` of equal sorted indices with two ``searchsorted`` calls. A position with an empty run keeps its
value; the others combine with their run's total (``add``/``subtract``), its last element when the run is also
sorted by value (``maximum``; ``minimum`` takes the first), or the value of the last occurrence in index order
(``a[idx] = v``).

Run totals are differences of an inclusive ``cumsum`` of the sorted values: exact for integers (wrapping as
NumPy's sequential adds do), and for floats accumulated in float64 where the device has it, so a float32 total's
error stays far below float32 rounding (float64 inputs may lose ``eps * |sum of the runs before|``; a segmented
scan restarting at run starts would avoid that). NaN and infinities are counted separately (integer prefix sums)
so one NaN poisons only its own run, as in NumPy. The result does not depend on the device or on timing.

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
from kdsl.frontend.array.creation import arange, zeros
from kdsl.frontend.array.joining import concatenate
from kdsl.frontend.array.reductions import cumsum
from kdsl.frontend.array.sorting import argsort, searchsorted, take


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
    ``c`` the exclusive prefix sum."""
    c = concatenate([zeros(1, dtype=x.dtype, device=x.device), cumsum(x, dtype=x.dtype)])
    return at(c, runs.hi) - at(c, runs.lo)


def run_totals(v_sorted: Array, runs: _Runs) -> Array:
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


def combined(name: str, x: Array, idx: Array, v: Array, n: int) -> Array:
    """The 1-D ``x`` after ``name.at(x, idx, v)`` (flat, wrapped, in-range indices)."""
    if name in ("add", "subtract"):
        runs = runs_of(idx, n)
        total = run_totals(at(v, runs.order), runs)
        hit = runs.hi > runs.lo
        wide = x.astype(total.dtype)
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
