"""``i0``: the modified Bessel function of the first kind, order 0 (NumPy's ``np.i0``), from lazy ops.

``I0`` is even, so kdsl works on ``t = |x|``. Small ``t``: the power series ``sum_k (t*t/4)**k / (k!)**2``
(all terms positive, so Horner's rule adds no cancellation). Large ``t``: the asymptotic expansion
``exp(t) / sqrt(2 pi t) * sum_k c_k / t**k`` with ``c_k = ((2k-1)!!)**2 / (k! 8**k)``, cut where its terms
are smallest; ``exp(t)`` is applied as two halves so that results near the dtype's largest value do not
overflow on the way. The switch point and the term counts are chosen per computation dtype (float64:
series to t = 20 with 36 terms, 21 asymptotic terms; float32: 9, 16 and 6), measured against NumPy to about
1.5e-15 and 5e-6 relative error.

Example:
    >>> import kdsl as kd
    >>> [round(v, 6) for v in kd.i0(kd.asarray([0.0, 1.0, -2.0])).tolist()]
    [1.0, 1.266066, 2.279585]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.ops import apply, where

# computation dtype -> (series up to this t, series terms, asymptotic terms)
_PLAN = {"float64": (20.0, 36, 21), "float32": (9.0, 16, 6)}


def _horner(coefs: list[float], z: Array) -> Array:
    out = z * 0.0 + coefs[-1]
    for c in reversed(coefs[:-1]):
        out = out * z + c
    return out


def _series(t: Array, terms: int) -> Array:
    return _horner([1.0 / math.factorial(k) ** 2 for k in range(terms)], t * t * 0.25)


def _asymptotic(t: Array, terms: int) -> Array:
    coefs = [1.0]
    for k in range(1, terms):
        coefs.append(coefs[-1] * (2 * k - 1) ** 2 / (8 * k))
    half = apply("exp", t * 0.5)
    return half * _horner(coefs, 1.0 / t) / apply("sqrt", t * (2.0 * math.pi)) * half


def i0(x: Any) -> Array:
    """The modified Bessel function of order 0 of each element; float arrays keep their dtype, integers and
    bools give float64 (as NumPy's ``i0``); complex raises TypeError. Like NumPy's, the result is inf
    from ``|x| > log(dtype max)`` on (where NumPy's ``exp(|x|)`` overflows) and NaN at the infinities.

    >>> import kdsl as kd
    >>> r = kd.i0(kd.asarray([0, 3]))
    >>> r.dtype.name, [round(v, 5) for v in r.tolist()]
    ('float64', [1.0, 4.88079])
    """
    a = x if isinstance(x, Array) else asarray(x)
    if a.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    d = a.dtype if a.dtype.is_float else a.device.check(dt.float64)
    c = dt.float32 if d is dt.float16 else d  # float16 computes in float32 and rounds once
    t = apply("abs", a.astype(c))
    switch, series_terms, asym_terms = _PLAN[c.name]
    out = where(t <= switch, _series(t, series_terms), _asymptotic(t, asym_terms))
    # NumPy's i0 computes exp(|x|) in x's dtype first: inf where that overflows (though I0 itself is finite
    # a little further), and inf / inf = NaN at the infinities. kdsl gives the same values.
    out = where(t > math.log(float(np.finfo(d.np).max)), float("inf"), out)
    return where(apply("isinf", t), float("nan"), out).astype(d)
