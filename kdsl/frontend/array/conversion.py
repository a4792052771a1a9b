"""Arrays as arrays: ``copy ascontiguousarray asanyarray asarray_chkfinite copyto``, NumPy's names and semantics.

A kdsl array has no subclasses, so ``subok=`` is accepted and ignored; ``order='F'`` copies are Fortran-ordered
(``memory_order.fortran_copy``); ``ascontiguousarray`` copies only a strided view, as NumPy copies only a non-contiguous
array. ``copyto`` writes into its destination kdsl array in place (lazily, like ``dst[...] = src``).

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.copy(a).tolist(), kd.ascontiguousarray(a.T).shape
    ([[0, 1, 2], [3, 4, 5]], (3, 2))
    >>> kd.copyto(a, 7, where=a > 3); a.tolist()
    [[0, 1, 2], [3, 7, 7]]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.errors import shape_text
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.copy_keyword import with_layout
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.creation_keywords import check_order
from kdsl.frontend.array.memory_order import fortran
from kdsl.frontend.array.where_masks import where_mask


def _as(a: Any, dtype: Any, **kwargs: Any) -> Array:
    """:func:`kdsl.asarray`, returning an Array itself (not a cast of it) when ``dtype`` is already its dtype."""
    if isinstance(a, Array) and dtype is not None and dt.as_dtype(dtype) is a.dtype:
        dtype = None
    return asarray(a, dtype=dtype, **kwargs)


def copy(a: Any, order: str = "K", subok: bool = False) -> Array:
    """A new array with the values of ``a`` in ``order`` ('K': ``a``'s, Fortran for a Fortran-ordered ``a``;
    ``subok`` changes nothing: kdsl has no subclasses). Writing to the copy never changes ``a``.

    >>> import kdsl as kd
    >>> a = kd.asarray([1, 2, 3]); b = kd.copy(a); b[0] = 9
    >>> a.tolist(), b.tolist()
    ([1, 2, 3], [9, 2, 3])
    """
    check_order("copy", order)  # NumPy's ValueError for order='X'
    if isinstance(a, Array):
        return a.copy(order)  # 'K' keeps a Fortran-ordered a's order, as NumPy's
    return asarray(a, order="F" if order in ("F", "f") else None)  # host data: the upload is the copy


def ascontiguousarray(a: Any, dtype: Any = None, *, like: Any = None) -> Array:
    """``a`` as an array of at least one dimension whose data is contiguous: a strided view (``a[::2]``,
    ``a.T``) is copied, anything else returned as it is (a 0-d array becomes shape (1,), as in NumPy).

    >>> import kdsl as kd
    >>> kd.ascontiguousarray(kd.asarray(3.0)).shape, kd.ascontiguousarray([1, 2], dtype=kd.float32).dtype
    ((1,), kdsl.float32)
    """
    x = _as(a, dtype)
    if x.ndim == 0:
        return x.reshape(1)
    from kdsl.frontend.array.array_flags import contiguity

    # NumPy's C_CONTIGUOUS flag decides (a lazy constant such as kd.ones(s) counts as a new C-ordered array)
    return x if contiguity(x)[0] else x.copy()


def asanyarray(a: Any, dtype: Any = None, order: Any = None, *, device: Any = None, copy: bool | None = None,
               like: Any = None) -> Array:
    """:func:`kdsl.asarray` (kdsl has no array subclasses to pass through; ``order`` copies as there).

    >>> import kdsl as kd
    >>> a = kd.ones((2, 2))
    >>> kd.asanyarray(a) is a, kd.asanyarray([1, 2]).dtype, kd.asanyarray(a.T, order="C") is a.T
    (True, kdsl.int32, False)
    """
    return _as(a, dtype, order=order, device=device, copy=copy)


def asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None) -> Array:
    """:func:`kdsl.asarray`, raising ValueError when a float or complex array holds NaN or inf. The check reads
    one flag back to the host (one synchronisation); integer and bool arrays need none.

    >>> import kdsl as kd
    >>> kd.asarray_chkfinite([1.0, 2.0]).tolist()
    [1.0, 2.0]
    >>> kd.asarray_chkfinite([1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: array must not contain infs or NaNs
    """
    x = _as(a, dtype)
    if x.dtype.kind in "fc" and x.size and not bool(ops.apply("isfinite", x).all()):
        raise ValueError("array must not contain infs or NaNs")
    return x


def _check_casting(dst: Array, src: Any, casting: str) -> None:
    """NumPy's casting rule for ``copyto`` on the dtypes only (Python scalars by value, as NumPy 2 does:
    ``copyto(uint8_array, -1)`` is an OverflowError, ``copyto(int_array, 1.5)`` a TypeError)."""
    rule: Any = casting  # NumPy checks the name too (ValueError listing its rules)
    if isinstance(src, Array):
        _check_cast(src.dtype, dst.dtype, casting)
        return
    with warnings.catch_warnings():  # the real copy warns (ComplexWarning), not this check on no data
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        np.copyto(np.empty(0, dst.dtype.np), src, casting=rule)  # metadata only: raises what NumPy raises


def array_astype(x: Array, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True,
                 copy: bool = True) -> Array:
    """``x.astype(dtype, order, casting, subok, copy)`` with NumPy's checks: ``order`` one of C F A K,
    ``casting`` NumPy's rule for the dtype change, ``copy=False`` gives ``x`` itself when its dtype is already
    ``dtype`` and its ``flags`` have the ``order`` asked (else a new array in that order, as NumPy's copy).

    >>> import kdsl as kd
    >>> a = kd.asarray([1.0, 2.0])
    >>> a.astype(kd.float32, copy=False) is a, a.astype(kd.float32) is a
    (True, False)
    >>> a.astype(kd.int32, casting="safe")
    Traceback (most recent call last):
    TypeError: Cannot cast array data from dtype('float32') to dtype('int32') according to the rule 'safe'; \
pass casting='unsafe' to allow it
    """
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if isinstance(copy, np._CopyMode):  # noqa: SLF001 - NumPy's astype takes a bool only
        raise ValueError("_CopyMode enum is not allowed for astype function. Use true/false instead.")
    d = dt.as_dtype(dtype)
    if casting == "same_value":
        return _cast_same_value(x, d, copy)
    _check_cast(x.dtype, d, casting)
    if d is x.dtype and not copy:  # NumPy's copy=False still copies for an order x does not have ('A': either)
        return with_layout(x, order, None, contiguous_a=True)
    if fortran(order, a=x) and x.ndim >= 2:  # NumPy's Fortran-ordered result: the cast of x.T, transposed
        return (ops.astype(x.T, d) if d is not x.dtype else x.T.copy()).T
    return ops.astype(x, d) if d is not x.dtype else x.copy()


def _cast_same_value(x: Array, d: dt.DType, copy: bool) -> Array:
    """NumPy 2.4's ``casting='same_value'``: any cast, but ValueError when a value changes (it does not cast
    back to itself; NaN stays NaN; casts to bool are not checked, as NumPy's). Reads one bool to the host."""
    if d is x.dtype:
        return x if not copy else x.copy()
    out = ops.astype(x, d)
    if d is dt.bool_ or x.size == 0:
        return out
    # ``out`` is computed first: fused into one kernel, a 64-bit -> 32-bit -> 64-bit cast chain comes back
    # unrounded on lavapipe (the driver folds the pair), which would hide exactly the changes looked for here.
    out.realize()
    back = ops.astype(out, x.dtype)
    same = back == x
    if x.dtype.kind in "fc":
        same = same | (ops.apply("isnan", x) & ops.apply("isnan", back))
    if not bool(same.all()):
        raise ValueError(f"could not cast 'same_value' {x.dtype.name} to {d.name}: a value would change; "
                         "use casting='unsafe' to allow it")
    return out


def _check_cast(src: dt.DType, dst: dt.DType, casting: str) -> None:
    rule: Any = casting  # NumPy checks the name too (ValueError listing its rules)
    if not np.can_cast(src.np, dst.np, casting=rule):
        raise TypeError(f"Cannot cast array data from {src.np!r} to {dst.np!r} according to the rule "
                        f"{casting!r}; pass casting='unsafe' to allow it")


def _mask(where: Any, dst: Array) -> Array:
    """``where`` as a boolean kdsl array of ``dst``'s shape: NumPy's safe cast to bool (``where_masks.py``)."""
    return _broadcast_into(where_mask(where, dst.device), dst.shape, "where mask")


def _broadcast_into(value: Array, shape: tuple[int, ...], what: str) -> Array:
    """``value`` broadcast to ``shape`` (a copy's target; an input array's leading length-1 axes beyond that rank
    dropped, as NumPy's assignment drops them, not a where mask's), or NumPy's copyto ValueError, which prints
    shapes without spaces: "could not broadcast input array from shape (3,) into shape (4,5)"."""
    drop = 0
    while what == "input array" and drop < value.ndim - len(shape) and value.shape[drop] == 1:
        drop += 1
    value = value.reshape(value.shape[drop:]) if drop else value
    try:
        np.broadcast_shapes(value.shape, shape)
        fits = len(value.shape) <= len(shape)
    except ValueError:
        fits = False
    if not fits or np.broadcast_shapes(value.shape, shape) != tuple(shape):
        raise ValueError(f"could not broadcast {what} from shape {shape_text(value.shape)} into shape "
                         f"{shape_text(shape)}")
    return Array(mv.broadcast_node(value._node, tuple(shape)))



def copyto(dst: Array, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """Copy ``src`` (broadcast to ``dst``'s shape) into the kdsl array ``dst`` in place, where ``where`` is
    True. ``casting`` is NumPy's rule for the dtype change (TypeError when it forbids it). Lazy: the write is
    an update of ``dst`` that runs when ``dst`` is next used; views of an array write through to it.

    >>> import kdsl as kd
    >>> a = kd.zeros((2, 2), dtype=kd.int32)
    >>> kd.copyto(a, kd.asarray([1, 2], dtype=kd.int8)); a.tolist()
    [[1, 2], [1, 2]]
    >>> kd.copyto(a, 1.5)
    Traceback (most recent call last):
    ...
    TypeError: Cannot cast scalar from dtype('float64') to dtype('int32') according to the rule 'same_kind'
    """
    if not isinstance(dst, Array):
        raise TypeError(f"copyto: dst must be a kdsl Array, got {type(dst).__name__} (writing a host array from "
                        "kdsl would be a silent copy); use np.copyto(dst, np.asarray(src)) for NumPy arrays")
    if not isinstance(src, (bool, int, float, complex, Array)):
        src = asarray(np.asarray(src), device=dst.device)
    _check_casting(dst, src, casting)
    value = src.astype(dst.dtype) if isinstance(src, Array) else Array(ops.const_node(src, dst.dtype, dst.device))
    value = _broadcast_into(value, dst.shape, "input array")
    if where is not True:
        value = ops.where(_mask(where, dst), value, dst)
    dst[...] = value
