"""Array's shape methods: ``a.reshape()`` (a view where NumPy's is one, else a view of a copy), ``a.ravel()``,
``a.swapaxes()``, ``a.squeeze()`` and ``a.resize()`` (in place). (``transpose`` and ``flatten`` are in
:class:`Array` itself.) These functions are :class:`Array`'s methods.

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros((2, 1, 3))
    >>> a.ravel().shape, a.swapaxes(0, 2).shape, a.squeeze().shape
    ((6,), (3, 1, 2), (2, 3))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kdsl.frontend.array import movement as mv

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def reshape(self, *shape, order: str = "C", copy: bool | None = None) -> Array:
    """``a.reshape(shape)``: NumPy's view where NumPy's reshape is one (writes reach ``a``), else a view of a
    copy, as NumPy's; ``order`` ``'C'``/``'F'``/``'A'``; ``copy=`` as ``kd.reshape``'s."""
    from kdsl.frontend.array import memory_order
    from kdsl.frontend.array.array import Array  # cycle: Array has this function as its method
    from kdsl.frontend.array.shape_arguments import host_ints

    if not shape:  # a.reshape(): NumPy's TypeError (reshape(()) is the 0-d shape)
        raise TypeError("reshape() takes exactly 1 argument (0 given)")
    shape = tuple(host_ints(n) for n in shape)  # a.reshape(dims_array): a 1-d integer array as the shape
    target = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    if copy is not None:  # NumPy 2.1's copy=: kd.reshape checks whether a view is possible
        from kdsl.frontend.array.shape_ops import reshape

        return reshape(self, target, order, copy=copy)
    if memory_order.fortran(order, "CFA", self):
        return memory_order.reshape_fortran(self, tuple(target))
    new = mv.resolve_shape(target, self.size)
    out = Array(mv.reshape_node(self._n, new))
    if not self._reshapes_in_place(new):
        # NumPy copies (``a.T.reshape(-1)``) and returns a view of that copy: writes reach neither way, and
        # ``base`` is the (never computed) copy, as NumPy's. The values stay one lazy, fusable reshape.
        out._parent = (self.copy(), lambda base, view: None)
        return out
    return out._view_of(self, lambda base, view: base.__setitem__(Ellipsis, view.reshape(base.shape)),
                        lambda base: Array(mv.reshape_node(base._n, new)))


def reshapes_in_place(self, shape: tuple[int, ...]) -> bool:
    """Whether NumPy's reshape of the equivalent array to ``shape`` is a view (:meth:`View.reshape`'s rule
    on this view's strides) rather than a copy. A lazy constant (``kd.zeros``: a broadcast 0-d node) is a
    new C-ordered array, as NumPy's would be; its views have the layout NumPy's have (``constant_layout.py``:
    ``kd.zeros((3, 4)).T.reshape(-1)`` copies)."""
    from kdsl.frontend.array.constant_layout import layout

    # the layout NumPy's array has, also for a view whose node a write or a realisation replaced (a written
    # transpose reshapes by a copy, as NumPy's; an owner, C-ordered, always in place)
    view = layout(self)
    return view is None or view.reshape(shape) is not None


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
