"""Shape functions: ``expand_dims squeeze swapaxes moveaxis broadcast_to broadcast_arrays concatenate stack``.

All but ``concatenate``/``stack`` are zero-copy views; those two write each piece into its region of one new
buffer (one small kernel per piece, fused with the piece's own computation).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.ones((2, 3), np.float32))
    >>> kd.concatenate([a, a * 2], axis=1).shape, kd.stack([a, a]).shape, kd.expand_dims(a, 0).shape
    ((2, 6), (2, 2, 3), (1, 2, 3))
"""

from __future__ import annotations

import operator

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import broadcast_writes, memory_order, ops
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.constant_layout import broadcast_layout, layout
from kdsl.frontend.array.fused_stack import select_stack
from kdsl.frontend.array.shape_arguments import host_ints, int_tuple
from kdsl.ir.graph import Node
from kdsl.ir.view import View


def _arr(x, device=None) -> Array:
    if isinstance(x, Array):
        return x
    from kdsl.frontend.array.creation import asarray  # cycle: that module imports this one

    return asarray(x, device=device)


def _arrs(xs, name: str = "stack") -> list[Array]:
    """The operands of a join as arrays, converted together (``concatenate([a64, [0.1]])`` keeps 0.1 in float64:
    :func:`kdsl.frontend.array.creation.as_arrays`); ``xs`` is checked as ``name`` checks it."""
    from kdsl.frontend.array.creation import as_arrays, number_constant  # cycle: that module imports this one

    items = arrays_to_join(xs) if name == "concatenate" else arrays_to_stack(xs)
    # a one-number list ([v]: concatenate((a, [v])) in a loop) as a push constant, not an upload each call
    wide = any(isinstance(x, Array) and x.dtype.name in ("float64", "complex128") for x in items)
    constants = [number_constant(x, wide=wide) if isinstance(x, (list, tuple)) else None for x in items]
    if not any(c is not None for c in constants):
        return as_arrays(*items)
    converted = iter(as_arrays(*[x for x, c in zip(items, constants, strict=True) if c is None]))
    return [c if c is not None else next(converted) for c in constants]


def stack_operands(xs) -> list[Array]:
    """The operands of vstack, hstack, dstack and column_stack as arrays, converted together as
    concatenate's (see ``_arrs``)."""
    return _arrs(xs, "stack")


def arrays_to_join(xs) -> list:
    """concatenate's operands: any sequence (a list, a tuple, an array's rows), not an iterator (NumPy's
    TypeError)."""
    if not hasattr(xs, "__getitem__") or not hasattr(xs, "__len__") or isinstance(xs, dict):
        raise TypeError("The first input argument needs to be a sequence")
    return list(xs)


