"""``a.flat``: NumPy's flat iterator, a 1-D view of an array in C order that reads, writes and iterates.

``a.flat[i]``, ``a.flat[2:5]``, ``a.flat[[0, 3]]`` read ``a.reshape(-1)[key]``; ``a.flat[key] = v`` writes through
to ``a`` (as NumPy's: ``v`` flattened and repeated, or cut, to the selection's length); ``for v in a.flat``
downloads the array once and yields its elements as NumPy scalars. As NumPy's ``flatiter`` it is its own iterator:
``next(it)``, ``it.index`` and ``it.coords`` (the next element's flat index and multi-index), a pass left early goes
on where it stopped, and indexing it starts it again from the first element.

    >>> import kdsl as kd
    >>> a = kd.zeros((2, 3), dtype=kd.int32)
    >>> a.flat[[1, 5]] = 7
    >>> a.tolist(), a.flat[4].item(), len(a.flat), [int(v) for v in a.flat][:2]
    ([[0, 7, 0], [0, 0, 7]], 0, 6, [0, 7])
    >>> a.flat[2:] = [1, 2]
    >>> a.tolist()
    [[0, 7, 1], [2, 1, 2]]
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from kdsl.frontend.array.element_values import element_value, is_element_key

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
    if isinstance(value, Iterator):
        raise TypeError("a.flat = value takes an array or a sequence, not an iterator (NumPy's rule); pass list(...)")
    v = _cycled(value, a, a.size)
    if v is not None:
        a[...] = v.reshape(a.shape)  # C order of a's own axes


def _cycled(value: Any, a: Array, size: int) -> Array | None:
    """``value`` as NumPy's flat iterator writes it into ``size`` elements of ``a``: converted to ``a``'s dtype
    (so Python floats keep float64 precision in a float64 array), flattened, then repeated cyclically or cut to
    ``size``; None when nothing is written (an empty value or selection, as NumPy's)."""
    return _repeated(_flat_values(value, a), size)


def _flat_values(value: Any, a: Array) -> Array:
    """``value`` converted to ``a``'s dtype and flattened (NumPy's errors for values that do not fit it)."""
    from kdsl.frontend.array.stored_values import checked_value  # cycle: that module builds Arrays

    return checked_value(value, a).reshape(-1)


def _repeated(v: Array, size: int) -> Array | None:
    """Flat values ``v`` repeated cyclically or cut to ``size``; None when nothing is written."""
    from kdsl.frontend.array.edit import resize  # cycle: edit builds on Array

    if v.size == 0 or size == 0:
        return None
    return v if v.size == size else resize(v, (size,))


def _is_sequence(value: Any) -> bool:
    """Whether ``value`` holds several values (an n-d array or a list), not one scalar (a 0-d array included)."""
    return np.ndim(value) > 0 if not hasattr(value, "ndim") else value.ndim > 0


def _flat_error(err: IndexError) -> IndexError:
    """The 1-D view's index error as NumPy's flatiter words it: no axis (``index 12 is out of bounds for size
    12``), the flat index being into the whole array."""
    return IndexError(str(err).replace(" for axis 0 with size ", " for size "))


class FlatIter:
    """The object ``a.flat`` returns (NumPy's ``flatiter``)."""

    def __init__(self, base: Array) -> None:
        self.base = base
        self.index = 0  # NumPy's flat index of the next element ``next()`` gives
        self._host: Any = None  # the elements downloaded by the first next(): one download per pass

    def __len__(self) -> int:
        return self.base.size

    @property
    def coords(self) -> tuple[int, ...]:
        """NumPy's ``coords``: the multi-index of the next element (``index`` unravelled in C order)."""
        shape = self.base.shape
        if self.index >= self.base.size:  # past the end: the last element's coordinates plus one, carried over
            return (shape[0],) + (0,) * (len(shape) - 1) if shape else ()
        return tuple(int(c) for c in np.unravel_index(self.index, self.base.shape))

    def __iter__(self) -> Iterator[Any]:
        return self  # as NumPy's flatiter: a pass left early goes on where it stopped

    def __next__(self) -> Any:
        """The next element as a NumPy scalar (the array is downloaded once, at a pass's first element)."""
        if self.index >= self.base.size:
            self._host = None
            raise StopIteration
        if self._host is None:
            self._host = self.base.numpy().reshape(-1)
        value = self._host[self.index]
        self.index += 1
        return value

    def _restart(self) -> None:
        """NumPy's flatiter goes back to the first element whenever it is indexed (read or written)."""
        self.index, self._host = 0, None

    def __getitem__(self, key: Any) -> Array:
        self._restart()
        try:
            return self.base.reshape(-1)[key]
        except IndexError as err:
            raise _flat_error(err) from None

    def __setitem__(self, key: Any, value: Any) -> None:
        base = self.base
        flat = base.reshape(-1)
        self._restart()  # (the next pass downloads the written values)
        try:
            if _is_sequence(value) and is_element_key(key, 1):  # one element (an int, a 0-d integer array):
                flat[key]  # NumPy checks its index, then stores a sequence's truth into a bool array and
                if base.dtype.kind != "b":  # refuses any sequence (even []) into another
                    raise ValueError("Error setting single item of array.")
                value = element_value(value, base)
            elif _is_sequence(value):  # NumPy's flatiter repeats or cuts the values to the selection's length
                values = _flat_values(value, base)  # converted before the key is read, as NumPy's (its
                if values.size == 0:  # OverflowError first; no values: nothing written, the key unchecked)
                    return
                target = flat[key].shape  # (a mask's selection: its length is read back, as assignment does)
                if not target:  # one element takes one scalar, never a sequence (NumPy's message)
                    raise ValueError("Error setting single item of array.")
                value = _repeated(values, math.prod(target))
                if value is None:
                    return
                value = value.reshape(target)
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
