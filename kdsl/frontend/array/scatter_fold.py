"""``ufunc.at`` for the associative, commutative operations without an atomic or a prefix-sum form:
``kd.multiply.at`` and ``kd.bitwise_and.at`` / ``bitwise_or.at`` / ``bitwise_xor.at``.

NumPy applies ``a[i] = op(a[i], v)`` once per index, in order. For these operations that is
``op(a[i], fold of the values at i)``: the indices are sorted stably (their runs, as in :mod:`scatter_sorted`),
and a segmented inclusive scan (Hillis-Steele: ``log2(n)`` doubling steps, each combining with the element
``k`` places back when it is in the same run) leaves each run's fold at its last position. Integer products
wrap as NumPy's sequential ones do (multiplication modulo 2**bits is associative); float products may round
differently from NumPy's left-to-right order. The result does not depend on the device or on timing.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([1, 2, 3, 4])
    >>> kd.multiply.at(a, [0, 2, 0, 0], [2, 5, 3, 7])
    >>> a.tolist()
    [42, 2, 15, 4]
"""

from __future__ import annotations

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.scatter_sorted import at, runs_of
from kdsl.frontend.array.shape_ops import concatenate

FOLDS = ("multiply", "bitwise_and", "bitwise_or", "bitwise_xor")


def segmented_scan(name: str, v: Array, keys: Array) -> Array:
    """The inclusive scan of ``v`` under ``name`` restarting where the sorted ``keys`` change."""
    fn = getattr(km, name)
    y, k, n = v, 1, v.shape[0]
    while k < n:
        same = keys[k:] == keys[:-k]  # sorted keys: the whole stretch back to i - k is one run
        y = concatenate([y[:k], km.where(same, fn(y[k:], y[:-k]), y[k:]).astype(y.dtype)])
        k *= 2
    return y


def combined(name: str, x: Array, idx: Array, v: Array, n: int) -> Array:
    """The 1-D ``x`` after ``name.at(x, idx, v)`` (flat, wrapped, in-range indices; ``v`` in ``x``'s dtype)."""
    runs = runs_of(idx, n)
    scanned = segmented_scan(name, at(v, runs.order), at(idx, runs.order))
    fold = at(scanned, km.maximum(runs.hi - 1, 0))
    return km.where(runs.hi > runs.lo, getattr(km, name)(x, fold).astype(x.dtype), x)
