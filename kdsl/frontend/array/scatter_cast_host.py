"""``ufunc.at`` whose values do not fit the target's dtype: NumPy's unsafe cast after every step, on the host.

NumPy's ``ufunc.at`` computes each ``op(a[i], v)`` in the common dtype and casts the result back into ``a`` with
the *unsafe* rule, one pair after another in index order: ``np.add.at(int_counts, idx, 0.5)`` truncates after
every addition (two additions of 0.5 to 0 give 0, not 1), ``np.divide.at(int_array, idx, 2)`` divides in
float64 and truncates, ``np.maximum.at(uint8_image, idx, -1)`` compares with -1 exactly and ``np.maximum.at(
u8, idx, int64_values)`` compares before wrapping. None of these is an associative fold of the values in the
target's dtype (what the device paths of :mod:`kdsl.frontend.array.scatter` compute), so kdsl runs NumPy's own
``ufunc.at`` on a host copy and writes the result back, with a ``kd.PerformanceWarning``.

Values of the target's kind (same_kind castable) stay on the device; the modular ops (``add``, ``subtract``,
``multiply``, bitwise) of integer values also do: wrapping the values first gives the same wrapped result. So do
``maximum``/``minimum``/``fmax``/``fmin`` of wider integers that all fit the target's dtype
(``np.maximum.at(np.full(n, -1), customer, day)``: kdsl's int32 target, NumPy's int64 days): their result is one
of the two operands, so casting the values first changes nothing.

Example:
    >>> import warnings, kdsl as kd
    >>> a = kd.zeros(3, dtype=kd.int32)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", kd.PerformanceWarning)
    ...     kd.add.at(a, [0, 0, 2], [0.5, 1.5, 2.5])
    >>> a.tolist()
    [1, 0, 2]
"""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.performance_warning import PerformanceWarning

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # kdsl/

# ops whose wrapped integer result depends only on the wrapped operands (values may be wrapped first)
MODULAR = frozenset({"add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor"})
# ops whose result is one of their operands: integer values that fit the target's dtype may be cast first
SELECTING = frozenset({"maximum", "minimum", "fmax", "fmin"})


def _value_dtype(values: Any, target: np.dtype) -> np.dtype:
    """The dtype NumPy computes ``op(target, values)`` in (a Python scalar is weak, as in NumPy 2)."""
    if isinstance(values, Array):
        return np.result_type(target, values.dtype.np)
    if isinstance(values, (bool, int, float, complex)):
        return np.result_type(target, values)
    return np.result_type(target, np.asarray(values))


def needs_host(name: str, target: Array, values: Any) -> bool:
    """Whether ``name.at(target, i, values)`` needs NumPy's per-step unsafe cast (see the module)."""
    t = target.dtype.np
    if isinstance(values, int) and not isinstance(values, bool) and t.kind in "iu" and name not in MODULAR:
        info = np.iinfo(t)  # maximum.at(u8, i, -1): NumPy compares with -1 itself
        if not info.min <= values <= info.max:
            return True
    vd = _value_dtype(values, t)
    if name == "divide" and vd.kind in "biu":  # true division of integers computes in float64
        vd = np.dtype(np.float64)
    if not np.can_cast(vd, t, "same_kind"):
        return True
    if t.kind not in "iu" or name in MODULAR or np.can_cast(vd, t, "safe"):
        return False
    return not (name in SELECTING and vd.kind in "iu" and _fits(values, t))


def _fits(values: Any, t: np.dtype) -> bool:
    """Whether every (integer) value is one of ``t``'s: then casting them to ``t`` first loses nothing.

    Example:
        >>> import numpy as np
        >>> _fits(np.array([0, 364]), np.dtype(np.int16)), _fits([40000], np.dtype(np.int16))
        (True, False)
    """
    v = values if isinstance(values, Array) else np.asarray(values)
    if v.size == 0:
        return True
    info = np.iinfo(t)  # a kdsl array's extremes: two scalars read back (the host path downloads it all)
    return info.min <= int(v.min()) and int(v.max()) <= info.max


def _host(x: Any) -> Any:
    if isinstance(x, Array):
        return x.numpy()
    if isinstance(x, tuple):
        return tuple(_host(v) for v in x)
    if isinstance(x, list) and any(isinstance(v, Array) for v in x):
        return np.asarray([_host(v) for v in x])
    return x


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside kdsl (the program's ``kd.add.at`` line)."""
    frame: FrameType | None = sys._getframe(2)  # the frame that called the function calling this one
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def at_on_host(name: str, target: Array, indices: Any, values: Any) -> None:
    """NumPy's ``name.at`` on a host copy of ``target``, written back into it (a view writes through)."""
    from kdsl.frontend.array.creation import asarray
    from kdsl.frontend.array.inplace import store_inplace

    host_values = _host(values)
    vd = np.result_type(target.dtype.np, host_values if not isinstance(host_values, list) else
                        np.asarray(host_values))
    warnings.warn(f"kd.{name}.at: values of {vd} into a {target.dtype.name} array, cast back after every step "
                  f"as NumPy's unsafe rule does; computed on the host", PerformanceWarning, stacklevel=_caller_level())
    host = np.array(target.numpy(), copy=True)
    getattr(np, name).at(host, _host(indices), host_values)
    store_inplace(target, asarray(host, device=target.device))


__all__ = ["MODULAR", "SELECTING", "at_on_host", "needs_host"]
