"""NumPy's ``where=``, ``initial=`` and ``out=`` of reductions: ``kd.sum(a, where=a > 0)``,
``a.max(initial=0.0)``, ``kd.mean(a, axis=1, where=mask)``.

``where`` (broadcast to the input's shape) replaces the excluded elements by the reduction's identity before
reducing (0 for sums, 1 for products, False/True for any/all, ``initial`` for max/min, which have no identity
and so need it, as in NumPy); ``mean``/``var``/``std`` divide by the count of included elements. ``initial``
joins the reduction as one more element. Everything stays lazy and fuses into the reduction kernel.

    >>> import kdsl as kd
    >>> a = kd.asarray([[1.0, -2.0], [3.0, 4.0]])
    >>> kd.sum(a, where=a > 0).item(), a.max(axis=1, initial=2.5).tolist(), kd.mean(a, where=a > 0, axis=0).tolist()
    (8.0, [2.5, 4.0], [2.0, 4.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.ufunc_errors import output_casting_error
from kdsl.frontend.array.where_masks import where_mask


def mask_of(x: Array, where: Any) -> Array | None:
    """``where`` as a boolean kdsl array of ``x``'s shape (None for ``where=True``: everything included)."""
    if where is True or (isinstance(where, np.bool_) and bool(where)):
        return None
    w = Array(ops.const_node(where, dt.bool_, x.device)) if isinstance(where, (bool, np.bool_)) \
        else where_mask(where, x.device)
    try:
        if ops.broadcast_shapes(w.shape, x.shape) != x.shape:
            raise ValueError
    except ValueError:
        raise ValueError(f"where= of shape {w.shape} does not broadcast to the reduced array's shape {x.shape}") \
            from None
    return Array(mv.broadcast_node(w._node, x.shape))


def masked(x: Array, where: Any, fill: Any) -> Array:
    """``x`` with the elements ``where`` excludes replaced by ``fill`` (``x`` itself without a mask)."""
    w = mask_of(x, where)
    if w is None:
        return x
    return ops.where(w, x, constant(fill, x))


def constant(value: Any, x: Array) -> Array:
    """``value`` (a Python or NumPy scalar, or a kdsl array) in ``x``'s dtype on its device."""
    if isinstance(value, Array):
        return value.astype(x.dtype)
    if isinstance(value, np.generic):
        value = value.item()
    return Array(ops.const_node(value, x.dtype, x.device))


def count(x: Array, where: Any, axes: tuple[int, ...], dtype: dt.DType, keepdims: bool) -> Array | None:
    """How many elements ``where`` includes along ``axes`` (None without a mask: the full count)."""
    from kdsl.frontend.array.reductions import sum as total  # cycle: reductions imports this module

    w = mask_of(x, where)
    return None if w is None else total(w.astype(dtype), axis=axes, keepdims=keepdims)


def no_identity(name: str, initial: Any, where: Any) -> None:
    """max/min have no identity: a ``where`` mask needs ``initial`` (NumPy's ValueError)."""
    if initial is None and not (where is True or (isinstance(where, np.bool_) and bool(where))):
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one has "
                         "to specify 'initial'")


def into(result: Array, out: Any) -> Array:
    """NumPy's ``out=``: ``result`` written into the kdsl array ``out``, which is returned."""
    if out is None:
        return result
    if not isinstance(out, Array):
        raise TypeError("out= must be a kdsl Array (a NumPy out would mean a copy to the host); assign the "
                        "result instead")
    if out.shape != result.shape:
        raise ValueError(f"out= has shape {out.shape} but the reduction's result has shape {result.shape}")
    out[...] = result
    return out


def index_out(out):
    """``out`` of argmax/argmin, refused as NumPy refuses it: a dtype that does not cast safely to intp."""
    if isinstance(out, Array) and not np.can_cast(out.dtype.np, np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {out.dtype.np!r} to {np.dtype(np.intp)!r} according to "
                        "the rule 'safe'")
    return out


def root_into(variance: Array, out) -> Array:
    """NumPy's ``std(out=)``: the variance is written into ``out``, then ``sqrt(out, out=out)`` runs under the
    ufunc's ``same_kind`` rule, so an integer or bool ``out`` is sqrt's UFuncTypeError (checked before anything is
    written) and a float32 ``out`` holds the root of the float32-rounded variance.

    >>> import kdsl as kd
    >>> o = kd.zeros(())
    >>> root_into(kd.asarray(4.0), o) is o, float(o)
    (True, 2.0)
    """
    if isinstance(out, Array):  # sqrt's loop for out's dtype (int8: float16, int64: float64) must cast back
        loop = ops.apply("sqrt", out).dtype
        if not np.can_cast(loop.np, out.dtype.np, "same_kind"):
            raise output_casting_error("sqrt", loop, out.dtype, "same_kind",
                                       "pass a floating-point out (NumPy takes sqrt of out in place)")
    stored = into(variance, out)
    return into(ops.apply("sqrt", stored), stored)


def loop_dtype(x: Array, dtype: Any, out: Any) -> Any:
    """The dtype NumPy's ``sum``/``prod``/``cumsum``/``cumprod`` compute in: ``dtype`` when given, else with a
    kdsl ``out`` the promotion of out's dtype with the input's (NumPy resolves the loop from both: int64 data
    summed into a float32 ``out`` adds in float64, where kdsl's int64 default would wrap), else None (NumPy's
    default accumulator).

    >>> import kdsl as kd
    >>> loop_dtype(kd.asarray([1, 2]), None, kd.zeros((), dtype=kd.float32))
    kdsl.float64
    """
    if dtype is not None or not isinstance(out, Array):
        return dtype
    return dt.as_dtype(np.promote_types(out.dtype.np, x.dtype.np))


def checked_initial(initial: Any) -> Any:
    """A reduction's ``initial=``: NumPy converts it to the result's dtype, so text is its ValueError (a number
    is needed; kdsl arrays hold no text).

    >>> checked_initial(2.5), checked_initial(None)
    (2.5, None)
    """
    if isinstance(initial, (str, bytes)):
        raise ValueError(f"could not convert string {initial!r} to a number for initial=; pass a number")
    return initial


def initial_in(initial: Any, d: dt.DType) -> Any:
    """``initial`` converted to the reduction's result dtype ``d`` as NumPy stores it (an item assignment): a
    float into an integer type truncates, and a value the type cannot hold is NumPy's error (``OverflowError``
    for 300 into int8 or 1e30 into int64, ``ValueError`` for NaN, ``TypeError`` for a complex into a real type).
    A kdsl array is cast lazily (``astype``).

    >>> initial_in(2.5, dt.int64), initial_in(-1, dt.float32)
    (np.int64(2), np.float32(-1.0))
    >>> initial_in(300, dt.int8)
    Traceback (most recent call last):
    ...
    OverflowError: Python integer 300 out of bounds for int8
    """
    if isinstance(initial, Array):
        return initial.astype(d)
    slot = np.empty((), d.np)
    slot[()] = initial  # NumPy's own conversion of a scalar into the dtype, with its errors and ComplexWarning
    return slot[()]
