"""``kd.nditer``: NumPy's ``np.nditer`` for the common read-only cases: iterating the elements of one array,
or of several broadcast together, with NumPy's ``flags`` (``multi_index``, ``c_index``, ``f_index``,
``external_loop``, ``buffered``...), ``order``, ``op_dtypes`` and ``casting``, and the iterator's attributes
(``multi_index``, ``index``, ``finished``, ``iternext()``, ``shape``, ``itersize``, ``value``...).

It is a host iteration, as NumPy's element-by-element loop is: the kdsl operands are downloaded once, each
laid out as NumPy lays out the equivalent array (a transpose is Fortran-ordered), so the default
``order='K'`` visits the elements in NumPy's order; the items are NumPy's read-only 0-d arrays. Writing
through the iterator (``op_flags=['readwrite']``/``'writeonly'``/``'allocate'``) is refused with a TypeError:
write the loop as an array expression (``a[...] = f(a)``) instead.

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> [int(x) for x in kd.nditer(a.T)], [int(x) * int(y) for x, y in kd.nditer([a, kd.asarray([1, 0, 2])])]
    ([0, 1, 2, 3, 4, 5], [0, 0, 4, 3, 0, 10])
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import numpy as np

_WRITING = ("readwrite", "writeonly", "allocate", "updateifcopy", "writemasked")


def _refuse_writes(op_flags: Any) -> None:
    flat = [op_flags] if isinstance(op_flags, str) else [f for group in (op_flags or [])
                                                        for f in ([group] if isinstance(group, str) else group)]
    wanted = [f for f in flat if f in _WRITING]
    if wanted:
        raise TypeError(f"kd.nditer iterates host copies read-only and cannot write ({', '.join(wanted)}); "
                        "write the loop as an array expression (a[...] = f(a)) or iterate np.nditer over "
                        "a.numpy() and upload the result with kd.asarray")


def _host(x: Any) -> Any:
    from kdsl.frontend.array.array import Array  # cycle: array.py is the base of this package
    from kdsl.frontend.array.memory_order import host_with_layout

    if x is None:
        raise TypeError("kd.nditer cannot allocate outputs (a None operand); compute the result with array "
                        "expressions")
    return host_with_layout(x) if isinstance(x, Array) else x


class nditer:  # noqa: N801 - NumPy's name
    """A read-only NumPy ``nditer`` over host copies of kdsl arrays (and any array-likes)."""

    def __init__(self, op: Any, flags: Any = None, op_flags: Any = None, op_dtypes: Any = None, order: str = "K",
                 casting: str = "safe", op_axes: Any = None, itershape: Any = None, buffersize: int = 0) -> None:
        _refuse_writes(op_flags)
        operands = [_host(x) for x in op] if isinstance(op, (list, tuple)) else _host(op)
        self._it = cast(Any, np.nditer)(operands, flags, op_flags, op_dtypes, order, casting, op_axes, itershape,
                                        buffersize)

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        return next(self._it)

    def __len__(self) -> int:
        return len(self._it)

    def __getitem__(self, i: Any) -> Any:  # it[0]: operand 0's current value
        return self._it[i]

    def __getattr__(self, name: str) -> Any:  # multi_index, index, finished, iternext, shape, itersize, ...
        return getattr(self._it, name)

    def __enter__(self) -> nditer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._it.close()


__all__ = ["nditer"]
