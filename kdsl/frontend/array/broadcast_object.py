"""``kd.broadcast``: NumPy's ``np.broadcast`` object for kdsl arrays (and anything array-like): the broadcast
``shape``, ``ndim``/``nd``, ``size``, ``numiter``, and iteration over tuples of the broadcast elements.

The shape is metadata (no data moves). Iterating is a host iteration, as NumPy's is element by element: the
operands are downloaded once, on the first ``next``, and the tuples hold NumPy scalars; ``index``, ``iters``
and ``reset()`` behave as NumPy's.

Example:
    >>> import kdsl as kd
    >>> b = kd.broadcast(kd.arange(3), kd.asarray([[10], [20]]))
    >>> b.shape, b.size, b.numiter, [int(x + y) for x, y in b][:4]
    ((2, 3), 6, 2, [10, 11, 12, 20])
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Iterator
from typing import Any

import numpy as np


def _shape(x: Any) -> tuple[int, ...]:
    from kdsl.frontend.array.array import Array  # cycle: array.py is the base of this package

    if isinstance(x, (Array, broadcast)):
        return tuple(x.shape)
    return np.shape(x)


def _host(x: Any) -> Any:
    from kdsl.frontend.array.array import Array

    return x.numpy() if isinstance(x, Array) else x


class broadcast:  # noqa: N801 - NumPy's name
    """The broadcast of the operands ``arrays`` (up to 64, as NumPy; a broadcast among them counts as its
    operands)."""

    # NumPy's signature, broadcast(*arrays): the keyword catch-all below exists only to refuse keywords as NumPy
    __signature__ = inspect.Signature([inspect.Parameter("arrays", inspect.Parameter.VAR_POSITIONAL)])

    def __init__(self, *arrays: Any, **keywords: Any) -> None:
        if keywords:
            raise ValueError("keyword arguments not accepted.")
        # a broadcast operand stands for its own operands, as NumPy's: numiter and iters count each of them
        arrays = tuple(y for x in arrays for y in (x._operands if isinstance(x, broadcast) else (x,)))
        if len(arrays) > 64:
            raise ValueError("Need at least 0 and at most 64 array objects.")
        self._operands: tuple[Any, ...] = arrays
        # NumPy's own check and message, on zero-size stand-ins (no data)
        shapes = [_shape(a) for a in arrays]
        self._shape = np.broadcast(*[np.broadcast_to(np.empty((), bool), s) for s in shapes]).shape
        self._iter: Any = None

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def ndim(self) -> int:
        return len(self._shape)

    nd = ndim

    @property
    def size(self) -> int:
        return math.prod(self._shape)

    @property
    def numiter(self) -> int:
        return len(self._operands)

    def _loaded(self) -> Any:
        if self._iter is None:  # one download of every operand
            self._iter = np.broadcast(*(_host(a) for a in self._operands))
        return self._iter

    @property
    def index(self) -> int:
        return 0 if self._iter is None else self._iter.index

    @property
    def iters(self) -> tuple[Any, ...]:
        return self._loaded().iters

    def reset(self, /) -> None:
        if self._iter is not None:
            self._iter.reset()

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return self

    def __next__(self) -> tuple[Any, ...]:
        return next(self._loaded())


__all__ = ["broadcast"]
