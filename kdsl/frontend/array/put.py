"""NumPy's in-place writes at positions: ``put``, ``put_along_axis``, ``putmask`` and ``place``.

Each one changes the kdsl Array it is given, as NumPy's do (a view writes through to the array it came from,
as ``a[key] = v`` does), and returns None. The new values are lazy like any kdsl result:

* ``put`` and ``put_along_axis`` are a scatter of the values to flat positions, built on the buffered
  assignment of ``a[idx] = v`` (:func:`kdsl.frontend.array.index_assignment.write_rows`: a stable sort of the positions
  and two binary searches; where positions repeat, the last value wins as in NumPy).
* ``putmask`` and ``place`` are one fused ``where`` over the array (``place`` numbers the selected elements with
  a running count first).

Synchronisation: ``mode='raise'`` checks device indices by reading back their minimum and maximum (one
synchronisation; host indices are checked on the host), and ``place`` with no values reads back whether the
mask selects anything. Nothing else synchronises.

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros(5, dtype=kd.int32)
    >>> kd.put(a, [0, 3, 3], [7, 8, 9])
    >>> kd.putmask(a, a == 0, kd.asarray([1, 2, 3, 4, 5], dtype=kd.int32))
    >>> a.tolist()
    [7, 2, 3, 9, 5]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl.frontend.array import clip_modes, ops
from kdsl.frontend.array import math as km
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange, asarray
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.index_assignment import broadcast_values, write_rows
from kdsl.frontend.array.inplace import store_inplace
from kdsl.frontend.array.shape_ops import broadcast_values_to
from kdsl.frontend.array.stored_values import checked_value
from kdsl.frontend.array.take import take


def _target(a: Any, name: str) -> Array:
    if not isinstance(a, Array):
        raise TypeError(f"{name}() argument 1 must be a kdsl Array to change in place, not {type(a).__name__}; "
                        "convert it with kd.asarray first (and keep that array)")
    return a


def _cycled(values: Array, n: int) -> Array:
    """The flat ``values`` repeated (or cut) to ``n`` elements, as NumPy's ``put`` and ``putmask`` repeat them."""
    if values.size == n:
        return values
    if values.size > n:
        return values[:n]
    return take(values, arange(n, dtype=clip_modes.index_dtype(values.device), device=values.device), mode="wrap")


def _oob(index: int, n: int, axis: int = 0) -> IndexError:
    return IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")


def flat_positions(ind: Any, n: int, mode: str, device, axis: int = 0) -> Array:
    """``ind`` as indices into an axis of ``n`` (``n`` > 0) under ``mode``, wrapped into ``[0, n)``. ``'raise'``:
    IndexError for an index outside ``[-n, n)`` (device indices: one synchronisation)."""
    host = None if isinstance(ind, Array) else np.asarray(ind)
    idx = clip_modes.index_array(ind if host is None else host, device)
    if mode != "raise":
        return clip_modes.in_range(idx, n, mode)
    if idx.size:
        lo, hi = (int(host.min()), int(host.max())) if host is not None else clip_modes.bounds(idx)
        if hi >= n or lo < -n:
            raise _oob(hi if hi >= n else lo, n, axis)
    return km.where(idx < 0, idx + n, idx)


def _python_indices(ind: Any) -> Any:
    """Python (and NumPy scalar) floats and bools among ``put``'s indices truncated to ints, as NumPy converts
    indices that are not an array (``a.put([0.5], 9)`` writes ``a[0]``); arrays keep their dtype (a float array
    is NumPy's TypeError)."""
    if isinstance(ind, (Array, np.ndarray)):
        return ind
    host = np.asarray(ind)
    if host.dtype.kind not in "fb":
        return ind
    if not np.isfinite(host).all():  # NumPy's int() of the index
        raise ValueError(f"cannot convert float NaN or infinity to an integer index: {ind!r}")
    return host.astype(np.intp)


