"""``a ** b`` as NumPy's operator computes it (``Array.__pow__``), where it differs from ``kd.power``: on complex
arrays the exponents ``2``, ``-1`` (Python ints) and ``0.5`` (a float) are ``square``, ``reciprocal`` and
``sqrt``, and ``pow(a, b, m)`` is NumPy's TypeError.

Example:
    >>> import kdsl as kd
    >>> (kd.asarray([1.0 + 1.0j]) ** 2).tolist()
    [2j]
"""

from __future__ import annotations

import numpy as np

from kdsl.frontend.array import ufunc_overrides
from kdsl.frontend.array.operator_deferral import operator_defers
from kdsl.frontend.array.ops import SCALAR_POWERS, apply, array_class


def power_operator(a, b, modulo=None):
    """``a ** b`` as NumPy's operator computes it: on complex arrays, the exponents ``2``, ``-1`` (Python ints)
    and ``0.5`` (a float) are ``square``, ``reciprocal`` and ``sqrt`` (``(inf + infj) ** 0.5`` is
    ``inf + infj``, where ``power`` gives ``inf + nanj``); everything else is ``power``. ``pow(a, b, m)`` raises
    NumPy's TypeError (arrays have no three-argument power).

    >>> import kdsl as kd
    >>> (kd.asarray([complex("inf+infj")]) ** 0.5).numpy(), kd.power(kd.asarray([complex("inf+infj")]), 0.5).numpy()
    (array([inf+infj], dtype=complex64), array([inf+nanj], dtype=complex64))
    """
    if modulo is not None:
        names = ", ".join(f"'{type(x).__module__.split('.')[0]}.{type(x).__name__}'" if isinstance(x, array_class())
                          else f"'{type(x).__name__}'" for x in (a, b, modulo))
        raise TypeError(f"unsupported operand type(s) for ** or pow(): {names}")
    if isinstance(a, array_class()) and a.dtype.kind == "c" and not isinstance(b, bool):
        if (isinstance(b, int) and b in (2, -1)) or (isinstance(b, (float, np.floating)) and b == 0.5):
            return apply(SCALAR_POWERS[float(b)], a)
    try:
        return apply("pow", a, b)
    except TypeError:
        if operator_defers(b):
            return NotImplemented
        if ufunc_overrides.overrides(b):  # NEP 13: np.power(a, b) runs b's __array_ufunc__
            return ufunc_overrides.operator("pow", a, b)
        raise
