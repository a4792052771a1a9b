"""NumPy's layout keywords of array creation (``order=``, ``subok=``, ``like=``), which kdsl takes so that NumPy
code runs unchanged: ``kd.zeros((2, 3), order='F')``, ``kd.ones_like(a, subok=False)``,
``kd.empty(3, like=a)``.

kdsl arrays have one class, so either ``subok`` gives the same array; ``order='F'`` gives a Fortran-ordered
array (``memory_order.fortran_copy``: NumPy's ``flags``/``strides``, ``docs/numpy-api.md``). An ``order`` NumPy
does not know raises its ``ValueError``. ``like=`` is NumPy's hook for
creating another library's array: a kdsl array (or None) is accepted, anything else raises ``TypeError`` naming
the parameter, since a kdsl function cannot create a NumPy or CuPy array.

    >>> import kdsl as kd
    >>> kd.zeros((2, 2), order="F", like=kd.ones(1)).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
"""

from __future__ import annotations

import sys
from typing import Any

from kdsl.frontend.array.memory_order import fortran


def check_order(name: str, order: Any, allowed: str = "CFAK") -> None:
    """NumPy's ``ValueError`` for an ``order`` outside ``allowed`` (the caller lays out a valid 'F' itself)."""
    if (order.__class__ is str and order == "C") or (order is None and "K" in allowed):  # the defaults (hot)
        return
    try:
        fortran(order, allowed)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def check_like(name: str, like: Any) -> None:
    """``like=`` must be None or a kdsl array: kdsl creates kdsl arrays only."""
    if like is None or isinstance(like, sys.modules["kdsl"].Array):
        return
    raise TypeError(f"{name}(like=...) got a {type(like).__module__}.{type(like).__name__}: kdsl creates kdsl "
                    f"arrays only; drop like= (or pass a kdsl array), or call numpy.{name} for a NumPy array")
