"""Writes through integer indices: NumPy's unbuffered ``ufunc.at`` (``kd.add.at``, ``kd.subtract.at``,
``kd.maximum.at``, ``kd.minimum.at``); buffered assignment ``a[idx] = v`` is :mod:`index_assignment`'s, and
``bincount`` and ``histogram`` are in :mod:`histogram`.

``ufunc.at`` takes one of two paths:

* **atomics** (:mod:`scatter_atomic`): one kernel invocation per (index, value) pair does ``atomicAdd`` /
  ``atomicMax`` / ``atomicMin`` into the target; integers (narrow ones through a 32-bit temporary), bool, and
  float additions where the device has float atomics. Float sums then run in an undefined order: results can
  differ from NumPy's sequential sum by rounding, and from run to run (as PyTorch's ``index_add_`` on CUDA).
* **sorted** (:mod:`scatter_sorted`): a stable sort of the indices and two binary searches; deterministic.
  Float ``maximum`` / ``minimum``, complex values, dtypes without a native atomic, and every float operation
  with ``deterministic=True`` take it. ``multiply.at``, ``divide.at`` and the other associative ufuncs' ``.at``
  (bitwise, logical, ``fmax``/``fmin``, ``gcd``/``lcm``) fold each run with a segmented scan
  (:mod:`scatter_segmented`).

Values that need NumPy's unsafe cast after every step (``np.add.at(int_counts, i, 0.5)``, ``divide.at`` of
integers, ``maximum.at(u8, i, -1)``) run NumPy's own ``ufunc.at`` on a host copy (:mod:`scatter_cast_host`).

Indices with slices, ``None``, ``...`` or boolean masks (``np.add.at(a, (slice(None), idx), v)``) select the
positions that ``a[indices]`` reads, through kdsl's indexing of a lazy ``arange``.

Buffered assignment (the last occurrence wins) takes the sorted path too (:mod:`index_assignment`).

Synchronisation: host indices are checked on the host; device indices read back their minimum and maximum
once (IndexError before anything is written). Nothing else synchronises.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.zeros(4, dtype=kd.int32)
    >>> kd.add.at(a, [0, 2, 2, -1], 5)
    >>> a.tolist()
    [5, 0, 10, 5]
    >>> a[[1, 1]] = kd.asarray([7, 8], dtype=kd.int32)
    >>> a.tolist()
    [5, 8, 10, 5]
    >>> kd.bincount(kd.asarray([1, 3, 3])).tolist()
    [0, 1, 0, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array import (
    ops,
    scalar_bool_index,
    scatter_atomic,
    scatter_cast_host,
    scatter_rounds,
    scatter_segmented,
    scatter_sorted,
)
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.complex_math import complex_from_parts, imag, real
from kdsl.frontend.array.creation import arange, asarray
from kdsl.frontend.array.histogram import bincount, histogram
from kdsl.frontend.array.inplace import store_inplace
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.reductions import min as amin
from kdsl.frontend.array.shape_ops import broadcast_values_to
from kdsl.frontend.array.ufunc_errors import output_casting_error


def checked_indices(indices: Any, n: int, device, axis: int = 0, wrap: bool = True, check: bool = True) -> Array:
    """``indices`` as a device integer array with negative indices wrapped (``wrap=False``: device indices as
    they are, for the atomic kernel, which wraps them itself); IndexError (naming the index, the axis and its
    size) for one outside ``[-n, n)``, unless not ``check`` (indices that select nothing: NumPy checks only those
    it visits). Device indices are checked with one synchronisation."""
    if isinstance(indices, Array):
        if indices.device is not device:
            raise ValueError("the index array lives on another device than the array; move it with kd.asarray")
        if not indices.dtype.is_int or indices.dtype is dt.bool_:
            raise IndexError(f"arrays used as indices must be of integer type, not {indices.dtype.name}")
        if indices.size and check:
            lo, hi = amin(indices), amax(indices)
            # lazy indices are computed once, for the check and the scatter; stored ones are only read
            realize(*([lo, hi] if indices._n.realized else [indices, lo, hi]))
            _check_range(int(lo), int(hi), n, axis)
        if not wrap:
            return indices
        idx = indices.astype(index_dtype(device))
    else:
        host = np.asarray(indices)
        if host.size == 0:  # NumPy reads [] as no indices
            host = host.astype(np.int64)
        if host.dtype.kind not in "iu":
            raise IndexError(f"arrays used as indices must be of integer type, not {host.dtype}")
        if host.size and check:
            _check_range(int(host.min()), int(host.max()), n, axis)
        idx = asarray(host.astype(index_dtype(device).np), device=device)
        if not wrap:
            return idx
    return km.where(idx < 0, idx + n, idx) if idx.size else idx


def _check_range(lo: int, hi: int, n: int, axis: int = 0) -> None:
    bad = hi if hi >= n else lo if lo < -n else None
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")


# ----- unbuffered ufunc.at

_MODULAR = scatter_cast_host.MODULAR  # wrapped results depend only on the wrapped operands
# the ufuncs whose .at merges repeated indices (atomics, sorted runs, segmented scans); the other binary ones
# apply their steps in rounds (scatter_rounds.py)
_SCATTERED = frozenset({"add", "subtract", "maximum", "minimum", *scatter_segmented.FOLDS})


def _own_values(values: Any, shape: tuple[int, ...], a: Array) -> Any:
    """``values`` broadcast to ``shape`` and flattened in their own dtype (the ufunc promotes each step, as
    NumPy's loop: ``ldexp.at`` keeps integer exponents); a Python scalar as it is (a weak operand)."""
    if isinstance(values, (bool, int, float, complex)):
        return values
    v = values if isinstance(values, Array) else asarray(values, device=a.device)
    if v.device is not a.device:
        raise ValueError("the values live on another device than the array; move them with kd.asarray")
    try:
        return broadcast_values_to(v, shape).reshape(-1)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together: values of shape {v.shape} for indices of "
                         f"shape {shape}") from None


