"""NumPy's unbuffered ``ufunc.at`` for the associative ufuncs besides ``add``/``maximum``/``minimum``
(:mod:`kdsl.frontend.array.scatter`): ``kd.multiply.at``, ``kd.divide.at``, the bitwise and logical ones,
``fmax``/``fmin``, ``gcd``/``lcm``.

NumPy applies the pairs one after another in index order, ``a[i] = op(op(a[i], v1), v2)``; for an associative
``op`` that is ``op(a[i], op(v1, v2))``. So the indices are sorted stably (each run of equal indices keeps the
values in the order NumPy applies them), a segmented inclusive scan by recursive doubling folds every run
(``ceil(log2(m))`` lazy steps over the ``m`` pairs: step ``k`` combines each value with the one ``k`` before it
when both belong to the same run), and each indexed position applies its run's total once. ``divide`` folds its
run by ``multiply`` and divides once (``a / v1 / v2`` up to rounding). Deterministic: no atomics.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([1.0, 2.0, 3.0])
    >>> kd.multiply.at(a, [0, 2, 2], [5.0, 2.0, 4.0])
    >>> a.tolist()
    [5.0, 2.0, 24.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.scatter_sorted import at, runs_of
from kdsl.frontend.array.segmented_scan import segmented_scan

# the ufuncs whose .at folds each run with the ufunc itself and applies the fold with it once, except where
# FOLD_BY names another fold: a run of divisions divides the target by the run's product
FOLDS = ("multiply", "divide", "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or",
         "logical_xor", "fmax", "fmin", "gcd", "lcm")
FOLD_BY = {"divide": km.multiply}


def combined(name: str, fn: Callable[..., Any], x: Array, idx: Array, v: Array, n: int) -> Array:
    """The 1-D ``x`` after ``name.at(x, idx, v)`` (flat, wrapped, in-range indices), ``fn`` being the ufunc's
    elementwise function."""
    runs = runs_of(idx, n)
    keys, values = at(idx, runs.order), at(v, runs.order)
    folded = segmented_scan(FOLD_BY.get(name, fn), values, keys)
    total = at(folded, km.maximum(runs.hi - 1, 0))  # a run's last prefix: its whole fold
    applied = fn(x, total)
    return km.where(runs.hi > runs.lo, applied.astype(x.dtype), x)


__all__ = ["FOLDS", "combined"]