def put(a: Array, ind: Any, v: Any, mode: str = "raise") -> None:
    """Replace the elements of the flattened ``a`` at ``ind`` by ``v``, in place (NumPy's ``put``).

    ``v`` is flattened and repeated to the length of ``ind``; where an index repeats, the last value wins.
    ``mode``: ``'raise'`` (IndexError outside ``[-a.size, a.size)``; device indices are checked with one
    synchronisation), ``'wrap'`` (modulo the size) or ``'clip'`` (into ``[0, a.size - 1]``, so negative
    indices go to 0). Values are cast to ``a``'s dtype as assignment casts them.

    >>> import kdsl as kd
    >>> a = kd.zeros((2, 3), dtype=kd.float32)
    >>> kd.put(a, [0, -1, 7], [1.0, 2.0], mode="wrap")
    >>> a.tolist()
    [[1.0, 1.0, 0.0], [0.0, 0.0, 2.0]]
    """
    x = _target(a, "put")
    mode = clip_modes.check_mode(mode)
    ind = _python_indices(ind)
    host_shape = ind.shape if isinstance(ind, Array) else np.shape(ind)
    count: int = math.prod(host_shape)
    if x.size == 0 and count > 0:  # NumPy's order: before the values are converted
        raise IndexError("cannot replace elements of an empty array")
    vals = checked_value(v, x).reshape(-1)
    if count == 0:  # NumPy: nothing to put (after checking the index type)
        clip_modes.index_array(ind, x.device)
        return
    if vals.size == 0:  # NumPy: no values, nothing written (the indices are not checked)
        return
    idx = flat_positions(ind, x.size, mode, x.device).reshape(-1)
    new = write_rows(x.reshape(-1), idx, _cycled(vals, idx.size))
    store_inplace(x, new.reshape(x.shape))


def _along_axis_indices(indices: Any, device) -> Array:
    """``put_along_axis``'s indices: NumPy wants an integer array (bools refused)."""
    idx = indices if isinstance(indices, Array) else np.asarray(indices)
    kind = idx.dtype.np.kind if isinstance(idx, Array) else idx.dtype.kind
    if kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    return clip_modes.index_array(idx, device)


def put_along_axis(arr: Array, indices: Any, values: Any, axis: int | None) -> None:
    """Write ``values`` into ``arr`` at ``indices`` along ``axis``, in place (NumPy's ``put_along_axis``, the
    inverse of :func:`kdsl.take_along_axis`).

    ``indices`` has ``arr``'s number of dimensions and broadcasts against ``arr`` on the other axes (``axis=None``:
    a 1-D index into the flattened ``arr``); ``values`` broadcasts to the broadcast shape of the indices. Negative
    indices count from the end; one outside the axis raises IndexError (device indices: one synchronisation).
    Where positions repeat, the last value wins.

    >>> import kdsl as kd
    >>> a = kd.asarray([[10, 30, 20], [60, 40, 50]])
    >>> kd.put_along_axis(a, kd.argmax(a, axis=1, keepdims=True), 0, axis=1)
    >>> a.tolist()
    [[10, 0, 20], [0, 40, 50]]
    """
    x = _target(arr, "put_along_axis")
    idx = _along_axis_indices(indices, x.device)
    shape: tuple[int, ...]
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        shape, ax = (x.size,), 0
    else:
        if idx.ndim != x.ndim:
            raise ValueError("`indices` and `arr` must have the same number of dimensions")
        shape, ax = x.shape, mv.normalize_axis(axis, x.ndim)
    grids = _other_axes(shape, ax, x.device)
    try:
        out_shape = ops.broadcast_shapes(idx.shape, *(g.shape for g in grids))
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         f"{idx.shape} and the array's other axes {shape}") from None
    vals = broadcast_values(checked_value(values, x), out_shape)
    if math.prod(out_shape) == 0:
        return
    coords = [broadcast_values_to(g, out_shape) for g in grids]
    coords.insert(ax, broadcast_values_to(flat_positions(idx, shape[ax], "raise", x.device, ax), out_shape))
    flat = _row_major(coords, shape)
    store_inplace(x, write_rows(x.reshape(-1), flat.reshape(-1), vals.reshape(-1)).reshape(x.shape))


def _other_axes(shape: tuple[int, ...], axis: int, device) -> list[Array]:
    """For each axis but ``axis``: ``arange(n)`` shaped to lie along that axis (NumPy's fancy index of
    ``put_along_axis``)."""
    d = clip_modes.index_dtype(device)
    out = []
    for k, n in enumerate(shape):
        if k != axis:
            out.append(arange(n, dtype=d, device=device).reshape(tuple(n if j == k else 1 for j in range(len(shape)))))
    return out


