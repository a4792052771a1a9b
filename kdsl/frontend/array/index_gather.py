"""Integer-array indexing: ``a[idx]`` and ``a[i0, i1, ...]`` with integer arrays (or ints) on the leading axes,
broadcast together, as one lazy gather that fuses into the kernel reading it; the indices' dtype and bounds are
checked (an index on the device reads back one flag).

Example:
    >>> import kdsl as kd
    >>> gather(kd.arange(10) * 2, kd.asarray([7, -1])).tolist()
    [14, 18]
"""

from __future__ import annotations

import math

import numpy as np

from kdsl import dtype as dt
from kdsl.errors import shape_text
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.ir.graph import Node


def gather(a: Array, *indices) -> Array:
    """``a[i0, i1, ...]`` for integer arrays (or ints) ``i0, i1, ...`` on the leading axes, broadcast together
    (NumPy's rule): computed lazily in the kernel that reads it. Negative indices count from the end; an index
    outside its axis raises IndexError now - a kdsl Array index is checked on the device, which reads back one
    flag (it synchronises).

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(12, dtype=np.float32).reshape(4, 3))
    >>> a[[3, -4]].tolist(), (a * 2)[kd.asarray([1])].tolist(), a[kd.arange(3), [2, 0, 1]].tolist()
    ([[9.0, 10.0, 11.0], [0.0, 1.0, 2.0]], [[6.0, 8.0, 10.0]], [2.0, 3.0, 7.0])
    >>> a[[4]]
    Traceback (most recent call last):
    ...
    IndexError: index 4 is out of bounds for axis 0 with size 4
    """
    if len(indices) > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {len(indices)} were "
                         "indexed")
    given = [_given_index(ix, a) for ix in indices]
    try:
        shape = ops.broadcast_shapes(*(i.shape for i in given))
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         f"{' '.join(shape_text(i.shape) for i in given)}") from None
    # NumPy checks the indices it visits (none where they broadcast to empty), and integers always
    check = math.prod(shape) > 0
    idxs = [_index_array(ix, n, axis, a, check or ix.ndim == 0)
            for axis, (ix, n) in enumerate(zip(given, a.shape, strict=False))]
    k = len(idxs)
    lead = math.prod(a.shape[:k])
    flat, rows = idxs[-1], a  # one index: the kernel wraps negative rows itself
    if k > 1:  # one row index into a viewed as (rows of the leading axes, rest): sum of wrapped index * stride
        stride = 1
        for j, (ix, n) in enumerate(zip(reversed(idxs), reversed(a.shape[:k]), strict=True)):
            term = ops.where(ix < 0, ix + n, ix) * stride
            flat = term if j == 0 else flat + term
            stride *= n
        rows = a.reshape((lead,) + a.shape[k:])
    index = Array(mv.broadcast_node(flat._node, shape))
    if index.size and lead == 0:
        raise IndexError(f"index {int(idxs[0].reshape(-1)[0].item())} is out of bounds for axis 0 with size 0")
    node = Node("rows", (rows._node, index._node), a.dtype, shape + a.shape[k:], device=a.device)
    return Array(node)



def _given_index(index, a: Array):
    """``index`` as a host integer array, or the kdsl Array it is (on ``a``'s device), its dtype checked."""
    if not isinstance(index, Array):
        host = np.asarray(index)
        if host.size == 0 and host.dtype.kind == "f":  # a[[]]: NumPy reads an empty list as integers
            host = host.astype(np.int32)
        if not isinstance(index, np.ndarray) and host.dtype.kind not in "biu":  # NumPy's words for these
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
                             "or boolean arrays are valid indices")
        _check_index_dtype(host.dtype.kind, host.dtype.name)
        return host
    if index.device is not a.device:
        raise ValueError("the index array lives on another device than the array; move it with kd.asarray")
    _check_index_dtype(index.dtype.kind, index.dtype.name)
    return index


def _index_array(index, n: int, axis: int, a: Array, check: bool = True) -> Array:
    """``index`` (from :func:`_given_index`) as an integer kdsl Array on ``a``'s device, its bounds checked
    against ``n`` where ``check`` (an unchecked one only indexes nothing: it broadcasts to an empty result)."""
    if not isinstance(index, Array):
        if check:
            _check_bounds(index, n, axis)
        return asarray(index.astype(np.int32), device=a.device)  # in [-n, n), n < 2**31: int32 holds it
    if check and index.size and bool(((index < -n) | (index >= n)).any()):
        _check_bounds(index.numpy(), n, axis)
    if index.dtype in (dt.int32, dt.int64):
        return index
    # in [-n, n) now: int32 (int64 for 64-bit ones) holds it and leaves room for index + n and index * stride
    return index.astype(dt.int64 if index.dtype.itemsize == 8 else dt.int32)



def _check_bounds(host: np.ndarray, n: int, axis: int) -> None:
    bad = host[(host < -n) | (host >= n)]
    if bad.size:
        raise IndexError(f"index {int(bad.flat[0])} is out of bounds for axis {axis} with size {n}")



def _check_index_dtype(kind: str, name: str) -> None:
    if kind == "b":
        raise IndexError("a boolean mask together with integer arrays is not supported; turn the mask into "
                         "integer indices with kd.nonzero(mask)")
    if kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")  # NumPy's words
