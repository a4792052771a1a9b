"""Array's shape methods that call the shape functions: ``a.ravel()``, ``a.swapaxes()``, ``a.squeeze()`` and
``a.resize()`` (in place). (``reshape``, ``transpose`` and ``flatten``, which make views and copies of this
array's node, are in :class:`Array` itself.) These functions are :class:`Array`'s methods.

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros((2, 1, 3))
    >>> a.ravel().shape, a.swapaxes(0, 2).shape, a.squeeze().shape
    ((6,), (3, 1, 2), (2, 3))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def ravel(self, order: str = "C") -> Array:
    from kdsl.frontend.array import memory_order

    if isinstance(order, str) and order.upper() == "K":  # memory order, as NumPy's
        return memory_order.ravel_keep(self)
    if memory_order.fortran(order, "CFA", self):
        return self.reshape(-1, order=order)
    return memory_order.ravel_c(self)  # a copy unless C-contiguous (not reshape(-1)'s rule)


def resize(self, *new_shape, refcheck: bool = True) -> None:
    """Reshape this array in place to ``new_shape``, cut short or zero-filled (``in_place_resize.py``)."""
    from kdsl.frontend.array.in_place_resize import resize

    resize(self, *new_shape, refcheck=refcheck)


def swapaxes(self, a: int, b: int) -> Array:
    from kdsl.frontend.array.shape_ops import swapaxes  # cycle: that module builds Arrays

    return swapaxes(self, a, b)


def squeeze(self, axis=None) -> Array:
    from kdsl.frontend.array.shape_ops import squeeze  # cycle: that module builds Arrays

    return squeeze(self, axis)
