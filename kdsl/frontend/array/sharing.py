"""``kd.may_share_memory``: NumPy's overlap test, answered from kdsl's view links.

A kdsl array lives in device memory, so it never shares memory with a NumPy array (``np.asarray(a)`` is a
download, a copy). Two kdsl arrays may share memory when one is a view of the other (``a[0]``, ``a.T``,
``a.reshape(...)`` of a stored array: writes through one reach the other) or both are views of a third. Like
NumPy's, ``True`` does not promise an element in common; kdsl's is coarser than NumPy's bounds check (two
disjoint views of one array, ``a[:2]`` and ``a[2:]``, may share here; NumPy sees their extents do not overlap).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.zeros((3, 4))
    >>> kd.may_share_memory(a, a[1]), kd.may_share_memory(a, a + 1), kd.may_share_memory(a, np.zeros(3))
    (True, False, False)
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array.array import Array


def _lineage(a: Array) -> list[Array]:
    """``a`` and the arrays it is a view of, innermost first (the ``_parent`` links writes travel along)."""
    chain = [a]
    while chain[-1]._parent is not None:
        chain.append(chain[-1]._parent[0])
    return chain


def may_share_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """Whether ``a`` and ``b`` might share memory (NumPy's ``np.may_share_memory``; ``np.may_share_memory`` on
    kdsl arrays comes here). Anything that is not a kdsl array (NumPy arrays, scalars, lists) shares nothing
    with a kdsl array. ``max_work`` is accepted for NumPy's signature; the answer is always the cheap bound.

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.may_share_memory(a[0], a[1]), kd.may_share_memory(a, kd.arange(6))
    (True, False)
    """
    if max_work is not None and not isinstance(max_work, int):
        raise TypeError(f"may_share_memory: max_work must be an int or None, got {type(max_work).__name__}")
    if not (isinstance(a, Array) and isinstance(b, Array)) or a.size == 0 or b.size == 0:
        return False  # an empty array has no memory to share (NumPy says the same)
    ids = {id(x) for x in _lineage(a)}
    return any(id(x) in ids for x in _lineage(b))
