"""``MaskedArray.partition`` / ``argpartition`` and ``np.partition`` / ``np.argpartition`` (``kd.partition``...)
of kd.ma arrays, as numpy.ma has them: numpy.ma has no partition of its own (no ``np.ma.partition``); its
``MaskedArray`` inherits ndarray's, which warns ``UserWarning: Warning: 'partition' will ignore the 'mask' of the
MaskedArray.`` and partitions the *data*, masked entries' data included, leaving the mask where it was (it does
not move with the data). ``argpartition``'s indices come back as a masked array carrying the array's mask and
fill value unchanged, as NumPy's do. For masked entries sorted last, use ``kd.ma.sort`` / ``kd.ma.argsort``.

Example:
    >>> import kdsl as kd, warnings
    >>> x = kd.ma.array([5, 1, 4, 2, 3], mask=[0, 1, 0, 0, 1])
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", UserWarning)
    ...     x.partition(0)
    >>> int(x.data[0]), x.mask.tolist()
    (1, [False, True, False, False, True])
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray


def _warn(name: str, stacklevel: int) -> None:
    warnings.warn(f"Warning: '{name}' will ignore the 'mask' of the MaskedArray.", UserWarning,
                  stacklevel=stacklevel + 1)


def _partition_method(self: MaskedArray, kth: Any, axis: int = -1, kind: str = "introselect",
                      order: Any = None) -> None:
    """NumPy's ``MaskedArray.partition``: the data partitioned in place, the mask ignored and left in place."""
    _warn("partition", 2)
    self._data[...] = kd.partition(self._data, kth, axis=axis, kind=kind, order=order)


def _argpartition_method(self: MaskedArray, kth: Any, axis: int | None = -1, kind: str = "introselect",
                         order: Any = None) -> MaskedArray:
    """NumPy's ``MaskedArray.argpartition``: the indices that partition the data (the mask ignored), as a
    masked array with the array's mask (flattened for ``axis=None``) and fill value."""
    _warn("argpartition", 2)
    return _argpartition(self, kth, axis, kind, order)


def _argpartition(x: MaskedArray, kth: Any, axis: int | None, kind: str, order: Any) -> MaskedArray:
    idx = kd.argpartition(x._data, kth, axis=axis, kind=kind, order=order)
    mask = nomask if x._mask is nomask else x._mask.reshape(idx.shape).copy()
    return MaskedArray.wrap(idx, mask, x._fill_value)


def partition(a: MaskedArray, kth: Any, axis: int | None = -1, kind: str = "introselect",
              order: Any = None) -> MaskedArray:
    """``np.partition(x, kth)`` of a masked ``x``: a copy (flattened for ``axis=None``) partitioned by its
    method, so the data moves and the mask stays where it was, with NumPy's warning."""
    x = a.copy()
    if x._mask is not nomask:
        x._mask = x._mask.copy()
    if axis is None:
        x, axis = x.ravel(), -1
    _warn("partition", 3)
    x._data[...] = kd.partition(x._data, kth, axis=axis, kind=kind, order=order)
    return x


def argpartition(a: MaskedArray, kth: Any, axis: int | None = -1, kind: str = "introselect",
                 order: Any = None) -> MaskedArray:
    """``np.argpartition(x, kth)`` of a masked ``x``: its method's masked indices, with NumPy's warning."""
    _warn("argpartition", 3)
    return _argpartition(a, kth, axis, kind, order)


MaskedArray.partition = _partition_method  # type: ignore[attr-defined]
MaskedArray.argpartition = _argpartition_method  # type: ignore[attr-defined]

# what kd's and NumPy's functions of these names run for a masked array (dispatch.py)
FUNCTIONS: dict[str, Callable[..., Any]] = {"partition": partition, "argpartition": argpartition}
