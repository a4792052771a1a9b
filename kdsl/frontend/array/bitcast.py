"""``Array.view(dtype)``: the same bytes read as another dtype, with NumPy's semantics.

Same itemsize (``float32 -> uint32``, ``int8 -> bool``...): the shape stays, and the result is one lazy
elementwise ``"bitcast"`` node that fuses with the work around it (GLSL's ``floatBitsToUint`` and friends; see
:func:`kdsl.codegen.ops.render_bitcast`). It reads element by element, so it works on any view, strided or
not (NumPy too needs contiguity only when the itemsize changes).

Another itemsize changes the last axis as NumPy does (``(3, 4) float32 -> (3, 2) float64``), with NumPy's
rules: not for 0-d arrays, the last axis contiguous (a size-1 last axis or an empty array always passes), its
bytes a multiple of the new itemsize. kdsl builds it from lazy elementwise ops on unsigned integers
(little-endian, as every Vulkan device is): a wider dtype ORs the shifted pieces of ``r`` neighbours, a
narrower one shifts each element right by ``0, w, 2w...`` bits along a new axis of length ``r`` and
reshapes. No copy and no host round trip; it needs the unsigned integer dtypes of both sizes on the device.

complex64 views work like any 8-byte dtype (``c.view(np.float32)`` interleaves real and imaginary parts);
complex128 views are refused (no 16-byte integer carries their bits).

kdsl stores bools as 0 or 1: a uint8 2 viewed as bool is True, and viewed back it is 1 (NumPy keeps the byte).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([1.0, -0.0], np.float32))
    >>> [hex(v) for v in a.view(np.uint32).tolist()], a.view(np.uint16).shape
    (['0x3f800000', '0x80000000'], (4,))
    >>> a.view(np.float64).tolist() == np.array([1.0, -0.0], np.float32).view(np.float64).tolist()
    True
"""

from __future__ import annotations

import builtins
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype.byte_order import native_only
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.array_flags import strides as byte_strides
from kdsl.frontend.array.constant_layout import layout
from kdsl.frontend.array.creation import arange
from kdsl.frontend.array.revived_base import remember_base
from kdsl.frontend.array.subclass_view import finalize, instance, subclass_of
from kdsl.ir.graph import Node

# numpy.ma's comparisons with a kd.ma array on the right (np.ma.masked < x) end in result.view(MaskedArray):
# kdsl/__init__.py installs kd.ma's wrapper of such a result here (kd.ma is built above this layer)
numpy_ma_view: Callable[[Array], Any] | None = None

UNSIGNED = {1: dt.uint8, 2: dt.uint16, 4: dt.uint32, 8: dt.uint64}
SIGNED = {1: dt.int8, 2: dt.int16, 4: dt.int32, 8: dt.int64}


def bitcast(x: Array, dtype: dt.DType) -> Array:
    """``x``'s bits as ``dtype`` of the same itemsize: a lazy elementwise node (no checks; see :func:`view`)."""
    node = x._n
    return x if node.dtype is dtype else Array(Node("bitcast", (node,), dtype, node.shape))


def _is_array_class(t: Any) -> bool:
    return isinstance(t, builtins.type) and issubclass(t, Array)


def view(a: Array, dtype: Any = None, type: Any = None) -> Array:  # noqa: A002 - NumPy's name
    """``a.view(dtype)``: ``a``'s bytes read as ``dtype`` (see the module docstring); with no dtype, a new Array
    of the same data. Writing into the view writes into ``a``, as in NumPy.

    >>> import kdsl as kd, numpy as np
    >>> b = kd.asarray(np.array([1, 2], np.int32))
    >>> v = b.view(np.float32)
    >>> v[0] = -0.0
    >>> b.tolist()
    [-2147483648, 2]
    """
    if _is_array_class(dtype):  # a.view(kd.ndarray) or a.view(MyArray), a Python subclass (subclass_view.py)
        dtype, type = None, dtype if type is None else type
    cls = subclass_of(type)
    if _is_array_class(type):
        type = None
    if any(isinstance(t, builtins.type) and issubclass(t, np.ma.MaskedArray) for t in (type, dtype)):
        # numpy.ma's operators end in result.view(MaskedArray); its comparisons do not defer to kd.ma's
        if numpy_ma_view is not None:
            return numpy_ma_view(a)
        raise TypeError("a numpy.ma masked array (np.ma.masked included) cannot wrap a kdsl result: numpy.ma's "
                        "operations (its comparisons always) do not defer to kdsl arrays; put the kdsl operand "
                        "first (x > kd.ma.masked), or make the NumPy one a kd.ma array (kd.ma.asarray(h))")
    if type is not None or (isinstance(dtype, builtins.type) and issubclass(dtype, np.ndarray)):
        raise TypeError("kdsl arrays have no subclasses: view(type=...) is not supported; use "
                        "np.asarray(a).view(type) for a NumPy subclass of a host copy")
    if dtype is None:
        out = Array(a._n) if cls is None else instance(cls, a._n)
    else:
        native_only(dtype, "view")  # kdsl arrays have no byte order: '>i4' would read the bytes little-endian
        d = a.device.check(dt.as_dtype(dtype))
        for x in (a.dtype, d):
            if x.kind not in "biuf" and x is not dt.complex64:
                raise TypeError(f"view between {a.dtype.name} and {d.name} is not supported: kdsl views bool, "
                                "integer, float and complex64 dtypes (complex128 has no 16-byte integer to carry "
                                "its bits; kd.stack([a.real, a.imag], axis=-1) gives its float64 pairs)")
        same = d is a.dtype  # a new Array of the same node (bitcast would hand back ``a`` itself)
        out = Array(a._n) if same else bitcast(a, d) if d.itemsize == a.dtype.itemsize else _resized(a, d)
        if cls is not None:
            out = instance(cls, out._n)
        if d.itemsize != a.dtype.itemsize:
            out._resized_strides = _resized_strides(a, d)
    out = _writes_through(out, a)
    return out if cls is None else finalize(out, a)


