"""When a binary operator of ``kd.Array`` returns NotImplemented, so that Python runs the other operand's
reflected operator: for types that handle kdsl arrays themselves (``kd.ma.MaskedArray``) and, as NumPy's
``ndarray`` operators do, for types that opt out of ufuncs or outrank an ndarray (``__array_priority__``).
"""

from __future__ import annotations


def defers(other) -> bool:
    """Whether a binary operator of Array returns NotImplemented for ``other`` (after failing to take it as an
    operand): a type that handles kdsl arrays itself (``kd.ma.MaskedArray``: its reflected operator runs)."""
    return bool(getattr(type(other), "__kdsl_defer__", False))


def operator_defers(other) -> bool:
    """Whether a binary operator of Array returns NotImplemented for ``other``, which it could not take as an
    operand, so that Python runs ``other``'s reflected operator: :func:`defers`, or NumPy's rule for
    ``ndarray``'s operators, which defer to a type with ``__array_ufunc__ = None`` or, without
    ``__array_ufunc__``, with an ``__array_priority__`` above an ndarray's (DeZero's ``Variable`` sets 200 so that
    ``np.array(2.0) * x`` is ``x.__rmul__``).

    >>> import kdsl as kd
    >>> class Var:
    ...     __array_priority__ = 200
    ...     def __rmul__(self, other):
    ...         return "Var.__rmul__"
    >>> kd.asarray(2.0) * Var()
    'Var.__rmul__'
    """
    if defers(other):
        return True
    cls = type(other)
    if hasattr(cls, "__array_ufunc__"):
        return cls.__array_ufunc__ is None
    priority = getattr(other, "__array_priority__", 0.0)
    return isinstance(priority, (int, float)) and priority > 0.0  # ndarray's own priority: 0.0
