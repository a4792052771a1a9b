"""numpy.ma's domains: where a function's argument is invalid (``sqrt`` of x < 0, ``log`` of x <= 0, ``divide``
by a divisor too small for the dividend...), and the value numpy.ma's ufunc wrapper writes there. Each is
numpy.ma's test (``numpy.ma.core.ufunc_domain``) with its precision: its bounds are Python floats (weak: a
float32 array compares in float32), but the safe division's tolerance is a float64 NumPy scalar, so that test
runs in float64 even for float32 data; kdsl gives its answers without float64 arithmetic (an exact rewrite).

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([4.0, -1.0, 0.0], dtype=kd.float32)
    >>> UNARY_DOMAINS["sqrt"](x).tolist(), safe_divide_domain(kd.asarray([1.0, float("inf")]), 0.0).tolist()
    ([False, True, False], [True, True])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd

TINY = float(np.finfo(np.float64).tiny)  # the safe division's tolerance (a float64 NumPy scalar)


def _wide(x: Any) -> bool:
    """Whether ``x`` holds float64 (or complex128) values: numpy.ma's float64 bounds then act at full precision."""
    return isinstance(x, kd.Array) and x.dtype in (kd.float64, kd.complex128)


def _floating(x: Any) -> bool:
    """Whether ``x`` has a floating dtype: numpy.ma's Python-float bounds are weak there (float32 data compares
    ``|x| > 1 - 1e-15`` in float32, where it is ``|x| > 1``); integer data compare in float64 (NumPy's int with
    a Python float), which for arctanh's bound is ``|x| >= 1``."""
    return isinstance(x, kd.Array) and kd.isdtype(x.dtype, ("real floating", "complex floating"))


UNARY_DOMAINS: dict[str, Callable[[Any], Any]] = {
    "sqrt": lambda x: x < 0.0,
    "log": lambda x: x <= 0.0,
    "log2": lambda x: x <= 0.0,
    "log10": lambda x: x <= 0.0,
    "arcsin": lambda x: kd.abs(x) > 1.0,
    "arccos": lambda x: kd.abs(x) > 1.0,
    "arccosh": lambda x: x < 1.0,
    "arctanh": lambda x: kd.abs(x) > 1.0 - 1e-15 if _floating(x) else kd.abs(x) >= 1,
    "tan": lambda x: kd.abs(kd.cos(x)) < 1e-35,
}
# what numpy.ma's ufunc wrapper writes where a unary domain fails (numpy.ma.core.ufunc_fills)
UNARY_FILLS = {"sqrt": 0.0, "log": 1.0, "log2": 1.0, "log10": 1.0, "arcsin": 0.0, "arccos": 0.0, "arccosh": 1.0,
               "arctanh": 0.0, "tan": 0.0}


def safe_divide_domain(a: Any, b: Any) -> Any:
    """numpy.ma's ``_DomainSafeDivide``: ``|a| * tiny >= |b|`` in float64 (the quotient would overflow). kdsl's
    ``|a| * tiny`` in float32 flushes to 0 (``inf * 0`` is NaN: an infinite dividend escaped the mask), so for
    arrays narrower than float64 (|a| <= 3.4e38, a nonzero |b| >= 1.4e-45) the test is rewritten exactly: ``b``
    is 0 and ``a`` is not NaN, or ``a`` is infinite and ``b`` is not NaN. A Python scalar operand is moved to
    the other side on the host (its float64 value, as NumPy's ``np.asarray`` takes it).

    >>> import kdsl as kd
    >>> safe_divide_domain(kd.asarray([1.0, 1.0, float("nan")]), kd.asarray([0.0, 2.0, 0.0])).tolist()
    [True, False, False]
    """
    if not isinstance(b, kd.Array):  # |a| >= |b| / tiny (inf for most b: only an infinite a passes)
        limit = abs(complex(b)) / TINY
        return kd.zeros(kd.asarray(a).shape, dtype=kd.bool_) if limit != limit else kd.abs(a) >= limit
    if not isinstance(a, kd.Array):  # |b| <= |a| * tiny
        return kd.abs(b) <= abs(complex(a)) * TINY
    if _wide(a) or _wide(b):
        return kd.abs(a) * TINY >= kd.abs(b)
    return ((b == 0) & ~kd.isnan(a)) | (kd.isinf(a) & ~kd.isnan(b))


__all__ = ["TINY", "UNARY_DOMAINS", "UNARY_FILLS", "safe_divide_domain"]
