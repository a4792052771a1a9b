"""Making arrays: from host data (uploaded once), or as lazy generators that cost no upload and fuse into
whatever consumes them (``zeros``, ``full``, integer ``arange``, ``eye``).

Python data gets kdsl's default types: floats -> float32, ints -> int32 (NumPy arrays keep their dtype).
Python ints that int32 cannot hold never change value: they get the dtype NumPy 2 would pick (int64, or uint64
for values past int64 that are all non-negative) or an ``OverflowError``; so does an explicit ``dtype`` that
cannot hold them (``kd.asarray([300], dtype=kd.uint8)``), as in NumPy 2.
``empty`` returns zeros (a lazy constant: it allocates nothing until used).

Example:
    >>> import kdsl as kd
    >>> kd.asarray([1.5, 2.0]).dtype.name, kd.arange(4).tolist(), kd.eye(2).tolist()
    ('float32', [0, 1, 2, 3], [[1.0, 0.0], [0.0, 1.0]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.dtype import promotion
from kdsl.engine.transfers import upload
from kdsl.errors import shape_text
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops, scalar_like
from kdsl.frontend.array.arange_arguments import NOT_GIVEN, bounds, int_dtype, length, typed_dtype
from kdsl.frontend.array.arange_integers import first_and_step
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.copy_keyword import NEEDS_COPY, copy_mode, with_layout
from kdsl.frontend.array.creation_keywords import check_like, check_order
from kdsl.frontend.array.host_dtypes import host_array, host_dtype, python_int_dtype, unsupported_data
from kdsl.frontend.array.memory_order import fortran, fortran_copy, fortran_laid
from kdsl.frontend.array.shape_arguments import as_shape, check_nbytes
from kdsl.ir.graph import Node


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None) -> Array:
    """An Array from an Array, NumPy array, nested lists or a scalar (copied to the device once).
    ``copy=True`` always gives a new array; ``copy=False`` refuses (ValueError) whatever needs a copy: host
    data, a dtype change, another device (the array API standard's rule), an ``order='C'``/``'F'`` the
    array's ``flags`` lack (NumPy's rule: ``asarray(a.T, order='C')`` is a copy; ``copy_keyword.py``).

    >>> import kdsl as kd, numpy as np
    >>> kd.asarray(np.arange(3, dtype=np.int16)).dtype.name
    'int16'
    >>> a = kd.ones(2)
    >>> kd.asarray(a, dtype=a.dtype) is a, kd.asarray(a, copy=True) is a, kd.asarray(a, dtype=kd.int8).dtype.name
    (True, False, 'int8')
    """
    check_order("asarray", order)
    check_like("asarray", like)
    x, dev, copy = a, current_device(device), copy_mode(copy)
    if isinstance(x, Array) and order is not None and order != "K" and not copy:  # NumPy's copy for a layout
        return with_layout(asarray(x, dtype, device=device, copy=copy), order, copy)
    if order is not None and order != "C" and fortran(order) and not isinstance(x, Array):  # host data in 'F'
        return fortran_laid(asarray(x, dtype, device=device, copy=copy))
    if isinstance(x, np.ndarray) and x.ndim >= 2 and x.flags.fnc and order not in ("C", "c"):
        # a Fortran-ordered NumPy array keeps its order, as np.asarray's: the upload of its (C-ordered) transpose
        return asarray(x.T, dtype, device=device, copy=copy).T
    if copy is not None:
        return _asarray_copy(x, dtype, dev, copy)
    if isinstance(x, Array):
        if x.device is not dev:
            x = asarray(x.numpy(), device=dev)
        # no conversion needed: x itself, as np.asarray returns its input (copy=True asks for a copy)
        return x if dtype is None or dt.as_dtype(dtype) is x.dtype else x.astype(dtype)
    wrapped = getattr(type(x), "__kdsl_array__", None)
    if wrapped is not None:  # an object wrapping a kdsl array (kd.poly1d: its coefficients): no download
        return asarray(wrapped(x), dtype, device=device)
    want = dt.as_dtype(dtype) if dtype is not None else None
    if isinstance(x, (list, tuple)) and _holds_array(x):  # [y[1], -y[0]]: joined on the device, no download
        return _joined(x, want, dev)
    arr = host_array(x, want)
    if not isinstance(arr, np.ndarray):  # __array__ gave a kdsl array (host_array): that array, cast
        return asarray(arr, dtype, device=device)
    d = want if want is not None else host_dtype(x, arr)
    if arr.dtype.kind not in "biufc":
        raise unsupported_data(x, arr)
    if arr.dtype.kind == "f" and d.is_int and want is None:  # Python ints NumPy held as floats: convert exactly
        arr = np.asarray(x, dtype=d.np)
    dev.check(d)
    return scalar_like.made_as_array(Array(upload(arr, d, dev)))


def as_array(x: Any, device: Any = None) -> Array:
    """``x`` itself if it is an Array (on whatever device it is), else :func:`asarray` of it on ``device``: the
    operand coercion of functions that accept array-likes.

    >>> import kdsl as kd
    >>> a = kd.ones(2)
    >>> as_array(a) is a, as_array([1, 2]).shape
    (True, (2,))
    """
    return x if isinstance(x, Array) else asarray(x, device=device)


_WIDER = {"float32": "float64", "complex64": "complex128"}


def as_arrays(*xs: Any, device: Any = None) -> list[Array]:
    """:func:`as_array` of each of ``xs``, converted together: a Python float, or a list, tuple or range of
    them (kdsl's float32 default; complex64 for complex numbers) comes out float64 (complex128) when another
    operand is a float64 or complex128 Array, so ``kd.isclose(a64, [0.1])`` compares 0.1 as NumPy does, not
    its float32 rounding. Next to float32 arrays the default stays (docs/numpy-api.md, "Default types").

    >>> import kdsl as kd, numpy as np
    >>> [a.dtype.name for a in as_arrays(kd.asarray(np.zeros(2)), [0.1, 0.2])]
    ['float64', 'float64']
    >>> [a.dtype.name for a in as_arrays(kd.zeros(2), [0.1, 0.2])]
    ['float32', 'float32']
    """
    out = [as_array(x, device) for x in xs]
    return at_array_precision(xs, out, device)


def as_array_beside(value: Any, other: Any, device: Any = None) -> Array:
    """``value`` as an array, converted as :func:`as_arrays` converts it beside ``other``: host floats at
    float64 (complex128) beside such an array, so ``diff(a64, prepend=0.1)`` or ``average(a64, weights=[0.1,
    ...])`` keep 0.1, not its float32 rounding.

    >>> import kdsl as kd, numpy as np
    >>> as_array_beside(0.1, kd.asarray(np.zeros(2))).dtype.name, as_array_beside(0.1, kd.zeros(2)).dtype.name
    ('float64', 'float32')
    """
    return as_arrays(other, value, device=device)[1]


def at_array_precision(operands: Any, converted: list, device: Any = None) -> list:
    """``converted`` (the operands made arrays, Python scalars left as they are) with each list, tuple or range
    among ``operands`` converted again at float64/complex128 precision when an Array operand has it (see
    :func:`as_arrays`)."""
    if not any(isinstance(x, Array) and x.dtype.name in ("float64", "complex128") for x in operands):
        return converted
    return [widened(x, c, device) if isinstance(c, Array) else c for x, c in zip(operands, converted, strict=True)]


def widened(value: Any, converted: Array, device: Any = None) -> Array:
    """``converted`` (:func:`asarray` of ``value``) converted again at float64 (complex128) where ``value`` is a
    Python float or complex, or a list, tuple or range of them, that kdsl's default made float32 (complex64);
    ``converted`` itself otherwise. For functions that compute in float64 (``interp``) or meet a float64
    operand (:func:`at_array_precision`): 0.1 must be NumPy's 0.1, not float32's rounding of it.

    >>> import kdsl as kd
    >>> widened([0.1], kd.asarray([0.1])).dtype.name, widened(kd.ones(1), kd.ones(1)).dtype.name
    ('float64', 'float32')
    """
    if isinstance(value, (list, tuple, range, float, complex)) and not isinstance(value, np.generic) and \
            converted.dtype.name in _WIDER:
        return asarray(value, dtype=_WIDER[converted.dtype.name], device=device)
    return converted


def number_constant(value: Any, device: Any = None, wide: bool = False) -> Array | None:
    """A Python or NumPy number, or a list holding one (``[v]``, ``[[v]]``), as a constant node of the dtype and
    shape :func:`asarray` gives it (float64/complex128 when ``wide``: beside such an array, as
    :func:`at_array_precision` widens a list); None for anything else. A join reads it from a push constant:
    ``a = kd.append(a, v)`` or ``kd.concatenate((a, [v]))`` in a loop uploads nothing per step.

    >>> number_constant([2.5]).shape, number_constant(3).dtype.name, number_constant([1.0, 2.0]) is None
    ((1,), 'int32', True)
    """
    depth, item = 0, value
    while isinstance(item, (list, tuple)) and len(item) == 1:
        depth, item = depth + 1, item[0]
    if not isinstance(item, (bool, int, float, complex, np.generic)) or (depth == 0 and value is not item):
        return None
    arr = host_array(value, None)
    d = host_dtype(value, arr)
    if arr.dtype.kind not in "biufc" or (arr.dtype.kind == "f" and d.is_int):  # ints held as floats: asarray
        return None
    if wide and d.name in _WIDER:
        d = dt.as_dtype(_WIDER[d.name])
    dev = current_device(device)
    dev.check(d)
    node = Array(ops.const_node(arr.reshape(-1)[0].item(), d, dev))
    return node.reshape(arr.shape) if depth else node


def _holds_array(x) -> bool:
    """Whether nested lists/tuples ``x`` hold a kdsl Array anywhere."""
    return any(isinstance(v, Array) or (isinstance(v, (list, tuple)) and _holds_array(v)) for v in x)


def _joined(x, dtype: dt.DType | None, dev) -> Array:
    """Nested lists holding kdsl arrays (and numbers, NumPy data) as one array: each item converted, then
    stacked on the device. The dtype is NumPy's promotion of the items' dtypes; a Python number counts as
    kdsl's default dtype of its kind (NumPy's ``np.array`` counts it as int64/float64, not weak)."""
    from kdsl.frontend.array.shape_ops import stack  # cycle: that module builds on this one

    # host items are converted in the dtype asked, so its checks apply to them as np.array's do (300 into int8:
    # OverflowError, NaN into an integer: ValueError), not cast from kdsl's default dtype afterwards
    items = [v if isinstance(v, Array) else _joined(v, dtype, dev) if isinstance(v, (list, tuple)) and
             _holds_array(v) else v if isinstance(v, (bool, int, float, complex)) else asarray(v, dtype, device=dev)
             for v in x]
    # np.array's discovery: a fold in the items' order (not result_type's order-free promotion)
    d = dtype if dtype is not None else promotion.promote_in_order(
        *(v.dtype if isinstance(v, Array) else dt.scalar_dtype(v) for v in items))
    parts = [v.astype(d) if isinstance(v, Array) else asarray(v, dtype=d, device=dev) for v in items]
    shapes = {p.shape for p in parts}
    if len(shapes) > 1:
        raise ValueError("setting an array element with a sequence. The requested array has an inhomogeneous "
                         f"shape: its items have shapes {sorted(shapes)}")
    return stack(parts, axis=0)


def _asarray_copy(x, dtype, dev, copy: bool) -> Array:
    if copy:
        out = asarray(x, dtype, device=dev)
        return out.copy() if out is x else out
    same = isinstance(x, Array) and x.device is dev and (dtype is None or dt.as_dtype(dtype) is x.dtype)
    if not same:
        raise ValueError(NEEDS_COPY)
    return x


def array(object, dtype=None, copy: bool | None = True, device=None, *, order="K", subok: bool = False, ndmin: int = 0,
          ndmax: int = 0, like=None) -> Array:
    """Like :func:`asarray`, but an existing Array is copied (NumPy's ``array``); ``copy=None`` copies only
    where needed and ``copy=False`` never (NumPy 2's ``ValueError`` where a copy is needed: host data, a dtype
    change, an ``order`` the array does not have); ``ndmin`` prepends size-1 axes up to that many dimensions,
    as NumPy's does. ``ndmax`` caps the dimensions taken from nested lists; data deeper than that would be
    NumPy's object array, which kdsl has not: ``ValueError``.

    >>> import kdsl as kd
    >>> a = kd.ones(2)
    >>> kd.array(a, copy=None) is a, kd.array(a, copy=False, ndmin=2).shape
    (True, (1, 2))
    >>> kd.array([1, 2], copy=False)
    Traceback (most recent call last):
    ValueError: Unable to avoid copy while creating an array as requested: copy=False, but this needs a copy ...
    """
    check_order("array", order)
    check_like("array", like)
    x, copy = object, copy_mode(copy)
    if copy:
        out = asarray(x, dtype, device=device).copy() if isinstance(x, Array) else asarray(x, dtype, device=device)
    else:  # None or False: asarray's rules (False: ValueError where a copy is needed)
        out = asarray(x, dtype, order if isinstance(x, Array) else None, device=device, copy=copy)
    if out.ndim >= 2 and fortran(order, a=x if isinstance(x, Array) else None):  # 'F' ('A'/'K': x's order)
        out = fortran_laid(out)
    if ndmax and out.ndim > ndmax:
        raise ValueError(f"array(ndmax={ndmax}): the data has {out.ndim} dimensions, and kdsl has no object dtype "
                         "for the nested rest; raise ndmax or drop it")
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return scalar_like.made_as_array(out) if out is not x else out  # np.array(s) of a scalar: a 0-d array


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None) -> Array:
    """An array of ``shape`` filled with ``fill_value`` (lazy: fused into its consumers, nothing uploaded);
    ``order``/``like`` as NumPy's (``creation_keywords.py``)."""
    check_order("full", order, "CF")
    check_like("full", like)
    return _ordered(order, shape, lambda s: _full(s, fill_value, dtype, current_device(device)))


def _ordered(order: Any, shape: Any, make: Any) -> Array:
    """``make(shape)``, or for ``order='F'`` NumPy's Fortran-ordered array (``memory_order.fortran_copy``: its
    ``flags``, ``strides`` and ``ravel('K')`` are NumPy's; a new array that owns its data)."""
    out = make(shape)
    return out if order is None or order == "C" or not fortran(order) or out.ndim < 2 else fortran_copy(out)


def _full(shape, fill_value, dtype, dev) -> Array:
    """:func:`full` once its keywords are checked (``zeros``, ``ones`` and ``empty`` check their own)."""
    shape = as_shape(shape)
    if isinstance(fill_value, (Array, np.ndarray, list, tuple, range)):  # a 0-d NumPy array too: NumPy's dtype
        return _full_of_array(shape, fill_value, dtype, dev)
    if dtype is not None:
        d = dt.as_dtype(dtype)
    elif isinstance(fill_value, int) and not isinstance(fill_value, bool):
        d = python_int_dtype(fill_value, fill_value)  # NumPy 2: kd.full(3, 2**40) is int64, not a wrapped int32
    else:
        d = dt.scalar_dtype(fill_value)
    dev.check(d)
    check_nbytes(shape, d.itemsize)
    node = ops.const_node(fill_value, d, dev)
    return scalar_like.made_as_array(Array(mv.broadcast_node(node, shape)))


def _full_of_array(shape: tuple[int, ...], fill_value: Any, dtype: Any, dev: Any) -> Array:
    """``full`` with an array-like ``fill_value`` (NumPy's ``np.full((2, 2), [1, 2])``): the fill broadcast to
    ``shape`` and cast to ``dtype`` unsafely, as NumPy's copy into the new array; a kdsl fill stays on the device.
    A new array: writes to it do not reach ``fill_value``."""
    fill = fill_value if isinstance(fill_value, Array) else asarray(fill_value, device=dev)
    if dtype is not None:
        fill = fill.astype(dt.as_dtype(dtype), copy=False)
    extra = fill.ndim - len(shape)
    if extra > 0 and fill.shape[:extra] == (1,) * extra:  # NumPy's copy drops leading length-1 axes
        fill = fill.reshape(fill.shape[extra:])  # (np.full((), [1]) is 1)
    try:
        target = ops.broadcast_shapes(fill.shape, shape)
    except ValueError:
        target = None
    if target != shape:
        raise ValueError(f"could not broadcast input array from shape {shape_text(fill.shape)} into shape "
                         f"{shape_text(shape)}")
    check_nbytes(shape, fill.dtype.itemsize)
    return scalar_like.made_as_array(Array(mv.broadcast_node(fill._n, shape)))


def zeros(shape, dtype=None, order="C", *, device=None, like=None) -> Array:
    """Zeros of ``shape``; ``dtype=None`` is the default float (float32)."""
    check_order("zeros", order, "CF")
    check_like("zeros", like)
    return _ordered(order, shape, lambda s: _full(s, 0, float if dtype is None else dtype, current_device(device)))


def ones(shape, dtype=None, order="C", *, device=None, like=None) -> Array:
    """Ones of ``shape``; ``dtype=None`` is the default float (float32)."""
    check_order("ones", order, "CF")
    check_like("ones", like)
    return _ordered(order, shape, lambda s: _full(s, 1, float if dtype is None else dtype, current_device(device)))


def empty(shape, dtype=None, order="C", *, device=None, like=None) -> Array:
    """Like NumPy's ``empty``; kdsl returns zeros (a lazy constant costs nothing until used)."""
    check_order("empty", order, "CF")
    check_like("empty", like)
    return _ordered(order, shape, lambda s: _full(s, 0, float if dtype is None else dtype, current_device(device)))


def _like(name, a, dtype, order, shape, device):
    """The dtype, shape, device and order ('C' or 'F': 'A' and 'K' keep ``a``'s Fortran order, as NumPy's) a
    ``*_like`` function makes.

    Only a kdsl array lends its device: a NumPy array's ``device`` is the string ``"cpu"`` (NumPy 2), no Vulkan
    device, so ``np.empty_like(host_array)`` lands on the current device."""
    check_order(name, order)
    if device is None and isinstance(a, Array):
        device = a.device
    a = asarray(a) if not isinstance(a, Array) else a
    o = "F" if fortran(order, a=a) and (shape is None or len(as_shape(shape)) == a.ndim) else "C"
    return (a.dtype if dtype is None else dtype), (a.shape if shape is None else shape), device, o


def zeros_like(a, dtype=None, order="K", subok: bool = True, shape=None, *, device=None) -> Array:
    d, s, dev, o = _like("zeros_like", a, dtype, order, shape, device)
    return zeros(s, d, o, device=dev)


def ones_like(a, dtype=None, order="K", subok: bool = True, shape=None, *, device=None) -> Array:
    d, s, dev, o = _like("ones_like", a, dtype, order, shape, device)
    return ones(s, d, o, device=dev)


def full_like(a, fill_value, dtype=None, order="K", subok: bool = True, shape=None, *, device=None) -> Array:
    d, s, dev, o = _like("full_like", a, dtype, order, shape, device)
    return full(s, fill_value, d, o, device=dev)


def empty_like(prototype, /, dtype=None, order="K", subok: bool = True, shape=None, *, device=None) -> Array:
    return zeros_like(prototype, dtype, order, subok, shape, device=device)


def iota(shape: tuple[int, ...], axis: int, device=None) -> Array:
    """int32 array whose element at index ``i`` is ``i[axis]`` (a lazy generator); int64 when the axis is
    longer than an int32 can count."""
    dev = current_device(device)
    d = dt.int32 if shape[axis] <= (1 << 31) - 1 else dev.check(dt.int64)
    return Array(Node("iota", (), d, shape, axis, device=dev))


def arange(*args: Any, start: Any = NOT_GIVEN, stop: Any = NOT_GIVEN, step: Any = NOT_GIVEN,
           dtype: Any = NOT_GIVEN, device=None, like=None) -> Array:
    """Evenly spaced values in [start, stop) (NumPy's ``arange``; Python ints give int32, floats float32).

    >>> import kdsl as kd
    >>> kd.arange(2, 11, 3).tolist()
    [2, 5, 8]
    >>> kd.arange(0, 2**33, 2**31, dtype=kd.int64).tolist()
    [0, 2147483648, 4294967296, 6442450944]
    """
    check_like("arange", like)
    start, stop, step, dtype = bounds(args, start, stop, step, dtype)
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    n = length(start, stop, step)
    typed = typed_dtype((start, stop, step)) if dtype is None else dt.as_dtype(dtype)
    if typed is None and any(isinstance(v, (float, np.floating)) for v in (start, stop, step)):
        d = dt.default_float
    else:
        d = typed if typed is not None and not typed.is_int else int_dtype(typed, (start, stop, step), device)
    if d is dt.bool_ and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
    if d.is_float:  # NumPy computes float ranges in float64: do the same on the host for identical values
        return asarray(np.arange(start, stop, step, dtype=np.float64).astype(d.np), device=device)
    if d.is_complex:  # real bounds (complex ones are refused above): NumPy's values, fractions kept
        return asarray(np.arange(start, stop, step, dtype=d.np), device=device)
    # NumPy's rule for an integer dtype: the first two values are cast (truncated) to it and their difference
    # is the step, so arange(-3, 3, 0.5, dtype=int) steps by 1 (12 values, as many as the float range has);
    # either value outside the dtype's range is NumPy's OverflowError, not a wrapped start
    first, step = first_and_step(start, step, n, d.np)
    i = iota((n,), 0, device)
    if d is dt.uint64 and any(abs(v) >= 1 << 63 for v in (first, step)):
        # past int64: int64 arithmetic modulo 2**64 (two's complement), whose bits are the uint64 values
        first, step = (((v + (1 << 63)) % (1 << 64)) - (1 << 63) for v in (first, step))
        return (i.astype(dt.int64) * step + first).astype(d)
    if any(abs(v) >= 1 << 31 for v in (first, step, first + n * step)):  # int32 would overflow
        i = i.astype(dt.int64)
    return (i * step + first).astype(d) if (step, first) != (1, 0) else i.astype(d)
