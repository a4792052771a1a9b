"""NumPy's unbuffered ``ufunc.at`` for the binary ufuncs whose steps cannot be merged: ``floor_divide``,
``power``, ``remainder``, ``fmod``, ``arctan2``, ``hypot``, the shifts, ``ldexp``, the comparisons...
(:mod:`kdsl.frontend.array.scatter` has the associative ones).

NumPy applies the pairs in index order, ``a[i] = op(op(a[i], v1), v2)``, casting each result back to ``a``'s
dtype (``np.equal.at(ints, i, v)`` stores 0 or 1). Nothing shortens that chain for a non-associative ``op``, so
it runs in rounds: the indices are sorted stably (each run of equal indices keeps NumPy's order), and round
``k`` applies the ``k``-th pair of every run at once, one lazy elementwise step over the target. The longest
run decides the number of rounds (one count read back); the target is computed every ``CHUNK`` rounds so no
kernel grows with the number of repeats.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([100.0, 7.0])
    >>> kd.floor_divide.at(a, [0, 0, 1], [3.0, 2.0, 2.0])
    >>> a.tolist()
    [16.0, 3.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.scatter_sorted import at, runs_of

CHUNK = 16  # rounds per computed target (keeps each fused kernel small)


def combined(fn: Callable[..., Any], x: Array, idx: Array, v: Any, n: int) -> Array:
    """The 1-D ``x`` after ``fn.at(x, idx, v)`` (flat, wrapped, in-range indices); ``v``: the values flattened
    to ``idx``'s length in their own dtype (the ufunc promotes, as NumPy's loop), or a Python scalar."""
    runs = runs_of(idx, n)
    count = runs.hi - runs.lo
    values = at(v, runs.order) if isinstance(v, Array) else v
    last = idx.shape[0] - 1
    y = x
    for k in range(int(amax(count).item())):  # the longest run: how many rounds
        value = at(values, km.minimum(runs.lo + k, last)) if isinstance(values, Array) else values
        y = km.where(count > k, fn(y, value).astype(x.dtype), y)
        if (k + 1) % CHUNK == 0:
            realize(y)
    return y


__all__ = ["combined"]
