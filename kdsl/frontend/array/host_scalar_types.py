"""NumPy's scalar types that kdsl has no device dtype for: ``object_ str_ bytes_ void datetime64 timedelta64
longdouble clongdouble`` (and ``float128 complex256`` where NumPy has them), the abstract ``character``,
``flexible``, and ``isnat``.

The names are NumPy's own types, so ``isinstance``, ``np.dtype(kd.str_)`` and ``kd.issubdtype(t,
kd.datetime64)`` work and ``kd.str_("a")`` makes a NumPy (host) scalar; using one as a kdsl array's dtype
(``kd.zeros(3, dtype=kd.object_)``, ``kd.asarray(dates)``) raises a TypeError that names the alternative
(kdsl/dtype/__init__.py): numbers instead of strings and objects, int64 counts instead of datetimes, float64 instead of
extended precision.

Example:
    >>> import kdsl as kd
    >>> kd.issubdtype(kd.float32, kd.datetime64), kd.str_("ab")
    (False, np.str_('ab'))
    >>> kd.zeros(2, dtype=kd.datetime64)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: dtype datetime64 is not supported by kdsl: store datetimes as int64 counts of a unit ...
"""

from __future__ import annotations

from typing import Any

import numpy as np

object_ = np.object_
str_ = np.str_
bytes_ = np.bytes_
void = np.void
datetime64 = np.datetime64
timedelta64 = np.timedelta64
longdouble = np.longdouble
clongdouble = np.clongdouble
character = np.character
flexible = np.flexible
float128 = getattr(np, "float128", np.longdouble)  # NumPy has it where long double is 128 bits (x86 Linux)
complex256 = getattr(np, "complex256", np.clongdouble)


def isnat(x: Any, /, *args: Any, **kwargs: Any) -> Any:
    """NumPy's ``isnat`` on host datetime/timedelta data (a NumPy result: kdsl arrays hold no datetimes); a kdsl
    array or other numbers raise TypeError, as NumPy's does for non-datetime input.

    >>> import kdsl as kd, numpy as np
    >>> kd.isnat(np.array(["NaT", "2020-01-01"], dtype="datetime64[D]")).tolist()
    [True, False]
    """
    from kdsl.frontend.array.array import Array  # cycle: array.py is the base of this package

    if not isinstance(x, Array):
        host = np.asarray(x)
        if host.dtype.kind in "mM":
            return np.isnat(host, *args, **kwargs)
    raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64; kdsl arrays hold no "
                    "datetimes (store int64 counts and test the NaT value, np.iinfo(np.int64).min)")


__all__ = ["bytes_", "character", "clongdouble", "complex256", "datetime64", "flexible", "float128", "isnat",
           "longdouble", "object_", "str_", "timedelta64", "void"]
