"""NumPy's weighted covariance, ``cov(m, fweights=..., aweights=...)``: frequency weights (integer repeat
counts) and analytic weights (relative importances) of the observations, alone or together (their product).

The weighted mean centres the data; the normalisation follows NumPy: ``sum(w)`` with ``ddof=0``,
``sum(w) - ddof`` with frequency weights only, else ``sum(w) - ddof * sum(w * a) / sum(w)``. Everything stays
on the device; host weights (lists, NumPy arrays) are checked as NumPy checks them (integral, non-negative).

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([[0.0, 1.0, 2.0]])
    >>> round(float(kd.cov(x, fweights=[1, 1, 2])), 5), round(float(kd.cov(x, aweights=[1.0, 1.0, 2.0])), 5)
    (0.91667, 1.1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.reductions import sum as ksum


def _weights(w: Any, n: int, name: str, x: Array) -> Array:
    """The weights as a 1-d array of ``x``'s dtype, checked against the ``n`` observations."""
    if not isinstance(w, Array):
        host = np.asarray(w, dtype=np.float64)
        if host.ndim == 1 and name == "fweights" and not np.all(host == np.around(host)):
            raise TypeError("fweights must be integer")
        if host.ndim == 1 and host.shape[0] == n and np.any(host < 0):
            raise ValueError(f"{name} cannot be negative")
    a = as_array(w, x.device)
    if a.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if a.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    return a.astype(x.dtype.real_dtype if x.dtype.kind == "c" else x.dtype)


def weighted_centred(x: Array, fweights: Any, aweights: Any, ddof: int) -> tuple[Array, Array, Array]:
    """(``x`` minus its weighted means, the weights ``w`` to multiply one side by, ``1 / fact`` as a 0-d
    array: inf where ``fact <= 0``, as NumPy's warning case) for observations in the columns of ``x``."""
    n = x.shape[1]
    f = _weights(fweights, n, "fweights", x) if fweights is not None else None
    a = _weights(aweights, n, "aweights", x) if aweights is not None else None
    w = f * a if f is not None and a is not None else f if f is not None else a
    assert w is not None
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