def _row_major(coords: list[Array], shape: tuple[int, ...]) -> Array:
    """The C-order flat position of equally shaped coordinate arrays."""
    flat, stride = coords[-1], 1
    for c, n in zip(reversed(coords[:-1]), reversed(shape[1:]), strict=True):
        stride *= n
        flat = flat + c * stride
    return flat


def _safe_values(values: Any, a: Array) -> Array:
    """``putmask`` / ``place`` values in ``a``'s dtype: arrays must cast 'safely' (NumPy refuses float64 values
    for a float32 array there), Python scalars and lists convert as assignment converts them."""
    if isinstance(values, (Array, np.ndarray)):
        d = values.dtype.np if isinstance(values, Array) else values.dtype
        if not np.can_cast(d, a.dtype.np, "safe"):
            raise TypeError(f"Cannot cast array data from dtype('{d}') to dtype('{a.dtype.np}') according to the "
                            f"rule 'safe'; cast the values first (values.astype({a.dtype.name}))")
    return checked_value(values, a).reshape(-1)


def _flat_mask(mask: Any, a: Array, name: str) -> Array:
    """The mask as flat booleans (non-zero is true) of ``a``'s size."""
    m = mask if isinstance(mask, Array) else asarray(np.asarray(mask), device=a.device)
    if m.device is not a.device:
        raise ValueError("the mask lives on another device than the array; move it with kd.asarray")
    if m.size != a.size:
        raise ValueError(f"{name}: mask and data must be the same size (mask has {m.size} elements, the array "
                         f"{a.size})")
    return m.reshape(-1) != 0


def _masked_operands(a: Any, mask: Any, values: Any, name: str) -> tuple[Array, Array, Array]:
    """``putmask``'s and ``place``'s operands checked: the target array, the flat mask, the flat values."""
    x = _target(a, name)
    return x, _flat_mask(mask, x, name), _safe_values(values, x)


def putmask(a: Array, /, mask: Any, values: Any) -> None:
    """Set ``a.flat[i] = values.flat[i % values.size]`` wherever ``mask.flat[i]`` is true, in place (NumPy's
    ``putmask``): the values repeat by *position in a* (compare :func:`place`). ``mask`` has ``a``'s size. Lazy,
    one fused ``where``; no synchronisation.

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.putmask(a, a > 2, kd.asarray([-1, -2], dtype=kd.int32))
    >>> a.tolist()
    [[0, 1, 2], [-2, -1, -2]]
    """
    x, m, vals = _masked_operands(a, mask, values, "putmask")
    if vals.size == 0 or x.size == 0:  # NumPy: no values, nothing to write
        return
    store_inplace(x, km.where(m, _cycled(vals, x.size), x.reshape(-1)).reshape(x.shape))


def place(arr: Array, mask: Any, vals: Any) -> None:
    """Set the selected elements of ``arr`` (where the flattened ``mask`` is true, in C order) to ``vals``,
    repeated as needed, in place (NumPy's ``place``): the n-th selected element takes ``vals[n % len(vals)]``
    (compare :func:`putmask`). ``mask`` has ``arr``'s size. Lazy (a running count of the mask and one ``where``);
    empty ``vals`` read back whether the mask selects anything (one synchronisation), as that is an error.

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.place(a, a > 2, kd.asarray([-1, -2], dtype=kd.int32))
    >>> a.tolist()
    [[0, 1, 2], [-1, -2, -1]]
    """
    x, m, v = _masked_operands(arr, mask, vals, "place")
    if v.size == 0:
        if x.size and bool(m.any()):
            raise ValueError("Cannot insert from an empty array!")
        return
    if x.size == 0:
        return
    rank = cumsum(m, dtype=clip_modes.index_dtype(x.device)) - 1  # the selected element's number, from 0
    picked = take(v, rank, mode="wrap")  # unselected positions before the first are -1: wrapped, then unused
    store_inplace(x, km.where(m, picked, x.reshape(-1)).reshape(x.shape))
