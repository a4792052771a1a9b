"""The ``einsum`` calls NumPy answers with a writeable view of their one operand: labels only permuted
(``'ij->ji'``, ``'ij'``, ``'...ij->...ji'``) or repeated to take a diagonal (``'ii->i'``, ``'iij->ji'``), nothing
summed. Stack Overflow's way to set a diagonal, ``np.einsum('ii->i', a)[:] = 0``, writes into ``a`` through it.

A permutation is :meth:`Array.transpose` (a view). A diagonal is kdsl's strided diagonal view, linked to the
operand: writes into it scatter back to the diagonal's positions, and writes into the operand show in it.

Example:
    >>> import kdsl as kd
    >>> a = kd.ones((3, 3))
    >>> kd.einsum("ii->i", a)[:] = 0
    >>> a.tolist()
    [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.constructors import diagonal
from kdsl.frontend.array.creation import asarray

Labels = Sequence[str]


def einsum_view(a: Array, labels: Labels, outputs: Labels, dtype: Any, out: Any) -> Array | None:
    """The view NumPy's ``einsum`` returns for the single operand ``a`` with ``labels`` (``'.0'``... for an
    ellipsis) and ``outputs``, or None where it computes a new array (a label summed or dropped, ``out=``,
    another ``dtype=``, a repeated label over axes of different lengths: the contraction handles those).

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> einsum_view(a, "ij", "ji", None, None).shape, einsum_view(a, "ij", "i", None, None)
    ((3, 2), None)
    """
    if out is not None or (dtype is not None and dt.as_dtype(dtype) != a.dtype):
        return None
    labels, outputs = tuple(labels), tuple(outputs)
    if set(labels) != set(outputs) or len(outputs) != len(set(labels)) or len(labels) != a.ndim:
        return None
    sizes = {x: {n for y, n in zip(labels, a.shape, strict=True) if y == x} for x in outputs}
    if any(len(s) != 1 for s in sizes.values()):
        return None
    if len(labels) == len(outputs):
        return a.transpose(tuple(labels.index(x) for x in outputs))
    view = _diagonal_view(a, labels, outputs)
    return view._view_of(a, _scatter_back(a, labels, outputs), lambda now: _diagonal_view(now, labels, outputs))


def _diagonal_view(a: Array, labels: tuple[str, ...], outputs: tuple[str, ...]) -> Array:
    """``a``'s diagonals over each repeated label (one axis per label, at its last place), ordered as ``outputs``."""
    while len(set(labels)) != len(labels):
        x = next(x for x in labels if labels.count(x) > 1)
        i = labels.index(x)
        j = labels.index(x, i + 1)
        a = diagonal(a, 0, i, j)
        labels = tuple(y for m, y in enumerate(labels) if m not in (i, j)) + (x,)
    return a.transpose(tuple(labels.index(x) for x in outputs))


def _scatter_back(a: Array, labels: tuple[str, ...], outputs: tuple[str, ...]):
    """The write of the diagonal view into its operand: one index array per operand axis (its label's place in
    the output), so ``base[index] = view`` lands each element where NumPy's view keeps it."""
    sizes = dict(zip(labels, a.shape, strict=True))
    ndim = len(outputs)
    host = tuple(np.arange(sizes[x]).reshape([-1 if q == outputs.index(x) else 1 for q in range(ndim)])
                 for x in labels)
    made: list[tuple[Array, ...]] = []

    def write(base: Array, view: Array) -> None:
        if not made:  # uploaded at the first write: a view only read costs nothing
            made.append(tuple(asarray(i, device=base.device) for i in host))
        base[made[0]] = view

    return write
