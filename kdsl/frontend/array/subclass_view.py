"""``a.view(MyArray)``: a kdsl array seen as an instance of a Python subclass of ``kd.ndarray``.

NumPy users subclass ``ndarray`` to carry extra attributes (numpy-100 #63, an array with a ``name``) or to change
item assignment (numpy-100 #85, a symmetric matrix whose ``Z[i, j] = v`` also writes ``Z[j, i]``), and make their
instances with ``np.asarray(x).view(MyArray)``. kdsl does the same: the view shares ``a``'s data, is an instance of
the subclass (its ``__new__`` is not called, as NumPy's ``view`` does not call it: #63's ``__new__`` calls ``view``),
and its ``__array_finalize__(a)`` runs when the subclass defines one. Unlike NumPy, the results of operations on
it are plain kdsl arrays (kdsl does not carry subclasses through its functions), ``kd.asarray`` of it is the
instance itself (NumPy's is a base-class view), and a write into a view of it (``z.T[0, 1] = v``, a row) reaches it
through the subclass's own ``__setitem__`` with the key ``...`` (NumPy's views share memory and call none).

Example:
    >>> import kdsl as kd
    >>> class Named(kd.ndarray):
    ...     def __array_finalize__(self, obj):
    ...         self.name = getattr(obj, "name", "no name")
    >>> z = kd.arange(3).view(Named)
    >>> type(z).__name__, z.name, z.tolist()
    ('Named', 'no name', [0, 1, 2])
"""

from __future__ import annotations

import builtins
from typing import Any

from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node


def subclass_of(t: Any) -> type[Array] | None:
    """``t`` when it is a proper Python subclass of kdsl's Array (``kd.ndarray``), else None."""
    if isinstance(t, builtins.type) and issubclass(t, Array) and t is not Array:
        return t
    return None


def instance(cls: type[Array], node: Node) -> Array:
    """A new ``cls`` holding ``node`` (Array's own initialisation; the subclass's ``__new__`` is not called)."""
    obj = object.__new__(cls)
    Array.__init__(obj, node)
    return obj


def finalize(obj: Array, source: Array) -> Array:
    """Run the subclass's ``__array_finalize__(source)`` where it has one (NumPy's hook for new views)."""
    hook = getattr(obj, "__array_finalize__", None)
    if callable(hook):
        hook(source)
    return obj