def _resized_strides(a: Array, d: dt.DType) -> tuple[int, ...]:
    """NumPy's byte strides of ``a.view(d)`` (another itemsize): ``a``'s, the last axis stepping by ``d``'s
    itemsize (NumPy keeps the other axes' steps: ``a[:, :1].view(np.int16)`` is no C-contiguous array)."""
    return byte_strides(a)[:-1] + (d.itemsize,)


def _writes_through(v: Array, a: Array) -> Array:
    """Make assignments into view ``v`` reach ``a`` (NumPy's views share memory). An ``a`` that is not itself
    a view is held weakly: a live base Array would make the scheduler store it, and
    ``(x * 2).view(np.uint32) & 1`` would not fuse into one kernel; a base nobody holds can never be read, so
    then there is nothing to write. A view (``x[::2].view(...)``, ``kd.broadcast_to(x, s).view(...)``) is held,
    so writes go on to its base and writes into its base show in ``v``."""
    d = v.dtype
    # a view (``x[::2]``) or a view that only reads through (``kd.broadcast_to(x, s)``, ``diagonal``, a
    # sliding window) is held: it is how later writes into ``x`` reach ``v``, as NumPy's
    if a._parent is not None or a._read is not None:
        def write_into_view(base: Array, target: Array) -> None:
            base[...] = view(target, base.dtype)

        write_into_view.bitcast = True  # type: ignore[attr-defined]  # for kd.shares_memory (footprints.py)
        return v._view_of(a, write_into_view, lambda base: view(base, d))
    ref = weakref.ref(a)

    def write(_: object, target: Array) -> None:
        base = ref()
        if base is not None:
            base[...] = view(target, base.dtype)

    write.base_ref = ref  # type: ignore[attr-defined]  # for kd.may_share_memory (sharing.py)
    remember_base(write, a)  # v.base makes it again once it is gone (revived_base.py)
    write.bitcast = True  # type: ignore[attr-defined]  # for kd.shares_memory (footprints.py)
    v._parent = (None, write)  # type: ignore[assignment]  # the base is held by ``write``, weakly
    v._follow(ref, lambda base: view(base, d), a)
    return v


def _resized(a: Array, d: dt.DType) -> Array:
    """``a`` viewed as ``d`` of another itemsize: the last axis scales by the ratio of the itemsizes."""
    old, new = a.dtype.itemsize, d.itemsize
    if not a.shape:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
    if not _last_axis_contiguous(a):
        raise ValueError("To change to a dtype of a different size, the last axis must be contiguous; "
                         "make a contiguous copy first (a.copy()) or view as a dtype of the same size")
    nbytes = a.shape[-1] * old
    if nbytes % new:
        raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size in bytes "
                         f"of the last axis of the array ({nbytes} bytes here, {d.name} has {new})")
    u_old, u_new = (a.device.check(UNSIGNED[n]) for n in (old, new))
    bits = bitcast(a, u_old)
    lead = a.shape[:-1]
    if new > old:  # r neighbours, the first one lowest (little-endian), OR-ed into one wider integer
        r = new // old
        groups = bits.reshape(lead + (nbytes // new, r))
        out = groups[..., 0].astype(u_new)
        for p in range(1, r):
            out = out | (groups[..., p].astype(u_new) << 8 * old * p)
    else:  # each element shifted right by 0, w, 2w... bits along a new last axis, then truncated
        r = old // new
        shifts = arange(r, dtype=u_old, device=a.device) * (8 * new)
        out = (bits.reshape(a.shape + (1,)) >> shifts).astype(u_new).reshape(lead + (a.shape[-1] * r,))
    return bitcast(out, d)


def _last_axis_contiguous(a: Array) -> bool:
    """NumPy's test on ``a``'s last axis: size 1, an empty array, or stride 1 in the layout NumPy's array has
    (``constant_layout.py``: also for a view written into since, ``t = a.T; t[0, 0] = 1``, or of a lazy
    constant, ``kd.zeros((3, 4)).T``); an owner is C-ordered."""
    if a.shape[-1] == 1 or a.size == 0:
        return True
    view = layout(a)
    return view is None or view.canonical().strides[-1] == 1


def set_dtype(a: Array, dtype: Any) -> None:
    """``a.dtype = t``: ``a`` itself becomes ``a.view(t)`` (NumPy's in-place dtype change, with ``view``'s rules
    and errors). A view keeps writing its base (its writes are viewed back as the dtype the base reads), and
    views made from ``a`` before keep reading ``a``'s bytes as their own dtype (``ViewLinks._follow``).

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([1.0, -2.0], np.float32))
    >>> a.dtype = np.uint32
    >>> [hex(v) for v in a.tolist()]
    ['0x3f800000', '0xc0000000']
    """
    old = a.dtype
    v = view(a, dtype)
    a._set_raw(v._raw)  # the same bytes: nothing is written, so views of ``a`` stay as they are
    a._retyped = True
    if hasattr(v, "_resized_strides"):
        a._resized_strides = v._resized_strides
    if a._parent is not None:
        a._rewrap_write(lambda target: view(target, old))
    if a._read is not None:
        get_base, read = a._read
        a._read = (get_base, lambda b: view(read(b), dtype))
