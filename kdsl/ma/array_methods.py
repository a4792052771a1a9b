"""``MaskedArray``'s ndarray methods that numpy.ma inherits and kd.ma lacked: ``x.put``, ``x.choose``,
``x.conj``/``x.conjugate``, ``x.itemsize``/``x.nbytes`` and assigning ``x.shape`` (a reshape in place of the data
and the mask), each as the kd.ma function or the data's attribute (``x.view()`` is the class's own method).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
    >>> x.put([0, 1], [9.0, 8.0])
    >>> x.shape = (2, 2)
    >>> x.tolist(), x.nbytes, x.conj().shape
    ([[9.0, 8.0], [3.0, 4.0]], 16, (2, 2))
"""

from __future__ import annotations

from typing import Any

from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operators import FUNCTIONS
from kdsl.ma.selection import choose, put


def _put(self: MaskedArray, indices: Any, values: Any, mode: str = "raise") -> None:
    """NumPy's ``MaskedArray.put``: ``kd.ma.put(self, indices, values, mode)``."""
    put(self, indices, values, mode)


def _choose(self: MaskedArray, *choices: Any, out: Any = None, mode: str = "raise") -> MaskedArray:
    """ndarray's ``choose``: the choices as one sequence or as separate arguments (``a.choose(c0, c1)``)."""
    return choose(self, choices[0] if len(choices) == 1 else choices, out, mode)


def _set_shape(self: MaskedArray, shape: Any) -> None:
    """``x.shape = s``: the data and the mask reshaped (NumPy's ValueError when the sizes differ)."""
    data = self._data.reshape(shape)
    if self._mask is not nomask:
        self._mask = self._mask.reshape(data.shape)
    self._data = data


MaskedArray.put = _put  # type: ignore[attr-defined]
MaskedArray.choose = _choose  # type: ignore[attr-defined]
MaskedArray.conj = MaskedArray.conjugate = lambda self: FUNCTIONS["conjugate"](self)  # type: ignore[attr-defined]
MaskedArray.shape = property(lambda self: self._data.shape, _set_shape,
                             doc="The shape (as the data's); assigning it reshapes the data and the mask.")
MaskedArray.itemsize = property(lambda self: self._data.itemsize, doc="The data's itemsize.")  # type: ignore[attr-defined]
MaskedArray.nbytes = property(lambda self: self._data.nbytes, doc="The data's nbytes.")  # type: ignore[attr-defined]
