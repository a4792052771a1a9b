"""Lexicographic order: ``lexsort`` (sort by several keys, the last one primary) and ``sort_complex``
(complex numbers by real part, then imaginary part), NumPy 2's semantics.

How it runs, lazily on the device: a least-significant-key-first radix of stable sorts. The first key's
stable ``argsort`` gives an order; each further key is gathered in that order and stably argsorted, and the
order is permuted by the result. Stability keeps the earlier keys' order among equal later keys, so after the
last key the order is lexicographic with the last key primary. One sort per key (three per complex key: its
imaginary part, its real part, then which parts are NaN); nothing synchronises. NaNs sort last within each
key, as NumPy's do.

Example:
    >>> import kdsl as kd
    >>> surnames = kd.asarray([3, 1, 3, 2])
    >>> first_names = kd.asarray([9, 4, 1, 7])
    >>> kd.lexsort((first_names, surnames)).tolist()
    [1, 3, 2, 0]
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.complex_math import imag, real
from kdsl.frontend.array.creation import asarray, zeros
from kdsl.frontend.array.math import isnan

# the sorting module's along-axis gather (indices in range by construction: no read-back)
from kdsl.frontend.array.sorting import argsort, sort
from kdsl.frontend.array.take import gather_node


def _keys(keys: Any) -> list[Array]:
    """The keys as kdsl arrays of one shape (a 2-D array's rows are its keys, as in NumPy)."""
    if isinstance(keys, Array) or isinstance(keys, np.ndarray):
        if np.ndim(keys) == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        arr = keys if isinstance(keys, Array) else asarray(keys)
        out = [arr[i] for i in range(arr.shape[0])]
    else:
        dev = next((k.device for k in keys if isinstance(k, Array)), None) if hasattr(keys, "__iter__") else None
        if not hasattr(keys, "__iter__"):
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        out = [k if isinstance(k, Array) else asarray(k, device=dev) for k in keys]
    if not out:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(k.shape != out[0].shape for k in out):
        raise ValueError(f"all keys need to be the same shape, not {[k.shape for k in out]}")
    return out


def _real_keys(key: Array) -> list[Array]:
    """A complex key as three real keys, least significant first. NumPy's complex order is
    ``R + Rj < R + nanj < nan + Rj < nan + nanj``: first by that NaN class, then by real part, then by
    imaginary part."""
    if key.dtype.kind != "c":
        return [key]
    re, im = real(key), imag(key)
    nan_class = isnan(re).astype(dt.int8) * 2 + isnan(im).astype(dt.int8)
    return [im, re, nan_class]


def _along(a: Array, order: Array, axis: int) -> Array:
    return gather_node(a, order, axis, along=True, mode="clip")


REALIZE_EVERY = 64  # keys sorted between realisations of the running order


def _lex_order(keys: list[Array], axis: int) -> Array:
    """The permutation that sorts ``keys`` lexicographically along ``axis``, the last key primary."""
    parts = [part for key in keys for part in _real_keys(key)]
    order = argsort(parts[0], axis=axis)
    for k, key in enumerate(parts[1:]):
        order = _along(order, argsort(_along(key, order, axis), axis=axis), axis)
        if (k + 1) % REALIZE_EVERY == 0:  # many keys (np.lexsort(a.T) of wide rows): a long lazy chain grew
            realize(order)  # quadratically to build and run
    return order


def complex_order(x: Array, axis: int) -> Array:
    """The stable permutation sorting the complex ``x`` along ``axis`` in NumPy's order (for kd.sort and
    kd.argsort of complex arrays)."""
    return _lex_order([x], axis)


def lexsort(keys: Any, axis: int = -1) -> Array:
    """Indices that sort along ``axis`` by several keys (a sequence of same-shape arrays, or a 2-D array's
    rows): the last key is the primary one, earlier keys break its ties, and remaining ties keep their index
    order. Integer, float (NaN last), bool and complex keys. Runs on the device: one stable sort per key.

    Example:
        >>> import kdsl as kd
        >>> kd.lexsort([kd.asarray([1.0, 0.0, 2.0]), kd.asarray([5, 5, 1])]).tolist()
        [2, 1, 0]
    """
    ks = _keys(keys)
    if ks[0].ndim == 0:  # NumPy: 0-d keys have one order; its axis must still be -1 or 0
        if operator.index(axis) not in (-1, 0):
            raise np.exceptions.AxisError(operator.index(axis), 0)
        return zeros((), dtype=dt.int64 if ks[0].device.supports(dt.int64) else dt.int32, device=ks[0].device)
    ax = mv.normalize_axis(axis, ks[0].ndim)
    return _lex_order(ks, ax)


def _complex_of(d: dt.DType) -> dt.DType:
    """NumPy's ``sort_complex`` result for real input: complex64 for (u)int8/16, else complex128."""
    return dt.complex64 if d.np.char in "bhBH" else dt.complex128


def sort_complex(a: Any) -> Array:
    """A copy of ``a`` sorted along its last axis by real part, then imaginary part (NaNs last), as complex
    (real input: sorted, then complex64 for (u)int8/16 and complex128 otherwise, as NumPy's). Runs on the
    device (three stable sorts for complex input, one for real).

    Example:
        >>> import kdsl as kd
        >>> kd.sort_complex(kd.asarray([1 + 2j, 2 - 1j, 1 - 1j])).tolist()
        [(1-1j), (1+2j), (2-1j)]
    """
    x = a if isinstance(a, Array) else asarray(a)
    if x.ndim == 0:
        raise np.exceptions.AxisError(-1, 0)
    if x.dtype.kind != "c":
        return sort(x, axis=-1).astype(_complex_of(x.dtype))
    return _along(x, _lex_order([x], x.ndim - 1), x.ndim - 1)


__all__ = ["lexsort", "sort_complex"]
