"""NumPy's ``order=`` of reshaping and flattening: ``a.reshape(shape, order='F')``, ``a.ravel('F')``,
``kd.reshape(a, shape, 'F')``. kdsl arrays have one layout (C order), so ``'F'`` (Fortran: first index fastest)
reads the elements through transposes: ``a.reshape(s, order='F')`` is ``a.T.reshape(s[::-1]).T``. As NumPy's, it
is a view of a 1-D (or 0-d) or Fortran-contiguous ``a`` (``a.T.ravel('F')``: writes reach ``a``) and a copy
otherwise (a C-ordered array of several axes is not Fortran-contiguous). ``'A'`` and ``'K'`` mean ``'C'``,
except for a view NumPy would call Fortran-contiguous and not C-contiguous (a transpose: ``a.T.ravel('A')``),
where they mean ``'F'`` as in NumPy (``kd.Array.flags``). ``ravel('K')`` reads the elements in memory order, as
NumPy's (``ravel_keep``); ``ravel()`` is a view only of a C-contiguous array (``ravel_c``).

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> a.ravel(order="F").tolist(), a.reshape((3, 2), order="F").tolist()
    ([0, 3, 1, 4, 2, 5], [[0, 4], [3, 2], [1, 5]])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def fortran(order: Any, allowed: str = "CFAK", a: Array | None = None) -> bool:
    """Whether ``order`` asks for Fortran order (ValueError naming the choices for anything else). With the
    array ``a``, ``'A'`` and ``'K'`` mean Fortran order when ``a`` is a Fortran-contiguous view (a transpose),
    as NumPy's do (its ``flags``: ``array_flags.py``)."""
    if order is not None and not isinstance(order, (str, bytes)):  # NumPy's TypeError for order=1
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order is None:  # NumPy reads a None order as its default, C
        order = "C"
    if isinstance(order, bytes):
        order = order.decode()
    if order.upper() not in allowed:
        choices = ", ".join(repr(c) for c in allowed)
        raise ValueError(f"order must be one of {choices}, got {order!r}")
    if order.upper() in "AK" and a is not None:
        from kdsl.frontend.array.array_flags import contiguity

        c, f = contiguity(a)
        return f and not c
    return order.upper() == "F"


def fortran_copy(a: Array) -> Array:
    """A new array of ``a``'s values in Fortran order, as NumPy's ``a.copy(order='F')``: the transpose of a
    C-ordered copy of ``a.T`` (kdsl stores C order), so its ``flags``, ``strides``, ``ravel('K')`` and
    ``tobytes('A')`` are NumPy's for it, writes included. Unlike NumPy's, it is a view (of that copy): its
    ``base`` is the copy and ``flags.owndata`` is False.

    >>> import kdsl as kd
    >>> f = fortran_copy(kd.arange(6).reshape(2, 3))
    >>> f[0, 0] = 9
    >>> f.flags.f_contiguous, f.strides, f.ravel(order="K").tolist()
    (True, (4, 8), [9, 3, 1, 4, 2, 5])
    """
    return a.T.copy().T if a.ndim >= 2 else a.copy()


def fortran_laid(a: Array) -> Array:
    """``a`` itself when it is Fortran-contiguous, else :func:`fortran_copy` of it (``a`` a new array: a
    constant ``kd.zeros(s, order='F')`` is built transposed, nothing copied)."""
    from kdsl.frontend.array.array_flags import contiguity

    return a if a.ndim < 2 or contiguity(a)[1] else fortran_copy(a)


def reshape_fortran(a: Array, shape: tuple[int, ...]) -> Array:
    """``a`` reshaped with the first index changing fastest (a view of a 1-D or Fortran-contiguous ``a``, else a
    copy)."""
    from kdsl.frontend.array import movement as mv  # cycle: movement builds Arrays
    from kdsl.frontend.array.array import Array
    from kdsl.frontend.array.array_flags import contiguity

    target = mv.resolve_shape(shape, a.size)
    out = a.T.reshape(target[::-1]).T
    if a.ndim <= 1 or contiguity(a)[1]:  # Fortran-contiguous (a transpose): a view, as NumPy's
        return out
    return Array(out._node)  # a new Array of the same node: lazy, writes stay in it


def ravel_c(a: Array) -> Array:
    """NumPy's ``ravel()`` (C order): a view of a C-contiguous array, else a copy, even where ``reshape(-1)``
    could be a view (``a[:, ::2].ravel()``, ``x[::2].ravel()``: NumPy copies them; writes reach neither way)."""
    from kdsl.frontend.array.array import Array
    from kdsl.frontend.array.array_flags import contiguity

    out = a.reshape(-1)
    return out if a.ndim == 0 or contiguity(a)[0] else Array(out._node)  # a new Array of the node: unlinked


def ravel_keep(a: Array) -> Array:
    """NumPy's ``ravel('K')``: the elements in the order they lie in memory, except that axes with negative
    strides are not reversed (NumPy's rule). A kdsl view's strides are over its source's C-ordered elements, so
    that is C order after sorting the axes by decreasing stride magnitude (ties keep their order)."""
    from kdsl.frontend.array.array_flags import layout_strides

    strides = layout_strides(a)
    if strides is None:
        return a.reshape(-1)
    order = sorted(range(a.ndim), key=lambda i: -abs(strides[i]))
    return a.transpose(order).reshape(-1)


def host_with_layout(a: Array) -> Any:
    """A NumPy copy of ``a`` whose memory layout is the one NumPy's equivalent array has (a transpose is
    Fortran-ordered, a reversed view has negative strides, a sliced view its gaps), so NumPy's memory-order
    iteration (``nditer``'s ``order='K'``) visits the elements in the same order: one download."""
    import numpy as np

    from kdsl.frontend.array.array_flags import layout_strides

    strides = layout_strides(a)
    if strides is None or a.ndim < 1:
        return a.numpy()
    gapped = _host_with_gaps(a)
    if gapped is not None:
        return gapped
    negative = tuple(i for i, s in enumerate(strides) if s < 0)
    order = sorted(range(a.ndim), key=lambda i: -abs(strides[i]))
    b = a[tuple(slice(None, None, -1) if i in negative else slice(None) for i in range(a.ndim))] if negative else a
    host = np.transpose(b.transpose(order).numpy(), np.argsort(order))
    return np.flip(host, negative) if negative else host


def _host_with_gaps(a: Array) -> Any:
    """A host copy of the view ``a`` with NumPy's byte strides, gaps included (``x[:, :, :-1]``, ``x[::2]``), in
    a buffer spanning the view's extent, so ``nditer``'s ``external_loop`` cuts NumPy's inner chunks. None
    where that does not fit: a broadcast (zero strides) or an extent more than 4 times the view's size."""
    import numpy as np

    strides, itemsize = a.strides, a.dtype.itemsize
    if a.size == 0 or any(s % itemsize for s in strides):
        return None
    steps = [s // itemsize for s in strides]
    if any(s == 0 and n > 1 for s, n in zip(steps, a.shape, strict=True)):
        return None
    extent = 1 + sum((n - 1) * abs(s) for s, n in zip(steps, a.shape, strict=True))
    if extent > 4 * a.size:
        return None
    start = sum((n - 1) * -s for s, n in zip(steps, a.shape, strict=True) if s < 0)
    values = a.numpy()
    buffer = np.zeros(extent, values.dtype)  # (an ndarray base: the host copy's writeable flag can be toggled)
    host = np.ndarray(a.shape, values.dtype, buffer=buffer, offset=start * itemsize, strides=strides)
    host[...] = values
    return host