def _values(values: Any, shape: tuple[int, ...], a: Array, name: str) -> Array:
    """``values`` broadcast to ``shape`` and flattened, in ``a``'s dtype (values that need NumPy's unsafe cast
    after every step, ``np.add.at(int_array, i, 1.5)``, took :mod:`scatter_cast_host` before)."""
    v = values if isinstance(values, Array) else _host_values(values, a) \
        if not isinstance(values, (bool, int, float)) else None
    if v is None:
        vd = np.result_type(a.dtype.np, values)
    else:
        if v.device is not a.device:
            raise ValueError("the values live on another device than the array; move them with kd.asarray")
        vd = np.result_type(a.dtype.np, v.dtype.np)
    if name == "divide" and vd.kind in "biu":  # true division of integers gives floats
        vd = np.dtype(np.float64)
    if not np.can_cast(vd, a.dtype.np, "same_kind"):
        raise output_casting_error(name, vd, a.dtype, "same_kind")
    if v is None:
        if name in _MODULAR:  # NumPy's add.at(u8, i, -1) wraps its result; these ops may wrap the value first
            values = ops.forced_int(values, a.dtype)
        v = Array(ops.const_node(values, a.dtype, a.device))
    try:
        full = broadcast_values_to(v.astype(a.dtype), shape)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together: values of shape {v.shape} for indices of "
                         f"shape {shape}") from None
    return full.reshape(-1)


def _host_values(values: Any, a: Array) -> Array:
    """Host values (a list, a NumPy array) uploaded in ``a``'s dtype when NumPy's loop casts them to it anyway,
    without a stop at kdsl's float32 default: ``add.at(float64_array, i, [1e16])`` adds 1e16, not float32's
    1.0000000272564224e16 (NumPy's lists are float64)."""
    host = np.asarray(values)
    if host.dtype.kind in "biuf" and a.dtype.np.kind in "iuf" and np.can_cast(
            np.result_type(a.dtype.np, host.dtype), a.dtype.np, "same_kind"):
        with np.errstate(over="ignore", invalid="ignore"):  # NumPy's step casts overflow the same way
            host = host.astype(a.dtype.np)
    return asarray(host, device=a.device)


def _target(a: Any, name: str) -> Array:
    if not isinstance(a, Array):
        raise TypeError(f"{name}.at needs a kdsl Array to update in place, not {type(a).__name__}")
    return a


def _scalar_key(indices: Any, values: Any) -> None:
    """NumPy's errors for ``ufunc.at`` of a 0-d array, whose one element only ``()`` or ``...`` selects; the
    values must then be a scalar (NumPy does not broadcast ``[v]`` down to the selection's shape ``()``)."""
    key = indices if isinstance(indices, tuple) else (indices,)
    if any(k is not Ellipsis for k in key):
        raise IndexError(f"too many indices for array: array is 0-dimensional, but {len(key)} were indexed")
    ndim = values.ndim if isinstance(values, Array) else np.ndim(values)  # host data: its shape, no upload
    if ndim > 0:
        raise ValueError("array is not broadcastable to correct shape")


