"""NumPy's weighted covariance, ``cov(m, fweights=..., aweights=...)``: frequency weights (integer repeat
counts) and analytic weights (relative importances) of the observations, alone or together (their product).

The weighted mean centres the data; the normalisation follows NumPy: ``sum(w)`` with ``ddof=0``,
``sum(w) - ddof`` with frequency weights only, else ``sum(w) - ddof * sum(w * a) / sum(w)``. The weights are
checked as NumPy checks them (integral frequencies, non-negative, not summing to zero), host lists and kdsl
arrays alike: the checks' flags are read back once; everything else stays on the device.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([[0.0, 1.0, 2.0]])
    >>> round(float(kd.cov(x, fweights=[1, 1, 2])), 5), round(float(kd.cov(x, aweights=[1.0, 1.0, 2.0])), 5)
    (0.91667, 1.1)
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import as_array_beside
from kdsl.frontend.array.reductions import any as reduce_any
from kdsl.frontend.array.reductions import sum as ksum


def _as_weights(w: Any, name: str, x: Array) -> Array:
    """The weights as a kdsl array on ``x``'s device (NumPy casts them to float: complex ones are refused)."""
    a = as_array_beside(w, x, x.device)  # a float list at x's float64 precision
    if a.dtype.kind == "c":
        raise TypeError(f"Cannot cast {name} of dtype('{a.dtype.np}') to dtype('float64')")
    return a


def _checked_weights(x: Array, fweights: Any, aweights: Any) -> tuple[Array, Array | None]:
    """(the product of the given weights, the analytic weights or None), in ``x``'s (real) dtype, after NumPy's
    checks in NumPy's order: fractional frequency weights (NaN included: NumPy's ``w == around(w)``;
    TypeError), a shape other than one weight per observation (RuntimeError), negative weights (ValueError),
    weights summing to zero (ZeroDivisionError, from NumPy's ``average``). The value checks are read back
    together: one synchronisation, as NumPy raises before computing anything."""
    n, work = x.shape[1], x.dtype.real_dtype if x.dtype.kind == "c" else x.dtype
    given = [(name, _as_weights(w, name, x)) for name, w in (("fweights", fweights), ("aweights", aweights))
             if w is not None]
    flags: dict[str, Array] = {}
    for name, w in given:
        if name == "fweights" and not w.dtype.is_int:  # integers and booleans are whole by their dtype
            flags["fractional"] = reduce_any(w != km.round(w))
        flags[name] = reduce_any(w < 0)
    shaped = all(w.ndim == 1 and w.shape[0] == n for _, w in given)
    cast = {name: w.astype(work) for name, w in given}
    product = None
    if shaped:
        for w in cast.values():
            product = w if product is None else product * w
        assert product is not None
        flags["zero"] = ksum(product) == 0
    realize(*flags.values())
    if "fractional" in flags and bool(flags["fractional"]):
        raise TypeError("fweights must be integer")
    for name, w in given:
        if w.ndim > 1:
            raise RuntimeError(f"cannot handle multidimensional {name}")
        if w.shape[0] != n:
            raise RuntimeError(f"incompatible numbers of samples and {name}")
        if bool(flags[name]):
            raise ValueError(f"{name} cannot be negative")
    assert product is not None
    if bool(flags["zero"]):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return product, cast.get("aweights")


def weighted_centred(x: Array, fweights: Any, aweights: Any, ddof: int) -> tuple[Array, Array, Array]:
    """(``x`` minus its weighted means, the weights ``w`` to multiply one side by, ``1 / fact`` as a 0-d
    array: inf where ``fact <= 0``, as NumPy's warning case) for observations in the columns of ``x``."""
    w, a = _checked_weights(x, fweights, aweights)
    w_sum = ksum(w)
    avg = ksum(x * w, axis=1, keepdims=True) / w_sum
    if ddof == 0:
        fact = w_sum
    elif a is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * ksum(w * a) / w_sum
    scale = km.where(fact > 0, 1.0 / fact, float("inf")).astype(w.dtype)
    return x - avg, w, scale
