"""Index arithmetic of NumPy's ``index_tricks``: ``unravel_index``, ``ravel_multi_index``, ``indices`` and
``ix_``.

Index arrays come back as kdsl int64 arrays (NumPy's intp; ``kd.nonzero`` returns the same), computed lazily
with integer ``//``, ``%`` and ``*``. Where NumPy answers a scalar question with a scalar
(``np.unravel_index(5, (3, 4))``), kdsl does too, computed on the host (an int64 NumPy scalar, usable as an
index). Out-of-range device indices are found by reading back their minimum and maximum (one synchronisation).

Example:
    >>> import kdsl as kd
    >>> flat = kd.ravel_multi_index((kd.asarray([0, 2]), kd.asarray([3, 1])), (3, 4))
    >>> flat.tolist(), [i.tolist() for i in kd.unravel_index(flat, (3, 4))]
    ([3, 9], [[0, 2], [3, 1]])
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.frontend.array import clip_modes
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange, asarray
from kdsl.frontend.array.masks import nonzero
from kdsl.frontend.array.shape_ops import broadcast_arrays, broadcast_values_to, stack


def _dims(shape: Any, what: str = "dimensions") -> tuple[int, ...]:
    dims = (operator.index(shape),) if np.ndim(shape) == 0 else tuple(operator.index(n) for n in shape)
    if any(n < 0 for n in dims):
        raise ValueError(f"{what} must be non-negative, got {dims}")
    return dims


def _check_order(order: Any) -> str:
    if order not in ("C", "F"):
        raise ValueError(f"only 'C' or 'F' order is permitted (got {order!r})")
    return order


def _is_host_scalar(x: Any) -> bool:
    return not isinstance(x, Array) and np.ndim(x) == 0


def _strides(dims: tuple[int, ...], order: str) -> list[int]:
    """The element strides of each axis of a contiguous array of shape ``dims`` in ``order``."""
    axes = range(len(dims)) if order == "F" else reversed(range(len(dims)))
    strides, step = [0] * len(dims), 1
    for k in axes:
        strides[k], step = step, step * dims[k]
    return strides


def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple[Any, ...]:
    """The coordinates, one array per axis, of flat positions ``indices`` into an array of ``shape``
    (NumPy's ``unravel_index``; ``order='F'``: column-major positions). A position outside ``[0, size)`` raises
    ValueError (device indices: one synchronisation). A scalar position gives a tuple of host int64 scalars,
    as in NumPy.

    >>> import kdsl as kd
    >>> [c.tolist() for c in kd.unravel_index(kd.asarray([5, 11]), (3, 4))]
    [[1, 2], [1, 3]]
    >>> kd.unravel_index(5, (3, 4), order="F")
    (np.int64(2), np.int64(1))
    """
    dims, order = _dims(shape), _check_order(order)
    size = math.prod(dims)
    if size > _INTP_MAX:
        raise ValueError(f"dimensions {dims} are too large; arrays and shapes with a total size greater than "
                         "'intp' (int64) are not supported")
    if _is_host_scalar(indices):
        i = _host_index(indices)
        _check_flat(i, i, size)
        return tuple(np.int64(c) for c in _unravel(i, dims, order))
    dev = indices.device if isinstance(indices, Array) else current_device()
    idx = clip_modes.index_array(_signed(indices), dev, empty_ok=False)
    if idx.size:
        host = None if isinstance(indices, Array) else np.asarray(indices)
        lo, hi = (int(host.min()), int(host.max())) if host is not None else clip_modes.bounds(idx)
        _check_flat(lo, hi, size)
    if not dims and idx.ndim:  # a 0-d shape has one position, which only a scalar (or 0-d) index names
        raise ValueError("multiple indices are not supported for 0d arrays (shape ()); pass one scalar index")
    return tuple(_unravel(idx, dims, order))


_INTP_MAX = np.iinfo(np.int64).max


def _signed(x: Any) -> Any:
    """uint64 index data as int64: NumPy's index tricks cast indices to intp by the 'same_kind' rule, which
    allows uint64 (``take`` and ``put`` use 'safe', which does not); a value past int64 wraps negative and is
    then out of bounds."""
    if isinstance(x, Array):
        return x.astype(dt.int64) if x.dtype is dt.uint64 else x
    return x.astype(np.int64) if isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.uint64 else x


def _host_index(x: Any) -> int:
    d = np.asarray(x).dtype
    if d.kind not in "biu":
        raise TypeError(f"only int indices permitted, not {d}")
    return int(x)


def _check_flat(lo: int, hi: int, size: int) -> None:
    bad = lo if lo < 0 else hi if hi >= size else None
    if bad is not None:
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")


def _unravel(i: Any, dims: tuple[int, ...], order: str) -> list[Any]:
    """The coordinates of flat positions ``i`` (Python ints or an Array, in range): divide by each axis' length
    from the fastest-varying axis on."""
    coords: list[Any] = [None] * len(dims)
    axes = list(range(len(dims)))
    for k in reversed(axes) if order == "C" else axes:
        n = dims[k]
        coords[k], i = i % n, i // n
    return coords


def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise", order: str = "C") -> Any:
    """The flat positions, in an array of shape ``dims``, of the coordinate arrays ``multi_index`` (one per axis,
    broadcast together): NumPy's ``ravel_multi_index``. ``mode`` (one, or one per axis): ``'raise'``
    (ValueError for a coordinate outside ``[0, n)``; device coordinates: one synchronisation), ``'wrap'`` or
    ``'clip'``. Scalar coordinates give a host int64 scalar, as in NumPy.

    >>> import kdsl as kd
    >>> kd.ravel_multi_index((kd.asarray([1, -1]), kd.asarray([2, 9])), (3, 4), mode=("clip", "wrap")).tolist()
    [6, 1]
    >>> kd.ravel_multi_index((1, 2), (3, 4))
    np.int64(6)
    """
    shape, order = _dims(dims), _check_order(order)
    coords = list(multi_index)
    if len(coords) != len(shape):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(shape)}")
    modes = _modes(mode, len(shape))
    if math.prod(shape) > _INTP_MAX:
        raise ValueError(f"invalid dims {shape}: the array size they define is larger than the maximum possible "
                         "size (int64)")
    if 0 in shape:  # no position exists, so only an empty set of coordinates has an answer
        empty = _empty_positions(coords)
        if empty is None:
            raise ValueError("cannot unravel if shape has zero entries (is empty).")
        return empty
    strides = _strides(shape, order)
    if all(map(_is_host_scalar, coords)):
        return np.int64(sum(_host_coordinate(c, n, m) * s for c, n, m, s in zip(coords, shape, modes, strides,
                                                                                  strict=True)))
    dev = next((c.device for c in coords if isinstance(c, Array)), current_device())
    cs = tuple(_coordinate(c, n, m, dev) for c, n, m in zip(coords, shape, modes, strict=True))
    try:
        cs = broadcast_arrays(*cs)
    except ValueError:
        raise ValueError("shape mismatch: multi_index arrays could not be broadcast together with shapes "
                         f"{' '.join(str(c.shape) for c in cs)}") from None
    flat = cs[0] * strides[0]
    for c, s in zip(cs[1:], strides[1:], strict=True):
        flat = flat + c * s
    return flat


def _empty_positions(coords: list[Any]) -> Array | None:
    """The empty int64 result of coordinates that broadcast to no elements (None if they name any)."""
    try:
        shape = np.broadcast_shapes(*[c.shape if isinstance(c, Array) else np.shape(c) for c in coords])
    except ValueError:
        return None
    if math.prod(shape) or all(map(_is_host_scalar, coords)):
        return None
    dev = next((c.device for c in coords if isinstance(c, Array)), current_device())
    return asarray(np.zeros(shape, np.int64), device=dev)


def _modes(mode: Any, k: int) -> list[str]:
    if isinstance(mode, str):
        return [clip_modes.check_mode(mode)] * k
    modes = list(mode)
    if len(modes) != k:
        raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of {k})")
    return [clip_modes.check_mode(m) for m in modes]


def _bad_coordinate() -> ValueError:
    return ValueError("invalid entry in coordinates array (a coordinate outside [0, n) with mode='raise'; "
                      "mode='wrap' or 'clip' maps it into range)")


def _host_coordinate(c: Any, n: int, mode: str) -> int:
    i = _host_index(c)
    if mode == "wrap":
        return i % n
    if mode == "clip":
        return min(max(i, 0), n - 1)
    if not 0 <= i < n:
        raise _bad_coordinate()
    return i


def _coordinate(c: Any, n: int, mode: str, device) -> Array:
    """One coordinate array, mapped into ``[0, n)`` by ``mode`` (``'raise'``: checked)."""
    c = _signed(c)
    idx = clip_modes.index_array(c, device, empty_ok=False)
    if mode != "raise":
        return clip_modes.in_range(idx, n, mode)
    if idx.size:
        lo, hi = (int(np.min(c)), int(np.max(c))) if not isinstance(c, Array) else clip_modes.bounds(idx)
        if lo < 0 or hi >= n:
            raise _bad_coordinate()
    return idx


def indices(dimensions: Sequence[int], dtype: Any = int, sparse: bool = False) -> Any:
    """A grid of the indices of an array of shape ``dimensions`` (NumPy's ``indices``): one array of shape
    ``(len(dimensions), *dimensions)`` whose ``[k]`` holds the index along axis ``k``, or with ``sparse=True`` a
    tuple of arrays with one non-unit axis each (which broadcast to that grid). ``dtype=int``, the default, is
    int64 as NumPy's intp (kdsl reads a plain ``int`` elsewhere as int32).

    >>> import kdsl as kd
    >>> kd.indices((2, 3))[1].tolist()
    [[0, 1, 2], [0, 1, 2]]
    >>> [g.shape for g in kd.indices((2, 3), sparse=True)]
    [(2, 1), (1, 3)]
    >>> kd.indices(len(s) for s in ("ab", "c")).shape  # any iterable, as NumPy's tuple(dimensions)
    (2, 2, 1)
    """
    if isinstance(dimensions, Iterator):  # a generator or map: np.ndim sees one object
        dimensions = tuple(dimensions)
    dims = _dims(dimensions) if np.ndim(dimensions) else None
    if dims is None:
        raise TypeError(f"dimensions must be a sequence of ints (a shape), not {dimensions!r}; write ({dimensions},)")
    dev = current_device()
    d = clip_modes.index_dtype(dev) if dtype is int else dt.as_dtype(dtype)
    grids = [arange(n, dtype=d, device=dev).reshape(tuple(n if j == k else 1 for j in range(len(dims))))
             for k, n in enumerate(dims)]
    if sparse:
        return tuple(grids)
    if not grids:
        return asarray(np.zeros(0, d.np), device=dev)
    return stack([broadcast_values_to(g, dims) for g in grids])


def ix_(*args: Any) -> tuple[Array, ...]:
    """Open-mesh index arrays from 1-D sequences (NumPy's ``ix_``): argument ``k`` becomes an array with its
    values along axis ``k`` and length 1 on the others, so ``a[kd.ix_(rows, cols)]`` selects the cross
    product. A boolean sequence stands for its true positions (a kdsl mask: one synchronisation); integer
    dtypes are kept, an empty sequence is int64.

    >>> import kdsl as kd
    >>> a = kd.arange(12).reshape(3, 4)
    >>> a[kd.ix_([0, 2], [True, False, False, True])].tolist()
    [[0, 3], [8, 11]]
    """
    dev = next((x.device for x in args if isinstance(x, Array)), current_device())
    out = []
    for k, x in enumerate(args):
        v = _cross_index(x, dev)
        out.append(v.reshape((1,) * k + (v.size,) + (1,) * (len(args) - k - 1)))
    return tuple(out)


def _cross_index(x: Any, device) -> Array:
    """One argument of :func:`ix_` as a 1-D kdsl array."""
    if isinstance(x, Array):
        if x.ndim != 1:
            raise ValueError(f"Cross index must be 1 dimensional (got shape {x.shape})")
        return nonzero(x)[0] if x.dtype is dt.bool_ else x
    host = np.asarray(x)
    if host.ndim != 1:
        raise ValueError(f"Cross index must be 1 dimensional (got shape {host.shape})")
    if host.size == 0 and not isinstance(x, np.ndarray):
        host = host.astype(np.int64)
    if host.dtype == np.bool_:  # host data: its true positions found on the host
        host = np.flatnonzero(host)
    d = clip_modes.index_dtype(device)
    return asarray(host if host.dtype != np.int64 else host.astype(d.np), device=device)