def _general_key(indices: Any) -> bool:
    """Whether ``ufunc.at``'s ``indices`` hold a slice, ``None``, ``...`` or a boolean mask (NumPy indexes with
    them as ``a[indices]`` does): not the integer-array fast path of :func:`_flat_indices`."""
    for it in indices if isinstance(indices, tuple) else (indices,):
        if it is None or it is Ellipsis or isinstance(it, slice):
            return True
        if isinstance(it, Array) and it.dtype is dt.bool_:
            return True
        if not isinstance(it, (Array, int, np.integer)) and np.asarray(it).dtype == np.bool_:
            return True
    return False


def _positions(x: Array, indices: Any) -> tuple[Array, tuple[int, ...]]:
    """(the flat positions ``x[indices]`` reads, the selection's shape): kdsl's own indexing of a lazy
    ``arange`` of positions, so slices, ``None``, ``...`` and masks mean what they mean in ``x[indices]`` (a
    mask reads its count back, as ``x[mask]`` does)."""
    pos = arange(x.size, dtype=index_dtype(x.device), device=x.device).reshape(x.shape)[indices]
    return pos.reshape(-1), pos.shape


def _flat_indices(x: Array, indices: Any) -> tuple[Array, tuple[int, ...]]:
    """(the flat positions in ``x.reshape(-1)`` that ``ufunc.at``'s ``indices`` select, the shape the values
    broadcast to). ``indices``: one integer array (whole sub-arrays along axis 0) or a tuple of integer arrays
    and ints on the leading axes, broadcast together (NumPy's ``np.add.at(a, (i, j), v)``)."""
    items = indices if isinstance(indices, tuple) else (indices,)
    k = len(items)
    if k > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {k} were indexed")
    shape = ops.broadcast_shapes(*[it.shape if isinstance(it, Array) else np.shape(it) for it in items])
    visits = bool(np.prod(shape, dtype=np.int64))  # NumPy checks the indices it visits: none for an empty key
    checked = [checked_indices(it, x.shape[m], x.device, axis=m, check=visits) for m, it in enumerate(items)]
    block = 1
    for n in x.shape[k:]:
        block *= n
    flat, stride = None, block
    for m in reversed(range(k)):
        term = broadcast_values_to(checked[m], shape) * stride
        flat = term if flat is None else flat + term
        stride *= x.shape[m]
    assert flat is not None  # k >= 1: a tuple of no indices is refused by NumPy too
    if block > 1:  # each selected sub-array: its block of consecutive flat positions
        flat = flat.reshape(shape + (1,)) + arange(block, dtype=flat.dtype, device=x.device)
    return flat.reshape(-1), shape + x.shape[k:]


def _check_types(fn: Callable[..., Any], x: Array, values: Any) -> None:
    """The ufunc's own TypeError for the operands' types (``np.subtract.at`` of bools, ``left_shift.at`` of
    floats), by the ufunc on no data: host values by their NumPy dtype only (no upload; a Python scalar too, as
    NumPy's ``.at`` takes -1 into uint8, unlike NEP 50's range check)."""
    if isinstance(values, Array):
        fn(x.reshape(-1)[:0], values.reshape(-1)[:0])
        return
    kind = np.asarray(values).dtype
    if kind.kind != "O":  # 2**70: the value path below says what is wrong
        fn(x.reshape(-1)[:0], asarray(np.empty(0, kind), device=x.device))