def arrays_to_stack(xs) -> list:
    """The operands of stack, vstack, hstack, dstack and column_stack as NumPy takes them: anything indexable
    (a list, a tuple, an array's rows), not a generator (NumPy's TypeError: it would have been consumed by the
    dispatch)."""
    if not hasattr(xs, "__getitem__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or tuple.')
    return list(xs)


def reshape(a, shape, order: str = "C", *, copy: bool | None = None) -> Array:
    """``a`` with a new shape: a view where NumPy's would be one. ``copy=True`` always copies; ``copy=False``
    raises ValueError where a view is impossible (a strided view whose elements a new shape cannot step over).
    ``order='F'`` reads and places the elements first index fastest (``memory_order.py``).
    """
    if copy is False and not isinstance(a, Array):  # host data is always copied to the device: asarray's
        from kdsl.frontend.array.creation import asarray  # ValueError (cycle: that module imports this one)

        asarray(a, copy=False)
    a, shape = _arr(a), host_ints(shape)  # a 1-d integer array as the shape, as NumPy's
    target = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    fortran = memory_order.fortran(order, "CFA", a)
    if copy is False:  # Fortran order reshapes the reversed axes of the transpose in C order
        view = layout(a.T if fortran else a)  # NumPy's strides, also of a lazy constant (kd.ones)
        new = mv.resolve_shape(target, a.size)
        if view is not None and view.reshape(new[::-1] if fortran else new) is None:
            raise ValueError(f"reshape(copy=False): an array of shape {a.shape} with these strides cannot be "
                             f"reshaped to {shape} in order {'F' if fortran else 'C'} without a copy")
    if fortran:
        out = memory_order.reshape_fortran(a, target)
        return out.copy() if copy else out
    out = a.reshape(shape)
    return out.copy() if copy else out


def ravel(a, order: str = "C") -> Array:
    """``a`` flattened in ``order`` (``'C'``, ``'F'``, ``'A'``, ``'K'``) as NumPy's. A NumPy array's ``'K'`` order
    is its memory order, which the device copy (C- or Fortran-ordered) does not keep: it is read on the host."""
    if isinstance(a, np.ndarray) and isinstance(order, str) and order.upper() == "K":
        return _arr(np.ravel(a, order="K"))
    return _arr(a).ravel(order)


def transpose(a, axes=None) -> Array:
    return _arr(a).transpose(axes)


def expand_dims(a, axis) -> Array:
    """Insert size-1 axes at the positions ``axis`` (int or tuple) of the result."""
    a = _arr(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = a.ndim + len(axes)
    pos = mv.normalize_axes(tuple(axes), nd)
    it = iter(a.shape)
    return a.reshape(tuple(1 if k in pos else next(it) for k in range(nd)))


def squeeze(a, axis=None) -> Array:
    """Remove size-1 axes (all of them, or those in ``axis``; ValueError if one is not size 1)."""
    a = _arr(a)
    if a.ndim == 0 and isinstance(axis, (int, np.integer)) and not isinstance(axis, (bool, np.bool_)) and \
            axis in (0, -1):  # NumPy's 0-d arrays take one int axis 0 or -1 (not a tuple of it)
        return a
    if axis is None:
        axes = tuple(k for k, n in enumerate(a.shape) if n == 1)
    else:
        axes = mv.normalize_axes(axis, a.ndim, mv.DUPLICATE_AXES)
        for k in axes:
            if a.shape[k] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return a.reshape(tuple(n for k, n in enumerate(a.shape) if k not in axes))


def swapaxes(a, axis1: int, axis2: int) -> Array:
    a = _arr(a)
    axes = list(range(a.ndim))
    i, j = mv.normalize_axis(axis1, a.ndim, "axis1"), mv.normalize_axis(axis2, a.ndim, "axis2")
    axes[i], axes[j] = axes[j], axes[i]
    return a.transpose(tuple(axes))


def moveaxis(a, source, destination) -> Array:
    """Move axes ``source`` (an int or a tuple) to the positions ``destination`` (a view)."""
    a = _arr(a)
    src, dst = _axes_argument(source), _axes_argument(destination)
    # Each argument whole (its range, then its repeats), then the count: the order of NumPy's checks.
    s = _distinct_axes([_moved_axis(k, a.ndim, "source") for k in src], "source")
    d = _distinct_axes([_moved_axis(k, a.ndim, "destination") for k in dst], "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [k for k in range(a.ndim) if k not in s]
    for to, frm in sorted(zip(d, s, strict=True)):
        order.insert(to, frm)
    return a.transpose(tuple(order))


def _distinct_axes(axes: list[int], argname: str) -> list[int]:
    """``axes`` if no axis repeats; otherwise NumPy's ValueError naming the argument."""
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis in `{argname}` argument")
    return axes


def _axes_argument(axes) -> tuple:
    """``moveaxis``'s ``source``/``destination`` as a tuple: one integer, or any iterable of them (a list, a
    ``range``, a 1-d integer array), as NumPy's ``normalize_axis_tuple`` takes them."""
    axes = host_ints(axes)  # 1-d integer arrays of axes, as NumPy's
    try:
        return (operator.index(axes),)
    except TypeError:
        pass
    try:
        return tuple(axes)
    except TypeError:
        raise TypeError(f"moveaxis: axes must be an int or a sequence of ints, got {type(axes).__name__}") from None


def _moved_axis(axis, ndim: int, name: str) -> int:
    """One axis of ``moveaxis``, non-negative; out of range: NumPy's AxisError naming the argument."""
    try:
        return mv.normalize_axis(axis, ndim)
    except np.exceptions.AxisError:
        raise np.exceptions.AxisError(axis, ndim, name) from None


def broadcast_to(array, shape, subok: bool = False) -> Array:
    """``array`` broadcast to ``shape`` (``subok``: NumPy's, nothing to change: no subclasses), with NumPy's
    strides and flags (0 on the new, stretched and length-1 axes). Unlike NumPy's, the result is writeable; a
    write changes the result only. This one makes no link to ``array``; the public ``kd.broadcast_to``
    (broadcast_views.py) also follows writes into ``array``, as NumPy's view does."""
    a = _arr(array)
    out = broadcast_values_to(a, shape)
    # kept beside the node: a lazy constant's broadcast is a view of a 0-d node, which cannot tell it from a
    # new constant of that shape (C-ordered)
    out._broadcast_layout = broadcast_layout(a, out.shape)
    return out


def broadcast_values_to(array, shape) -> Array:
    """``array``'s values broadcast to ``shape``, for kdsl's own functions: the strides and flags are those of
    the node (a new constant's, a computed result's), as NumPy's for the results they build on it (``np.tile``
    and friends return it reshaped)."""
    a = _arr(array)
    shape = int_tuple(shape)  # an int, np.int64 or 0-d integer array is one length
    if any(n < 0 for n in shape):
        raise ValueError(f"all elements of broadcast shape must be non-negative, got {shape}")
    return Array(mv.broadcast_node(a._node, shape))


def broadcast_arrays(*args, subok: bool = False) -> tuple[Array, ...]:
    """``args`` broadcast to their common shape (writeable, as NumPy 2.4's still are: a write changes that
    result only, and warns as NumPy 2's: broadcast_writes.py); NumPy's tuple, with the arrays that have that
    shape already as themselves. ``subok``: NumPy's, nothing to change."""
    arrs = [_arr(x) for x in args]
    shape = ops.broadcast_shapes(*(x.shape for x in arrs))
    out = tuple(x if x.shape == shape else broadcast_to(x, shape) for x in arrs)
    for x, arr in zip(out, arrs, strict=True):
        if x is not arr:  # a broadcast: writes into it warn as NumPy's (broadcast_writes.py)
            broadcast_writes.mark(x)
    return out


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def concatenate(arrays, /, axis: int | None = 0, out=None, *, dtype=None, casting: str = "same_kind") -> Array:
    """Join arrays along an existing axis (``axis=None``: flatten first); ``out``, ``dtype`` and ``casting`` as
    NumPy's (the inputs must cast to ``dtype``, the result to ``out``, under ``casting``)."""
    _check_casting(casting)
    if out is not None:
        from kdsl.frontend.array.ufunc_arguments import written_into  # cycle: that module builds on this one

        if dtype is not None:
            raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
        result = concatenate(arrays, axis, casting=casting)
        _check_out_shape(out, result.shape)
        return written_into(result, out, True, casting, "concatenate")
    arrays = _arrs(arrays, "concatenate")
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [x.reshape(-1) for x in arrays], 0
    ref = arrays[0]
    if ref.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = mv.normalize_axis(axis, ref.ndim)
    _check_joinable(arrays, ax)
    out_dtype = dt.as_dtype(dtype) if dtype is not None else promotion.promote(*(x.dtype for x in arrays))
    # after the shapes, as NumPy's; also without dtype= ('no'/'equiv' refuse inputs of another dtype)
    _check_casts(arrays, out_dtype, casting)
    shape = ref.shape[:ax] + (sum(x.shape[ax] for x in arrays),) + ref.shape[ax + 1:]
    full = View.contiguous(shape)
    regions, pieces, start = [], [], 0
    for x in arrays:
        n = x.shape[ax]
        if n:
            regions.append(full.slice(ax, start, 1, n))
            pieces.append(ops.cast_node(x._node, out_dtype))
        start += n
    dev = ops.device_of(arrays)  # one device, or a ValueError naming both
    return Array(Node("assemble", tuple(pieces), out_dtype, shape, tuple(regions), device=dev))


def _check_joinable(arrays: list[Array], ax: int) -> None:
    """NumPy's ValueErrors (its messages) for arrays that do not join along ``ax``: another number of
    dimensions, or another length along any other axis."""
    ref = arrays[0]
    for i, x in enumerate(arrays[1:], 1):
        if x.ndim != ref.ndim:
            raise ValueError("all the input arrays must have same number of dimensions, but the array at index 0 "
                             f"has {ref.ndim} dimension(s) and the array at index {i} has {x.ndim} dimension(s)")
        for k, (p, q) in enumerate(zip(ref.shape, x.shape, strict=True)):
            if k != ax and p != q:
                raise ValueError("all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {k}, the array at index 0 has size {p} and the "
                                 f"array at index {i} has size {q}")


def _check_out_shape(out: object, shape: tuple[int, ...]) -> None:
    """NumPy's ValueError for a joining function's ``out`` that is not the result's shape (unlike a ufunc's
    ``out``, it is not broadcast into)."""
    if isinstance(out, Array) and out.ndim != len(shape):
        raise ValueError("Output array has wrong dimensionality")
    if isinstance(out, Array) and out.shape != shape:
        raise ValueError("Output array is the wrong shape")


def _check_casting(casting: str) -> None:
    """NumPy's ValueError for an unknown ``casting`` rule, checked up front (even with nothing to cast)."""
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of {', '.join(map(repr, _CASTINGS))} (got {casting!r})")


def _check_casts(arrays: list[Array], to: dt.DType, casting: str) -> None:
    """NumPy's TypeError for an input that ``casting`` does not allow to become ``to``."""
    for x in arrays:
        if not np.can_cast(x.dtype.np, to.np, casting):  # type: ignore[arg-type]
            raise TypeError(f"Cannot cast array data from dtype('{x.dtype.name}') to dtype('{to.name}') according "
                            f"to the rule '{casting}' (pass casting='unsafe' to allow it)")


def stack(arrays, axis: int = 0, out=None, *, dtype=None, casting: str = "same_kind") -> Array:
    """Join arrays of one shape along a new axis (``out``, ``dtype``, ``casting`` as :func:`concatenate`)."""
    _check_casting(casting)
    arrays = _arrs(arrays)
    if not arrays:
        raise ValueError("need at least one array to stack")
    if any(x.shape != arrays[0].shape for x in arrays):
        raise ValueError("all input arrays must have the same shape")
    ax = mv.normalize_axis(axis, arrays[0].ndim + 1)
    plain = out is None and dtype is None and casting not in ("no", "equiv")  # (promotion casts 'safe'ly)
    fused = select_stack(arrays, ax) if plain else None  # a few small pieces:
    if fused is not None:  # one expression that fuses into its readers
        return fused
    return concatenate([expand_dims(x, ax) for x in arrays], ax, out, dtype=dtype, casting=casting)


def flip(m, axis=None) -> Array:
    """Reverse the order of elements along ``axis`` (all axes when None): a view."""
    a = _arr(m)
    axes = mv.normalize_axes(axis, a.ndim)
    key = tuple(slice(None, None, -1) if k in axes else slice(None) for k in range(a.ndim))
    return a[key]
