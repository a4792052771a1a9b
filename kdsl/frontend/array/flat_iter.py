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


def assign_flat(a: Array, value: Any) -> None:
    """``a.flat = value``: ``value``'s elements, flattened and repeated cyclically to ``a.size`` (NumPy's rule;
    an empty ``value`` writes nothing), written into ``a`` in C order on the device.

    >>> import kdsl as kd
    >>> a = kd.zeros(5, dtype=kd.int32)
    >>> a.flat = [1, 2]
    >>> a.tolist()
    [1, 2, 1, 2, 1]
    """
    from kdsl.frontend.array.creation import asarray  # cycle: creation builds on Array
    from kdsl.frontend.array.edit import resize

    if isinstance(value, Iterator):
        raise TypeError("a.flat = value takes an array or a sequence, not an iterator (NumPy's rule); pass list(...)")
    v = asarray(value).reshape(-1)
    if v.size == 0 or a.size == 0:
        return
    a[...] = (v if v.size == a.size else resize(v, (a.size,))).reshape(a.shape)  # C order of a's own axes


def _flat_error(err: IndexError) -> IndexError:
    """The 1-D view's index error as NumPy's flatiter words it: no axis (``index 12 is out of bounds for size
    12``), the flat index being into the whole array."""
    return IndexError(str(err).replace(" for axis 0 with size ", " for size "))


class FlatIter:
    """The object ``a.flat`` returns (NumPy's ``flatiter``)."""

    def __init__(self, base: Array) -> None:
        self.base = base

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self) -> Iterator[Any]:
        return iter(self.base.numpy().reshape(-1))  # one download, then host scalars (as iterating NumPy's)

    def __getitem__(self, key: Any) -> Array:
        try:
            return self.base.reshape(-1)[key]
        except IndexError as err:
            raise _flat_error(err) from None

    def __setitem__(self, key: Any, value: Any) -> None:
        base = self.base
        flat = base.reshape(-1)
        try:
            flat[key] = value
        except IndexError as err:
            raise _flat_error(err) from None
        if not base._reshapes_in_place((base.size,)):  # a transpose's flat copy: write it back
            base[...] = flat.reshape(base.shape)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        out = self.base.numpy().reshape(-1)
        return out if dtype is None else out.astype(dtype)

    def copy(self) -> Array:
        return self.base.flatten()