def _ufunc_at(name: str, a: Any, indices: Any, values: Any, deterministic: bool = False,
              fn: Callable[..., Any] | None = None) -> None:
    """``name.at(a, indices, values)``; ``fn``: the ufunc's elementwise function (the ufuncs of
    :mod:`scatter_segmented` fold runs with it)."""
    x = _target(a, name)
    if fn is not None:
        _check_types(fn, x, values)
    if x.ndim == 0:  # np.add.at(a0d, (), v): the one element, through a 1-element view that writes through
        _scalar_key(indices, values)
        _ufunc_at(name, x.reshape(1), [0], values, deterministic, fn)
        return
    if isinstance(indices, tuple) and len(indices) == 0:
        raise IndexError(f"{name}.at needs at least one index array")
    two_steps = scalar_bool_index.with_arrays(indices)
    if two_steps is not None:  # np.add.at(a, (True, idx), v): into the view with the booleans' length-1 axes
        with scalar_bool_index.own_axes(two_steps[0], x.ndim):
            _ufunc_at(name, x[two_steps[0]], two_steps[1], values, deterministic, fn)
        return
    if scatter_cast_host.needs_host(name, x, values):  # NumPy's per-step unsafe cast: not a fold on the device
        scatter_cast_host.at_on_host(name, x, indices, values)
        return
    parts = x.dtype.kind == "c" and name in ("add", "subtract")  # complex sums: real and imaginary parts apart
    work = scatter_atomic.work_dtype(name, x.dtype.real_dtype if parts else x.dtype, x.device, deterministic)
    if _general_key(indices):
        idx, shape = _positions(x, indices)
    elif x.ndim == 1 and not isinstance(indices, tuple):
        host_shape = indices.shape if isinstance(indices, Array) else np.shape(indices)
        idx = checked_indices(indices, x.shape[0], x.device, wrap=work is None).reshape(-1)
        shape = tuple(host_shape)
    else:
        idx, shape = _flat_indices(x, indices)
    n = x.size
    if fn is not None and name not in _SCATTERED:  # not associative: NumPy's steps in rounds
        v = _own_values(values, shape, x)
        if idx.size == 0 or n == 0:
            return
        store_inplace(x, scatter_rounds.combined(fn, x.reshape(-1), idx, v, n).reshape(x.shape))
        return
    v = _values(values, shape, x, name)
    if idx.size == 0 or n == 0:
        return
    flat = x.reshape(-1)
    new = _combined(name, flat, idx, v, n, work, fn)
    store_inplace(x, new.reshape(x.shape))  # a view writes through to its base


def _combined(name: str, x: Array, idx: Array, v: Array, n: int, work: dt.DType | None,
              fn: Callable[..., Any] | None = None) -> Array:
    """The 1-D ``x`` after ``name.at(x, idx, v)``: with atomics in ``work``, else on the sorted path (which
    needs wrapped indices). Complex sums add their real and imaginary parts apart (two float atomics)."""
    if x.dtype.kind == "c" and name in ("add", "subtract"):
        re = _combined(name, real(x), idx, real(v), n, work)
        return complex_from_parts(re, _combined(name, imag(x), idx, imag(v), n, work)).astype(x.dtype)
    if name in scatter_segmented.FOLDS:
        assert fn is not None
        return scatter_segmented.combined(name, fn, x, idx, v, n)
    if work is not None:
        return scatter_atomic.scatter(name, x, idx, v, work)
    return scatter_sorted.combined(name, x, idx, v, n)


class WithAt:
    """An elementwise function that also has NumPy's ``.at`` (``kd.add(x, y)`` and ``kd.add.at(a, i, v)``)."""

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        self._fn, self._name = fn, name
        self.__name__ = self.__qualname__ = getattr(fn, "__name__", name)
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def at(self, a: Array, indices: Any, b: Any = None, *, deterministic: bool = False) -> None:
        """Unbuffered in-place ``a[indices] = op(a[indices], b)``: repeated indices all apply (NumPy's
        ``ufunc.at``). ``a`` is a kdsl Array; ``indices`` an integer array (sub-arrays along axis 0) or a
        tuple of integer arrays and ints on the leading axes, broadcast together (negative ones count from
        the end; a 0-d ``a`` takes ``()`` or ``...``); ``b`` broadcasts to the selection's shape.

        Runs with atomics where the device has them: float sums then happen in an undefined order, so they
        may differ from NumPy's sequential sum (and between runs) by rounding. ``deterministic=True`` (a kdsl
        extension, as PyTorch's deterministic mode) takes the sort-based path instead, whose result does not
        depend on timing. See :mod:`kdsl.frontend.array.scatter`.

        >>> import kdsl as kd
        >>> a = kd.asarray([1.0, 5.0, 2.0])
        >>> kd.maximum.at(a, [0, 0, 2], [4.0, 3.0, 1.0])
        >>> a.tolist()
        [4.0, 5.0, 2.0]
        >>> m = kd.zeros((2, 3), dtype=kd.int32)
        >>> kd.add.at(m, ([0, 1, 1], [2, 0, 0]), 1)
        >>> m.tolist()
        [[0, 0, 1], [2, 0, 0]]
        """
        if b is None:  # NumPy's ValueError for a binary ufunc's .at without its second operand
            raise ValueError(f"second operand needed for ufunc: {self._name}.at(a, indices, b)")
        _ufunc_at(self._name, a, indices, b, deterministic, fn=self._fn)

    def __repr__(self) -> str:
        return f"<kdsl function {self._name} (with .at)>"


add = WithAt(km.add, "add")
subtract = WithAt(km.subtract, "subtract")
maximum = WithAt(km.maximum, "maximum")
minimum = WithAt(km.minimum, "minimum")


__all__: Sequence[str] = ["add", "bincount", "histogram", "maximum", "minimum", "subtract"]
