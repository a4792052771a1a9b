"""``a.flat``: NumPy's flat iterator, a 1-D view of an array in C order that reads, writes and iterates.

``a.flat[i]``, ``a.flat[2:5]``, ``a.flat[[0, 3]]`` read ``a.reshape(-1)[key]``; ``a.flat[key] = v`` writes
through to ``a`` (as NumPy's); ``for v in a.flat`` downloads the array once and yields its elements as NumPy
scalars.

    >>> import kdsl as kd
    >>> a = kd.zeros((2, 3), dtype=kd.int32)
    >>> a.flat[[1, 5]] = 7
    >>> a.tolist(), a.flat[4].item(), len(a.flat), [int(v) for v in a.flat][:2]
    ([[0, 7, 0], [0, 0, 7]], 0, 6, [0, 7])
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


class FlatIter:
    """The object ``a.flat`` returns (NumPy's ``flatiter``)."""

    def __init__(self, base: Array) -> None:
        self.base = base

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self) -> Iterator[Any]:
        return iter(self.base.numpy().reshape(-1))  # one download, then host scalars (as iterating NumPy's)

    def __getitem__(self, key: Any) -> Array:
        return self.base.reshape(-1)[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        flat = self.base.reshape(-1)  # a view: writing it writes the base
        flat[key] = value

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        out = self.base.numpy().reshape(-1)
        return out if dtype is None else out.astype(dtype)

    def copy(self) -> Array:
        return self.base.flatten()
